"""A sound server of a test's own, with microphones a test speaks into: PulseAudio (Debian's
`pulseaudio`), started with no configuration but this module's, whose microphones are named
pipes (`module-pipe-source`). Each microphone is fed as a real one feeds its computer: 10 ms of
sound every 10 ms, silence while nothing is said, the words of a WAV file when a test `say`s them.
Qt Multimedia, in a program started with `PULSE_SERVER` set to `SoundServer.address`, lists them
as the computer's microphones and records from them through its own code; nothing of the app's is
replaced. (Fed 100 ms at a time, Qt 6.11 on its own loses about two thirds of what the pipe gives,
PulseAudio's own `parec` none; the app asks for pieces of its own size and loses none:
PULSE_PIECES in ui/speech/audio.py.)

Qt Multimedia reads `PULSE_SERVER` once, at its first look for devices, so the tests that need
these microphones run in a program of their own (tests/test_microphones.py), started with the
server's address and its microphones in its environment (`ENV`, `microphones`), which feeds them."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import queue
import shutil
import subprocess
import threading
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

RATE = 16_000  # the microphones' rate: the recogniser's, as a headset's is at most
FRAME = 320  # bytes in 10 ms (mono, 16-bit)
ENV = "DEALER_TRAINER_TEST_MICROPHONES"  # the microphones' pipes, for the program that hears them

MISSING = None if shutil.which("pulseaudio") else (
    "PulseAudio is not installed (apt-get install pulseaudio): no sound server to give the app a "
    "microphone")


@dataclass
class Microphone:
    """One microphone: PulseAudio's source `name` (the id Qt gives it), the `description` the
    settings list, and the pipe it hears."""

    name: str
    description: str
    pipe: Path
    #: the bytes it gives at a time (10 ms; 100 ms as some sound servers do, of which Qt 6.11
    #: on its own records a third)
    frame: int = FRAME
    _said: queue.SimpleQueue = field(default_factory=queue.SimpleQueue, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def say(self, wav: Path) -> float:
        """Queue the words of a mono 16-bit WAV file at RATE, said after what is queued; the
        seconds they last."""
        with wave.open(str(wav)) as w:
            if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, RATE):
                raise ValueError(f"{wav}: the microphones hear mono 16-bit sound at {RATE} Hz")
            data = w.readframes(w.getnframes())
        self._said.put(data)
        return len(data) / (2 * RATE)

    def switch_on(self) -> None:
        """Feed the pipe from now on, silence while nothing is said (again, after `switch_off`;
        on already, nothing changes)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._feed, name=f"microphone-{self.name}",
                                        daemon=True)
        self._thread.start()

    def switch_off(self) -> None:
        """No sound from it any more, as from a microphone unplugged: what the pipe still holds
        (while nothing records, PulseAudio reads none of it) is taken out too."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        try:
            pipe = os.open(self.pipe, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:  # the server has ended
            return
        try:
            while os.read(pipe, 65536):
                pass
        except BlockingIOError:
            pass
        finally:
            os.close(pipe)

    def _feed(self) -> None:
        """10 ms every 10 ms (`frame`). Silence PulseAudio does not take at once is dropped, as a
        microphone's sound that nobody records is gone: while no program records from it,
        PulseAudio reads nothing, and a pipe that kept it would give stale sound at the next
        recording's start (the pipe keeps a page, some 0.13 s). What a test says is never
        dropped while the server takes it, late or not (on a machine running the whole suite,
        PulseAudio reads late at times: dropping then cut words out of the calls); but words the
        server did not take for two seconds are dropped with the rest of what was said: nothing
        records then, and a microphone does not keep a call for the next recording to hear."""
        data = b""
        try:
            pipe = os.open(self.pipe, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # unplugged before it was switched on
            return
        try:
            fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, 4096)
            due = time.monotonic()
            while not self._stop.is_set():
                if not data:
                    with contextlib.suppress(queue.Empty):
                        data = self._said.get_nowait()
                size, speech = self.frame, bool(data)
                frame, data = data[:size].ljust(size, b"\0"), data[size:]
                if not self._write(pipe, frame, patient=speech):
                    data = b""
                # late (the machine busy), it goes on from now rather than catch up: frames
                # written back to back reach Qt as one large piece (most of which Qt on its own
                # loses)
                due = max(due + size / (2 * RATE), time.monotonic() - size / (2 * RATE))
                time.sleep(max(0.0, due - time.monotonic()))
        except OSError:  # the microphone was unplugged, or the server ended
            pass
        finally:
            os.close(pipe)

    def _write(self, pipe: int, frame: bytes, patient: bool) -> bool:
        """The frame into the pipe: silence if it fits now; speech as the server takes it, for
        up to two seconds. Whether it went in whole."""
        ends = time.monotonic() + (2.0 if patient else 0.0)
        while frame and not self._stop.is_set():
            try:
                frame = frame[os.write(pipe, frame):]
            except BlockingIOError:
                if time.monotonic() >= ends:
                    return False
                time.sleep(0.002)
        return not frame


class SoundServer:
    """PulseAudio with `microphones` (PulseAudio's name: description, the first the default) and
    one speaker, its files in `folder`; started by `start`, ended by `stop`."""

    def __init__(self, folder: Path, microphones: dict[str, str]):
        self.folder = Path(folder)
        self.socket = self.folder / "native"
        self.address = f"unix:{self.socket}"
        self.microphones = {name: Microphone(name, description, self.folder / f"{name}.pipe")
                            for name, description in microphones.items()}
        self.process: subprocess.Popen | None = None

    def _config(self) -> str:
        lines = [".fail",  # a line that fails ends the server, which `start` then says
                 f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}"]
        for m in self.microphones.values():
            lines.append(f"load-module module-pipe-source source_name={m.name} file={m.pipe} "
                         f"format=s16le rate={RATE} channels=1 "
                         f"source_properties=\"device.description='{m.description}'\"")
        lines.append("load-module module-null-sink sink_name=speaker")
        if self.microphones:
            lines.append(f"set-default-source {next(iter(self.microphones))}")
        return "\n".join(lines) + "\n"

    def start(self, timeout: float = 20.0) -> SoundServer:
        (self.folder / "runtime").mkdir(parents=True, mode=0o700, exist_ok=True)
        (self.folder / "home").mkdir(parents=True, exist_ok=True)
        config = self.folder / "server.pa"
        config.write_text(self._config())
        env = {**os.environ, "XDG_RUNTIME_DIR": str(self.folder / "runtime"),
               "HOME": str(self.folder / "home")}
        env.pop("PULSE_SERVER", None)
        self.log = open(self.folder / "server.log", "wb")  # noqa: SIM115 (closed by stop)
        self.process = subprocess.Popen(
            # it ends a minute after its last program has gone: where the test's own program was
            # killed before its `stop`, no server is left running
            ["pulseaudio", "-n", "-F", str(config), "--daemonize=no", "--exit-idle-time=60",
             "--use-pid-file=no", "--disallow-exit", "--disable-shm=yes", "--log-target=stderr"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        ends = time.monotonic() + timeout
        while not (self.socket.exists() and all(m.pipe.exists() for m in self.microphones.values())):
            if self.process.poll() is not None or time.monotonic() > ends:
                self.stop()
                raise RuntimeError("PulseAudio did not start: "
                                   + (self.folder / "server.log").read_text(errors="replace")[-2000:])
            time.sleep(0.02)
        return self

    def environment(self) -> dict[str, str]:
        """What a program needs to record from these microphones and speak into them."""
        described = [{"name": m.name, "description": m.description, "pipe": str(m.pipe)}
                     for m in self.microphones.values()]
        return {"PULSE_SERVER": self.address, ENV: json.dumps(described)}

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if getattr(self, "log", None) is not None:
            self.log.close()


def microphones() -> dict[str, Microphone] | None:
    """In the program started with a SoundServer's `environment`: its microphones, by name, the
    default first, each fed from now on (silence until a test `say`s something); None elsewhere."""
    described = os.environ.get(ENV)
    if not described:
        return None
    found = {d["name"]: Microphone(d["name"], d["description"], Path(d["pipe"]))
             for d in json.loads(described)}
    for m in found.values():
        m.switch_on()
    return found

