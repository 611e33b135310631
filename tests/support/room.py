"""A room's noise for the spoken calls' tests and benchmark: a crowd of flite's voices talking
at once (sentences that are no call), with pink noise under it, mixed with a call at a chosen
signal-to-noise ratio."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.support.flite import say
from trainer.speech import SAMPLE_RATE
from trainer.speech.audio import read_wav

CROWD = ("The weather has been lovely this week, we went down to the shore on Sunday.",
         "Did you see the game last night? I could not believe the last quarter.",
         "I will have another coffee, and could you bring the menu back please.",
         "My sister is moving to Pittsburgh in the spring, she found a new job there.",
         "We should leave before the traffic gets bad on the turnpike tonight.",
         "That restaurant by the river has the best crab cakes in the whole city.")
#: the room's noise before the call (seconds): at a table the app listens from the dice at rest,
#: and a dealer reads the dice before calling them (half a second or more); flite's own silence in
#: front of its speech (0.14 to 0.35 s) comes on top
BEFORE = 0.6
#: and after it: at a table the room goes on after the call (the listening ends when the
#: endpointer ends the speech, or at MAX_SPEECH); a second lets the endpointer's hangover pass
AFTER = 1.0


def crowd_of(folder: Path, voices=("slt", "awb", "rms", "kal16")) -> list[np.ndarray]:
    """The crowd's talkers: each sentence of CROWD said by each voice (made once in folder)."""
    return [pcm_of(say(t, v, folder)) for t in CROWD for v in voices]


def pcm_of(path: Path) -> np.ndarray:
    """A WAV file's audio as floats from -1 to 1 at 16 kHz."""
    return np.frombuffer(read_wav(path), dtype="<i2").astype(np.float64) / 32768


def active_power(x: np.ndarray) -> float:
    """The power of x over its active 20 ms frames (within 30 dB of its loudest)."""
    frame = SAMPLE_RATE // 50
    frames = x[: len(x) // frame * frame].reshape(-1, frame)
    power = (frames ** 2).mean(axis=1)
    return float(power[power >= power.max() / 1000].mean())


def pink(n: int, rng: np.random.Generator) -> np.ndarray:
    spectrum = np.fft.rfft(rng.standard_normal(n))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    return np.fft.irfft(spectrum, n)


def room(n: int, rng: np.random.Generator, crowd: list[np.ndarray]) -> np.ndarray:
    """n samples of a room: four talkers at once, and pink noise 10 dB under them."""
    out = np.zeros(n)
    for talker in rng.choice(len(crowd), 4, replace=False):
        voice = np.tile(crowd[talker], n // len(crowd[talker]) + 2)
        start = int(rng.integers(0, len(crowd[talker])))
        out += voice[start:start + n] * rng.uniform(0.5, 1.0)
    background = pink(n, rng)
    background *= np.sqrt(np.mean(out ** 2) / np.mean(background ** 2) / 10)
    return out + background


def noisy(speech: np.ndarray, snr: float | None, rng: np.random.Generator,
          crowd: list[np.ndarray], before: float = BEFORE, after: float = AFTER) -> bytes:
    """The speech with `before` and `after` seconds around it, in a room at `snr` dB (its
    active_power against the room's mean power; None: no noise), as 16-bit PCM."""
    x = np.concatenate([np.zeros(int(before * SAMPLE_RATE)), speech,
                        np.zeros(int(after * SAMPLE_RATE))])
    if snr is not None:
        noise = room(len(x), rng, crowd)
        noise *= np.sqrt(active_power(speech) / np.mean(noise ** 2) / 10 ** (snr / 10))
        x = x + noise
    peak = np.abs(x).max()
    if peak > 0.99:
        x *= 0.99 / peak
    return (x * 32767).round().astype("<i2").tobytes()
