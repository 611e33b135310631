"""The class server keeps only what it can use, each attack as a trainee at a
shared workstation makes it, with the workstation's login (or their own) and psycopg:

- rows with impossible times (Infinity, NaN, 1e308, -1e15), a 50,000-character name, an unknown
  mode or game, a score out of range, a log that is not one: refused at push (s010), each by
  name, never found at export;
- an exam's attempt, from any login: refused (an exam reaches the class as its certificate), and
  the app never sends one (it stays in the file);
- a failing attempt pushed first under a classmate's pending attempt uid: her real one is
  refused by name and set aside, never reported sent;
- rows stored before s010: left out of the export and the instructor's reads, each named, and
  the class exported;
- an instructor hides a row with a retraction, its reason kept; nobody changes or removes one;
- one refused attempt (a flipped bit in a log, a NUL in an imported results file) is set aside
  and named, and the others are sent; a server that refuses every push is not "unreachable".
"""

from __future__ import annotations

import copy
import io
import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import (
    T0,
    Class,
    attempt,
    damaged_log,
    flipped,
    progress_file,
    push_all,
    rewritten,
    until,
)
from tests.support.command import run_command, run_here
from trainer.classes.errors import ClassServerError
from trainer.classes.server import tables
from trainer.classes.server.logins import class_login
from trainer.classes.workstation.classview import attempts_of, server_class_overview
from trainer.classes.workstation.connection import ClassConnection, ClassLedger
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.results import server_lines
from trainer.progress.records import Mode
from trainer.progress.store import Store

FAST = {"poll": 0.05, "backoff": (0.02, 0.2)}
ROW_REFUSED = ("22", "23", "54")  # the SQLSTATE classes of a row refused (not the login, not the server)


def real_batch(tmp_path, people: dict[str, int], name: str = "ws.db") -> tuple[object, dict]:
    """A progress file and the batch its queue sends (every attempt), as a workstation makes it."""
    path = progress_file(tmp_path / name, people)
    queue = Queue(path)
    try:
        _, batch = queue.batch("any class", sum(people.values()))
    finally:
        queue.close()
    return path, batch


def push(conn: psycopg.Connection, batch: dict) -> int:
    """What an attacker sends: push_attempts, by hand."""
    with conn.transaction():
        return conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0]


#: what an attacker changes in the first attempt of a real batch (attempt 0 has a finding)
ATTEMPT_ATTACKS = {
    "started Infinity": {"started": "Infinity"},
    "started NaN": {"started": "NaN"},
    "started 1e308": {"started": 1e308},
    "started -1e15": {"started": -1e15},
    "ended Infinity": {"ended": "Infinity"},
    "ended before it started": {"ended": T0 - 1},
    "duration Infinity": {"duration": "Infinity"},
    "duration NaN": {"duration": "NaN"},
    "duration negative": {"duration": -5},
    "duration of a year": {"duration": 365 * 86_400.0},
    "target NaN": {"target": "NaN"},
    "mode unknown": {"mode": "certified"},
    "game unknown": {"game": "blackjack"},
    "item id of 50,000 characters": {"item_id": "x" * 50_000},
    "item id with an escape sequence": {"item_id": "props\x1b[2J"},
    "item id a drill with no game": {"item_id": "drill:"},
    "seed of 50,000 characters": {"seed": "7" * 50_000},
    "workstation of 50,000 characters": {"source": "w" * 50_000},
    "workstation with a control character": {"source": "ws-1\r\nws-2"},
    "uid of 50,000 characters": {"uid": "u" * 50_000},
    "uid with spaces": {"uid": "not an id"},
    "total 101": {"total": 101},
    "procedure -1": {"procedure": -1},
    "score 1e308": {"speed": 1e308},
    "passed 2": {"passed": 2},
    "rule 0": {"rule": 0},
    "log not JSON": {"log": "[{\"do\": \"pay\""},
    "log a JSON object": {"log": "{\"do\": \"pay\", \"round\": 1}"},
    "log of numbers": {"log": "[1, 2, 3]"},
    "log action with no action": {"log": "[{\"round\": 1, \"at\": 2.5}]"},
    "log action at 1e308 s": {"log": "[{\"do\": \"pay\", \"round\": 1, \"at\": 1e308}]"},
    "log action at a negative time": {"log": "[{\"do\": \"pay\", \"round\": 1, \"at\": -3}]"},
    "log with an escaped NUL": {"log": "[{\"do\": \"pay\", \"round\": 1, \"at\": 1, \"seat\": \"\\u0000\"}]"},
    "log of 2,400,000 characters": {"log": json.dumps([{"do": "pay", "round": 1, "at": 2.5, "seat": 2,
                                                        "bet": "b" * 40}] * 30_000)},
    "findings not a list": {"findings": {"kind": "x"}},
    "skills not a list": {"skills": "payouts"},
    "a skill of 500 characters": {"skills": ["s" * 500]},
}
#: what an attacker changes in the first finding of that attempt
FINDING_ATTACKS = {
    "finding severity unknown": {"severity": "fatal"},
    "finding message of 50,000 characters": {"message": "m" * 50_000},
    "finding message empty": {"message": ""},
    "finding citation of 50,000 characters": {"citation": "§" * 50_000},
    "finding action not JSON": {"actual": "{"},
    "finding action a list": {"actual": "[1]"},
}
#: what an attacker changes in the batch's trainee
TRAINEE_ATTACKS = {
    "name of 50,000 characters": {"name": "A" * 50_000},
    "name with a zero-width space": {"name": "Ana\u200b"},
    "name empty": {"name": ""},
    "name with a line feed": {"name": "Ana\nBo"},
    "profile made at Infinity": {"created": "Infinity"},
    "profile archived at NaN": {"archived_at": "NaN"},
}


