"""`dealer-trainer class-server --data DIR [--host H] [--port N]`: a class server in one command.

Starts PostgreSQL (trainer.classes.server.postgres) with its data in DIR, makes or brings up to
date the class's database, roles and logins (`instructor`, `supervisor`, `workstation`, their
passwords kept in DIR/logins.json, readable by its owner only, the same on every start), gives
the class the bundled exam forms (so exams with no sitting start at them), prints
the addresses to join with, and runs until Ctrl+C or SIGTERM, when it stops PostgreSQL cleanly.
Every problem is one line naming it (ClassServerError), and PostgreSQL is stopped again if the
start went wrong after it was running.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import psycopg

from trainer.classes.errors import ClassServerError
from trainer.classes.server.ledger import give_form
from trainer.classes.server.logins import CLASS_LOGINS, add_login, new_password
from trainer.classes.server.postgres import Postgres
from trainer.classes.server.tables import DATABASE, install

LOGINS_FILE = "logins.json"
GivenForm = tuple[str, str, str, int]  # a form given to the class: uid, digest, name, attempts allowed
CHECK_EVERY = 2.0  # seconds between looks at whether PostgreSQL still runs


def passwords(folder: Path) -> dict[str, str]:
    """The logins' passwords: kept from the first start, so addresses given out stay good."""
    path = folder / LOGINS_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        kept = {}
    except (OSError, ValueError) as e:
        raise ClassServerError(f"cannot read the class's logins in {path}: {e}") from None
    if not isinstance(kept, dict) or not all(isinstance(v, str) for v in kept.values()):
        raise ClassServerError(f"{path} is not a class's logins file")
    missing = {name: new_password() for name in CLASS_LOGINS if name not in kept}
    if missing:
        kept.update(missing)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(kept, f, indent=2)
    return kept


def shown_host(host: str) -> str:
    """The host workstations use: the machine's name when listening on every address."""
    return socket.gethostname() if host in ("0.0.0.0", "::", "*") else host


def prepare(server: Postgres, forms: Sequence[GivenForm] = (),
            say: Callable[[str], None] = print) -> dict[str, str]:
    """The class's database and logins on a running server, and the `forms` given to the class
    (the bundled exams: uid, digest, name, attempts allowed); each login's address. A bundled
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
        with psycopg.connect(server.admin_dsn(DATABASE), autocommit=True) as conn:
            for form in forms:
                try:
                    give_form(conn, *form, given_by="class server")
                except ClassServerError as e:
                    say(f"Not given to the class: {e}; the class keeps the form it was given.")
    except psycopg.Error as e:
        raise ClassServerError(f"could not set up the class database: {str(e).splitlines()[0]}") from None
    host = shown_host(server.host)
    host = f"[{host}]" if ":" in host else host
    return {name: f"postgresql://{name}:{secrets[name]}@{host}:{server.port}/{DATABASE}"
            for name in CLASS_LOGINS}


def serve(folder: str, host: str, port: int, *, say: Callable[[str], None] = print,
          stop: threading.Event | None = None, forms: Sequence[GivenForm] = ()) -> int:
    """Run the class server until `stop` is set (by SIGINT or SIGTERM when not given), the
    `forms` given to the class."""
    stop = stop or _stop_on_signals()
    server = Postgres(folder, host=host, port=port)
    server.start()
    try:
        addresses = prepare(server, forms, say)
        say(f"Class server running on {host}:{port}, its data in {server.folder}.")
        say("Workstations join the class with:")
        say(f"  dealer-trainer --class {addresses['workstation']}")
        say(f"The instructor's address: {addresses['instructor']}")
        say(f"The supervisor's address: {addresses['supervisor']}")
        say("Stop the server with Ctrl+C.")
        while not stop.wait(CHECK_EVERY):
            if not server.running:
                raise ClassServerError(f"PostgreSQL stopped: {server.last_log_line()}")
    finally:
        server.stop()
    say("Class server stopped.")
    return 0


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return stop
