"""Benchmark of spoken calls in noise (trainer.speech): flite's voices say every call of every game,
with a room's noise at about 10 dB SNR, heard through the app's path (a Listener fed 0.1 s blocks,
the endpointer, the recogniser, the verdict).

Run: `.venv/bin/python tests/benchmarks/speech_accuracy.py [--snr 10] [--voices slt,kal16,awb,rms,kal]
[--games ...] [--every N] [--quiet] [--garbage P] [--no-numbers] [--enrol N [--read-again N]]
[--favour W,...] [--json FILE]`. It
needs `flite` (apt-get install flite). Levers measured beside the product's path, none of them in
it (the numbers: speech_lab/README.md): `--denoise wiener` (a Wiener filter on the speech found,
its noise the room before it; `webrtc1`, WebRTC's noise suppression at level 1; `rnnoise`,
RNNoise's network, `rnnoise50` with half the audio as it came added back), `--decoder
beam=1e-60,topn=8,...` (pocketsphinx settings), `--prefix P` (a way out of each call's proper
beginnings to the end, heard as no call), `--favour W,...` (the call due favoured in the search by
each weight W: each call heard with itself due and with a neighbour due, each phrase that is no
call with the game's first call and with its nearest call due; every case heard as it is too, on
the same audio), and `--say-again` (after an unclear verdict, the same words again in a fresh draw
of the room, as the app asks once; counted beside the first try).

- **Voices**: flite's five that say any text. The cost of the grammar's garbage branch (GARBAGE
  in trainer/speech/grammar.py) was chosen on awb and rms only; slt, kal16 and kal are held out,
  and the counts are printed for each voice and for the held-out ones together.
- **Noise**: a room: four of flite's voices at once saying sentences that are no call (crowd
  talk, each talker at its own loudness and start), plus pink noise 10 dB under that talk. The
  noise runs BEFORE (0.6 s) before the call and AFTER (1.0 s) after it, as a microphone hears it
  (`--before`, `--after`): the endpointer learns the room's floor from the stretch before.
- **SNR**: the call's power over its active part (its 20 ms frames within 30 dB of its loudest)
  against the noise's power over the whole of it; the noise is scaled to the SNR asked.
- **Counts**: each call is heard with that call due: right, wrong, no call, unclear. A call heard
  as another call is what would grade a wrong call right (the trainee says X while Y is due and
  X is heard as Y), so "wrong" counts the wrong calls graded right as well. Phrases that are no
  call of the game (greetings, other games' calls, numbers that are not calls): unclear out of N,
  and how many were heard as a call.
- **Timings**: the verdict's time after the end of speech (wall and this thread's CPU: median,
  95th percentile, worst), the grammar's load for each game (CPU), and the recogniser's peak
  memory (maximum resident set of a process that loads it, every game's grammar, and decodes).
  For each game, the CPU after the end of speech (median and worst) is that of the call that
  gave the verdict: the block of audio in which the endpointer ended the speech, or finish()
  when it did not end it before the audio ended; how often the endpointer ended it is counted
  (pocketsphinx's, which took the crowd's talk for speech, ended 1 of 75 noisy calls;
  trainer/speech/endpoint.py's, over the room's floor, ends nearly all).

- **Enrolment** (`--enrol N`): each voice reads the first N of the enrolment's prompts
  (trainer.speech.enrolment.prompts: calls across the games) in the run's noise, each in a draw
  of the room of its own (a generator of its own, so the calls tested are in the same noise as
  without `--enrol`); the speech found in each (`speech_of`) gives that voice's transform, and
  every call and phrase of the voice is heard twice, on the same audio: by a listener without
  the transform and by one with it (`Listener(voice=...)`). A call or phrase tested whose words
  are those of an enrolment prompt is left out of both (flite says a text the same every time:
  it would be the enrolment's own audio in other noise), and how many is printed. The estimate's
  CPU is printed for each voice. `--enrol-snr` enrols in another room than the one tested
  (`quiet`, or an SNR). Each reading is checked as the app checks it before keeping it
  (trainer.speech.readings.Reading, fed in 0.1 s blocks as the microphone gives them): one the
  app would refuse is read again, in a fresh draw of the room, up to `--read-again` times (a
  trainee presses Again), and a prompt still refused then is left out of the fit; the refusals
  are counted for each voice, by reason, with the prompts given up. (The draws after a refusal
  are extra draws of the enrolment's generator: the readings after it are in other noise than
  before the check, the calls tested are not.)

Audio is cached under /tmp/dealer-trainer-speech-bench (never in the repository); what a run
writes (the voices' transforms) is in a folder of its own there, removed when it ends, so that
runs at once do not meet.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.speech_readings import REASONS, judged
from tests.support.flite import VOICES, missing, say
from tests.support.room import AFTER, BEFORE, crowd_of, noisy, pcm_of
from trainer import games
from trainer.speech import SAMPLE_RATE, Listener, enrolment, spoken_calls
from trainer.speech.readings import Reading

CACHE = Path("/tmp/dealer-trainer-speech-bench")
CALIBRATION = ("awb", "rms")
#: how many times a reading the app refuses is read again, by default (--read-again)
READ_AGAIN = 5
#: phrases that are no call of some game: greetings, other games' calls, numbers that are not
#: calls; each game is given those that are none of its calls (not_calls)
NOT_CALLS = ("good evening everyone", "hello there", "how are you doing tonight",
             "place your bets please", "thank you very much", "seven three five", "nine four six",
             "twelve", "fourteen", "red four blue two and six", "green two three red four gain of one",
             "three sixes", "first down on the fifteen", "no more", "one more ace",
             "extra point", "seven out", "yo eleven")


def not_calls(game: str) -> tuple[str, ...]:
    """NOT_CALLS less the game's own calls (said as any of their word sequences): another game's
    call may be one of this game's ("three sixes" in both High Roll Dice games)."""
    said = {s for call in spoken_calls(game) for s in call.said}
    return tuple(p for p in NOT_CALLS if p not in said)