def hostile_batches(batch: dict) -> dict[str, dict]:
    out = {}
    for name, change in ATTEMPT_ATTACKS.items():
        bad = copy.deepcopy(batch)
        bad["attempts"][0].update(change)
        out[name] = bad
    for name, change in FINDING_ATTACKS.items():
        bad = copy.deepcopy(batch)
        bad["attempts"][0]["findings"][0].update(change)
        out[name] = bad
    for name, change in TRAINEE_ATTACKS.items():
        bad = copy.deepcopy(batch)
        bad["trainees"][0].update(change)
        out[name] = bad
    bad = copy.deepcopy(batch)  # one flipped bit in the log, as a damaged file sends it
    bad["attempts"][0]["log"] = flipped(bad["attempts"][0]["log"], 0)
    out["log with one flipped bit"] = bad
    bad = copy.deepcopy(batch)  # a trainee id of 50,000 characters, the attempt naming it
    bad["trainees"][0]["uid"] = bad["attempts"][0]["trainee_uid"] = "t" * 50_000
    out["trainee id of 50,000 characters"] = bad
    bad = copy.deepcopy(batch)  # the same id twice in one batch, the second a failing copy
    bad["attempts"].append({**bad["attempts"][0], "total": 12, "passed": 0})
    out["one id twice, the second different"] = bad
    return out


# --------------------------------------------------------------------------- the server refuses
def test_every_hostile_row_is_refused_at_push_and_nothing_of_its_batch_is_kept(tmp_path, klass):
    _, batch = real_batch(tmp_path, {"Ana": 2})
    attacks = hostile_batches(batch)
    assert len(attacks) == 52  # reported in the branch's note
    accepted = {}
    with klass.connect("workstation") as conn:
        for name, bad in attacks.items():
            try:
                push(conn, bad)
                accepted[name] = "accepted"
            except psycopg.Error as e:
                if (e.sqlstate or "")[:2] not in ROW_REFUSED:
                    accepted[name] = f"refused as something else: {e.sqlstate} {e}"
        assert accepted == {}
        assert klass.count() == 0 and klass.count("trainees") == 0
        assert push(conn, batch) == 2  # the real batch is taken
    assert klass.count() == 2


