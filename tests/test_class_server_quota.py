"""No login fills the class server's disk (s023, trainer.classes.server.logins "Limits"), on a
real PostgreSQL. Each attack is one a trainee can make with their own login or the workstation's:

- a sitting's answers were bounded in number (its items, s012) but each could hold 1 MiB: a
  sitting of n items held n MiB of logs, four times what an attempt's log may (s021);
- a login pushed attempts without end: nothing counted what one login had the class keep."""

from __future__ import annotations

import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import progress_file, push_all, server_rows
from tests.support.exams import form, issuer, sent, sit
from trainer.classes import ClassServerError
from trainer.classes.server import ledger as server_ledger
from trainer.classes.server.logins import class_login, enrol_workstation
from trainer.classes.workstation.queue import Queue
from trainer.exams import installation_key
from trainer.exams.certify import issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link
from trainer.progress import Store

#: an attempt's log may hold 262,144 bytes and 2,000 actions (s021); the quota of a login that is
#: not the shared one: 50,000 rows, 256 MiB (README, "What the class server keeps")
LOG_BYTES, LOG_ACTIONS = 262_144, 2_000
QUOTA_ROWS, QUOTA_BYTES = 50_000, 256 * 1024 * 1024


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def a_log(actions: int, pad: int = 0) -> str:
    """A log of `actions` payouts, each with a note of `pad` characters (the server reads no
    further than its size and its count of actions)."""
    return json.dumps([{"do": "pay", "round": 1, "at": 2.5 + i, "amount": 500, "note": "x" * pad}
                       for i in range(actions)])


def sam_mid_sitting(tmp_path, ivy, joined) -> tuple[str, bytes]:
    """Sam's sitting of three items, started and item 1 answered on the class server; its nonce
    and the proof key the workstation's file holds (what Sam reads from it)."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        sit(store, installation_key(tmp_path / "k"), sam, exam, sitting=token,
            classroom=joined("workstation"), stop_after=1)
        sent(store, joined("workstation"))
        held = bytes.fromhex(store.query("SELECT proof_key FROM exam_results")[0]["proof_key"])
    return token["nonce"], held


def test_a_sittings_answer_holds_no_more_than_an_attempts_log(tmp_path, klass, joined, ivy):
    """With the proof key from his file, Sam sends item 2 with a log of 1 MiB less a byte (taken
    before), then of 2,001 short actions: both refused by name, nothing kept; his real answer
    then goes through, and nothing past the sitting's last step is taken."""
    nonce, held = sam_mid_sitting(tmp_path, ivy, joined)
    big = a_log(100, pad=3_000)
    assert LOG_BYTES < len(big.encode()) < 1_048_576
    with klass.connect("workstation") as conn:
        with pytest.raises(ClassServerError, match=f"an answer's log is {len(big.encode())} bytes, "
                                                   "more than the 262,144 an item's log may hold"):
            server_ledger.sitting_step(conn, nonce, 3, link(held, 3, 3), position=1, log=big)
        with pytest.raises(ClassServerError, match="an answer's log is 2001 actions, more than the 2,000"):
            server_ledger.sitting_step(conn, nonce, 3, link(held, 3, 3), position=1, log=a_log(2_001))
        assert [r[1] for r in server_rows(klass, "exam_sitting_steps")] == [1, 2]
        assert server_rows(klass, "exam_sitting_refusals") == []
        assert server_ledger.sitting_step(conn, nonce, 3, link(held, 3, 3), position=1,
                                          log=a_log(LOG_ACTIONS)) == "recorded"
        assert server_ledger.sitting_step(conn, nonce, 4, link(held, 3, 4), position=2,
                                          log="[]") == "recorded"
        assert server_ledger.sitting_step(conn, nonce, 5, link(held, 3, 5), ending="finished") == "recorded"
        with pytest.raises(ClassServerError, match="a sitting of 3 items has no step 6"):
            server_ledger.sitting_step(conn, nonce, 6, link(held, 3, 5), ending="finished")
    assert [r[1] for r in server_rows(klass, "exam_sitting_steps")] == [1, 2, 3, 4, 5]


def quota_of(klass, rows: int, size: int) -> None:
    """The class's quota made small (the superuser's change), so that a test reaches it with a
    few pushes: the same check refuses at the real numbers (test_the_quota_is_the_readmes)."""
    with klass.admin() as admin:
        admin.execute(f"CREATE OR REPLACE FUNCTION login_quota(login_name text, OUT rows bigint, "
                      f"OUT bytes bigint) LANGUAGE sql IMMUTABLE AS "
                      f"$$ SELECT {rows}::bigint, {size}::bigint $$")


_model: dict = {}


def forged(n: int, trainee_uid: str, log: str = "[]") -> dict:
    """Attempt `n`, as a workstation sends one (an attempt of a progress file: no findings, two
    skills), under the attacker's trainee id, with a uid and log of its own."""
    if not _model:
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as folder:
            path = progress_file(Path(folder) / "model.sqlite", {"Mo": 2})
            queue = Queue(path)
            try:
                _model.update(queue.batch("any class", 2)[1]["attempts"][1])
            finally:
                queue.close()
    assert not _model["findings"] and len(_model["skills"]) == 2
    return {**_model, "uid": f"{n:032x}", "trainee_uid": trainee_uid, "log": log}


