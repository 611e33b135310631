"""The exam results chain: a local integrity record of this progress file, never a source of
trust (it was evidence once; the instructor's signed certificates replaced it as evidence).

Every write to an exam result appends an entry to `exam_chain`: "start" (the attempt began),
"answer" (one scenario answered) and "end" (closed with its status and score); files from
earlier versions may also hold "sign-off" entries. An entry's HMAC-SHA256 covers the canonical
JSON of its row's fields and the HMAC of the entry before it::

    hmac = HMAC(key, canonical(payload) + b"\n" + previous entry's hmac)      (first: "")

The key is the installation secret, 32 random bytes in a file beside the database
(`installation_key`). `verify_results` recomputes every entry and reports rows edited, deleted,
inserted or reordered with the sqlite3 command: File › Check database shows what it finds.

What it is not: evidence. The secret sits on the same machine as the database, so whoever can
edit one can read the other and re-chain an edit; and deleting the newest results with their
entries leaves a shorter chain that still verifies. A certification result is trusted only as
a certificate: re-graded and signed with an instructor's Ed25519 key on the instructor's machine
(trainer.exams.certify). The passphrase countersignature ("sign-off") of earlier versions is
gone: its HMAC could not be checked without the means to forge it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from trainer.exams.canonical import canonical
from trainer.exams.errors import KeyFileError
from trainer.exams.records import ANSWER_COLUMNS, RESULT_COLUMNS, SIGNOFF_COLUMNS, Status
from trainer.paths import binary
from trainer.progress._sqlite import Database
from trainer.progress.store import Store

KEY_BYTES = 32
#: the fields of a result fixed when it starts (the schema's trigger refuses changing them)
START_FIELDS = ("uid", "trainee_id", "trainee_name", "form_uid", "form_name", "form_digest", "pass_mark",
                "time_limit_seconds", "item_count", "started", "source", "imported")
WHAT = {"start": "start record", "answer": "answer", "end": "result (status and scores)",
        "sign-off": "sign-off"}


# --- the installation secret ----------------------------------------------------------------------

def read_installation_key(path: str | os.PathLike) -> bytes:
    """The installation secret at `path`; KeyFileError if it is missing or not one."""
    name = os.fspath(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise KeyFileError(f"no installation secret at {name}", path=name) from None
    except IsADirectoryError:
        raise KeyFileError(f"{name} is a folder, not an installation secret", path=name) from None
    except OSError as e:
        raise KeyFileError(f"cannot read the installation secret {name} ({e.strerror or e})",
                           path=name) from None
    if len(data) != KEY_BYTES:
        raise KeyFileError(f"{name} is not an installation secret (it should hold {KEY_BYTES} bytes, "
                           f"not {len(data)})", path=name)
    return data


def installation_key(path: str | os.PathLike) -> bytes:
    """The installation secret at `path`, created (32 random bytes, readable by its owner only)
    if missing. Keep it outside the database, on the workstation: it is what makes an edit of the
    database detectable. Two processes creating it at once end up with the same secret: it is
    written to a temporary file and linked into place only if nothing is there yet."""
    path = Path(path)
    try:
        return read_installation_key(path)
    except KeyFileError:
        if path.exists() or path.is_symlink():
            raise
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.part")
        fd = os.open(tmp, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(secrets.token_bytes(KEY_BYTES))
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another process made it first: use theirs
            except OSError:  # no hard links on this file system
                if not path.exists():
                    os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as e:
        raise KeyFileError(f"cannot create the installation secret {path} ({e.strerror or e})",
                           path=str(path)) from None
    return read_installation_key(path)


# --- the chain --------------------------------------------------------------------------------------

def entry_mac(key: bytes, payload: dict, prev: str) -> str:
    return hmac.new(key, canonical(payload) + b"\n" + prev.encode("ascii"), hashlib.sha256).hexdigest()


def start_payload(r: dict) -> dict:
    return {"kind": "start", **{c: r[c] for c in START_FIELDS}}


def _answer_fields(a: dict) -> dict:
    return {c: a[c] for c in ANSWER_COLUMNS if c not in ("id", "result_id")}


def answer_payload(result_uid: str, a: dict) -> dict:
    return {"kind": "answer", "result": result_uid, **_answer_fields(a)}


def end_payload(r: dict, answers: list[dict]) -> dict:
    return {"kind": "end", "result": {c: r[c] for c in RESULT_COLUMNS if c != "id"},
            "answers": [_answer_fields(a) for a in sorted(answers, key=lambda a: a["position"])]}


def signoff_payload(result_uid: str, s: dict, end_mac: str) -> dict:
    return {"kind": "sign-off", "result": result_uid, "end": end_mac,
            **{c: s[c] for c in SIGNOFF_COLUMNS if c not in ("id", "result_id")}}


def _one(db: Database, sql: str, params: tuple) -> dict | None:
    return next(iter(db.query(sql, params)), None)


def _all(db: Database, sql: str, params: tuple) -> list[dict]:
    return list(db.query(sql, params))


def chain(db: Database, key: bytes, kind: str, ref_id: int) -> str:
    """Append the chain entry of a row just written (in the caller's transaction); its HMAC. The
    payload is read back from the row, so that it is what verification will read."""
    if kind in ("start", "end"):
        r = _one(db, "SELECT * FROM exam_results WHERE id = ?", (ref_id,))
        result_id = ref_id
        if kind == "start":
            payload = start_payload(r)
        else:
            payload = end_payload(r, _all(db, "SELECT * FROM exam_answers WHERE result_id = ?", (ref_id,)))
    elif kind == "answer":
        a = _one(db, "SELECT * FROM exam_answers WHERE id = ?", (ref_id,))
        result_id = a["result_id"]
        uid = db.execute("SELECT uid FROM exam_results WHERE id = ?", (result_id,)).fetchone()[0]
        payload = answer_payload(uid, a)
    elif kind == "sign-off":
        s = _one(db, "SELECT * FROM exam_signoffs WHERE id = ?", (ref_id,))
        result_id = s["result_id"]
        uid = db.execute("SELECT uid FROM exam_results WHERE id = ?", (result_id,)).fetchone()[0]
        end = db.execute("SELECT hmac FROM exam_chain WHERE result_id = ? AND kind = 'end' ORDER BY seq DESC",
                         (result_id,)).fetchone()
        payload = signoff_payload(uid, s, end[0] if end else "")
    else:
        raise ValueError(f"unknown chain entry kind {kind!r}")
    last = db.execute("SELECT hmac FROM exam_chain ORDER BY seq DESC LIMIT 1").fetchone()
    prev = last[0] if last else ""
    mac = entry_mac(key, payload, prev)
    db.execute("INSERT INTO exam_chain (result_id, kind, ref_id, at, prev, hmac) VALUES (?, ?, ?, ?, ?, ?)",
               (result_id, kind, ref_id, time.time(), prev, mac))
    return mac


# --- verification -----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with one result; str() is the line `verify-results` prints."""

    result_id: int
    message: str
    label: str = ""  # who and what, when the result's row is still there

    def __str__(self) -> str:
        return f"exam result {self.result_id}{f' ({self.label})' if self.label else ''}: {self.message}"


def _label(r: dict | None) -> str:
    if r is None:
        return ""
    try:
        when = datetime.fromtimestamp(r["started"], UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (TypeError, ValueError, OverflowError, OSError):
        when = "?"
    return f"{r['trainee_name']}, {r['form_name']}, {when}"


def verify_results(store: Store, key: bytes) -> list[Problem]:
    """Every problem with the exam results, in chain order; [] when all are as the app wrote them."""
    results = {r["id"]: r for r in store.query("SELECT * FROM exam_results")}
    answers = {a["id"]: a for a in store.query("SELECT * FROM exam_answers")}
    signoffs = {s["id"]: s for s in store.query("SELECT * FROM exam_signoffs")}
    by_result: dict[int, list[dict]] = {}
    for a in answers.values():
        by_result.setdefault(a["result_id"], []).append(a)
    problems: list[Problem] = []

    def flag(result_id: int, message: str) -> None:
        p = Problem(result_id, message, _label(results.get(result_id)))
        if p not in problems:
            problems.append(p)

    prev, seen, end_macs = "", set(), {}
    for e in store.query("SELECT * FROM exam_chain ORDER BY seq"):
        rid, kind, ref = e["result_id"], e["kind"], e["ref_id"]
        if e["prev"] != prev:
            flag(rid, "the chain is broken just before it: a record was deleted, inserted or reordered "
                      "outside the app")
        prev = e["hmac"]
        if (kind, ref) in seen:
            flag(rid, f"its {WHAT.get(kind, kind)} is in the chain twice (copied outside the app)")
            continue
        seen.add((kind, ref))
        table = {"start": results, "end": results, "answer": answers, "sign-off": signoffs}
        row = table.get(kind, {}).get(ref)
        owner = ref if kind in ("start", "end") else (row or {}).get("result_id")
        if row is None or owner not in results:
            flag(rid, f"its {WHAT.get(kind, kind)} was deleted outside the app")
            continue
        if owner != rid:
            flag(rid, f"its {WHAT[kind]} was moved to another result outside the app")
            continue
        r = results[rid]
        try:
            if kind == "start":
                payload = start_payload(r)
            elif kind == "end":
                payload = end_payload(r, by_result.get(rid, []))
            elif kind == "answer":
                payload = answer_payload(r["uid"], row)
            else:
                payload = signoff_payload(r["uid"], row, end_macs.get(rid, ""))
            good = hmac.compare_digest(entry_mac(key, payload, e["prev"]), e["hmac"])
        except (KeyError, TypeError, ValueError, UnicodeEncodeError):
            good = False
        if not good:
            flag(rid, f"its {WHAT[kind]} was changed outside the app (the HMAC does not match)")
        if kind == "end":
            end_macs[rid] = e["hmac"]
    for rid, r in results.items():
        if ("start", rid) not in seen:
            flag(rid, "it is not in the chain: added outside the app")
        elif r["status"] != Status.IN_PROGRESS and ("end", rid) not in seen:
            flag(rid, "it was closed outside the app (its end is not in the chain)")
    for aid, a in answers.items():
        if ("answer", aid) not in seen:
            flag(a["result_id"], "an answer was added outside the app (not in the chain)")
    for sid, s in signoffs.items():
        if ("sign-off", sid) not in seen:
            flag(s["result_id"], "a sign-off was added outside the app (not in the chain)")
    return problems
