"""The room's noise taken out of the speech found, before it is decoded, in the app's path: a
Wiener filter whose noise is the room's as heard before the speech started
(`speech_accuracy.py --denoise on`; measured, and left out of the product: this README).

`RoomEndpointer` is trainer.speech.endpoint's, keeping the last ROOM seconds of the frames before
the speech that were not loud (those of the floor's first FLOOR_LEARN seconds within START_DB of
the floor, then each frame that was not loud), and giving the speech found through the filter.

`webrtc(level)` is another: WebRTC's noise suppression (the `webrtc-noise-gain` package, which has
no Windows wheel, so it is not the project's: `pip install --target DIR webrtc-noise-gain` and put
DIR on PYTHONPATH) fed every 10 ms frame as it comes, so that it learns the room before the
speech; the endpointer hears the room as it is, the decoder the cleaned audio of the same span.
`rnnoise()` is RNNoise's, fed the same way (speech_lab/rnnoise.py).

Each 32 ms frame (half overlapping, a Hann window) of the speech is weighed, frequency by
frequency, by the share of its power that is not the noise's: the a priori signal-to-noise ratio
is decision-directed (Ephraim and Malah: ALPHA of the last frame's clean estimate, the rest from
this frame's excess over the noise), and the gain never falls under GAIN_FLOOR (lower gains leave
"musical" tones the decoder hears as phones). The noise's spectrum is the mean power of the
frames of the room before the speech; with less than one frame of it the speech is left as it is.
"""

from __future__ import annotations

import time
from collections import deque

from trainer.speech.endpoint import FRAME, MARGIN, START_DB, Endpointer

#: samples of a frame, and the step between frames (16 kHz)
N, HOP = 512, 256
#: the room's frames kept from before the speech (seconds of frames that were not loud)
ROOM = 1.0
#: the weight of the last frame's clean estimate in the a priori SNR (decision-directed)
ALPHA = 0.98
#: the least gain, so that no band is taken to nothing
GAIN_FLOOR = 0.1


def wiener(speech: bytes, noise: bytes) -> bytes:
    """The speech (16-bit PCM) with the noise heard in `noise` (16-bit PCM, the room alone) taken
    out; the speech as it is when `noise` is shorter than one frame."""
    import numpy as np

    x = np.frombuffer(speech[: len(speech) // 2 * 2], dtype="<i2").astype(np.float64)
    room = np.frombuffer(noise[: len(noise) // 2 * 2], dtype="<i2").astype(np.float64)
    if len(room) < N or not len(x):
        return speech
    win = np.hanning(N)
    noise_power = (np.abs(np.fft.rfft(_frames(room, win), axis=1)) ** 2).mean(axis=0) + 1e-9
    padded = np.concatenate([np.zeros(N), x, np.zeros(N)])
    spec = np.fft.rfft(_frames(padded, win), axis=1)
    post = np.abs(spec) ** 2 / noise_power
    gain = np.empty_like(post)
    clean = np.ones(post.shape[1])  # the last frame's clean power over the noise's
    for i, p in enumerate(post):
        prio = ALPHA * clean + (1 - ALPHA) * np.maximum(p - 1, 0)
        g = prio / (1 + prio)
        gain[i] = np.maximum(g, GAIN_FLOOR)
        clean = g * g * p
    out = np.fft.irfft(spec * gain, N, axis=1) * win
    y = np.zeros(len(padded))
    for i, frame in enumerate(out):
        y[i * HOP: i * HOP + N] += frame
    y = y[N: N + len(x)] / (win ** 2).sum() * HOP
    return np.clip(np.round(y), -32768, 32767).astype("<i2").tobytes()


def _frames(x, win):
    import numpy as np

    return np.lib.stride_tricks.sliding_window_view(x, N)[::HOP] * win


class RoomEndpointer(Endpointer):
    """The app's endpointer, keeping the room before the speech; its speech() is filtered."""

    def __init__(self) -> None:
        super().__init__()
        self.room: deque[bytes] = deque(maxlen=round(ROOM / FRAME))
        self._learnt: list[tuple[float, bytes]] = []
        self._frame = b""

    def process(self, frame: bytes) -> None:
        self._frame = frame
        super().process(frame)

    def speech(self) -> bytes:
        return wiener(super().speech(), b"".join(self.room))

    def _learn(self, level: float) -> None:
        self._learnt.append((level, self._frame))
        super()._learn(level)
        if self.floor is not None:
            self.room.extend(f for lv, f in self._learnt if lv <= self.floor + START_DB)

    def _before_speech(self, loud: bool, level: float, index: int) -> None:
        super()._before_speech(loud, level, index)
        if not loud and self.speech_start is None:
            self.room.append(self._frame)


def webrtc(level: int) -> type[Endpointer]:
    """An endpointer class whose speech() is WebRTC's noise suppression at `level` (0 to 4) of
    the same span; a SystemExit saying so where the package is not installed."""
    try:
        from webrtc_noise_gain import AudioProcessor
    except ImportError:
        raise SystemExit("--denoise webrtc needs the webrtc-noise-gain package (this module's "
                         "docstring)") from None

    def make():
        processor = AudioProcessor(0, level)
        return lambda frame: processor.Process10ms(frame).audio

    return suppressed(make)


def rnnoise(keep: float = 0.0) -> type[Endpointer]:
    """An endpointer class whose speech() is RNNoise's suppression of the same span, with `keep`
    of the audio as it came added back (speech_lab/rnnoise.py); a SystemExit saying so where the
    package is not installed."""
    from tests.benchmarks.speech_lab import rnnoise as rnn

    if (why := rnn.missing()) is not None:
        raise SystemExit(f"--denoise rnnoise: {why}")
    return suppressed(lambda: rnn.Suppressor(keep), delay=rnn.DELAY_FRAMES)


class Tally:
    """The suppressors' CPU (this thread's) and the audio they were fed, over a run."""

    cpu = 0.0
    frames = 0

    @classmethod
    def per_second(cls) -> str:
        seconds = cls.frames * FRAME
        return (f"suppressor's CPU: {1000 * cls.cpu / seconds:.1f} ms per second of audio "
                f"({seconds:.0f} s of audio, {cls.cpu:.2f} s CPU)" if seconds else "")


def suppressed(make, delay: int = 0) -> type[Endpointer]:
    """An endpointer class that feeds every 10 ms frame as it comes to a suppressor (`make()`
    gives a callable from a frame of 16-bit PCM to its cleaned frame, made for each listening),
    so that it learns the room before the speech; the endpointer hears the room as it is, the
    decoder the cleaned audio of the same span, `delay` frames later (the suppressor's own
    delay)."""

    class SuppressedEndpointer(Endpointer):
        def __init__(self) -> None:
            super().__init__()
            self._suppress = make()
            self._clean: list[bytes] = []

        def process(self, frame: bytes) -> None:
            if self.speech_end is None:
                cpu = time.thread_time()
                self._clean.append(self._suppress(frame))
                Tally.cpu += time.thread_time() - cpu
                Tally.frames += 1
            super().process(frame)

        def speech(self) -> bytes:
            end = (len(self._clean) if self._end_frame is None
                   else self._end_frame + round(MARGIN / FRAME) + 1)
            return b"".join(self._clean[self._kept_from + delay:end + delay])

    return SuppressedEndpointer
