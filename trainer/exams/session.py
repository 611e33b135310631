"""Sitting an exam, with no Qt: start an attempt, record each answer the moment it is graded,
and end the attempt with a status.

Nothing given is ever lost: the attempt's row is written (status "in-progress") before the
first scenario is shown, and every answer is its own transaction, chained at once
(trainer.exams.trust); none of them waits for the progress file's full check running in the
background (`Store.write(now=True)`: the trainee is waiting). The answer to the last item closes
the attempt in the same transaction, so a finished exam never depends on a later write. An
attempt still "in-progress" when the app starts again (it crashed, or the machine went down) is
closed as "abandoned" by `close_interrupted`, its answers kept; the app calls it once the
progress file's full check has passed (ui.shell.app.exam_upkeep). An
attempt being sat holds a lock file beside the progress file (`filelock`: an OS lock the system
drops when its process ends), so a second copy of the app never closes a running exam: it closes
only the attempts whose lock nobody holds (the stale-lock rule needs no clock or process id).

Attempts allowed: every attempt started counts, abandoned ones included (leaving an exam that is
going badly must not buy a fresh start), and so do results imported from other workstations.
The count is taken under the write lock, so two processes cannot both start the last attempt.
On a workstation joined to a class (`classroom`, the app's ClassConnection) the class server
counts too, and first: a start it refuses, or cannot be asked about, does not happen
(trainer.exams.classledger, "the offline rule"), so a progress file deleted or restored gives
no attempt back.

One clock times an attempt: `exam_clock` (trainer.exams.clock), seconds since 1970 as the wall
clock read them when the app started, advanced by a steady clock that counts sleep too, on every
OS, so that setting the computer's clock or closing the lid during an exam buys no time and
moves none of the times recorded. The screen's
countdown reads the session's `remaining()`; tests pass their own clock.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from filelock import FileLock, Timeout

from trainer.classes.errors import ClassServerError, ClassUnreachableError, PassingRefusalError
from trainer.exams import classledger
from trainer.exams.certify import CertifyError, read_sitting, signed_by
from trainer.exams.clock import exam_clock
from trainer.exams.errors import (
    AwaitingClassError,
    ExamError,
    ExamOverError,
    FormError,
    NoAttemptsLeftError,
    TimeUpError,
)
from trainer.exams.forms import ExamForm
from trainer.exams.formstore import add_form, get_form
from trainer.exams.proof import code_is_right, deals_per_sitting, link, names_form, proof_key, prove
from trainer.exams.records import Answer, ExamResult, Status, answer_from_row, get_result, portable
from trainer.exams.scoring import Ending, exam_score, verdict
from trainer.exams.seen import SatBeforeError, SittingsSeen
from trainer.exams.submission import Ahead, SealedSitting
from trainer.exams.trust import chain
from trainer.grading import Result
from trainer.procedure.model import Performed
from trainer.progress._sqlite import Database
from trainer.progress.records import action_json, clean_name, finding_json, workstation
from trainer.progress.store import Store
from trainer.scenario import Scenario
from trainer.supervise.scoring import Flag, FlagsError, flags_from_json, judged

if TYPE_CHECKING:  # the class server's ledger, and psycopg with it, only where a class is used
    from trainer.classes.server.ledger import Opened

_LIVE: set[str] = set()  # uids of the attempts being sat in this process


@dataclass(frozen=True)
class Undelivered:
    """Why the steps waiting did not reach the class server (`ExamSession.deliver`): its words,
    and whether it is `passing` (the server could not be reached, or refused for a passing reason
    and kept nothing: trying again may get them through, within `DELIVERY_GRACE`,
    trainer.exams.classledger) or not (the server refuses this login: trying again does not help)."""

    why: str
    passing: bool


def attempts_used(store: Store, trainee_id: int, form_uid: str, classroom=None) -> int:
    """The attempts counted at a form: in the file, and when joined to a class (`classroom`) the
    larger of that and the class server's count."""
    here = store.query("SELECT count(*) AS n FROM exam_results WHERE trainee_id = ? AND form_uid = ?",
                       (trainee_id, form_uid))[0]["n"]
    if classroom is None:
        return here
    return classledger.attempts_used(classroom, store.trainee(trainee_id).name, form_uid, here)


def attempts_left(store: Store, trainee_id: int, form: ExamForm, classroom=None) -> int:
    return standings(store, trainee_id, {form.uid: form.attempts_allowed}, classroom)[form.uid][1]


