"""The code runs alike on Windows, macOS and Linux, and installs without what only the class server
needs: each test simulates what the other OS, or the missing package, does."""

from __future__ import annotations

import io
import os
import sys
import time
import zipfile

import pytest

from tests.support.command import run_command
from tests.test_packaging import wheel  # noqa: F401  (the fixture: the project's wheel, built once)
from trainer.classes.server.postgres import NOT_INSTALLED


@pytest.fixture
def without_pgserver(tmp_path) -> dict:
    """An environment in which `import pgserver` fails, as where the extra is not installed."""
    blocker = tmp_path / "blocked" / "pgserver"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ImportError("pgserver is not installed here")\n')
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(blocker.parent), os.environ.get("PYTHONPATH")])),
            "QT_QPA_PLATFORM": "offscreen"}


def test_class_server_without_pgserver_says_in_one_line_how_to_get_it(without_pgserver, tmp_path):
    data = tmp_path / "class data"
    done = run_command("class-server", "--data", str(data), env=without_pgserver)
    assert done.returncode == 2
    assert done.stderr == NOT_INSTALLED + "\n" and done.stdout == ""
    assert "pip install 'dealer-trainer[class-server]'" in done.stderr
    assert not data.exists(), "nothing is made in the folder before the server can run"
    done = run_command("class-server", "--stop", str(data), env=without_pgserver)
    assert (done.returncode, done.stderr) == (2, NOT_INSTALLED + "\n")


#: the screens drawn where pgserver is not installed
SCREENS = ("practice", "class", "exam")


