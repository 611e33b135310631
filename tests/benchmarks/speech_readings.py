"""Benchmark of the enrolment's check of a reading (trainer/speech/readings.py): how many good
readings it refuses and how many bad ones it keeps, on flite's voices, in quiet and in a room at
10 dB SNR (tests/support/room.py's crowd and pink noise).

Run: `.venv/bin/python tests/benchmarks/speech_readings.py [--voices slt,kal16,awb,rms,kal]
[--snr 10] [--draws 1] [--json FILE]`. It needs `flite` (apt-get install flite).

- **Good readings**: each voice reads each of the enrolment's prompts (their words), in quiet
  and in `--draws` draws of the room.
- **Bad readings**, each of every prompt, in the same rooms: **another prompt's words** (the next
  prompt's, of another game where it is), **a cough** (0.35 s of noise shaped like one, as loud as
  the voice's speech), **silence** (the room alone: digital silence in quiet).

Each is fed to a `Reading` in 0.1 s blocks as a microphone gives them, the room's noise 0.6 s
before and 1.0 s after it, and counted as kept or refused, with why; the seconds of speech a
syllable and the score gap of each kind are printed as quantiles, which is what SHORTEST,
LONGEST and GAP were chosen from. The CPU of a good reading's whole listening is printed with the
check and without it (a `Listener` of the same call fed the same audio): the check's cost.
Audio is cached under /tmp/dealer-trainer-speech-bench (never in the repository).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.flite import VOICES, missing, say
from tests.support.room import active_power, crowd_of, noisy, pcm_of
from trainer.speech import SAMPLE_RATE, Listener, enrolment
from trainer.speech.readings import Reading

CACHE = Path("/tmp/dealer-trainer-speech-bench")
#: the reasons a reading is refused, as trainer/speech/readings.py words them
REASONS = ("no speech", "went on too long", "too short", "too long", "does not sound like")


def cough(rng: np.random.Generator, like: np.ndarray) -> np.ndarray:
    """0.35 s of noise with a cough's quick rise and slower fall, as loud as `like` is."""
    n = int(0.35 * SAMPLE_RATE)
    t = np.arange(n) / n
    x = rng.standard_normal(n) * np.minimum(t / 0.1, 1) * np.exp(-3 * t)
    return x * np.sqrt(active_power(like) / active_power(x))


def judged(listener, pcm: bytes):
    """The verdict of a Reading (or a Listener) fed `pcm` in 0.1 s blocks, and the CPU (this
    thread's) of the whole listening."""
    cpu = time.thread_time()
    step = SAMPLE_RATE // 10 * 2
    for at in range(0, len(pcm), step):
        if (verdict := listener.feed(pcm[at:at + step])) is not None:
            return verdict, time.thread_time() - cpu
    return listener.finish(), time.thread_time() - cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--voices", default=",".join(VOICES))
    p.add_argument("--snr", type=float, default=10.0)
    p.add_argument("--draws", type=int, default=1, help="draws of the room for each reading")
    p.add_argument("--json", type=Path, help="write every case here")
    args = p.parse_args()
    if (why := missing()) is not None:
        print(f"speech_readings: {why}", file=sys.stderr)
        return 2
    CACHE.mkdir(exist_ok=True)
    crowd = crowd_of(CACHE)
    prompts = enrolment.prompts()
    others = [next((q for q in prompts[i + 1:] + prompts[:i] if q.game != pr.game), prompts[i - 1])
              for i, pr in enumerate(prompts)]
    cases = []
    cpu = time.process_time()
    for voice in args.voices.split(","):
        rng = np.random.default_rng([3, VOICES.index(voice)])
        for prompt, other in zip(prompts, others, strict=True):
            speech = pcm_of(say(prompt.words, voice, CACHE))
            bad = {"another prompt's words": pcm_of(say(other.words, voice, CACHE)),
                   "a cough": cough(rng, speech), "silence": np.zeros(0)}
            for room in ["quiet"] + [f"{args.snr:g} dB"] * args.draws:
                snr = None if room == "quiet" else args.snr
                for kind, audio in [("good", speech), *bad.items()]:
                    if kind == "silence" and snr is not None:  # the room alone: at the level
                        # it has around the voice's speech
                        pcm = noisy(speech, snr, rng, crowd)
                        x = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
                        x -= np.concatenate([np.zeros(int(0.6 * SAMPLE_RATE)), speech * 32767,
                                             np.zeros(len(x) - int(0.6 * SAMPLE_RATE)
                                                      - len(speech))])
                        pcm = np.clip(x, -32767, 32767).round().astype("<i2").tobytes()
                    else:
                        pcm = noisy(audio, snr, rng, crowd)
                    v, checked = judged(Reading(prompt), pcm)
                    c = v.check
                    cases.append({"voice": voice, "room": room, "kind": kind,
                                  "prompt": prompt.words, "refused": c.refused,
                                  "seconds": c.seconds, "syllables": c.syllables, "gap": c.gap,
                                  "cpu": checked})
                    if kind == "good":  # and heard as a call is, without the check
                        cases[-1]["heard_only"] = judged(
                            Listener(prompt.game, prompt.call.text), pcm)[1]
    cpu = time.process_time() - cpu
    if args.json:
        args.json.write_text(json.dumps(cases, indent=0))
    report(cases)
    good = [c for c in cases if "heard_only" in c]
    print(f"CPU of a good reading's listening (this thread): heard and checked, median "
          f"{1000 * statistics.median(c['cpu'] for c in good):.0f} ms, worst "
          f"{1000 * max(c['cpu'] for c in good):.0f} ms; heard only (a Listener), median "
          f"{1000 * statistics.median(c['heard_only'] for c in good):.0f} ms, worst "
          f"{1000 * max(c['heard_only'] for c in good):.0f} ms")
    print(f"CPU of the run: {cpu:.1f} s for {len(cases)} readings (making the audio included)")
    return 0


def report(cases: list[dict]) -> None:
    for room in dict.fromkeys(c["room"] for c in cases):
        print(f"--- {room}")
        for kind in dict.fromkeys(c["kind"] for c in cases):
            these = [c for c in cases if c["room"] == room and c["kind"] == kind]
            refused = [c for c in these if c["refused"]]
            word = "refused (wrongly)" if kind == "good" else "refused"
            print(f"  {kind}: {len(refused)} of {len(these)} {word}")
            why = Counter(next((w for w in REASONS if w in c["refused"]), c["refused"])
                          for c in refused)
            for reason, n in why.most_common():
                print(f"      {n} {reason}")
            if kind == "good":
                for c in refused:
                    print(f"      {c['voice']} {c['prompt']!r}: {c['refused']} "
                          f"(seconds {c['seconds']}, gap {c['gap']})")
            for key, label in (("per", "seconds a syllable"), ("gap", "gap")):
                values = sorted(c["seconds"] / c["syllables"] if key == "per" else c["gap"]
                                for c in these
                                if c["seconds"] is not None and (key == "per" or c["gap"]
                                                                 is not None))
                if len(values) >= 2:
                    q = statistics.quantiles(values, n=20)
                    print(f"      {label}: least {values[0]:.3g}, 5% {q[0]:.3g}, median "
                          f"{statistics.median(values):.3g}, 95% {q[-1]:.3g}, most "
                          f"{values[-1]:.3g}")


if __name__ == "__main__":
    raise SystemExit(main())
