"""The files that carry a certification exam between the instructor and a workstation.

- **Sitting file** (instructor → workstation, `write_sitting_file` / `read_sitting_file`): the
  signed sitting token and the signed form it is for, sealed by default: the form is encrypted
  under a start code (16 characters, about 80 bits) the proctor gives when the sitting starts, so
  the file can be handed out ahead and no scenario read before then. A sitting issued in a class
  is always sealed, under the code and the class server's share (below, "Sealed"): its items open
  only once the server has recorded the start. The workstation checks that both are
  signed by the same key, named by its fingerprint, and that the token's form digest is the
  form's; that proves nothing about who signed (a trainee could sign their own), which is why
  the instructor checks the token again against the ledger when certifying.
- **Submission** (workstation → instructor, `export_submission` / `read_submission`): every
  ended result sat under a sitting, with its token and its whole record (every answer's action
  log). The instructor certifies it (`certify_submission`): each result re-graded and signed,
  or refused by name; one bad result does not stop the others.

    {"format": "dealer-trainer-sitting-file", "version": 1, "sitting": <token>, "form": <signed form>}
    {"format": "dealer-trainer-sitting-file", "version": 1, "sitting": <token>,
     "sealed_form": {"kdf": {...}, "nonce": ..., "sealed": ..., ["share": "class server"]}}

**Sealed.** The form is sealed with AES-256-GCM under a key scrypt derives from the start code.
For a sitting issued in a class (its token names the class and asks for proof), that key and the
sitting's share (trainer.exams.proof `class_share`, 32 bytes the instructor records on the class
server when issuing it, s027) go through HKDF-SHA256 into the sealing key, and the sealed form
says so (`"share"`). No login reads the share on the server; the server releases it only from
the call that records the sitting's start, by its own clock, in the same transaction
(trainer.classes.server.ledger `start_sitting`). So a workstation holding the file and the code,
its traffic to the server cut, opens nothing: the items are read only after the server's clock
has started. What the start dialog says of the exam before then (its name, number of items, time
limit, attempts allowed) is in the signed token (`SealedSitting.ahead`). Sittings issued before
shares, and sittings outside a class, are sealed under the code alone, as they always were.
    {"format": "dealer-trainer-exam-submission", "version": 1, "exported": <seconds>,
     "source": <workstation>, "results": [{"record": <portable record>, "sitting": <token>}]}
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from trainer import files
from trainer.exams.certify import (
    CERTIFY_WITHIN,
    CertifyError,
    Sitting,
    certify,
    certify_recorded,
    class_sittings,
    open_signed_form,
    read_sitting,
    restore_sitting,
    signed_by,
)
from trainer.exams.classledger import Server, class_named
from trainer.exams.errors import ExamError, ExamOfflineError, FormFileError
from trainer.exams.forms import ExamForm, write_atomically
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import (
    CODE_ALPHABET,
    CODE_LENGTH,
    class_share,
    code_is_right,
    names_form,
    plain_code,
    start_code,
)
from trainer.exams.records import portable
from trainer.progress.records import workstation
from trainer.progress.rows import read_rows, stored_json
from trainer.progress.store import Store

SITTING_FILE = "dealer-trainer-sitting-file"
SUBMISSION = "dealer-trainer-exam-submission"
VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024


def write_sitting_file(path: str | os.PathLike, token: dict, signed_form: dict, *,
                       sealed: bool = True, key: InstructorKey | None = None,
                       pool: ExamForm | None = None) -> str | None:
    """Write the sitting file, readable by its owner only. Sealed (the default), the form is
    encrypted under the start code: the file can be handed out before the sitting and its
    scenarios read only once the proctor gives the code. A token that asks for proof
    (issue_sitting) has its start code from the instructor's `key` (trainer.exams.proof), which
    the workstation needs to start it, sealed or not. Returns the start code (None when there is
    none: an unsealed sitting of a token from before proofs). For a sitting of a pool, `pool`
    (the whole form) makes every sealed draw of it the same length: the length of a sealed form
    says nothing of which items were drawn. A sitting issued in a class is sealed under its code
    and its class share ("Sealed"), always: ValueError when asked to leave it unsealed."""
    doc: dict = {"format": SITTING_FILE, "version": VERSION, "sitting": token}
    code, share = None, None
    if isinstance(token, dict) and token.get("proof"):
        if key is None:
            raise ValueError("a sitting that asks for proof needs the instructor's key for its code")
        code = start_code(key, str(token["nonce"]))
        if class_named(token) is not None:
            if not sealed:
                raise ValueError(UNSEALED_IN_CLASS)
            share = class_share(key, str(token["nonce"]))
    elif sealed:
        code = new_start_code()
    if sealed:
        doc["sealed_form"] = seal(signed_form, code, pool, share)
    else:
        doc["form"] = signed_form
    write_atomically(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n", private=True)
    return code


def needs_start_code(path: str | os.PathLike) -> bool:
    """Whether the sitting file asks for its start code at the start (sealed, or asking for a
    proof)."""
    return _needs_code(_read(os.fspath(path), SITTING_FILE, "sitting file"))


def _needs_code(doc: dict) -> bool:
    token = doc.get("sitting")
    return "sealed_form" in doc or (isinstance(token, dict) and bool(token.get("proof")))


def sitting_is_sealed(path: str | os.PathLike) -> bool:
    return "sealed_form" in _read(os.fspath(path), SITTING_FILE, "sitting file")


UNSEALED_IN_CLASS = ("a sitting issued in a class is always sealed: its items open only once the "
                     "class server has recorded its start")
#: why a sitting sealed with the class server's share does not open before its start
SHARE_NEEDED = "the class server must record your start before the items open"


def read_sitting_file(path: str | os.PathLike, start_code: str | None = None,
                      share: bytes | None = None) -> tuple[Sitting, dict, ExamForm]:
    """(the sitting, its token, its form), checked as far as a workstation can check them;
    CertifyError naming the file otherwise (and for a sealed file, a missing or wrong start
    code; for one sealed with the class server's share, that share missing: `SHARE_NEEDED`)."""
    name = os.fspath(path)
    doc = _read(name, SITTING_FILE, "sitting file")
    token, signed = doc.get("sitting"), doc.get("form")
    if (code_needed := _needs_code(doc)) and not start_code:
        raise CertifyError(f"{name}: enter the start code the proctor gives when the sitting "
                           "starts")
    if "sealed_form" in doc:
        if _needs_share(doc) and share is None:
            raise CertifyError(f"{name}: {SHARE_NEEDED}")
        signed = unseal(doc["sealed_form"], start_code, name, share)
    elif code_needed and not (isinstance(token, dict) and code_is_right(start_code, token)):
        raise CertifyError(f"{name}: the start code is not right")
    return _checked(name, token, signed, start_code)


def _checked(name: str, token: Any, signed: object, start_code: str | None
             ) -> tuple[Sitting, dict, ExamForm]:
    """The token and the signed form of the sitting file `name`, checked as `read_sitting_file`
    says."""
    signer = signed_by(token)
    if signer is None:
        raise CertifyError(f"{name}: a damaged sitting file (its token names no signer)")
    try:
        sitting = read_sitting(token, [signer])
        form = open_signed_form(signed, [signer], name)
    except (KeyError, TypeError, ValueError) as e:
        raise CertifyError(f"{name}: a damaged sitting file ({e})") from None
    except (CertifyError, FormFileError) as e:
        raise CertifyError(f"{name}: {str(e).removeprefix(name + ': ')}") from None
    if not names_form(token, form.digest, start_code):
        raise CertifyError(f"{name}: the sitting is for another form than the one in the file")
    return sitting, token, form


def _needs_share(doc: dict) -> bool:
    sealed = doc.get("sealed_form")
    return isinstance(sealed, dict) and sealed.get("share") is not None


@dataclass(frozen=True)
class Ahead:
    """What a sitting's signed token says of its exam, for the start dialog and the start's own
    checks, before its sealed items are open."""

    uid: str
    name: str
    items: int
    time_limit_seconds: int
    attempts_allowed: int
    #: how many of the items are supervise items (trainer.exams.forms); of a pool, how many of the
    #: whole pool's are, so that a token tells nothing of its draw
    supervised: int = 0

    @classmethod
    def of(cls, form: ExamForm) -> Ahead:
        return cls(form.uid, form.name, len(form.items), form.time_limit_seconds, form.attempts_allowed,
                   len(form.supervised))


@dataclass(frozen=True)
class SealedSitting:
    """A sitting file sealed with the class server's share, its start code typed: its token
    checked, its form still sealed. `form(share)` opens it once the server has released the share
    with its record of the start (trainer.exams.session `ExamStart`)."""

    path: str
    sitting: Sitting
    token: dict
    code: str
    ahead: Ahead
    sealed: dict

    def form(self, share: bytes | None) -> ExamForm:
        """The form, opened with the share the class server released; CertifyError naming the
        file when it does not open, or is not the one the token names."""
        if share is None:
            raise CertifyError(f"{self.path}: the class server released no share for this sitting, "
                               "so its items cannot be opened: ask the instructor")
        form = _checked(self.path, self.token, unseal(self.sealed, self.code, self.path, share),
                        self.code)[2]
        if (form.uid, len(form.items)) != (self.ahead.uid, self.ahead.items):
            raise CertifyError(f"{self.path}: the sitting is for another form than the one in the file")
        return form


def open_sitting_file(path: str | os.PathLike, start_code: str | None = None
                      ) -> tuple[Sitting, dict, ExamForm | SealedSitting]:
    """As `read_sitting_file`, but a file sealed with the class server's share gives its
    SealedSitting in place of the form: the start code checked against the token, the token
    checked, and what the start dialog says of the exam (`ahead`) read from it; the items are
    opened by the start, with the share the server releases then."""
    name = os.fspath(path)
    doc = _read(name, SITTING_FILE, "sitting file")
    if not _needs_share(doc):
        return read_sitting_file(name, start_code)
    token = doc.get("sitting")
    if not start_code:
        raise CertifyError(f"{name}: enter the start code the proctor gives when the sitting starts")
    if not isinstance(token, dict) or not code_is_right(start_code, token):
        raise CertifyError(f"{name}: the start code is not right")
    signer = signed_by(token)
    if signer is None:
        raise CertifyError(f"{name}: a damaged sitting file (its token names no signer)")
    try:
        sitting = read_sitting(token, [signer])
    except CertifyError as e:
        raise CertifyError(f"{name}: {e}") from None
    named: dict = token["form"] if isinstance(token.get("form"), dict) else {}
    try:
        ahead = Ahead(sitting.form_uid, _text(named["name"]), _count(named["item_count"], 1, 1000),
                      _count(named["time_limit_seconds"], 1, 10**7),
                      _count(named["attempts_allowed"], 1, 1000),
                      _count(named.get("supervise_items", 0), 0, 1000))
    except (KeyError, TypeError, ValueError) as e:
        raise CertifyError(f"{name}: a damaged sitting file (its token does not say what exam it "
                           f"is: {e})") from None
    return sitting, token, SealedSitting(name, sitting, token, start_code, ahead, doc["sealed_form"])


def _count(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{value!r} is not a whole number from {low} to {high}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise ValueError("a name of 1 to 200 characters")
    return value


# --- sealing -------------------------------------------------------------------------------------

#: scrypt for a sealed sitting; n is read when a sitting is sealed (the tests lower it where the
#: cost is not what they test, tests/support/kdf.py) and stored with it
SEAL_N, SEAL_R, SEAL_P = 2**14, 8, 1


def new_start_code() -> str:
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(code[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def _code_key(code: str, salt: bytes, n: int) -> bytes:
    plain = plain_code(code)
    return hashlib.scrypt(plain.encode("ascii"), salt=salt, n=n, r=SEAL_R, p=SEAL_P, dklen=32,
                          maxmem=256 * n * SEAL_R + 2**20)


def _compact(doc: object) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _seal_key(code: str, salt: bytes, n: int, share: bytes | None) -> bytes:
    """The sealing key: scrypt's of the code, and with a class `share` both through HKDF-SHA256."""
    key = _code_key(code, salt, n)
    if share is None:
        return key
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=_SHARE_INFO).derive(key + share)


_SHARE_INFO = b"dealer-trainer sitting sealed under its start code and class share"
_SHARE_HOLDER = "class server"  # what the sealed form names as the holder of its share


def seal(signed_form: dict, code: str, pool: ExamForm | None = None, share: bytes | None = None) -> dict:
    """The signed form encrypted (AES-256-GCM) under a key scrypt derives from the start code,
    with the class `share` too when given ("Sealed").
    A draw of the `pool` is padded with spaces (which JSON ignores) to the length it would have
    with every item of the pool: every draw of a pool seals to one length."""
    salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
    body = _compact(signed_form)
    if pool is not None and pool.draw:
        drawn = signed_form.get("form", {}).get("items", []) if isinstance(signed_form, dict) else []
        whole = [i.to_json() for i in pool.items]
        body += b" " * max(0, len(_compact(whole)) - len(_compact(drawn)))
    sealed = AESGCM(_seal_key(code, salt, SEAL_N, share)).encrypt(nonce, body, SITTING_FILE.encode("ascii"))
    return {"kdf": {"name": "scrypt", "n": SEAL_N, "salt": salt.hex()}, "nonce": nonce.hex(),
            "sealed": sealed.hex(), **({"share": _SHARE_HOLDER} if share is not None else {})}


def unseal(sealed: object, code: str, name: str, share: bytes | None = None) -> dict:
    try:
        kdf = sealed["kdf"]
        n = kdf["n"]
        if type(n) is not int or not 2 <= n <= 2**16 or n & (n - 1):
            raise ValueError("scrypt parameters out of range")
        key = _seal_key(code, bytes.fromhex(kdf["salt"]), n, share)
        body = AESGCM(key).decrypt(bytes.fromhex(sealed["nonce"]), bytes.fromhex(sealed["sealed"]),
                                   SITTING_FILE.encode("ascii"))
    except InvalidTag:
        raise CertifyError(f"{name}: the start code is not right") from None
    except (KeyError, TypeError, ValueError) as e:
        raise CertifyError(f"{name}: a damaged sealed sitting ({e})") from None
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
        raise CertifyError(f"{name}: a damaged sealed sitting") from None


def export_submission(store: Store, path: str | os.PathLike, *, trainee_id: int | None = None) -> int:
    """Write every ended result sat under a sitting (of one trainee, or all); how many. A result
    that cannot be read (damaged) is left out and named (Store.note_unreadable)."""
    where = "status != 'in-progress' AND sitting IS NOT NULL"
    params: tuple = ()
    if trainee_id is not None:
        where += " AND trainee_id = ?"
        params = (trainee_id,)

    def submitted(r: dict) -> dict:
        answers = store.query("SELECT * FROM exam_answers WHERE result_id = ?", (r["id"],))
        return {"record": portable(r, answers), "sitting": stored_json(r["sitting"], "sitting", dict)}

    out = read_rows(store.query(f"SELECT * FROM exam_results WHERE {where} ORDER BY started, id", params),
                    submitted, lambda r: f"exam result {r['id']}", store.note_unreadable)
    doc = {"format": SUBMISSION, "version": VERSION, "exported": time.time(),
           "source": workstation(), "results": out}
    # the answers and the sittings' tokens: readable by the trainee's account only, as a sitting file
    write_atomically(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n", private=True)
    return len(out)


@dataclass
class CertifySummary:
    certificates: list[dict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # "results[2] (Sam Lee): why"


#: what a certificate says of how its answers were taken, each named as the instructor reads it
NOTES = (("late", "not in time"), ("delivered_late", "delivered after the time limit"),
         ("unusable", "graded as wrong"), ("too_soon", "not watched"))


def certificate_notes(c: dict) -> list[str]:
    """What the instructor is told of a certificate beside its verdict, one line each ("graded as
    wrong: why"): by `certify` and by the app's Certify alike."""
    said = [f"{words}: {c[key]['why']}" for key, words in NOTES if c.get(key)]
    held = (c.get("recorded") or {}).get("held")
    return said + ([f"certified as recorded: {held}"] if held else [])


def certify_submission(store: Store, key: InstructorKey, path: str | os.PathLike, *,
                       now: float | None = None, classroom=None,
                       within: float = CERTIFY_WITHIN) -> CertifySummary:
    """Certify every result of a submission file; the ones refused are named with the reason.
    Joined to a class (`classroom`), each certificate is kept on the class server too
    (trainer.exams.certify.certify); a server that cannot be reached stops the rest
    (ExamOfflineError)."""
    name = os.fspath(path)
    doc = _read(name, SUBMISSION, "exam submission")
    results = doc.get("results")
    if not isinstance(results, list):
        raise CertifyError(f"{name}: results: must be a list")
    summary = CertifySummary()
    for i, entry in enumerate(results):
        record = entry.get("record") if isinstance(entry, dict) else None
        who = record.get("trainee") if isinstance(record, dict) else None
        where = f"results[{i}]" + (f" ({who})" if isinstance(who, str) else "")
        try:
            if record is None or "sitting" not in entry:
                raise CertifyError("not a record with its sitting token")
            summary.certificates.append(certify(store, key, record, entry["sitting"], now=now,
                                                within=within,
                                                classroom=classroom))
        except CertifyError as e:
            summary.refused.append(f"{where}: {e}")
    return summary


def certify_class(store: Store, key: InstructorKey, classroom, *, now: float | None = None,
                  summary: CertifySummary | None = None, held_too: bool = False) -> CertifySummary:
    """Certify, from the class server's record alone, every sitting of the joined class that
    ended there (or timed out, or was recorded abandoned) and is not certified
    (trainer.exams.certify `certify_recorded`): in a class the server's record is the result, so
    nothing need be handed in. Those this file issued first; then those the server keeps and
    this file does not: this key's (the file was restored from an older copy, or they were
    issued on another machine) are written back into this file and certified, another
    instructor's are named, not certified (`sittings_elsewhere`). Added to `summary` (a
    submission's, certified first) when given; the ones refused are named, and so are those held
    because the server refused an answer of theirs (`held_too`: certified as recorded instead).
    ExamOfflineError when the server cannot be reached."""
    summary = CertifySummary() if summary is None else summary
    for token in class_sittings(store, classroom):
        _certify_recorded(store, key, token, classroom, now, summary, held_too)
    for row in sittings_elsewhere(store, classroom):
        where = f"sitting {row['nonce']} ({row['trainee_name']})"
        if row["signer"] != key.public.fingerprint:
            summary.refused.append(
                f"{where}: issued from another instructor's file (key {row['signer']}), not "
                "certified here: its instructor certifies it (dealer-trainer certify --class)")
            continue
        try:
            token = restore_sitting(store, key, row)
        except CertifyError as e:
            summary.refused.append(f"{where}: not in this instructor's file, and {e}")
            continue
        _certify_recorded(store, key, token, classroom, now, summary, held_too)
    return summary


def _certify_recorded(store: Store, key: InstructorKey, token: dict, classroom, now: float | None,
                      summary: CertifySummary, held_too: bool = False) -> None:
    where = f"sitting {token.get('nonce')} ({token.get('trainee')})"
    try:
        certificate = certify_recorded(store, key, token, classroom=classroom, now=now, held_too=held_too)
    except ExamOfflineError:
        raise
    except ExamError as e:  # a CertifyError, or the server refusing this sitting's call
        summary.refused.append(f"{where}: {e}")
        return
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError,
            OverflowError) as e:  # a record no reader foresaw: this sitting only, named
        summary.refused.append(f"{where}: the class server's record of it cannot be read "
                               f"({type(e).__name__}: {str(e)[:200]})")
        return
    if certificate is not None:
        summary.certificates.append(certificate)


def sittings_elsewhere(store: Store, classroom) -> list[dict]:
    """The sittings over on the class server, uncertified, that this file did not issue (another
    instructor's, or this one's from a copy of the file it no longer holds): the server's rows
    (`finished_sittings`). ExamOfflineError when the server cannot be reached."""
    with Server(f"The class server cannot be reached now ({classroom.address.shown})"):
        finished = classroom.finished_sittings()
    here = {r["nonce"] for r in store.query("SELECT nonce FROM exam_sittings")}
    return [r for r in finished if r["nonce"] not in here]


def write_certificates(path: str | os.PathLike, certificates: list[dict]) -> None:
    """A certificates file: the list `dealer-trainer verify-results FILE --public-key` checks.
    Mode 0600, as an export's: trainees' names, scores and findings, the instructor's own to hand
    on."""
    write_atomically(path, json.dumps(certificates, ensure_ascii=False, indent=1) + "\n", private=True)


def _read(name: str, fmt: str, kind: str) -> dict:
    try:
        data = files.read_capped(name, MAX_FILE_BYTES)
    except OSError as e:
        raise CertifyError(f"{name}: cannot be read ({e.strerror or e})") from None
    except files.FileRefused as e:
        raise CertifyError(f"{name}: {e}, which no {kind} is") from None
    try:
        doc = files.loads(data.decode("utf-8"))
    except files.DuplicateKey as e:
        raise CertifyError(f"{name}: not {_a(kind)} ({e})") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
        raise CertifyError(f"{name}: not {_a(kind)} (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise CertifyError(f"{name}: not a Dealer Trainer {kind}")
    if doc.get("version") != VERSION:
        raise CertifyError(f"{name}: {kind} version {doc.get('version')!r}; this app reads {VERSION}")
    return doc


def _a(kind: str) -> str:
    """"an exam submission", "a sitting file"."""
    return ("an " if kind[0] in "aeiou" else "a ") + kind
