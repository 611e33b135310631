"""Where the call is in a room's noise (trainer.speech.endpoint), heard through the app's path (a
Listener fed 0.1 s blocks): the speech ends where the call ends while the room goes on, at any
loudness of the room; a pause between two words of a call does not cut it in two; a knock before
the call is not speech; a loud sound that never ends is unclear after MAX_SPEECH. Calls and the
crowd are flite's voices, made at test time; the room's noise is tests/support/room.py's, as the
accuracy benchmark's."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.flite import say, voices
from tests.support.room import noisy, pcm_of
from trainer.speech import SAMPLE_RATE, Listener

GAME = "props-and-hops"
#: the room before and after the call (seconds): the app listens from the dice at rest, and the
#: room goes on after the call, longer than the endpointer's hangover
BEFORE, AFTER = 0.6, 3.0
#: how far the speech found may lie outside the call (the room's talk at its edges) and inside it
#: (a weak first or last sound under the room's noise), in seconds
OUTSIDE, INSIDE = 0.5, 0.2


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return voices(tmp_path_factory)


@pytest.fixture(scope="module")
def crowd(folder):
    from tests.support.room import crowd_of

    return crowd_of(folder, voices=("slt", "awb"))


def bounds(speech: np.ndarray, before: float) -> tuple[float, float]:
    """Where the call is in the audio: its first and last 10 ms frames within 30 dB of its
    loudest, measured on the call alone."""
    frames = speech[: len(speech) // 160 * 160].reshape(-1, 160)
    power = (frames ** 2).mean(axis=1)
    active = np.nonzero(power >= power.max() / 1000)[0]
    return before + active[0] * 0.01, before + (active[-1] + 1) * 0.01


def trimmed(speech: np.ndarray) -> np.ndarray:
    """The speech without flite's silence before and after it."""
    start, end = bounds(speech, 0.0)
    return speech[round(start * SAMPLE_RATE):round(end * SAMPLE_RATE)]


def listen(pcm: bytes, expected: str):
    """The verdict, and whether it came before the audio ended (from feed(), not finish())."""
    listener = Listener(GAME, expected)
    step = SAMPLE_RATE // 10 * 2
    for at in range(0, len(pcm), step):
        if (verdict := listener.feed(pcm[at:at + step])) is not None:
            return verdict, True
    return listener.finish(), False


@pytest.mark.parametrize("gain", [1.0, 0.1])
@pytest.mark.parametrize(("said", "call", "voice"), [
    ("seven three four", "Seven, three-four", "rms"),
    ("eleven five six", "Eleven, five-six", "kal16"),
    ("no more bets", "No more bets", "slt"),
])
def test_a_call_in_a_rooms_talk_ends_where_the_call_ends(folder, crowd, said, call, voice, gain):
    speech = pcm_of(say(said, voice, folder))
    pcm = noisy(speech, 10.0, np.random.default_rng(7), crowd, BEFORE, AFTER)
    quieter = (np.frombuffer(pcm, dtype="<i2") * gain).round().astype("<i2").tobytes()
    verdict, ended = listen(quieter, call)
    start, end = bounds(speech, BEFORE)
    assert ended, verdict  # the room talks on for AFTER seconds: the speech ended before that
    assert verdict.speech_start is not None and verdict.speech_end is not None
    assert start - OUTSIDE <= verdict.speech_start <= start + INSIDE, (verdict, start)
    assert end - INSIDE <= verdict.speech_end <= end + OUTSIDE, (verdict, end)


@pytest.mark.parametrize("pause", [0.2, 0.4])
def test_a_pause_between_the_words_of_a_call_does_not_cut_it_in_two(folder, pause):
    first, second = (trimmed(pcm_of(say(t, "rms", folder))) for t in ("seven three", "four"))
    speech = np.concatenate([first, np.zeros(int(pause * SAMPLE_RATE)), second])
    pcm = noisy(speech, None, np.random.default_rng(1), [], BEFORE, AFTER)
    verdict, ended = listen(pcm, "Seven, three-four")
    start, end = bounds(speech, BEFORE)
    assert (verdict.kind, verdict.said, ended) == ("right", "seven three four", True)
    assert verdict.speech_start <= start + INSIDE and verdict.speech_end >= end - INSIDE


def test_a_knock_before_the_call_is_not_speech(folder):
    rng = np.random.default_rng(3)
    knock = rng.uniform(-0.8, 0.8, int(0.1 * SAMPLE_RATE))  # the dice hitting the table
    speech = pcm_of(say("seven three four", "rms", folder))
    pause = np.zeros(int(0.8 * SAMPLE_RATE))
    whole = np.concatenate([knock, pause, speech])
    pcm = noisy(whole, None, rng, [], BEFORE, AFTER)
    verdict, ended = listen(pcm, "Seven, three-four")
    start, _ = bounds(speech, BEFORE + len(knock) / SAMPLE_RATE + 0.8)
    assert (verdict.kind, ended) == ("right", True)
    assert start - OUTSIDE <= verdict.speech_start <= start + INSIDE


def test_a_sound_that_never_ends_is_unclear_after_the_longest_speech(folder):
    from trainer.speech.listener import MAX_SPEECH

    rng = np.random.default_rng(5)
    hum = rng.uniform(-0.3, 0.3, int((MAX_SPEECH + 2) * SAMPLE_RATE))  # a loud fan switched on
    pcm = noisy(hum, None, rng, [], BEFORE, 0.0)
    verdict, ended = listen(pcm, "Seven, three-four")
    assert (verdict.kind, verdict.heard, ended) == ("unclear", None, True)
    assert verdict.speech_start == pytest.approx(BEFORE, abs=0.05)
    assert verdict.said == f"(more than {MAX_SPEECH:g} seconds of speech)"
