"""The exam ledger on the class server (migration s002_exam_ledger): the sittings an instructor
issued and the sittings used, as rows only ever added. The number of attempts a trainee has had
at a form is the number of sittings issued to them: no workstation, and no role of the server,
can take one back (the rows cannot be changed or removed), and a sitting is used once (its use
is a row keyed by its nonce).

These are the server's halves of trainer.exams.certify's `issue_sitting` (which counts the
attempts used, then records the signed token) and `certify` (which marks a sitting used).

What a workstation does (its login reads no table and writes none; migration
s004_exam_ledger_for_workstations gives it functions that check as they write):

- `attempts_used`: the attempts counted at a form, sittings issued and unsigned attempts started;
- `start_sitting`: a sitting starts on a workstation: the server refuses one not issued in this
  class, issued to someone else or for another form, expired by the server's clock, or already
  used, and one registered with a verifier (s012) unless the start proves its start code; the
  sitting's attempt number, and the server's own nonce for the start (`Opened`); for a sitting
  with a verifier, the share its items are sealed under too (s027), released only here, with the
  start recorded;
- `sitting_step`: each answer of a started sitting, and its end, proven the same way, kept as
  first received (a second answer to an item is refused, and the refusal kept);
- `start_attempt`: an attempt with no sitting starts: counted, and refused at a form the
  instructor did not give to the class (`give_form`, s007) or past the allowance the class keeps
  for it; its attempt number.

Both check the caller first (s006_exam_starts_bound_to_trainee_logins): a trainee's own login
starts exams for that trainee only, and the shared workstation login starts no exam without a
sitting for a trainee who has a login of their own.

And the instructors' certificates, kept insert-only (`add_certificate`, `certificates`): the
server has no key and checks no signature; whoever reads them checks them with the public key.
Before signing, an instructor asks `sitting_use`: how the server saw the sitting (issued to whom,
for which form, used for which result, certified already), so that a result whose start the
server never counted, or a second result for one use, is refused before anything is signed; and
`sitting_record`: the answers and end the server received first, which is what is certified.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import psycopg
from psycopg import sql

from trainer.classes.errors import ClassServerError
from trainer.classes.server.failures import passing
from trainer.classes.server.sql import value
from trainer.progress.columns import EXAM_SITTINGS
from trainer.progress.records import clean_name

SITTING_COLUMNS = EXAM_SITTINGS.names(local=False)


def attempts_used(conn: psycopg.Connection, trainee_name: str, form_uid: str) -> int:
    """The attempts the class counts for the trainee at the form: every sitting issued and every
    attempt started without one. Only the staff read anyone's; a trainee's login its own, a
    workstation's the trainees it serves (s018): the others are refused (insufficient_privilege)."""
    return value(conn.execute("SELECT exam_attempts_of(%s, %s)", (trainee_name, form_uid)))


def attempts_issued(conn: psycopg.Connection, trainee_name: str, form_uid: str) -> int:
    """The attempts the class numbered for the trainee at the form, voided sittings included (a
    staff's read): a new sitting's attempt number comes after them."""
    return value(conn.execute("SELECT exam_attempts_used(%s, %s)", (trainee_name, form_uid)))


def _refused(e: psycopg.errors.RaiseException) -> ClassServerError:
    return ClassServerError(str(e).strip().splitlines()[0])


def _instructor_record(conn: psycopg.Connection, function: str, what: str, reason: str, *,
                       doing: str, not_yet: str, only: str) -> None:
    """An instructor's call that records `what` with a reason kept with it (give back, void,
    abandon): ClassServerError says why not, in words ("{doing} needs a reason", "this class
    server {not_yet}", "only an instructor's login {only}", or the server's own refusal)."""
    why = clean_name(" ".join(reason.split()))
    if not why:
        raise ClassServerError(f"{doing} needs a reason (it is kept with it)")
    try:
        with conn.transaction():
            conn.execute(sql.SQL("SELECT {}(%s, %s)").format(sql.Identifier(function)), (what, why))
    except psycopg.errors.UndefinedFunction:
        raise ClassServerError(f"this class server {not_yet}: start it with this version "
                               "(dealer-trainer class-server) to bring it up to date") from None
    except psycopg.errors.RaiseException as e:
        raise _refused(e) from None
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError(f"only an instructor's login {only}") from None


def class_uid(conn: psycopg.Connection) -> str:
    """The class's own id (a class server keeps it for its life; its address may change)."""
    return value(conn.execute("SELECT uid FROM class_info"))


