"""Sending a workstation's waiting attempts to its class server, in the background.

`push_batch` sends the oldest waiting attempts in one server transaction (push_attempts, see
trainer.classes.server.tables), then marks them sent in the file; `Pusher` does it in a thread
until nothing waits, then waits for `wake()` (an attempt was recorded) or its poll interval.

A workstation holds no connection to the class server while it has nothing to send: the pusher
connects when an attempt (or an exam's step) waits in the file, sends, and closes the connection
once nothing more has come for `idle` seconds; it then looks at the file every `poll` seconds
without connecting, and `wake()` connects at once. A server's connections (a default PostgreSQL
has 100) are then shared by the workstations in turn rather than each held for good, so that a
class of 200 fits one: a workstation that finds none free (SQLSTATE 53300) tries again after a
pause, as after any failure, and nothing is lost. What each other caller holds: an exam's steps
go on a connection of their own that is dropped after `idle` seconds without a step too
(trainer.classes.workstation.connection), every other call of the ledger makes its own and closes
it, and the instructor's live Class tab holds one for good, its LISTEN for the class's new
attempts (classview.follow), with the reads each on a connection of their own.

A lost connection, a server restart or a pulled cable is no error for the app: the attempts stay
waiting in the file, `status` says how many and why, and the pusher tries again after a pause
that doubles from `backoff[0]` up to `backoff[1]` seconds, each drawn at random between half and
all of it (`pauses`), so that a class's workstations do not all come back in the same instant;
the cap is low, so that a server back after an outage has every workstation's results within a
few seconds. TCP keepalives and a user timeout make a pulled cable fail a push within seconds
instead of hanging on the dead connection.

A server that is there and does not answer (its processes stopped, a machine frozen, a socket that
accepts and never replies) keeps the TCP connection alive: its kernel answers the keepalives and
takes what is sent, so neither of those notices, and `statement_timeout` is the server's own. The
pusher's connection therefore bounds every wait for an answer itself (`Watch`): while idle it asks
the server for a word every `heartbeat` seconds (SELECT 1); a wait that lasts `answer_within`
seconds makes `answering` False (the status says the server is not answering, and it is not
"connected"); one that lasts `give_up` seconds cuts the connection, and the pusher connects again
as after any loss (`connect_within` bounds that too). The first answer makes it "connected" again.
From the server's last answer to the status saying so takes at most POLL + HEARTBEAT +
ANSWER_WITHIN seconds, and the status bar reads it every second (ui.classroom.membership).

Given the app's Store of the file, the pusher keeps its full check's verdict (Queue, "The file's
full check"): it sends nothing while the check runs, and nothing more from a file found damaged,
whose status then says so.

A server that answers and refuses a row (what the row holds: SQLSTATE classes 22, 23 and 54,
`refuses_a_row`; not the login, the connection or the server's state) refuses the whole batch it
is in: the batch is halved, and each half sent again, until every refused attempt is alone. Each
is set aside in the file with the server's reason (Queue.set_aside) and the others are sent: one
refused attempt never stops the queue, and `status` says which was refused and why, apart from
"cannot be reached".

What the server refused because a trainee's own login claimed the id (CLAIMED) is sent again by
itself once a push of that id is taken (the instructor settled the claim the row's): the attempts
and supervised rounds of the id set aside for the claim go in the same pass (resend_claimed).
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg

from trainer.classes.errors import ClassServerError
from trainer.classes.server import ledger
from trainer.classes.server.failures import (
    ServerTooOldError,
    check_version,
    no_room,
    password_refused,
    reason,
    said,
)
from trainer.classes.server.ledger import class_uid
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.queue import Queue
from trainer.progress.errors import DamagedDatabaseError

BATCH = 200  # attempts per server transaction
POLL = 2.0  # seconds between looks at the file when nothing was recorded meanwhile
BACKOFF = (0.5, 4.0)  # seconds before the first retry, and the longest pause (before jitter)
#: seconds without anything to send before the pusher lets its connection go
IDLE = 5.0
#: seconds connecting may take before it fails as "no answer in time" (libpq's connect_timeout,
#: whole seconds, 2 at least): a server that accepts and never answers holds a connect no longer
CONNECT_WITHIN = 5
#: connection settings: fail fast on a server or a cable that is gone
CONNECT = {"connect_timeout": CONNECT_WITHIN, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
           "keepalives_count": 3, "tcp_user_timeout": 10_000, "application_name": "dealer-trainer"}
#: seconds a statement waits for a lock before it gives up and says so (nothing a login can
#: hold makes the app's statements wait; this bounds what another start of the same exam can)
LOCK_WAIT = 10
HEARTBEAT = 5.0  # seconds without a word from the server before the idle pusher asks for one
ANSWER_WITHIN = 5.0  # seconds a wait for the server's answer lasts before it is "not answering"
#: seconds a wait lasts before the connection is cut and made again (a statement may wait
#: LOCK_WAIT for a lock: the server is busy then, not gone)
GIVE_UP = LOCK_WAIT + ANSWER_WITHIN
#: the session settings the app's statements rely on, sent with every connection (libpq's
#: `options`, which win over a role's defaults): PostgreSQL lets every login set defaults for
#: itself (ALTER ROLE ... SET), so the shared workstation login could otherwise make every
#: workstation's sessions read-only, time out at once, find no function (an empty search_path)
#: or refuse every read under row-level security
SESSION = {
    "default_transaction_read_only": "off",  # pushes and exam starts write
    "default_transaction_isolation": "read committed",  # the class's functions count on it
    "default_transaction_deferrable": "off",
    "statement_timeout": "0",
    "lock_timeout": f"{LOCK_WAIT}s",
    "idle_in_transaction_session_timeout": "0",
    "idle_session_timeout": "0",  # the pusher keeps its connection between pushes, for IDLE s
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
    "TimeZone": "UTC",  # times the server prints (none the app reads: its times are numbers)
    "client_min_messages": "notice",  # not every step of the server's work sent to the app
}


def session_options(given: str | None = None) -> str:
    """libpq's `options` for a connection: `-c name=value` for each of SESSION, after the
    address's own `options` (`given`), so that ours win."""
    ours = " ".join(f"-c {name}={_escaped(value)}" for name, value in SESSION.items())
    return f"{given} {ours}" if given else ours


