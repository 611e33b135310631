"""Where a spoken call's sound comes from: the microphone (Qt Multimedia) or a WAV file, through
one path. Each input gives blocks of mono, signed 16-bit little-endian PCM at the recogniser's
rate (`blocks`), then `ended`; or `failed`, with one line naming the problem. A WAV file is the
seam the tests drive the whole chain through, from the sound to the grade, with no microphone."""

from __future__ import annotations

import atexit
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from ui.qt import QObject, QThread, QTimer, Signal, multimedia

#: the recogniser's rate (trainer.speech.SAMPLE_RATE): mono, 16-bit, everywhere
RATE = 16_000
#: one block: a tenth of a second, as the microphone gives it about
BLOCK_SECONDS = 0.1
#: the longest a microphone's stop waits for its recording's thread to end
STOP_SECONDS = 5.0
#: the longest a recording microphone may give no sound before it is said to be gone; and
#: before its first sound (a Bluetooth headset may take seconds to switch to its microphone)
SILENT_SECONDS = 2.0
FIRST_SOUND_SECONDS = 5.0
#: the least share of a microphone's sound that reaches the app, measured from a second after its
#: first sound on; less, and it is said
SHARE_LEAST, SHARE_SECONDS = 0.6, 1.0
#: what every recording asks of a PulseAudio server (Qt's own, or PipeWire's PulseAudio server
#: where Qt records through it): its sound in pieces of 50 ms, and no cap on what the server holds
#: for it. Qt 6.11 caps that at 1,024 frames (64 ms at 16 kHz), and a server that gave the sound
#: 100 ms at a time overflowed it: two thirds of each piece were lost. Qt has no public call to
#: set it; libpulse reads this variable each time a stream connects (where Qt records through
#: PipeWire's own library instead, it is not read; Qt's source sets no such cap there). It is set
#: once, before Qt starts (`ask_for_pieces`): the environment cannot be changed safely while
#: other threads read it. Programs the app starts inherit it (a speech-dispatcher or a file
#: manager it starts: their sound's buffer is then 50 ms). A value the user set stands.
PULSE_PIECES = ("PULSE_LATENCY_MSEC", "50")


class AudioInput(QObject):
    """A source of sound for one call."""

    blocks = Signal(bytes)
    ended = Signal()
    failed = Signal(str)

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def _fail(self, text: str) -> None:
        """Say the problem once the caller has connected to `failed` (from the event loop)."""
        QTimer.singleShot(0, self, lambda: self.failed.emit(text))


def read_wav(path: Path, rate: int = RATE) -> bytes:
    """A WAV file's samples, if it is mono, 16-bit, at `rate`, and no longer than a call can be
    (the engine's `call_wav`: its header is read first); ValueError naming what it is not."""
    from trainer import call_wav

    with call_wav(path) as w:  # a RequestError, a ValueError, names the file and the problem
        channels, width, framerate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        frames = w.readframes(w.getnframes())
    if (channels, width, framerate) != (1, 2, rate):
        raise ValueError(f"{path}: {channels} channel(s), {8 * width}-bit, {framerate} Hz; calls "
                         f"are heard from mono 16-bit sound at {rate} Hz")
    return frames


class WavInput(AudioInput):
    """A WAV file fed as the microphone feeds: a block each tenth of a second (`paced`), or as
    fast as the event loop runs."""

    def __init__(self, path: Path, paced: bool = True, rate: int = RATE, parent=None):
        super().__init__(parent)
        self.path = Path(path)
        self.rate = rate
        self._data = b""
        self._at = 0
        self._timer = QTimer(self)
        self._timer.setInterval(round(BLOCK_SECONDS * 1000) if paced else 0)
        self._timer.timeout.connect(self._next)

    def start(self) -> None:
        try:
            self._data = read_wav(self.path, self.rate)
        except ValueError as e:
            self._fail(str(e))
            return
        self._at = 0
        self._timer.start()

    def _next(self) -> None:
        size = 2 * round(self.rate * BLOCK_SECONDS)
        block = self._data[self._at:self._at + size]
        self._at += size
        if block:
            self.blocks.emit(block)
        if self._at >= len(self._data):
            self._timer.stop()
            self.ended.emit()

    def stop(self) -> None:
        self._timer.stop()