def heard(pcm: bytes, game: str, expected: str, voice: Path | None = None,
          favour: float | None = None):
    """The verdict (with `voice`, a transform file, heard with it; with `favour`, the call
    expected favoured in the search by that weight, speech_lab/favour.py); the CPU of the whole
    listening; the CPU after the end of speech (of the call that gave the verdict: the block in
    which the endpointer ended the speech, else finish() at the end of the audio); and
    whether the endpointer ended the speech before the audio ended."""
    listener = Listener(game, expected, voice=voice)
    if favour is not None:
        from tests.benchmarks.speech_lab import favour as favouring

        listener._grammar = favouring.grammar_for(listener._recogniser, game, listener._call,
                                                  favour)
    step = SAMPLE_RATE // 10 * 2
    cpu = time.thread_time()
    ended = True
    for at in range(0, len(pcm), step):
        block = time.thread_time()
        if (verdict := listener.feed(pcm[at:at + step])) is not None:
            break
    else:
        block = time.thread_time()
        verdict = listener.finish()
        ended = False
    end = time.thread_time()
    return verdict, end - cpu, end - block, ended


def peak_memory() -> float:
    """MiB: the peak resident set (VmHWM) of a process that loads the recogniser and every grammar
    and decodes a second of audio with each. (Not getrusage's ru_maxrss, which Linux carries over
    an exec from the forked copy of this big process.)"""
    code = ("import sys; sys.path.insert(0, '.');"
            "from trainer.speech.recogniser import recogniser; from trainer import games;"
            "r = recogniser();"
            "[r.decode(r.grammar(g), bytes(32000)) for g in games.GAME_IDS];"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0];"
            "print(int(hwm.split()[1]) / 1024)")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root)
    return float(out.stdout.strip())