def _escaped(value: str) -> str:
    """A value as libpq's `options` reads it: a backslash and a space escaped with a backslash."""
    return value.replace("\\", "\\\\").replace(" ", "\\ ")


def connect(address: ClassAddress, watch: Watch | None = None) -> psycopg.Connection:
    """A connection to the class (its password in the address, or in its password file, which
    libpq reads itself: trainer.classes.workstation.passfile), its session set as the app's
    statements need it (SESSION), whatever defaults its login gave itself. The password is
    proven by SCRAM only, never sent as such: a server (or whatever answers at its address)
    asking for it in clear or as MD5 is refused before anything is sent. An address may name
    another method itself (`?require_auth=md5`, for a casino's server set up so). With `watch`,
    every wait for the server's answer on it is bounded (Watch), and connecting by the watch's
    `connect_within`."""
    query = parse_qs(urlsplit(address.url).query)
    more = {"passfile": address.passfile} if address.passfile is not None else {}
    if "require_auth" not in query:
        more["require_auth"] = "scram-sha-256"
    given = query.get("options")
    options = session_options(given[-1] if given else None)
    kind = psycopg.Connection if watch is None else WatchedConnection
    settings = CONNECT if watch is None else {**CONNECT, "connect_timeout": math.ceil(watch.connect_within)}
    conn = kind.connect(address.url, autocommit=True, options=options, **settings, **more)
    try:
        check_version(conn)
    except ServerTooOldError:
        conn.close()
        raise
    if isinstance(conn, WatchedConnection):
        conn.watch = watch
    return conn


