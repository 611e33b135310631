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

from tests.support.class_server import PASSWORD, progress_file, push_all, server_rows
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
            classroom=joined.seat("Table 5"), stop_after=1)
        sent(store, joined.seat("Table 5"))
        held = bytes.fromhex(store.query("SELECT proof_key FROM exam_results")[0]["proof_key"])
    return token["nonce"], held


def test_a_sittings_answer_holds_no_more_than_an_attempts_log(tmp_path, klass, joined, ivy):
    """With the proof key from his file, Sam sends item 2 with a log of 1 MiB less a byte (taken
    before), then of 2,001 short actions: both refused by name, and each refusal kept with its
    size, never the log itself (s034); sent without the step's link, neither keeps anything. His
    real answer then goes through, and nothing past the sitting's last step is taken."""
    nonce, held = sam_mid_sitting(tmp_path, ivy, joined)
    big = a_log(100, pad=3_000)
    many = a_log(2_001)
    assert LOG_BYTES < len(big.encode()) < 1_048_576
    with klass.connect(klass.seat("Table 5")) as conn:
        for forged_link in (b"\0" * 32, link(held, 3, 2)):  # no proof of the start code: nothing kept
            with pytest.raises(ClassServerError, match="more than the 262,144 an item's log may hold"):
                server_ledger.sitting_step(conn, nonce, 3, forged_link, position=1, log=big)
        assert server_rows(klass, "exam_sitting_refusals") == []
        said = server_ledger.sitting_step(conn, nonce, 3, link(held, 3, 3), position=1, log=big)
        assert said == (f"refused: an answer's log is {len(big.encode())} bytes, more than the 262,144 "
                        "an item's log may hold")
        said = server_ledger.sitting_step(conn, nonce, 3, link(held, 3, 3), position=1, log=many)
        assert said == "refused: an answer's log is 2001 actions, more than the 2,000 an item's log may hold"
        assert [r[1] for r in server_rows(klass, "exam_sitting_steps")] == [1, 2]
    with klass.admin() as admin:
        kept = admin.execute("SELECT step, kind, position, answer_sha256, reason, answer_bytes "
                             "FROM exam_sitting_refusals ORDER BY id").fetchall()
        whole = admin.execute("SELECT sum(pg_column_size(r.*)) FROM exam_sitting_refusals r").fetchone()[0]
    assert [(k[0], k[1], k[2], k[3], k[5]) for k in kept] == [
        (3, "answer", 1, None, len(big.encode())), (3, "answer", 1, None, len(many.encode()))]
    assert whole < 1_000  # the reasons and sizes only: none of the logs' text
    with klass.connect(klass.seat("Table 5")) as conn:
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


def test_the_quota_is_the_readmes(unchanged_class):
    with unchanged_class.admin() as admin:
        assert admin.execute("SELECT * FROM login_quota('table_1')").fetchone() == (QUOTA_ROWS, QUOTA_BYTES)
        assert admin.execute("SELECT * FROM login_quota('workstation')").fetchone() == (
            10 * QUOTA_ROWS, 10 * QUOTA_BYTES)
    with unchanged_class.connect("workstation") as conn:
        assert conn.execute("SELECT * FROM login_stored()").fetchone() == (
            0, 0, 10 * QUOTA_ROWS, 10 * QUOTA_BYTES)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT charge_login('attempts', -5, -5)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM login_storage")


# ---------------------------------------------------------------- the running total (s028)
def totals(klass) -> tuple[dict, dict]:
    """Each login's running total (s028) and the sum of its rows in login_storage (s023)."""
    kept = {r[0]: (r[1], r[2]) for r in klass.read("SELECT login, rows, bytes FROM login_totals")}
    summed = {r[0]: (int(r[1]), int(r[2])) for r in klass.read(
        "SELECT login, sum(rows), sum(bytes) FROM login_storage GROUP BY login")}
    return kept, summed


def a_trainee(n: int) -> dict:
    """A trainee row as a workstation sends one, new to the class: one row of the quota."""
    return {"uid": f"{n:032x}", "name": f"Tra {n}", "created": 1.8e9, "archived": 0,
            "archived_at": None, "instructor": 0}


