"""`dealer-trainer class-server --data DIR [--host H] [--port N]`: a class server in one command.

Starts PostgreSQL (trainer.classes.server.postgres) with its data in DIR, makes or brings up to
date the class's database, roles and logins (`instructor`, `supervisor`, `workstation`, their
passwords kept in DIR/logins.json, readable by its owner only, the same on every start: a
password a login changed for itself is put back; the shared workstation login stays closed when
the instructor closed it), removes the defaults any login of the class
gave itself (ALTER ROLE ... SET, saying each), ends every few seconds the session of a
workstation's or trainee's login that holds up another or keeps a transaction open, and of a
login revoked (trainer.classes.server.sessions), holds the server's log to a bound
(`Postgres.keep_log`), gives
the class the bundled exam forms (so exams with no sitting start at them), prints
the addresses to join with, and runs until Ctrl+C, SIGTERM or SIGHUP (its window closed), when it
stops PostgreSQL cleanly. Every problem is one line naming it (ClassServerError), and PostgreSQL is
stopped again if the start went wrong after it was running.

PostgreSQL runs on its own, so a command killed outright (SIGKILL, a crash) leaves it running: the
command keeps its process id in DIR/class-server.pid while it runs, and the next start in DIR,
finding PostgreSQL running and that process gone, stops it and starts again.
`dealer-trainer class-server --stop DIR` (`stop_server`, in trainer.classes.server.stopping,
which loads none of the server's code) stops the class server in DIR from
anywhere, on every OS alike: it leaves a request in DIR (STOP_FILE), which the running command
looks for every STOP_LOOK seconds (a file's presence, asked of the OS) and stops the server as
Ctrl+C would; when that command is gone, or does not stop in time, PostgreSQL is stopped here.
No signal is sent: Windows has none a console program can catch from another window (os.kill
there ends the process outright, leaving PostgreSQL running).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import psycopg

from trainer.classes.errors import ClassServerError
from trainer.classes.server.ledger import give_form
from trainer.classes.server.logins import CLASS_LOGINS, add_login, kept_passwords, reset_defaults
from trainer.classes.server.postgres import Postgres
from trainer.classes.server.sessions import HELD, Ended, end_holders, ended_now, look, reset_role_defaults
from trainer.classes.server.stopping import PID_FILE, STOP_FILE, command_pid
from trainer.classes.server.tables import DATABASE, install, shared_login_closed

LOGINS_FILE = "logins.json"
GivenForm = tuple[str, str, str, int]  # a form given to the class: uid, digest, name, attempts allowed
CHECK_EVERY = 2.0  # seconds between looks at whether PostgreSQL still runs
#: seconds between looks for --stop's request (STOP_FILE): --stop returns within about that long
STOP_LOOK = 0.1
SHARED = "workstation"  # the login every workstation not enrolled shares


def passwords(folder: Path) -> dict[str, str]:
    """The logins' passwords: kept from the first start, so addresses given out stay good."""
    return kept_passwords(folder / LOGINS_FILE, list(CLASS_LOGINS))


def shown_host(host: str) -> str:
    """The host workstations use: the machine's name when listening on every address."""
    return socket.gethostname() if host in ("0.0.0.0", "::", "*") else host


def prepare(server: Postgres, forms: Sequence[GivenForm] = (),
            say: Callable[[str], None] = print) -> dict[str, str]:
    """The class's database and logins on a running server, and the `forms` given to the class
    (the bundled exams: uid, digest, name, attempts allowed); each login's address (but the
    shared workstation login's while the instructor has it closed, s013: the start keeps it
    closed, and says so). A bundled
    form the class was given in another version (the same id, other content) is said, and the
    class keeps the one it had: a given form never changes, and the server still starts."""
    secrets = passwords(server.folder)
    try:
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            # this PostgreSQL is the class's alone: no login but the superuser enters the
            # cluster's own databases (a trainee's login enters its class's database only)
            admin.execute("REVOKE CONNECT ON DATABASE postgres, template1 FROM PUBLIC")
            install(admin)
            for name, group in CLASS_LOGINS.items():
                add_login(admin, name, group, secrets[name])
            for line in reset_defaults(admin):
                say(f"Removed a default a login of the class had given itself: {line}.")
        with psycopg.connect(server.admin_dsn(DATABASE), autocommit=True) as conn:
            for form in forms:
                try:
                    give_form(conn, *form, given_by="class server")
                except ClassServerError as e:
                    say(f"Not given to the class: {e}; the class keeps the form it was given.")
            closed = shared_login_closed(conn)
    except psycopg.Error as e:
        raise ClassServerError(f"could not set up the class database: {str(e).splitlines()[0]}") from None
    host = shown_host(server.host)
    host = f"[{host}]" if ":" in host else host
    return {name: f"postgresql://{name}:{secrets[name]}@{host}:{server.port}/{DATABASE}"
            for name in CLASS_LOGINS if not (closed and name == SHARED)}