@dataclass(frozen=True)
class Opened:
    """The class server's record of a sitting's start, as its start call answers it: the
    sitting's `attempt` number; for a sitting with a verifier (s012), the server's own nonce of
    the start (`opened`), when it recorded it by its own clock (`started`, seconds since 1970) and
    the share its items are sealed under (`share`, s027; None for one issued before shares, or
    on a server before s027); all None for a sitting issued without a verifier."""

    attempt: int
    opened: str | None = None
    started: float | None = None
    share: bytes | None = None


def start_sitting(conn: psycopg.Connection, nonce: str, trainee_name: str, form_digest: str | None,
                  result_uid: str, proof: bytes | None = None, *,
                  in_class: str | None = None) -> Opened:
    """A workstation starts a sitting (marks it used, for this result, s012): the server's record
    of the start (`Opened`). `proof`: the first link of the sitting's chain
    (trainer.exams.proof.link), which a sitting with a verifier needs: such a start is asked of
    `open_exam_sitting` (s027), which returns the sitting's share with it, and for a start it
    recorded already for this result and link (and nothing after it) the same record again;
    `form_digest` may then be None (the sealed form is not read yet: the server checks its own).
    `in_class`: the class the token names, which must be this one. ClassServerError says why
    the server refuses it."""
    if in_class is not None and class_uid(conn) != in_class:
        raise ClassServerError("this sitting was issued in another class than the one this "
                               "workstation is joined to")
    try:
        if proof is not None and value(conn.execute(
                "SELECT to_regproc('open_exam_sitting') IS NOT NULL")):
            started = value(conn.execute("SELECT open_exam_sitting(%s, %s, %s, %s, %s)",
                                         (nonce, trainee_name, form_digest, result_uid, proof)))
            share = started.get("share")
            return Opened(started["attempt"], started["opened"], started["started"],
                          None if share is None else bytes.fromhex(share))
        started = value(conn.execute("SELECT start_exam_sitting(%s, %s, %s, %s, %s)",
                                     (nonce, trainee_name, form_digest, result_uid, proof)))
    except psycopg.errors.RaiseException as e:
        raise _refused(e) from None
    return Opened(started["attempt"], started["opened"])


def sitting_step(conn: psycopg.Connection, nonce: str, step: int, proof: bytes, *,
                 position: int | None = None, log: str | None = None, ending: str | None = None) -> str:
    """Send one step of a started sitting (s012): an answer (`position`, its `log` as JSON text)
    or its end (`ending`), with the step's link. What the server says: "recorded" (now, or it
    was already, the same), or "refused: why" (first wins: the server keeps the refusal when it
    can be the sitting's own, s038: a step not taken yet, from the login that started it, once).
    ClassServerError when the server refuses the step itself (its link does not verify, a step
    before it is missing, it is malformed): nothing is written then. A refusal for a passing
    reason (failures.passing: the server could not record it now, and kept nothing) is the
    driver's error, as a lost connection is: the step is to be sent again."""
    kind = "answer" if ending is None else "end"
    try:
        return value(conn.execute("SELECT exam_sitting_step(%s, %s, %s, %s, %s, %s, %s)",
                                  (nonce, step, proof, kind, position, log, ending)))
    except psycopg.errors.RaiseException as e:
        if passing(e):
            raise
        raise _refused(e) from None


def start_attempt(conn: psycopg.Connection, result_uid: str, trainee_name: str, form_uid: str) -> int:
    """A workstation starts an attempt with no sitting: counted; its attempt number.
    ClassServerError when the form was not given to the class, or the trainee has had every
    attempt the class's record of it allows (`give_form`)."""
    try:
        return value(conn.execute("SELECT start_exam_attempt(%s, %s, %s)",
                                  (result_uid, trainee_name, form_uid)))
    except psycopg.errors.RaiseException as e:
        raise _refused(e) from None


