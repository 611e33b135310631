"""The speech benchmark's RNNoise front end (tests/benchmarks/speech_lab/rnnoise.py): its
resampling to the network's 48 kHz and back, block by block, and its word where the package is
missing. The network itself is measured by the benchmark (`--denoise rnnoise`), not here."""

from __future__ import annotations

import importlib.util

import numpy as np

from tests.benchmarks.speech_lab import rnnoise

#: the two filters' lag at 16 kHz: (TAPS - 1) / 2 samples at 48 kHz each way
LAG = (rnnoise.TAPS - 1) // rnnoise.UP


def through(x: np.ndarray, block: int = 160) -> tuple[np.ndarray, np.ndarray]:
    r = rnnoise.Resampler()
    ups = [r.up(x[i:i + block]) for i in range(0, len(x), block)]
    return np.concatenate(ups), np.concatenate([r.down(u) for u in ups])


def test_a_tone_under_the_edge_comes_back_as_it_went_in_10_ms_blocks():
    """1 kHz and 6 kHz (under the app's 8 kHz Nyquist) up to 48 kHz and down again, in the
    listener's 10 ms frames: the same tone, LAG samples later, within 1% of its amplitude (a
    filter that lost its state between blocks, or decimated at the wrong phase, is far off)."""
    t = np.arange(19200) / 16000  # 1.2 s: a whole second at 48 kHz after the first 0.1
    for hz in (1000, 6000):
        x = np.sin(2 * np.pi * hz * t)
        up, back = through(x)
        assert len(up) == 3 * len(x) and len(back) == len(x)
        assert np.max(np.abs(back[LAG + 200:] - x[200:len(x) - LAG])) < 0.01
        # at 48 kHz, the tone alone: nothing of its images at 16 kHz - hz and 16 kHz + hz
        spectrum = np.abs(np.fft.rfft(up[4800:4800 + 48000]))
        assert spectrum[16000 - hz] < spectrum[hz] / 100
        assert spectrum[16000 + hz] < spectrum[hz] / 100


def test_the_network_missing_is_said_not_raised(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyrnnoise" else real(name, *a))
    why = rnnoise.missing()
    assert why is not None and "pyrnnoise" in why and "pip install" in why
