"""The class server's life outside the happy path: a command killed outright leaves PostgreSQL
running, and the next start takes it over; `class-server --stop DIR` stops it from anywhere;
SIGHUP (the window closed) and SIGTERM (a logout) stop it cleanly, none of its processes left;
any data folder works (spaces, a path longer than a socket's address), for root and for a normal
user; as root, a folder the server's user cannot reach is named and never opened, and programs it
cannot reach are copied where it can."""

from __future__ import annotations

import os
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import cluster, free_port
from tests.support.paths import ROOT
from trainer.classes.errors import ClassServerError
from trainer.classes.server import postgres
from trainer.classes.server.postgres import Postgres, socket_folder, unreachable

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="only root runs the server as another user")
NORMAL_USER = "dtclass"  # made for the test when the suite runs as root


def command(*args: str, user: str | None = None, env: dict | None = None) -> subprocess.Popen:
    """`dealer-trainer class-server ARGS` as a process of its own (as `user`, when given)."""
    extra = {"user": user, "group": user, "extra_groups": []} if user else {}
    # with faulthandler: SIGABRT makes it print its threads' stacks (`ended`), and leave no core
    # file in the repository, where it runs
    return subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "trainer", "class-server", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, **(env or {})}, preexec_fn=no_core_file, **extra)


def no_core_file() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def until_running(proc: subprocess.Popen) -> list[str]:
    """The lines the command printed up to "Stop the server …" (it is serving then)."""
    lines: list[str] = []
    while not lines or not lines[-1].startswith("Stop the server"):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the command ended early: {lines} {proc.stderr.read()}")
        lines.append(line.strip())
    return lines


def ended(proc: subprocess.Popen, folder: Path, seconds: float) -> int:
    """The command's exit status, once it has ended within `seconds`; else the test fails with
    what it printed and its threads' stacks (SIGABRT, which faulthandler answers so), and its
    PostgreSQL, which it then left running, is stopped."""
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        out, err = proc.communicate(timeout=30)
        Postgres(folder).stop()
        pytest.fail(f"the command did not end within {seconds:g} s; it printed:\n{out}\n{err}")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trainer", "class-server", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=180)


def postgres_running(folder: Path) -> bool:
    return Postgres(folder).running


def test_a_command_killed_outright_is_taken_over_at_the_next_start_and_stop_works(open_folder):
    """The attack: the wrapper killed by SIGKILL left PostgreSQL running, and every later start
    said "already running" until someone ran pg_ctl as the server's own user."""
    folder, port = open_folder / "class", str(free_port())
    cluster(folder)  # what initdb makes: the first start from nothing is the command's own test's
    first = command("--data", str(folder), "--port", port)
    until_running(first)
    first.kill()
    first.wait(30)
    assert postgres_running(folder), "PostgreSQL outlives its command"
    second = command("--data", str(folder), "--port", port)
    try:
        lines = until_running(second)
        assert lines[0] == (f"A class server was left running in {folder} after its command ended; "
                            "stopping it first.")
        # a start while it runs is refused, saying how to stop it
        done = run("--data", str(folder), "--port", str(free_port()))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip() == (f"a class server is already running in {folder} (process "
                                       f"{second.pid}): stop it with Ctrl+C there, or: dealer-trainer "
                                       f"class-server --stop {folder}")
        # --stop, from another window: through the running command, which says so itself
        done = run("--stop", str(folder))
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"Class server in {folder} stopped."
        assert ended(second, folder, 30) == 0
        assert second.stdout.read().strip().endswith("Class server stopped.")
    finally:
        if second.poll() is None:
            second.kill()
    assert not postgres_running(folder)
    assert not (folder / "class-server.pid").exists()
    done = run("--stop", str(folder))
    assert (done.returncode, done.stdout.strip()) == (0, f"No class server is running in {folder}.")


def test_stop_stops_a_server_whose_command_is_gone(open_folder):
    folder, port = open_folder / "class", str(free_port())
    cluster(folder)  # what initdb makes: the first start from nothing is the command's own test's
    first = command("--data", str(folder), "--port", port)
    until_running(first)
    first.kill()
    first.wait(30)
    done = run("--stop", str(folder))
    assert done.returncode == 0 and done.stdout.strip() == f"Class server in {folder} stopped."
    assert not postgres_running(folder)


