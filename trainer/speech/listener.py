"""Listening for one call: audio fed as it comes, speech found against the room's noise floor
(trainer.speech.endpoint), the speech decoded once it ends, and the verdict."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from trainer import games
from trainer.errors import RequestError
from trainer.speech.audio import MAX_SPEECH
from trainer.speech.calls import SpokenCall, find, spoken_calls
from trainer.speech.endpoint import FRAME, FRAME_BYTES, Endpointer
from trainer.speech.recogniser import Heard, recogniser
from trainer.vocabulary import Do

#: the level meter's floor (dB below full scale), shown as 0
METER_FLOOR_DB = 60.0


@dataclass(frozen=True)
class Verdict:
    kind: str  # "right", "wrong", "none" (no call) or "unclear" ("say again")
    expected: str  # the call due, as the engine words it
    heard: str | None  # the call heard, as the engine words it, or None
    speech_start: float | None  # seconds from the start of listening
    speech_end: float | None
    decided: float  # seconds of computation after the end of speech
    said: str = ""  # the words the recogniser's best path took, for a person to read


def call_of(game: str, text: str, where: str) -> SpokenCall:
    """The game's spoken call worded as `text`, or a RequestError saying the game has none."""
    call = find(game, text)
    if call is None:
        name = games.get(game).name
        raise RequestError(where, f"{text!r} is not a call of {name} (the calls are worded as "
                                  "the engine words them, such as "
                                  f"{_example(game)!r})")
    return call


def _example(game: str) -> str:
    announced = [c for c in spoken_calls(game) if c.do is Do.ANNOUNCE]
    return announced[len(announced) // 2].text


class Listener:
    """One call: made when the trainee has to call (the dice at rest), fed audio as it comes;
    `voice`, the trainee's transform for this microphone (trainer.speech.enrolment.path), heard
    with the model fitted to their voice. A RequestError names a game or call that is not one, or
    a voice file that is no transform; a RuntimeError says why calls cannot be heard here
    (trainer.speech.unavailable())."""

    def __init__(self, game: str, expected: str, *, allowed: Sequence[str] | None = None,
                 voice: Path | None = None):
        games.get(game, "game")
        self.expected = expected
        self._call = call_of(game, expected, "expected")
        chosen = None
        if allowed is not None:
            chosen = list(dict.fromkeys(call_of(game, t, "allowed") for t in allowed))
            if self._call not in chosen:
                raise RequestError("expected", f"{expected!r} is not among the allowed calls")
        self._recogniser = recogniser(voice)
        self._grammar = self._recogniser.grammar(game, chosen)
        self._endpointer = Endpointer()
        self._frame = FRAME_BYTES
        self._pending = b""
        self._verdict: Verdict | None = None
        self._level = 0.0
        self.heard: Heard | None = None  # what the recogniser made of the speech, once decoded

    @property
    def level(self) -> float:
        """The last block's loudness, 0..1: its RMS from METER_FLOOR_DB below full scale to full."""
        return self._level

    def feed(self, pcm: bytes) -> Verdict | None:
        """Audio as it comes (16 kHz mono 16-bit PCM, any length); the verdict once the speech
        ends (after it, None)."""
        if self._verdict is not None:
            return None
        self._level = _level(pcm)
        data = self._pending + pcm
        usable = len(data) - len(data) % self._frame
        self._pending = data[usable:]
        for at in range(0, usable, self._frame):
            if (v := self._frame_in(data[at:at + self._frame])) is not None:
                return v
        return None

    def finish(self) -> Verdict:
        """The input ended: the verdict on what was heard ("none" when no speech was)."""
        if self._verdict is not None:
            return self._verdict
        ep = self._endpointer
        self._pending = b""  # less than a frame
        ep.end_stream()
        if ep.speech_end is not None:
            return self._decide()
        return self._set(Verdict("none", self.expected, None, None, None, 0.0))

    def _frame_in(self, frame: bytes) -> Verdict | None:
        ep = self._endpointer
        ep.process(frame)
        if ep.speech_end is not None:
            return self._decide()
        if ep.speech_start is not None and ep.frames * FRAME - ep.speech_start > MAX_SPEECH:
            return self._set(Verdict("unclear", self.expected, None, ep.speech_start, None, 0.0,
                                     f"(more than {MAX_SPEECH:g} seconds of speech)"))
        return None

    def _decide(self) -> Verdict:
        ep = self._endpointer
        began = time.perf_counter()
        heard = self.heard = self._recogniser.decode(self._grammar, ep.speech())
        return self._set(self._judge(heard, ep.speech_start, ep.speech_end,
                                     time.perf_counter() - began))

    def _judge(self, heard: Heard, start: float | None, end: float | None,
               decided: float) -> Verdict:
        if heard.call is None:
            return Verdict("unclear", self.expected, None, start, end, decided, heard.words)
        if heard.call is self._call:
            return Verdict("right", self.expected, self.expected, start, end, decided, heard.words)
        if self._call.do is Do.NO_ROLL and heard.call.do is Do.NO_ROLL and heard.call.value is None:
            # "no roll", as the text has the dealer call it, where a no roll is due: right, and
            # its reason is asked as the No roll action asks it (trainer.spoken.action_of)
            return Verdict("right", self.expected, heard.call.text, start, end, decided, heard.words)
        return Verdict("wrong", self.expected, heard.call.text, start, end, decided, heard.words)

    def _set(self, verdict: Verdict) -> Verdict:
        self._verdict = verdict
        return verdict


def _level(pcm: bytes) -> float:
    import numpy as np

    usable = len(pcm) - len(pcm) % 2
    if not usable:
        return 0.0
    x = np.frombuffer(pcm[:usable], dtype="<i2").astype(np.float64)
    rms = math.sqrt(float(np.mean(x * x))) / 32768
    if rms <= 0:
        return 0.0
    return min(1.0, max(0.0, (20 * math.log10(rms) + METER_FLOOR_DB) / METER_FLOOR_DB))
