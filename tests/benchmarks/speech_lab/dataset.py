"""The fixed evaluation set: calls of every game in the words the engine writes them, spoken by
Debian flite voices, out-of-grammar phrases, and two noises mixed at 10 dB SNR measured on the
speech's active part. Everything is seeded; audio is cached under /tmp/speech-lab.

Run: python tests/benchmarks/speech_lab/dataset.py  (writes /tmp/speech-lab/set.json and the WAVs;
needs Debian flite and the pocketsphinx wheel, which brings its English model)
"""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from trainer import games
from trainer.games import high_roll_dice as hrd
from trainer.games import three_dice_football as tdf

OUT = Path("/tmp/speech-lab")
RATE = 16000
SNR_DB = 10.0
#: flite's voices that read any text (awb_time reads times only). kal and kal16 are one speaker,
#: so they are one fold: leave-one-speaker-out calibration never sees the voice it is tested on.
VOICES = ("kal", "kal16", "awb", "rms", "slt")
FOLD = {"kal": "kal", "kal16": "kal", "awb": "awb", "rms": "rms", "slt": "slt"}
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
         "pai-gow-dice")
COMMON = ("No roll", "No more bets")
NUM = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
       9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


def spoken(call: str) -> str:
    """A call as words the recogniser's dictionary has: digits said, TD a touchdown."""
    text = call.replace("TD", "touchdown").replace("-", " ")
    text = re.sub(r"\d+", lambda m: NUM[int(m.group())], text)
    return " ".join(re.sub(r"[^a-z ]", " ", text.lower()).split())


def all_calls(game: str) -> list[str]:
    """Every call the game allows, as the engine writes it (the grammar is made of these)."""
    g = games.get(game)
    calls: set[str] = set(COMMON)
    if game == "props-and-hops":
        calls |= {g.call_of(d) for d in itertools.product(range(1, 7), repeat=2)}
    elif game == "three-dice-football":
        for d in itertools.product(range(1, 7), repeat=3):
            calls.add(g.call_of(d))
            calls.add(tdf.extra_point_call(d))
    elif game == "pai-gow-dice":
        calls |= {g.call_of(d) for d in itertools.product(range(1, 7), repeat=3)}
    else:
        n = g.dice
        calls.add(hrd.call(1, 1))
        for face in range(1, 7):
            for count in range(2, n + 1):
                calls.add(hrd.call(face, count))
            if n == 10:  # the extra roll (§ 675a.4(h)) is the 10-dice game's
                for held in range(2, n):
                    for m in range(min(5, n - held) + 1):
                        calls.add(hrd.extra_roll_call(face, m, held + m))
    return sorted(calls)


#: how many of each game's calls are spoken (all of Props & Hops'), seeded
SAMPLE = {"props-and-hops": 99, "three-dice-football": 28, "high-roll-dice": 18,
          "high-roll-dice-6": 10, "pai-gow-dice": 24}

GENERIC_OOG = [
    "good evening everybody", "place your bets please", "hello how are you", "thank you sir",
    "shooter coming out", "color coming in", "dealer check please", "hands off the table",
    "seven out line away", "yo eleven", "twenty two black", "thirteen", "eight five two",
    "four four four four", "fifteen", "one two three four five six", "pay the line",
    "hot dice tonight", "change only", "let it ride", "blackjack pays three to two",
    "hard eight", "nice roll", "pass the dice", "good luck everyone", "twenty one",
    "six five four three", "red red blue", "green team wins", "all bets down",
]


def oog_for(game: str, rng: random.Random) -> list[str]:
    """Out-of-grammar phrases for a game: generic table talk and non-call numbers, and other
    games' calls that are no call of this one."""
    own = {spoken(c) for c in all_calls(game)}
    generic = [p for p in rng.sample(GENERIC_OOG, 8) if p not in own]
    others = [c for other in GAMES if other != game for c in all_calls(other)
              if spoken(c) not in own]
    return generic + [spoken(c) for c in rng.sample(others, 4)]


BABBLE_TEXT = [
    "I think we should get dinner after this", "did you see the game last night",
    "my brother is coming to town next week", "the parking garage was full again",
    "can I get another drink over here", "she said the show starts at nine",
    "we drove up from Philadelphia this morning", "that was the best steak I ever had",
    "are you staying at the hotel", "let me call my wife real quick",
    "the traffic on the turnpike was terrible", "I need to find an ATM",
    "who wants to go to the buffet", "we won a little bit yesterday",
]


