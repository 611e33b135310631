"""Moving attempts between workstations: a CSV for spreadsheets, and a results file to import.

**CSV** (`export_csv`): a header row, then one row per attempt, oldest first. Times are ISO 8601
in UTC; `skills` are joined with ";"; `findings` is the number of findings.

**Results file** (`export_results`, `import_results`): JSON, for one trainee or the whole
workstation (its active trainees with attempts)::

    {"format": "dealer-trainer-results", "version": 2, "exported": <seconds since 1970>,
     "source": <workstation>,
     "trainees": [{"key": 1, "uid": <the trainee's id>, "name": "Ana", "created": <seconds>}],
     "attempts": [{"uid": ..., "trainee": 1, "item_id": ..., "game": ..., "mode": ..., "seed": ...,
                   "started": ..., "ended": ..., "duration": ..., "target": ..., "procedure": ...,
                   "payouts": ..., "speed": ..., "total": ..., "passed": ..., "critical": ...,
                   "abandoned": ..., "skills": [...], "findings": [Finding.to_json()...],
                   "log": [Performed.to_json()...], "source": ...}],
     "supervised": [...]}

`supervised`, the rounds the trainees supervised, is trainer.progress.supervised_file's (dealt
again and scored again on import, as the attempts are re-graded).

Import checks the whole file first (a problem raises `ResultsFileError` naming the file, the
field and the problem, and nothing is written), then adds everything in one transaction. A
trainee is matched by its id (`uid`, made where the profile was made), never by name: a trainee
not here yet is added with that id, under its name, or "name (workstation)" when an active
trainee here already has the name. (A version 1 file has no ids: its trainees always arrive as
new profiles, never merged by name.) An attempt whose `uid` is already in the file is skipped, so
importing the same file twice adds nothing. Passphrases never leave the workstation: an
imported trainee is never an instructor.

The scores, findings and skills in a results file are never taken as they are: every attempt is
re-graded from its log by this machine's engine (trainer.progress.regrade), and an attempt whose
round cannot be dealt again here (a scenario file this machine does not have) is left out and
named. The log itself is the workstation's, which is why a results file is a record of
practice, not evidence (certification results travel as exam submissions, trainer.exams.certify).
"""

from __future__ import annotations

import csv
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from trainer import files
from trainer.errors import one_line, shown
from trainer.paths import atomic_text
from trainer.progress import supervised_file
from trainer.progress.errors import ResultsFileError, StoreError
from trainer.progress.records import AttemptRecord, clean_name, long_name, moment, workstation
from trainer.progress.rows import attempts_from_rows, insert_attempt
from trainer.progress.store import Store

FORMAT, VERSION = "dealer-trainer-results", 2
CSV_COLUMNS = ("uid", "trainee", "item_id", "game", "mode", "seed", "started", "ended", "duration",
               "target", "procedure", "payouts", "speed", "total", "passed", "critical", "abandoned",
               "skills", "findings", "source")


def iso(t: float | None) -> str:
    return "" if t is None else datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


def _where(trainee_id: int | None) -> tuple[str, tuple]:
    return ("WHERE a.trainee_id = ?", (trainee_id,)) if trainee_id is not None else ("", ())


def export_csv(store: Store, dest: str | os.PathLike | IO[str], *, trainee_id: int | None = None) -> int:
    """Write the attempts (of one trainee, or all) as CSV; the number of rows written."""
    where, params = _where(trainee_id)
    rows = store.db.execute(
        "SELECT a.uid, t.name, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration, a.target, "
        "a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical, a.abandoned, "
        "(SELECT group_concat(skill, ';') FROM attempt_skills s WHERE s.attempt_id = a.id), "
        "(SELECT count(*) FROM findings f WHERE f.attempt_id = a.id), a.source "
        f"FROM attempts a JOIN trainees t ON t.id = a.trainee_id {where} ORDER BY a.started, a.id", params)
    with _open_text(dest) as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        n = 0
        for r in rows:
            r = list(r)
            r[6], r[7] = iso(r[6]), iso(r[7])
            writer.writerow(["" if v is None else v for v in r])
            n += 1
    return n


