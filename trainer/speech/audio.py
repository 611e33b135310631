"""Audio as the recogniser takes it: 16 kHz mono signed 16-bit little-endian PCM. A WAV file of
PCM at another rate, width or number of channels is converted; anything else is refused by name.

A WAV file is one a trainee or anyone may have put in a folder of kept calls, so it is opened
only when it is a regular file (trainer.files) and read only when its header says it holds no
more than a call can be (`LONGEST` seconds, `LONGEST_BYTES` bytes of samples): a header that
says 2 GB is refused before a byte of its samples is read.
"""

from __future__ import annotations

import wave
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from trainer import files
from trainer.errors import RequestError

SAMPLE_RATE = 16_000
#: the rates a WAV file may have: from the telephone's to a studio's
RATES = (8_000, 192_000)
#: the longest speech decoded (seconds; trainer.speech.listener): a call takes two or three;
#: longer is not a call
MAX_SPEECH = 8.0
#: the sound before a call's speech a file may hold (seconds): a recording made by hand starts a
#: little before its call (the app keeps what it heard in its 8 seconds of listening)
LEAD_IN = 4.0
#: the sound a call is heard from, at most (seconds)
LONGEST = MAX_SPEECH + LEAD_IN
#: the channels a WAV file may have (a microphone gives one or two; a studio's file a few more)
CHANNELS = 8
#: the bytes of samples a call's sound may hold, at most: LONGEST seconds at the highest rate
#: read, in CHANNELS channels of 32-bit samples (a call read at 16 kHz mono is 0.4 MB)
LONGEST_BYTES = int(LONGEST * RATES[1]) * CHANNELS * 4

if TYPE_CHECKING:
    import numpy as np


def read_wav(path: Path) -> bytes:
    """A WAV file's audio as 16 kHz mono 16-bit PCM; a RequestError naming what is wrong with it."""
    with opened(path) as w:
        channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        data = w.readframes(w.getnframes())
    usable = len(data) - len(data) % (width * channels)
    return to_pcm(samples(data[:usable], width, channels), rate)


@contextmanager
def opened(path: Path) -> Iterator[wave.Wave_read]:
    """A WAV file open to read its samples, once its header says they are of a rate, width and
    channels read here (`unreadable`) and no more than a call's (`too_long`); a RequestError naming
    the file and what is wrong with it, before they are read."""
    name = str(path)
    try:
        with files.open_regular(path) as f, wave.open(f, "rb") as w:
            if (why := unreadable(w.getframerate(), w.getsampwidth(), w.getnchannels())) is not None:
                raise RequestError(name, why)
            if (why := too_long(w.getnframes(), w.getsampwidth() * w.getnchannels(),
                                w.getframerate())) is not None:
                raise RequestError(name, why)
            yield w
    except files.FileRefused as e:  # a folder, a named pipe, a device
        raise RequestError(name, f"not a WAV file: {e}") from None
    except FileNotFoundError:
        raise RequestError(name, "no such file") from None
    except OSError as e:
        raise RequestError(name, f"cannot be read ({e.strerror or e})") from None
    except wave.Error as e:
        reason = str(e)
        if "unknown format" in reason:
            raise RequestError(name, "a WAV file, but not of PCM samples (" + reason + "); "
                                     "save it as 16-bit PCM") from None
        raise RequestError(name, f"not a WAV file ({reason})") from None
    except EOFError:
        raise RequestError(name, "not a WAV file (it ends before its header does)") from None


def unreadable(rate: int, width: int, channels: int) -> str | None:
    """Why samples at `rate` Hz of `width` bytes in `channels` channels are not read here, or None."""
    if not RATES[0] <= rate <= RATES[1]:
        return (f"sampled at {rate} Hz; a WAV file from {RATES[0]} to {RATES[1]} Hz is read "
                "(16000 Hz best)")
    if width not in (1, 2, 3, 4) or not 1 <= channels <= CHANNELS:
        return (f"{width * 8}-bit samples in {channels} channels cannot be read (8 to 32 bits, "
                f"1 to {CHANNELS} channels)")
    return None


def too_long(frames: int, frame_bytes: int, rate: int) -> str | None:
    """Why a WAV file whose header says `frames` frames of `frame_bytes` bytes at `rate` Hz holds
    more than a call can be, or None."""
    if rate > 0 and frames / rate > LONGEST:
        return (f"its header says {frames / rate:,.1f} seconds of sound; a call is heard from at "
                f"most {LONGEST:g} (a call is a few seconds)")
    if frames * frame_bytes > LONGEST_BYTES:
        return (f"its header says {frames * frame_bytes:,} bytes of sound; a call is heard from at "
                f"most {LONGEST_BYTES:,} (a call is a few seconds)")
    return None


def samples(data: bytes, width: int, channels: int) -> np.ndarray:
    """PCM bytes as floats from -1 to 1, the channels mixed to one."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    if width == 1:  # 8-bit WAV is unsigned
        x = (raw.astype(np.float64) - 128) / 128
    elif width == 3:
        b = raw.reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        x = np.where(v >= 1 << 23, v - (1 << 24), v) / float(1 << 23)
    else:
        dtype = "<i2" if width == 2 else "<i4"
        x = np.frombuffer(data, dtype=dtype).astype(np.float64) / float(1 << (8 * width - 1))
    return x.reshape(-1, channels).mean(axis=1) if channels > 1 else x


def to_pcm(x: np.ndarray, rate: int) -> bytes:
    """Floats from -1 to 1 at `rate` as the recogniser's PCM (resampled to 16 kHz)."""
    import numpy as np

    x = resample(x, rate)
    # the scale `samples` read by: a 16-bit file at 16 kHz comes back as it is, sample for sample,
    # as the microphone's path gives the same sound (ui.speech.audio)
    return np.clip((x * 32768).round(), -32768, 32767).astype("<i2").tobytes()


def resample(x: np.ndarray, rate: int) -> np.ndarray:
    """x at 16 kHz: low-passed below the new Nyquist frequency first when the rate is higher (a
    windowed sinc of 63 taps), then interpolated."""
    import numpy as np

    if rate == SAMPLE_RATE or not len(x):
        return x
    if rate > SAMPLE_RATE:
        cutoff = 0.45 * SAMPLE_RATE / rate  # cycles per input sample, a little below Nyquist
        taps = np.arange(63) - 31
        h = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hamming(63)
        x = np.convolve(x, h / h.sum(), mode="same")
    t = np.arange(int(len(x) * SAMPLE_RATE / rate)) * (rate / SAMPLE_RATE)
    return np.interp(t, np.arange(len(x)), x)