def grammar_loads() -> dict[str, float]:
    from trainer.speech.calls import _calls
    from trainer.speech.recogniser import Recogniser

    start = time.process_time()
    r = Recogniser()
    out = {"model": time.process_time() - start}
    for game in games.GAME_IDS:
        _calls.cache_clear()
        start = time.process_time()
        r.grammar(game)
        out[game] = time.process_time() - start
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--snr", type=float, default=10.0)
    p.add_argument("--quiet", action="store_true", help="no noise")
    p.add_argument("--voices", default=",".join(VOICES))
    p.add_argument("--games", default=",".join(games.GAME_IDS))
    p.add_argument("--every", type=int, default=1, help="every Nth call of each game only")
    p.add_argument("--garbage", type=float, help="the garbage branch's cost, for calibration")
    p.add_argument("--prefix", type=float, metavar="P",
                   help="a call cut short heard as no call, its way out at probability P "
                        "(speech_lab/prefix.py; not the product's)")
    p.add_argument("--favour", metavar="W,...",
                   help="each case heard again with the call due favoured in the search by each "
                        "weight W (speech_lab/favour.py; not the product's): each call with itself "
                        "due and with its neighbour due, each phrase with the game's first call "
                        "and its nearest call due")
    p.add_argument("--no-numbers", action="store_true",
                   help="the garbage branch without the numbers no call has (grammar.NUMBERS)")
    p.add_argument("--bestpath", choices=("on", "off"),
                   help="the decoder's lattice pass (trainer/speech/recogniser.py's, if not given)")
    p.add_argument("--denoise", metavar="wiener|webrtcN|rnnoise|rnnoiseK",
                   help="a Wiener filter on the speech found, its noise the room before it, "
                        "WebRTC's noise suppression at level N, or RNNoise's network (with K%% "
                        "of the audio as it came added back), both fed "
                        "every frame as it comes (speech_lab/denoise.py, speech_lab/rnnoise.py; "
                        "not the product's), in the listening and the enrolment alike")
    p.add_argument("--decoder", default="", metavar="NAME=VALUE,...",
                   help="pocketsphinx settings over trainer/speech/recogniser.py's, such as "
                        "beam=1e-60,pbeam=1e-60,wbeam=1e-40,topn=8,fillprob=1e-4")
    p.add_argument("--say-again", action="store_true",
                   help="after an unclear verdict, the same words again in a fresh draw of the "
                        "room (the app's one \"say again\"), counted beside the first try")
    p.add_argument("--before", type=float, default=BEFORE, help="seconds of noise before the call")
    p.add_argument("--after", type=float, default=AFTER, help="seconds of noise after the call")
    p.add_argument("--enrol", type=int, default=0, metavar="N",
                   help="each voice enrolled with N calls; every case heard with and without")
    p.add_argument("--read-again", type=int, default=READ_AGAIN, metavar="N",
                   help="an enrolment reading the app's check refuses is read again (a fresh "
                        f"draw of the room) up to N times (default {READ_AGAIN})")
    p.add_argument("--enrol-snr", help="the enrolment's room instead of the run's: an SNR in dB, "
                   "or 'quiet' (a trainee enrols once, and practises in another room)")
    p.add_argument("--json", type=Path, help="write every case here")
    args = p.parse_args()
    if args.favour:
        args.favour = [float(w) for w in args.favour.split(",")]
    if (why := missing()) is not None:
        print(f"speech_accuracy: {why}", file=sys.stderr)
        return 2
    if args.garbage is not None:
        from trainer.speech import grammar

        grammar.GARBAGE = args.garbage
    if args.prefix is not None:
        from tests.benchmarks.speech_lab import prefix

        prefix.cut_short(args.prefix)
    if args.no_numbers:
        from trainer.speech import grammar

        grammar.NUMBERS = ()
    if args.bestpath is not None:
        from trainer.speech import recogniser

        recogniser._CONFIG["bestpath"] = args.bestpath == "on"
    from trainer.speech import listener, recogniser

    if args.denoise:
        from tests.benchmarks.speech_lab import denoise

        if args.denoise == "wiener":
            cleaned = denoise.RoomEndpointer
        elif args.denoise.startswith("webrtc") and args.denoise[6:].isdigit():
            cleaned = denoise.webrtc(int(args.denoise[6:]))
        elif args.denoise == "rnnoise" or (args.denoise.startswith("rnnoise")
                                           and args.denoise[7:].isdigit()):
            cleaned = denoise.rnnoise(int(args.denoise[7:] or 0) / 100)
        else:
            p.error(f"--denoise {args.denoise}: wiener, rnnoise (rnnoiseK: K% of the audio as it "
                    "came added back), or webrtc and a level (webrtc1)")
        # the listening and the enrolment's readings (--enrol) through the same front end
        listener.Endpointer = enrolment.Endpointer = cleaned  # type: ignore[misc]
    for setting in filter(None, args.decoder.split(",")):
        name, _, value = setting.partition("=")
        recogniser._CONFIG[name] = int(value) if value.isdigit() else float(value)
    snr = None if args.quiet else args.snr
    voices = args.voices.split(",")
    CACHE.mkdir(exist_ok=True)
    crowd = crowd_of(CACHE)
    loads = grammar_loads()
    rng = np.random.default_rng(1)
    enrol_snr = snr if args.enrol_snr is None else (
        None if args.enrol_snr == "quiet" else float(args.enrol_snr))
    with run_folder() as mine:
        return run(args, snr, voices, crowd, loads, rng, enrol_snr, mine)


