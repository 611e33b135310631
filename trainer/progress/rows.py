"""Rows of the progress file as records, and records as rows: the one place that turns attempts,
findings and trainees into rows and back (their columns are described in trainer.progress.columns).

A row read back is checked as a record made by the app is (trainer.progress.records): a row whose
JSON or values are damaged raises ValueError naming the column, and the readers of many rows
leave it out and name it (`read_rows`, `Store.note_unreadable`) rather than fail them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from trainer import files
from trainer.progress._sqlite import Database
from trainer.progress.columns import ATTEMPTS
from trainer.progress.records import Attempt, AttemptRecord, Trainee

ATTEMPT_COLUMNS = ATTEMPTS.names()  # uid, trainee_id, item_id, ... log, source (trainer.progress.columns)
#: what reading a damaged row raises: a JSON or value error, a JSON value of the wrong kind
READ_ERRORS = (ValueError, TypeError, RecursionError)
Unreadable = Callable[[str, Exception], None]  # (the row, as "attempt 17"; what is wrong with it)


def stored_json(text: object, column: str, kind: type = list):
    """A JSON column's value read back, which must be a `kind` (list, dict); ValueError naming
    the column when it is not."""
    if not isinstance(text, str | bytes):  # a number or a blob where a JSON text belongs
        raise ValueError(f"{column}: not JSON text")
    try:
        value = files.loads(text)  # a key named twice is refused, as in a file (trainer.files)
    except (TypeError, ValueError, RecursionError) as e:
        raise ValueError(f"{column}: not JSON ({e})") from None
    if not isinstance(value, kind):
        raise ValueError(f"{column}: not a JSON {'array' if kind is list else 'object'}")
    return value


def read_rows(rows: Iterable[dict], make: Callable[[dict], object], what: Callable[[dict], str],
              unreadable: Unreadable | None = None) -> list:
    """`make(row)` of each row, in order; a row that cannot be read is left out and given to
    `unreadable` (named by `what(row)`), or, without it, raises."""
    out = []
    for r in rows:
        try:
            out.append(make(r))
        except READ_ERRORS as e:
            if unreadable is None:
                raise
            unreadable(what(r), e)
    return out


def insert_attempt(db: Database, r: AttemptRecord, trainee_id: int | None = None) -> int:
    """Append one attempt (in the caller's transaction); an attempt already there (same uid) is
    left as it is. Its id."""
    tid = r.trainee_id if trainee_id is None else trainee_id
    values = (r.uid, tid, r.item_id, r.game, r.mode.value, r.seed, r.started, r.ended, r.duration,
              r.target, r.procedure, r.payouts, r.speed, r.total, int(r.passed), int(r.critical),
              int(r.abandoned), json.dumps(list(r.log), separators=(",", ":")), r.source, r.rule)
    cur = db.execute(f"INSERT INTO attempts ({', '.join(ATTEMPT_COLUMNS)}) VALUES "
                     f"({', '.join('?' * len(ATTEMPT_COLUMNS))}) ON CONFLICT (uid) DO NOTHING", values)
    if cur.rowcount == 0:
        return db.execute("SELECT id FROM attempts WHERE uid = ?", (r.uid,)).fetchone()[0]
    attempt_id = cur.lastrowid
    db.conn.executemany("INSERT INTO attempt_skills (attempt_id, skill, trainee_id, started) "
                        "VALUES (?, ?, ?, ?)", [(attempt_id, s.value, tid, r.started) for s in r.skills])
    db.conn.executemany(
        "INSERT INTO findings (attempt_id, kind, skill, citation, severity, message, expected, actual) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(attempt_id, f["kind"], f["skill"], f["cite"], f["severity"], f["message"], f["expected"],
          None if f["actual"] is None else json.dumps(f["actual"], separators=(",", ":")))
         for f in r.findings])
    return attempt_id


def trainee_from_row(r: dict) -> Trainee:
    return Trainee(r["id"], r["name"], r["created"], bool(r["archived"]), r["archived_at"],
                   bool(r["instructor"]), r["passphrase"] is not None, r.get("public_key"),
                   r.get("key_path"), r.get("uid") or "")


def finding_from_row(r: dict) -> dict:
    return {"kind": r["kind"], "severity": r["severity"], "message": r["message"], "cite": r["citation"],
            "skill": r["skill"], "expected": r["expected"],
            "actual": None if r["actual"] is None else stored_json(r["actual"], "actual", dict)}


def attempt_from_row(r: dict, findings: list[dict], skills: list[str]) -> Attempt:
    return Attempt(id=r["id"], uid=r["uid"], trainee_id=r["trainee_id"], item_id=r["item_id"], game=r["game"],
                   mode=r["mode"], seed=r["seed"], started=r["started"], ended=r["ended"],
                   duration=r["duration"], target=r["target"], procedure=r["procedure"],
                   payouts=r["payouts"], speed=r["speed"], total=r["total"], passed=bool(r["passed"]),
                   critical=bool(r["critical"]), abandoned=bool(r["abandoned"]), skills=tuple(skills),
                   findings=tuple(findings), log=tuple(stored_json(r["log"], "log")), source=r["source"],
                   # a row from before rules were kept (NULL), in a file or on a class server,
                   # was graded under rule 1
                   rule=r.get("rule") or 1)


def attempts_from_rows(rows: Iterable[dict], findings: Iterable[dict], skills: Iterable[dict],
                       unreadable: Unreadable | None = None) -> list[Attempt]:
    """Attempts from their rows, in their order, with the rows of their findings (each with its
    attempt_id, in the order they were recorded) and of their skills (attempt_id, skill): the
    same from a progress file or the class server. An attempt that cannot be read (itself or
    one of its findings) is given to `unreadable` and left out (without it: raises)."""
    found: dict[int, list[dict]] = {}
    kept: dict[int, list[str]] = {}
    broken: dict[int, str] = {}
    for f in findings:
        try:
            found.setdefault(f["attempt_id"], []).append(finding_from_row(f))
        except READ_ERRORS as e:
            broken.setdefault(f["attempt_id"], f"its finding {f.get('id', '')}: {e}")
    for s in skills:
        kept.setdefault(s["attempt_id"], []).append(s["skill"])

    def attempt(r: dict) -> Attempt:
        if r["id"] in broken:
            raise ValueError(broken[r["id"]])
        return attempt_from_row(r, found.get(r["id"], []), kept.get(r["id"], []))

    return read_rows(rows, attempt, lambda r: f"attempt {r['id']}", unreadable)
