"""Certification on the instructor's side: signed forms, one-time sitting tokens, and results
re-graded from their action logs and signed with the instructor's Ed25519 key.

The trainee controls the workstation (its files, its clock, its copy of the engine), so nothing
the workstation says is taken on trust:

- **Forms** are signed by the instructor (`sign_form`); a workstation runs only a form whose
  signature checks with a public key it was given (`open_signed_form`): a form edited to a pass
  mark of 0 or 99 attempts no longer verifies, whatever digest is written beside it.
- **Sittings**: the instructor issues one signed token per attempt (`issue_sitting`: trainee,
  form digest, attempt number, nonce, expiry; for a pool the ledger keeps the draw,
  `sitting_form`) and
  keeps the ledger of attempts in the instructor's own file (progress schema m007). Deleting or
  restoring a workstation's files gains nothing: the attempts used are counted here.
- **Results** are re-graded (`certify`): every item's recorded action log is graded again by
  the instructor's own engine against the instructor's own copy of the form; the scores in the
  file are ignored. A result whose token was not issued here, was issued for someone else or
  another form, or was already used, is refused by name. The certificate is the re-graded
  record signed with the instructor's key, which anyone can check with the public key alone
  (`verify_certificate`, `dealer-trainer verify-results FILE --public-key KEY`).

- **In a class** (`classroom=`, the app's ClassConnection): the ledger is the class server's
  (trainer.exams.classledger): a sitting's attempt is counted by the class and recorded there,
  its token names the class, and certificates are kept there too (`class_certificates` reads
  them back, each checked with the reader's trusted keys), so neither a workstation's files nor
  the instructor's own file can give an attempt back.

What the workstation still decides: which actions were logged and when (its clock times the
items), which is why exams belong on machines trainees do not administer (README, "Exams").
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from trainer.errors import RequestError, shown
from trainer.exams.classledger import (
    Server,
    class_named,
    counted_late,
    delivered_late,
    kept_answers,
    not_as_recorded,
    not_certifiable,
    refused_unanswered,
    unended_line,
    watched_too_soon,
)
from trainer.exams.errors import (
    ClassLedgerError,
    ExamError,
    FormError,
    FormFileError,
    NoAttemptsLeftError,
    UncertifiedSittingError,
)
from trainer.exams.forms import FORMAT as FORM_FORMAT
from trainer.exams.forms import VERSION as FORM_VERSION
from trainer.exams.forms import ExamForm, FormItem, dealt_digest, form_from_json
from trainer.exams.formstore import add_form, get_form
from trainer.exams.keys import InstructorKey, PublicKey
from trainer.exams.proof import (
    DEAL_PER_SITTING,
    class_share,
    code_check,
    deals_per_sitting,
    drawn_digest,
    link,
    names_form,
    proof_holds,
    proof_key,
    start_code,
)
from trainer.exams.records import Status
from trainer.exams.scoring import Ending, exam_score, verdict
from trainer.policy import rule
from trainer.progress.records import clean_name
from trainer.progress.rows import READ_ERRORS, read_rows, stored_json
from trainer.progress.store import Store
from trainer.regrade import read_log, regrade
from trainer.supervise.rounds import SupervisedRound
from trainer.supervise.scoring import Flag, FlagsError, Score, flags_from_json, judged

SIGNED_FORM = "dealer-trainer-signed-form"
SITTING = "dealer-trainer-sitting"
CERTIFICATE = "dealer-trainer-certificate"
VERSION = 1
#: a sitting token whose supervise items are dealt for the sitting ("deal": "sitting") is of this
#: version: an app from before (which reads 1 only) refuses it, where it would have sat it on the
#: form's seeds and been certified on the sitting's (a false fail); any other token is of VERSION,
#: which that app sits as before. A token of version 1 with "deal" (issued before the version was
#: raised) is dealt for its sitting still.
DEALT_VERSION = 2
SITTING_VERSIONS = (VERSION, DEALT_VERSION)
#: what a sitting token of a version this app does not read says, before the version
NEWER_SITTING = "this sitting needs a newer Dealer Trainer"
#: how long a sitting token may be used to start the exam, by default
VALID_FOR = 4 * 3600
#: how long after a sitting's expiry its result may still be certified, by default: the
#: workstation's clock is not trusted, so a token kept and sat days late is refused here (an
#: instructor who certifies later widens it: `dealer-trainer certify --grace-hours N`)
CERTIFY_WITHIN = 12 * 3600
#: how far a workstation's clock may be from the instructor's when the date an exam was sat is
#: checked against its sitting's issue and expiry
CLOCKS_DIFFER = 15 * 60
ENDINGS = {Status.PASSED: Ending.FINISHED, Status.FAILED: Ending.FINISHED,
           Status.TIMED_OUT: Ending.TIME_UP, Status.ABANDONED: Ending.LEFT}


class CertifyError(ExamError):
    """A form, token or result the instructor's side refuses; str() names what and why."""