def test_stop_names_a_folder_without_a_class(open_folder):
    done = run("--stop", str(open_folder / "nothing"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"{open_folder / 'nothing'} holds no class server's data"


#: a signal that comes while the command looks at its stop (the event's own wait holds the event's
#: lock as it looks at the flag, between its waits of STOP_LOOK seconds): the handler runs on the
#: main thread, there, holding that lock
SIGNAL_IN_THE_LOOK = r"""
import os, signal
from trainer.classes.server.command import stop_on_signals
stop = stop_on_signals()
with stop._cond:  # as Event.wait holds it
    os.kill(os.getpid(), signal.SIGHUP)
    signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a step more: the handler has run by its end
print("stopped" if stop.wait(10) else "not stopped", flush=True)
"""


def test_a_signal_that_comes_as_the_command_looks_at_its_stop_stops_it():
    """A signal that comes as the command's loop looks at its stop event (the event's wait holds
    the event's lock then) ran a handler that set the event there, on the same thread: it waited
    for that lock for ever, none of the signals the command stops on ended it, and its PostgreSQL
    ran on. Rare (none of 300 signals sent at random moments hit it); here every time."""
    done = subprocess.run([sys.executable, "-c", SIGNAL_IN_THE_LOOK], cwd=ROOT, capture_output=True,
                          text=True, timeout=20)
    assert (done.returncode, done.stdout.strip()) == (0, "stopped"), done.stderr


def test_sighup_stops_it_cleanly(open_folder):
    """A terminal window closed under the command (SIGHUP) stops PostgreSQL with it."""
    folder = open_folder / "class"
    cluster(folder)
    proc = command("--data", str(folder), "--port", str(free_port()))
    until_running(proc)
    proc.send_signal(signal.SIGHUP)
    assert ended(proc, folder, 60) == 0
    assert proc.stdout.read().strip().endswith("Class server stopped.")
    assert not postgres_running(folder)


def test_a_folder_with_spaces_and_a_path_longer_than_a_socket_address_works(open_folder):
    """Both failed with a message that named no cause: the socket's path (over 107 bytes) and a
    space in the server's options or the superuser's connection string."""
    folder = open_folder / "Dealer class" / ("a long folder name " * 6).strip() / "class"
    assert len(os.fsencode(folder / "socket" / ".s.PGSQL.5432")) > 107
    folder.parent.mkdir(parents=True)
    for d in (folder.parent, folder.parent.parent):
        d.chmod(0o755)
    server = Postgres(folder, port=free_port())
    assert server.socket_dir.parent == Path(os.environ.get("TMPDIR", "/tmp"))
    server.start()
    try:
        with psycopg.connect(server.admin_dsn()) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        st = os.lstat(server.socket_dir)
        assert stat.S_IMODE(st.st_mode) == 0o700 and stat.S_ISDIR(st.st_mode)
    finally:
        server.stop()
    assert not server.running


def test_a_short_path_keeps_its_socket_in_the_data_folder(open_folder):
    """A data folder short enough for the socket's path (pytest's own folders are not always:
    their numbered base grows with every run, and the path passed the limit at pytest-1000)."""
    data = open_folder / "class"
    assert len(str(data / "socket" / ".s.PGSQL.5432")) < 90
    assert socket_folder(data, 5432) == data / "socket"


def test_a_socket_folder_someone_else_made_is_refused(open_folder, tmp_path):
    """The short socket folder is in the shared temporary folder: one another user made first
    (here a link to a folder of theirs) is never used, nor changed."""
    folder = open_folder / ("x" * 120) / "class"
    folder.parent.mkdir()
    folder.parent.chmod(0o755)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    planted = socket_folder(folder, 5440)
    planted.symlink_to(theirs)
    cluster(folder)  # refused after a first start's initdb, which is not what is tried here
    try:
        with pytest.raises(ClassServerError, match="belongs to someone else"):
            Postgres(folder, port=5440).start()
        assert theirs.stat().st_uid == os.geteuid() and list(theirs.iterdir()) == []
    finally:
        planted.unlink()


@ROOT_ONLY
def test_a_data_folder_the_servers_user_cannot_reach_is_named_and_nothing_above_is_changed(open_folder):
    """The attack on privacy: as root, the server added o+x to every folder above the data folder,
    opening a private home such as /root to every local user."""
    private = open_folder / "home"
    private.mkdir(mode=0o700)
    before = {p: p.stat().st_mode for p in (private, open_folder)}
    done = run("--data", str(private / "class"), "--port", str(free_port()))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"the class server runs PostgreSQL as the system user pgserver, who "
                                   f"cannot enter {private} (mode 700): give a data folder it can reach "
                                   f"(e.g. /srv/dealer-class), or let it pass with: chmod o+x {private}")
    assert {p: p.stat().st_mode for p in before} == before


@ROOT_ONLY
def test_programs_under_a_private_folder_are_copied_where_the_server_can_run_them(open_folder, tmp_path,
                                                                               monkeypatch):
    """The app installed in a clone inside `mktemp -d` (mode 0700): PostgreSQL's user could not run
    pg_ctl there (PermissionError), and 27 class tests failed."""
    installed = Path(postgres._pgserver()._commands.POSTGRES_BIN_PATH)  # site/pgserver/pginstall/bin
    site = installed.parent.parent.parent
    private = tmp_path / "clone" / "site-packages"  # under pytest's folder: its owner's only
    for part in ("pgserver/pginstall", "pgserver.libs"):
        shutil.copytree(site / part, private / part, symlinks=True)
    bin_path = private / "pgserver" / "pginstall" / "bin"
    entry = pwd.getpwnam(postgres.SYSTEM_USER)
    assert unreachable(bin_path, entry.pw_uid, entry.pw_gid) is not None
    monkeypatch.setattr(postgres._pgserver()._commands, "POSTGRES_BIN_PATH", bin_path)
    folder = open_folder / "class"
    server = Postgres(folder, port=free_port())
    server.start()
    try:
        with psycopg.connect(server.admin_dsn()) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop()
    [copy] = (folder / postgres.PROGRAMS).iterdir()
    assert (copy / "pgserver" / "pginstall" / "bin" / "postgres").exists()
    assert unreachable(copy / "pgserver" / "pginstall" / "bin", entry.pw_uid, entry.pw_gid) is None


def normal_user() -> pwd.struct_passwd:
    """A normal user to run the server as, made when missing."""
    try:
        return pwd.getpwnam(NORMAL_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        NORMAL_USER], check=True, capture_output=True)
        return pwd.getpwnam(NORMAL_USER)