def run(args, snr, voices, crowd, loads, rng, enrol_snr, mine: Path) -> int:
    transforms = {v: enrol(v, args.enrol, enrol_snr, crowd, args.before, args.after, mine,
                           args.read_again) for v in voices} if args.enrol else {}
    enrolled = {p.words for p in enrolment.prompts(args.enrol)} if args.enrol else set()
    left_out = 0
    cases = []
    for game in args.games.split(","):
        calls = spoken_calls(game)[:: args.every]
        tests = [(random.Random(c.text).choice(c.said), c.text, True) for c in calls]
        tests += [(phrase, calls[0].text, False) for phrase in not_calls(game)]
        for voice in voices:
            heard_here = []
            for words, expected, in_grammar in tests:
                pcm = noisy(pcm_of(say(words, voice, CACHE)), snr, rng, crowd, args.before,
                            args.after)  # drawn though left out: the next is in the same noise
                if words in enrolled:
                    left_out += 1
                else:
                    heard_here.append((words, expected, in_grammar, pcm))
            # all without the transform, then all with it: the process holds one recogniser
            for transform in (None, transforms.get(voice)) if args.enrol else (None,):
                for words, expected, in_grammar, pcm in heard_here:
                    v, cpu, last, ended = heard(pcm, game, expected, transform)
                    cases.append({"game": game, "voice": voice,
                                  "said": expected if in_grammar else words, "in": in_grammar,
                                  "kind": v.kind, "heard": v.heard, "words": v.said,
                                  "decided": v.decided, "cpu": cpu, "last": last,
                                  "ended": ended, "enrolled": transform is not None})
                    if args.favour:
                        favoured(cases[-1], pcm, game, calls, words, expected, in_grammar,
                                 transform, args.favour)
                    if args.say_again:
                        again(cases, pcm_of(say(words, voice, CACHE)), snr, crowd, args, game,
                              expected, transform)
    if args.json:
        args.json.write_text(json.dumps(cases, indent=0))
    memory = peak_memory()
    if args.favour:
        from tests.benchmarks.speech_lab import favour

        for label, enrolled_ in (("WITHOUT enrolment", False), ("WITH enrolment", True)):
            if any(c["enrolled"] is enrolled_ for c in cases):
                print(f"=== {label}")
                report_favour([c for c in cases if c["enrolled"] is enrolled_], voices,
                              args.favour)
        print("\n".join(favour.load_report()))
    if args.enrol:
        print(f"enrolment: {args.enrol} calls a voice; {left_out} cases left out (the words of "
              f"an enrolment call), {len(cases) // 2} heard with and without")
        for label, enrolled_ in (("WITHOUT enrolment", False), ("WITH enrolment", True)):
            print(f"--- {label}")
            report([c for c in cases if c["enrolled"] is enrolled_], voices, snr, loads, memory)
            if args.say_again:
                report_again([c for c in cases if c["enrolled"] is enrolled_], voices)
    else:
        report(cases, voices, snr, loads, memory)
        if args.say_again:
            report_again(cases, voices)
    if args.denoise and args.denoise != "wiener":
        from tests.benchmarks.speech_lab.denoise import Tally

        print(Tally.per_second())
    return 0