def _signer(key: PublicKey) -> dict:
    return {"name": key.name, "public": key.raw.hex(), "fingerprint": key.fingerprint}


def _signed(doc: object, fmt: str, trusted: Sequence[PublicKey], what: str,
            versions: tuple[int, ...] = (VERSION,)) -> dict:
    """The body of a signed document whose signature checks with one of the trusted keys, of one
    of `versions`."""
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise CertifyError(f"not a Dealer Trainer {what}")
    version = doc.get("version")
    if type(version) is not int or version not in versions:
        if fmt == SITTING and type(version) is int and version > max(versions):
            raise CertifyError(f"{NEWER_SITTING} (its token is version {version}; this one reads "
                               f"versions {' and '.join(map(str, versions))})")
        raise CertifyError(f"{what} version {version!r}; this app reads "
                           f"{' and '.join(map(str, versions))}")
    signer = doc.get("signer")
    public = signer.get("public") if isinstance(signer, dict) else None
    key = next((k for k in trusted if k.raw.hex() == public), None)
    if key is None:
        raise CertifyError(f"the {what} is not signed by an instructor key this machine trusts")
    body = {k: v for k, v in doc.items() if k != "signature"}
    if not key.verify(body, doc.get("signature")):
        raise CertifyError(f"the {what}'s signature does not verify: it was changed after "
                           f"{key.name} signed it")
    return body


# --- forms -----------------------------------------------------------------------------------


def sign_form(form: ExamForm, key: InstructorKey) -> dict:
    """The form as a signed form file."""
    body = {"format": SIGNED_FORM, "version": VERSION,
            "form": {"format": FORM_FORMAT, "version": FORM_VERSION, **form.content()},
            "digest": form.digest, "signer": _signer(key.public)}
    return {**body, "signature": key.sign(body)}


def open_signed_form(doc: object, trusted: Sequence[PublicKey], name: str = "the form file") -> ExamForm:
    """The form of a signed form file, if its signature checks with a trusted key."""
    try:
        body = _signed(doc, SIGNED_FORM, trusted, "signed form")
    except CertifyError as e:
        raise FormFileError(f"{name}: {e}", path=name) from None
    form = form_from_json(body.get("form"), name)
    if form.digest != body.get("digest"):
        raise FormFileError(f"{name}: its digest does not match its content", path=name)
    return form


# --- sittings --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sitting:
    nonce: str
    trainee: str
    form_uid: str
    form_digest: str
    attempt: int
    issued: float
    expires: float
    signer: str  # fingerprint
    proof: bool = False  # its result must prove the start code was known (trainer.exams.proof)


