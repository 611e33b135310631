"""Sending a workstation's waiting attempts to its class server, in the background.

`push_batch` sends the oldest waiting attempts in one server transaction (push_attempts, see
trainer.classes.server.tables), then marks them sent in the file; `Pusher` does it in a thread
until nothing waits, then waits for `wake()` (an attempt was recorded) or its poll interval.

A lost connection, a server restart or a pulled cable is no error for the app: the attempts stay
waiting in the file, `status` says how many and why, and the pusher tries again after a pause
that doubles from `backoff[0]` up to `backoff[1]` seconds. TCP keepalives and a user timeout make
a pulled cable fail a push within seconds instead of hanging on the dead connection.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from urllib.parse import parse_qs, urlsplit

import psycopg
from psycopg.types.json import Jsonb

from trainer.classes.errors import ClassServerError
from trainer.classes.server import ledger
from trainer.classes.server.ledger import class_uid
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.queue import Queue

BATCH = 200  # attempts per server transaction
POLL = 2.0  # seconds between looks at the file when nothing was recorded meanwhile
BACKOFF = (0.5, 30.0)  # seconds before the first retry, and the longest pause
#: connection settings: fail fast on a server or a cable that is gone
CONNECT = {"connect_timeout": 5, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
           "keepalives_count": 3, "tcp_user_timeout": 10_000, "application_name": "dealer-trainer"}
#: seconds a statement waits for a lock before it gives up and says so (nothing a login can
#: hold makes the app's statements wait; this bounds what another start of the same exam can)
LOCK_WAIT = 10
#: the session settings the app's statements rely on, sent with every connection (libpq's
#: `options`, which win over a role's defaults): PostgreSQL lets every login set defaults for
#: itself (ALTER ROLE ... SET), so the shared workstation login could otherwise make every
#: workstation's sessions read-only, time out at once, find no function (an empty search_path)
#: or refuse every read under row-level security (issue 22)
SESSION = {
    "default_transaction_read_only": "off",  # pushes and exam starts write
    "default_transaction_isolation": "read committed",  # the class's functions count on it
    "default_transaction_deferrable": "off",
    "statement_timeout": "0",
    "lock_timeout": f"{LOCK_WAIT}s",
    "idle_in_transaction_session_timeout": "0",
    "idle_session_timeout": "0",  # the pusher keeps its connection between pushes
    "search_path": "public",  # the class's tables and functions, named without their schema
    "row_security": "on",  # a trainee's reads filtered by the policies, not refused
    "role": "none",  # the login itself: its own rights and, for a trainee, its own rows
    "client_encoding": "UTF8",  # names in every script
    "standard_conforming_strings": "on",
    "synchronous_commit": "on",  # an attempt marked sent is on the server's disk
    "exit_on_error": "off",
    "transform_null_equals": "off",
    "DateStyle": "ISO",
    "IntervalStyle": "postgres",
    "extra_float_digits": "1",  # times read back exactly
}


def session_options(given: str | None = None) -> str:
    """libpq's `options` for a connection: `-c name=value` for each of SESSION, after the
    address's own `options` (`given`), so that ours win."""
    ours = " ".join(f"-c {name}={_escaped(value)}" for name, value in SESSION.items())
    return f"{given} {ours}" if given else ours


def _escaped(value: str) -> str:
    """A value as libpq's `options` reads it: a backslash and a space escaped with a backslash."""
    return value.replace("\\", "\\\\").replace(" ", "\\ ")


def connect(address: ClassAddress) -> psycopg.Connection:
    """A connection to the class (its password in the address, or in its password file, which
    libpq reads itself: trainer.classes.workstation.passfile), its session set as the app's
    statements need it (SESSION), whatever defaults its login gave itself. The password is
    proven by SCRAM only, never sent as such: a server (or whatever answers at its address)
    asking for it in clear or as MD5 is refused before anything is sent. An address may name
    another method itself (`?require_auth=md5`, for a casino's server set up so)."""
    query = parse_qs(urlsplit(address.url).query)
    more = {"passfile": address.passfile} if address.passfile is not None else {}
    if "require_auth" not in query:
        more["require_auth"] = "scram-sha-256"
    given = query.get("options")
    options = session_options(given[-1] if given else None)
    return psycopg.connect(address.url, autocommit=True, options=options, **CONNECT, **more)


def password_refused(e: BaseException) -> bool:
    """The server was reached and refused the password, or asked for one the address and its
    password file do not have (not: "cannot be reached")."""
    text = str(e)
    return (getattr(e, "sqlstate", None) == "28P01" or "password authentication failed" in text
            or "no password supplied" in text)


def push_batch(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> int:
    """Send the oldest `size` waiting attempts in one transaction; how many were sent (0: none
    waits). They are marked sent only once the server has committed them."""
    ids, batch = queue.batch(class_id, size)
    if not ids:
        return 0
    with conn.transaction():
        conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),))
    queue.mark_sent(class_id, ids)
    return len(ids)


