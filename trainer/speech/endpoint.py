"""Where the call is in the sound of a room: the start and end of speech measured against the
room's own noise.

A voice activity detector takes a crowd's talk for speech (pocketsphinx's own endpointer ran to
the end of the audio on 74 of 75 calls in a room's noise), so the speech is found by loudness
instead, over a noise floor tracked from the room: listening starts at the dice at rest, before
the dealer can have read them and spoken, and the first FLOOR_LEARN seconds give the floor (their
median level: speech in fewer than half of them does not move it); after them the floor follows
the room's slow changes (an average of the frames that are not loud) until speech starts.

Levels are of 10 ms frames, each the mean power of the last SMOOTH frames, in dB below full scale.
Speech starts when START_RATIO of the last START_WINDOW seconds are START_DB over the floor, and
ends when END_RATIO of the last END_WINDOW seconds are under END_DB over it (the hangover: a pause
between two words of a call is shorter); a loud stretch shorter than MIN_SPEECH is no speech (the
dice landing, a knock). The floor is never taken under ABS_FLOOR (a microphone's own hiss, or
digital silence). What is decoded is the speech found, MARGIN seconds wider on each side
(`Endpointer.speech`): the room's talk around the call, decoded with it, was taken by the garbage
branch (trainer.speech.grammar).
"""

from __future__ import annotations

import math
from collections import deque

from trainer.speech.audio import SAMPLE_RATE

#: a frame (seconds) and its size in bytes of 16-bit PCM
FRAME = 0.01
FRAME_BYTES = int(FRAME * SAMPLE_RATE) * 2
#: the level of a frame: the mean power of this many frames, its own and those before it
SMOOTH = 5
#: the stretch the floor is learnt from (seconds), before speech may start
FLOOR_LEARN = 0.2
#: how fast the floor follows the room after it (the weight of each quiet frame)
FLOOR_FOLLOW = 0.02
#: the lowest floor (dB below full scale)
ABS_FLOOR = -60.0
START_DB, START_WINDOW, START_RATIO = 4.0, 0.2, 0.5
END_DB, END_WINDOW, END_RATIO = 6.0, 0.5, 0.9
#: loud stretches shorter than this (seconds) are no speech (a knock, the dice, a cough)
MIN_SPEECH = 0.25
#: audio kept on each side of the speech found (seconds)
MARGIN = 0.2
#: the audio kept from before the speech starts (seconds): the start window and the margin
_BEFORE = START_WINDOW + MARGIN + SMOOTH * FRAME


class Endpointer:
    """Fed 10 ms frames of 16-bit PCM (`process`); says when speech starts and ends, in seconds
    from the first frame, and keeps the speech's audio with its margins (`speech`)."""

    def __init__(self) -> None:
        self.frames = 0  # frames fed
        self.floor: float | None = None  # dB below full scale, once learnt
        self.speech_start: float | None = None
        self.speech_end: float | None = None
        self._powers: deque[float] = deque(maxlen=SMOOTH)
        self._learning: list[float] = []
        self._floor_power = 0.0
        self._loud: deque[bool] = deque(maxlen=round(max(START_WINDOW, END_WINDOW) / FRAME))
        self._audio: deque[bytes] = deque(maxlen=round(_BEFORE / FRAME))
        self._kept: list[bytes] = []  # the frames from the margin before the speech on
        self._kept_from = 0  # the index of the first of them
        self._last_loud = 0  # the last loud frame's index, once speech has started
        self._end_frame: int | None = None

    @property
    def in_speech(self) -> bool:
        return self.speech_start is not None and self.speech_end is None

    def process(self, frame: bytes) -> None:
        """One frame (FRAME_BYTES of 16-bit PCM) of the room."""
        if self.speech_end is not None:
            return
        level = self._level(frame)
        index = self.frames
        self.frames += 1
        if self.speech_start is None:
            self._audio.append(frame)
        else:
            self._kept.append(frame)
        if self.floor is None:
            self._learn(level)
            return
        loud = level > self.floor + (START_DB if self.speech_start is None else END_DB)
        self._loud.append(loud)
        if self.speech_start is None:
            self._before_speech(loud, level, index)
        else:
            self._in_speech(loud, index)

    def end_stream(self) -> None:
        """The audio ended: speech that started ends at its last loud frame."""
        if self.in_speech:
            self._close(self._last_loud)

    def speech(self) -> bytes:
        """The audio of the speech found, MARGIN wider on each side (as far as it was heard)."""
        if self._end_frame is None:
            return b"".join(self._kept)
        last = self._end_frame + round(MARGIN / FRAME)
        return b"".join(self._kept[: max(0, last + 1 - self._kept_from)])

    def _level(self, frame: bytes) -> float:
        import numpy as np

        x = np.frombuffer(frame, dtype="<i2").astype(np.float64) / 32768
        self._powers.append(float(np.mean(x * x)) if len(x) else 0.0)
        power = sum(self._powers) / len(self._powers)
        return 10 * math.log10(power) if power > 0 else -120.0

    def _learn(self, level: float) -> None:
        self._learning.append(level)
        if len(self._learning) * FRAME >= FLOOR_LEARN - 1e-9:
            ordered = sorted(self._learning)
            self.floor = max(ABS_FLOOR, ordered[len(ordered) // 2])
            self._floor_power = 10 ** (self.floor / 10)

    def _before_speech(self, loud: bool, level: float, index: int) -> None:
        window = round(START_WINDOW / FRAME)
        recent = list(self._loud)[-window:]
        if len(recent) == window and sum(recent) >= START_RATIO * window:
            first_loud = index - window + 1 + recent.index(True)
            self.speech_start = first_loud * FRAME
            self._kept_from = max(0, first_loud - round(MARGIN / FRAME))
            self._kept = list(self._audio)[self._kept_from - index - 1:]
            self._audio.clear()
            self._last_loud = index
            return
        if not loud:  # the room, not a voice: the floor follows it
            self._floor_power += FLOOR_FOLLOW * (10 ** (level / 10) - self._floor_power)
            self.floor = max(ABS_FLOOR, 10 * math.log10(max(self._floor_power, 1e-12)))

    def _in_speech(self, loud: bool, index: int) -> None:
        if loud:
            self._last_loud = index
        window = round(END_WINDOW / FRAME)
        recent = list(self._loud)[-window:]
        if len(recent) == window and window - sum(recent) >= END_RATIO * window:
            self._close(self._last_loud)

    def _close(self, last_loud: int) -> None:
        if (last_loud + 1) * FRAME - (self.speech_start or 0.0) < MIN_SPEECH - 1e-9:
            self.speech_start = None  # too short for a call: listening goes on
            self._audio.extend(self._kept)
            self._kept = []
            return
        self._end_frame = last_loud
        self.speech_end = (last_loud + 1) * FRAME