def issue_sitting(store: Store, key: InstructorKey, form: ExamForm, trainee: str, *,
                  now: float | None = None, valid_for: float = VALID_FOR, classroom=None,
                  proof: bool = True, after_uncertified: bool = False) -> dict:
    """A signed, one-time token for the trainee's next attempt at the form, recorded in the
    ledger. NoAttemptsLeftError when the ledger shows every attempt the form allows issued.
    `proof` (the default): its result must prove it was opened with the start code
    (trainer.exams.proof), which the sitting file's writer derives from `key`.
    Joined to a class (`classroom`), the class server counts the attempts and records the
    sitting before this file does; ExamOfflineError when it cannot be reached (nothing issued).
    FormError for a form retired (archived) here. In a class, UncertifiedSittingError (naming it)
    while the trainee has a sitting of the form that ended on the server and is not certified,
    unless `after_uncertified`: a fail nobody handed in is not passed over without a word."""
    name = clean_name(trainee)
    if not name:
        raise CertifyError("a sitting needs the trainee's name")
    add_form(store, form)  # the instructor's own copy, for re-grading
    if get_form(store, form.uid).archived:
        raise FormError(f"{form.name!r} is retired: no sitting of it is issued (bring it back to "
                        "issue one); the sittings issued before it was retired stay good")
    now = time.time() if now is None else float(now)
    nonce = secrets.token_hex(16)
    positions = form.draw_positions()
    sat = form.drawn(positions)
    with store.write() as db:
        mine = [r[0] for r in db.execute("SELECT nonce FROM exam_sittings WHERE trainee_name = ? "
                                         "AND form_uid = ?", (name, form.uid))]
        used = numbered = len(mine)
        in_class, open_ = {}, []
        if classroom is not None:
            with Server(f"Sittings are issued on the class server, which cannot be reached now "
                        f"({classroom.address.shown}): no sitting was issued"):
                # a sitting the class voided gives its attempt back; the next is numbered after it
                voided = classroom.voided_sittings()
                used = max(len([n for n in mine if n not in voided]), classroom.attempts_used(name, form.uid))
                numbered = max(numbered, classroom.attempts_issued(name, form.uid))
                in_class = {"class": classroom.class_uid()}
                # a sitting past its time (and the queue's allowance) by the server's clock has
                # ended, timed out, as certify --class certifies it: it holds up nothing
                open_ = [r for r in classroom.unended_sittings() if r["trainee"] == name
                         and r["form_uid"] == form.uid and not r["abandoned"] and r.get("over") is None]
            if open_:  # a withheld fail is not turned into a fresh sitting without a word
                raise ClassLedgerError(
                    f"{name} has a sitting of {form.name!r} started on the class server and not ended "
                    f"({unended_line(open_[0], now)}): no sitting was issued. Once its last answers "
                    "are in, certify it; if they never will be, record it abandoned first (a fail): "
                    f"dealer-trainer abandon-sitting {open_[0]['nonce']} --reason TEXT --class URL")
        if used >= form.attempts_allowed:
            raise NoAttemptsLeftError(
                f"{name} has had every attempt at {form.name!r} ({form.attempts_allowed}): no "
                "sitting was issued")
        if classroom is not None and not after_uncertified:
            ended = _ended_uncertified(classroom, db, name, form.uid)
            if ended is not None:
                earlier, use = ended
                raise UncertifiedSittingError(
                    f"{name} has a sitting of {form.name!r} (attempt {use['attempt']}, sitting "
                    f"{earlier}) that ended on the class server and is not certified", earlier)
        code = start_code(key, nonce) if proof else None
        # what the start dialog says of the exam before its sealed items are opened
        named = {"uid": form.uid, "name": form.name, "digest": sat.digest, "item_count": len(sat.items),
                 "time_limit_seconds": sat.time_limit_seconds, "attempts_allowed": form.attempts_allowed,
                 # of a pool, its whole pool's: the token tells nothing of the draw
                 **({"supervise_items": len(form.supervised)} if form.supervised else {})}
        if code is not None and form.draw:  # a pool's draw, named so that only the code tells it
            named.update(digest=drawn_digest(code, nonce, sat.digest), salted=1)
        dealt = code is not None and bool(form.supervised)
        body = {"format": SITTING, "version": DEALT_VERSION if dealt else VERSION, "nonce": nonce,
                "trainee": name,
                "form": named, "attempt": numbered + 1, "issued": now, "expires": now + valid_for,
                "signer": _signer(key.public), **in_class,
                **({"proof": 1, "code_check": code_check(code, nonce)} if code is not None else {}),
                # its supervise items' faults dealt for this sitting, from what its code gives
                **({"deal": DEAL_PER_SITTING} if dealt else {})}
        token = {**body, "signature": key.sign(body)}
        db.execute("INSERT INTO exam_sittings (nonce, trainee_name, form_uid, form_digest, attempt, "
                   "issued, expires, signer, token, draw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (nonce, name, form.uid, sat.digest, numbered + 1, now, now + valid_for,
                    key.public.fingerprint, json.dumps(token, ensure_ascii=False),
                    json.dumps(positions) if form.draw else None))
        if classroom is not None:  # in the file's transaction: refused or not reached, nothing is kept
            row = next(iter(db.query("SELECT * FROM exam_sittings WHERE nonce = ?", (nonce,))))
            # the server checks the start code by the chain's last link, never by the code
            verifier = None if code is None else \
                (len(sat.items), link(proof_key(code, nonce), len(sat.items), 0), sat.time_limit_seconds)
            with Server("The class server cannot be reached now: no sitting was issued",
                        NoAttemptsLeftError):
                # the share the sealed items need beside the code: released only with the start
                classroom.record_sitting(row, verifier,
                                         None if code is None else class_share(key, nonce))
    return token


def _ended_uncertified(classroom, db, name: str, form_uid: str) -> tuple[str, dict] | None:
    """A sitting of the form this file issued to the trainee that the class server saw started and
    that has no certificate (nor was voided), with how the server saw it; None when there is none.
    A sitting still under way was refused before this is asked."""
    for (nonce,) in db.execute("SELECT nonce FROM exam_sittings WHERE trainee_name = ? AND form_uid = ? "
                               "AND result_uid IS NULL ORDER BY attempt", (name, form_uid)):
        with Server(f"The class server cannot be reached now ({classroom.address.shown}): no "
                    "sitting was issued"):
            use = classroom.sitting_use(nonce)
        if use is not None and use["used"] is not None and use["certified"] is None and not use.get("voided"):
            return nonce, use
    return None


