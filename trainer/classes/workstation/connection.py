"""`ClassConnection`: what the app holds while a workstation is in a class.

    conn = ClassConnection(store.path, "postgresql://workstation:CODE@10.0.0.5:5432/dealer_class")
    conn.start()              # pushes in the background from now on
    store.record_attempt(r)   # the file first, as always ...
    conn.wake()               # ... then push it now rather than at the next poll
    conn.status               # "3 results waiting to be sent: <why>; trying again."
    conn.connected, conn.problem  # the same, in parts: connected now; why the last push failed
    conn.answering            # False while the server is there and does not answer
    conn.refused_attempts()   # [(uid, why)]: attempts the class refused, set aside in the file
    conn.stop()               # pause pushing (start() goes on); what waits stays in the file
    conn.close()              # on leaving the class or closing the app

For an instructor (or supervisor) login, `class_overview()` is the Class screen of the whole class
from the server (the same `ClassOverview` as trainer.progress.classroom's), `class_activity()`
what the live view adds (workstations connected, the last result, who is working on what),
`read_class(before, arrived)` both for the live view (once read, only what the attempts `arrived`
since the reading `before` changed), `attempts_of(trainee_id)` one trainee's attempts as the
server has them (these reads, and `unended_sittings`, on one connection kept between them and let
go after `idle` seconds without one: `Kept`), and
`follow(stop)` yields each new attempt's server id as it arrives (None after a lost connection
came back: read the overview again); run it on a thread of its own, and set `stop` to end it.

The exam ledger (trainer.classes.server.ledger), its calls on one connection kept between them
(`Kept`; a ClassConnection's is the one an exam's steps go on): `attempts_used`,
`start_sitting`, `start_attempt` (any login), `record_sitting`, `sitting_use`, `sitting_record`,
`add_certificate`, `certificates`, `void_sitting`, `voided_sittings` and `attempts_issued` (an
instructor's); and the class's logins
(trainer.classes.server.logins): `login_of` (any login), `class_identity` and `claim_profile` (a
trainee's own login, its password given), `class_login`, `enrol_workstation`, `revoke_workstation`,
`attach_trainee`, `workstations`, `close_shared_login`, `open_shared_login` and `shared_login`
(an instructor's; `workstations` and `shared_login` a supervisor's too); and
`retract` (an instructor's: trainer.classes.server.retractions). A started sitting's answers and
end travel as the attempts do, from the file, in the background (push.py), in order; `send_now`
sends what waits at once. A server that cannot be reached gives ClassUnreachableError (a
ClassServerError), so that the caller can tell "refused" from "not reached".

Nothing here raises a driver error to the app: a server that cannot be reached or refuses
gives ClassServerError with one line saying why.
"""

from __future__ import annotations

import contextlib
import select
import threading
from collections.abc import Iterator
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg

from trainer.classes.errors import (
    ClassServerError,
    ClassUnreachableError,
    LoginRefusedError,
    PassingRefusalError,
)
from trainer.classes.server import ledger, logins, people, retractions
from trainer.classes.server.failures import passing
from trainer.classes.workstation.address import ClassAddress, class_address, with_password
from trainer.classes.workstation.classview import (
    ClassActivity,
    ClassReading,
    attempts_of,
    class_activity,
    follow,
    read_class,
    server_class_overview,
)
from trainer.classes.workstation.push import (
    BACKOFF,
    BATCH,
    CONNECT_WITHIN,
    GIVE_UP,
    IDLE,
    LOCK_WAIT,
    POLL,
    Pusher,
    Watch,
    class_uid,
    connect,
    no_room,
    password_refused,
    push_exam_steps,
    reason,
    said,
    send_set_aside,
)
from trainer.classes.workstation.queue import Queue
from trainer.progress.classroom import ClassOverview