def give_form(conn: psycopg.Connection, uid: str, digest: str, name: str, attempts_allowed: int,
              *, given_by: str | None = None) -> bool:
    """An instructor gives a form to the class (s007): exams with no sitting may start at it,
    each trainee as many times as it allows. True when given now, False when it was already;
    ClassServerError when another form of that id was given (forms never change: a different
    exam is a new form). `given_by` names who gave it, for the class server's own gift of the
    bundled forms (its superuser connection); an instructor's login is recorded as itself."""
    columns = "form_uid, form_digest, name, attempts_allowed" + (", given_by" if given_by else "")
    values = (uid, digest, name, attempts_allowed) + ((given_by,) if given_by else ())
    with conn.transaction():
        added = conn.execute(f"INSERT INTO exam_forms_given ({columns}) VALUES "
                             f"({', '.join(['%s'] * len(values))}) ON CONFLICT (form_uid) DO NOTHING "
                             "RETURNING form_uid", values).fetchone()
        if added is not None:
            return True
        kept = value(conn.execute("SELECT form_digest FROM exam_forms_given WHERE form_uid = %s",
                                  (uid,)))
    if kept != digest:
        raise ClassServerError(f"another form with the id {uid} was given to this class: {name!r} "
                               "differs from it (a different exam is a new form)")
    return False


def standing(conn: psycopg.Connection, trainee_name: str,
             form_uids: list[str]) -> dict[str, tuple[int, int | None]]:
    """For each form, the attempts the class counts for the trainee and those it allows (None:
    not given to the class), on one connection: what a list of exams shows."""
    return {uid: tuple(conn.execute("SELECT exam_attempts_of(%s, %s), exam_attempts_allowed(%s)",
                                    (trainee_name, uid, uid)).fetchone())
            for uid in form_uids}


def attempts_allowed(conn: psycopg.Connection, form_uid: str) -> int | None:
    """The attempts the class allows at a form given to it; None when it was not given."""
    return value(conn.execute("SELECT exam_attempts_allowed(%s)", (form_uid,)))


def sitting_use(conn: psycopg.Connection, nonce: str) -> dict | None:
    """How the class saw a sitting (an instructor's or supervisor's read): None when it was never
    issued here; else its `trainee`, form `digest` and `attempt`, the result it was `used` for
    (None: never started on the server), the result its certificate is for (`certified`,
    None: none yet) and how it was `voided` (as `voiding`; None: it was not)."""
    row = conn.execute("SELECT s.trainee_name, s.form_digest, s.attempt, u.result_uid, c.result_uid "
                       "FROM exam_sittings s LEFT JOIN exam_sitting_uses u ON u.nonce = s.nonce "
                       "LEFT JOIN exam_certificates c ON c.nonce = s.nonce WHERE s.nonce = %s",
                       (nonce,)).fetchone()
    if row is None:
        return None
    return {**dict(zip(("trainee", "digest", "attempt", "used", "certified"), row, strict=True)),
            "voided": voiding(conn, nonce)}


def sitting_record(conn: psycopg.Connection, nonce: str) -> dict | None:
    """The class server's record of a sitting whose start code it checks (s012), as first
    received (an instructor's or supervisor's read); None for a sitting it keeps no record of
    (issued without a verifier, or not here). `opened`: the server's nonce of its start (None:
    not started), `result`: the result it was started for, `answers`: {position: its log, as
    JSON text}, `ending`: how it ended (None: no end received yet), `ended_step`: the step that
    ended it (None: not ended), `refused`: what it refused,
    one line each, and `refused_answers` the answers among them (`step`, `position`, `why`, and
    `bytes`: the answer's size when it was refused for being over an item's bounds, s034, else
    None);
    `late`: {position: seconds after the time limit} of the answers that reached the server
    after it and its allowance (s014), `ended_late` the same of the end (None: on
    time, or not received), `time_limit` the limit the server keeps (None: registered before
    s014, not kept), `allowance` the seconds it allows for delivery, `delivered_late`: {position:
    seconds after the time limit} of the answers that reached it after the limit but within the
    allowance (counted, and named on the certificate), and `over`: the seconds
    since the time limit and the allowance ran out by the server's clock, now (None: not yet, or
    no limit kept): whatever reaches the server from then on is late. `started`: when its start
    reached the server, by the server's clock (None: not started); `received`: {position: the
    seconds from it to the answer's arrival, by the same clock}."""
    found = conn.execute(
        "SELECT l.time_limit, exam_queue_allowance(), extract(epoch FROM clock_timestamp()) "
        "- (s.received + l.time_limit + exam_queue_allowance()), s.received FROM exam_sitting_links l "
        "LEFT JOIN exam_sitting_steps s ON s.nonce = l.nonce AND s.step = 1 WHERE l.nonce = %s",
        (nonce,)).fetchone()
    if found is None:
        return None
    record: dict = {"opened": None, "result": None, "answers": {}, "ending": None, "ended_step": None,
                    "refused": [],
                    "late": {}, "ended_late": None, "time_limit": found[0], "allowance": found[1],
                    "over": found[2] if found[2] is not None and found[2] > 0 else None,
                    "started": found[3], "delivered_late": {}, "received": {}}
    limit = None if found[0] is None or found[3] is None else found[3] + found[0]
    for step, kind, opened, result, position, answer, ending, late, received in conn.execute(
            "SELECT step, kind, opened, result_uid, position, answer, ending, late, received "
            "FROM exam_sitting_steps WHERE nonce = %s ORDER BY step", (nonce,)):
        if kind == "start":
            record.update(opened=opened, result=result)
        elif kind == "answer":
            record["answers"][position] = answer
            if found[3] is not None and received is not None:
                record["received"][position] = received - found[3]
            if late is not None:
                record["late"][position] = late
            elif limit is not None and received > limit:  # after the limit, within the allowance
                record["delivered_late"][position] = received - limit
        else:
            record.update(ending=ending, ended_late=late, ended_step=step)
    refusals = conn.execute("SELECT step, kind, position, reason, answer_bytes FROM exam_sitting_refusals "
                            "WHERE nonce = %s ORDER BY id", (nonce,)).fetchall()
    record["refused"] = [f"step {step}: {reason}" for step, _, _, reason, _ in refusals]
    record["refused_answers"] = [{"step": step, "position": position, "why": reason, "bytes": size}
                                 for step, kind, position, reason, size in refusals if kind == "answer"]
    record["abandoned"] = abandonment(conn, nonce)
    return record