def export_results(store: Store, dest: str | os.PathLike | IO[str], *, trainee_id: int | None = None) -> int:
    """Write a results file for one trainee (archived or not) or the whole workstation (its
    active trainees that have attempts or supervised rounds); the number of attempts written. An
    attempt that cannot be read (damaged) is left out and named (Store.note_unreadable)."""
    if trainee_id is not None:
        trainees = [store.trainee(trainee_id)]
    else:
        active = {r["trainee_id"] for r in store.query(
            "SELECT trainee_id FROM attempts UNION SELECT trainee_id FROM supervised_rounds")}
        trainees = [t for t in store.trainees() if t.id in active]
    keys = {t.id: n for n, t in enumerate(trainees, 1)}
    attempts = []
    for tid in keys:
        rows = store.query("SELECT * FROM attempts WHERE trainee_id = ? ORDER BY started, id", (tid,))
        findings = store.query("SELECT f.* FROM findings f JOIN attempts a ON a.id = f.attempt_id "
                               "WHERE a.trainee_id = ? ORDER BY f.id", (tid,))
        skills = store.query("SELECT attempt_id, skill FROM attempt_skills WHERE trainee_id = ? "
                             "ORDER BY attempt_id, skill", (tid,))
        for a in attempts_from_rows(rows, findings, skills, store.note_unreadable):
            attempts.append({
                "uid": a.uid, "trainee": keys[tid], "item_id": a.item_id, "game": a.game,
                "mode": a.mode.value, "seed": a.seed, "started": a.started, "ended": a.ended,
                "duration": a.duration, "target": a.target, "procedure": a.procedure,
                "payouts": a.payouts, "speed": a.speed, "total": a.total, "passed": a.passed,
                "critical": a.critical, "abandoned": a.abandoned, "skills": [s.value for s in a.skills],
                "findings": list(a.findings), "log": list(a.log), "source": a.source})
    doc = {"format": FORMAT, "version": VERSION, "exported": time.time(), "source": workstation(),
           "trainees": [{"key": keys[t.id], "uid": t.uid, "name": t.name, "created": t.created}
                        for t in trainees],
           "attempts": attempts, "supervised": supervised_file.exported(store, keys)}
    with _open_text(dest) as out:
        json.dump(doc, out, ensure_ascii=False, indent=1)
    return len(attempts)


@dataclass(frozen=True)
class ImportSummary:
    added: int
    already_present: int
    trainees_created: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # attempts not re-gradable here, and why
    rescored: int = 0  # attempts whose scores in the file were not what this machine's engine gives
    supervised: int = 0  # supervised rounds added


@dataclass(frozen=True)
class ReadResults:
    """A results file read, checked and re-graded, nothing written yet (`read_results`)."""

    name: str
    source: str  # the workstation it says it came from, as a name can show it
    trainees: dict[int, tuple[str, float, str | None]]  # key -> (name, created, uid)
    records: list[tuple[int, AttemptRecord]]  # (trainee key, the attempt as graded here)
    left_out: list[str]
    rescored: int
    supervised: list = field(default_factory=list)  # (entry, round, score): supervised_file.regraded


class ImportStopped(StoreError):
    """The user stopped an import while it was being read: nothing was added."""


def import_results(store: Store, src: str | os.PathLike | IO[str]) -> ImportSummary:
    """Add a results file's attempts to this store; see the module docstring."""
    return add_results(store, read_results(src))


def read_results(src: str | os.PathLike | IO[str], progress=None) -> ReadResults:
    """The first half of an import: the file read, checked and every attempt re-graded, with no
    store (the app runs it off the window's thread). `progress(done, total)` is called as the
    attempts are re-graded; when it returns False, ImportStopped is raised."""
    # imported here, not with the module: re-grading deals rounds (trainer.drills), which the
    # app's start, that imports this module, never needs (the layers contract still checks it)
    from trainer.progress.regrade import Rounds, regrade_attempt

    name, doc = _read(src)
    trainees, records = _parse(name, doc)
    try:
        entries = supervised_file.parse(doc, trainees)  # a dict: _parse checked it
    except ValueError as e:
        raise ResultsFileError(f"{name}: {e}", path=name) from None
    graded, left_out, rescored = [], [], 0
    rounds: Rounds = {}  # each round dealt once for the whole file
    for i, (key, record) in enumerate(records):
        if progress is not None and i % PROGRESS_EVERY == 0 and progress(i, len(records)) is False:
            raise ImportStopped(f"{name}: the import was stopped; nothing was added", path=name)
        again, why = regrade_attempt(record, rounds)
        if again is None:
            left_out.append(one_line(f"attempts[{i}] ({record.item_id}): {why}"))
            continue
        rescored += (again.total, again.passed, again.critical) != (record.total, record.passed,
                                                                     record.critical)
        graded.append((key, again))
    if progress is not None:
        progress(len(records), len(records))
    named = doc.get("source") if isinstance(doc, dict) else None  # a dict: _parse checked it
    source = clean_name(str(named or ""))[:60] or "another workstation"
    supervised, rounds_left_out = supervised_file.regraded(entries)
    return ReadResults(name, source, trainees, graded, left_out + rounds_left_out, rescored, supervised)


#: how often read_results reports its progress, in attempts
PROGRESS_EVERY = 50