class ClassLedger:
    """The exam ledger's calls (trainer.classes.server.ledger) on the class at `address`: what
    any login may ask, then the instructor's. They go on one connection kept between calls that
    come one after another (`Kept`): made at the first call, made again after a call failed on it
    or the server ended it, let go after `idle` seconds without a call, and closed with `close()`
    (or `with ClassLedger(...) as ledger`, or once the ledger is dropped). Calls take turns on it."""

    #: the last call found no connection free for the login on the server: its words (None once a
    #: call went through)
    no_room: str | None = None
    #: seconds any one wait for the server's answer may last before its connection is cut and
    #: the call fails "not answering" (Watch): a server that accepts and never answers holds no
    #: call longer
    give_up: float = GIVE_UP
    #: seconds connecting may take (Watch): a server that accepts and never answers holds no
    #: connect longer
    connect_within: float = CONNECT_WITHIN
    #: seconds without a call after which the kept connection is let go (push.IDLE)
    idle: float = IDLE

    def __init__(self, address: str | ClassAddress):
        self.address = class_address(address) if isinstance(address, str) else address
        self._calls = Kept(self.give_up, self.idle, self.connect_within)

    def close(self) -> None:
        """Let the kept connection go now (the next call makes another)."""
        self._calls.drop()

    def __enter__(self) -> ClassLedger:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:  # a ledger made for a call or two holds none of the server's connections
        calls = getattr(self, "_calls", None)
        if calls is not None:
            calls.drop()

    def class_uid(self) -> str:
        """The class's own id (a sitting issued in this class names it)."""
        return self._ledger(class_uid)

    def attempts_used(self, trainee_name: str, form_uid: str) -> int:
        return self._ledger(ledger.attempts_used, trainee_name, form_uid)

    def start_sitting(self, nonce: str, trainee_name: str, form_digest: str | None, result_uid: str,
                      proof: bytes | None = None, in_class: str | None = None) -> ledger.Opened:
        return self._ledger(lambda conn: ledger.start_sitting(conn, nonce, trainee_name, form_digest,
                                                              result_uid, proof, in_class=in_class))

    def start_attempt(self, result_uid: str, trainee_name: str, form_uid: str) -> int:
        return self._ledger(ledger.start_attempt, result_uid, trainee_name, form_uid)

    def attempts_allowed(self, form_uid: str) -> int | None:
        return self._ledger(ledger.attempts_allowed, form_uid)

    def standing(self, trainee_name: str, form_uids: list[str]) -> dict[str, tuple[int, int | None]]:
        return self._ledger(ledger.standing, trainee_name, list(form_uids))

    def login_of(self, trainee_name: str) -> str | None:
        """The login of the trainee's own in the class, if they have one (logins.login_of)."""
        return self._ledger(logins.login_of, trainee_name)

    def look_alike(self, trainee_name: str) -> str | None:
        """The class's name that `trainee_name` reads as, if another (logins.look_alike)."""
        return self._ledger(logins.look_alike, trainee_name)

    def class_identity(self, trainee_name: str, password: str) -> logins.Identity | None:
        """The trainee id the class knows `trainee_name` by, proven with her own login's
        `password` (logins.own_trainee_uid): a profile made under it here is the one trainee
        she is in the class. While the class holds no row of her, a new id, sent at once with
        her login (s032): one her login made (s039), which no other login can register, so that
        no workstation's login can register a classmate under it before her results reach the
        class; with its salt, which the profile keeps (m024) and her login's push carries (s043).
        None when the name has no login of its own (or, on
        a class server that takes no claims yet, holds no row of her: a profile of this
        workstation's own is then hers). LoginRefusedError when the class refuses the password:
        a trainee gets no classmate's id without theirs."""
        import time

        login = self.login_of(trainee_name)
        if login is None:
            return None
        with self.signed_in(login, password) as hers:
            return hers._ledger(logins.own_trainee_uid, time.time())

    def claim_profile(self, trainee_name: str, uid: str, made: float, password: str) -> str | None:
        """Her own login (`password` proves it) claims the trainee id `uid` of her profile here,
        made at `made` (logins.claim_trainee_uid): one of logins.CLAIMED, None on a class server
        that takes no claims yet. ClassServerError when
        the name has no login of its own in the class, LoginRefusedError when the class refuses
        the password."""
        login = self.login_of(trainee_name)
        if login is None:
            raise ClassServerError(f"{trainee_name} has no login of their own in this class: "
                                   "the workstation sends their results")
        return self.signed_in(login, password)._ledger(logins.claim_trainee_uid, uid, made)

    def signed_in(self, login: str, password: str) -> ClassLedger:
        """The ledger's calls made with a trainee's own login (the same server and database)."""
        return ClassLedger(with_login(self.address, login, password))

    def give_form(self, uid: str, digest: str, name: str, attempts_allowed: int) -> bool:
        return self._ledger(ledger.give_form, uid, digest, name, attempts_allowed)

    def class_login(self, name: str, password: str) -> str:
        return self._ledger(logins.class_login, name, password)

    def enrol_workstation(self, name: str, password: str) -> str:
        """A login of the workstation's own (logins.enrol_workstation); its login name. The
        workstation joins with `with_login(address, login, password)`."""
        return self._ledger(logins.enrol_workstation, name, password)

    def revoke_workstation(self, name: str) -> str:
        return self._ledger(logins.revoke_workstation, name)

    def attach_trainee(self, trainee_uid: str, station: str) -> str:
        """The enrolled workstation `station` sends that trainee's results (logins.attach_trainee)."""
        return self._ledger(logins.attach_trainee, trainee_uid, station)

    def reset_quota(self, station: str | None, reason: str) -> tuple[str, int, int]:
        """Give a workstation's login (None: the shared one) its quota again (logins.reset_quota)."""
        return self._ledger(logins.reset_quota, station, reason)

    def workstations(self) -> list[logins.Workstation]:
        return self._ledger(logins.workstations)

    def shared_login(self) -> logins.SharedLogin:
        """Whether the class's shared workstation login is closed (logins.shared_login)."""
        return self._ledger(logins.shared_login)

    def close_shared_login(self) -> int:
        """Close the shared workstation login (logins.close_shared_login): the workstations
        enrolled go on, no other joins; their number."""
        return self._ledger(logins.close_shared_login)

    def open_shared_login(self) -> None:
        self._ledger(logins.open_shared_login)

    def record_sitting(self, sitting: dict, verifier: tuple[int, bytes, int] | None = None,
                       share: bytes | None = None) -> None:
        self._ledger(ledger.record_sitting, sitting, verifier, share)

    def sitting_use(self, nonce: str) -> dict | None:
        return self._ledger(ledger.sitting_use, nonce)

    def sitting_record(self, nonce: str) -> dict | None:
        return self._ledger(ledger.sitting_record, nonce)

    def sitting_state(self, nonce: str) -> dict:
        return self._ledger(ledger.sitting_state, nonce)

    def send_steps(self, progress_path: str) -> int:
        """Send the exam steps waiting in the progress file at `progress_path` (push_exam_steps,
        the pusher's own sending) now, on this thread, on a connection of its own; how many were
        answered. An exam sat online waits on this before its next item opens."""
        queue = Queue(progress_path)
        try:
            return self._ledger(lambda conn: push_exam_steps(conn, queue, class_uid(conn)))
        finally:
            queue.close()

    def add_certificate(self, certificate: dict) -> None:
        self._ledger(ledger.add_certificate, certificate)

    def unended_sittings(self) -> list[dict]:
        return self._ledger(ledger.unended_sittings)

    def finished_sittings(self) -> list[dict]:
        return self._ledger(ledger.finished_sittings)

    def abandon_sitting(self, nonce: str, reason: str) -> None:
        self._ledger(ledger.abandon_sitting, nonce, reason)

    def void_sitting(self, nonce: str, reason: str) -> None:
        self._ledger(ledger.void_sitting, nonce, reason)

    def give_back_start(self, result_uid: str, reason: str) -> None:
        self._ledger(ledger.give_back_start, result_uid, reason)

    def starts_spent(self) -> list[dict]:
        return self._ledger(ledger.starts_spent)

    def voided_sittings(self) -> dict[str, dict]:
        return self._ledger(ledger.voided_sittings)

    def attempts_issued(self, trainee_name: str, form_uid: str) -> int:
        return self._ledger(ledger.attempts_issued, trainee_name, form_uid)

    def certificates(self) -> list[dict]:
        return self._ledger(ledger.certificates)

    def retract(self, uid: str, reason: str) -> str:
        """Hide an attempt or a supervised round of the class from the exports and the view, with
        the reason (retractions.retract: an instructor's login); which it was."""
        return self._ledger(retractions.retract, uid, reason)

    def merge_trainees(self, one: str, other: str) -> None:
        """Record that two trainees (their ids) are one person (people.merge: an instructor's login)."""
        self._ledger(people.merge, one, other)

    def part_trainees(self, one: str, other: str) -> None:
        """Undo a merge of two trainees, by a row of its own (people.part: an instructor's login)."""
        self._ledger(people.part, one, other)

    def merged_now(self) -> list[people.Merged]:
        """The pairs of trainees merged now (people.merged_now)."""
        return self._ledger(people.merged_now)

    def merges(self) -> list[people.Merge]:
        """The class's record of merges and partings, oldest first (people.merges)."""
        return self._ledger(people.merges)

    def settle_claim(self, uid: str, login: str | None, reason: str) -> int:
        """Settle every open claim of a trainee id: the claimant `login`'s, or (None) the row's
        (people.settle: an instructor's login); how many claims were settled."""
        return self._ledger(people.settle, uid, login, reason)

    def claims(self) -> list[people.Claim]:
        """Every claim of a trainee id the class keeps, open or settled (people.claims)."""
        return self._ledger(people.claims)

    def _ledger(self, call, *args):
        """`call(connection, *args)` on the ledger's kept connection. ClassUnreachableError when the
        server cannot be reached, LoginRefusedError when it refuses the password, ClassServerError
        (one line) for any other refusal: never a driver error."""
        with self._calls.using(self.address, self._errors) as conn:
            self.no_room = None
            return call(conn, *args)

    @contextlib.contextmanager
    def _errors(self, watch: Watch | None = None):
        """A driver error in the block, as `_ledger` says it; a wait `watch` cut, as the server
        not answering."""
        where = f"the class at {self.address.shown}"
        try:
            yield
        except psycopg.Error as e:
            if watch is not None and watch.cut:
                raise ClassUnreachableError(f"{where} does not answer: nothing came back in "
                                            f"{watch.give_up:g} s") from None
            self._refusal(where, e)
            raise

    def _refusal(self, where: str, e: psycopg.Error) -> None:
        """Raise the app's error for the driver's `e`, as `_ledger` says it: a refusal for a passing
        reason, the server keeping nothing (failures.passing), is PassingRefusalError."""
        if passing(e) and not isinstance(e, psycopg.errors.LockNotAvailable):
            raise PassingRefusalError(f"{where} could not do it now and kept nothing of it "
                                      f"({reason(e)}); it is asked again") from None
        try:
            raise e
        except psycopg.errors.LockNotAvailable:
            raise PassingRefusalError(f"{where} is busy: what this needs was held by another call for "
                                      f"{LOCK_WAIT} s; nothing was changed, try again") from None
        except psycopg.OperationalError as e:
            if password_refused(e):
                raise LoginRefusedError(f"{where} refuses the password of the login "
                                       f"{self.address.user}") from None
            self.no_room = no_room(e)
            if self.no_room is not None:
                raise ClassUnreachableError(f"{where} has no connection free for the login "
                                            f"{self.address.user}: {self.no_room}") from None
            words = said(e, self.address.user, self.address.database)
            gone = "the class server cannot be reached: "
            if words.startswith(gone):
                raise ClassUnreachableError(f"{where} cannot be reached: {words[len(gone):]}") from None
            raise ClassUnreachableError(f"{where}: {words}") from None
        except psycopg.errors.InsufficientPrivilege as e:
            raise ClassServerError(f"{where} refuses this login ({self.address.user}): {reason(e)}") from None
        except psycopg.Error as e:
            raise ClassServerError(f"{where}: {reason(e)}") from None