def standings(store: Store, trainee_id: int, allowed: dict[str, int],
              classroom=None) -> dict[str, tuple[int, int]]:
    """For each form (its uid: the attempts its own copy allows), the attempts it allows and
    those left to the trainee, as shown: the class's allowance and count when the machine is in
    a class that has them (all forms in one visit), else the form's; the larger of the file's
    count and the class's. For showing only: starting is what the class server decides."""
    in_class = classledger.standing(classroom, store.trainee(trainee_id).name, list(allowed))
    out = {}
    for uid, own in allowed.items():
        counted, given = in_class.get(uid, (0, None))
        most = own if given is None else given
        out[uid] = (most, max(0, most - max(counted, attempts_used(store, trainee_id, uid))))
    return out


def start_exam(store: Store, form: ExamForm | str | SealedSitting, trainee_id: int, key: bytes, *,
               clock: Callable[[], float] = exam_clock, sitting: dict | None = None,
               classroom=None, password: str | None = None,
               start_code: str | None = None, seen: SittingsSeen | None = None) -> ExamSession:
    """Begin an attempt on a form (an ExamForm, stored now if it is not yet, or a stored form's
    uid). Refused for an archived form (FormError) and when the trainee has no attempt left
    (NoAttemptsLeftError). With a signed `sitting` token (trainer.exams.submission), the token
    must be this trainee's, for this form, and not expired by this machine's clock; it is kept
    with the result, for the instructor to certify, and the form is not stored here. Joined to a
    class (`classroom`), the start is counted on the class server before it is written here, and
    does not happen when the server refuses it or cannot be reached (trainer.exams.classledger);
    a sitting whose token names a class needs that class. A trainee with a login of their own in
    the class starts an exam with no sitting with its `password` (TraineeLoginNeeded without it,
    or when the server refuses it). A sitting that asks for proof needs its `start_code`: the
    attempt holds the proof key it gives until it ends (trainer.exams.proof). In a class whose
    server checks the code (s012), the start proves it there, and each answer and the end are
    sent to the server as they are given, from the file (`exam_stream`), in order. A sitting
    file sealed with the class server's share gives its SealedSitting for `form`: its items are
    opened with the share the server returns with its record of the start. `seen`
    (trainer.exams.seen): the other files and the list where a sitting started before on this
    account is found (SatBeforeError).

    The three steps of `ExamStart`, one after the other: the app runs the second (the class
    server's count) on a thread of its own, and the others, which use the Store, on its own."""
    start = ExamStart.checked(store, form, trainee_id, key, clock=clock, sitting=sitting,
                              classroom=classroom, password=password, start_code=start_code, seen=seen)
    return start.opened(start.count())


