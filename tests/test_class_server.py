"""The class server: a real PostgreSQL on the loopback address, one for the whole
session, and a class database per test. Workstations push their progress files' attempts; the
faults a classroom has (a server killed mid-push, a push repeated, two workstations at once) lose
nothing and double nothing, and the server itself keeps trainees out of each other's rows and
every role away from changing an attempt."""

from __future__ import annotations

import dataclasses
import json
import shutil
import threading

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support import class_server
from tests.support.class_server import PASSWORD, T0, Class, attempt, free_port, progress_file, push_all, until
from trainer.classes.errors import ClassServerError, ClassUnreachableError, LoginRefusedError
from trainer.classes.server.ledger import attempts_used, record_sitting, use_sitting
from trainer.classes.server.logins import trainee_login
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.classview import attempts_of, server_class_overview
from trainer.classes.workstation.connection import ClassConnection
from trainer.classes.workstation.push import Pusher
from trainer.classes.workstation.queue import Queue
from trainer.progress.classroom import class_overview
from trainer.progress.columns import ATTEMPT_SKILLS, ATTEMPTS, EXAM_SITTINGS, FINDINGS, TRAINEES
from trainer.progress.store import Store

FAST = {"poll": 0.05, "backoff": (0.02, 0.2)}


def local_attempts(path) -> dict[str, tuple]:
    """uid -> (total, findings, skills) of each attempt in a progress file."""
    with Store.open(path) as store:
        return {a.uid: (a.total, len(a.findings), tuple(sorted(a.skills))) for a in store.attempts()}


def server_attempts(klass: Class) -> dict[str, tuple]:
    rows = klass.read(
        "SELECT a.uid, a.total, (SELECT count(*) FROM findings f WHERE f.attempt_id = a.id), "
        "(SELECT coalesce(array_agg(skill ORDER BY skill), '{}') FROM attempt_skills s "
        " WHERE s.attempt_id = a.id) FROM attempts a")
    return {uid: (total, findings, tuple(skills)) for uid, total, findings, skills in rows}


# --------------------------------------------------------------------------- pushing
def test_a_push_sends_every_attempt_once_with_its_findings_and_skills(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 40, "Bo": 25})
    assert push_all(path, klass) == 65
    assert server_attempts(klass) == local_attempts(path)
    assert push_all(path, klass) == 0  # nothing waits any more