class Kept:
    """One connection to the class kept between calls that come one after another (an exam's
    answers, the live Class tab's reads, the ledger's calls): made at the first call, and again
    after the class's address changed, a call failed on it or the server ended it while it rested
    (`usable`); let go after `idle` seconds without a call, so that it holds none of the server's
    connections between them. Every wait for the server on it is bounded (`give_up`, and connecting by
    `connect_within`: Watch), so
    that a call may run on a thread of its own and always ends; calls on it take turns."""

    def __init__(self, give_up: float, idle: float, connect_within: float = CONNECT_WITHIN):
        self.idle = idle
        self.watch = Watch(give_up, connect_within)
        self._lock = threading.Lock()
        self._kept: tuple | None = None  # (address, connection)
        self._letting_go: threading.Timer | None = None

    @contextlib.contextmanager
    def using(self, address: ClassAddress, errors) -> Iterator[psycopg.Connection]:
        """The connection, for one call; `errors(watch)`: how a failure is said (ClassLedger._errors)."""
        with self._lock, errors(self.watch):
            self.watch.cut = False
            try:
                if self._kept is None or self._kept[0] is not address or not usable(self._kept[1]):
                    self._close()
                    self._kept = (address, connect(address, self.watch))
                yield self._kept[1]
            except BaseException:
                self._close()
                raise
            finally:
                self._let_go_later()

    @property
    def held(self) -> bool:
        kept = self._kept
        return kept is not None and not kept[1].closed

    def drop(self) -> None:
        with self._lock:
            if self._letting_go is not None:
                self._letting_go.cancel()
            self._close()

    def _let_go_later(self) -> None:
        if self._letting_go is not None:
            self._letting_go.cancel()
        self._letting_go = threading.Timer(self.idle, self._let_go, (self._kept,))
        self._letting_go.daemon = True
        self._letting_go.start()

    def _let_go(self, kept) -> None:
        with self._lock:
            if kept is not None and self._kept is kept:
                self._close()

    def _close(self) -> None:
        if self._kept is not None:
            conn, self._kept = self._kept[1], None
            with contextlib.suppress(psycopg.Error):
                conn.close()