@dataclass
class ExamStart:
    """An exam's start in three steps, so that the class server's call can wait on a thread of
    its own while the window paints (ui/exams/sitting.py): `checked` (the Store: the trainee,
    the form, the sitting, the attempts left; nothing written), `count` (the class server only,
    on a connection of its own: no Store, so any thread may run it) and `opened` (the Store
    again: checked once more under its locks, the attempt written, its session). A start counted
    on the server that `opened` then refuses (the file found the sitting sat meanwhile) is the
    instructor's to void, as a start whose write failed always was."""

    store: Store
    form: ExamForm | None  # None until the class server's share opens a sealed sitting (`sealed`)
    trainee_id: int
    trainee_name: str
    key: bytes
    clock: Callable[[], float]
    sitting: dict | None
    classroom: object
    password: str | None
    seen: SittingsSeen | None
    uid: str
    started: float
    sitting_key: bytes | None
    ahead: Ahead  # what the start knows of the form before it is open
    sealed: SealedSitting | None = None

    @classmethod
    def checked(cls, store: Store, form: ExamForm | str | SealedSitting, trainee_id: int, key: bytes, *,
                clock: Callable[[], float] = exam_clock, sitting: dict | None = None,
                classroom=None, password: str | None = None,
                start_code: str | None = None, seen: SittingsSeen | None = None) -> ExamStart:
        trainee = store.trainee(trainee_id)
        sealed: SealedSitting | None = None
        shown: ExamForm | None = None  # None until a sealed sitting's share opens it
        if sitting is not None:
            # the sitting file's form (the instructor's draw) is held in memory only: it is never
            # written to this progress file, where the trainee's account could read it
            if isinstance(form, SealedSitting):
                sealed = form
            elif isinstance(form, ExamForm):
                shown = form
            else:
                raise FormError("a sitting is sat on the form of its sitting file")
            if sitting.get("proof") and not start_code:
                raise CertifyError("this sitting starts with its start code: the proctor types it")
            if sitting.get("proof") and not code_is_right(start_code, sitting):
                raise CertifyError("the start code is not right")
            # a sealed form is checked against the token once the share opens it (SealedSitting)
            check_sitting_here(sitting, trainee.name, shown, float(clock()), start_code)
        else:
            if isinstance(form, SealedSitting):
                raise FormError("a sealed sitting file is sat with its sitting token")
            if isinstance(form, str):
                stored = get_form(store, form)
            else:
                add_form(store, form)
                stored = get_form(store, form.uid)
            if stored.archived:
                raise FormError(f"The exam {stored.name!r} is archived: restore it to sit it.")
            shown = stored.drawn(stored.draw_positions())  # a pool draws here; a whole form is itself
        started = float(clock())
        # a sitting's result bears the sitting's nonce as its id: one result per token, and the
        # instructor can tell which result a token was sat for (certify refuses any other id)
        uid = uuid.uuid4().hex if sitting is None else str(sitting["nonce"])
        proving = sitting is not None and bool(sitting.get("proof"))
        ahead = sealed.ahead if sealed is not None else Ahead.of(cast(ExamForm, shown))
        start = cls(store, shown, trainee_id, trainee.name, key, clock, sitting, classroom, password,
                    seen, uid, started, proof_key(start_code, uid) if proving else None, ahead, sealed)
        start._check(_first_of(store))  # before the server counts anything; `opened` checks again
        # a sitting issued in a class: its server refuses a second start, and the list on this
        # account, which a classmate on a shared account can write, only adds words (trainer.exams.seen)
        if sitting is not None and seen is not None and (why := seen.refusal(
                uid, store.path, advisory=classledger.class_named(sitting) is not None)):
            raise SatBeforeError(why)
        return start

    def _check(self, first: Callable[[str, tuple], Any]) -> None:
        """Refused when this file sat the sitting already, or the trainee has no attempt left.
        `first(sql, args)`: the first column of the first row the file answers, or None."""
        if self.sitting is not None and first("SELECT 1 AS x FROM exam_results WHERE uid = ?",
                                              (self.uid,)) is not None:
            raise CertifyError(SAT_HERE)
        ahead = self.ahead
        used = first("SELECT count(*) AS n FROM exam_results WHERE trainee_id = ? AND form_uid = ?",
                     (self.trainee_id, ahead.uid))
        if used >= ahead.attempts_allowed:
            raise NoAttemptsLeftError(
                f"{self.trainee_name} has used {used} of the {ahead.attempts_allowed} attempt"
                f"{'s' if ahead.attempts_allowed != 1 else ''} allowed at {ahead.name!r}.")

    def count(self) -> Opened | None:
        """The class server counts the start (classledger.count_start): on any thread, for it
        uses no Store; the server's record of a sitting's start (its own nonce of it, and the
        share a sealed sitting opens with), or None."""
        return classledger.count_start(
            self.classroom, self.sitting, self.trainee_name, self.ahead.uid,
            None if self.form is None else self.form.digest, self.uid, self.password,
            proof=None if self.sitting_key is None else link(self.sitting_key, self.ahead.items, 1),
            sealed=self.sealed is not None)

    def opened(self, counted: Opened | None) -> ExamSession:
        """The attempt written in the file, once `count` said `counted` (a sealed sitting's form
        opened with the share in it): its session."""
        if self.sealed is not None:
            self.form = self.sealed.form(None if counted is None else counted.share)
        if self.sitting_key is not None and deals_per_sitting(self.sitting) and self.form is not None:
            # its supervise items' faults, dealt for this sitting now that its code is known
            self.form = self.form.dealt_for(self.sitting_key)
        opened = None if counted is None else counted.opened
        store, form, sitting = self.store, self.form, self.sitting
        assert form is not None
        first = contextlib.nullcontext() if self.seen is None or sitting is None \
            else self.seen.first_sitting(self.uid, store.path,
                                         advisory=classledger.class_named(sitting) is not None)
        with first, store.write(now=True) as db:  # the trainee waits for it: not for the file's check
            self._check(lambda q, args: None if (row := db.execute(q, args).fetchone()) is None else row[0])
            cur = db.execute(
                "INSERT INTO exam_results (uid, trainee_id, trainee_name, form_uid, form_name, form_digest, "
                "pass_mark, time_limit_seconds, item_count, started, status, source, sitting, proof_key, "
                "class_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.uid, self.trainee_id, self.trainee_name, form.uid, form.name, form.digest,
                 form.pass_mark, form.time_limit_seconds, len(form.items), self.started,
                 Status.IN_PROGRESS.value, workstation(),
                 None if sitting is None else json.dumps(sitting, ensure_ascii=False),
                 None if self.sitting_key is None else self.sitting_key.hex(), opened))
            result_id = cur.lastrowid
            chain(db, self.key, "start", result_id)
        _LIVE.add(self.uid)
        lock = attempt_lock(store, self.uid)
        lock.acquire()  # a new uid: nobody else holds it
        return ExamSession(store, self.key, form, result_id, self.uid, self.trainee_id, self.started,
                           self.clock, lock, self.classroom,
                           online=opened is not None and self.classroom is not None)