class Watch:
    """How long the wait for the server's answer under way has lasted (`silent_for`), and a limit
    to it: a wait that lasts `give_up` seconds has its connection's socket shut down, so that the
    wait ends with an error (`cut`) and the connection is made again. Nothing else ends a wait
    for a server that is there and silent: libpq waits on the socket for as long as it stays
    open, and a cancel request needs the server to answer too. Connecting is bounded apart, by
    `connect_within` seconds (libpq's connect_timeout: whole seconds, 2 at least)."""

    def __init__(self, give_up: float, connect_within: float = CONNECT_WITHIN):
        self.give_up = give_up
        self.connect_within = connect_within
        self.cut = False  # the last wait lasted give_up seconds: its connection was cut
        self._lock = threading.Lock()
        self._since: float | None = None  # when the wait under way began
        self._wait: object | None = None  # the wait under way (the timer cuts only that one)

    def silent_for(self) -> float:
        """Seconds the wait for the server under way has lasted (0 when none is under way)."""
        since = self._since
        return 0.0 if since is None else time.monotonic() - since

    @contextlib.contextmanager
    def waiting(self, conn: psycopg.Connection) -> Iterator[None]:
        wait = object()
        with self._lock:
            self._since, self._wait = time.monotonic(), wait
        timer = threading.Timer(self.give_up, self._cut, (conn, wait))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with self._lock:
                self._since = self._wait = None

    def _cut(self, conn: psycopg.Connection, wait: object) -> None:
        with self._lock:  # the wait is still under way, so the connection (and its socket) is open
            if self._wait is not wait:
                return
            self.cut = True
            with contextlib.suppress(OSError, ValueError, psycopg.Error):
                shut = socket.fromfd(conn.fileno(), socket.AF_INET, socket.SOCK_STREAM)  # a copy
                try:
                    shut.shutdown(socket.SHUT_RDWR)  # ends the wait: the socket is shut for all copies
                finally:
                    shut.close()


class WatchedConnection(psycopg.Connection):
    """A connection whose every wait for the server (each statement, commit, fetch: psycopg
    waits for all of them in `wait`) is timed by its Watch."""

    watch: Watch | None = None

    def wait(self, *args, **kwargs):
        if self.watch is None:
            return super().wait(*args, **kwargs)
        with self.watch.waiting(self):
            return super().wait(*args, **kwargs)


#: the SQLSTATE classes of a refusal of what a row holds: data exception (22: a value the server
#: cannot read, out of range, a NUL), integrity constraint violation (23: a check, s010's among
#: them), program limit exceeded (54: a value too large to index)
ROW_REFUSALS = ("22", "23", "54")


def refuses_a_row(e: BaseException) -> bool:
    """The server answered and refused what the batch holds (not: the login, the connection or
    the server's state, which no row of the batch causes)."""
    return (getattr(e, "sqlstate", None) or "")[:2] in ROW_REFUSALS


def each_refused(send: Callable[[list], None], items: list) -> list[tuple[Any, str]]:
    """`send(items)` (one server transaction); when the server refuses a row, the items halved and
    each half sent again, until every refused one is alone: [(item, why)] of those refused, the
    others sent. A batch with one refused row of n takes about 2·log2(n) sends more."""
    try:
        send(items)
        return []
    except psycopg.Error as e:
        if not refuses_a_row(e):
            raise
        if len(items) == 1:
            return [(items[0], row_reason(e))]
    except UnsendableError as e:
        if len(items) == 1:
            return [(items[0], str(e))]
    half = len(items) // 2
    return each_refused(send, items[:half]) + each_refused(send, items[half:])


class UnsendableError(Exception):
    """A batch holds a value JSON cannot hold (bytes where a damaged file should hold text)."""


def push(conn: psycopg.Connection, batch: dict) -> None:
    """push_attempts(batch) in one server transaction; UnsendableError when the batch cannot even
    be written as JSON."""
    try:
        text = json.dumps(batch)
    except (TypeError, ValueError) as e:
        raise UnsendableError(f"this workstation cannot send it ({e})") from None
    with conn.transaction():
        conn.execute("SELECT push_attempts(%s::jsonb)", (text,))