def wav_inputs(paths: Iterable[Path], paced: bool = False) -> Callable[[], AudioInput]:
    """An input for each call in turn, from these WAV files (the seam's: tests, a school's
    check); after the last, silence."""
    queue = [Path(p) for p in paths]

    def next_input() -> AudioInput:
        return WavInput(queue.pop(0), paced) if queue else Silence()

    return next_input


class Silence(AudioInput):
    """No sound at all: the input ends at once."""

    def start(self) -> None:
        QTimer.singleShot(0, self, self.ended.emit)

    def stop(self) -> None:
        pass


def microphones() -> list[tuple[str, str]]:
    """The microphones on this computer: (id, name), the system's default first; none where Qt
    Multimedia cannot be loaded."""
    try:
        devices = multimedia().QMediaDevices
    except ImportError:
        return []
    default = devices.defaultAudioInput()
    found = [(_id(d), d.description()) for d in devices.audioInputs()]
    first = _id(default) if not default.isNull() else None
    return sorted(found, key=lambda m: m[0] != first)


def microphone_problem() -> str | None:
    """Why no microphone can be heard here (one sentence), or None."""
    try:
        multimedia()
    except ImportError as e:
        return f"The microphone cannot be used: Qt Multimedia cannot be loaded ({e})."
    if not microphones():
        return "No microphone is connected to this computer."
    return None


def _id(device) -> str:
    return bytes(device.id().data()).decode(errors="replace")


def _device(mm, chosen: str | None):
    """The microphone recorded from: the one chosen (by id) where it is connected, else the
    system's default (a null device where there is none)."""
    found = [d for d in mm.QMediaDevices.audioInputs() if _id(d) == chosen]
    return found[0] if found else mm.QMediaDevices.defaultAudioInput()


def microphone_in_use(chosen: str | None) -> str:
    """The id of the microphone a MicrophoneInput of `chosen` records from (a trainee's voice is
    taught for each microphone: trainer.speech.enrolment.kept_at); "" where there is none."""
    try:
        device = _device(multimedia(), chosen)
    except ImportError:
        return ""
    return "" if device.isNull() else _id(device)


class _Recorder(QObject):
    """Qt Multimedia's recording from one microphone, on a thread of its own (MicrophoneInput):
    what it reads goes out as `data`."""

    data = Signal(bytes)
    failed = Signal(str)

    def __init__(self, mm, device, fmt):
        super().__init__()
        self.mm, self.device, self.fmt = mm, device, fmt
        self.source = None
        self.io = None
        self._watch: QTimer | None = None  # whether it still gives sound, while it records
        self._heard = 0.0  # when it last gave some (or started)
        self._any = False  # whether it has given any
        self._first = 0.0  # when it gave its first
        self._given = 0  # bytes it has given since
        self._per_second = fmt.bytesForDuration(1_000_000)

    def start(self) -> None:
        self.source = self.mm.QAudioSource(self.device, self.fmt, self)
        self.io = self.source.start()
        if self.io is None:
            self.failed.emit(f"The microphone {self.device.description()} cannot be opened.")
            return
        self.io.readyRead.connect(self._read)
        self._heard = time.monotonic()
        self._watch = QTimer(self)
        self._watch.setInterval(250)
        self._watch.timeout.connect(self._still_there)
        self._watch.start()

    def _read(self) -> None:
        if self.io is not None:
            data = bytes(self.io.readAll().data())
            if data:
                self._heard = time.monotonic()
                if not self._any:
                    self._any, self._first = True, self._heard
                self._given += len(data)
                self.data.emit(data)

    def _still_there(self) -> None:
        """A microphone gives sound all the time, silence too: one that has given none for
        SILENT_SECONDS (FIRST_SOUND_SECONDS before its first) was unplugged (Qt says nothing of
        it: its recording goes on, empty). This runs on the recording's own thread, so a busy
        window does not hold it back; a thread of Python's holding the interpreter's lock for
        that long would (the recogniser's longest, a listener made, is about 0.1 s)."""
        limit = SILENT_SECONDS if self._any else FIRST_SOUND_SECONDS
        now = time.monotonic()
        if self.io is None:
            return
        if now - self._heard > limit:
            self._watch.stop()
            self.failed.emit(f"The microphone {self.device.description()} gives no sound: was it "
                             "unplugged?")
            return
        # Sound lost on its way (Qt 6.11 lost two thirds of a server's 100 ms pieces before the
        # app asked for pieces of its own size: PULSE_PIECES): a call heard from a third is no
        # call, so it is said. Only while sound still comes: a microphone that stopped is the
        # silence's to say.
        given = self._given / ((now - self._first) * self._per_second) if self._any else 1.0
        coming = now - self._heard < SHARE_SECONDS / 2
        if coming and now - self._first >= SHARE_SECONDS and given < SHARE_LEAST:
            self._watch.stop()
            self.failed.emit(f"The microphone {self.device.description()} gives the app only "
                             f"{given:.0%} of its sound (the rest is lost on its way): calls "
                             "cannot be heard from it.")

    def stop(self) -> None:
        if self._watch is not None:
            self._watch.stop()
        if self.source is not None:
            self.source.stop()
        self.source, self.io = None, None
        self.thread().quit()