def test_each_logins_total_is_the_sum_of_what_it_had_kept(tmp_path, klass, joined, ivy):
    """Pushes of three logins (the shared workstation's, an enrolled workstation's, a trainee's
    own), pushes of what the class holds already (charged nothing), a push refused as a whole
    (charged nothing), an instructor's retraction and merge, and a sitting's steps: each login's
    total is the sum of its rows in login_storage, and login_stored() tells each login its own."""
    from trainer.classes.server.people import merge
    from trainer.classes.server.retractions import retract

    assert push_all(progress_file(tmp_path / "ws.sqlite", {"Dee": 2, "Cy": 3}), klass) == 5
    with klass.connect("instructor") as instructor:
        dee = class_login(instructor, "Dee", "dee-password-1234")
        table = enrol_workstation(instructor, "Table 1", "table-1-password")
    assert push_all(progress_file(tmp_path / "table.sqlite", {"Eve": 4}), klass,
                    address=klass.address(table, "table-1-password")) == 4
    with klass.admin() as admin:
        dee_uid, eve_uid = (admin.execute("SELECT uid FROM trainees WHERE name = %s", (n,)).fetchone()[0]
                            for n in ("Dee", "Eve"))
    with klass.connect(dee, "dee-password-1234") as conn:
        assert push(conn, {"trainees": [], "attempts": [forged(n, dee_uid) for n in range(300, 303)]}) == 3
        assert push(conn, {"trainees": [], "attempts": [forged(300, dee_uid)]}) == 0  # held: no charge
        with pytest.raises(psycopg.Error):  # another trainee's attempt refuses the whole batch
            push(conn, {"trainees": [], "attempts": [forged(310, dee_uid), forged(311, eve_uid)]})
    with klass.connect(table, "table-1-password") as conn:
        assert push(conn, {"trainees": [], "attempts": [forged(400, eve_uid, a_log(10))]}) == 1
    sam_mid_sitting(tmp_path, ivy, joined)  # Table 5's steps, a start and an answer: no charge (s030)
    with klass.connect("instructor") as instructor:
        retract(instructor, f"{300:032x}", "pushed twice by mistake")
        with klass.admin() as admin:
            cy_uid = admin.execute("SELECT uid FROM trainees WHERE name = 'Cy'").fetchone()[0]
        merge(instructor, eve_uid, cy_uid)
        assert push(instructor, {"trainees": [], "attempts": [forged(500, eve_uid)]}) == 1  # no quota
    with klass.connect("workstation") as conn:
        push(conn, {"trainees": [a_trainee(7)], "attempts": []})
    kept, summed = totals(klass)
    assert set(kept) == {"workstation", dee, table} and kept == summed
    assert kept[dee][0] == 9  # three attempts and their two skills each
    for login, password in (("workstation", PASSWORD), (dee, "dee-password-1234"),
                            (table, "table-1-password")):
        with klass.connect(login, password) as conn:
            assert conn.execute("SELECT rows, bytes FROM login_stored()").fetchone() == kept[login]


def waiting_on_a_lock(klass, pid: int) -> bool:
    return klass.read("SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s",
                      (pid,))[0][0] is True


def test_two_pushes_of_one_login_at_once_never_both_pass_the_quota(klass):
    """Two workstations on the shared login push a new trainee each at once: the second waits
    for the first's commit and is counted on the total the first left. With room for both, both
    are kept; with room for one, the second is refused in the quota's words. Before s028 neither
    waited: both read the same sum, and both were kept past the quota."""
    import threading

    from tests.support.class_server import until

    first, second = klass.connect("workstation"), klass.connect("workstation")
    outcome: list = []

    def push_second(n: int) -> None:
        try:
            outcome.append(push(second, {"trainees": [a_trainee(n)], "attempts": []}))
        except psycopg.Error as e:
            outcome.append(e)

    try:
        for quota, (mine, theirs) in ((2, (1, 2)), (3, (3, 4))):
            quota_of(klass, quota, 10 ** 9)
            with first.transaction():
                first.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [a_trainee(mine)],
                                                                  "attempts": []}),))
                thread = threading.Thread(target=push_second, args=(theirs,))
                thread.start()
                until(lambda: waiting_on_a_lock(klass, second.info.backend_pid), within=30,
                      what="the second push waiting on the first's total")
            thread.join(60)
            assert not thread.is_alive()
    finally:
        first.close()
        second.close()
    assert outcome[0] == 0  # room for both: kept (no attempt in it, a trainee)
    refused = outcome[1]  # room for one: refused on the first's total, in the quota's words
    assert isinstance(refused, psycopg.errors.RaiseException), refused
    assert str(refused).splitlines()[0].startswith(
        "the class keeps no more from login workstation: it holds 3 rows (")
    assert totals(klass)[0]["workstation"][0] == 3 and klass.count("trainees") == 3