def _sender(conn: psycopg.Connection, queue: Queue, class_id: str, batch: dict
            ) -> Callable[[list[tuple[int, dict]]], None]:
    """send(part): part's attempts ((id here, attempt) of `batch`) pushed with their trainees in
    one transaction, then marked sent in the file."""
    trainees = {t["uid"]: t for t in batch["trainees"]}

    def send(part: list[tuple[int, dict]]) -> None:
        attempts = [a for _, a in part]
        named = {a["trainee_uid"] for a in attempts}
        push(conn, {"trainees": [t for uid, t in trainees.items() if uid in named], "attempts": attempts})
        queue.mark_sent(class_id, [i for i, _ in part])

    return send


def push_batch(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> tuple[int, int]:
    """Send the oldest `size` waiting attempts in one transaction: (sent, refused); (0, 0) when
    none waits. Each is marked sent only once the server has committed it; an attempt the server
    refuses is found (each_refused) and set aside with the server's reason, the others sent; the
    rows of their trainee ids set aside for a claim are sent with them (resend_claimed) and
    counted sent."""
    ids, batch = queue.batch(class_id, size)
    if not ids:
        return 0, 0
    items = list(zip(ids, batch["attempts"], strict=True))
    refused = each_refused(_sender(conn, queue, class_id, batch), items)
    if refused:
        queue.set_aside(class_id, {i: refusal(a, why) for (i, a), why in refused})
    again = resend_claimed(conn, queue, class_id, items, refused)
    return len(ids) - len(refused) + again, len(refused)


#: the class server's words when it refuses a workstation's push of a trainee id that a trainee's
#: own login claims while the class holds it (s032, s036, s037, s039, s041, s043, s044): nothing is
#: sent under the id from a workstation's login until the instructor settles the claim the row's
CLAIMED = "a trainee's own login claims this trainee id as hers"


def resend_claimed(conn: psycopg.Connection, queue: Queue, class_id: str, pushed: list[tuple[int, dict]],
                   refused: list[tuple[tuple[int, dict], str]]) -> int:
    """Once the class takes a push of a trainee id again (`pushed`, less the `refused` of it:
    each_refused's), the rows of that id it set aside while a claim stood (their reason CLAIMED)
    are sent too, in the same pass: its attempts, then its supervised rounds; how many were sent.
    One refused again stays set aside with its first reason. Only a push of the id that the
    class takes sends them, so nothing is sent again while the claim stands; rows set aside for
    any other reason are left as they are."""
    out = {i for (i, _), _ in refused}
    uids = sorted({item["trainee_uid"] for i, item in pushed if i not in out})
    if not uids:
        return 0
    sent = 0
    ids, batch = queue.set_aside_for(class_id, CLAIMED, uids)
    if ids:
        sent += _sent(_sender(conn, queue, class_id, batch), ids, batch["attempts"])
    ids, rounds = _supervised().set_aside_for(queue, class_id, CLAIMED, uids)
    if ids:
        sent += _sent(_supervised().sender(conn, queue, class_id), ids, rounds)
    return sent


def _sent(send: Callable[[list], None], ids: list[int], items: list[dict]) -> int:
    """`ids`' `items` sent (each_refused): how many the server took; those it refused stay as
    they were in the file."""
    return len(ids) - len(each_refused(send, list(zip(ids, items, strict=True))))


def send_set_aside(conn: psycopg.Connection, queue: Queue, trainee_name: str) -> tuple[int, int]:
    """Send the attempts of the file's trainee `trainee_name` that the class set aside (refused:
    a trainee with a login of her own, whose practice at a shared or enrolled workstation its
    login may not send), on `conn`, her own login's connection: exactly those rows, marked sent
    once the server has them. (sent, refused again): one the server refuses stays set aside, with
    its first reason. Her login sends her own name's rows only (the server checks it)."""
    class_id = class_uid(conn)
    ids, batch = queue.set_aside_of(class_id, trainee_name)
    if not ids:
        return 0, 0
    sent = _sent(_sender(conn, queue, class_id, batch), ids, batch["attempts"])
    return sent, len(ids) - sent


def refusal(attempt: dict, why: str) -> str:
    """The server's reason for refusing an attempt, naming it: "attempt <uid>: why"."""
    why = why.removeprefix("refused ")
    if why.startswith(("attempt ", "trainee ")):
        return why
    return f"attempt {str(attempt.get('uid'))[:64]}: {why}"


def push_exam_steps(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> int:
    """Send the exams' waiting steps (answers and ends of sittings, trainer.classes.server.ledger
    `sitting_step`), oldest first, each sitting's in order, each in a transaction of its own;
    how many were sent. A step the server refuses (its reply, or a refusal of the step itself)
    is sent: the reply is kept in the file and it is not sent again. A connection lost, or a
    refusal for a passing reason that the server kept nothing of (failures.passing), stops here
    (psycopg.Error), and what was not answered waits, to be sent again."""
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
    many of both were sent (an attempt the class refused is set aside, and not counted)."""
    sent = push_exam_steps(conn, queue, class_id, size)
    while sum(n := push_batch(conn, queue, class_id, size)):
        sent += n[0]
    while sum(n := _supervised().push_rounds(conn, queue, class_id, size)):
        sent += n[0]
    return sent


def _supervised():
    """trainer.classes.workstation.supervised, which sends its rounds with this module's helpers."""
    from trainer.classes.workstation import supervised  # here: it imports this module
    return supervised


def push_trainees(conn: psycopg.Connection, queue: Queue) -> None:
    """Send the file's trainees, so that the class lists those who have not started too (a
    trainee's own login sends only with their attempts: it may not speak for the others). A
    trainee the server refuses is left out (their attempts are refused with the reason)."""
    if conn.execute("SELECT pg_has_role('class_trainee', 'MEMBER')").fetchone()[0]:
        return

    if trainees := queue.trainees():
        each_refused(lambda part: push(conn, {"trainees": part, "attempts": []}), trainees)


def pauses(backoff: tuple[float, float] = BACKOFF, rng: random.Random | None = None) -> Iterator[float]:
    """The pauses before each try again after a failure: doubling from `backoff[0]` up to
    `backoff[1]`, each drawn between half and all of that (jitter), so that workstations refused
    together (a full server, an outage's end) come back spread out, none later than the cap."""
    rng = rng or random.Random()
    step = backoff[0]
    while True:
        yield step * rng.uniform(0.5, 1.0)
        step = min(step * 2, backoff[1])


def not_reached(e: BaseException) -> bool:
    """The try failed for want of the server: no answer (no SQLSTATE), or the server's connection,
    resources or operator (classes 08, 53, 57: gone, out of connections, shutting down); a
    progress file that cannot be read is no server's fault either."""
    if isinstance(e, sqlite3.Error | OSError | DamagedDatabaseError):
        return False
    state = getattr(e, "sqlstate", None)
    return state is None or state[:2] in ("08", "53", "57")


def refused_line(refused: list[tuple[str, str]]) -> str:
    """"1 result refused by the class server: <why>" (of several, the last refused; "" when none
    was)."""
    if not refused:
        return ""
    n, (_, why) = len(refused), refused[0]
    if n == 1:
        return f"1 result refused by the class server: {why}"
    return f"{n} results refused by the class server, the last: {why}"


#: the server's words for a refusal, where they are a parser's (its detail then says more)
PLAIN = {"22P05": "a text of it holds a character no class server keeps (a NUL)"}


def row_reason(e: psycopg.Error) -> str:
    """Why the server refused a row: its message, and its detail when that is short (a check's
    detail is the whole row, which is not)."""
    if (plain := PLAIN.get(getattr(e, "sqlstate", None) or "")) is not None:
        return plain
    text = reason(e)
    detail = (getattr(e.diag, "message_detail", None) or "").strip()
    if detail and "\n" not in detail and len(detail) <= 120 and not detail.startswith("Failing row"):
        text += f" ({detail})"
    return text


#: why nothing is sent from a progress file its full check found damaged
DAMAGED = "the progress file is damaged, and nothing more is sent from it"


class Pusher:
    """Pushes a progress file's waiting attempts to a class in a background thread."""

    def __init__(self, path: str, address: ClassAddress, *, batch: int = BATCH, poll: float = POLL,
                 backoff: tuple[float, float] = BACKOFF, heartbeat: float = HEARTBEAT,
                 answer_within: float = ANSWER_WITHIN, give_up: float = GIVE_UP, idle: float = IDLE,
                 connect_within: float = CONNECT_WITHIN, store=None):
        """`store`: the app's Store of the file, whose full check decides whether the file may be
        written (Queue): nothing is sent while it runs, nor ever once it found the file damaged.
        `idle`: seconds with nothing to send before the connection is let go; `connect_within`:
        seconds a connect may take (Watch)."""
        self.address, self.batch, self.poll, self.backoff = address, batch, poll, backoff
        self.idle = idle
        self.resting = False  # everything was sent, and the connection let go until more waits
        self.connects = 0  # connections made (each a login on the server)
        self._trainees_sent = False  # the file's trainees sent on this pusher's first connection
        self.heartbeat, self.answer_within = heartbeat, answer_within
        self._watch = Watch(give_up, connect_within)
        self._answered = 0.0  # when the server last answered (time.monotonic())
        self._used = 0.0  # when the connection was made or last sent something
        self.silent = False  # the last try ended for want of an answer (cut, or connecting timed out)
        self.queue = Queue(path, store=store)
        self.class_uid: str | None = self.queue.class_of(address.shown)
        self.problem: str | None = None  # why the last try failed; None once a push went through
        self.refused = False  # the last try failed because the server refused the password
        # the last try failed for want of the server (not reached, gone, out of connections);
        # False: the server answered, and refused the push (a read-only server, a login's grants)
        self.unreachable = False
        self.no_room: str | None = None  # the last try found no connection free for the login: why
        self.sent = 0  # attempts sent by this pusher
        self.set_aside = 0  # attempts the class refused and this pusher set aside
        self.failures = 0  # tries that failed since the last that went through
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection | None = None
        # how many attempts wait, counted on the pusher's thread after each try (counting reads
        # the whole file: 160 ms at 1,000,000 attempts, too long for the status bar's every second)
        self._waiting: int | None = None
        self._refused: list[tuple[str, str]] | None = None  # (uid, why), newest first, as last read

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
        """In touch with the class (a moment's view, for the status bar): the thread holds a
        connection and the server answers on it, or it let the connection go with everything
        sent (`resting`) and has not failed since."""
        conn = self._conn
        held = conn is not None and not conn.closed
        return self.answering and (held or (self.resting and self.problem is None))

    @property
    def holding(self) -> bool:
        """The thread holds a connection to the server now."""
        conn = self._conn
        return conn is not None and not conn.closed

    @property
    def answering(self) -> bool:
        """False while the class server does not answer: a wait for its answer has lasted
        `answer_within` seconds, or the last try ended for want of one."""
        return not self.silent and self._watch.silent_for() < self.answer_within

    @property
    def not_answering(self) -> str | None:
        """Why the server counts as not answering, in one line (None while it answers)."""
        if self.silent:
            return self.problem
        if (waited := self._watch.silent_for()) >= self.answer_within:
            return f"no answer from the class server for {waited:.0f} s"
        return None

    def waiting(self) -> int:
        """Attempts waiting to be sent, as last counted (the file is read on the first call only;
        after that the pusher's thread counts them after each try)."""
        if self._waiting is None:
            self._count()
        return self._waiting

    def refused_attempts(self) -> list[tuple[str, str]]:
        """The attempts the class refused, set aside in the file: (uid, the server's reason),
        newest first, as last read (on the pusher's thread after each try)."""
        if self._refused is None:
            self._count()
        return self._refused or []

    def recount(self) -> None:
        """Count what waits and what was refused again (the file changed beside the pusher)."""
        with contextlib.suppress(sqlite3.Error):
            self._count()

    def _count(self) -> None:
        self._waiting = (self.queue.waiting(self.class_uid) + self.queue.steps_waiting(self.class_uid)
                         + _supervised().waiting(self.queue, self.class_uid))
        self._refused = self.queue.refused(self.class_uid) if self.class_uid is not None else []

    @property
    def status(self) -> str:
        n = self.waiting()
        refused = refused_line(self.refused_attempts())
        problem = self.problem or self.not_answering
        if n == 0 and self.class_uid is not None and not problem and not self.file_damaged:
            return f"{refused}; the others are sent." if refused else "All results sent to the class."
        text = f"{n} result{'s' if n != 1 else ''} waiting to be sent"
        if self.file_damaged:
            text = f"{text}: {DAMAGED}."
        elif problem:
            text = f"{text}: {problem}; trying again."
        else:
            text += "."
        return f"{text} {refused}." if refused else text

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        waits = pauses(self.backoff)
        while not self._stop.is_set():
            try:
                if self._push_all():
                    waits = pauses(self.backoff)
                    self._count()
                    self._wake.wait(min(self.poll, self.heartbeat))
                    self._wake.clear()
            except (psycopg.Error, sqlite3.Error, OSError, DamagedDatabaseError) as e:
                self._disconnect()
                with contextlib.suppress(sqlite3.Error):  # counted before the problem shows, so
                    self._count()  # a status that names the problem gives the file's own count
                self.refused = password_refused(e)
                self.unreachable = not self.refused and not_reached(e)
                cut, self._watch.cut = self._watch.cut, False
                self.silent = cut or isinstance(e, psycopg.errors.ConnectionTimeout)
                self.problem = (f"no answer from the class server in {self._watch.give_up:g} s" if cut
                                else said(e, self.address.user, self.address.database)
                                if self.unreachable or self.refused else reason(e))
                self.failures += 1
                self.no_room = no_room(e)
                self.resting = False
                self._wake.wait(next(waits))  # stop() and a new attempt wake it too
                self._wake.clear()
        self._disconnect()

    @property
    def file_damaged(self) -> bool:
        """The progress file was found damaged: nothing more is sent from it (Queue)."""
        return self.queue.damaged

    def _push_all(self) -> bool:
        """Push until nothing waits (or stop() was called); True when everything was sent, or
        nothing may be (the file is being checked, or was found damaged: Queue.may_write)."""
        if not self.queue.may_write():
            if self.queue.damaged:
                self._disconnect()
            return True
        if self._conn is None or self._conn.closed:
            known = self.class_uid
            if self.resting and known is not None and not self.queue.anything_waiting(known):
                return True  # nothing to send: no connection is made
            self._conn = connect(self.address, self._watch)
            self.connects += 1
            self.class_uid = class_uid(self._conn)
            self.queue.remember(self.class_uid, self.address.shown)
            if not self._trainees_sent:
                push_trainees(self._conn, self.queue)
                self._trainees_sent = True
            self._answered = self._used = time.monotonic()
            self.resting = False
        while not self._stop.is_set():
            sent = push_exam_steps(self._conn, self.queue, self.class_uid, self.batch)
            attempts, refused = push_batch(self._conn, self.queue, self.class_uid, self.batch)
            if not attempts + refused:  # the attempts first; the supervised rounds once none waits
                attempts, refused = _supervised().push_rounds(self._conn, self.queue, self.class_uid,
                                                              self.batch)
            sent += attempts
            self.sent += sent
            self.set_aside += refused
            if self._waiting is not None:
                self._waiting = max(0, self._waiting - sent - refused)
            if refused:
                self._refused = self.queue.refused(self.class_uid)
            if sent + refused:
                self._answered = self._used = time.monotonic()
            elif time.monotonic() - self._used >= self.idle:
                self._disconnect()  # nothing sent for `idle` seconds: the slot goes back to the server
                self.resting = True
            elif time.monotonic() - self._answered >= self.heartbeat:
                self._conn.execute("SELECT 1")  # idle: is the server still there, and answering?
                self._answered = time.monotonic()
            self.problem, self.failures, self.refused, self.unreachable = None, 0, False, False
            self.silent = False
            self.no_room = None
            if sent + refused == 0:
                return True
        return False

    def send(self, conn: psycopg.Connection) -> int:
        """Send what waits now on `conn`, a connection of the caller's (send_waiting); nothing
        from a file found damaged (ClassServerError says so)."""
        if self.queue.damaged:
            raise ClassServerError(DAMAGED)
        class_id = class_uid(conn)
        self.queue.remember(class_id, self.address.shown)
        return send_waiting(conn, self.queue, class_id, self.batch)

    def _disconnect(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None