@pytest.mark.parametrize(("attack", "why"), [
    ("started Infinity", "it did not start at a time between 2000 and 2100"),
    ("started -1e15", "it did not start at a time between 2000 and 2100"),
    ("duration NaN", "its duration is not 0 to 604,800 seconds"),
    ("mode unknown", "its mode is not practice, scenario, drill or payout-drill"),
    ("game unknown", "its game is not one of the class's games"),
    ("item id of 50,000 characters", "its item is not named as the app names items"),
    ("log a JSON object", "its log is not a list of logged actions"),
    ("log with one flipped bit", "its log is not JSON the class server can keep"),
    ("finding message of 50,000 characters", "a finding's message is empty, or it or its expected"),
    ("name of 50,000 characters", "the trainee's name is longer than 200 characters"),
    ("name with a zero-width space", "not written as the class writes names"),
])
def test_a_refusal_names_the_row_and_why(tmp_path, klass, attack, why):
    _, batch = real_batch(tmp_path, {"Ana": 2})
    bad = hostile_batches(batch)[attack]
    with klass.connect("workstation") as conn, pytest.raises(psycopg.errors.CheckViolation) as e:
        push(conn, bad)
    first = str(e.value).splitlines()[0]
    named = (f"trainee {batch['trainees'][0]['uid']}" if attack.startswith("name")
             else f"attempt {batch['attempts'][0]['uid']}")
    assert first == f"refused {named}: {first.partition(': ')[2]}" and why in first, first
    assert len(first) < 300, "a refusal is one short line, whatever the row held"


def test_no_login_pushes_an_exam_attempt(tmp_path, klass):
    """The forgery: "Exam … 100 … passed" under a classmate's name, with the shared
    workstation login, with a trainee's own login for their own name, and with the instructor's."""
    _, batch = real_batch(tmp_path, {"Ana": 1})
    exam = copy.deepcopy(batch)
    exam["attempts"][0].update(mode="exam", total=100, passed=1, critical=0, findings=[])
    with klass.connect("instructor") as instructor:
        ana_login = class_login(instructor, "Ana", "ana-password")
    for login, password in (("workstation", None), (ana_login, "ana-password"), ("instructor", None)):
        with klass.connect(login, *(password,) if password else ()) as conn, \
                pytest.raises(psycopg.errors.CheckViolation, match="as its certificate, never as an attempt"):
            push(conn, exam)
    assert klass.count() == 0
    with klass.admin() as admin:  # not even the class's owner stores one
        admin.execute("SET ROLE class_owner")
        tid = admin.execute("INSERT INTO trainees (name, created, archived, instructor, uid) VALUES "
                            "('Ana', %s, 0, 0, %s) RETURNING id",
                            (T0, batch["trainees"][0]["uid"])).fetchone()[0]
        with pytest.raises(psycopg.errors.CheckViolation, match="attempts_as_the_class_keeps_them"):
            admin.execute("INSERT INTO attempts (uid, trainee_id, item_id, game, mode, started, ended, "
                          "duration, procedure, payouts, speed, total, passed, critical, abandoned, log, "
                          "source) VALUES ('e1', %s, 'x', 'props-and-hops', 'exam', %s, %s, 1, 100, 100, "
                          "100, 100, 1, 0, 0, '[]', 'ws')", (tid, T0, T0 + 1))