def sitting_form(store: Store, form: ExamForm, token: dict) -> ExamForm:
    """The form a sitting shows: the items the ledger says were drawn for it when the form is a
    pool, else the whole form. This is what goes (signed) into the sitting file, so a workstation
    never receives the rest of the pool; which items were drawn is in the ledger only."""
    try:
        rows = store.query("SELECT draw FROM exam_sittings WHERE nonce = ?", (token["nonce"],))
    except (KeyError, TypeError):
        raise CertifyError("a damaged sitting token (no nonce)") from None
    if not rows:
        raise CertifyError("this sitting token was not issued by this instructor's ledger")
    if rows[0]["draw"] is None:
        return form
    try:
        return form.drawn(stored_json(rows[0]["draw"], "draw"))
    except READ_ERRORS as e:
        raise CertifyError(f"the ledger's record of this sitting's draw is damaged ({e})") from None
    except FormError as e:
        raise CertifyError(f"the sitting's draw does not fit the form: {e}") from None


def dealt_form(form: ExamForm, token: object, key: InstructorKey) -> ExamForm:
    """The form as the sitting `token` showed it: its supervise items' faults dealt for the
    sitting from the proof key its start code gives (trainer.exams.proof `deal_seed`), which the
    instructor's `key` derives again; a sitting issued before that is the form itself."""
    if not isinstance(token, dict) or not deals_per_sitting(token):
        return form
    nonce = str(token["nonce"])
    try:
        return form.dealt_for(proof_key(start_code(key, nonce), nonce))
    except FormError as e:
        raise CertifyError(f"sitting {nonce}: {e}") from None


def read_sitting(token: object, trusted: Sequence[PublicKey]) -> Sitting:
    """The sitting a token grants, if its signature checks (a workstation checks this before an
    exam starts; the instructor checks it again, with the ledger, on import)."""
    body = _signed(token, SITTING, trusted, "sitting token", SITTING_VERSIONS)
    try:
        form = body["form"]
        if not isinstance(body["nonce"], str) or len(body["nonce"]) != 32 or \
                any(c not in "0123456789abcdef" for c in body["nonce"]):
            raise ValueError("its nonce is not 32 hex digits")
        return Sitting(str(body["nonce"]), clean_name(str(body["trainee"])), str(form["uid"]),
                       str(form["digest"]), int(body["attempt"]), float(body["issued"]),
                       float(body["expires"]), signed_by(body).fingerprint, bool(body.get("proof")))
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        raise CertifyError(f"a damaged sitting token ({e})") from None


# --- certification -----------------------------------------------------------------------------


