"""Whose rows a login sends, and what it reads of the others, on a real PostgreSQL (migration
s018, trainer.classes.server.logins "Whose rows"). Each attack is one a cold review made with
the logins a trainee holds (their own, and the workstation's in its password file), kept as it
ran it:

- a workstation's login (the shared one, or an enrolled one) pushed practice rows under any
  trainee's id, read from a shared progress file, a trainee with a login of their own included;
- every login read how many attempts a classmate had used at a form, and any name's login."""

from __future__ import annotations

import contextlib

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import PASSWORD, progress_file, push_all
from tests.support.command import run_command
from tests.support.exams import form
from tests.support.progress import trainee_uid
from trainer.classes import ClassServerError
from trainer.classes.server import ledger
from trainer.classes.server.logins import attach_trainee, class_login, enrol_workstation
from trainer.classes.workstation.connection import ClassLedger
from trainer.classes.workstation.queue import Queue


def forged(tmp_path, trainee_uid: str, tag: str) -> dict:
    """A valid practice attempt of a file of the attacker's, sent under a classmate's trainee id
    (and an attempt id of its own): what the review sent."""
    path = progress_file(tmp_path / f"forger-{tag}.sqlite", {"Mallory": 1})
    with contextlib.closing(Queue(path)) as queue:
        _, batch = queue.batch("any class", 1)
    attempt = {**batch["attempts"][0], "trainee_uid": trainee_uid, "uid": f"forged{tag}".ljust(32, "0"),
               "passed": 1, "total": 100}
    return {"trainees": [], "attempts": [attempt]}


def push(conn: psycopg.Connection, batch: dict) -> int:
    with conn.transaction():
        return conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0]


@pytest.fixture
def classroom(tmp_path, klass):
    """Ana and Bo sent from the shared login's workstation; Cy from Table 1, enrolled. Then Ana was
    given a login of her own. The logins' connections, by name, and each trainee's id."""
    shared_file = progress_file(tmp_path / "shared.sqlite", {"Ana": 1, "Bo": 1})
    push_all(shared_file, klass)
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana", "ana-password")
        table_1 = enrol_workstation(instructor, "Table 1", "table-1-password")
        table_2 = enrol_workstation(instructor, "Table 2", "table-2-password")
    table_file = progress_file(tmp_path / "table-1.sqlite", {"Cy": 1})
    push_all(table_file, klass, address=klass.address(table_1, "table-1-password"))
    with contextlib.ExitStack() as stack:
        logins = {"shared": ("workstation", PASSWORD), "ana": (ana, "ana-password"),
                  "table 1": (table_1, "table-1-password"), "table 2": (table_2, "table-2-password"),
                  "instructor": ("instructor", PASSWORD)}
        conns = {k: stack.enter_context(klass.connect(*v)) for k, v in logins.items()}
        yield conns, {"Ana": trainee_uid(shared_file, "Ana"), "Bo": trainee_uid(shared_file, "Bo"),
                      "Cy": trainee_uid(table_file, "Cy")}, logins


def test_no_workstation_login_sends_a_row_for_a_trainee_with_a_login_of_their_own(tmp_path, klass, classroom):
    conns, uids, _ = classroom
    before = klass.count()
    for who in ("shared", "table 1", "table 2"):
        with pytest.raises(psycopg.errors.CheckViolation, match="Ana has a login of their own"):
            push(conns[who], forged(tmp_path, uids["Ana"], who.replace(" ", "")))
    assert klass.count() == before
    assert push(conns["ana"], forged(tmp_path, uids["Ana"], "own")) == 1  # her own login sends hers


