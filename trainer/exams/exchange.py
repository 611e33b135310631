"""Exam results between machines: a workstation exports its signed results, the instructor's
machine imports them (issue 6, "Classroom").

Results file, JSON::

    {"format": "dealer-trainer-exam-results", "version": 1, "exported": <seconds>, "source": <workstation>,
     "results": [{"record": <the portable record, trainer.exams.records.portable>,
                  "signoff": {"signer": <name>, "signed": <seconds>, "kdf": "scrypt$n$r$p$salt",
                              "countersignature": <hex>}}]}

Export writes only results that have ended and been signed off (the countersignature is what
the other machine can check; the installation secret never leaves the workstation), and refuses
to export when any of them fails verification here.

Import needs an instructor of the importing machine and their passphrase, the one the results
were signed with. It checks the whole file before writing anything: its shape (each field
named on a problem), each record's consistency (its score parts are the means of its answers,
its status and verdict follow the pass rule) and each countersignature. Anything wrong refuses
the whole file with `ResultsFileError` naming the file and the first bad record. Then, in one
transaction, trainees are matched by name (active ones, case-insensitive; created if missing,
never as instructors), results already here (same uid) are skipped, so importing twice adds
nothing, and each new result is chained into this database with its own installation secret
(so `verify_results` keeps working here), keeping the original countersignature.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from trainer.exams.canonical import check_header
from trainer.exams.errors import ExamError, LockedError
from trainer.exams.forms import write_atomically
from trainer.exams.records import Status, portable
from trainer.exams.scoring import Ending, exam_score, verdict
from trainer.exams.trust import chain, check_countersignature, verify_results
from trainer.progress.errors import ResultsFileError
from trainer.progress.records import action_json, finding_json, workstation
from trainer.progress.store import Store

FORMAT, VERSION = "dealer-trainer-exam-results", 1
RECORD_KEYS = {"uid", "trainee", "form", "started", "ended", "status", "passed", "critical", "procedure",
               "payouts", "speed", "total", "source", "answers"}
FORM_KEYS = {"uid", "name", "digest", "pass_mark", "time_limit_seconds", "items"}
ANSWER_KEYS = {"position", "item_id", "title", "game", "answered", "procedure", "payouts", "speed", "total",
               "passed", "critical", "findings", "log"}
SIGNOFF_KEYS = {"signer", "signed", "kdf", "countersignature"}
PARTS = ("procedure", "payouts", "speed", "total")
ENDING = {Status.PASSED: Ending.FINISHED, Status.FAILED: Ending.FINISHED, Status.TIMED_OUT: Ending.TIME_UP,
          Status.ABANDONED: Ending.LEFT}


@dataclass(frozen=True)
class ExportSummary:
    written: int
    unsigned: int  # ended results left out because no instructor has signed them off yet
    in_progress: int


@dataclass(frozen=True)
class ImportSummary:
    added: int
    already_present: int
    trainees_created: list[str] = field(default_factory=list)


def export_exam_results(store: Store, path: str | os.PathLike, key: bytes, *,
                        trainee_id: int | None = None) -> ExportSummary:
    """Write the signed-off results (of one trainee, or all) to a results file."""
    where, params = ("WHERE trainee_id = ?", (trainee_id,)) if trainee_id is not None else ("", ())
    rows = store.query(f"SELECT * FROM exam_results {where} ORDER BY started, id", params)
    signoffs = {s["result_id"]: s for s in store.query("SELECT * FROM exam_signoffs")}
    chosen = [r for r in rows if r["status"] != Status.IN_PROGRESS and r["id"] in signoffs]
    flagged = {p.result_id: p for p in verify_results(store, key)}
    bad = next((flagged[r["id"]] for r in chosen if r["id"] in flagged), None)
    if bad is not None:
        raise ExamError(f"Nothing was exported: {bad}.")
    out = []
    for r in chosen:
        answers = store.query("SELECT * FROM exam_answers WHERE result_id = ?", (r["id"],))
        s = signoffs[r["id"]]
        out.append({"record": portable(r, answers),
                    "signoff": {"signer": s["signer_name"], "signed": s["signed"], "kdf": s["kdf"],
                                "countersignature": s["countersignature"]}})
    doc = {"format": FORMAT, "version": VERSION, "exported": time.time(), "source": workstation(),
           "results": out}
    write_atomically(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    in_progress = sum(1 for r in rows if r["status"] == Status.IN_PROGRESS)
    return ExportSummary(len(out), len(rows) - len(out) - in_progress, in_progress)


def import_exam_results(store: Store, path: str | os.PathLike, instructor_id: int, passphrase: str,
                        key: bytes) -> ImportSummary:
    """Check a results file whole, then add its new results; see the module docstring."""
    instructor = store.trainee(instructor_id)
    if not instructor.instructor or not store.verify_passphrase(instructor_id, passphrase):
        raise LockedError("Importing exam results needs an instructor's passphrase, and that one is "
                          "not right.")
    name = os.fspath(path)
    entries = _parse(name, _read(name), passphrase)
    created: list[str] = []
    added = 0
    now = time.time()
    with store.write() as db:
        for where, record, signoff in entries:
            existing = db.execute("SELECT id FROM exam_results WHERE uid = ?", (record["uid"],)).fetchone()
            if existing is not None:
                here = next(iter(db.query("SELECT * FROM exam_results WHERE id = ?", existing)))
                answers = list(db.query("SELECT * FROM exam_answers WHERE result_id = ?", existing))
                if portable(here, answers) != record:
                    raise ResultsFileError(f"{name}: {where}: a different result with the same id "
                                           f"({record['uid']}) is already here; the file was refused",
                                           path=name)
                continue
            trainee = db.execute("SELECT id FROM trainees WHERE archived = 0 AND name = ? COLLATE NOCASE",
                                 (record["trainee"],)).fetchone()
            if trainee is None:
                trainee = (db.execute("INSERT INTO trainees (name, created) VALUES (?, ?)",
                                      (record["trainee"], now)).lastrowid,)
                created.append(record["trainee"])
            result_id = _insert(db, key, record, signoff, trainee[0], now)
            back = portable(next(iter(db.query("SELECT * FROM exam_results WHERE id = ?", (result_id,)))),
                            list(db.query("SELECT * FROM exam_answers WHERE result_id = ?", (result_id,))))
            if back != record:  # a bug, not the file: never keep a record that reads back otherwise
                raise ResultsFileError(f"{name}: {where}: the record did not read back as written", path=name)
            added += 1
    return ImportSummary(added, len(entries) - added, created)


def _insert(db, key: bytes, rec: dict, signoff: dict, trainee_id: int, now: float) -> int:
    f = rec["form"]
    result_id = db.execute(
        "INSERT INTO exam_results (uid, trainee_id, trainee_name, form_uid, form_name, form_digest, "
        "pass_mark, time_limit_seconds, item_count, started, status, source, imported) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'in-progress', ?, ?)",
        (rec["uid"], trainee_id, rec["trainee"], f["uid"], f["name"], f["digest"], f["pass_mark"],
         f["time_limit_seconds"], f["items"], rec["started"], rec["source"], now)).lastrowid
    chain(db, key, "start", result_id)
    for a in rec["answers"]:
        answer_id = db.execute(
            "INSERT INTO exam_answers (result_id, position, item_id, title, game, answered, procedure, "
            "payouts, speed, total, passed, critical, findings, log) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (result_id, a["position"], a["item_id"], a["title"], a["game"], a["answered"], a["procedure"],
             a["payouts"], a["speed"], a["total"], int(a["passed"]), int(a["critical"]),
             json.dumps(a["findings"], ensure_ascii=False),
             json.dumps(a["log"], ensure_ascii=False))).lastrowid
        chain(db, key, "answer", answer_id)
    db.execute("UPDATE exam_results SET ended = ?, status = ?, passed = ?, critical = ?, procedure = ?, "
               "payouts = ?, speed = ?, total = ? WHERE id = ?",
               (rec["ended"], rec["status"], int(rec["passed"]), int(rec["critical"]), rec["procedure"],
                rec["payouts"], rec["speed"], rec["total"], result_id))
    chain(db, key, "end", result_id)
    signoff_id = db.execute(
        "INSERT INTO exam_signoffs (result_id, signer_id, signer_name, signed, kdf, countersignature) "
        "VALUES (?, NULL, ?, ?, ?, ?)",
        (result_id, signoff["signer"], signoff["signed"], signoff["kdf"],
         signoff["countersignature"])).lastrowid
    chain(db, key, "sign-off", signoff_id)
    return result_id


# --- reading and checking the file ---------------------------------------------------------------

def _read(name: str):
    try:
        text = Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResultsFileError(f"{name}: not an exam results file (it is not UTF-8 text)",
                               path=name) from None
    except OSError as e:
        raise ResultsFileError(f"{name}: cannot be read ({e.strerror or e})", path=name) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ResultsFileError(f"{name}: not an exam results file (not JSON: {e.msg} at line {e.lineno}, "
                               f"column {e.colno})", path=name) from None
    except (RecursionError, ValueError) as e:  # too deep, or an integer too long to read
        raise _too_hard(name, e) from None


class _Bad(Exception):
    """A problem in one record: the field and what is wrong."""


def _parse(name: str, doc, passphrase: str) -> list[tuple[str, dict, dict]]:
    def fail(message: str):
        raise ResultsFileError(f"{name}: {message}; the file was refused", path=name)

    check_header(doc, FORMAT, VERSION, "exam results file", fail)
    if not isinstance(doc.get("results"), list):
        fail("results: must be a list")
    entries, uids = [], set()
    for i, entry in enumerate(doc["results"]):
        where = f"results[{i}]"
        rec = entry.get("record") if isinstance(entry, dict) else None
        if isinstance(rec, dict):
            form = rec.get("form") if isinstance(rec.get("form"), dict) else {}
            where = f"results[{i}] ({rec.get('trainee')!s}, {form.get('name', '?')!s})"
        try:
            record, signoff = _entry(entry)
        except _Bad as e:
            fail(f"{where}: {e}")
        if record["uid"] in uids:
            fail(f"{where}.record.uid: {record['uid']} is in the file twice")
        uids.add(record["uid"])
        if not check_countersignature(passphrase, signoff["kdf"], record, signoff["signer"],
                                      signoff["signed"], signoff["countersignature"]):
            fail(f"{where}: the countersignature by {signoff['signer']} does not match: the record was "
                 "changed after it was signed, or it was signed with another passphrase")
        entries.append((where, record, signoff))
    return entries


def _exact(obj, keys: set[str], where: str) -> dict:
    if not isinstance(obj, dict):
        raise _Bad(f"{where}: must be an object")
    missing, unknown = sorted(keys - set(obj)), sorted(set(obj) - keys)
    if missing:
        raise _Bad(f"{where}: missing {missing[0]!r}")
    if unknown:
        raise _Bad(f"{where}: unknown field {unknown[0]!r}")
    return obj


def _text(v, where: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise _Bad(f"{where}: must be a non-empty text, not {v!r}")
    return v


def _whole(v, where: str, low: int, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
        limits = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise _Bad(f"{where}: must be a whole number {limits}, not {v!r}")
    return v


def _time(v, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or v != v or v < 0:
        raise _Bad(f"{where}: must be a number of seconds, not {v!r}")
    return float(v)


def _flag(v, where: str) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"{where}: must be true or false, not {v!r}")
    return v


def _entry(entry) -> tuple[dict, dict]:
    _exact(entry, {"record", "signoff"}, "")
    rec = _exact(entry["record"], RECORD_KEYS, "record")
    form = _exact(rec["form"], FORM_KEYS, "record.form")
    out_form = {"uid": _text(form["uid"], "record.form.uid"), "name": _text(form["name"], "record.form.name"),
                "digest": _text(form["digest"], "record.form.digest"),
                "pass_mark": _whole(form["pass_mark"], "record.form.pass_mark", 0, 100),
                "time_limit_seconds": _whole(form["time_limit_seconds"], "record.form.time_limit_seconds", 1),
                "items": _whole(form["items"], "record.form.items", 1)}
    try:
        status = Status(rec["status"])
    except ValueError:
        status = None
    if status is None or status is Status.IN_PROGRESS:
        raise _Bad(f"record.status: {rec['status']!r} is not the status of an ended exam")
    if not isinstance(rec["source"], str):
        raise _Bad(f"record.source: must be text, not {rec['source']!r}")
    out = {"uid": _text(rec["uid"], "record.uid"),
           "trainee": " ".join(_text(rec["trainee"], "record.trainee").split()),
           "form": out_form, "started": _time(rec["started"], "record.started"),
           "ended": _time(rec["ended"], "record.ended"), "status": status.value,
           "passed": _flag(rec["passed"], "record.passed"),
           "critical": _flag(rec["critical"], "record.critical"),
           **{p: _whole(rec[p], f"record.{p}", 0, 100) for p in PARTS},
           "source": rec["source"], "answers": []}
    if out["ended"] < out["started"]:
        raise _Bad(f"record.ended: {out['ended']} is before started {out['started']}")
    if not isinstance(rec["answers"], list):
        raise _Bad("record.answers: must be a list")
    positions = set()
    for j, a in enumerate(rec["answers"]):
        w = f"record.answers[{j}]"
        _exact(a, ANSWER_KEYS, w)
        position = _whole(a["position"], f"{w}.position", 0, out_form["items"] - 1)
        if position in positions:
            raise _Bad(f"{w}.position: item {position} is answered twice")
        positions.add(position)
        for list_field in ("findings", "log"):
            if not isinstance(a[list_field], list):
                raise _Bad(f"{w}.{list_field}: must be a list")
        try:
            findings = [finding_json(f, f"{w}.findings[{k}]") for k, f in enumerate(a["findings"])]
            log = [action_json(p, f"{w}.log[{k}]") for k, p in enumerate(a["log"])]
        except ValueError as e:
            raise _Bad(str(e)) from None
        if findings != a["findings"] or log != a["log"]:
            raise _Bad(f"{w}: its findings or log are not as Dealer Trainer writes them")
        out["answers"].append({
            "position": position, "item_id": _text(a["item_id"], f"{w}.item_id"),
            "title": _text(a["title"], f"{w}.title"), "game": _text(a["game"], f"{w}.game"),
            "answered": _time(a["answered"], f"{w}.answered"),
            **{p: _whole(a[p], f"{w}.{p}", 0, 100) for p in PARTS},
            "passed": _flag(a["passed"], f"{w}.passed"), "critical": _flag(a["critical"], f"{w}.critical"),
            "findings": findings, "log": log})
    out["answers"].sort(key=lambda a: a["position"])
    score = exam_score(out["answers"], out_form["items"], out_form["pass_mark"])
    for p in PARTS:
        if out[p] != getattr(score, p):
            raise _Bad(f"record.{p}: {out[p]} is not the mean of its answers ({getattr(score, p)})")
    if out["critical"] != score.critical:
        raise _Bad(f"record.critical: {str(out['critical']).lower()} does not match its answers' findings")
    if (status.value, out["passed"]) != tuple(v.value if isinstance(v, Status) else v
                                              for v in verdict(ENDING[status], score)):
        raise _Bad(f"record.passed: {str(out['passed']).lower()} does not follow the pass rule for a "
                   f"{status.value} exam with {out['total']} of {out_form['pass_mark']}")
    so = _exact(entry["signoff"], SIGNOFF_KEYS, "signoff")
    signoff = {"signer": _text(so["signer"], "signoff.signer"),
               "signed": _time(so["signed"], "signoff.signed"),
               "kdf": _text(so["kdf"], "signoff.kdf"),
               "countersignature": _text(so["countersignature"], "signoff.countersignature")}
    return out, signoff


def _too_hard(name, e: Exception) -> Exception:
    """A file too deep or with too long a number for the JSON reader: named, never a crash."""
    what = "nested too deeply" if isinstance(e, RecursionError) else "a number too long to read"
    return ResultsFileError(f"{name}: not a results file ({what})", path=str(name))