def favoured(case: dict, pcm: bytes, game: str, calls, words: str, expected: str,
             in_grammar: bool, transform: Path | None, weights: list[float]) -> None:
    """The case heard again with the call due favoured by each weight (speech_lab/favour.py):
    a call with itself due (where it was heard right as it is, favouring it keeps it so: its
    path's score rises against every other's, at every frame, so the beam keeps what it kept)
    and with its neighbour due (heard as that neighbour: a wrong call graded right); a phrase that
    is no call with the game's first call due (as it is heard here) and with its nearest call due
    (heard as the call due: a phrase graded right)."""
    from tests.benchmarks.speech_lab import favour

    case["fav"] = {}
    if in_grammar:
        near, away = favour.neighbour(words, calls)
        case.update(near=near.text, away=away)
        dues = [("self", expected), ("near", near.text)]
    else:
        nearest = favour.nearest(words, calls).text
        case["nearest"] = nearest
        dues = [("self", expected), ("nearest", nearest)]
    for w in weights:
        got = case["fav"][w] = {}
        for role, due in dues:
            if role == "nearest" and due == expected:
                got[role] = got["self"]
                continue
            if role == "self" and case["kind"] == "right":
                got[role] = {"kind": "right", "heard": case["heard"], "last": None}
                continue
            v, _, last, _ = heard(pcm, game, due, transform, w)
            got[role] = {"kind": v.kind, "heard": v.heard, "last": last, "words": v.said}


def report_favour(cases: list[dict], voices: list[str], weights: list[float]) -> None:
    """For each weight: the calls with themselves due (right, wrong, unclear), by voice and held
    out; with their neighbour due, how many were graded right (must be 0); the phrases heard as a
    call, and graded right (heard as the call due: must be 0); the verdict's CPU after the end of
    speech by game. As it is, the grammar is the same whatever call is due: the case's one best
    path is graded against each call due."""
    calls = [c for c in cases if c["in"]]
    phrases = [c for c in cases if not c["in"]]
    firsts = {c["game"]: spoken_calls(c["game"])[0].text for c in phrases}
    for w in [None, *weights]:
        def of(c: dict, role: str, due: str | None, w: float | None = w) -> dict | None:
            if w is not None:
                return c["fav"][w].get(role)
            kind = ("unclear" if c["heard"] is None else "right" if c["heard"] == due else "wrong")
            return {"kind": kind, "heard": c["heard"], "last": c["last"] if role == "self" else None}

        as_self = [{**c, **of(c, "self", c["said"] if c["in"] else firsts[c["game"]])}
                   for c in cases]
        print(f"--- {'as it is' if w is None else f'the call due favoured, W={w:g}'}")
        for voice in voices:
            held = "calibration" if voice in CALIBRATION else "held out"
            print(f"  {voice:6s} ({held}): {counts([c for c in as_self if c['voice'] == voice])}")
        for name, group in (("held-out voices", [c for c in as_self if c["voice"] not in CALIBRATION]),
                            ("calibration", [c for c in as_self if c["voice"] in CALIBRATION]),
                            ("every voice", as_self)):
            print(f"  {name}: {counts(group)}")
        for game in dict.fromkeys(c["game"] for c in cases):
            print(f"  {game}, held out: "
                  f"{counts([c for c in as_self if c['game'] == game and c['voice'] not in CALIBRATION])}")
        near = [(c, of(c, "near", c["near"])) for c in calls]
        graded = [(c, v) for c, v in near if v["kind"] == "right"]
        print(f"  with a neighbour due ({sum(c['away'] == 1 for c in calls)} one word away, "
              f"{sum(c['away'] > 1 for c in calls)} more): wrong call graded right {len(graded)} "
              f"(held out {sum(c['voice'] not in CALIBRATION for c, _ in graded)}); heard as the "
              f"call said {sum(v['heard'] == c['said'] for c, v in near)}, unclear "
              f"{sum(v['kind'] == 'unclear' for _, v in near)}"
              + "".join(f"\n    {c['voice']} {c['game']}: said {c['said']!r}, due {c['near']!r}"
                        for c, _ in graded))
        for role, label in (("self", "the game's first call"), ("nearest", "the nearest call")):
            got = [(c, v) for c in phrases
                   if (v := of(c, role, firsts[c["game"]] if role == "self" else c["nearest"]))]
            print(f"  phrases with {label} due ({len(got)}): heard as a call "
                  f"{sum(v['heard'] is not None for _, v in got)}, graded right "
                  f"{sum(v['kind'] == 'right' for _, v in got)}"
                  + "".join(f"\n    {c['voice']} {c['game']}: {c['said']!r} as {v['heard']!r}"
                            f"{' (due: graded right)' if v['kind'] == 'right' else ''}"
                            for c, v in got if v["heard"] is not None))
        for game in dict.fromkeys(c["game"] for c in cases):
            last = sorted(v["last"] for c in cases if c["game"] == game
                          for r in ("self", "near", "nearest")
                          if (v := of(c, r, None)) and v["last"] is not None
                          and v["kind"] != "none")
            if last:
                print(f"  {game}: verdict's CPU after the end of speech, median "
                      f"{1000 * statistics.median(last):.0f} ms, worst {1000 * last[-1]:.0f} ms "
                      f"({len(last)} decodes)")