def test_a_workstation_login_sends_rows_only_for_the_trainees_it_serves(tmp_path, klass, classroom):
    conns, uids, _ = classroom
    before = klass.count()
    for who, whose in (("table 2", "Cy"), ("shared", "Cy"), ("table 1", "Bo"), ("table 2", "Bo")):
        with pytest.raises(psycopg.errors.CheckViolation, match="registered in the class by another"):
            push(conns[who], forged(tmp_path, uids[whose], f"{who}{whose}".replace(" ", "")))
    with pytest.raises(psycopg.errors.CheckViolation, match="registered in the class by another"):
        push(conns["table 2"], {"trainees": [], "attempts": []} | {"trainees": [
            {"uid": uids["Cy"], "name": "Cy", "created": 1.7e9, "archived": 0, "archived_at": None,
             "instructor": 0}]})
    assert klass.count() == before
    assert push(conns["table 1"], forged(tmp_path, uids["Cy"], "cy")) == 1  # Table 1 registered Cy
    assert push(conns["shared"], forged(tmp_path, uids["Bo"], "bo")) == 1  # the shared login, Bo
    with pytest.raises(ClassServerError, match="permission denied"):  # a workstation attaches nobody
        attach_trainee(conns["table 1"], uids["Cy"], "Table 2")
    with pytest.raises(ClassServerError, match="no workstation 'Table 9' is enrolled"):
        attach_trainee(conns["instructor"], uids["Cy"], "Table 9")
    done = run_command("class-workstation", "attach", "Table 2", "--trainee", uids["Cy"], "--class",
                       klass.address("instructor").url)  # Cy moved to Table 2
    assert done.returncode == 0 and f"trainee {uids['Cy']}: attached to Table 2" in done.stdout, done.stderr
    refused = run_command("class-workstation", "attach", "Table 2", "--trainee", "f" * 32, "--class",
                          klass.address("instructor").url)
    assert refused.returncode == 2 and "no trainee ffff" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert push(conns["table 2"], forged(tmp_path, uids["Cy"], "moved")) == 1
    assert klass.count() == before + 3


def test_a_workstation_sets_aside_the_rows_it_may_not_send_and_sends_the_others(tmp_path, klass, classroom):
    """The app's own pusher on a workstation's file that holds Ana (a login of her own) and Dee:
    Ana's attempt is set aside with the server's reason, Dee's reaches the class."""
    conns, _, logins = classroom
    path = progress_file(tmp_path / "table-2.sqlite", {"Ana": 1, "Dee": 1})
    assert push_all(path, klass, address=klass.address(*logins["table 2"])) == 1
    with contextlib.closing(Queue(path)) as queue:
        refused = queue.refused(ledger.class_uid(conns["instructor"]))
    assert [why.split(": ", 1)[1] for _, why in refused] == [
        "Ana has a login of their own in this class: their results reach it from that login only, "
        "not from a workstation's"]


def test_a_login_reads_only_the_attempts_that_concern_it(tmp_path, klass, classroom):
    conns, _, logins = classroom
    exam = form()
    ledger.give_form(conns["instructor"], exam.uid, exam.digest, exam.name, exam.attempts_allowed)
    for n, name in enumerate(("Ana", "Bo", "Bo", "Cy")):
        ledger.start_attempt(conns["instructor"], f"{n}".ljust(32, "e"), name, exam.uid)
    refused = {"ana": ("Bo", "Cy"), "shared": ("Ana", "Cy"), "table 1": ("Ana", "Bo"),
               "table 2": ("Ana", "Bo", "Cy")}
    for who, names in refused.items():
        for name in names:
            for call in ("exam_attempts_used", "exam_attempts_of"):  # s004's, read by every login
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conns[who].execute(f"SELECT {call}(%s, %s)", (name, exam.uid))
    assert ledger.attempts_used(conns["ana"], "Ana", exam.uid) == 1
    assert ledger.attempts_used(conns["shared"], "Bo", exam.uid) == 2
    assert ledger.attempts_used(conns["table 1"], "Cy", exam.uid) == 1
    for name, used in (("Ana", 1), ("Bo", 2), ("Cy", 1)):  # the staff read the class
        assert ledger.attempts_used(conns["instructor"], name, exam.uid) == used
    # the app's reads: a workstation's Exam screen for the trainee at it, the instructor's issue
    address = klass.address(*logins["table 1"])
    assert ClassLedger(address).standing("Cy", [exam.uid]) == {exam.uid: (1, 3)}
    with pytest.raises(ClassServerError, match="trainees it serves"):
        ClassLedger(address).standing("Bo", [exam.uid])
    assert ClassLedger(klass.address("instructor")).attempts_used("Bo", exam.uid) == 2


