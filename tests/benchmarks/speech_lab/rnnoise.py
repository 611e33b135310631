"""RNNoise (a small recurrent network trained on speech and noise, 48 kHz, 10 ms frames) on the
app's 16 kHz audio, frame by frame as it comes (`speech_accuracy.py --denoise rnnoise`; measured,
and left out of the product: this folder's README).

The network is the `pyrnnoise` package's (not a dependency of the project: for the benchmark,
`pip install --no-deps --target DIR pyrnnoise==0.4.5` and DIR on PYTHONPATH): its library
(`librnnoise.so`, `rnnoise.dll` or `librnnoise.dylib`, the weights built in: nothing is
downloaded) is loaded here through ctypes from the package's folder, without importing the
package, whose own module imports audiolab (FFmpeg's bindings) and tqdm to read WAV files.

Each 10 ms frame (160 samples) is raised to 48 kHz (480 samples, the network's frame), cleaned,
and brought back to 16 kHz: both ways a windowed-sinc low-pass at 48 kHz (TAPS taps, its edge
at CUTOFF), kept across frames. The network's output lags its input by one frame, the two
filters by TAPS - 1 samples at 48 kHz: DELAY_FRAMES is the whole in frames, rounded.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from pathlib import Path

import numpy as np

#: the network's rate and frame, and the app's
RATE, FRAME = 48000, 480
UP = 3
#: the resampling filter: its length (odd) and its edge (Hz, under the app's 8 kHz Nyquist)
TAPS, CUTOFF = 121, 7600
#: the lag of the cleaned audio behind the audio fed, in 10 ms frames: 22.5 ms measured (the
#: best lag of the cleaned call against the call, quiet and at 10 dB), the filters 2.5 ms of it
DELAY_FRAMES = 2
#: the same in samples at 16 kHz: the network's 960 samples at 48 kHz, the filters' 120
LAG = (960 + TAPS - 1) // UP

_NAMES = {"linux": "librnnoise.so", "win32": "rnnoise.dll", "darwin": "librnnoise.dylib"}


def _library_path() -> Path | None:
    spec = importlib.util.find_spec("pyrnnoise")
    if spec is None or not spec.submodule_search_locations:
        return None
    name = _NAMES.get(sys.platform, "librnnoise.so")
    path = Path(next(iter(spec.submodule_search_locations))) / name
    return path if path.exists() else None


def missing() -> str | None:
    """Why RNNoise cannot run here, or None."""
    if importlib.util.find_spec("pyrnnoise") is None:
        return ("needs the pyrnnoise package (pip install --no-deps "
                "--target DIR pyrnnoise==0.4.5 and DIR on PYTHONPATH)")
    if _library_path() is None:
        return f"the pyrnnoise package has no RNNoise library for {sys.platform}"
    return None


_lib = None


def _library():
    global _lib
    if _lib is None:
        path = _library_path()
        if path is None:
            raise RuntimeError(missing())
        lib = ctypes.CDLL(str(path))
        lib.rnnoise_create.argtypes = [ctypes.c_void_p]
        lib.rnnoise_create.restype = ctypes.c_void_p
        lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
        lib.rnnoise_get_frame_size.restype = ctypes.c_int
        lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                              ctypes.POINTER(ctypes.c_float)]
        lib.rnnoise_process_frame.restype = ctypes.c_float
        if lib.rnnoise_get_frame_size() != FRAME:
            raise RuntimeError(f"RNNoise's frame is {lib.rnnoise_get_frame_size()} samples, "
                               f"not {FRAME}")
        _lib = lib
    return _lib


def lowpass() -> np.ndarray:
    """The resampling filter at 48 kHz: a Hann-windowed sinc, unit gain at 0 Hz."""
    n = np.arange(TAPS) - (TAPS - 1) / 2
    h = np.sinc(2 * CUTOFF / RATE * n) * np.hanning(TAPS)
    return h / h.sum()


class _Fir:
    """A FIR filter over a stream: each block filtered with the end of the last one before it."""

    def __init__(self, h: np.ndarray) -> None:
        self.h = h
        self.tail = np.zeros(len(h) - 1)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        joined = np.concatenate([self.tail, x])
        self.tail = joined[len(joined) - len(self.tail):]
        return np.convolve(joined, self.h, mode="valid")


class Resampler:
    """16 kHz to 48 kHz (`up`) and back (`down`), a block at a time, the filters' state kept
    across blocks; a block's length a multiple of UP on the way down."""

    def __init__(self) -> None:
        h = lowpass()
        self._up, self._down = _Fir(h * UP), _Fir(h)

    def up(self, x: np.ndarray) -> np.ndarray:
        stuffed = np.zeros(len(x) * UP)
        stuffed[::UP] = x
        return self._up(stuffed)

    def down(self, y: np.ndarray) -> np.ndarray:
        return self._down(y)[::UP]


class Suppressor:
    """One listening's RNNoise: called with a 10 ms frame of 16 kHz 16-bit PCM, gives the cleaned
    frame (DELAY_FRAMES behind), with `keep` of the audio as it came added back (LAG samples
    later, in step with the cleaned audio: a floor under the network's gains); `probability` is
    the network's speech probability of the last frame."""

    def __init__(self, keep: float = 0.0) -> None:
        self.keep = keep
        self._dry = np.zeros(LAG)
        self._lib = _library()
        self._state = self._lib.rnnoise_create(None)
        self._resample = Resampler()
        self._buf = np.zeros(FRAME, dtype=np.float32)
        self._ptr = self._buf.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        self.probability = 0.0

    def __del__(self) -> None:
        if getattr(self, "_state", None):
            self._lib.rnnoise_destroy(self._state)
            self._state = None

    def __call__(self, frame: bytes) -> bytes:
        x = np.frombuffer(frame, dtype="<i2").astype(np.float64)
        self._buf[:] = self._resample.up(x)
        self.probability = self._lib.rnnoise_process_frame(self._state, self._ptr, self._ptr)
        y = self._resample.down(self._buf.astype(np.float64))
        if self.keep:
            dry = np.concatenate([self._dry, x])
            self._dry = dry[len(x):]
            y = (1 - self.keep) * y + self.keep * dry[:len(x)]
        return np.clip(np.round(y), -32768, 32767).astype("<i2").tobytes()