def _first_of(store: Store) -> Callable[[str, tuple], Any]:
    def first(sql: str, args: tuple) -> Any:
        rows = store.query(sql, args)
        return next(iter(rows[0].values())) if rows else None
    return first


SAT_HERE = ("this sitting was already sat on this workstation: a sitting is good for one attempt; "
            "ask the instructor for a new one")


def sitting_used(store: Store, token: dict, seen: SittingsSeen | None = None) -> str | None:
    """Why a sitting cannot be started here because it was started before (in this progress file,
    or on this account as `seen` finds it), asked before the trainee is told the clock starts;
    None when nothing says so. `start_exam` checks it again under its locks."""
    nonce = str(token.get("nonce", ""))
    if store.query("SELECT 1 AS x FROM exam_results WHERE uid = ?", (nonce,)):
        return SAT_HERE
    return seen.refusal(nonce, store.path, advisory=classledger.class_named(token) is not None) \
        if seen is not None else None


def check_sitting_here(token: dict, trainee: str, form: ExamForm | None, now: float,
                       code: str | None = None) -> None:
    """What a workstation can check of a sitting token: signed by the key it names, this
    trainee's, this form's (a pool's draw by the digest its start `code` salts; not checked here
    with no `form`: a sealed form's is checked when it opens), and not expired. CertifyError (an
    ExamError) says which."""
    signer = signed_by(token)
    if signer is None:
        raise CertifyError("the sitting token names no signer")
    sitting = read_sitting(token, [signer])
    if sitting.trainee != clean_name(trainee):
        raise CertifyError(f"this sitting was issued to {sitting.trainee}, not {trainee}")
    if form is not None and not names_form(token, form.digest, code):
        raise CertifyError(f"this sitting is for another exam than {form.name!r}")
    if now > sitting.expires:
        raise CertifyError("this sitting has expired: ask the instructor for a new one")


def attempt_lock(store: Store, uid: str) -> FileLock:
    """The lock an attempt's sitting holds while it runs, beside the progress file."""
    path = Path(tempfile.gettempdir(), "dealer-trainer-memory") if store.path == ":memory:" \
        else Path(store.path)
    return FileLock(path.with_name(f".{path.name}.exam-{uid}.lock"), timeout=0, mode=0o600)


def _release(lock: FileLock | None) -> None:
    if lock is not None and lock.is_locked:
        lock.release()
        Path(lock.lock_file).unlink(missing_ok=True)