@ROOT_ONLY
def test_a_normal_user_runs_the_class_server(open_folder):
    """As any user but root, the server did not start: the socket folder was made only on root's
    path (FATAL: could not create lock file "DIR/socket/.s.PGSQL.N.lock"). Every instructor on a
    school PC is a normal user, and CI runs as root: here the suite drops to a normal user, in a
    process of its own (forked, as this Python may sit where that user cannot run it), and runs
    the server, connects, and stops it."""
    entry = normal_user()
    if unreachable(Path(postgres._pgserver()._commands.POSTGRES_BIN_PATH), entry.pw_uid, entry.pw_gid):
        pytest.skip("the packaged PostgreSQL is installed where a normal user cannot run it")
    home = open_folder / "instructor"
    home.mkdir()
    os.chown(home, entry.pw_uid, entry.pw_gid)
    folder, port = home / "class", free_port()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the normal user, from here on
        problem = b""
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)
            server = Postgres(folder, port=port)
            assert server.user is None  # no hand-over: it runs as this user
            server.start()
            try:
                with psycopg.connect(server.admin_dsn()) as conn:
                    found = conn.execute("SELECT 1").fetchone()
                assert found == (1,), found
                assert (folder / "pgdata").stat().st_uid == entry.pw_uid
            finally:
                server.stop()
        except BaseException as e:  # the parent says it
            problem = f"{type(e).__name__}: {e}".encode()
        os.write(write, problem)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as said:
        problem = said.read()
    os.waitpid(child, 0)
    assert problem == b"", problem.decode()



def postmasters(folder: Path) -> list[str]:
    """The command lines of PostgreSQL's processes whose data is in `folder` (Linux: /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # not a process, or one that ended
            continue
        if entry.name.isdigit() and "postgres" in line and str(folder / "pgdata") in line:
            found.append(line)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="processes are listed from /proc")
def test_sigterm_while_the_class_is_made_stops_postgresql_and_leaves_no_process(open_folder):
    """SIGTERM (a logout, `systemctl stop`) that comes once PostgreSQL runs but before the class
    is ready (its process id is written then, before the class's database is made) lets the
    start finish and then stops PostgreSQL as Ctrl+C does: none of its processes is left."""
    folder = open_folder / "class"
    cluster(folder)
    proc = command("--data", str(folder), "--port", str(free_port()))
    try:
        pid_file = folder / "class-server.pid"
        for _ in range(1200):
            if pid_file.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert pid_file.exists(), proc.stderr.read()
        assert postmasters(folder), "PostgreSQL runs once the command's process id is written"
        proc.send_signal(signal.SIGTERM)
        assert ended(proc, folder, 120) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.stdout.read().strip().endswith("Class server stopped.")
    assert postmasters(folder) == []
    assert not postgres_running(folder)