def test_the_quota_refuses_only_past_its_edge(klass):
    """The shared login pushes one new trainee (one row) at a time against a quota of 3 rows:
    just under it (2) and at it (3) are kept, one more is refused in s023's words, and the
    total stays 3; the bytes' edge likewise, with room for exactly one more row."""
    quota_of(klass, 3, 10 ** 9)
    with klass.connect("workstation") as conn:
        for n in (1, 2, 3):
            push(conn, {"trainees": [a_trainee(n)], "attempts": []})
            assert conn.execute("SELECT rows FROM login_stored()").fetchone()[0] == n
        with pytest.raises(psycopg.errors.RaiseException) as refused:
            push(conn, {"trainees": [a_trainee(4)], "attempts": []})
        rows, size = conn.execute("SELECT rows, bytes FROM login_stored()").fetchone()
    assert str(refused.value).splitlines()[0] == (
        f"the class keeps no more from login workstation: it holds 3 rows ({size} bytes) from it, "
        "and a login may have it keep 3 rows (1000000000 bytes); these attempts would pass that")
    assert rows == 3 and klass.count("trainees") == 3
    one = size // 3  # the rows are alike: a name and a uid of the same lengths
    assert one * 3 == size
    quota_of(klass, 10, size + one)
    with klass.connect("workstation") as conn:
        push(conn, {"trainees": [a_trainee(5)], "attempts": []})  # at the bytes' edge: kept
        with pytest.raises(psycopg.errors.RaiseException, match=r"it holds 4 rows \("):
            push(conn, {"trainees": [a_trainee(6)], "attempts": []})
    assert klass.count("trainees") == 4


def test_no_login_but_the_staffs_reads_a_total_and_none_writes_one(klass):
    """A trainee's login (as every workstation's) writes no total, in no way: no grant on the
    table, no charge of its own, and the owner's writes only ever add to one."""
    with klass.connect("instructor") as instructor:
        dee = class_login(instructor, "Dee", "dee-password-1234")
    with klass.connect("workstation") as conn:
        push(conn, {"trainees": [a_trainee(1)], "attempts": []})
    for login, password in (("workstation", PASSWORD), (dee, "dee-password-1234")):
        with klass.connect(login, password) as conn:
            for attack in ("SELECT * FROM login_totals",
                           "UPDATE login_totals SET rows = 0",
                           "INSERT INTO login_totals VALUES ('workstation', 0, 0)",
                           "DELETE FROM login_totals",
                           "SELECT charge_login('attempts', -1000, -1000)"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(attack)
    with klass.admin() as admin:
        admin.execute("SET ROLE class_owner")
        for attack in ("UPDATE login_totals SET rows = rows - 1", "DELETE FROM login_totals"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="never taken back"):
                admin.execute(attack)
        with pytest.raises(psycopg.Error, match="login_totals is append-only"):
            admin.execute("TRUNCATE login_totals")
    with klass.connect("instructor") as conn:
        assert conn.execute("SELECT login, rows FROM login_totals").fetchall() == [("workstation", 1)]


def test_a_class_setup_shared_login_has_the_shared_quota(klass):
    """A class of its own logins (s024): its shared workstation login `<class>_workstation`
    serves every workstation not enrolled, and has the shared login's quota (before s028, a
    trainee's: a tenth)."""
    with klass.admin() as admin:
        admin.execute("SET ROLE class_owner")
        admin.execute("INSERT INTO class_logins (login, kind) VALUES ('math_workstation', 'workstation'), "
                      "('math_instructor', 'instructor')")
        assert admin.execute("SELECT * FROM login_quota('math_workstation')").fetchone() == (
            10 * QUOTA_ROWS, 10 * QUOTA_BYTES)
        assert admin.execute("SELECT * FROM login_quota('math_instructor')").fetchone() == (
            QUOTA_ROWS, QUOTA_BYTES)


def test_a_session_holding_its_logins_total_is_ended_by_the_watch(klass):
    """A trainee at the shared login pushes and keeps the transaction open: every other
    workstation's push of that login waits on its total. The class server's watch ends the
    holder (as any that holds up another), and the one waiting goes on."""
    import threading

    from tests.support.class_server import until
    from trainer.classes.server.command import holders_ended
    from trainer.classes.server.sessions import Ended

    holder, waiter = klass.connect("workstation"), klass.connect("workstation")
    done: list = []
    try:
        holder.execute("BEGIN")
        holder.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [a_trainee(1)], "attempts": []}),))
        thread = threading.Thread(target=lambda: done.append(
            push(waiter, {"trainees": [a_trainee(2)], "attempts": []})))
        thread.start()
        until(lambda: waiting_on_a_lock(klass, waiter.info.backend_pid), what="the push waiting")
        assert holders_ended(klass.server, held=0) == [Ended("workstation", klass.database)]
        thread.join(60)
        assert done == [0]
    finally:
        holder.close()
        waiter.close()
    assert totals(klass)[0] == {"workstation": (1, totals(klass)[1]["workstation"][1])}