def test_the_workstation_never_sends_an_exam_attempt_and_keeps_it(tmp_path, klass):
    """A file may hold attempts in exam mode (a results file imported): they never wait for the
    class, so a real exam never stops the queue, and they stay in the file."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    with Store.open(path) as store:
        exam = attempt(store.find_trainee("Ana").id, 9, mode=Mode.EXAM)
        store.record_attempt(exam)
    connection = ClassConnection(str(path), klass.address(), **FAST)
    assert connection.waiting() == 3  # not 4
    connection.start()
    try:
        until(lambda: klass.count() == 3 and connection.waiting() == 0, what="the others sent")
    finally:
        connection.close()
    assert exam.uid not in klass.uids()
    assert connection.refused_attempts() == [] and connection.status == "All results sent to the class."
    with Store.open(path) as store:
        assert exam.uid in {a.uid for a in store.attempts()}


# --------------------------------------------------------------------------- no shadowing
def test_a_failing_copy_pushed_first_under_a_classmates_uid_never_counts_as_hers(tmp_path, klass):
    """A shared workstation: Ana's attempt waits in the file (the server was down). Bo reads its
    uid there and pushes a failing attempt under it, in her name, first. Her real one is refused
    by name and set aside, never reported sent; the instructor retracts the forgery."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 1}, start=1)
    with Store.open(path) as store:
        [real] = store.attempts()
        assert real.passed
    queue = Queue(path)
    _, batch = queue.batch("any class", 10)
    queue.close()
    forged = copy.deepcopy(batch)
    forged["attempts"][0].update(total=12, passed=0, procedure=10, payouts=0, speed=50)
    with klass.connect("workstation") as attacker:
        assert push(attacker, forged) == 1
    connection = ClassConnection(str(path), klass.address(), **FAST)
    connection.start()
    try:
        until(lambda: connection.waiting() == 0, what="the queue empty")
    finally:
        connection.close()
    with Store.open(path) as store:  # never marked sent
        assert store.query("SELECT count(*) AS n FROM class_sent")[0]["n"] == 0
    [(uid, why)] = connection.refused_attempts()
    assert uid == real.uid
    assert why.startswith(f"attempt {real.uid}: the class server holds a different attempt under this id")
    assert connection.status == f"1 result refused by the class server: {why}; the others are sent."
    with Store.open(path) as store:  # set aside, with the server's reason
        assert [r["reason"] for r in store.query("SELECT reason FROM class_refused")] == [why]
    # the identical copy (a push repeated after a crash) is still one attempt, and counts as sent
    with klass.connect("workstation") as conn:
        assert push(conn, forged) == 0
    ClassLedger(klass.address("instructor")).retract(real.uid, "pushed from Bo's seat under Ana's id")
    with klass.connect("instructor") as conn:
        left: list[str] = []
        assert server_lines(conn, left_out=left) == []
    assert left == [f"attempt {real.uid} of 'Ana': retracted by instructor: pushed from Bo's seat under "
                    "Ana's id"]