def certify(store: Store, key: InstructorKey, record: object, token: object, *,
            now: float | None = None, classroom=None, within: float = CERTIFY_WITHIN) -> dict:
    """Re-grade a result sat under `token` and sign it; the certificate is stored and returned.
    `record` is the result as the workstation exported it (trainer.exams.records.portable); its
    scores, findings and verdict are ignored. CertifyError names anything refused. Joined to a
    class (`classroom`), the certificate is kept on the class server too, before this file keeps
    it: one per sitting there. Before signing, the server must have seen the sitting used by this
    trainee, for this form, for this result, and not certified yet (CertifyError naming the
    sitting when not); ExamOfflineError when the server cannot be reached (nothing certified)."""
    sitting = read_sitting(token, [key.public])
    named = class_named(token)
    if named is not None and classroom is None:
        raise CertifyError(f"sitting {sitting.nonce} was issued in a class: its result is certified "
                           "with the class (--class), which keeps the sitting as it was first sat")
    rows = store.query("SELECT * FROM exam_sittings WHERE nonce = ?", (sitting.nonce,))
    if not rows:
        raise CertifyError("this sitting token was not issued by this instructor's ledger")
    ledger = rows[0]
    if ledger["result_uid"] is not None:
        raise CertifyError(f"this sitting was already used, for result {ledger['result_uid']}")
    if not isinstance(record, dict):
        raise CertifyError("the result is not a record")
    trainee = clean_name(str(record.get("trainee", "")))
    if trainee != ledger["trainee_name"]:
        raise CertifyError(f"the result is {trainee!r}'s, but the sitting was issued to "
                           f"{ledger['trainee_name']!r}")
    declared = record.get("form")
    if not isinstance(declared, dict) or declared.get("digest") != ledger["form_digest"]:
        raise CertifyError("the result was sat on another form than the sitting's (the form "
                           "digest does not match)")
    form = sitting_form(store, get_form(store, ledger["form_uid"]), token)
    if form.digest != ledger["form_digest"]:
        raise CertifyError("this machine's copy of the form is not the one the sitting names")
    uid = record.get("uid")
    if uid != sitting.nonce:  # a sitting's result is named by its nonce (session.start_exam)
        raise CertifyError("uid: this is not the result sat under this sitting (a result sat "
                           "under a sitting bears the sitting's id)")
    code = start_code(key, sitting.nonce) if sitting.proof else None
    if not names_form(token, ledger["form_digest"], code):
        raise CertifyError("the sitting token names another form than the ledger's sitting")
    if code is not None and not proof_holds(proof_key(code, sitting.nonce), record, record.get("proof")):
        raise CertifyError("proof: this result does not prove its sitting was opened with the "
                           "start code (written without it, or changed after the attempt ended)")
    form = dealt_form(form, token, key)
    status = record.get("status")
    ending = next((e for s, e in ENDINGS.items() if s == status), None)  # a list is no key
    given = record.get("answers")
    late = None  # what reached the class server after the time limit (s014)
    delivered = None  # what reached it after the limit, within the allowance for delivery
    unusable = None  # what the class server holds that cannot be re-graded
    soon = None  # supervise answers that reached it sooner than their rounds could be watched
    if classroom is not None:  # the server's record of the sitting, before anything is signed
        with Server(f"Certificates are checked on the class server, which cannot be reached now "
                    f"({classroom.address.shown}): nothing was certified", CertifyError):
            state = classroom.sitting_state(sitting.nonce)  # one visit
        if named is not None and state["class"] != named:
            raise CertifyError(f"sitting {sitting.nonce} was issued in another class than the one "
                               "joined here")
        refused = not_certifiable(state["use"], sitting.nonce, trainee, ledger["form_digest"], uid)
        kept = state["record"]
        if refused:
            raise CertifyError(refused)
        if kept is not None:  # what is certified is the server's first record of the sitting
            refused = not_as_recorded(kept, record, sitting.nonce, ending)
            if refused:
                raise CertifyError(refused)
            # an answer that came after the time limit is not answered, one that cannot be
            # re-graded is graded as wrong
            given, unusable = kept_answers(kept, form.supervised)
            given, soon = watched_too_soon(kept, given, form.supervised)
            late, delivered = counted_late(kept), delivered_late(kept)
            if late is not None and not late["ended"]:
                ending = Ending.TIME_UP  # never ended on the server: its time ran out there
            elif late is not None and late["ended_after_limit"] is not None and ending is Ending.FINISHED:
                ending = Ending.TIME_UP  # by the class server's clock, the time ran out first
    if ending is None:
        raise CertifyError(f"status: {shown(status)} is not how an exam ends")
    sat = date_sat(record.get("started"), ledger["issued"], ledger["expires"])
    return _sign(store, key, ledger, form, uid, trainee, given, ending, sat, late, classroom=classroom,
                 now=now, within=within, **({"unusable": unusable} if unusable else {}),
                 **({"delivered_late": delivered} if delivered else {}),
                 **({"too_soon": soon} if soon else {}))


def _sign(store: Store, key: InstructorKey, ledger: dict, form: ExamForm, uid: str, trainee: str,
          given: object, ending: Ending, sat: float, late: dict | None, *, classroom, now: float | None,
          within: float, **more) -> dict:
    """Re-grade the answers `given` of the sitting `ledger` (its row in the instructor's file) on
    `form`, sign the certificate, and keep it in the file and, in a class, on the class server
    (one per sitting there). `more`: what else the certificate states."""
    answers = regrade_answers(form, given)
    score = exam_score(answers, len(form.items), form.pass_mark)
    status, passed = verdict(ending, score)
    now = time.time() if now is None else float(now)
    if now > ledger["expires"] + within:
        raise CertifyError(f"this sitting expired {_span(now - ledger['expires'])} ago; a result is "
                           f"certified within {_span(within)} of its sitting's expiry: issue a new "
                           "sitting (or, if it was sat in time, certify with --grace-hours)")
    nonce = ledger["nonce"]
    body = {"format": CERTIFICATE, "version": VERSION, "result": uid, "sitting": nonce,
            "attempt": ledger["attempt"], "trainee": trainee,
            "form": {"uid": form.uid, "name": form.name, "digest": form.digest,
                     "pass_mark": form.pass_mark, "items": len(form.items)},
            "status": status.value, "passed": passed, "critical": score.critical,
            "procedure": score.procedure, "payouts": score.payouts, "speed": score.speed,
            "total": score.total, "answers": answers, "certified": now, "sat": sat,
            "rule": {"number": score.rule, "name": rule(score.rule).name},
            # the roles it certifies, named once a form holds supervise items
            **({"roles": form.roles} if form.supervised else {}),
            **({"late": late} if late is not None else {}), **more,
            "signer": _signer(key.public)}
    certificate = {**body, "signature": key.sign(body)}
    try:
        with store.write() as db:
            db.execute("UPDATE exam_sittings SET result_uid = ?, certified = ? WHERE nonce = ?",
                       (uid, now, nonce))
            db.execute("INSERT INTO exam_certificates (result_uid, nonce, certificate, signed) "
                       "VALUES (?, ?, ?, ?)", (uid, nonce, json.dumps(certificate, ensure_ascii=False), now))
            if classroom is not None:
                with Server("The class server cannot be reached now: nothing was certified",
                            CertifyError):
                    classroom.add_certificate(certificate)
    except sqlite3.IntegrityError:  # another process certified it a moment ago
        raise CertifyError("this sitting was already used") from None
    return certificate