def serve(folder: str, host: str, port: int, *, say: Callable[[str], None] = print,
          stop: threading.Event | None = None, forms: Sequence[GivenForm] = ()) -> int:
    """Run the class server until `stop` is set (by SIGINT, SIGTERM or SIGHUP when not given),
    the `forms` given to the class."""
    stop = stop or stop_on_signals()
    server = Postgres(folder, host=host, port=port)
    server.check_folder()
    _left_running(server, say)
    server.start()
    pid_file, asked = server.folder / PID_FILE, server.folder / STOP_FILE
    try:
        asked.unlink(missing_ok=True)  # a request left by a --stop that found the command gone
        pid_file.write_text(f"{os.getpid()}\n", encoding="ascii")
        addresses = prepare(server, forms, say)
        say(f"Class server running on {host}:{port}, its data in {server.folder}.")
        if SHARED in addresses:
            say("Workstations join the class with:")
            say(f"  dealer-trainer --class {addresses[SHARED]}")
        else:
            say("The shared workstation login is closed in this class: only the workstations enrolled "
                "join, each with the address it was given when enrolled (dealer-trainer "
                "class-workstation list names them; open-shared opens the shared login again).")
        say(f"The instructor's address: {addresses['instructor']}")
        say(f"The supervisor's address: {addresses['supervisor']}")
        say("Stop the server with Ctrl+C (or: dealer-trainer class-server --stop "
            f"{_shown(server.folder)}).")
        checked = time.monotonic()
        while not stop.wait(STOP_LOOK):
            if asked.exists():  # class-server --stop, from another window
                break
            if time.monotonic() - checked < CHECK_EVERY:
                continue
            checked = time.monotonic()
            if not server.running:
                raise ClassServerError(f"PostgreSQL stopped: {server.last_log_line()}")
            server.keep_log()
            for line in look(lambda: psycopg.connect(server.admin_dsn(), autocommit=True)):
                say(line)
    finally:
        server.stop()
        pid_file.unlink(missing_ok=True)
        asked.unlink(missing_ok=True)
    say("Class server stopped.")
    return 0


def sessions_ended(server: Postgres) -> list[tuple[Ended, str]]:
    """The sessions the class server ends at each look (trainer.classes.server.sessions), each
    with why; none when the server cannot be asked just now (the next look asks again)."""
    try:
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            return ended_now(admin)
    except psycopg.Error:
        return []


def defaults_reset(server: Postgres) -> list[Ended]:
    """The defaults workstations' and trainees' logins set for their own sessions, reset
    (trainer.classes.server.sessions); none when the server cannot be asked just now."""
    try:
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            return reset_role_defaults(admin)
    except psycopg.Error:
        return []


def holders_ended(server: Postgres, held: float = HELD) -> list[Ended]:
    """The sessions that held up another for `held` seconds, ended (trainer.classes.server.
    sessions); none when the server cannot be asked just now (the next look asks again)."""
    try:
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            return end_holders(admin, held)
    except psycopg.Error:
        return []


def _left_running(server: Postgres, say: Callable[[str], None]) -> None:
    """A PostgreSQL left running in the folder by a command that is gone is stopped, so that this
    start goes on; one whose command still runs is refused, saying how to stop it."""
    if not server.running:
        return
    command = command_pid(server)
    if command is not None:
        raise ClassServerError(f"a class server is already running in {server.folder} (process {command}): "
                               f"stop it with Ctrl+C there, or: dealer-trainer class-server --stop "
                               f"{_shown(server.folder)}")
    say(f"A class server was left running in {server.folder} after its command ended; stopping it first.")
    server.stop()


def _shown(folder: Path) -> str:
    """The folder as this OS's command line takes it back (cmd.exe's double quotes on Windows)."""
    if sys.platform == "win32":
        import subprocess

        return subprocess.list2cmdline([str(folder)])
    import shlex

    return shlex.quote(str(folder))


def stop_on_signals() -> threading.Event:
    """An event set by Ctrl+C, SIGTERM, SIGHUP (the terminal it ran in was closed) or SIGBREAK
    (Ctrl+Break in its Windows console). The handler sets it from a thread of its own: a handler
    runs on the main thread between two of its steps, and where those were inside the event's own
    wait (which holds the event's lock as it looks at the flag, before and after each wait of
    STOP_LOOK seconds), setting it there waited for that lock for ever: the command never stopped,
    and none of the signals it stops on ended it."""
    stop = threading.Event()

    def handler(*_) -> None:
        with contextlib.suppress(RuntimeError):  # the interpreter is ending (no thread starts
            # then): nothing waits on the event any more
            threading.Thread(target=stop.set, name="stopping", daemon=True).start()

    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), handler)
    return stop