# --------------------------------------------------------------------------- one refusal, not a stuck queue
def test_one_refused_attempt_is_set_aside_named_and_the_others_are_sent(tmp_path, klass):
    """A file of 30 attempts, one with a flipped bit in its log, one whose log a damaged file holds
    as bytes, and one whose workstation name was edited to hold a NUL (an import refuses one, so
    only a hand-edited file has it): pushed in batches of 8, the three are set aside, named, and
    the other 27 sent."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 30})
    with Store.open(path) as store:
        uids = [a.uid for a in store.attempts()]
    damaged_log(path, uids[7])
    rewritten(path, uids[20], "log", b'[{"do": "pay", "round": 1, "at": 2.5}]')
    nul = uids[13]
    rewritten(path, nul, "source", "station\x007")
    connection = ClassConnection(str(path), klass.address(), batch=8, **FAST)
    assert connection.waiting() == 30
    connection.start()
    try:
        until(lambda: connection.waiting() == 0, what="every attempt sent or set aside")
        assert connection.problem is None and not connection.unreachable
    finally:
        connection.close()
    assert sorted(klass.uids()) == sorted(u for u in uids if u not in (uids[7], uids[20], nul))
    refused = dict(connection.refused_attempts())
    assert set(refused) == {uids[7], uids[20], nul}
    assert refused[uids[7]] == f"attempt {uids[7]}: its log is not JSON the class server can keep"
    assert refused[uids[20]] == (f"attempt {uids[20]}: this workstation cannot send it (Object of type "
                                 "bytes is not JSON serializable)")
    assert refused[nul] == f"attempt {nul}: a text of it holds a character no class server keeps (a NUL)"
    status = connection.status
    assert status.startswith("3 results refused by the class server, the last: attempt ") and status.endswith(
        "; the others are sent."), status
    assert "unreachable" not in status
    # set aside for good: a new pusher (the next start) sends nothing again, and goes on
    again = ClassConnection(str(path), klass.address(), **FAST)
    assert again.waiting() == 0 and dict(again.refused_attempts()) == refused
    with Store.open(path, full_check=False) as store:  # the app's open (the check aside)
        store.record_attempt(attempt(store.find_trainee("Ana").id, 99))
    again.start()
    try:
        until(lambda: klass.count() == 28, what="a new attempt sent")
    finally:
        again.close()
    assert again.pusher.set_aside == 0, "a refused attempt is not sent again"


def test_a_server_that_refuses_every_push_is_not_unreachable_and_sets_nothing_aside(tmp_path, klass):
    """The server answers, and refuses every push of this login (the class no longer lets the
    workstations push): that is no row's fault, so nothing is set aside, the attempts wait, and
    the status says the server refused, not that it cannot be reached."""
    from ui.classroom.membership import status_line

    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    with klass.admin() as admin:
        admin.execute("REVOKE EXECUTE ON FUNCTION push_attempts(jsonb) FROM class_workstation")
    connection = ClassConnection(str(path), klass.address(), **FAST)
    connection.start()
    try:
        until(lambda: connection.problem is not None, what="the push refused")
    finally:
        connection.close()
    assert "permission denied for function push_attempts" in connection.problem
    assert not connection.unreachable
    assert connection.refused_attempts() == [] and connection.waiting() == 3
    line = status_line(3, False, connection.problem, unreachable=connection.unreachable)
    assert line.startswith("Class: the class server refused the push (") and "unreachable" not in line


# --------------------------------------------------------------------------- rows stored before s010
def test_rows_stored_before_the_checks_are_left_out_named_and_the_class_exports(tmp_path, server):
    """The issue's forgeries, pushed to a class before s010 (which took them): then the class is
    brought up to date. The export writes the real attempts and names each forgery; the
    instructor's view and Open trainee read the class, not a traceback."""
    names = tables.known()
    older = Class(server, upto=names[names.index("s010_checked_pushes_and_retractions") - 1])
    path, batch = real_batch(tmp_path, {"Ana": 3, "Bo": 2})
    push_all(path, older)
    forged = {}
    with older.connect("workstation") as conn:
        for n, (name, change) in enumerate({"infinity": {"started": "Infinity"}, "nan": {"started": "NaN"},
                                            "huge": {"started": 1e308}, "negative": {"started": -1e15},
                                            "exam": {"mode": "exam", "total": 100, "passed": 1}}.items()):
            bad = copy.deepcopy(batch)
            bad["attempts"] = [{**bad["attempts"][0], "uid": f"forged{n}", **change}]
            push(conn, bad)
            forged[f"forged{n}"] = name
        long = copy.deepcopy(batch)  # a trainee of a 50,000-character name, with an attempt
        long["trainees"] = [{**long["trainees"][0], "uid": "z" * 32, "name": "Z" * 50_000}]
        long["attempts"] = [{**long["attempts"][0], "uid": "forged-long", "trainee_uid": "z" * 32}]
        push(conn, long)
    assert older.count() == 5 + 6
    with older.connect("instructor") as conn:  # not migrated yet: this app reads it, and skips
        left: list[str] = []  # the rows it cannot read as attempts, each named
        assert len(server_lines(conn, left_out=left)) == 5 + 2
        assert sorted(line.split(":")[0] for line in left) == [f"attempt forged{n} of 'Ana'"
                                                               for n in range(4)]
        assert ("attempt forged0 of 'Ana': not readable as an attempt (started: must be a number of "
                "seconds, not inf)") in left
        server_class_overview(conn, now=T0 + 86_400)
    assert older.install() == names[names.index("s010_checked_pushes_and_retractions"):]
    with older.connect("instructor") as conn:
        left: list[str] = []
        lines = server_lines(conn, left_out=left)
        assert sorted(line.attempt.uid for line in lines) == sorted(a["uid"] for a in batch["attempts"])
        assert len(left) == 6 and all(line.startswith("attempt forged") for line in left)
        assert ("attempt forged0 of 'Ana': retracted by the class server (s010): stored before the class "
                "server checked what it keeps (s010): it did not start at a time between 2000 and "
                "2100") in left, left
        assert any(line.startswith("attempt forged4 of 'Ana': ") and "as its certificate" in line
                   for line in left)
        assert any("the trainee's name is longer than 200 characters" in line for line in left)
        overview = server_class_overview(conn, now=T0 + 86_400)
        ids = {t.name: t.id for t in overview.trainees}
        assert set(ids) == {"Ana", "Bo", "Z" * 99 + "… (50,000 characters)"}
        mine: list[str] = []
        assert len(attempts_of(conn, ids["Ana"], left_out=mine)) == 3 and len(mine) == 5
    done = run_command("export-results", "--class", older.address("instructor").url, "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 + 5
    assert "forged0" not in done.stdout and "Exam" not in done.stdout
    assert "note: 6 attempts of the class left out: attempt forged" in done.stderr
    done = run_here("export-results", "--class", older.address("instructor").url, "--format", "xapi")
    assert done.returncode == 0 and len(json.loads(done.stdout)) == 5


# --------------------------------------------------------------------------- retractions
def test_an_instructor_retracts_an_attempt_with_a_reason_and_nobody_takes_it_back(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 4})
    push_all(path, klass)
    uid = klass.uids()[0]
    instructor = klass.address("instructor").url
    done = run_command("retract", uid, "--reason", "  sat at Bo's seat:\tnot hers ", "--class", instructor)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Attempt {uid} retracted in {klass.database}")
    with klass.connect("instructor") as conn:
        left: list[str] = []
        assert uid not in {line.attempt.uid for line in server_lines(conn, left_out=left)}
        assert left == [f"attempt {uid} of 'Ana': retracted by instructor: sat at Bo's seat: not hers"]
        [ana] = server_class_overview(conn, now=T0 + 86_400).trainees
        shown: list[str] = []
        assert {a.uid for a in attempts_of(conn, ana.id, left_out=shown)} == set(klass.uids()) - {uid}
        assert shown == [f"attempt {uid}: retracted by instructor: sat at Bo's seat: not hers"]
    done = run_here("export-results", "--class", instructor, "--format", "csv")
    assert done.returncode == 0 and uid not in done.stdout and uid in done.stderr
    assert klass.count() == 4, "the attempt stays on the server"
    for args, says in (((uid, "again"), "was retracted already, by instructor (sat at Bo's seat: not hers)"),
                       (("no-such-attempt", "why"),
                        "no attempt or supervised round no-such-attempt is on the class server"),
                       ((klass.uids()[1], " \u200b "), "a retraction needs a reason"),
                       ((klass.uids()[1], "x" * 501), "the class keeps 500 at most")):
        done = run_here("retract", args[0], "--reason", args[1], "--class", instructor)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    for login in ("supervisor", "workstation"):
        done = run_here("retract", klass.uids()[1], "--reason", "mine", "--class",
                        klass.address(login).url)
        assert done.returncode == 2 and "only an instructor's login retracts" in done.stderr, done.stderr
    with klass.connect("supervisor") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO retractions (attempt_id, reason) SELECT id, 'x' FROM attempts LIMIT 1")
    with klass.connect("instructor") as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # who retracted is the server's to say
            conn.execute("INSERT INTO retractions (attempt_id, reason, retracted_by) "
                         "SELECT id, 'x', 'supervisor' FROM attempts WHERE uid = %s", (klass.uids()[1],))
        for change in ("UPDATE retractions SET reason = 'a typo'", "DELETE FROM retractions"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(change)
    with klass.admin() as admin:
        admin.execute("SET ROLE class_owner")
        for change in ("UPDATE retractions SET reason = 'a typo'", "DELETE FROM retractions",
                       "TRUNCATE retractions"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
                admin.execute(change)
        assert admin.execute("SELECT count(*) FROM retractions").fetchone()[0] == 1


def test_a_retracted_attempt_counts_nowhere_in_the_class_view(tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 6})
    push_all(path, klass)
    now = T0 + 86_400
    with klass.connect("instructor") as conn:
        before = server_class_overview(conn, now=now)
    with Store.open(path) as store:
        failing = [a for a in store.attempts() if not a.passed]
    ledger = ClassLedger(klass.address("instructor"))
    for a in failing:
        ledger.retract(a.uid, "a forgery")
    with klass.connect("instructor") as conn:
        after = server_class_overview(conn, now=now)
    [ana] = after.trainees
    assert before.needs_help[0].attempts == 6 and after.needs_help[0].attempts == 6 - len(failing)
    assert before.needs_help[0].recent_accuracy < after.needs_help[0].recent_accuracy == 1.0
    payouts = [cell for (tid, skill), cell in after.cells.items() if tid == ana.id and skill == "payouts"]
    assert [(c.exercises, c.right) for c in payouts] == [(6 - len(failing), 6 - len(failing))]
    with pytest.raises(ClassServerError, match="retracted already"):
        ledger.retract(failing[0].uid, "twice")


# --------------------------------------------------------------------------- names the class keeps
def test_the_app_writes_no_name_the_class_refuses(tmp_path, klass):
    """The app gives no trainee a name the class server refuses: typed, at most 100 characters;
    imported, the same, and what an import adds to a name taken already keeps it within the
    server's 200."""
    from tests.support.progress import played_round
    from trainer.progress import ResultsFileError, export_results, import_results
    from trainer.progress.records import NAME_LONGEST

    longest = "A" * NAME_LONGEST
    with Store.open(tmp_path / "p.db") as store:
        with pytest.raises(ValueError, match=f"a name of {NAME_LONGEST} characters at most"):
            store.add_trainee(longest + "B")
        played_round(store, store.add_trainee(longest))
        out = io.StringIO()
        export_results(store, out)
    doc = json.loads(out.getvalue())
    other = tmp_path / "other.db"
    with Store.open(other) as desk:
        desk.add_trainee(longest)  # taken here: the import names theirs "<name> (<workstation>)"
        long_source = dict(doc, source="w" * 500)
        assert import_results(desk, io.StringIO(json.dumps(long_source))).added == 1
        names = sorted(t.name for t in desk.trainees())
        too_long = copy.deepcopy(doc)
        too_long["trainees"][0]["name"] = longest + "B"
        with pytest.raises(ResultsFileError, match=r"trainees\[0\]\.name: a name of 100 characters at most"):
            import_results(desk, io.StringIO(json.dumps(too_long)))
    assert len(names[1]) > NAME_LONGEST
    pushed = push_all(other, klass)
    queue = Queue(other)
    refused = queue.refused(queue.class_of(klass.address().shown))
    queue.close()
    assert refused == [] and pushed == 1 and klass.count("trainees") == 2


def test_the_class_takes_every_game_and_mode_the_app_records(tmp_path, klass):
    """s010 names the games and modes a class keeps: a game or mode the app adds later fails here
    until a migration gives it to the class server too."""
    from trainer.games import GAME_IDS
    from trainer.progress.schema import MODES

    _, batch = real_batch(tmp_path, {"Ana": 1})
    with klass.connect("workstation") as conn:
        for n, (game, mode) in enumerate((g, m) for g in GAME_IDS for m in MODES if m != "exam"):
            one = copy.deepcopy(batch)
            one["attempts"][0].update(uid=f"g{n}", game=game, mode=mode)
            assert push(conn, one) == 1, (game, mode)


def test_an_attempt_whose_log_the_app_cannot_read_is_exported_from_its_scores(tmp_path, klass):
    """The class's export reads no log (trainer.classes.workstation.results): attempts whose logs
    pass the server's check but not this app's (a key twice; an action it does not know, in a
    round of one and a half) are written from their scores beside the others, none left out."""
    _, batch = real_batch(tmp_path, {"Ana": 2})
    odd = copy.deepcopy(batch)
    odd["attempts"] = odd["attempts"][:2]
    odd["attempts"][0].update(uid="f" * 32, log='[{"do": "pay", "round": 1, "do": "collect"}]')
    odd["attempts"][1].update(uid="e" * 32, log='[{"do": "teleport", "round": 1.5, "seat": "x"}]')
    with klass.connect("workstation") as conn:
        push(conn, batch)
        push(conn, odd)
    with klass.connect("instructor") as conn:
        left: list[str] = []
        lines = server_lines(conn, left_out=left)
    assert left == []
    by_uid = {line.attempt.uid: line.attempt for line in lines}
    assert {"f" * 32, "e" * 32} <= set(by_uid) and len(by_uid) == len(batch["attempts"]) + 2
    for sent in odd["attempts"]:
        got = by_uid[sent["uid"]]
        assert (got.total, got.passed, got.log) == (sent["total"], sent["passed"], ())