def certify_recorded(store: Store, key: InstructorKey, token: dict, *, classroom,
                     now: float | None = None, held_too: bool = False) -> dict | None:
    """Certify a sitting issued in the class from the class server's record of it alone, with
    nothing handed in (see trainer.exams.classledger, "Certified from the server's record"): a
    sitting that ended there, timed out by the server's clock, or was recorded abandoned (then it
    is certified abandoned, a fail). The certificate, or None when there is nothing to certify yet
    (never started, voided, certified already, still under way). A sitting whose answer the
    server refused, to an item it holds no answer of, is held (CertifyError, naming why:
    `refused_unanswered`) unless `held_too`: then it is certified as recorded, and the
    certificate names the refusals. CertifyError names a refusal; ExamOfflineError when the
    server cannot be reached."""
    sitting = read_sitting(token, [key.public])
    rows = store.query("SELECT * FROM exam_sittings WHERE nonce = ?", (sitting.nonce,))
    if not rows:
        raise CertifyError("this sitting token was not issued by this instructor's ledger")
    ledger = rows[0]
    if ledger["result_uid"] is not None:
        return None
    with Server(f"Certificates are checked on the class server, which cannot be reached now "
                f"({classroom.address.shown}): nothing was certified"):
        state = classroom.sitting_state(sitting.nonce)
    if state["class"] != class_named(token):
        raise CertifyError(f"sitting {sitting.nonce} was issued in another class than the one joined here")
    use, kept = state["use"], state["record"]
    if use is None or use["used"] is None or use.get("voided") or use["certified"] is not None:
        return None
    if kept is None or kept["opened"] is None:
        raise CertifyError(f"sitting {sitting.nonce}: the class server keeps no record of its answers "
                           "(issued without a start code): certify the result handed in")
    gone = kept.get("abandoned")
    if kept["ending"] is None and kept.get("over") is None and not gone:
        return None  # under way: unended_lines names it
    refused = not_certifiable(use, sitting.nonce, ledger["trainee_name"], ledger["form_digest"], use["used"])
    if refused:
        raise CertifyError(refused)
    held = refused_unanswered(kept, sitting.nonce)
    if held and not held_too:
        raise CertifyError(held)
    form = sitting_form(store, get_form(store, ledger["form_uid"]), token)
    if form.digest != ledger["form_digest"]:
        raise CertifyError("this machine's copy of the form is not the one the sitting names")
    form = dealt_form(form, token, key)
    late, delivered = counted_late(kept), delivered_late(kept)
    if gone:
        ending = Ending.LEFT
    elif kept["ending"] is None:
        ending = Ending.TIME_UP  # never ended on the server: its time ran out there
    else:
        try:
            ending = Ending(kept["ending"])
        except ValueError:
            raise CertifyError(f"sitting {sitting.nonce}: the class server's record ends "
                               f"{shown(kept['ending'])}, which is not how an exam ends") from None
        if late is not None and late["ended_after_limit"] is not None and ending is Ending.FINISHED:
            ending = Ending.TIME_UP
    sat = kept.get("started")
    if isinstance(sat, bool) or not isinstance(sat, int | float) or not math.isfinite(sat):
        raise CertifyError(f"sitting {sitting.nonce}: the class server's record keeps no time of its start")
    # the date sat and the expiry are the server's clock's, not a workstation's: the server
    # started the sitting only before it expired, so no grace is asked after it
    # an answer that cannot be re-graded is graded as wrong
    given, unusable = kept_answers(kept, form.supervised)
    given, soon = watched_too_soon(kept, given, form.supervised)
    return _sign(store, key, ledger, form, str(use["used"]), ledger["trainee_name"], given,
                 ending, float(sat), late, classroom=classroom, now=now, within=math.inf,
                 recorded={"by": "class server", **({"abandoned": gone} if gone else {}),
                           **({"held": held.removeprefix("held, not certified: ")} if held else {})},
                 **({"unusable": unusable} if unusable else {}),
                 **({"delivered_late": delivered} if delivered else {}),
                 **({"too_soon": soon} if soon else {}))