class ExamSession:
    """One attempt being sat. The UI shows `scenario(p)` for each position in turn (no feedback),
    grades it (PracticeRound.finish, or trainer.grading.grade) and hands the Result to `record`;
    its timer calls `time_out`, leaving calls `abandon`, handing in early calls `finish`."""

    def __init__(self, store: Store, key: bytes, form: ExamForm, result_id: int, uid: str,
                 trainee_id: int, started: float, clock: Callable[[], float],
                 lock: FileLock | None = None, classroom=None, online: bool = False):
        self.store, self.key, self.form, self.lock = store, key, form, lock
        self.classroom = classroom  # told when an answer waits to be sent to the class
        # sat online: a sitting the class server keeps a record of (see `send`)
        self.online = online
        self.problem: str | None = None  # why the last answer has not reached the class server
        #: `send` delivers what waits to the class server itself, on the calling thread; False: the
        #: caller delivers (`deliver`, on a thread of its own, as the app's window does), and `send`
        #: only reads the file (and ends the attempt once its last answer is acknowledged)
        self.delivers = True
        self.result_id, self.uid, self.trainee_id = result_id, uid, trainee_id
        self.started, self.clock = started, clock
        self.answers: dict[int, Answer] = {}
        self._result: ExamResult | None = None  # once the attempt has ended
        self._last_answered: float | None = None  # online: the last answer, before its end is sent

    @property
    def deadline(self) -> float:
        return self.started + self.form.time_limit_seconds

    def remaining(self) -> float:
        """Seconds left on the exam's clock (the timer the trainee sees)."""
        return max(0.0, self.deadline - self.clock())

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> ExamResult | None:
        """The ended attempt. Sat online, only once the class server has acknowledged every answer
        and the end: no verdict is shown that the server does not hold already."""
        return None if self._result is None or self.waiting else self._result

    @property
    def waiting(self) -> bool:
        """Sat online, an answer (or the end) the class server has not acknowledged yet."""
        if not self.online:
            return False
        return self.store.query("SELECT count(*) AS n FROM exam_stream WHERE result_id = ? AND sent IS NULL",
                                (self.result_id,))[0]["n"] > 0 or \
            (self._result is None and self._last_answered is not None)

    def send(self) -> bool:
        """An exam sat online (a sitting whose class server keeps its record, s012): send what
        waits of it now, with the app's own sender; True when the server has acknowledged every
        step. While it cannot, `problem` says why, and the next item does not open. Once the last
        answer is acknowledged, the attempt ends (its end then sent the same way)."""
        if not self.online:
            return True
        if self.delivers and self._queued():
            said = self.deliver()
            self.problem = None if said is None else said.why
        if self._result is None and self._last_answered is not None and not self._queued():
            self._end(Ending.FINISHED, self._last_answered)  # sends its end in turn
        return not self.waiting

    def deliver(self) -> Undelivered | None:
        """Send the steps waiting in the file to the class server now (the class connection's
        own sending, each wait for the server bounded); why it could not, or None. It touches
        no state of the session's: it may run on a thread of its own while the window goes on
        (`delivers` False), and the caller sets `problem` with what it says."""
        try:
            self.classroom.send_steps(self.store.path)
        except ClassServerError as e:
            return Undelivered(str(e), isinstance(e, ClassUnreachableError | PassingRefusalError))
        return None

    def _queued(self) -> bool:
        return self.store.query("SELECT count(*) AS n FROM exam_stream WHERE result_id = ? AND sent IS NULL",
                                (self.result_id,))[0]["n"] > 0
    def scenario(self, position: int) -> Scenario:
        return self.form.scenarios[position]

    def supervises(self, position: int) -> bool:
        """Whether the item is a supervise item (answered with `record_flags`)."""
        return self.form.items[position].supervise is not None

    def dealer(self, position: int) -> tuple[Performed, ...]:
        """A supervise item as the trainee watches it: the dealer's actions, each at its time
        into the round, faults among them and never named (no debrief until the exam ends)."""
        rnd = self.form.round(position)
        if rnd is None:
            raise ExamError(f"Item {position + 1} of {self.form.name!r} is a dealer's item: it has no "
                            "dealer to watch.")
        return tuple(rnd.log)

    def next_position(self) -> int | None:
        return next((p for p in range(len(self.form.items)) if p not in self.answers), None)

    def record(self, position: int, result: Result, log: Sequence[Performed | dict]) -> Answer:
        """Save one item's graded answer at once (its own transaction, chained). The last answer
        also ends the attempt ("passed" or "failed"; `self.result`). After the time limit the
        answer is not counted: the attempt ends "timed-out" and TimeUpError carries the result."""
        return self._record(position, False, lambda: (
            result, [action_json(p, f"log[{i}]") for i, p in enumerate(log)]))

    def record_flags(self, position: int, flags: Sequence[Flag | dict]) -> Answer:
        """Save a supervise item's answer, the supervisor's flags (each its time into the round,
        its target and the fault it names), as `record` saves a dealer's: scored at once by the
        one pass rule (trainer.supervise.scoring.judged), its verdict kept until the exam ends."""
        def judge() -> tuple[Result, list[dict]]:
            try:
                read = flags_from_json([f.to_json() if isinstance(f, Flag) else f for f in flags])
            except FlagsError as e:
                raise ExamError(str(e)) from None
            rnd = self.form.round(position)
            assert rnd is not None
            return judged(rnd, read)[1], [f.to_json() for f in read]

        return self._record(position, True, judge)

    def _record(self, position: int, supervise: bool,
                judge: Callable[[], tuple[Result, list[dict]]]) -> Answer:
        """Save one item's graded answer (`record`, `record_flags`): `judge()` gives its result and
        its log, or its flags, as stored."""
        if self._result is not None or self._last_answered is not None:
            raise ExamOverError("This exam attempt has ended.")
        if self.online and not self.send():
            raise AwaitingClassError(
                "The class server has not acknowledged the last answer yet, so the next item does not "
                f"open ({self.problem or 'it is on its way'}). The exam waits; its clock runs on.")
        if self.clock() > self.deadline:
            over = self._end(Ending.TIME_UP, self.deadline)
            raise TimeUpError("Time ran out before this answer: the exam has ended.", over)
        if isinstance(position, bool) or not isinstance(position, int) or \
                not 0 <= position < len(self.form.items):
            raise ExamError(f"There is no item {position!r} in {self.form.name!r}.")
        if self.supervises(position) != supervise:
            raise ExamError(f"Item {position + 1} of {self.form.name!r} is "
                            + ("a supervise item: its answer is the supervisor's flags" if not supervise
                               else "a dealer's item: its answer is the dealer's log"))
        if position in self.answers:
            raise ExamError(f"Item {position + 1} of {self.form.name!r} is already answered.")
        result, stored = judge()
        s = self.form.scenarios[position]
        findings = json.dumps([finding_json(f, f"findings[{i}]") for i, f in enumerate(result.findings)],
                              ensure_ascii=False)
        actions = json.dumps(stored, ensure_ascii=False)
        score = result.score
        last = len(self.answers) + 1 == len(self.form.items)
        answered = float(self.clock())
        with self.store.write(now=True) as db:
            self._still_open(db)
            cur = db.execute(
                "INSERT INTO exam_answers (result_id, position, item_id, title, game, answered, procedure, "
                "payouts, speed, total, passed, critical, findings, log) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.result_id, position, self.form.key(position), s.title, s.game, answered,
                 score.procedure,
                 score.payouts, score.speed, score.total, int(score.passed), int(score.critical), findings,
                 actions))
            chain(db, self.key, "answer", cur.lastrowid)
            row = next(iter(db.query("SELECT * FROM exam_answers WHERE id = ?", (cur.lastrowid,))))
            stream(db, self.result_id, answer_id=cur.lastrowid)
            if last and not self.online:
                close(db, self.key, self.result_id, Ending.FINISHED, answered)
        answer = answer_from_row(row)
        self.answers[position] = answer
        if self.online:  # the end only once the last answer is on the server, its verdict after both
            if last:
                self._last_answered = answered
            self.send()
            return answer
        self._wake()
        if last:
            self._closed()
        return answer

    def _wake(self) -> None:
        """Tell the class connection an answer waits to be sent (sent in the background)."""
        wake = getattr(self.classroom, "wake", None)
        if wake is not None:
            wake()

    def finish(self) -> ExamResult | None:
        """Hand in: the items not answered count 0. After the time limit this is a time-out.
        Sat online, the result once the class server holds it (else None: `send` again)."""
        if self._result is not None:
            return self.result
        now = float(self.clock()) if self._last_answered is None else self._last_answered
        if now > self.deadline:
            return self._end(Ending.TIME_UP, self.deadline)
        return self._end(Ending.FINISHED, now)

    def time_out(self) -> ExamResult | None:
        """The exam's timer ran out: end it "timed-out"; the rest is unanswered (0)."""
        if self._result is not None:
            return self.result
        return self._end(Ending.TIME_UP, min(float(self.clock()), self.deadline))

    def abandon(self) -> ExamResult | None:
        """The trainee left the exam or closed the app: end it "abandoned", the answers kept."""
        if self._result is not None:
            return self.result
        return self._end(Ending.LEFT, float(self.clock()))

    def _still_open(self, db: Database) -> None:
        status = db.execute("SELECT status FROM exam_results WHERE id = ?", (self.result_id,)).fetchone()[0]
        if status != Status.IN_PROGRESS:
            _LIVE.discard(self.uid)
            raise ExamOverError(f"This exam attempt was closed ({status}), by another app on this file.")

    def _end(self, ending: Ending, ended: float) -> ExamResult | None:
        with self.store.write(now=True) as db:
            self._still_open(db)
            close(db, self.key, self.result_id, ending, ended)
        self._closed()
        if self.online:
            self.send()
        else:
            self._wake()
        return self.result

    def _closed(self) -> ExamResult | None:
        _LIVE.discard(self.uid)
        _release(self.lock)
        self._result = get_result(self.store, self.result_id)
        return self.result