def add_results(store: Store, read: ReadResults) -> ImportSummary:
    """The second half of an import: what `read_results` read, added in one transaction."""
    created: list[str] = []
    added = 0
    with store.write() as db:
        ids: dict[int, int] = {}
        for key, (tname, tcreated, tuid) in read.trainees.items():
            # a version 1 file has no ids: its trainees always arrive as new profiles (matching
            # them by name would let an edited file add attempts to anyone of that name)
            row = None if tuid is None else db.execute(
                "SELECT id, instructor FROM trainees WHERE uid = ?", (tuid,)).fetchone()
            if row is not None and row[1]:
                raise ResultsFileError(f"{read.name}: trainees[{key}]: that id is an instructor's "
                                       "profile here; a results file carries trainees' practice",
                                       path=read.name)
            if row is None:
                name = _free_name(db, tname, read.source)
                cur = db.execute("INSERT INTO trainees (name, created, uid) VALUES (?, ?, ?)",
                                 (name, tcreated, tuid))
                row = (cur.lastrowid,)
                created.append(name)
            ids[key] = row[0]
        for key, record in read.records:
            before = db.conn.total_changes
            insert_attempt(db, record, ids[key])
            added += db.conn.total_changes > before
        rounds = supervised_file.add(db, read.supervised, ids)
    return ImportSummary(added, len(read.records) - added, created, read.left_out, read.rescored, rounds)


def _free_name(db, name: str, source: str) -> str:
    """The name for a trainee added by an import: theirs, or "name (workstation)" (then a number)
    when an active trainee here already has it, or a name a person reads as theirs
    (trainer.progress.names): two people may share a name."""
    from trainer.progress.names import skeletons

    here = {k for (n,) in db.execute("SELECT name FROM trainees WHERE archived = 0")
            for k in enumerate(skeletons(n))}
    taken = lambda n: any(k in here for k in enumerate(skeletons(n)))  # noqa: E731
    if not taken(name):
        return name
    candidate, n = f"{name} ({source})", 2
    while taken(candidate):
        candidate, n = f"{name} ({source} {n})", n + 1
    return candidate


def _read(src) -> tuple[str, object]:
    name = getattr(src, "name", None) or "the results file"
    try:
        if isinstance(src, str | os.PathLike):
            name = os.fspath(src)
            text = files.read_capped(src, MAX_FILE_BYTES).decode("utf-8")
        else:
            text = src.read()
    except UnicodeDecodeError:
        raise ResultsFileError(f"{name}: not a results file (it is not UTF-8 text)", path=str(name)) from None
    except OSError as e:
        raise ResultsFileError(f"{name}: cannot be read ({e.strerror or e})", path=str(name)) from None
    except files.FileRefused as e:
        raise ResultsFileError(f"{name}: {e}, which no results file is", path=str(name)) from None
    try:
        return str(name), loads_in_pieces(text)
    except json.JSONDecodeError as e:
        raise ResultsFileError(f"{name}: not a results file (not JSON: {e.msg} at line {e.lineno}, "
                               f"column {e.colno})", path=str(name)) from None
    except files.DuplicateKey as e:
        raise ResultsFileError(f"{name}: not a results file ({e})", path=str(name)) from None
    except (RecursionError, ValueError) as e:  # too deep, or an integer too long to read
        raise _too_hard(name, e) from None


#: the largest results file read: a workstation's year of practice is tens of megabytes
MAX_FILE_BYTES = 256 * 1024 * 1024

_DECODER = json.JSONDecoder(object_pairs_hook=files.unique_keys)
_SPACE = re.compile(r"[ \t\n\r]*")


def loads_in_pieces(text: str, depth: int = 2):
    """trainer.files.loads(text), the values nested `depth` deep read one at a time (each attempt
    of a results file): json.loads holds the interpreter for a whole 70 MB file (seconds), and a
    thread reading it in pieces lets the window's thread run between them (ui.shell.importing).
    An object that names a key twice is refused (trainer.files.DuplicateKey), as there."""
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    value, end = _value(text, _skip(text, 0), depth)
    end = _skip(text, end)
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def _skip(text: str, at: int) -> int:
    """Where the JSON whitespace from `at` ends."""
    space = _SPACE.match(text, at)
    return space.end() if space else at