def test_pushing_twice_adds_nothing(tmp_path, klass):
    """The workstation dies after the server committed a batch and before the file marked it
    sent: the batch is pushed again, and the server keeps one copy of each attempt."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 30})
    push_all(path, klass)
    with Store.open(path) as store:
        store.db.execute("DELETE FROM class_sent")  # as if no mark had been written
    queue = Queue(path)
    uid = queue.class_of(klass.address().shown)
    assert queue.waiting(uid) == 30
    queue.close()
    assert push_all(path, klass) == 30  # sent again ...
    assert klass.count() == 30  # ... and added nothing
    assert klass.count("findings") == sum(f for _, f, _ in local_attempts(path).values())
    queue = Queue(path)
    _, batch = queue.batch("another-class", 30)  # every attempt, as a class that has none sees it
    queue.close()
    with klass.connect("workstation") as conn:  # the server's own answer: 0 added
        assert conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0] == 0


def test_killing_the_server_mid_push_loses_nothing_and_doubles_nothing(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 300, "Bo": 200})
    pusher = Pusher(str(path), klass.address(), batch=50, **FAST)
    first_batch_in, go_on = threading.Event(), threading.Event()
    mark_sent = pusher.queue.mark_sent

    def held_after_the_first_batch(class_id, ids):
        mark_sent(class_id, ids)
        first_batch_in.set()
        go_on.wait()

    pusher.queue.mark_sent = held_after_the_first_batch
    pusher.start()
    try:
        assert first_batch_in.wait(60)
        klass.server.crash()  # mid-push: one batch in, nine to go
        assert pusher.waiting() == 450
        go_on.set()
        until(lambda: pusher.problem is not None, what="the pusher noticing the server is gone")
        assert pusher.status.startswith("450 results waiting to be sent")
        assert klass.server.running is False
        assert not class_server.alive(klass.server)  # what the klass fixture asks before a test
        klass.server.start()
        assert class_server.alive(klass.server)
        until(lambda: pusher.waiting() == 0, what="the pusher sending everything after the restart")
    finally:
        go_on.set()
        pusher.stop()
    assert pusher.failures == 0 and pusher.problem is None
    assert pusher.status == "All results sent to the class."
    pusher.close()
    assert server_attempts(klass) == local_attempts(path)
    assert klass.count() == 500


def test_two_workstations_pushing_at_once_share_one_copy_of_each_attempt(tmp_path, klass):
    """Workstation B has a copy of A's file (Ana's attempts, the same uids) and Bo's own: both
    push at the same time, in small batches that interleave."""
    a = progress_file(tmp_path / "a.db", {"Ana": 300})
    b = tmp_path / "b.db"
    shutil.copy(a, b)
    progress_file(b, {"Bo": 300})
    pushers = [Pusher(str(p), klass.address(), batch=20, **FAST) for p in (a, b)]
    for p in pushers:
        p.start()
    try:
        until(lambda: all(p.waiting() == 0 for p in pushers), what="both workstations sending")
    finally:
        for p in pushers:
            p.close()
    assert klass.count() == 600
    assert server_attempts(klass) == local_attempts(b)
    with klass.admin() as conn:
        assert conn.execute("SELECT count(*) FROM trainees").fetchone()[0] == 2


def test_a_connection_that_cannot_reach_the_server_keeps_everything_waiting(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 5})
    wrong = klass.address(password="not-the-password")
    connection = ClassConnection(str(path), wrong, **FAST)
    connection.start()
    try:
        until(lambda: connection.pusher.failures >= 2, what="two failed tries")
        assert connection.waiting() == 5
        assert connection.status.startswith("5 results waiting to be sent: ")
        assert "refuses the password of the login workstation" in connection.status
    finally:
        connection.close()
    assert klass.count() == 0


# --------------------------------------------------------------------------- the server's rules
def two_trainees(tmp_path, klass: Class) -> dict[str, str]:
    path = progress_file(tmp_path / "ws.db", {"Ana": 12, "Bo": 9})
    push_all(path, klass)
    with Store.open(path) as store:
        return {t.name: t.uid for t in store.trainees()}


def test_a_trainee_connection_reads_its_own_rows_and_nobody_elses(tmp_path, klass):
    uids = two_trainees(tmp_path, klass)
    with klass.connect("instructor") as instructor:
        login = trainee_login(instructor, uids["Ana"], "ana-password")
        assert instructor.execute("SELECT count(*) FROM attempts").fetchone()[0] == 21
        bo = instructor.execute("SELECT id FROM trainees WHERE uid = %s", (uids["Bo"],)).fetchone()[0]
    with klass.connect(login, "ana-password") as ana:
        assert [r[0] for r in ana.execute("SELECT uid FROM trainees")] == [uids["Ana"]]
        assert ana.execute("SELECT count(*) FROM attempts").fetchone()[0] == 12
        assert ana.execute("SELECT count(*) FROM attempts WHERE trainee_id = %s", (bo,)).fetchone()[0] == 0
        assert ana.execute("SELECT count(*) FROM attempt_skills WHERE trainee_id = %s",
                           (bo,)).fetchone()[0] == 0
        assert ana.execute("SELECT count(*) FROM findings").fetchone()[0] == 4  # her own: n = 0, 3, 6, 9
    with klass.connect("workstation") as workstation, pytest.raises(psycopg.errors.InsufficientPrivilege):
        workstation.execute("SELECT count(*) FROM attempts")  # a workstation reads nothing at all


def test_a_trainee_pushes_only_their_own_attempts(tmp_path, klass):
    uids = two_trainees(tmp_path, klass)
    with klass.connect("instructor") as instructor:
        login = trainee_login(instructor, uids["Ana"], "ana-password")
    path = progress_file(tmp_path / "more.db", {"Bo": 3})
    queue = Queue(path)
    _, batch = queue.batch("x", 10)
    queue.close()
    with klass.connect(login, "ana-password") as ana, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own"):
        ana.execute("SELECT push_attempts(%s)", (Jsonb(batch),))
    assert klass.count() == 21


@pytest.mark.parametrize("change", ["UPDATE attempts SET total = 100", "DELETE FROM attempts",
                                    "TRUNCATE attempts CASCADE", "UPDATE findings SET message = 'x'",
                                    "DELETE FROM attempt_skills"])
def test_no_role_can_change_or_remove_an_attempt(tmp_path, klass, change):
    two_trainees(tmp_path, klass)
    before = server_attempts(klass)
    for login in ("instructor", "supervisor", "workstation"):  # no privilege at all
        with klass.connect(login) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(change)
    with klass.admin() as admin:  # the owner, and even the superuser: the trigger refuses
        for role in ("class_owner", "postgres"):
            admin.execute(f"SET ROLE {role}")
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
                admin.execute(change)
    assert server_attempts(klass) == before


def test_a_trainee_login_needs_a_trainee_of_the_class(unchanged_class):
    klass = unchanged_class
    with klass.connect("instructor") as instructor, pytest.raises(ClassServerError, match="no trainee"):
        trainee_login(instructor, "0" * 32, "long-enough")
    with klass.connect("supervisor") as supervisor, pytest.raises(psycopg.errors.InsufficientPrivilege):
        supervisor.execute("SELECT trainee_login(%s, 'pw')", ("0" * 32,))


# --------------------------------------------------------------------------- the instructor's view
def test_the_servers_class_overview_is_the_files(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 30, "Bo": 14, "Cy": 0})
    push_all(path, klass)
    now = 1_700_000_000.0 + 86_400
    with Store.open(path) as store:
        local = class_overview(store, now=now)
    with klass.connect("supervisor") as conn:
        remote = server_class_overview(conn, now=now)
    # ids differ between the file and the server; trainees are the same people by their uid
    assert [t.uid for t in remote.trainees] == [t.uid for t in local.trainees] != []
    by_uid = lambda o: {t.id: t.uid for t in o.trainees}  # noqa: E731
    for name in ("cells", "answer_seconds"):
        mine, theirs = getattr(local, name), getattr(remote, name)
        key = (lambda k, o: (by_uid(o)[k[0]], k[1])) if name == "cells" else (lambda k, o: by_uid(o)[k])
        assert {key(k, remote): v for k, v in theirs.items()} == {key(k, local): v for k, v in mine.items()}
    strip = lambda rows: [(h.trainee.uid, h.recent_accuracy, h.attempts, h.critical, h.passed)  # noqa: E731
                          for h in rows]
    assert strip(remote.needs_help) == strip(local.needs_help)
    assert remote.hardest == local.hardest != []


def test_a_trainees_attempts_from_the_server_are_the_files(tmp_path, klass):
    """One trainee opened from the live Class tab: their attempts as the file has them (findings,
    skills, the recorded log), newest first, the last `limit`; nobody else's, not even for a
    trainee's own login asking for another's by id."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 30, "Bo": 14, "Cy": 0})
    push_all(path, klass)
    with Store.open(path) as store:
        local = {t.name: store.attempts(t.id, newest_first=True, limit=20) for t in store.trainees()}
        ana_uid = store.find_trainee("Ana").uid
    anyone = lambda attempts: [dataclasses.replace(a, id=0, trainee_id=0) for a in attempts]  # noqa: E731
    with klass.connect("instructor") as conn:
        ids = {t.name: t.id for t in server_class_overview(conn).trainees}
        for name, mine in local.items():
            assert anyone(attempts_of(conn, ids[name], limit=20)) == anyone(mine)
        assert len(attempts_of(conn, ids["Ana"])) == 30 and attempts_of(conn, ids["Cy"]) == []
        login = trainee_login(conn, ana_uid, "ana-password")
    assert any(a.findings for a in local["Ana"]) and all(a.log for a in local["Ana"])
    with klass.connect(login, "ana-password") as ana:
        assert attempts_of(ana, ids["Bo"]) == []
        assert anyone(attempts_of(ana, ids["Ana"], limit=20)) == anyone(local["Ana"])