def restore_sitting(store: Store, key: InstructorKey, row: dict) -> dict:
    """A sitting this key issued that the class server keeps and this file does not (the file
    was restored from a copy older than its issue, or the sitting was issued on this
    instructor's other machine): its row, as the server keeps it (`ledger.finished_sittings`),
    written into this file's ledger once its token's signature checks and names the same
    sitting; the token. CertifyError when it does not."""
    try:
        token = json.loads(row["token"]) if isinstance(row.get("token"), str) else None
    except (json.JSONDecodeError, RecursionError, ValueError):
        token = None
    sitting = read_sitting(token, [key.public])  # a signed token: a dict
    if (sitting.nonce, sitting.trainee, sitting.form_uid, sitting.attempt) != (
            row.get("nonce"), row.get("trainee_name"), row.get("form_uid"), row.get("attempt")):
        raise CertifyError("the class server's record of this sitting is not what its signed token says")
    with store.write() as db:
        db.execute("INSERT INTO exam_sittings (nonce, trainee_name, form_uid, form_digest, attempt, "
                   "issued, expires, signer, token, draw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (sitting.nonce, sitting.trainee, sitting.form_uid, row["form_digest"], sitting.attempt,
                    sitting.issued, sitting.expires, key.public.fingerprint, row["token"], row.get("draw")))
    return cast(dict, token)