def abandonment(conn: psycopg.Connection, nonce: str) -> dict | None:
    """How the instructor recorded a sitting abandoned (s015): its `reason`, when (`recorded`)
    and by which login (`by`); None when not (or on a server before s015)."""
    if value(conn.execute("SELECT to_regclass('exam_sitting_abandonments') IS NULL")):
        return None
    row = conn.execute("SELECT reason, recorded, login FROM exam_sitting_abandonments WHERE nonce = %s",
                       (nonce,)).fetchone()
    return None if row is None else {"reason": row[0], "recorded": row[1], "by": row[2]}


def voiding(conn: psycopg.Connection, nonce: str) -> dict | None:
    """How the instructor voided a sitting (s019): its `reason`, when (`recorded`) and by which
    login (`by`); None when not (or on a server before s019)."""
    return voided_sittings(conn, nonce).get(nonce)


def voided_sittings(conn: psycopg.Connection, nonce: str | None = None) -> dict[str, dict]:
    """Every sitting voided in the class (or the one `nonce`), as `voiding` gives each, by its
    nonce (an instructor's or supervisor's read; none on a server before s019)."""
    if value(conn.execute("SELECT to_regclass('exam_sitting_voids') IS NULL")):
        return {}
    rows = conn.execute("SELECT nonce, reason, recorded, login FROM exam_sitting_voids "
                        "WHERE %(nonce)s::text IS NULL OR nonce = %(nonce)s", {"nonce": nonce})
    return {r[0]: {"reason": r[1], "recorded": r[2], "by": r[3]} for r in rows}


def starts_spent(conn: psycopg.Connection) -> list[dict]:
    """Every attempt started with no sitting and not given back (an instructor's or supervisor's
    read, s004, s026): its `result` id, `trainee`, `form`, `attempt` and when it was `started`,
    oldest first."""
    given_back = "" if value(conn.execute("SELECT to_regclass('exam_start_voids') IS NULL")) else \
        "WHERE NOT EXISTS (SELECT 1 FROM exam_start_voids v WHERE v.result_uid = s.result_uid) "
    rows = conn.execute("SELECT result_uid, trainee_name, form_uid, attempt, started FROM exam_starts s "
                        + given_back + "ORDER BY started, result_uid")
    return [{"result": r[0], "trainee": r[1], "form": r[2], "attempt": r[3], "started": r[4]}
            for r in rows]


def give_back_start(conn: psycopg.Connection, result_uid: str, reason: str) -> None:
    """Give back an attempt started with no sitting (s026, an instructor's call), with the
    reason, kept with it: it no longer counts against the form's attempts, for an exam with no
    sitting or a sitting. ClassServerError says why not (not started here with no sitting, given
    back already, no reason, not an instructor)."""
    _instructor_record(conn, "void_exam_start", result_uid, reason, doing="giving an attempt back",
                       not_yet="gives no attempt back yet", only="gives an attempt back")