def close(db: Database, key: bytes, result_id: int, ending: Ending, ended: float) -> Status:
    """Close an in-progress result (in the caller's transaction): score it, set its status, and
    chain its end."""
    r = next(iter(db.query("SELECT * FROM exam_results WHERE id = ?", (result_id,))))
    answers = list(db.query("SELECT * FROM exam_answers WHERE result_id = ?", (result_id,)))
    score = exam_score(answers, r["item_count"], r["pass_mark"])
    status, passed = verdict(ending, score)
    ended = max(float(ended), r["started"])
    # a sitting's proof of its start code, of the result as it ends; the key goes with the end
    proof = (prove(bytes.fromhex(r["proof_key"]), portable({**r, "status": status.value}, answers))
             if r.get("proof_key") else None)
    stream(db, result_id, ending=ending)
    cur = db.execute("UPDATE exam_results SET ended = ?, status = ?, passed = ?, critical = ?, "
                     "procedure = ?, payouts = ?, speed = ?, total = ?, rule = ?, proof = ?, "
                     "proof_key = NULL WHERE id = ? AND status = 'in-progress'",
                     (ended, status.value, int(passed), int(score.critical), score.procedure, score.payouts,
                      score.speed, score.total, score.rule, proof, result_id))
    if cur.rowcount != 1:
        raise ExamOverError(f"Exam result {result_id} has already ended.")
    chain(db, key, "end", result_id)
    return status