def _value(text: str, at: int, depth: int) -> tuple[Any, int]:
    """(the JSON value at `at`, where it ends); an object or a list opened here, member by member
    while `depth` lasts."""
    opened = text[at:at + 1]
    if depth <= 0 or opened not in ("{", "["):
        return _DECODER.raw_decode(text, at)
    closing = "}" if opened == "{" else "]"
    members: list[tuple[str, Any]] = []
    items: list[Any] = []
    at = _skip(text, at + 1)
    empty = text.startswith(closing, at)
    while not empty:  # a member, then its comma or the closing bracket
        if opened == "{":
            if not text.startswith('"', at):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
            key, at = _DECODER.raw_decode(text, at)
            at = _skip(text, at)
            if not text.startswith(":", at):
                raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
            value, at = _value(text, _skip(text, at + 1), depth - 1)
            members.append((key, value))
        else:
            item, at = _value(text, at, depth - 1)
            items.append(item)
        at = _skip(text, at)
        if text.startswith(closing, at):
            break
        if not text.startswith(",", at):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
        at = _skip(text, at + 1)
    return (files.unique_keys(members) if opened == "{" else items), at + 1


def _parse(name: str, doc) -> tuple[dict[int, tuple[str, float, str | None]],
                                   list[tuple[int, AttemptRecord]]]:
    def fail(message: str):
        raise ResultsFileError(f"{name}: {message}", path=name)

    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        fail("not a Dealer Trainer results file (no \"format\": \"dealer-trainer-results\")")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        fail(f"version: must be a whole number, not {version!r}")
    if version > VERSION:
        fail(f"made by a newer version of Dealer Trainer (results version {version}; this one reads "
             f"{VERSION}); update the app to import it")
    for part in ("trainees", "attempts"):
        if not isinstance(doc.get(part), list):
            fail(f"{part}: must be a list")
    trainees: dict[int, tuple[str, float, str | None]] = {}
    uids: set[str] = set()
    for i, t in enumerate(doc["trainees"]):
        where = f"trainees[{i}]"
        if not isinstance(t, dict):
            fail(f"{where}: must be an object")
        key, tname, created = t.get("key"), t.get("name"), t.get("created", time.time())
        if not isinstance(key, int) or isinstance(key, bool) or key in trainees:
            fail(f"{where}.key: must be a whole number used once, not {shown(key)}")
        if not isinstance(tname, str) or not clean_name(tname):
            fail(f"{where}.name: must be a name, not {shown(tname)}")
        if (why := long_name(clean_name(tname))) is not None:
            fail(f"{where}.name: {why}")
        try:
            created = moment(f"{where}.created", created)
        except ValueError as e:
            fail(str(e))
        tuid = t.get("uid")
        if version >= 2:
            if not isinstance(tuid, str) or not 8 <= len(tuid) <= 64 or not tuid.isalnum() \
                    or tuid in uids:
                fail(f"{where}.uid: must be the trainee's id (8 to 64 letters and digits, used "
                     f"once), not {shown(tuid)}")
            uids.add(tuid)
        else:
            tuid = None
        trainees[key] = (clean_name(tname), created, tuid)
    records = []
    fields = set(AttemptRecord.__dataclass_fields__) - {"trainee_id"}
    for i, a in enumerate(doc["attempts"]):
        where = f"attempts[{i}]"
        if not isinstance(a, dict):
            fail(f"{where}: must be an object")
        key = a.get("trainee")
        if isinstance(key, bool) or not isinstance(key, int) or key not in trainees:
            fail(f"{where}.trainee: {shown(key)} is not a key in trainees")
        for list_field in ("skills", "findings", "log"):
            if not isinstance(a.get(list_field, []), list):
                fail(f"{where}.{list_field}: must be a list")
        if not isinstance(a.get("uid"), str) or not a["uid"]:
            fail(f"{where}.uid: must be the attempt's id text, not {shown(a.get('uid'))}")
        unknown = sorted(set(a) - fields - {"trainee"})
        if unknown:
            fail(f"{where}: unknown field {unknown[0]!r}")
        try:
            given: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v  # JSON, checked
                                     for k, v in a.items() if k != "trainee"}  # by the record
            record = AttemptRecord(trainee_id=0, **given)
        except TypeError as e:  # a required field is missing
            missing = str(e).split("argument")[-1].strip(": ") if "argument" in str(e) else str(e)
            fail(f"{where}: missing {missing}")
        except ValueError as e:
            fail(f"{where}.{e}")
        records.append((a["trainee"], record))
    return trainees, records


@contextmanager
def _open_text(dest) -> Iterator[IO[str]]:
    """A stream as it is, or a path written atomically (trainer.paths.atomic_text)."""
    if not isinstance(dest, str | os.PathLike):
        yield dest
        return
    with atomic_text(dest) as out:
        yield out


def _too_hard(name, e: Exception) -> Exception:
    """A file too deep or with too long a number for the JSON reader: named, never a crash."""
    what = "nested too deeply" if isinstance(e, RecursionError) else "a number too long to read"
    return ResultsFileError(f"{name}: not a results file ({what})", path=str(name))