def void_sitting(conn: psycopg.Connection, nonce: str, reason: str) -> None:
    """Void a sitting (s019, an instructor's call), with the reason: its attempt is given back,
    and it is never started nor certified. ClassServerError says why not (not issued here,
    certified already, voided already, no reason, not an instructor)."""
    _instructor_record(conn, "void_exam_sitting", nonce, reason, doing="voiding a sitting",
                       not_yet="voids no sitting yet", only="voids a sitting")


def unended_sittings(conn: psycopg.Connection) -> list[dict]:
    """Every sitting started on the class server (s012) that has not ended there nor was voided
    (s019), oldest start first (an instructor's or supervisor's read): its `nonce`, `trainee`,
    `form` (the name the class gave it, else its uid; `form_uid`), `attempt`, when it `started`
    (the server's clock), the `answers` received of its `items`, the last `received`, `abandoned`
    (as `abandonment`) and `over` (as `sitting_record`'s: the seconds since its time limit and the
    queue's allowance ran out by the server's clock; None: not yet, or no limit kept)."""
    abandoned = not value(conn.execute("SELECT to_regclass('exam_sitting_abandonments') IS NULL"))
    voids = not value(conn.execute("SELECT to_regclass('exam_sitting_voids') IS NULL"))
    rows = conn.execute(
        "SELECT l.nonce, s.trainee_name, coalesce(g.name, s.form_uid), s.attempt, st.received, l.items, "
        "s.form_uid, "
        "(SELECT count(*) FROM exam_sitting_steps a WHERE a.nonce = l.nonce AND a.kind = 'answer'), "
        "(SELECT max(received) FROM exam_sitting_steps a WHERE a.nonce = l.nonce), "
        "extract(epoch FROM clock_timestamp()) - (st.received + l.time_limit + exam_queue_allowance()) "
        "FROM exam_sitting_links l JOIN exam_sitting_steps st ON st.nonce = l.nonce AND st.step = 1 "
        "JOIN exam_sittings s ON s.nonce = l.nonce "
        "LEFT JOIN exam_forms_given g ON g.form_uid = s.form_uid "
        "WHERE NOT EXISTS (SELECT 1 FROM exam_sitting_steps e WHERE e.nonce = l.nonce AND e.kind = 'end') "
        + ("AND NOT EXISTS (SELECT 1 FROM exam_sitting_voids v WHERE v.nonce = l.nonce) " if voids else "") +
        "ORDER BY st.received, l.nonce").fetchall()
    return [{"nonce": r[0], "trainee": r[1], "form": r[2], "attempt": r[3], "started": r[4], "items": r[5],
             "form_uid": r[6], "answers": r[7], "received": r[8],
             "over": r[9] if r[9] is not None and r[9] > 0 else None,
             "abandoned": abandonment(conn, r[0]) if abandoned else None}
            for r in rows]


def finished_sittings(conn: psycopg.Connection) -> list[dict]:
    """Every sitting started on the class server (s012) that is over there (ended, recorded
    abandoned, or past its time limit and the queue's allowance by the server's clock), with no
    certificate and not voided, whichever instructor's file issued it, oldest issue first (an
    instructor's or supervisor's read): each its columns as `SITTING_COLUMNS` (the file's
    trainer.progress.columns.EXAM_SITTINGS), what `certify --class` certifies or names."""
    abandoned = not value(conn.execute("SELECT to_regclass('exam_sitting_abandonments') IS NULL"))
    voids = not value(conn.execute("SELECT to_regclass('exam_sitting_voids') IS NULL"))
    rows = conn.execute(
        f"SELECT {', '.join('s.' + c for c in SITTING_COLUMNS)} FROM exam_sittings s "
        "JOIN exam_sitting_links l ON l.nonce = s.nonce "
        "JOIN exam_sitting_steps st ON st.nonce = s.nonce AND st.step = 1 "
        "WHERE NOT EXISTS (SELECT 1 FROM exam_certificates c WHERE c.nonce = s.nonce) "
        + ("AND NOT EXISTS (SELECT 1 FROM exam_sitting_voids v WHERE v.nonce = s.nonce) " if voids else "")
        + "AND (EXISTS (SELECT 1 FROM exam_sitting_steps e WHERE e.nonce = s.nonce AND e.kind = 'end') "
        + ("OR EXISTS (SELECT 1 FROM exam_sitting_abandonments a WHERE a.nonce = s.nonce) "
           if abandoned else "")
        + "OR extract(epoch FROM clock_timestamp()) > st.received + l.time_limit + exam_queue_allowance()) "
        "ORDER BY s.issued, s.nonce").fetchall()
    return [dict(zip(SITTING_COLUMNS, r, strict=True)) for r in rows]


