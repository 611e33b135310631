"""Spoken calls, heard offline: the trainee says the call aloud and pocketsphinx (its wheel ships
the English model) decodes it against a grammar of every call the game allows.

The face the app and the `hear` command use:

    SAMPLE_RATE                 16 kHz mono signed 16-bit little-endian PCM, everywhere
    unavailable()               why calls cannot be heard here (one sentence), or None
    Listener(game, expected)    one call: feed(pcm) -> Verdict | None, finish() -> Verdict, level
    Verdict                     right, wrong, none (no call) or unclear ("say again")
    Reading(prompt)             an enrolment's reading: heard as a Listener, its Read verdict
                                checked (`check`: why it is refused, or kept; readings)
    hear(path, game, expected)  a WAV file through the same path (voice=: a trainee's transform)
    spoken_calls(game)          the one list of the calls said aloud (trainer.speech.calls)

The modules behind it: words (the words said for each call), calls (the list), grammar (the
decoder's grammar), recogniser (pocketsphinx), endpoint (where the speech is in a room's noise),
listener (the verdict), audio (WAV files and PCM), kept (the trainee's calls kept with their
consent, and read back), enrolment (a trainee's voice: the calls read, the transform estimated
and kept), readings (a reading of the enrolment checked before it is kept), voices (the voices
kept: listed, named and forgotten), acoustic (the model's Gaussians and the decoder's features,
in numpy, for the estimate).
"""

from __future__ import annotations

from pathlib import Path

from trainer.speech.audio import SAMPLE_RATE
from trainer.speech.calls import SpokenCall, find, spoken_calls
from trainer.speech.listener import Listener, Verdict
from trainer.speech.readings import Read, Reading
from trainer.speech.recogniser import unavailable

__all__ = ["SAMPLE_RATE", "Listener", "Read", "Reading", "SpokenCall", "Verdict", "find", "hear",
           "spoken_calls", "unavailable"]

#: a block of a WAV file fed at a time by hear(), as a microphone would give it (seconds)
BLOCK = 0.1


def hear(path: Path, game: str, expected: str, voice: Path | None = None) -> Verdict:
    """A WAV file through the same path as a microphone: fed in blocks of BLOCK seconds, the
    verdict as soon as the endpointer ends the speech, else when the file ends (with `voice`, a
    trainee's transform file, heard with it)."""
    from trainer.speech.audio import read_wav

    listener = Listener(game, expected, voice=voice)
    pcm = read_wav(Path(path))
    step = int(BLOCK * SAMPLE_RATE) * 2
    for at in range(0, len(pcm), step):
        if (verdict := listener.feed(pcm[at:at + step])) is not None:
            return verdict
    return listener.finish()
