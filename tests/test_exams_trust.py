"""The local exam results chain: the installation secret, the HMAC chain against edits made with
the sqlite3 command, and `verify-results --db --secret`, with real files and real processes. The
chain is an integrity check of the file, not evidence (trainer.exams.trust); what certification
trusts is tested in test_exams_certify."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.command import run_command, run_here
from tests.support.exams import PASS, form, sit
from trainer.exams import (
    KeyFileError,
    installation_key,
    read_installation_key,
    results,
    verify_results,
)
from trainer.progress import Store

ROOT = Path(__file__).resolve().parents[1]


def sql(db: Path, statements: str) -> None:
    """Edit the file as someone outside the app would: the sqlite3 command, or (if this machine
    has none) Python's sqlite3 module in another process. Triggers are no obstacle to them."""
    if shutil.which("sqlite3"):
        done = subprocess.run(["sqlite3", str(db), statements], capture_output=True, text=True, timeout=30)
    else:
        code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); "
                "c.commit()")
        done = subprocess.run([sys.executable, "-c", code, str(db), statements], capture_output=True,
                              text=True, timeout=30)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def paths(tmp_path):
    return tmp_path / "p.db", tmp_path / "private" / "installation.key"


@pytest.fixture
def classroom(paths):
    """A workstation: Ana and Ben sat the exam (3 results), the instructor Ivy."""
    db, secret = paths
    key = installation_key(secret)
    with Store.open(db) as store:
        ana, ben = store.add_trainee("Ana"), store.add_trainee("Ben")
        ivy = store.add_trainee("Ivy", instructor=True, passphrase=PASS)
        exam = form()
        ids = [sit(store, key, ana, exam, critical_at=0).id, sit(store, key, ben, exam).id,
               sit(store, key, ana, exam).id]
    return {"db": db, "secret": secret, "key": key, "ana": ana, "ben": ben, "ivy": ivy, "ids": ids,
            "form": exam}


# ------------------------------------------------------------------ the installation secret
def test_the_installation_secret_is_made_once_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "deep" / "installation.key"
    key = installation_key(path)
    assert len(key) == 32 and path.read_bytes() == key
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert installation_key(path) == key == read_installation_key(path)
    assert [p.name for p in path.parent.iterdir()] == ["installation.key"]  # no temporary left


def test_a_missing_or_wrong_secret_is_named(tmp_path):
    with pytest.raises(KeyFileError, match="no installation secret at"):
        read_installation_key(tmp_path / "none.key")
    bad = tmp_path / "bad.key"
    bad.write_bytes(b"short")
    with pytest.raises(KeyFileError, match="should hold 32 bytes, not 5"):
        installation_key(bad)  # never replaced: results made with it would all be flagged
    assert bad.read_bytes() == b"short"


# ------------------------------------------------------------------ the chain
def test_results_written_by_the_app_verify(classroom):
    with Store.open(classroom["db"]) as store:
        assert verify_results(store, classroom["key"]) == []
        assert len(results(store)) == 3
        chain = store.query("SELECT kind FROM exam_chain ORDER BY seq")
        assert [c["kind"] for c in chain[:5]] == ["start", "answer", "answer", "answer", "end"]


def test_a_score_edited_with_the_sqlite3_command_is_flagged_and_only_that_result(classroom):
    target = classroom["ids"][0]
    if shutil.which("sqlite3"):  # the app's own triggers refuse the edit; a tamperer drops them first
        refused = subprocess.run(["sqlite3", str(classroom["db"]), "UPDATE exam_results SET total = 100;"],
                                 capture_output=True, text=True, timeout=30)
        assert refused.returncode != 0 and "closed once and never changed" in refused.stderr
    sql(classroom["db"], "DROP TRIGGER exam_results_close_once; UPDATE exam_results "
                         f"SET total = 100, passed = 1, status = 'passed' WHERE id = {target};")
    with Store.open(classroom["db"]) as store:
        problems = verify_results(store, classroom["key"])
    assert {p.result_id for p in problems} == {target}
    assert "changed outside the app" in problems[0].message and "HMAC" in problems[0].message
    assert str(problems[0]).startswith(f"exam result {target} (Ana, Floor supervisor exam, ")


def test_an_edited_finding_or_log_is_flagged(classroom):
    target = classroom["ids"][1]
    sql(classroom["db"], "DROP TRIGGER exam_answers_no_update; "
                         f"UPDATE exam_answers SET log = '[]' WHERE result_id = {target} AND position = 1;")
    with Store.open(classroom["db"]) as store:
        problems = verify_results(store, classroom["key"])
    assert {p.result_id for p in problems} == {target}
    assert any("its answer was changed" in p.message for p in problems)