def ask_for_pieces() -> None:
    """PULSE_PIECES in the environment, on Linux, unless the user set it: called before Qt
    starts (ui.shell.app.application), while the program has one thread."""
    if sys.platform.startswith("linux"):
        name, value = PULSE_PIECES
        os.environ.setdefault(name, value)


class MicrophoneInput(AudioInput):
    """The microphone chosen in the settings (`device`: its id; None or one gone: the system's
    default), at the recogniser's rate, mono, 16-bit. It is read on a thread of its own: read on
    the window's, every moment the window was busy past a quarter of a second lost sound (Qt
    keeps a quarter of a second of it), and a call that lost some was heard wrong or not at all.
    Its blocks still come on the window's thread, queued, none lost."""

    def __init__(self, device: str | None = None, rate: int = RATE, parent=None):
        super().__init__(parent)
        self.device, self.rate = device, rate
        #: the recording's thread and recorder while it records: shared with the stop that runs
        #: when this object is deleted unstopped (with its screen), which holds no `self`
        self._recording: list[tuple[QThread, _Recorder]] = []
        self.destroyed.connect(lambda *_, r=self._recording: _stop_recording(r))

    def start(self) -> None:
        if self._recording:  # recording already: a second recorder would interleave its sound
            return
        try:
            mm = multimedia()
        except ImportError as e:
            self._fail(f"Qt Multimedia cannot be loaded ({e}).")
            return
        device = _device(mm, self.device)
        fmt = mm.QAudioFormat()
        fmt.setSampleRate(self.rate)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(mm.QAudioFormat.SampleFormat.Int16)
        if device.isNull() or not device.isFormatSupported(fmt):
            what = "No microphone is connected" if device.isNull() else \
                f"The microphone {device.description()} cannot record mono 16-bit sound at {self.rate} Hz"
            self._fail(what + ".")
            return
        thread = QThread()
        thread.setObjectName("microphone")
        recorder = _Recorder(mm, device, fmt)
        recorder.moveToThread(thread)
        recorder.data.connect(self.blocks)  # queued to this object's thread
        recorder.failed.connect(self._fail)
        thread.started.connect(recorder.start)
        self._recording.append((thread, recorder))
        _recordings.append(self._recording)
        thread.start()

    def stop(self) -> None:
        _stop_recording(self._recording)


#: every MicrophoneInput's recording (its list, empty once stopped), stopped at the latest when
#: Python ends; and the recordings whose thread had not ended when its stop stopped waiting, kept
#: until it has: a QThread deleted while its thread runs ends the whole app (Qt aborts it)
_recordings: list[list] = []
_late: list[tuple] = []


def _stop_recording(recording: list, seconds: float | None = None) -> None:
    """Stop a MicrophoneInput's recording, on the recorder's own thread, and wait up to `seconds`
    (STOP_SECONDS) for that thread to end (then both may go)."""
    seconds = STOP_SECONDS if seconds is None else seconds
    while recording:
        thread, recorder = recording.pop()
        QTimer.singleShot(0, recorder, recorder.stop)
        if not thread.wait(round(1000 * seconds)):
            _late.append((thread, recorder))
    _late[:] = [(t, r) for t, r in _late if not t.isFinished()]
    _recordings[:] = [r for r in _recordings if r is not recording]


@atexit.register
def _stop_all() -> None:
    """At Python's end: every recording still on stopped, and every late thread waited for, all
    within STOP_SECONDS in all."""
    ends = time.monotonic() + STOP_SECONDS
    for recording in list(_recordings):
        _stop_recording(recording, max(0.0, ends - time.monotonic()))
    for thread, _ in _late:
        thread.wait(round(1000 * max(0.0, ends - time.monotonic())))