def flite(voice: str, text: str, path: Path) -> np.ndarray:
    if not path.exists():
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(path)], check=True)
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    if rate != RATE:  # kal speaks at 8 kHz: band-limited interpolation to 16 kHz
        spec = np.fft.rfft(x)
        n = len(x) * RATE // rate
        x = np.fft.irfft(spec, n) * (n / len(x))
    return x


def active_power(x: np.ndarray) -> float:
    """Mean power over 20 ms frames within 35 dB of the loudest (the speech's active part)."""
    frames = x[: len(x) // 320 * 320].reshape(-1, 320)
    p = (frames ** 2).mean(axis=1)
    return float(p[p > p.max() * 10 ** (-35 / 10)].mean())


def babble(exclude: str, n: int, rng: random.Random) -> np.ndarray:
    """A room's crowd talk: five talkers, each another voice than the caller's, at random
    offsets, each utterance scaled to one power."""
    out = np.zeros(n)
    talkers = [v for v in VOICES if FOLD[v] != FOLD[exclude]]
    for k in range(5):
        voice = talkers[k % len(talkers)]
        pos = -rng.randrange(RATE)
        while pos < n:
            i = rng.randrange(len(BABBLE_TEXT))
            s = flite(voice, BABBLE_TEXT[i], OUT / "babble" / f"{voice}-{i}.wav")
            s = s / np.sqrt(active_power(s))
            a, b = max(pos, 0), min(pos + len(s), n)
            out[a:b] += s[a - pos: b - pos]
            pos += len(s) + rng.randrange(RATE // 5)
    return out


def broadband(n: int, rng: random.Random) -> np.ndarray:
    """Pink-ish broadband noise (white shaped by 1/sqrt(f)), like a room's air handling."""
    white = np.random.default_rng(rng.randrange(2**32)).standard_normal(n)
    spec = np.fft.rfft(white)
    f = np.arange(len(spec)) + 1.0
    return np.fft.irfft(spec / np.sqrt(f), n)


def mix(speech: np.ndarray, kind: str, voice: str, rng: random.Random) -> np.ndarray:
    pad = int(0.4 * RATE)
    n = len(speech) + 2 * pad
    noise = babble(voice, n, rng) if kind == "crowd" else broadband(n, rng)
    gain = np.sqrt(active_power(speech) / (noise ** 2).mean() / 10 ** (SNR_DB / 10))
    x = noise * gain
    x[pad: pad + len(speech)] += speech
    peak = np.abs(x).max()
    return x * (20000 / peak) if peak > 20000 else x


def write(path: Path, x: np.ndarray) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.clip(x, -32768, 32767).astype(np.int16).tobytes())


def main() -> None:
    for d in ("clean", "babble", "mixed"):
        (OUT / d).mkdir(parents=True, exist_ok=True)
    rng = random.Random(27)
    items = []
    for game in GAMES:
        calls = all_calls(game)
        dice_calls = [c for c in calls if c not in COMMON]
        chosen = list(COMMON) + rng.sample(dice_calls, min(SAMPLE[game], len(dice_calls)))
        for c in chosen:
            items.append({"game": game, "call": c, "text": spoken(c), "in_grammar": True})
        for p in oog_for(game, rng):
            items.append({"game": game, "call": None, "text": p, "in_grammar": False})
    utts = []
    for k, item in enumerate(items):
        for voice in VOICES:
            clean = flite(voice, item["text"], OUT / "clean" / f"{k}-{voice}.wav")
            for kind in ("crowd", "broadband"):
                path = OUT / "mixed" / f"{k}-{voice}-{kind}.wav"
                r = random.Random(f"{k}:{voice}:{kind}")
                if not path.exists():
                    write(path, mix(clean, kind, voice, r))
                utts.append({**item, "id": k, "voice": voice, "fold": FOLD[voice],
                             "noise": kind, "wav": str(path)})
    grammars = {g: [spoken(c) for c in all_calls(g)] for g in GAMES}
    (OUT / "set.json").write_text(json.dumps({"utts": utts, "grammars": grammars}, indent=0))
    n_in = sum(i["in_grammar"] for i in items)
    print(f"{len(items)} phrases ({n_in} calls, {len(items) - n_in} out of grammar), "
          f"{len(utts)} utterances; grammar sizes",
          {g: len(v) for g, v in grammars.items()})


if __name__ == "__main__":
    main()