@pytest.mark.qt  # the app, drawn in a program of its own, whose code the markers cannot read
@pytest.mark.cli
def test_the_apps_screens_render_without_pgserver(without_pgserver, tmp_path):
    """Each screen drawn by the dealer-trainer program's entry (ui.main.main, as `dealer-trainer
    --screenshot FILE --screen NAME --db FILE` runs it), each with a progress file of its own, in
    one program where `import pgserver` fails. A failed import is not kept: every screen that
    tries it, the first or the last, fails as a program of its own would, so one program's start
    serves the three."""
    import subprocess

    from tests.support.paths import ROOT

    code = ("import sys; from ui.main import main\n"
            "for s in sys.argv[2:]:\n"
            "    print(s, main(['--screenshot', f'{sys.argv[1]}/{s}.png', '--screen', s,\n"
            "                   '--db', f'{sys.argv[1]}/{s}.db']), flush=True)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path), *SCREENS], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, **without_pgserver}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [word for screen in SCREENS for word in (screen, "0")], done.stderr
    for screen in SCREENS:
        assert (tmp_path / f"{screen}.png").read_bytes().startswith(b"\x89PNG")


def test_pgserver_is_an_optional_extra_of_the_wheel(wheel):  # noqa: F811
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    requires = [line.split(":", 1)[1].strip() for line in meta.splitlines()
                if line.startswith("Requires-Dist:")]
    pg = [r.replace("'", '"') for r in requires if r.startswith("pgserver")]
    assert 'pgserver>=0.1.4; extra == "class-server"' in pg, requires
    assert all("; extra ==" in r for r in pg), f"pgserver must be an extra, never a dependency: {pg}"
    assert "Provides-Extra: class-server" in meta


# --- files of bytes: O_BINARY -----------------------------------------------------------------------

O_BINARY = 0x40000000  # a flag no Linux open() knows: this simulation's O_BINARY


class _TextModeFile(io.RawIOBase):
    """What a Windows C runtime does to a file opened without O_BINARY: each b"\\n" written is
    b"\\r\\n" on the disk."""

    def __init__(self, fd: int, close):
        self.fd, self._close = fd, close

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        os.write(self.fd, bytes(data))  # the patched os.write translates
        return len(data)

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if not self.closed:
            self._close(self.fd)
        super().close()


@pytest.fixture
def windows_text_mode(monkeypatch):
    """os.open, os.fdopen, os.write and os.close as on Windows: a file opened for writing without
    os.O_BINARY (which exists here, as there) gets b"\\r\\n" for each b"\\n" written."""
    real_open, real_fdopen, real_write, real_close = os.open, os.fdopen, os.write, os.close
    text: set[int] = set()

    def fake_open(path, flags, mode=0o777, *, dir_fd=None):
        fd = real_open(path, flags & ~O_BINARY, mode, dir_fd=dir_fd)
        if flags & (os.O_WRONLY | os.O_RDWR) and not flags & O_BINARY:
            text.add(fd)
        return fd

    def fake_write(fd, data):
        if fd in text:
            real_write(fd, bytes(data).replace(b"\n", b"\r\n"))
            return len(data)
        return real_write(fd, data)

    def fake_close(fd):
        text.discard(fd)
        real_close(fd)

    def fake_fdopen(fd, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True):
        if fd not in text:
            return real_fdopen(fd, mode, buffering, encoding, errors, newline, closefd)
        buffered = io.BufferedWriter(_TextModeFile(fd, fake_close))
        return buffered if "b" in mode else io.TextIOWrapper(buffered, encoding, errors, newline)

    monkeypatch.setattr(os, "O_BINARY", O_BINARY, raising=False)
    for name, fake in (("open", fake_open), ("fdopen", fake_fdopen), ("write", fake_write),
                       ("close", fake_close)):
        monkeypatch.setattr(os, name, fake)
    return text


def test_the_simulation_turns_a_newline_into_two_bytes_without_o_binary(windows_text_mode, tmp_path):
    fd = os.open(tmp_path / "t", os.O_WRONLY | os.O_CREAT)
    with os.fdopen(fd, "wb") as out:
        out.write(b"a\nb")
    fd = os.open(tmp_path / "b", os.O_WRONLY | os.O_CREAT | os.O_BINARY)
    with os.fdopen(fd, "wb") as out:
        out.write(b"a\nb")
    assert (tmp_path / "t").read_bytes() == b"a\r\nb" and (tmp_path / "b").read_bytes() == b"a\nb"


def test_an_installation_key_holding_a_newline_survives_a_windows_write(windows_text_mode, tmp_path,
                                                                          monkeypatch):
    from trainer.exams import trust

    key = b"\n" + bytes(range(1, 32))  # 1 key in 8 holds a newline byte (32 random bytes)
    monkeypatch.setattr(trust.secrets, "token_bytes", lambda n: key[:n])
    assert trust.installation_key(tmp_path / "installation.key") == key
    assert (tmp_path / "installation.key").read_bytes() == key
    assert trust.installation_key(tmp_path / "installation.key") == key  # and read back again


def test_every_file_the_engine_writes_by_os_open_is_binary(windows_text_mode, tmp_path):
    """The instructor's key file, the list of sittings seen, the class's logins, the class's
    password file: the same bytes on every OS."""
    from trainer.classes.server.command import passwords
    from trainer.classes.workstation.address import class_address
    from trainer.classes.workstation.passfile import store
    from trainer.exams import keys
    from trainer.exams.seen import SittingsSeen

    keys._write_new(tmp_path / "key.json", {"version": 1, "lines": "a\nb"})
    SittingsSeen(tmp_path / "progress.db")._add("nonce-1")
    passwords(tmp_path)
    store(tmp_path / "pgpass", class_address("postgresql://w:secret@host:5432/dealer_class"))
    written = [p for p in tmp_path.iterdir() if p.is_file()]
    assert len(written) == 4, written
    for path in written:
        assert b"\n" in path.read_bytes() and b"\r" not in path.read_bytes(), path.name


# --- the exam clock over a suspend ------------------------------------------------------------------

class _Machine:
    """A computer's clocks: `awake` seconds run, `asleep` seconds suspended; each OS's clocks
    count one or both, as their manuals say."""

    def __init__(self, os_name: str):
        self.os_name, self.awake, self.asleep, self.wall = os_name, 1000.0, 0.0, 1_800_000_000.0

    def monotonic(self) -> float:  # Linux CLOCK_MONOTONIC, macOS mach_absolute_time: awake only
        return self.awake + (self.asleep if self.os_name == "win32" else 0.0)

    def clock_gettime(self, clock: int) -> float:
        if clock == getattr(time, "CLOCK_BOOTTIME", None) and self.os_name == "linux":
            return self.awake + self.asleep
        if clock == time.CLOCK_MONOTONIC:  # macOS's counts sleep, Linux's does not
            return self.awake + (self.asleep if self.os_name == "darwin" else 0.0)
        raise OSError(22, "no such clock here")

    def time(self) -> float:
        return self.wall

    def run(self, awake: float = 0.0, asleep: float = 0.0) -> None:
        self.awake, self.asleep = self.awake + awake, self.asleep + asleep
        self.wall += awake + asleep


@pytest.mark.parametrize(("os_name", "named"), [("linux", "CLOCK_BOOTTIME"), ("darwin", "CLOCK_MONOTONIC"),
                                                ("win32", "time.monotonic")])
def test_the_exam_clock_counts_a_suspend_on_every_os(monkeypatch, os_name, named):
    from trainer.exams import clock

    machine = _Machine(os_name)
    monkeypatch.setattr(sys, "platform", os_name)
    if os_name != "linux":
        monkeypatch.delattr(time, "CLOCK_BOOTTIME", raising=False)
    elif not hasattr(time, "CLOCK_BOOTTIME"):
        monkeypatch.setattr(time, "CLOCK_BOOTTIME", 7, raising=False)
    for name in ("monotonic", "clock_gettime", "time"):
        monkeypatch.setattr(time, name, getattr(machine, name))
    exam = clock.ExamClock()
    assert exam.name == named
    start = exam()
    assert start == machine.wall
    machine.run(awake=60)
    machine.run(asleep=3600)  # the lid closed for an hour
    machine.wall -= 7200  # and the computer's clock wound back two hours
    machine.run(awake=30)
    assert exam() - start == 60 + 3600 + 30


def test_the_fallback_is_named_in_one_place(monkeypatch):
    from trainer.exams import clock

    monkeypatch.setattr(sys, "platform", "sunos5")
    monkeypatch.delattr(time, "CLOCK_BOOTTIME", raising=False)
    assert clock.steady_clock()[0] == clock.FALLBACK == "time.monotonic"


# --- POSIX-only calls, each guarded ----------------------------------------------------------------

def test_the_class_server_module_loads_without_pwd_and_geteuid(tmp_path):
    """Windows has neither: importing the class server's PostgreSQL, and making one, still works."""
    import subprocess

    code = ("import os, sys; sys.modules['pwd'] = sys.modules['fcntl'] = None; del os.geteuid, os.getuid\n"
            "from trainer.classes.server.postgres import Postgres\n"
            "import trainer.classes.server.command\n"
            f"print(Postgres({str(tmp_path)!r}).user)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "None\n", "")


def test_without_geteuid_the_server_is_no_roots_and_its_socket_folder_is_made(monkeypatch, tmp_path):
    from trainer.classes.server import postgres

    monkeypatch.delattr(os, "geteuid")
    server = postgres.Postgres(tmp_path / "class")
    assert server.user is None and not postgres.as_root()
    server._socket_folder()
    assert server.socket_dir.is_dir()


def test_pg_ctl_options_are_quoted_as_each_os_splits_them(monkeypatch):
    from trainer.classes.server.postgres import option

    folder = r"C:\Users\Ana Ruiz\dealer class\socket"
    assert option(folder) == "'" + folder + "'"  # POSIX: the shell's quoting
    monkeypatch.setattr(os, "name", "nt")
    assert option(folder) == '"' + folder + '"'  # Windows: the C runtime's; a quote is a letter
    assert option("127.0.0.1") == "127.0.0.1"


class _Kernel32:
    """Windows' answers about processes: which ids run."""

    def __init__(self, running: set[int]):
        self.running, self.closed = running, []

    def OpenProcess(self, access, inherit, pid):
        return pid + 1000 if pid in self.running or pid == 7 else 0  # 7: ended, its handle still there

    def GetExitCodeProcess(self, handle, code):
        code._obj.value = 259 if handle - 1000 in self.running else 0
        return 1

    def CloseHandle(self, handle):
        self.closed.append(handle)


def test_on_windows_whether_a_process_runs_is_asked_never_signalled(monkeypatch):
    """os.kill(pid, 0) on Windows ends the process: the class-server command found running would
    be killed by the next start's look at it."""
    import ctypes

    from trainer.classes.server import stopping

    kernel32 = _Kernel32({4242})
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(ctypes, "WinDLL", lambda name, **_: kernel32, raising=False)
    monkeypatch.setattr(os, "kill", lambda *a: pytest.fail(f"os.kill{a} on Windows ends the process"))
    assert stopping.runs(4242) and not stopping.runs(7) and not stopping.runs(99)
    assert kernel32.closed == [5242, 1007]


class _Served:
    """A class server's folder as `class-server --data` leaves it while it runs (PG_VERSION, the
    command's pid file), and the PostgreSQL beside it: running until stopped."""

    def __init__(self, folder):
        self.folder, self.pgdata, self.running, self.stopped = folder, folder / "pgdata", True, 0
        self.pgdata.mkdir(parents=True)
        (self.pgdata / "PG_VERSION").write_text("16\n")
        (folder / "class-server.pid").write_text("4242\n", encoding="ascii")

    def __call__(self, folder, **_):  # as stopping.Postgres(folder) is made
        return self

    def stop(self):
        self.running, self.stopped = False, self.stopped + 1


@pytest.mark.parametrize("reads_the_request", [True, False])
def test_on_windows_class_server_stop_asks_the_command_without_a_signal(monkeypatch, tmp_path,
                                                                        reads_the_request):
    """Simulated Windows: no os.kill (there it ends the command outright, and PostgreSQL is left
    running with no one to stop it); --stop leaves its request in the folder, the running command
    (here: the process calls answered as Windows would) reads it and ends, and PostgreSQL is
    stopped. A command that does not answer in time: PostgreSQL is stopped all the same."""
    import ctypes

    from trainer.classes.server import stopping

    served = _Served(tmp_path / "class data")
    running = {4242}

    class Kernel32(_Kernel32):
        def GetExitCodeProcess(self, handle, code):  # the command's look at its folder
            if reads_the_request and (served.folder / stopping.STOP_FILE).exists():
                running.discard(4242)
                (served.folder / stopping.PID_FILE).unlink()
            return super().GetExitCodeProcess(handle, code)

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(ctypes, "WinDLL", lambda name, **_: Kernel32(running), raising=False)
    monkeypatch.setattr(os, "kill", lambda *a: pytest.fail(f"os.kill{a} on Windows ends the process"))
    monkeypatch.setattr(stopping, "Postgres", served)
    said = []
    assert stopping.stop_server(str(served.folder), say=said.append, wait=0.2) == 0  # two looks
    assert said == [f"Class server in {served.folder} stopped."]
    assert served.stopped == 1 and (4242 in running) is not reads_the_request
    assert (served.folder / stopping.STOP_FILE).exists(), "the request stays for the command's next look"


def test_on_windows_the_stop_command_shown_is_quoted_for_its_command_line(monkeypatch):
    from pathlib import Path

    from trainer.classes.server import command

    monkeypatch.setattr(sys, "platform", "win32")
    assert command._shown(Path("C:/Class data/room 2")) == '"C:/Class data/room 2"'


def test_on_posix_whether_a_process_runs_is_signal_0():
    from trainer.classes.server.stopping import runs

    assert runs(os.getpid())
    assert not runs(2**22 + 12345)  # beyond pid_max


# --- UTF-8 output -----------------------------------------------------------------------------------

@pytest.mark.parametrize("program", ["trainer", "ui.main"])
def test_piped_output_is_utf8_where_the_locale_is_cp1252(program, tmp_path):
    """Piped, Windows' Python writes cp1252: the § of every citation would reach a UTF-8 reader as
    the byte 0xA7. Each entry point (python -m trainer; the dealer-trainer program) writes UTF-8."""
    import subprocess

    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run([sys.executable, "-m", program, "odds", "--game", "props-and-hops"],
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "§ 668a.2(d)(1)".encode() in done.stdout
    done.stdout.decode("utf-8")  # and no byte of another encoding (cp1252: § is 0xA7 alone)
    missing = tmp_path / "nowhere§" / "shot.png"  # an error line (stderr) with a § in it
    done = subprocess.run([sys.executable, "-m", program, "grade", str(missing), "--log", str(missing)],
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 2 and "nowhere§".encode() in done.stderr, done.stderr


# --- one look on every OS ---------------------------------------------------------------------------

def test_the_app_draws_in_fusion_whatever_the_oss_own_style(qtbot):
    """Windows starts Qt in its own style (windowsvista), macOS in macOS: the app sets Fusion, the
    style of the screenshots. Simulated with Qt's Windows style, which Qt has here too."""
    from ui.qt import QApplication
    from ui.shell.app import application

    app = QApplication.instance()
    sheet = app.styleSheet()

    def base_style() -> str:  # under the theme's style sheet
        app.setStyleSheet("")
        name = app.style().name()
        app.setStyleSheet(sheet)
        return name

    app.setStyle("Windows")
    assert base_style() == "windows"
    try:
        assert application() is app
        sheet = app.styleSheet()
        assert base_style() == "fusion"
    finally:
        app.setStyle("Fusion")