def test_a_trainees_login_is_told_its_own_login_only(klass, classroom):
    conns, _, _ = classroom
    bo = class_login(conns["instructor"], "Bo", "bo-password")
    ana = conns["ana"].execute("SELECT session_user").fetchone()[0]
    with klass.connect(bo, "bo-password") as bo_conn:
        assert bo_conn.execute("SELECT trainee_login_of('Ana')").fetchone()[0] is None
        assert bo_conn.execute("SELECT trainee_login_of('Bo')").fetchone()[0] == bo
        assert bo_conn.execute("SELECT name FROM trainee_logins").fetchall() == [("Bo",)]
    assert conns["ana"].execute("SELECT trainee_login_of('Bo')").fetchone()[0] is None
    for who in ("shared", "instructor"):  # a workstation asks the trainee's password
        assert conns[who].execute("SELECT trainee_login_of('Ana')").fetchone()[0] == ana


def trainee_row(uid: str, name: str) -> dict:
    return {"uid": uid, "name": name, "created": 1.7e9, "archived": 0, "archived_at": None, "instructor": 0}


def test_no_workstation_login_registers_a_classmates_name_it_does_not_serve(tmp_path, klass, classroom):
    """Bo (no login of his own) was registered by the shared login. At Table 2 a trainee makes a
    profile named Bo (a new trainee id) and pushes a failing attempt under it: the instructor's
    view, which is by name, would read it as Bo's. Refused by name, nothing kept, and the class
    still holds one Bo, whose attempts are his own. The instructor attaches Bo to Table 2: then
    Table 2 sends for a profile of his there. A trainee's own login registers no other name."""
    conns, uids, _ = classroom
    before, fake = klass.count(), "b0" * 16
    attack = {"trainees": [trainee_row(fake, "Bo")], "attempts": forged(tmp_path, fake, "fake")["attempts"]}
    attack["attempts"][0] |= {"passed": 0, "total": 10}
    for who in ("table 1", "table 2"):
        with pytest.raises(psycopg.errors.CheckViolation,
                           match=f"refused trainee {fake}: 'Bo' is in the class already, registered by "
                                 "another workstation's login: the instructor attaches"):
            push(conns[who], attack)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own results"):
        push(conns["ana"], attack)
    assert klass.count() == before
    with klass.admin() as admin:
        assert admin.execute("SELECT uid FROM trainees WHERE name = 'Bo'").fetchall() == [(uids["Bo"],)]
    attach_trainee(conns["instructor"], uids["Bo"], "Table 2")
    assert push(conns["table 2"], attack) == 1  # Bo at Table 2, as the instructor said
    assert push(conns["shared"], {"trainees": [trainee_row("b1" * 16, "Bo")], "attempts": []}) == 0


def test_a_login_is_told_only_the_names_it_serves(tmp_path, klass, classroom):
    """Table 2 asks which name of the class 'bo' and 'cy' read as, and pushes them: it serves
    neither, so it is told neither (a look-alike is still refused, without the other's name).
    The shared login, which registered Bo, and the staff are told; Ana's login, her own name."""
    conns, _, _ = classroom
    for who in ("table 2", "ana"):
        for name in ("bo", "BO", "cy", "Аna"):  # the last with a Cyrillic А
            told = conns[who].execute("SELECT name_look_alike(%s)", (name,)).fetchone()[0]
            assert told is None or (who, told) == ("ana", "Ana"), (who, name, told)
    assert conns["ana"].execute("SELECT name_look_alike('ana')").fetchone()[0] == "Ana"
    assert conns["shared"].execute("SELECT name_look_alike('bo')").fetchone()[0] == "Bo"
    assert conns["shared"].execute("SELECT name_look_alike('cy')").fetchone()[0] is None
    assert conns["instructor"].execute("SELECT name_look_alike('cy')").fetchone()[0] == "Cy"
    with pytest.raises(psycopg.errors.CheckViolation) as refused:
        push(conns["table 2"], {"trainees": [trainee_row("c" * 32, "cy")], "attempts": []})
    assert str(refused.value).splitlines()[0] == (
        f"refused trainee {'c' * 32}: 'cy' looks like a name already in the class")
    with pytest.raises(psycopg.errors.CheckViolation, match="'bo' looks like 'Bo', already in the class"):
        push(conns["shared"], {"trainees": [trainee_row("d" * 32, "bo")], "attempts": []})
