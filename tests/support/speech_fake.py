"""A stand-in for the recogniser (`trainer.speech`), with its interface, for the screens' own
logic: its listeners hear what the test plans, not what the sound says. It decides as the real
one does, from the sound fed to it: a verdict once the sound has had speech (a block louder than
SPEECH_LEVEL) followed by a quiet block, or at the input's end; the times it gives are counted
in the samples fed. `install(monkeypatch, plan)` puts it where the app looks for the recogniser
(`trainer.spoken.engine`)."""

from __future__ import annotations

import array
import math
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

SAMPLE_RATE = 16_000
SPEECH_LEVEL = 0.05  # louder than this is speech


@dataclass(frozen=True)
class Verdict:
    kind: str
    expected: str
    heard: str | None
    speech_start: float | None
    speech_end: float | None
    decided: float


class Plan:
    """What each listener made hears, in turn: "right", "unclear", "none", "refuse" (the
    listener is not made), or any other text, heard as a wrong call. `made` keeps each
    listener's (game, expected), `voices` the trainee's voice file each was given (or None)."""

    def __init__(self, *heard: str):
        self.heard = list(heard)
        self.made: list[tuple[str, str]] = []
        self.voices: list = []


class Listener:
    plan: Plan

    def __init__(self, game: str, expected: str, *, allowed=None, voice=None):
        if voice is not None and not Path(voice).is_file():  # as the recogniser reads it
            from trainer.errors import RequestError

            raise RequestError(str(voice), "no such file")
        self.game, self.expected = game, expected
        self.plan.made.append((game, expected))
        self.plan.voices.append(voice)
        self.heard = self.plan.heard.pop(0) if self.plan.heard else "none"
        if self.heard == "refuse":  # as the recogniser refuses a call it does not know
            raise ValueError(f"expected: {expected!r} is not a call of this game")
        self.level = 0.0
        self.samples = 0
        self.start: float | None = None
        self.end: float | None = None

    def feed(self, pcm: bytes) -> Verdict | None:
        block = array.array("h", pcm[: len(pcm) // 2 * 2])
        self.level = max((abs(s) for s in block), default=0) / 32768
        at = self.samples / SAMPLE_RATE
        self.samples += len(block)
        if self.level > SPEECH_LEVEL:
            self.start = at if self.start is None else self.start
            self.end = self.samples / SAMPLE_RATE
        elif self.start is not None:
            return self._verdict()
        return None

    def finish(self) -> Verdict:
        return self._verdict()

    def _verdict(self) -> Verdict:
        if self.start is None or self.heard == "none":
            return Verdict("none", self.expected, None, None, None, 0.0)
        if self.heard == "unclear":
            return Verdict("unclear", self.expected, None, self.start, self.end, 0.0)
        heard = self.expected if self.heard == "right" else self.heard
        return Verdict("right" if heard == self.expected else "wrong", self.expected, heard,
                       self.start, self.end, 0.0)


def install(monkeypatch, plan: Plan, why: str | None = None) -> SimpleNamespace:
    """The fake put where `trainer.spoken` finds the recogniser; `why`: its unavailable()."""
    import trainer.spoken

    listener = type("PlannedListener", (Listener,), {"plan": plan})
    fake = SimpleNamespace(SAMPLE_RATE=SAMPLE_RATE, Verdict=Verdict, Listener=listener,
                           unavailable=lambda: why, hear=None)
    monkeypatch.setattr(trainer.spoken, "engine", lambda: fake)
    return fake


def tone_wav(path, quiet: float = 0.3, loud: float = 0.6, after: float = 0.5) -> None:
    """A WAV file of the recogniser's kind: `quiet` seconds of silence, `loud` of a 440 Hz tone
    (the "speech"), `after` of silence."""
    import wave

    samples = array.array("h", [0] * round(quiet * SAMPLE_RATE))
    samples.extend(round(12_000 * math.sin(2 * math.pi * 440 * n / SAMPLE_RATE))
                   for n in range(round(loud * SAMPLE_RATE)))
    samples.extend([0] * round(after * SAMPLE_RATE))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(samples.tobytes())
