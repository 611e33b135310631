"""Benchmark: how much of a microphone's sound reaches the app while the window's thread is busy.

A PulseAudio of its own with one microphone fed 10 ms every 10 ms (tests/support/pulse.py); the
window's thread is made busy for S seconds in every second (a screen drawn again, a slow disk),
for 5 s, and the bytes that arrive are counted against those the microphone gave. Measured for
the app's input (ui.speech.audio.MicrophoneInput) and, as the baseline in the same run, Qt's
QAudioSource read on the window's thread (how the app read it before).

With `--pieces MS,...`, the window idle, the microphone gives its sound MS ms at a time (some
servers give 100 ms): the app's input as the app starts it (`ask_for_pieces`), against the same
input without asking the server for pieces of its size (the variable of `PULSE_PIECES` unset:
Qt on its own), in the same run.

    PYTHONPATH=. python tests/benchmarks/microphone_busy.py [--busy 0,0.15,0.4] [--pieces 10,100]

Needs Debian's pulseaudio; says so and exits 1 where it is missing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SECONDS = 5.0
BYTES_A_SECOND = 2 * 16_000


def measure(busy: float, way: str) -> float:
    """The share of the microphone's sound received in SECONDS, the window busy `busy` s a second."""
    from ui.qt import QApplication, QTimer, multimedia
    from ui.speech.audio import PULSE_PIECES, MicrophoneInput, ask_for_pieces

    os.environ.pop(PULSE_PIECES[0], None)  # libpulse reads it as each recording connects
    if way == "app":
        ask_for_pieces()  # as the app does when it starts
    app = QApplication.instance() or QApplication([])
    got = [0]

    def add(data: bytes) -> None:
        got[0] += len(data)

    if way in ("app", "app, no small pieces"):
        source = MicrophoneInput(None)
        source.blocks.connect(add)
        source.start()
        stop = source.stop
    else:
        mm = multimedia()
        fmt = mm.QAudioFormat()
        fmt.setSampleRate(16_000)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(mm.QAudioFormat.SampleFormat.Int16)
        qt = mm.QAudioSource(mm.QMediaDevices.defaultAudioInput(), fmt)
        io = qt.start()
        io.readyRead.connect(lambda: add(bytes(io.readAll().data())))
        stop = qt.stop
    began = time.monotonic()
    timer = QTimer()
    timer.timeout.connect(lambda: time.sleep(busy))
    timer.start(1000)
    QTimer.singleShot(round(1000 * SECONDS), app.quit)
    app.exec()
    timer.stop()
    app.processEvents()  # what was queued to the window's thread
    stop()
    return got[0] / ((time.monotonic() - began) * BYTES_A_SECOND)


def child(busy: list[float], pieces: list[int]) -> None:
    from tests.support import pulse

    mics = pulse.microphones()
    assert mics, "no microphone in the environment"
    time.sleep(0.5)
    microphone = next(iter(mics.values()))
    for ms in pieces:
        microphone.switch_off()
        microphone.frame = ms * BYTES_A_SECOND // 1000
        microphone.switch_on()
        base, app = measure(0.0, "app, no small pieces"), measure(0.0, "app")
        ratio = f"ratio {app / base:.2f}" if base else "no ratio: the baseline received nothing"
        print(f"pieces of {ms} ms: received {base:.1%} without asking for small pieces (baseline), "
              f"{app:.1%} by the app's input; {ratio}", flush=True)
    microphone.switch_off()
    microphone.frame = pulse.FRAME
    microphone.switch_on()
    for b in busy:
        base, app = measure(b, "window"), measure(b, "app")
        ratio = f"ratio {app / base:.2f}" if base else "no ratio: the baseline received nothing"
        print(f"busy {b:.2f} s a second: received {base:.1%} read on the window's thread (baseline), "
              f"{app:.1%} by the app's input; {ratio}", flush=True)
    for m in mics.values():
        m.switch_off()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", default="0,0.15,0.4", help="seconds busy in every second")
    parser.add_argument("--pieces", default="", help="ms the microphone gives at a time, each")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    busy = [float(b) for b in args.busy.split(",") if b]
    pieces = [int(p) for p in args.pieces.split(",") if p]
    if args.child:
        child(busy, pieces)
        return 0
    from tests.support import pulse

    if pulse.MISSING:
        print(pulse.MISSING, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        server = pulse.SoundServer(Path(folder), {"bench_microphone": "Bench microphone"}).start()
        try:
            env = {**os.environ, **server.environment(), "QT_QPA_PLATFORM": "offscreen",
                   "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
            return subprocess.run([sys.executable, __file__, "--child", "--busy", args.busy,
                                   "--pieces", args.pieces], env=env).returncode
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