def stream(db: Database, result_id: int, *, answer_id: int | None = None,
           ending: Ending | None = None) -> None:
    """Queue the next step of a sitting the class server keeps a record of (its `class_start`),
    in the caller's transaction: an answer (its row) or the end, with the step's link
    (trainer.exams.proof.link), while the attempt holds its proof key. Nothing for any other
    result."""
    r = db.execute("SELECT proof_key, class_start, item_count, sitting FROM exam_results WHERE id = ?",
                   (result_id,)).fetchone()
    if r is None or r[0] is None or r[1] is None:
        return
    sitting = json.loads(r[3])
    answered = db.execute("SELECT count(*) FROM exam_stream WHERE result_id = ? AND answer_id IS NOT NULL",
                          (result_id,)).fetchone()[0]
    step = answered + 2  # 1 is the start; then the answers in the order given; then the end
    db.execute("INSERT INTO exam_stream (result_id, step, class_uid, answer_id, ending, link) "
               "VALUES (?, ?, ?, ?, ?, ?)",
               (result_id, step, str(sitting.get("class")), answer_id,
                None if ending is None else ending.value, link(bytes.fromhex(r[0]), r[2], step).hex()))


def close_interrupted(store: Store, key: bytes) -> list[int]:
    """Close as "abandoned" every attempt left "in-progress" by an app that stopped (a crash, a
    power cut), keeping its answers; the ids closed. Its end time is its last answer's (or its
    start): nothing is known of it after that."""
    closed = []
    for r in store.query("SELECT id, uid FROM exam_results WHERE status = 'in-progress' ORDER BY id"):
        if r["uid"] in _LIVE:
            continue
        lock = attempt_lock(store, r["uid"])
        try:
            lock.acquire()
        except Timeout:
            continue  # another copy of the app is sitting it now
        try:
            with store.write() as db:
                row = db.execute("SELECT r.status, max(r.started, coalesce(max(a.answered), 0)) "
                                 "FROM exam_results r LEFT JOIN exam_answers a ON a.result_id = r.id "
                                 "WHERE r.id = ?",
                                 (r["id"],)).fetchone()
                if row[0] != Status.IN_PROGRESS:
                    continue
                close(db, key, r["id"], Ending.LEFT, row[1])
        finally:
            _release(lock)
        closed.append(r["id"])
    return closed