def class_sittings(store: Store, classroom) -> list[dict]:
    """The tokens of the sittings this file issued in the joined class and has not certified,
    oldest first (ExamOfflineError when the server cannot be reached)."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown})"):
        here = classroom.class_uid()
    tokens = read_rows(store.query("SELECT nonce, token FROM exam_sittings WHERE result_uid IS NULL "
                                   "ORDER BY issued, nonce"),
                       lambda r: stored_json(r["token"], "token", dict), lambda r: f"sitting {r['nonce']}",
                       store.note_unreadable)
    return [t for t in tokens if class_named(t) == here]


def date_sat(started: object, issued: float, expires: float) -> float:
    """When the result says its exam started (seconds since 1970, by the workstation's exam clock),
    as the certificate states it: only between its sitting's issue and expiry by the instructor's
    ledger, give or take CLOCKS_DIFFER (the sitting starts only before it expires); CertifyError
    otherwise, for a date the workstation's clock or an edit made up."""
    if isinstance(started, bool) or not isinstance(started, int | float) or not math.isfinite(started):
        raise CertifyError(f"started: {shown(started)} is not a time")
    if not issued - CLOCKS_DIFFER <= started <= expires + CLOCKS_DIFFER:
        raise CertifyError(f"started: the result says it was sat {_when(started)}, outside its "
                           f"sitting (issued {_when(issued)}, valid until {_when(expires)}): the "
                           "workstation's clock was wrong, or the record was changed")
    return float(started)


def _when(t: float) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return f"at {t:.0f} s since 1970"


def _span(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours / 24:.0f} days" if hours >= 48 else f"{hours:.0f} hours"


def certificate_matches(certificate: dict, result) -> bool:
    """Whether a certificate is the one of this result (an ExamResult): its id, trainee, form and
    sitting, not only an id a workstation wrote."""
    try:
        return (certificate["result"] == result.uid == certificate["sitting"]
                and clean_name(certificate["trainee"]) == clean_name(result.trainee_name)
                and certificate["form"]["digest"] == result.form_digest
                and result.sitting is not None and result.sitting.get("nonce") == certificate["sitting"])
    except (KeyError, TypeError, AttributeError):
        return False


def regrade_answers(form: ExamForm, raw: object) -> list[dict]:
    """Every answered item graded again from its log against the form's own scenarios."""
    if not isinstance(raw, list):
        raise CertifyError("answers: must be a list")
    out, seen = [], set()
    for i, a in enumerate(raw):
        where = f"answers[{i}]"
        if not isinstance(a, dict):
            raise CertifyError(f"{where}: must be an object")
        position = a.get("position")
        if isinstance(position, bool) or not isinstance(position, int) or \
                not 0 <= position < len(form.items):
            raise CertifyError(f"{where}.position: {position!r} is not an item of the form")
        if position in seen:
            raise CertifyError(f"{where}.position: item {position + 1} is answered twice")
        seen.add(position)
        scenario = form.scenarios[position]
        rnd = form.round(position)
        more: dict = {}
        if rnd is not None:  # a supervise item: its answer is the supervisor's flags
            try:
                flags = flags_from_json(a.get("log"), f"{where}.log")
            except FlagsError as e:
                raise CertifyError(str(e)) from None
            scored, result = judged(rnd, flags)
            more = {"supervise": supervise_result(form.items[position], rnd, flags, scored)}
        else:
            try:
                log, _ = read_log(a.get("log"))
            except RequestError as e:
                raise CertifyError(f"{where}.{e.field}: {e.message}") from None
            result = regrade(scenario, log)
        s = result.score
        out.append({"position": position, "item_id": form.key(position), "title": scenario.title,
                    "game": scenario.game, "procedure": s.procedure, "payouts": s.payouts,
                    "speed": s.speed, "total": s.total, "passed": s.passed, "critical": s.critical,
                    "findings": [f.to_json() for f in result.findings], **more})
    return sorted(out, key=lambda a: a["position"])


def supervise_result(item: FormItem, rnd: SupervisedRound, flags: list[Flag], scored: Score) -> dict:
    """What a certificate states of a supervise item: the round (its id and the digest of its
    faults, which the form's digest commits to), every flag as graded, each fault caught or
    missed with its section and severity, and the signal-detection figures."""
    caught = {id(c.fault): c for c in scored.caught}
    assert item.supervise is not None
    # "dealt": the digest of the faults as sat (the form's own for a sitting on the form's seed)
    return {"round": rnd.id, "dealt": dealt_digest(rnd), "pace": item.supervise.pace,
            "flags": [f.to_json() for f in flags],
            "faults": [{"kind": f.type.id, "words": f.type.words, "section": f.type.section,
                        "severity": f.type.severity.value, "target": f.target, "at": f.at,
                        "cents": f.cents,
                        **({"caught_at": caught[id(f)].flag.at, "named": caught[id(f)].named}
                           if id(f) in caught else {"caught_at": None})}
                       for f in rnd.faults],
            "false_alarms": [f.to_json() for f in scored.false_alarms],
            "score": scored.to_json()}


def verify_certificate(doc: object, trusted: Sequence[PublicKey]) -> dict:
    """The certificate's body if its signature checks with a trusted key; CertifyError if not."""
    return _signed(doc, CERTIFICATE, trusted, "certificate")


def trusted_signer(doc: object, trusted: Sequence[PublicKey]) -> PublicKey | None:
    """The trusted key (as the caller names it) whose signature a certificate carries and which
    verifies; None when it does not verify with any of them."""
    try:
        verify_certificate(doc, trusted)
    except CertifyError:
        return None
    named = signed_by(doc)
    return next((k for k in trusted if named is not None and k.raw == named.raw), None)


def class_certificates(classroom, trusted: Sequence[PublicKey]) -> list[tuple[dict, PublicKey | None]]:
    """The certificates the class server keeps, oldest first, each with the trusted key whose
    signature it carries, or None when it verifies with none of them (the server checks no
    signature: a row an instructor's login wrote is believed only if it verifies here)."""
    with Server("The class server cannot be reached now"):
        kept = classroom.certificates()
    return [(c, trusted_signer(c, trusted)) for c in kept]


def certificates(store: Store) -> list[dict]:
    """Every certificate in the instructor's ledger, oldest first; one that cannot be read
    (damaged) is left out and named (Store.note_unreadable)."""
    return _read_certificates(store, store.query("SELECT id, certificate FROM exam_certificates "
                                                 "ORDER BY id"))


def certificate_for(store: Store, result_uid: str) -> dict | None:
    """The certificate this file holds for a result (its uid), if any (one that cannot be read
    is named, and none); check it with `verify_certificate` before believing it."""
    found = _read_certificates(store, store.query("SELECT id, certificate FROM exam_certificates "
                                                  "WHERE result_uid = ?", (result_uid,)))
    return found[0] if found else None


def _read_certificates(store: Store, rows: list[dict]) -> list[dict]:
    return read_rows(rows, lambda r: stored_json(r["certificate"], "certificate", dict),
                     lambda r: f"certificate {r['id']}", store.note_unreadable)


def verification_code(certificate: dict) -> str:
    """A short code printed on a certificate: the first 64 bits of its signature's SHA-256,
    for a reader to match the paper to the signed file."""
    digest = hashlib.sha256(str(certificate.get("signature", "")).encode("ascii", "replace")).hexdigest()
    return "-".join(digest[i:i + 4].upper() for i in range(0, 16, 4))


def signed_by(doc: object) -> PublicKey | None:
    """The key a signed document (form, sitting token, certificate) names as its signer, which
    says nothing of whether to trust it; None when it names none."""
    try:
        signer = doc["signer"]  # type: ignore[index]
        return PublicKey(str(signer.get("name", "")), bytes.fromhex(signer["public"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