@contextmanager
def run_folder() -> Iterator[Path]:
    """A folder of this run's own under CACHE, for what it writes (the voices' transforms: two
    runs at once wrote one voice's through the same temporary name, and one crashed); removed
    when the run ends."""
    CACHE.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"run-{os.getpid()}-", dir=CACHE))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def enrol(voice: str, n: int, snr: float | None, crowd: list[np.ndarray], before: float,
          after: float, folder: Path, read_again: int = READ_AGAIN) -> Path:
    """The voice's transform from the first n prompts, said in the run's noise (a draw of the
    room for each, from a generator of the voice's own), written in the run's own `folder`; each
    reading kept only where the app's check keeps it (read again, in a fresh draw, up to
    `read_again` times)."""
    rng = np.random.default_rng([2, VOICES.index(voice)])
    pairs, refused, given_up = [], Counter(), []
    for prompt in enrolment.prompts(n):
        speech = pcm_of(say(prompt.words, voice, CACHE))
        for _ in range(1 + read_again):
            pcm = noisy(speech, snr, rng, crowd, before, after)
            verdict, _ = judged(Reading(prompt), pcm)
            why = verdict.check.refused
            if why is None:
                pairs.append((enrolment.speech_of(pcm), prompt.words))
                break
            refused[next((w for w in REASONS if w in why), why)] += 1
        else:
            given_up.append(prompt.words)
    print(f"enrolment of {voice}: {len(pairs)} of {n} prompts kept by the app's check, "
          f"{sum(refused.values())} readings refused and read again"
          + "".join(f"; {k} {reason}" for reason, k in refused.most_common())
          + (f"; given up after {1 + read_again} readings: " + ", ".join(map(repr, given_up))
             if given_up else ""), flush=True)
    cpu = time.process_time()
    found = enrolment.estimate(pairs)
    cpu = time.process_time() - cpu
    path = folder / f"{voice}-{n}-{'quiet' if snr is None else f'{snr:g}dB'}.mllr"
    found.transform.write(path)
    print(f"enrolment of {voice}: {len(pairs) - len(found.left_out)} of {len(pairs)} readings "
          f"aligned, {found.frames} frames; estimate CPU {found.cpu:.2f} s (thread), "
          f"{cpu:.2f} s (process)", flush=True)
    return path


def counts(cases: list[dict]) -> str:
    calls = [c for c in cases if c["in"]]
    phrases = [c for c in cases if not c["in"]]
    k = {kind: sum(c["kind"] == kind for c in calls) for kind in ("right", "wrong", "none", "unclear")}
    right = 100 * k["right"] / len(calls) if calls else 0
    unclear = sum(c["kind"] == "unclear" for c in phrases)
    as_call = sum(c["heard"] is not None for c in phrases)
    return (f"{k['right']}/{len(calls)} right ({right:.1f}%), {k['wrong']} wrong, "
            f"{k['none']} no call, {k['unclear']} unclear; no-call phrases unclear "
            f"{unclear}/{len(phrases)}, heard as a call {as_call}")


