"""The progress file: its schema, the files it refuses, passphrases, and attempts that are never
lost (a killed process, two processes at once, a read-only or full disk), with real files and
real processes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlite_utils import Database

from tests.support.progress import T0, rec
from trainer import policy
from trainer.drills import random_round
from trainer.grading import correct_log, grade
from trainer.procedure import build
from trainer.progress import (
    AttemptRecord,
    DamagedDatabaseError,
    ForeignDatabaseError,
    Mode,
    NameTakenError,
    NewerDatabaseError,
    Store,
    StoreError,
    StoreUnavailableError,
    UnknownTraineeError,
    schema,
    skills_of,
)
from trainer.progress.rows import ATTEMPT_COLUMNS

#: each new file runs every migration, as the app's does (tests/support/progress_file.py)
MIGRATED_FROM_NOTHING = True

ROOT = Path(__file__).resolve().parents[1]

EXPECTED_COLUMNS = {
    "_migrations": [("name", "TEXT", 0, 1), ("applied_at", "REAL", 1, 0)],
    "trainees": [("id", "INTEGER", 0, 1), ("name", "TEXT", 1, 0), ("created", "REAL", 1, 0),
                 ("archived", "INTEGER", 1, 0), ("archived_at", "REAL", 0, 0),
                 ("instructor", "INTEGER", 1, 0), ("passphrase", "TEXT", 0, 0),
                 ("public_key", "TEXT", 0, 0), ("key_path", "TEXT", 0, 0), ("uid", "TEXT", 0, 0),
                 ("uid_salt", "TEXT", 0, 0)],
    "attempts": [("id", "INTEGER", 0, 1), ("uid", "TEXT", 1, 0), ("trainee_id", "INTEGER", 1, 0),
                 ("item_id", "TEXT", 1, 0), ("game", "TEXT", 1, 0), ("mode", "TEXT", 1, 0),
                 ("seed", "TEXT", 0, 0), ("started", "REAL", 1, 0), ("ended", "REAL", 1, 0),
                 ("duration", "REAL", 1, 0), ("target", "REAL", 0, 0), ("procedure", "INTEGER", 1, 0),
                 ("payouts", "INTEGER", 1, 0), ("speed", "INTEGER", 1, 0), ("total", "INTEGER", 1, 0),
                 ("passed", "INTEGER", 1, 0), ("critical", "INTEGER", 1, 0),
                 ("abandoned", "INTEGER", 1, 0), ("log", "TEXT", 1, 0), ("source", "TEXT", 1, 0),
                 ("rule", "INTEGER", 0, 0)],
    "findings": [("id", "INTEGER", 0, 1), ("attempt_id", "INTEGER", 1, 0), ("kind", "TEXT", 1, 0),
                 ("skill", "TEXT", 1, 0), ("citation", "TEXT", 1, 0), ("severity", "TEXT", 1, 0),
                 ("message", "TEXT", 1, 0), ("expected", "TEXT", 0, 0), ("actual", "TEXT", 0, 0)],
    "attempt_skills": [("attempt_id", "INTEGER", 1, 1), ("skill", "TEXT", 1, 2),
                       ("trainee_id", "INTEGER", 1, 0), ("started", "REAL", 1, 0)],
    "exam_forms": [("id", "INTEGER", 0, 1), ("uid", "TEXT", 1, 0), ("name", "TEXT", 1, 0),
                   ("items", "TEXT", 1, 0), ("time_limit_seconds", "INTEGER", 1, 0),
                   ("pass_mark", "INTEGER", 1, 0), ("attempts_allowed", "INTEGER", 1, 0),
                   ("created", "REAL", 1, 0), ("created_by", "TEXT", 1, 0), ("digest", "TEXT", 1, 0),
                   ("archived", "INTEGER", 1, 0), ("archived_at", "REAL", 0, 0), ("draw", "INTEGER", 1, 0),
                   ("position", "INTEGER", 0, 0)],
    "exam_results": [("id", "INTEGER", 0, 1), ("uid", "TEXT", 1, 0), ("trainee_id", "INTEGER", 1, 0),
                     ("trainee_name", "TEXT", 1, 0), ("form_uid", "TEXT", 1, 0), ("form_name", "TEXT", 1, 0),
                     ("form_digest", "TEXT", 1, 0), ("pass_mark", "INTEGER", 1, 0),
                     ("time_limit_seconds", "INTEGER", 1, 0), ("item_count", "INTEGER", 1, 0),
                     ("started", "REAL", 1, 0), ("ended", "REAL", 0, 0), ("status", "TEXT", 1, 0),
                     ("passed", "INTEGER", 1, 0), ("critical", "INTEGER", 1, 0),
                     ("procedure", "INTEGER", 0, 0), ("payouts", "INTEGER", 0, 0), ("speed", "INTEGER", 0, 0),
                     ("total", "INTEGER", 0, 0),
                     ("source", "TEXT", 1, 0), ("imported", "REAL", 0, 0), ("sitting", "TEXT", 0, 0),
                     ("rule", "INTEGER", 0, 0), ("proof_key", "TEXT", 0, 0), ("proof", "TEXT", 0, 0),
                     ("class_start", "TEXT", 0, 0)],
    "exam_answers": [("id", "INTEGER", 0, 1), ("result_id", "INTEGER", 1, 0), ("position", "INTEGER", 1, 0),
                     ("item_id", "TEXT", 1, 0), ("title", "TEXT", 1, 0), ("game", "TEXT", 1, 0),
                     ("answered", "REAL", 1, 0), ("procedure", "INTEGER", 1, 0), ("payouts", "INTEGER", 1, 0),
                     ("speed", "INTEGER", 1, 0), ("total", "INTEGER", 1, 0), ("passed", "INTEGER", 1, 0),
                     ("critical", "INTEGER", 1, 0), ("findings", "TEXT", 1, 0), ("log", "TEXT", 1, 0)],
    "exam_signoffs": [("id", "INTEGER", 0, 1), ("result_id", "INTEGER", 1, 0), ("signer_id", "INTEGER", 0, 0),
                      ("signer_name", "TEXT", 1, 0), ("signed", "REAL", 1, 0), ("kdf", "TEXT", 1, 0),
                      ("countersignature", "TEXT", 1, 0)],
    "exam_chain": [("seq", "INTEGER", 0, 1), ("result_id", "INTEGER", 1, 0), ("kind", "TEXT", 1, 0),
                   ("ref_id", "INTEGER", 1, 0), ("at", "REAL", 1, 0), ("prev", "TEXT", 1, 0),
                   ("hmac", "TEXT", 1, 0)],
    "exam_sittings": [("nonce", "TEXT", 0, 1), ("trainee_name", "TEXT", 1, 0), ("form_uid", "TEXT", 1, 0),
                      ("form_digest", "TEXT", 1, 0), ("attempt", "INTEGER", 1, 0), ("issued", "REAL", 1, 0),
                      ("expires", "REAL", 1, 0), ("signer", "TEXT", 1, 0), ("token", "TEXT", 1, 0),
                      ("result_uid", "TEXT", 0, 0), ("certified", "REAL", 0, 0), ("draw", "TEXT", 0, 0)],
    "exam_certificates": [("id", "INTEGER", 0, 1), ("result_uid", "TEXT", 1, 0), ("nonce", "TEXT", 1, 0),
                          ("certificate", "TEXT", 1, 0), ("signed", "REAL", 1, 0)],
    "classes": [("uid", "TEXT", 0, 1), ("address", "TEXT", 1, 0), ("joined", "REAL", 1, 0)],
    "class_sent": [("class_uid", "TEXT", 1, 1), ("attempt_id", "INTEGER", 1, 2), ("sent", "REAL", 1, 0)],
    "exam_stream": [("result_id", "INTEGER", 1, 1), ("step", "INTEGER", 1, 2), ("class_uid", "TEXT", 1, 0),
                    ("answer_id", "INTEGER", 0, 0), ("ending", "TEXT", 0, 0), ("link", "TEXT", 1, 0),
                    ("sent", "REAL", 0, 0), ("reply", "TEXT", 0, 0)],
    "class_refused": [("class_uid", "TEXT", 1, 1), ("attempt_id", "INTEGER", 1, 2), ("refused", "REAL", 1, 0),
                      ("reason", "TEXT", 1, 0)],
    "supervised_rounds": [("id", "INTEGER", 0, 1), ("trainee_id", "INTEGER", 1, 0),
                          ("round_uid", "TEXT", 1, 0), ("game", "TEXT", 1, 0),
                          ("difficulty", "INTEGER", 1, 0), ("finished", "REAL", 1, 0),
                          ("pace", "REAL", 1, 0), ("score", "TEXT", 1, 0), ("d_prime", "REAL", 1, 0),
                          ("false_alarms", "INTEGER", 1, 0), ("flags", "TEXT", 1, 0)],
    "supervised_faults": [("round_id", "INTEGER", 1, 1), ("n", "INTEGER", 1, 2), ("kind", "TEXT", 1, 0),
                          ("fault_class", "TEXT", 1, 0), ("caught", "INTEGER", 1, 0),
                          ("seconds", "REAL", 0, 0)],
    "class_supervised": [("class_uid", "TEXT", 1, 1), ("round_id", "INTEGER", 1, 2), ("at", "REAL", 1, 0),
                         ("reason", "TEXT", 0, 0)],
    "call_speeds": [("attempt_uid", "TEXT", 1, 1), ("n", "INTEGER", 1, 2), ("trainee_id", "INTEGER", 1, 0),
                    ("game", "TEXT", 1, 0), ("throw", "INTEGER", 1, 0), ("seconds", "REAL", 1, 0),
                    ("at", "REAL", 1, 0)],
}


def snapshot(path: Path) -> dict[str, bytes]:
    """The bytes of the database file and any companion files beside it."""
    return {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name)}


# ------------------------------------------------------------------ the schema
def test_schema_from_nothing_has_exactly_these_columns(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        db = store.db
        tables = sorted(t for t in db.table_names() if not t.startswith("sqlite_"))
        assert tables == sorted(EXPECTED_COLUMNS)
        for table, expected in EXPECTED_COLUMNS.items():
            info = [(r[1], r[2], r[3], r[5]) for r in db.execute(f"PRAGMA table_info({table})")]
            assert info == expected, table
        assert [r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY rowid")] == schema.known()
        assert schema.known() == ["m001_trainees", "m002_attempts", "m003_findings", "m004_attempt_skills",
                                  "m005_covering_indexes", "m006_exams", "m007_exam_ledger",
                                  "m008_result_sittings", "m009_instructor_keys", "m010_form_pools",
                                  "m011_trainee_uids", "m012_sitting_draws", "m013_class_queue",
                                  "m014_pass_rule", "m015_sitting_proofs", "m017_exam_streams",
                                  "m016_class_refused", "m019_form_order", "m021_supervised_rounds",
                                  "m023_class_supervised", "m024_trainee_uid_salts",
                                  "m026_call_speeds"]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                            "AND name NOT LIKE 'sqlite_%'")}
        assert indexes == {"trainees_active_name", "trainees_uid", "attempts_trainee", "attempts_item",
                           "findings_attempt", "attempt_skills_recent", "exam_results_trainee",
                           "exam_chain_result", "exam_stream_waiting", "supervised_rounds_trainee",
                           "call_speeds_trainee"}


def test_a_trainee_ids_salt_is_kept_checked_and_never_changed(tmp_path):
    """m024: the salt a trainee's class login made her profile's id with (s043 checks it at her
    login's push) is 32 hex digits, given with its id, and never changed once kept; a profile of
    the workstation's own has none."""
    salt = "0123456789abcdef" * 2
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana", uid="a" * 32, uid_salt=salt)
        bo = store.add_trainee("Bo")
        for bad, uid in ((salt.upper(), "b" * 32), (salt[:31], "b" * 32), (salt + "0", "b" * 32),
                         (salt, None)):
            with pytest.raises(ValueError, match="salt is 32 hex digits"):
                store.add_trainee("Cy", uid=uid, uid_salt=bad)
        db = store.db
        assert db.execute("SELECT uid_salt FROM trainees WHERE id = ?", (ana,)).fetchone()[0] == salt
        assert db.execute("SELECT uid_salt FROM trainees WHERE id = ?", (bo,)).fetchone()[0] is None
        with pytest.raises(sqlite3.IntegrityError, match="never changes"):
            db.execute("UPDATE trainees SET uid_salt = ? WHERE id = ?", ("f" * 32, ana))
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            db.execute("UPDATE trainees SET uid_salt = 'not hex' WHERE id = ?", (bo,))


def test_opening_again_applies_nothing_and_keeps_the_data(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana")
        store.record_attempt(rec(ana))
        applied = store.db.execute("SELECT name, applied_at FROM _migrations").fetchall()
    with Store.open(tmp_path / "p.db") as store:
        assert store.db.execute("SELECT name, applied_at FROM _migrations").fetchall() == applied
        assert len(store.attempts(ana)) == 1


def test_an_older_file_is_migrated_forward(tmp_path):
    path = tmp_path / "p.db"
    older = schema.MIGRATIONS[:4]
    db = Database(sqlite3.connect(path, isolation_level=None))
    db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for fn in older:
        fn(db)
        db.execute("INSERT INTO _migrations VALUES (?, 0)", (fn.__name__,))
    db.execute("INSERT INTO trainees (name, created) VALUES ('Ana', 0)")
    db.close()
    with Store.open(path) as store:
        assert schema.applied(store.db) == schema.known()
        assert {i.name for i in store.db["attempts"].indexes} >= {"attempts_item", "attempts_trainee"}
        assert store.record_attempt(rec(store.find_trainee("Ana").id)) == 1


def test_attempts_recorded_before_the_pass_rule_was_kept_read_as_rule_1_and_keep_their_verdict(tmp_path):
    """Grading policy: results graded before pass rule 2 keep their scores and verdicts as recorded
    and read as rule 1; what is recorded now carries the rule it was graded under."""
    path = tmp_path / "p.db"
    db = Database(sqlite3.connect(path, isolation_level=None))
    db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for fn in schema.MIGRATIONS[:schema.known().index("m014_pass_rule")]:
        fn(db)
        db.execute("INSERT INTO _migrations VALUES (?, 0)", (fn.__name__,))
    db.execute("INSERT INTO trainees (name, created, uid) VALUES ('Ana', 0, 'ana-uid')")
    old = rec(1)  # passed at 96: under rule 1, whatever its findings (none are kept here)
    columns = [c for c in ATTEMPT_COLUMNS if c != "rule"]
    values = [getattr(old, c) if c not in ("mode", "log", "passed", "critical", "abandoned") else None
              for c in columns]
    values[columns.index("mode")] = old.mode.value
    values[columns.index("log")] = json.dumps(list(old.log))
    for flag in ("passed", "critical", "abandoned"):
        values[columns.index(flag)] = int(getattr(old, flag))
    marks = ", ".join("?" * len(columns))
    db.execute(f"INSERT INTO attempts ({', '.join(columns)}) VALUES ({marks})", values)
    db.close()
    with Store.open(path) as store:
        [kept] = store.attempts(1)
        assert kept.rule == 1 and kept.passed and kept.total == old.total  # as recorded then
        store.record_attempt(rec(1, n=1, rule=policy.RULE))
        assert [a.rule for a in store.attempts(1)] == [1, policy.RULE]


def test_attempts_are_append_only(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana")
        store.record_attempt(rec(ana, findings=({"kind": "missing", "severity": "minor", "message": "m",
                                                 "cite": "§ 668a.3", "skill": "calls"},)))
        for sql in ("UPDATE attempts SET total = 100", "DELETE FROM attempts", "DELETE FROM findings",
                    "UPDATE attempt_skills SET skill = 'wagers'"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"), store.write() as db:
                db.execute(sql)


def test_a_graded_round_is_recorded_and_read_back(tmp_path):
    scenario = random_round("props-and-hops", 2, 7)
    proc = build(scenario)
    log = correct_log(proc, scenario.automation, seconds_each=2.0)[:-1]  # forgot the last step
    result = grade(proc, log, automation=scenario.automation, game=scenario.game,
                   target_seconds=scenario.target_seconds, elapsed=20)
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana")
        record = AttemptRecord.from_result(
            trainee_id=ana, item_id="drill:props-and-hops:2", game=scenario.game, mode=Mode.PRACTICE,
            result=result, log=log, skills=skills_of(proc, scenario.automation), started=T0,
            ended=T0 + 20, target=scenario.target_seconds, seed=7)
        got = store.attempt(store.record_attempt(record))
    assert got.performed() == log
    assert got.findings == tuple(f.to_json() for f in result.findings) and got.findings
    assert (got.total, got.passed, got.critical) == (result.score.total, result.score.passed,
                                                     result.score.critical)
    assert set(got.skills) == set(skills_of(proc, scenario.automation))
    assert got.seed == "7" and got.duration == 20 and got.uid == record.uid


def test_an_unknown_trainee_fails_at_once(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        with pytest.raises(UnknownTraineeError):
            store.record_attempt(rec(42))
        assert store.pending == [] and store.attempts() == []


def test_a_bad_record_fails_loudly():
    with pytest.raises(ValueError, match="total"):
        rec(1, total=101)
    with pytest.raises(ValueError, match="mode"):
        rec(1, mode="quiz")
    with pytest.raises(ValueError, match=r"findings\[0\].skill"):
        rec(1, findings=({"kind": "missing", "severity": "minor", "message": "m", "skill": "juggling"},))
    with pytest.raises(ValueError, match=r"log\[0\]"):
        rec(1, log=({"do": "dance", "round": 1},))


# ------------------------------------------------------------ trainees and passphrases
def test_trainees_names_archive_and_passphrases(tmp_path, real_kdf):  # the real hash cost checked
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana")
        boss = store.add_trainee("Ms Boss", instructor=True, passphrase="correct horse")
        with pytest.raises(NameTakenError, match="Ana"):
            store.add_trainee(" ana ")
        with pytest.raises(ValueError):
            store.add_trainee("Ivo", instructor=True)
        assert [t.name for t in store.trainees()] == ["Ana", "Ms Boss"]
        assert store.verify_passphrase(boss, "correct horse")
        assert not store.verify_passphrase(boss, "correct horse ")
        assert not store.verify_passphrase(boss, "")
        assert not store.verify_passphrase(ana, "anything")  # no passphrase set
        stored = store.db.execute("SELECT passphrase FROM trainees WHERE id = ?", (boss,)).fetchone()[0]
        scheme, n, r, p, salt, key = stored.split("$")
        assert (scheme, int(n), int(r), int(p), len(salt), len(key)) == ("scrypt", 2**14, 8, 1, 32, 64)
        assert "correct" not in stored
        other = store.add_trainee("Other", instructor=True, passphrase="correct horse")
        assert store.trainee(other).has_passphrase and stored != store.db.execute(
            "SELECT passphrase FROM trainees WHERE id = ?", (other,)).fetchone()[0]  # salted
        store.archive_trainee(ana)
        assert [t.name for t in store.trainees()] == ["Ms Boss", "Other"]
        assert store.trainee(ana).archived and store.trainee(ana).archived_at
        again = store.add_trainee("Ana")  # the name is free once archived
        assert again != ana
        with pytest.raises(NameTakenError):
            store.restore_trainee(ana)


# -------------------------------------------------------------- refused files
def test_random_bytes_are_a_damaged_file_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(os.urandom(8192))
    before = snapshot(path)
    for allow in (False, True):
        with pytest.raises(DamagedDatabaseError) as e:
            Store.open(path, allow_unavailable=allow)
        assert str(path) in str(e.value) and "\n" not in str(e.value)
        assert isinstance(e.value, StoreError)
    assert snapshot(path) == before


def test_a_truncated_database_is_damaged_and_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
        for n in range(300):
            store.record_attempt(rec(ana, n, log=tuple({"do": "pay", "round": 1, "at": float(k),
                                                         "amount": 500} for k in range(20))))
    data = path.read_bytes()
    assert len(data) > 100_000 and not Path(f"{path}-wal").exists()
    path.write_bytes(data[: len(data) // 2])
    before = snapshot(path)
    with pytest.raises(DamagedDatabaseError, match="damaged"):
        Store.open(path)
    assert snapshot(path) == before


def test_a_newer_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _migrations VALUES ('m999_from_a_newer_app', 0)")
    conn.commit()
    conn.close()
    before = snapshot(path)
    for allow in (False, True):
        with pytest.raises(NewerDatabaseError, match="m999_from_a_newer_app") as e:
            Store.open(path, allow_unavailable=allow)
        assert "newer version" in str(e.value)
    assert snapshot(path) == before


def test_another_programs_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    before = snapshot(path)
    with pytest.raises(ForeignDatabaseError):
        Store.open(path)
    assert snapshot(path) == before


# ------------------------------------------------------ read-only and full disks
def _writable(path: Path) -> bool:
    try:
        if path.is_dir():
            probe = path / ".probe"
            probe.write_bytes(b"")
            probe.unlink()
        else:
            with open(path, "r+b"):
                pass
        return True
    except OSError:
        return False


@pytest.fixture
def read_only():
    """Make a file or folder read-only for real: chmod, or (as root, whom chmod does not stop)
    the immutable attribute. Undone at the end."""
    undo = []

    def make(path: Path):
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        undo.append(lambda: path.chmod(mode))
        if _writable(path) and shutil.which("chattr") and subprocess.run(
                ["chattr", "+i", str(path)], capture_output=True).returncode == 0:
            undo.append(lambda: subprocess.run(["chattr", "-i", str(path)], check=True))
        if _writable(path):
            pytest.skip("cannot make a file read-only here")

        def restore():
            while undo:
                undo.pop()()
        return restore

    yield make
    while undo:
        undo.pop()()


def test_a_new_file_in_a_read_only_folder_is_unavailable(tmp_path, read_only):
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only(folder)
    with pytest.raises(StoreUnavailableError, match="Cannot save progress") as e:
        Store.open(folder / "p.db")
    assert str(folder / "p.db") in str(e.value) and "\n" not in str(e.value)
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_keeps_attempts_in_memory_until_writable(tmp_path, read_only, what):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "p.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
        store.record_attempt(rec(ana, 0))
    before = snapshot(path)
    restore = read_only(path if what == "file" else folder)
    with pytest.raises(StoreUnavailableError, match=r"read-only|cannot be opened"):
        Store.open(path)
    store = Store.open(path, allow_unavailable=True)
    assert store.problem is not None
    if what == "file":  # the file can still be read
        assert [t.name for t in store.trainees()] == ["Ana"]
    for n in (1, 2):
        with pytest.raises(StoreUnavailableError, match=f"{n} attempts? (is|are) kept in memory"):
            store.record_attempt(rec(ana, n))
    assert [r.started for r in store.pending] == [T0 + 60, T0 + 120]
    with pytest.raises(StoreUnavailableError):
        store.flush_pending()
    assert len(store.pending) == 2
    assert path.read_bytes() == before[path.name]
    restore()
    assert store.flush_pending() == 2
    assert store.pending == [] and store.problem is None
    assert store.record_attempt(rec(ana, 3)) > 0
    assert [a.started for a in store.attempts(ana)] == [T0, T0 + 60, T0 + 120, T0 + 180]
    store.close()


def test_a_full_database_keeps_the_attempt_until_there_is_room(tmp_path):
    """SQLite's own limit on the file's size gives the same SQLITE_FULL as a full disk."""
    with Store.open(tmp_path / "p.db") as store:
        ana = store.add_trainee("Ana")
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages}")
        big = tuple({"do": "pay", "round": 1, "at": float(k), "amount": 500} for k in range(500))
        with pytest.raises(StoreUnavailableError, match="the disk is full; 1 attempt is kept"):
            store.record_attempt(rec(ana, log=big))
        assert len(store.pending) == 1
        store.db.execute("PRAGMA max_page_count = 1000000")
        assert store.flush_pending() == 1
        assert store.attempts(ana)[0].log == big


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 1 MB file system (tmpfs); needs the right to mount, else the test is skipped."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small file system here")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_full_disk_keeps_the_attempt_until_there_is_room(tiny_disk):
    path = tiny_disk / "p.db"
    store = Store.open(path)
    ana = store.add_trainee("Ana")
    filler = tiny_disk / "filler"
    with open(filler, "wb", buffering=0) as f:  # fill the disk to the last byte
        for chunk in (65536, 512, 1):
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError:
                pass
    big = tuple({"do": "pay", "round": 1, "at": float(k), "amount": 500} for k in range(300))
    with pytest.raises(StoreUnavailableError, match=r"the disk is full|error while writing"):
        store.record_attempt(rec(ana, log=big))
    assert len(store.pending) == 1
    filler.unlink()
    assert store.flush_pending() == 1
    assert store.attempts(ana)[0].log == big
    assert store.integrity_check() == ["ok"]
    store.close()


# ------------------------------------------------------------- real processes
WRITER = textwrap.dedent("""
    import sys
    from trainer.progress import AttemptRecord, Store
    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = Store.open(path)
    me = store.add_trainee(name)
    log = tuple({"do": "pay", "round": 1, "at": float(k), "amount": 500} for k in range(30))
    n = 0
    while count < 0 or n < count:
        uid = f"{name}-{n}"
        store.record_attempt(AttemptRecord(
            trainee_id=me, item_id="props-and-hops/01", game="props-and-hops", mode="drill",
            started=1.7e9 + n, ended=1.7e9 + n + 5, procedure=100, payouts=100, speed=100, total=100,
            passed=True, critical=False, skills=("payouts",), log=log, uid=uid))
        print(uid, flush=True)
        if n % 10 == 0:
            store.attempts(me, limit=5, newest_first=True)
        n += 1
""")


def _writer(path, name, count):
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, str(count)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


#: writers, each a process of its own forked from this program once it has imported what a writer
#: uses (so the interpreter's start and the imports, some 0.3 s of processor, are paid once, not
#: once a writer; the program opens no store, so each writer opens the file as a program started
#: afresh does); each says it is ready, and all are told to go at once (a byte each, which
#: they wait for without a look at the clock). Each writer's stdout and stderr go to files of its
#: own; the program prints each one's exit status.
TOGETHER = textwrap.dedent("""
    import json, os, sys
    from tests.support.forked import run_as_main
    import filelock, trainer.progress.names, trainer.progress.records, trainer.progress.store
    writer, folder, path, count, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    ready_r, ready_w = os.pipe()
    pids = {}
    for name in names:
        go_r, go_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # a writer holds no other end of the pipes: none outlives it waiting on another
            try:
                for fd in (ready_r, go_w, *(w for _, w in pids.values())):
                    os.close(fd)
                for fd, part in ((1, "out"), (2, "err")):
                    made = os.open(os.path.join(folder, f"{name}.{part}"), os.O_WRONLY | os.O_CREAT, 0o600)
                    os.dup2(made, fd)
                os.write(ready_w, b"r")
                os.close(ready_w)
            except BaseException:
                os._exit(1)
            os.read(go_r, 1)
            os._exit(run_as_main(writer, [path, name, count]))
        pids[name] = (pid, go_w)
    os.close(ready_w)  # the wait ends when each writer has said it is ready or has ended
    for _ in names:
        os.read(ready_r, 1)
    for _, go_w in pids.values():
        os.write(go_w, b"g")
    print(json.dumps({name: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                      for name, (pid, _) in pids.items()}))
""")


def _together(path, names, count) -> dict[str, subprocess.CompletedProcess]:
    """Writers, each a process of its own, that start writing at one moment (TOGETHER): what each
    printed and its exit status, by name."""
    folder = Path(path).parent / f"{Path(path).name}-writers"
    folder.mkdir()
    done = subprocess.run([sys.executable, "-c", TOGETHER, WRITER, str(folder), str(path), str(count),
                           *names], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    return {name: subprocess.CompletedProcess(name, status[name], *(
        (folder / f"{name}.{part}").read_text() for part in ("out", "err"))) for name in names}


def test_a_writer_that_fails_before_it_is_ready_holds_up_no_other(tmp_path):
    """The writers' harness (TOGETHER): a writer that cannot start (its output file cannot be
    made) ends with status 1 and the others still go and end, instead of every one waiting for
    the others' pipes until the run's timeout."""
    folder = tmp_path / "writers"
    folder.mkdir()
    done = subprocess.run([sys.executable, "-c", TOGETHER, WRITER, str(folder), str(tmp_path / "p.db"),
                           "3", "a", "no/such"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"a": 0, "no/such": 1}
    assert len((folder / "a.out").read_text().split()) == 3


def test_sigkill_while_writing_loses_no_committed_attempt(tmp_path):
    path = tmp_path / "p.db"
    committed: list[str] = []
    for round_ in range(3):
        proc = _writer(path, f"w{round_}", -1)
        for _ in range(40 + 17 * round_):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            committed.append(line.strip())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        committed += [line.strip() for line in proc.stdout.read().splitlines()]  # printed before the kill
        proc.stdout.close()
        proc.stderr.close()
    with Store.open(path) as store:
        assert store.integrity_check() == ["ok"]
        uids = {r["uid"] for r in store.query("SELECT uid FROM attempts")}
        assert set(committed) <= uids
        assert len(uids) - len(committed) <= 3  # at most one committed but not yet printed per kill
        skills = store.query("SELECT count(*) AS n FROM attempt_skills")[0]["n"]
        assert skills == len(uids)  # every attempt is whole: its skills were committed with it


def test_two_processes_write_one_file_at_once(tmp_path):
    path = tmp_path / "p.db"
    for p in _together(path, ["p0", "p1"], 150).values():
        assert p.returncode == 0, p.stderr
        assert "locked" not in p.stderr and len(p.stdout.split()) == 150
    with Store.open(path) as store:
        counts = {r["name"]: r["n"] for r in store.query(
            "SELECT t.name, count(*) AS n FROM attempts a JOIN trainees t ON t.id = a.trainee_id "
            "GROUP BY t.name")}
        assert counts == {"p0": 150, "p1": 150}
        assert store.integrity_check() == ["ok"]


def test_a_new_progress_file_is_readable_by_its_owner_only(tmp_path):
    import stat

    path = tmp_path / "p.db"
    with Store.open(path) as store:
        store.add_trainee("Ana")
        files = [p for p in tmp_path.iterdir() if p.name.startswith("p.db")]
        assert {p.name for p in files} >= {"p.db", "p.db-wal"}
        for p in files:
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name


def _made_with(path: Path, statements: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(statements)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("statements", "says"), [
    ("CREATE TABLE _migrations (version INTEGER); INSERT INTO _migrations VALUES (3);",
     "another program"),
    ("PRAGMA application_id = 1234; CREATE TABLE _migrations (name TEXT, applied_at REAL);",
     "application id 0x4d2"),
    ("CREATE VIEW v AS SELECT 1 AS one;", "another program"),
    ("", "an empty file"),
])
def test_foreign_files_are_refused_by_name_and_never_written(tmp_path, statements, says):
    path = tmp_path / "other.db"
    if statements:
        _made_with(path, statements)
    else:
        path.write_bytes(b"")
    before = snapshot(path)
    with pytest.raises(ForeignDatabaseError, match=says):
        Store.open(path)
    assert snapshot(path) == before


def test_a_progress_file_carries_the_application_id(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        store.add_trainee("Ana")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    conn.close()
    with Store.open(path) as store:  # and opens again
        assert [t.name for t in store.trainees()] == ["Ana"]


def test_copies_of_the_app_making_a_new_file_at_the_same_moment_all_open_it(tmp_path):
    """An empty file another copy is making at that moment is not a foreign empty file."""
    for round_ in range(3):
        path = tmp_path / f"new{round_}.db"
        for p in _together(path, [f"w{k}" for k in range(4)], 3).values():
            assert p.returncode == 0, p.stderr
        with Store.open(path) as store:
            assert len(store.attempts()) == 12


def test_a_refused_file_with_a_leftover_wal_is_never_written_or_checkpointed(tmp_path):
    """Once, the checks ran on a read-write connection, so closing it merged a leftover
    -wal into a file the app had just refused. Here a newer file's last commit is still in its
    -wal (its writer died): refused, and the database and its -wal keep every byte."""
    import shutil

    live = tmp_path / "live.db"
    with Store.open(live) as store:
        store.add_trainee("Ana")
    writer = sqlite3.connect(live)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO _migrations (name, applied_at) VALUES ('m999_from_the_future', 0)")
    writer.commit()  # in the -wal only: nothing checkpoints it
    copy = tmp_path / "copy.db"
    for suffix in ("", "-wal"):  # the files as a crash left them
        shutil.copyfile(f"{live}{suffix}", f"{copy}{suffix}")
    writer.close()
    assert Path(f"{copy}-wal").stat().st_size > 0
    data = {s: Path(f"{copy}{s}").read_bytes() for s in ("", "-wal")}
    with pytest.raises(NewerDatabaseError):
        Store.open(copy)
    assert {s: Path(f"{copy}{s}").read_bytes() for s in ("", "-wal")} == data


def test_a_refused_file_gets_no_companion_files(tmp_path):
    path = tmp_path / "notes.db"
    _made_with(path, "CREATE TABLE notes (body TEXT);")
    with pytest.raises(ForeignDatabaseError):
        Store.open(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_a_file_that_cannot_even_be_looked_at_says_how_many_results_wait(tmp_path, monkeypatch):
    """The check before a write meets an OS error (a share's folder lost its permissions): the
    message still says how many results are kept in memory."""
    import errno

    import trainer.progress.opening as opening

    path = tmp_path / "p.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
    store = Store.open(path, allow_unavailable=True)
    store.close()  # the next write opens the file again, from its checks
    real_stat = os.stat

    def denied(p, *args, **kw):
        if str(p) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(p))
        return real_stat(p, *args, **kw)

    monkeypatch.setattr(opening.os, "stat", denied)
    with pytest.raises(StoreUnavailableError, match=r"1 attempt is kept in memory"):
        store.record_attempt(rec(ana, 1))
    with pytest.raises(StoreUnavailableError, match=r"2 attempts are kept in memory") as raised:
        store.record_attempt(rec(ana, 2))
    assert raised.value.pending == 2


def test_a_copy_in_memory_holds_what_the_store_holds_and_is_written_apart(tmp_path, monkeypatch):
    with Store.open(tmp_path / "progress.db") as store:
        store.add_trainee("Ana Ruiz")
        migrated: list = []
        monkeypatch.setattr(schema, "migrate", lambda db: migrated.append(db))
        copy = store.copy_in_memory()
        assert migrated == [], "the copy was migrated, then copied over"
        assert copy.path == ":memory:"
        assert copy.db.execute("PRAGMA foreign_keys").fetchone() == (1,)
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            copy.db.execute("INSERT INTO findings (attempt_id, kind, skill, citation, severity, message) "
                            "VALUES (999, 'k', 's', 'c', 'minor', 'm')")
        assert [t.name for t in copy.trainees()] == ["Ana Ruiz"]
        copy.add_trainee("Ben Cole")
        store.add_trainee("Cara Diaz")
        assert [t.name for t in store.trainees()] == ["Ana Ruiz", "Cara Diaz"]
        assert [t.name for t in copy.trainees()] == ["Ana Ruiz", "Ben Cole"]
        copy.close()