def test_a_deleted_result_breaks_the_chain(classroom):
    _, second, third = classroom["ids"]
    sql(classroom["db"], "PRAGMA foreign_keys = OFF; "
                         "DROP TRIGGER exam_results_no_delete; DROP TRIGGER exam_answers_no_delete; "
                         "DROP TRIGGER exam_chain_no_delete; "
                         f"DELETE FROM exam_answers WHERE result_id = {second}; "
                         f"DELETE FROM exam_results WHERE id = {second}; "
                         f"DELETE FROM exam_chain WHERE result_id = {second};")
    with Store.open(classroom["db"]) as store:
        problems = verify_results(store, classroom["key"])
    assert [p.result_id for p in problems] == [third]
    assert "the chain is broken" in problems[0].message


def test_a_result_deleted_but_not_its_chain_is_named(classroom):
    second = classroom["ids"][1]
    sql(classroom["db"], "PRAGMA foreign_keys = OFF; DROP TRIGGER exam_results_no_delete; "
                         f"DELETE FROM exam_results WHERE id = {second};")
    with Store.open(classroom["db"]) as store:
        problems = verify_results(store, classroom["key"])
    assert {p.result_id for p in problems} == {second}
    assert any("was deleted outside the app" in p.message for p in problems)


def test_a_result_added_outside_the_app_is_flagged(classroom):
    sql(classroom["db"], "INSERT INTO exam_results (uid, trainee_id, trainee_name, form_uid, form_name, "
                         "form_digest, pass_mark, time_limit_seconds, item_count, started, ended, status, "
                         "passed, critical, procedure, payouts, speed, total, source) VALUES ('x', 2, 'Ben', "
                         "'floor-1', 'Floor supervisor exam', 'd', 80, 900, 3, 1, 2, 'passed', 1, 0, "
                         "100, 100, 100, 100, 'here');")
    with Store.open(classroom["db"]) as store:
        problems = verify_results(store, classroom["key"])
    assert [(p.result_id, p.message) for p in problems] == [
        (4, "it is not in the chain: added outside the app")]


def test_another_secret_flags_everything(classroom, tmp_path):
    with Store.open(classroom["db"]) as store:
        flagged = {p.result_id for p in verify_results(store, installation_key(tmp_path / "other.key"))}
    assert flagged == set(classroom["ids"])


# ------------------------------------------------------------------ sign-off
# ------------------------------------------------------------------ dealer-trainer verify-results
def verify_command(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trainer", "verify-results", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, env={**os.environ, **(env or {})})


def test_verify_results_command(classroom, tmp_path):
    db, secret = str(classroom["db"]), str(classroom["secret"])
    done = verify_command("--db", db, "--secret", secret)
    assert (done.returncode, done.stdout, done.stderr) == (0, "3 exam results verified\n", "")

    target = classroom["ids"][2]
    sql(classroom["db"], f"DROP TRIGGER exam_results_close_once; UPDATE exam_results SET total = 42 "
                         f"WHERE id = {target};")
    done = run_command("verify-results", "--db", db, "--secret", secret)  # as `dealer-trainer` runs it
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"exam result {target} (Ana, Floor supervisor exam, ")
    assert "changed outside the app" in lines[0]
    assert "1 of 3 exam results flagged" in done.stderr and "Traceback" not in done.stderr


def test_verify_results_bad_paths_exit_2_in_one_line(classroom, tmp_path):
    db, secret = str(classroom["db"]), str(classroom["secret"])
    cases = {
        ("--db", str(tmp_path / "none.db"), "--secret", secret): "no such progress file",
        ("--db", db, "--secret", str(tmp_path / "none.key")): "no installation secret at",
        ("--db", str(tmp_path), "--secret", secret): "no such progress file",
        ("--db", db): "give FILE --public-key KEY (certificates), or --db and --secret",
        ("--secret", secret): "give FILE --public-key KEY (certificates), or --db and --secret",
    }
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("hello", encoding="utf-8")
    cases[("--db", str(not_a_db), "--secret", secret)] = "is damaged"
    for args, message in cases.items():  # the program's entry in this process (run_here)
        done = run_here("verify-results", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and message in done.stderr, (args, done.stderr)
        assert done.stdout == ""
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "none.key").exists()
    assert not_a_db.read_text(encoding="utf-8") == "hello"


def test_verify_results_with_another_secret_says_so(classroom, tmp_path):
    other = tmp_path / "other.key"
    installation_key(other)
    done = run_here("verify-results", "--db", str(classroom["db"]), "--secret", str(other))
    assert done.returncode == 1 and len(done.stdout.splitlines()) == 3
    assert "is the installation secret this progress file was written with?" not in done.stdout
    assert "installation secret this progress" in done.stderr


def test_edits_by_python_sqlite3_in_another_process_are_flagged_too(classroom):
    """The fallback the tamper helper uses on machines without the sqlite3 command."""
    code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.executescript('DROP TRIGGER exam_results_close_once; UPDATE exam_results SET speed = 1 "
            "WHERE id = 1;'); c.commit()")
    subprocess.run([sys.executable, "-c", code, str(classroom["db"])], check=True, timeout=30)
    with Store.open(classroom["db"]) as store:
        assert {p.result_id for p in verify_results(store, classroom["key"])} == {1}