def push_exam_steps(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> int:
    """Send the exams' waiting steps (answers and ends of sittings, trainer.classes.server.ledger
    `sitting_step`), oldest first, each sitting's in order, each in a transaction of its own;
    how many were sent. A step the server refuses (its reply, or a refusal of the step itself)
    is sent: the reply is kept in the file and it is not sent again. A connection lost stops
    here (psycopg.Error), and what was not answered waits."""
    sent = 0
    with queue.sending_steps:
        while steps := queue.exam_steps(class_id, size):
            for s in steps:
                try:
                    reply = ledger.sitting_step(conn, s["nonce"], s["step"], bytes.fromhex(s["link"]),
                                                position=s["position"], log=s["log"], ending=s["ending"])
                except ClassServerError as e:
                    reply = f"refused: {e}"
                queue.mark_step(s["result_id"], s["step"], reply)
                sent += 1
    return sent


def send_waiting(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> int:
    """Send everything that waits for the class: the exams' steps first, then the attempts; how
    many of both."""
    sent = push_exam_steps(conn, queue, class_id, size)
    while n := push_batch(conn, queue, class_id, size):
        sent += n
    return sent


def push_trainees(conn: psycopg.Connection, queue: Queue) -> None:
    """Send the file's trainees, so that the class lists those who have not started too (a
    trainee's own login sends only with their attempts: it may not speak for the others)."""
    if conn.execute("SELECT pg_has_role('class_trainee', 'MEMBER')").fetchone()[0]:
        return
    with conn.transaction():
        conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": queue.trainees(), "attempts": []}),))


def reason(e: BaseException) -> str:
    """One line saying why a push failed, without the driver's decoration."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    for noise in ("connection failed: ",):
        text = text.replace(noise, "")
    return text


class Pusher:
    """Pushes a progress file's waiting attempts to a class in a background thread."""

    def __init__(self, path: str, address: ClassAddress, *, batch: int = BATCH, poll: float = POLL,
                 backoff: tuple[float, float] = BACKOFF):
        self.address, self.batch, self.poll, self.backoff = address, batch, poll, backoff
        self.queue = Queue(path)
        self.class_uid: str | None = self.queue.class_of(address.shown)
        self.problem: str | None = None  # why the last try failed; None once a push went through
        self.refused = False  # the last try failed because the server refused the password
        self.sent = 0  # attempts sent by this pusher
        self.failures = 0  # tries that failed since the last that went through
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection | None = None
        # how many attempts wait, counted on the pusher's thread after each try (counting reads
        # the whole file: 160 ms at 1,000,000 attempts, too long for the status bar's every second)
        self._waiting: int | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="class-pusher", daemon=True)
        self._thread.start()

    def stop(self, timeout: float | None = 15.0) -> None:
        """Stop pushing (what waits stays in the file; `start()` goes on)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def close(self) -> None:
        """Stop, and let go of the progress file."""
        self.stop()
        self.queue.close()

    def wake(self) -> None:
        """An attempt was recorded: one more waits, and the thread pushes now (or, while the
        server cannot be reached, tries again now) rather than at the next poll."""
        if self._waiting is not None:
            self._waiting += 1
        self._wake.set()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def connected(self) -> bool:
        """The thread holds a connection to the class now (a moment's view, for the status bar)."""
        conn = self._conn
        return conn is not None and not conn.closed

    def waiting(self) -> int:
        """Attempts waiting to be sent, as last counted (the file is read on the first call only;
        after that the pusher's thread counts them after each try)."""
        if self._waiting is None:
            self._count()
        return self._waiting

    def _count(self) -> None:
        self._waiting = self.queue.waiting(self.class_uid) + self.queue.steps_waiting(self.class_uid)

    @property
    def status(self) -> str:
        n = self.waiting()
        if n == 0 and self.class_uid is not None:
            return "All results sent to the class."
        text = f"{n} result{'s' if n != 1 else ''} waiting to be sent"
        if self.problem:
            return f"{text}: {self.problem}; trying again."
        return text + "."

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        pause = self.backoff[0]
        while not self._stop.is_set():
            try:
                if self._push_all():
                    pause = self.backoff[0]
                    self._count()
                    self._wake.wait(self.poll)
                    self._wake.clear()
            except (psycopg.Error, sqlite3.Error, OSError) as e:
                self._disconnect()
                with contextlib.suppress(sqlite3.Error):  # counted before the problem shows, so
                    self._count()  # a status that names the problem gives the file's own count
                self.refused = password_refused(e)
                self.problem, self.failures = reason(e), self.failures + 1
                self._wake.wait(pause)  # stop() and a new attempt wake it too
                self._wake.clear()
                pause = min(pause * 2, self.backoff[1])
        self._disconnect()

    def _push_all(self) -> bool:
        """Push until nothing waits (or stop() was called); True when everything was sent."""
        if self._conn is None or self._conn.closed:
            self._conn = connect(self.address)
            self.class_uid = class_uid(self._conn)
            self.queue.remember(self.class_uid, self.address.shown)
            push_trainees(self._conn, self.queue)
        while not self._stop.is_set():
            n = push_exam_steps(self._conn, self.queue, self.class_uid, self.batch)
            n += push_batch(self._conn, self.queue, self.class_uid, self.batch)
            self.sent += n
            if self._waiting is not None:
                self._waiting = max(0, self._waiting - n)
            self.problem, self.failures, self.refused = None, 0, False
            if n == 0:
                return True
        return False

    def send(self, conn: psycopg.Connection) -> int:
        """Send what waits now on `conn`, a connection of the caller's (send_waiting)."""
        class_id = class_uid(conn)
        self.queue.remember(class_id, self.address.shown)
        return send_waiting(conn, self.queue, class_id, self.batch)

    def _disconnect(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None