def push(conn: psycopg.Connection, batch: dict) -> int:
    with conn.transaction():
        return conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0]


def test_a_trainees_login_pushing_without_end_is_stopped_at_its_quota(tmp_path, klass):
    """Dee's own login pushes batches of her own attempts without end: each is counted (an
    attempt and its two skills, three rows), the class keeps them until her login's quota, then
    refuses the next batch naming it, and keeps nothing of it; another login still pushes."""
    assert push_all(progress_file(tmp_path / "dee.sqlite", {"Dee": 1}), klass) == 1
    with klass.connect("instructor") as instructor:
        dee = class_login(instructor, "Dee", "dee-password-1234")
    with klass.admin() as admin:
        dee_uid = admin.execute("SELECT uid FROM trainees WHERE name = 'Dee'").fetchone()[0]
    quota_of(klass, 30, 10 ** 9)
    kept, n = klass.count(), 100
    with klass.connect(dee, "dee-password-1234") as conn:
        with pytest.raises(psycopg.errors.RaiseException) as refused:
            while n < 200:
                push(conn, {"trainees": [], "attempts": [forged(n, dee_uid), forged(n + 1, dee_uid)]})
                n += 2
        assert n == 110  # five batches of two attempts: 30 rows
        stored = conn.execute("SELECT rows, bytes, quota_rows FROM login_stored()").fetchone()
    assert str(refused.value).splitlines()[0].startswith(
        f"the class keeps no more from login {dee}: it holds 30 rows (")
    assert ("a login may have it keep 30 rows (1000000000 bytes); these attempts would pass that"
            in str(refused.value))
    assert klass.count() == kept + 10 and stored[0] == 30 and stored[2] == 30
    batch_bytes = sum(len(json.dumps(forged(m, dee_uid), separators=(", ", ": ")).encode())
                      for m in range(100, 110))
    assert stored[1] == batch_bytes  # as PostgreSQL writes the JSON back
    with klass.connect(dee, "dee-password-1234") as conn:  # a push of what it holds costs nothing
        assert push(conn, {"trainees": [], "attempts": [forged(100, dee_uid)]}) == 0
    assert push_all(progress_file(tmp_path / "cy.sqlite", {"Cy": 3}), klass) == 3  # another login


def test_a_login_filling_the_disk_with_big_logs_is_stopped_at_its_bytes(tmp_path, klass):
    """An enrolled workstation's login pushes attempts with logs of 200 kB each: the class keeps
    them until its bytes pass the quota, then refuses; the instructor's pushes have no quota."""
    with klass.connect("instructor") as instructor:
        table = enrol_workstation(instructor, "Table 1", "table-1-password")
    path = progress_file(tmp_path / "table.sqlite", {"Eve": 1})
    assert push_all(path, klass, address=klass.address(table, "table-1-password")) == 1
    with klass.admin() as admin:
        eve = admin.execute("SELECT uid FROM trainees WHERE name = 'Eve'").fetchone()[0]
    quota_of(klass, 10 ** 6, 1_000_000)
    log = a_log(60, pad=3_300)
    assert 200_000 < len(log.encode()) < LOG_BYTES
    n = 100
    with klass.connect(table, "table-1-password") as conn, pytest.raises(psycopg.errors.RaiseException,
                                                                       match=f"no more from login {table}"):
        while n < 200:
            push(conn, {"trainees": [], "attempts": [forged(n, eve, log)]})
            n += 1
    assert n == 104  # 4 logs of 200 kB and their trainee: under 1,000,000 bytes; a fifth is not
    with klass.connect("instructor") as instructor:
        for m in range(200, 210):
            assert push(instructor, {"trainees": [], "attempts": [forged(m, eve, log)]}) == 1


def test_the_apps_pusher_keeps_what_the_quota_refused_waiting(tmp_path, klass):
    """Past the quota the workstation sets nothing aside (it is no fault of a row): its attempts
    wait in the file, and the push fails with the server's words."""
    path = progress_file(tmp_path / "ws.sqlite", {"Fay": 2})
    quota_of(klass, 5, 10 ** 9)  # Fay (1 row) and her first attempt (1, a finding, 2 skills)
    with pytest.raises(psycopg.errors.RaiseException, match="the class keeps no more from login workstation"):
        push_all(path, klass, size=1)
    with klass.admin() as admin:
        class_id = admin.execute("SELECT uid FROM class_info").fetchone()[0]
    queue = Queue(path)
    try:
        assert queue.refused(class_id) == [] and queue.waiting(class_id) == 1
    finally:
        queue.close()
    assert klass.count() == 1


def test_the_quota_is_the_readmes(klass):
    with klass.admin() as admin:
        assert admin.execute("SELECT * FROM login_quota('table_1')").fetchone() == (QUOTA_ROWS, QUOTA_BYTES)
        assert admin.execute("SELECT * FROM login_quota('workstation')").fetchone() == (
            10 * QUOTA_ROWS, 10 * QUOTA_BYTES)
    with klass.connect("workstation") as conn:
        assert conn.execute("SELECT * FROM login_stored()").fetchone() == (
            0, 0, 10 * QUOTA_ROWS, 10 * QUOTA_BYTES)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT charge_login('attempts', -5, -5)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM login_storage")