def again(cases: list[dict], speech, snr, crowd, args, game: str, expected: str,
          transform: Path | None = None) -> None:
    """The app's one "say again": after an unclear verdict (the last case), the same audio said
    again in a fresh draw of the room (seeded by the case, so the same in every run, and apart
    from the first tries' draws, which stay those of a run without it)."""
    case = cases[-1]
    if case["kind"] != "unclear":
        return
    rng = np.random.default_rng([2, len(cases)])
    v, _, last, _ = heard(noisy(speech, snr, rng, crowd, args.before, args.after), game, expected,
                          transform)
    case.update(kind2=v.kind, heard2=v.heard, last2=last)


def again_counts(cases: list[dict]) -> str:
    """Calls right on the first try, or on the second after an unclear one; wrong on either; and
    phrases that are no call heard as a call on either try."""
    calls = [c for c in cases if c["in"]]
    phrases = [c for c in cases if not c["in"]]
    final = [c.get("kind2", c["kind"]) for c in calls]
    first = sum(c["kind"] == "right" for c in calls)
    right = sum(k == "right" for k in final)
    wrong = sum(k == "wrong" for k in final)
    as_call = sum(c["heard"] is not None or c.get("heard2") is not None for c in phrases)
    unclear = sum(c.get("kind2", c["kind"]) == "unclear" for c in phrases)
    return (f"{first}/{len(calls)} right first, {right}/{len(calls)} "
            f"({100 * right / len(calls) if calls else 0:.1f}%) after a say again, {wrong} wrong, "
            f"{sum(k == 'unclear' for k in final)} unclear twice; phrases unclear twice "
            f"{unclear}/{len(phrases)}, heard as a call on either try {as_call}")


def report_again(cases: list[dict], voices: list[str]) -> None:
    print("with the one \"say again\" (a second try after an unclear one, a fresh draw of the room):")
    for voice in voices:
        print(f"  {voice:6s}: {again_counts([c for c in cases if c['voice'] == voice])}")
    print(f"held-out voices: {again_counts([c for c in cases if c['voice'] not in CALIBRATION])}")
    print(f"every voice:     {again_counts(cases)}")
    for game in dict.fromkeys(c["game"] for c in cases):
        print(f"  {game}: {again_counts([c for c in cases if c['game'] == game])}")


def report(cases: list[dict], voices: list[str], snr: float | None, loads: dict[str, float],
           memory: float) -> None:
    print(f"noise: {'none' if snr is None else f'a room at {snr:g} dB SNR'}")
    for voice in voices:
        held = "calibration" if voice in CALIBRATION else "held out"
        print(f"  {voice:6s} ({held}): {counts([c for c in cases if c['voice'] == voice])}")
    held_out = [c for c in cases if c["voice"] not in CALIBRATION]
    print(f"held-out voices: {counts(held_out)}")
    print(f"every voice:     {counts(cases)}")
    for game in dict.fromkeys(c["game"] for c in cases):
        print(f"  {game}: {counts([c for c in cases if c['game'] == game])}")
        last = sorted(c["last"] for c in cases if c["game"] == game and c["kind"] != "none")
        if last:
            print(f"    verdict's CPU after the end of speech: median "
                  f"{1000 * statistics.median(last):.0f} ms, worst {1000 * last[-1]:.0f} ms")
        of_game = [c for c in cases if c["game"] == game]
        print(f"    speech ended by the endpointer in {sum(c['ended'] for c in of_game)} of "
              f"{len(of_game)} (else at the end of the audio, by finish())")
    decided = sorted(c["decided"] for c in cases if c["kind"] != "none")
    cpu = sorted(c["cpu"] for c in cases)
    if decided:
        q = statistics.quantiles(decided, n=20)
        print(f"verdict after the end of speech (wall): median {1000 * statistics.median(decided):.0f} ms, "
              f"95th percentile {1000 * q[-1]:.0f} ms, worst {1000 * decided[-1]:.0f} ms")
        print(f"CPU per call (the whole listening, this thread): median "
              f"{1000 * statistics.median(cpu):.0f} ms, worst {1000 * cpu[-1]:.0f} ms")
    print("grammar load (CPU): " + ", ".join(f"{k} {1000 * v:.0f} ms" for k, v in loads.items()))
    print(f"recogniser's peak memory: {memory:.0f} MiB")


if __name__ == "__main__":
    raise SystemExit(main())