def abandon_sitting(conn: psycopg.Connection, nonce: str, reason: str) -> None:
    """Record a started sitting that never ended as abandoned (s015, an instructor's call), with
    the reason: it counts as a fail. ClassServerError says why not (not started here, ended,
    recorded already, no reason, not an instructor)."""
    _instructor_record(conn, "abandon_exam_sitting", nonce, reason, doing="recording a sitting abandoned",
                       not_yet="records no abandoned sitting yet", only="records a sitting abandoned")


def sitting_state(conn: psycopg.Connection, nonce: str) -> dict:
    """What certifying a sitting asks the class, in one visit: the class's id (`class`), how it
    saw the sitting (`use`, as `sitting_use`) and its record (`record`, as `sitting_record`)."""
    return {"class": class_uid(conn), "use": sitting_use(conn, nonce), "record": sitting_record(conn, nonce)}


def add_certificate(conn: psycopg.Connection, certificate: dict, *, at: float | None = None) -> None:
    """Keep an instructor's certificate (as trainer.exams.certify signs it); one per sitting:
    ClassServerError when the sitting already has one (certified on another machine)."""
    try:
        with conn.transaction():
            conn.execute("INSERT INTO exam_certificates (result_uid, nonce, trainee_name, signer, "
                         "certificate, signed) VALUES (%s, %s, %s, %s, %s, %s)",
                         (str(certificate.get("result")), str(certificate.get("sitting")),
                          str(certificate.get("trainee")),
                          str((certificate.get("signer") or {}).get("fingerprint")),
                          json.dumps(certificate, ensure_ascii=False),
                          time.time() if at is None else at))
    except psycopg.errors.UniqueViolation:
        raise ClassServerError(f"sitting {certificate.get('sitting')} already has a certificate in "
                               "this class") from None


def certificates(conn: psycopg.Connection) -> list[dict]:
    """Every certificate the class keeps, oldest first, as signed (not checked here)."""
    return [json.loads(r[0]) for r in conn.execute("SELECT certificate FROM exam_certificates "
                                                    "ORDER BY signed, result_uid")]


def record_sitting(conn: psycopg.Connection, sitting: dict,
                   verifier: tuple[int, bytes, int] | None = None, share: bytes | None = None) -> None:
    """Add an issued sitting (its columns as trainer.progress.columns.EXAM_SITTINGS's) and, for
    one whose start code is proven to the server (s012), its `verifier`: (its item count, the
    chain's last link, trainer.exams.proof.link(..., 0), and the form's time limit in seconds,
    which the server keeps by its own clock, s014), and the `share` its items are sealed under
    (s027), which the server releases only with the sitting's start. Its attempt number must be
    the next: two instructors issuing the same attempt at once, one is refused."""
    values = [sitting.get(c) for c in SITTING_COLUMNS]
    try:
        with conn.transaction():
            conn.execute(f"INSERT INTO exam_sittings ({', '.join(SITTING_COLUMNS)}) "
                         f"VALUES ({', '.join(['%s'] * len(values))})", values)
            if verifier is not None:
                conn.execute("INSERT INTO exam_sitting_links (nonce, items, verifier, time_limit) "
                             "VALUES (%s, %s, %s, %s)", (sitting.get("nonce"), *verifier))
            if share is not None:
                conn.execute("INSERT INTO exam_sitting_shares (nonce, share) VALUES (%s, %s)",
                             (sitting.get("nonce"), share))
    except psycopg.errors.UniqueViolation:
        raise ClassServerError(f"attempt {sitting.get('attempt')} of {sitting.get('trainee_name')!r} at "
                               "this form was already issued") from None
    except psycopg.errors.UndefinedTable:
        raise ClassServerError("this class server keeps no sealed sitting's share yet: start it with "
                               "this version (dealer-trainer class-server) to bring it up to date; "
                               "no sitting was issued") from None


def use_sitting(conn: psycopg.Connection, nonce: str, result_uid: str, *, at: float | None = None) -> None:
    """Mark a sitting used, for this result; ClassServerError if it was used before or never
    issued."""
    try:
        with conn.transaction():
            conn.execute("INSERT INTO exam_sitting_uses (nonce, result_uid, used) VALUES (%s, %s, %s)",
                         (nonce, result_uid, time.time() if at is None else at))
    except psycopg.errors.UniqueViolation:
        raise ClassServerError("this sitting was already used") from None
    except psycopg.errors.ForeignKeyViolation:
        raise ClassServerError("this sitting was not issued by this class's ledger") from None