def usable(conn: psycopg.Connection) -> bool:
    """Whether a kept connection, resting between calls, may take the next: open, and nothing
    come from the server since the last call. A server that ended the session while it rested (a
    restart, a terminated backend, a crash) has sent its last words or closed its end, which a
    look at the socket sees without waiting; a call on it would fail where a new connection
    goes through. A cable cut while it rested is seen by the call, as on a new connection."""
    if conn.closed:
        return False
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable


def with_login(address: ClassAddress, login: str, password: str) -> ClassAddress:
    """The same class (server, database, options) with another login and its password. A login
    the class makes (a trainee's, an enrolled workstation's) has a SCRAM verifier, which the
    server proves by SCRAM whatever its pg_hba.conf says (md5 too): an address's `require_auth`,
    set for a workstation's login made otherwise (`?require_auth=md5`), is not this login's."""
    parts = urlsplit(address.kept)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if k != "require_auth"])
    kept = class_address(urlunsplit(parts._replace(query=query)))
    return with_password(replace(kept, user=login), password)


class ClassConnection(ClassLedger):
    def __init__(self, progress_path: str, address: str | ClassAddress, *, batch: int = BATCH,
                 poll: float = POLL, backoff: tuple[float, float] = BACKOFF, store=None, **timing: float):
        """`store`: the app's Store of the file, whose full check decides whether the pusher may
        write it (Pusher); `timing`: the pusher's liveness check (heartbeat, answer_within,
        give_up, idle, connect_within: Pusher); an exam's steps let their connection go after
        `idle` seconds without a step too, and every call bounds its waits by `give_up` and
        `connect_within` as the pusher does."""
        self.address = class_address(address) if isinstance(address, str) else address
        self.backoff = backoff
        self.pusher = Pusher(progress_path, self.address, batch=batch, poll=poll, backoff=backoff,
                             store=store, **timing)
        self.give_up = timing.get("give_up", GIVE_UP)
        self.idle = timing.get("idle", IDLE)
        self.connect_within = timing.get("connect_within", CONNECT_WITHIN)
        # the connection an exam's steps go on, and the ledger's calls, which take turns with them:
        # a workstation's own login holds 4 connections at most (s016), the pusher's among them
        self._steps = self._calls = Kept(self.give_up, self.idle, self.connect_within)
        # the one the instructor's reads go on
        self._reads = Kept(self.give_up, self.idle, self.connect_within)

    # ------------------------------------------------------------------ every workstation
    def start(self) -> None:
        """Push the waiting attempts in the background, and every attempt recorded later."""
        self.pusher.start()

    def stop(self) -> None:
        self.pusher.stop()

    def close(self) -> None:
        self.pusher.close()
        self._steps.drop()
        self._reads.drop()

    def send_steps(self, progress_path: str) -> int:
        """As ClassLedger.send_steps, on one connection to the class kept between answers (an
        exam sat online waits on each answer: no new login while answers come quickly); dropped
        when it fails, when the class's address changes, or after `idle` seconds without a send
        (a class's workstations do not hold the server's connections through an exam's long
        items), and made again at the next send. The progress file is
        opened for each send only. Every wait for the server on it is bounded (`give_up`), so that
        this may run on a thread of its own and always ends."""
        queue = Queue(progress_path)
        try:
            with self._steps.using(self.address, self._errors) as conn:
                return push_exam_steps(conn, queue, class_uid(conn))
        finally:
            queue.close()

    def wake(self) -> None:
        """An attempt (or an exam's answer) was recorded: push it now."""
        self.pusher.wake()

    def send_now(self) -> None:
        """Send what waits (an exam's answers first, then attempts) on this thread, now, on a
        connection of its own; ClassServerError as the ledger's calls give it. The background
        pusher may be sending the same at once: the server keeps one of each."""
        self._ledger(lambda conn: self.pusher.send(conn))

    def set_aside_of(self, trainee_name: str) -> int:
        """How many results of the trainee `trainee_name` the class set aside, not sent since
        (send_set_aside sends them); 0 before the first push to the class."""
        class_id = self.pusher.class_uid
        return 0 if class_id is None else len(self.pusher.queue.set_aside_of(class_id, trainee_name)[0])

    def send_set_aside(self, trainee_name: str, password: str) -> tuple[int, int]:
        """Send the results of the trainee `trainee_name` that the class set aside (push.
        send_set_aside) with her own login and `password`: (sent, refused again).
        LoginRefusedError when the class refuses the password, ClassServerError when the name has
        no login of its own in the class (its results are the workstation's to send)."""
        login = self.login_of(trainee_name)
        if login is None:
            raise ClassServerError(f"{trainee_name} has no login of their own in this class: "
                                   "the workstation sends their results")
        with ClassLedger(with_login(self.address, login, password)) as hers:
            sent = hers._ledger(lambda conn: send_set_aside(conn, self.pusher.queue, trainee_name))
        self.pusher.recount()
        return sent

    def waiting(self) -> int:
        """Attempts in the progress file the class server has not confirmed."""
        return self.pusher.waiting()

    @property
    def connected(self) -> bool:
        """Pushing now holds a connection to the class server."""
        return self.pusher.connected

    @property
    def problem(self) -> str | None:
        """Why the last push failed, in one line; None once a push went through."""
        return self.pusher.problem

    @property
    def file_damaged(self) -> bool:
        """The progress file was found damaged by its full check: nothing more is sent from it."""
        return self.pusher.file_damaged

    @property
    def answering(self) -> bool:
        """False while the class server does not answer (it is there and silent: frozen, or a
        socket that never replies), within a bounded time (Pusher, `answering`)."""
        return self.pusher.answering

    @property
    def crowded(self) -> str | None:
        """The server had no connection free for this workstation's login at the last push or
        call (its words; the pusher may still hold the connection it had): None once one went
        through."""
        return self.pusher.no_room or self.no_room

    @property
    def unreachable(self) -> bool:
        """The last push failed for want of the server (False: the server answered, refusing)."""
        return self.pusher.unreachable

    def refused_attempts(self) -> list[tuple[str, str]]:
        """The attempts of the file the class refused, set aside: (uid, the server's reason),
        newest first; the others are sent."""
        return self.pusher.refused_attempts()

    @property
    def status(self) -> str:
        """One line for the status bar: "All results sent to the class." or "n results waiting
        to be sent" (and why, while the server cannot be reached)."""
        return self.pusher.status

    # ------------------------------------------------------------------ the instructor
    def class_overview(self, **options) -> ClassOverview:
        """The class as the server has it (options as trainer.progress.classroom.class_overview's)."""
        return self._read(server_class_overview, **options)

    def class_activity(self, **options) -> ClassActivity:
        """Workstations connected, the last result, who is working on what (see classview)."""
        return self._read(class_activity, **options)

    def read_class(self, before: ClassReading | None = None, arrived=None) -> ClassReading:
        """The class for the live view: in full, or only what the attempts `arrived` since the
        reading `before` changed (see classview.read_class)."""
        return self._read(read_class, before=before, arrived=arrived)

    def attempts_of(self, trainee_id: int, **options) -> list:
        """One trainee's attempts (their id on the server, as class_overview() gives it), newest
        first: trainer.progress.records.Attempt, as a progress file's Store.attempts gives them
        (options as classview.attempts_of's)."""
        return self._read(attempts_of, trainee_id=trainee_id, **options)

    def unended_sittings(self) -> list[dict]:
        return self._read(ledger.unended_sittings)

    def _read(self, query, **options):
        """`query(connection, **options)` on one connection kept for the reads (the live Class
        tab reads the class up to twice a second: no new login for each), let go after `idle`
        seconds without a read; errors as `_ledger` gives them."""
        with self._reads.using(self.address, self._errors) as conn:
            self.no_room = None
            return query(conn, **options)

    def follow(self, stop: threading.Event) -> Iterator[int | None]:
        """Each new attempt's server id as it arrives, until `stop` is set (see the module)."""
        return follow(self.address, stop, backoff=self.backoff)