class Recorder:
    """A connection that keeps each query it runs (with its parameters), to explain them."""

    def __init__(self, conn: psycopg.Connection):
        self.conn, self.queries = conn, []

    def execute(self, query, params=None):
        self.queries.append((query, params))
        return self.conn.execute(query, params)


def plan_scans(conn: psycopg.Connection, query: str, params) -> set[tuple[str, str]]:
    """(kind of scan, index or table) of each scan in the plan the server makes for a query."""
    scans, nodes = set(), [conn.execute("EXPLAIN (FORMAT JSON) " + query, params).fetchone()[0][0]["Plan"]]
    while nodes:
        node = nodes.pop()
        if "Scan" in node["Node Type"]:
            scans.add((node["Node Type"], node.get("Index Name") or node.get("Relation Name", "")))
        nodes += node.get("Plans", [])
    return scans


def test_the_class_view_is_read_from_its_indexes(klass):
    # a class of a year: 20 trainees, 20,000 attempts of 40 items, three skills each, findings on
    # some; made in the server (triggers off, as a bulk load), then the class's tables vacuumed and
    # analysed (PostgreSQL's own catalogs left as a new class has them: the queries plan no scan of
    # them, and a whole-database VACUUM cost 0.14-0.17 s of the server's CPU against 0.08-0.10 s):
    # the planner chooses by the statistics of these rows alone, nothing steers it
    now = T0 + 365 * 86_400
    with klass.admin() as admin:
        assert {"s005_class_view_indexes"} <= {r[0] for r in admin.execute("SELECT name FROM _migrations")}
        indexes = {r[0] for r in admin.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename IN ('attempts', 'attempt_skills')")}
        assert {"attempts_kept_by_item", "attempts_kept_by_trainee", "attempt_skills_window"} <= indexes
        assert "attempt_skills_recent" not in indexes  # attempt_skills_window has its columns first
        admin.execute("SET session_replication_role = replica")
        admin.execute("INSERT INTO trainees (name, created, archived, instructor, uid) "
                      "SELECT 'Trainee ' || k, %s, 0, 0, md5(k::text) FROM generate_series(1, 20) k", (T0,))
        admin.execute(
            "INSERT INTO attempts (uid, trainee_id, item_id, game, mode, started, ended, duration, "
            "  procedure, payouts, speed, total, passed, critical, abandoned, log, source) "
            "SELECT md5('attempt ' || k), (SELECT min(id) FROM trainees) + k %% 20, "
            "  'props-and-hops/' || lpad((k * 7 %% 40)::text, 2, '0'), 'props-and-hops', 'scenario', "
            "  %(t0)s + k * 1577.0, %(t0)s + k * 1577.0 + 40, 40, 100, 100, 90, 60 + k %% 41, "
            "  (k %% 41 >= 20)::int, (k %% 13 = 0)::int, (k %% 50 = 0)::int, "
            "  '[{\"do\": \"pay\", \"round\": 1, \"at\": 2.5}]', 'test' "
            "FROM generate_series(1, 20000) k", {"t0": T0})
        admin.execute("INSERT INTO attempt_skills (attempt_id, skill, trainee_id, started) "
                      "SELECT a.id, k.skill, a.trainee_id, a.started FROM attempts a, "
                      "unnest(ARRAY['payouts', 'calls', 'collecting']) AS k (skill)")
        admin.execute("INSERT INTO findings (attempt_id, kind, skill, citation, severity, message) "
                      "SELECT id, 'wrong amount', 'payouts', '§ 577.6', 'major', 'Paid $4' FROM attempts "
                      "WHERE id % 8 = 0")
        admin.execute("VACUUM ANALYZE " + ", ".join(r[0] for r in admin.execute(
            "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'")))
    with klass.connect("instructor") as conn:  # under forced row-level security
        recorder = Recorder(conn)
        overview = server_class_overview(recorder, now=now)
        assert len(overview.trainees) == 20 and len(overview.hardest) == 10
        scans = {}
        for query, params in recorder.queries:
            what = ("hardest" if "RECURSIVE" in query else "cells" if "attempt_skills" in query
                    else "answers" if "attempt_answer_gaps" in query else "recent" if "critical" in query
                    else "trainees")
            scans[what] = plan_scans(conn, query, params)
    assert ("Index Only Scan", "attempts_kept_by_item") in scans["hardest"]
    assert ("Index Only Scan", "attempts_kept_by_trainee") in scans["recent"]
    assert ("Index Only Scan", "attempt_skills_window") in scans["cells"]
    assert {name for _, name in scans["answers"]} >= {"attempts_kept_by_trainee"}
    for what, found in scans.items():  # no query reads every attempt
        assert not {name for kind, name in found if kind == "Seq Scan"} & {"attempts", "attempt_skills"}, what


def test_following_the_class_hears_each_new_attempt(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    connection = ClassConnection(str(path), klass.address("instructor"), **FAST)
    stop, heard, listening = threading.Event(), [], threading.Event()

    def listen():
        for attempt_id in connection.follow(stop):
            heard.append(attempt_id)

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    with klass.connect("instructor") as conn:  # the listener is in once the server lists it
        until(lambda: conn.execute("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%%' "
                                   "AND datname = current_database()").fetchone()[0] > 0,
              what="the listener connecting")
        listening.set()
        push_all(path, klass)
        until(lambda: len(heard) == 2, what="two announcements")
        assert sorted(heard) == [r[0] for r in conn.execute("SELECT id FROM attempts ORDER BY id")]
    stop.set()
    thread.join(10)
    assert listening.is_set() and not thread.is_alive()


def test_the_class_activity_counts_the_workstations_pushing_and_who_works_on_what(tmp_path, klass):
    """Two workstations push (each holds its connection); Ana's last result is recent, Bo's is
    not: Ana is working on her last item, and the last result is hers."""
    files = [progress_file(tmp_path / "a.db", {"Ana": 6}), progress_file(tmp_path / "b.db", {"Bo": 2})]
    pushers = [ClassConnection(str(path), klass.address(), **FAST) for path in files]
    instructor = ClassConnection(str(files[0]), klass.address("instructor"))
    for pusher in pushers:
        pusher.start()
    try:
        until(lambda: klass.count() == 8, what="both files sent")
        now = T0 + 60 * 5 + 30 + 100  # Ana's last ended 100 s ago, Bo's 4 minutes earlier
        activity = instructor.class_activity(now=now, recent=200)
        assert activity.workstations == 2
        assert activity.last_result == T0 + 60 * 5 + 30
        assert [(w.name, w.item_id) for w in activity.working] == [("Ana", "props-and-hops/00")]
    finally:
        for pusher in pushers:
            pusher.close()
    until(lambda: instructor.class_activity().workstations == 0, what="the pushers gone")
    instructor.close()


def test_the_pusher_reports_what_waits(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    connection = ClassConnection(str(path), klass.address(), **FAST)
    assert connection.waiting() == 3
    assert connection.status == "3 results waiting to be sent."
    connection.start()
    try:
        until(lambda: connection.waiting() == 0, what="the attempts sent")
        with Store.open(path) as store:  # recorded later: pushed on wake()
            store.record_attempt(attempt(store.find_trainee("Ana").id, 99))
        connection.wake()
        until(lambda: klass.count() == 4, what="the new attempt sent")
    finally:
        connection.stop()
    assert connection.status == "All results sent to the class."
    with pytest.raises(ClassServerError, match="permission denied"):  # a workstation reads nothing
        connection.class_overview()
    connection.close()
    instructor = ClassConnection(str(path), klass.address("instructor"))
    assert [t.name for t in instructor.class_overview(now=1_700_100_000.0).trainees] == ["Ana"]
    instructor.close()


def test_a_class_overview_from_an_unreachable_server_is_one_line(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 1})
    connection = ClassConnection(str(path), klass.address(password="wrong"))
    with pytest.raises(LoginRefusedError, match="refuses the password of the login workstation") as e:
        connection.class_overview()
    assert "\n" not in str(e.value) and "wrong" not in str(e.value)
    connection.close()
    gone = class_address(f"postgresql://instructor:x@127.0.0.1:{free_port()}/{klass.database}")
    connection = ClassConnection(str(path), gone)
    with pytest.raises(ClassUnreachableError, match="cannot be reached: nothing answers at its") as e:
        connection.class_overview()  # told apart from a refusal, as the ledger's calls are
    assert "\n" not in str(e.value)
    connection.close()


def test_a_second_class_is_a_queue_of_its_own(tmp_path, server):
    """Attempts sent to one class still wait for another."""
    first, second = Class(server), Class(server)
    path = progress_file(tmp_path / "ws.db", {"Ana": 4})
    push_all(path, first)
    queue = Queue(path)
    assert queue.waiting(queue.class_of(first.address().shown)) == 0
    assert queue.waiting(queue.class_of(second.address().shown)) == 4  # never pushed: all wait
    queue.close()
    assert push_all(path, second) == 4


def test_no_password_is_kept_in_the_progress_file(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 1})
    push_all(path, klass)
    with Store.open(path) as store:
        assert [r["address"] for r in store.query("SELECT address FROM classes")] == [klass.address().shown]
    files = [p for p in tmp_path.iterdir() if p.name.startswith("ws.db")]
    assert not any(PASSWORD.encode() in p.read_bytes() for p in files)


# --------------------------------------------------------------------------- the exam ledger
def sitting(n: int, trainee: str = "Ana") -> dict:
    nonce = f"{n:032x}"
    return {"nonce": nonce, "trainee_name": trainee, "form_uid": "form-1", "form_digest": "d" * 64,
            "attempt": n, "issued": T0, "expires": T0 + 3600, "signer": "f" * 16,
            "token": json.dumps({"nonce": nonce, "attempt": n}), "draw": None}


def test_the_exam_ledger_counts_every_sitting_issued_and_uses_each_once(klass):
    with klass.connect("instructor") as conn:
        for n in (1, 2):
            record_sitting(conn, sitting(n))
        assert attempts_used(conn, "Ana", "form-1") == 2
        with pytest.raises(ClassServerError, match="attempt 2 of 'Ana' at this form was already issued"):
            record_sitting(conn, {**sitting(3), "attempt": 2})
        use_sitting(conn, sitting(1)["nonce"], "result-1")
        with pytest.raises(ClassServerError, match="already used"):
            use_sitting(conn, sitting(1)["nonce"], "result-9")
        with pytest.raises(ClassServerError, match="not issued"):
            use_sitting(conn, sitting(7)["nonce"], "result-7")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # no attempt is ever taken back
            conn.execute("DELETE FROM exam_sittings")
    with klass.admin() as admin:
        admin.execute("SET ROLE class_owner")
        for change in ("DELETE FROM exam_sitting_uses", "UPDATE exam_sittings SET attempt = 1"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
                admin.execute(change)
    with klass.connect("workstation") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        record_sitting(conn, sitting(5))
    with klass.connect("supervisor") as conn:
        assert attempts_used(conn, "Ana", "form-1") == 2
        assert conn.execute("SELECT count(*) FROM exam_sitting_uses").fetchone()[0] == 1


def test_the_servers_tables_have_the_described_columns(unchanged_class):
    with unchanged_class.admin() as conn:
        for table in (TRAINEES, ATTEMPTS, FINDINGS, ATTEMPT_SKILLS, EXAM_SITTINGS):
            columns = [r[0] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                "ORDER BY ordinal_position", (table.name,))]
            extra = ["login"] if table is TRAINEES else []
            assert columns == [c.name for c in table.shared()] + extra, table.name


def test_the_count_of_what_waits_is_kept_not_read_from_the_file_each_time(tmp_path, klass, monkeypatch):
    """The status bar asks every second; counting reads the whole file (160 ms at 1,000,000
    attempts). The count is read once, then kept by the pusher: one more for each attempt
    recorded, less each batch sent, counted again on its own thread after each try."""
    from trainer.classes.workstation.queue import Queue

    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    connection = ClassConnection(str(path), klass.address(), **FAST)
    reads = []
    real = Queue.waiting
    monkeypatch.setattr(Queue, "waiting", lambda self, uid: reads.append(uid) or real(self, uid))
    for _ in range(50):
        assert connection.waiting() == 3 and connection.status == "3 results waiting to be sent."
    assert len(reads) == 1
    connection.wake()  # an attempt recorded: one more waits, said at once
    assert connection.waiting() == 4 and len(reads) == 1
    connection.close()


def test_the_pass_rule_travels_and_a_class_before_s009_still_takes_the_push(tmp_path, server):
    """s009: the class keeps the pass rule each attempt was graded under; a result recorded before
    rules were kept reads as rule 1 there as in the file. A class not yet migrated to s009 takes
    the same push (the field it does not know is left out), so a newer workstation never stops
    an older class."""
    path = tmp_path / "ws.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
        store.record_attempt(attempt(ana, 1))  # recorded before rules were kept
        store.record_attempt(attempt(ana, 2, rule=2))
    fresh = Class(server)
    assert push_all(path, fresh) == 2
    with fresh.connect("instructor") as conn:
        [ana_id] = [t.id for t in server_class_overview(conn).trainees]
        assert [a.rule for a in attempts_of(conn, ana_id)] == [2, 1]  # newest first
    older = Class(server, upto="s008_trainee_logins_by_name")
    copy = tmp_path / "ws2.db"
    shutil.copy(path, copy)
    assert push_all(copy, older) == 2
    older.install()  # migrated later: what it took before reads as rule 1
    with older.connect("instructor") as conn:
        [ana_id] = [t.id for t in server_class_overview(conn).trainees]
        assert [a.rule for a in attempts_of(conn, ana_id)] == [1, 1]
