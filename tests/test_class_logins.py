"""Whose attempts, on a real PostgreSQL (trainer.exams.classledger): the exams an
instructor gives to the class and the attempts they allow are the server's, not what a
workstation says (migration s007); a trainee's login belongs to their name in the class, from
every workstation they use, and an exam with no sitting starts for them only with it (s008).
Each attack closed is a test here."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import random
import socket
import sqlite3
import struct
import threading

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import (
    PASSWORD,
    Class,
    cluster,
    free_port,
    made_under_login,
    progress_file,
    push_all,
    server_rows,
    settled_hers,
)
from tests.support.command import run_command, run_here
from tests.support.exams import form
from trainer.classes import ClassServerError
from trainer.classes.server.command import prepare
from trainer.classes.server.logins import CLASS_LOGINS, class_login
from trainer.classes.server.postgres import Postgres
from trainer.classes.server.tables import DATABASE
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassLedger
from trainer.classes.workstation.queue import Queue
from trainer.exams import ExamAccess, add_bundled_forms, add_form, installation_key, start_exam
from trainer.exams.classledger import give_to_class
from trainer.exams.errors import ClassLedgerError, NoAttemptsLeftError, TraineeLoginNeeded
from trainer.exams.forms import write_form
from trainer.progress import Store, clean_name


def workstation(tmp_path, name: str, *people: str):
    """A workstation's progress file with these trainees, one attempt each (not pushed yet)."""
    return progress_file(tmp_path / name, {p: 1 for p in people})


# --------------------------------------------------------------------------- the forms given
def test_an_exam_with_no_sitting_starts_only_at_a_form_the_instructor_gave(tmp_path, klass, joined):
    exam = form()
    path = workstation(tmp_path, "ws.sqlite", "Sam Lee")
    key = installation_key(tmp_path / "k")
    with Store.open(path) as store:
        add_form(store, exam)
        sam = store.find_trainee("Sam Lee").id
        with pytest.raises(NoAttemptsLeftError, match=r"not given to the class.*Give to class"):
            start_exam(store, exam, sam, key, classroom=joined.seat())
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        assert give_to_class(joined("instructor"), exam) is True
        assert give_to_class(joined("instructor"), exam) is False  # once is enough
        start_exam(store, exam, sam, key, classroom=joined.seat()).abandon()
    assert [(r[1], r[2], r[3]) for r in server_rows(klass, "exam_starts")] == [("Sam Lee", exam.uid, 1)]


def test_the_attempts_allowed_are_the_classs_not_the_workstations(tmp_path, klass, joined):
    """A workstation whose copy of the form says 5 attempts (the file edited, or an engine asking
    for more) gets the 1 the instructor's form allows."""
    exam = dataclasses.replace(form(), attempts_allowed=1)
    give_to_class(joined("instructor"), exam)
    generous = dataclasses.replace(exam, attempts_allowed=5)
    assert generous.uid == exam.uid and generous.digest != exam.digest
    path = workstation(tmp_path, "ws.sqlite", "Sam Lee")
    push_all(path, klass, address=klass.address(klass.seat()))  # Table 1 serves Sam, reads his (s018)
    key = installation_key(tmp_path / "k")
    table = joined.seat()
    with Store.open(path) as store:
        add_form(store, generous)
        sam = store.find_trainee("Sam Lee").id
        add_bundled_forms(store)
        visits = []
        ask = table._ledger
        table._ledger = lambda call, *args: (visits.append(call), ask(call, *args))[1]
        listed = ExamAccess(store, sam, table).available()
        table._ledger = ask
        from trainer.exams.forms import bundled_forms

        assert len(listed) == 1 + len(bundled_forms())  # the copy, and each bundled form
        assert len(visits) == 1, "the list visits the class once, not per form"
        shown = [(a.attempts_left, a.attempts_allowed) for a in listed if a.uid == exam.uid]
        assert shown == [(1, 1)], "the Exam screen shows the class's allowance, not the copy's"
        start_exam(store, generous, sam, key, classroom=table).abandon()
        with pytest.raises(NoAttemptsLeftError, match="used 1 of the 1 attempt"):
            start_exam(store, generous, sam, key, classroom=table)
    with pytest.raises(ClassServerError, match="used 1 of the 1"):
        table.start_attempt("e" * 32, "Sam Lee", exam.uid)
    with klass.connect(klass.seat()) as conn, pytest.raises(psycopg.errors.UndefinedFunction):
        conn.execute("SELECT start_exam_attempt('x', 'Sam Lee', %s, 9)", (exam.uid,))  # s004's: gone
    assert len(server_rows(klass, "exam_starts")) == 1


def test_only_an_instructor_gives_a_form_and_a_given_form_never_changes(tmp_path, klass, joined):
    exam = form()
    for login in ("workstation", "supervisor"):
        with pytest.raises(ClassLedgerError, match="refuses"):
            give_to_class(joined(login), exam)
    give_to_class(joined("instructor"), exam)
    with pytest.raises(ClassLedgerError, match=f"another form with the id {exam.uid}"):
        give_to_class(joined("instructor"), dataclasses.replace(exam, attempts_allowed=9))
    for change in ("UPDATE exam_forms_given SET attempts_allowed = 9", "DELETE FROM exam_forms_given"):
        with klass.admin() as admin, pytest.raises(psycopg.errors.InsufficientPrivilege):
            admin.execute(change)
    given = [(r[0], r[3]) for r in server_rows(klass, "exam_forms_given")]
    assert given == [(exam.uid, exam.attempts_allowed)]


def test_the_give_form_command(tmp_path, klass):
    exam = form()
    write_form(exam, tmp_path / "form.json")
    args = ("give-form", str(tmp_path / "form.json"), "--class")
    done = run_command(*args, klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    assert f"{exam.name!r}: given to the class, {exam.attempts_allowed} attempts each" in done.stdout
    again = run_here(*args, klass.address("instructor").url)  # the refusals: the entry, in-process
    assert "already given" in again.stdout
    refused = run_here(*args, klass.address("workstation").url)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "refuses this login (workstation)" in refused.stderr
    missing = run_here("give-form", str(tmp_path / "nothing.json"), "--class",
                       klass.address("instructor").url)
    assert missing.returncode == 2 and "nothing.json" in missing.stderr and "Traceback" not in missing.stderr


# --------------------------------------------------------------------------- trainee logins
def test_a_login_is_the_names_from_every_workstation_and_before_any_result(tmp_path, klass):
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Ana", "ana-password")  # before Ana sent anything
    mine = klass.address(login, "ana-password")
    for name, people in (("a.sqlite", ("Ana", "Bo")), ("b.sqlite", ("Ana",))):  # b: a new id
        path = workstation(tmp_path, name, *people)
        push_all(path, klass)  # the workstation's login sends Bo's, never Ana's (s018) ...
        assert push_all(path, klass, address=mine) == 0  # ... set aside in the file, not sent again
    with contextlib.closing(Queue(tmp_path / "b.sqlite")) as queue:
        refused = queue.refused(server_rows(klass, "class_info")[0][0])
    assert len(refused) == 1 and "Ana has a login of their own" in refused[0][1]
    # from her own login: a profile made under it, and one made before it, settled hers
    push_all(made_under_login(tmp_path / "own-a.sqlite", klass, "Ana", login, "ana-password", 1), klass,
             address=mine)
    before_her_login = progress_file(tmp_path / "own-b.sqlite", {"Ana": 1})
    settled_hers(klass, before_her_login, "Ana", login, "ana-password")
    push_all(before_her_login, klass, address=mine)
    with klass.connect(login, "ana-password") as ana:
        assert [r[0] for r in ana.execute("SELECT name FROM trainees")] == ["Ana", "Ana"]
        assert ana.execute("SELECT count(*) FROM attempts").fetchone()[0] == 2
        assert ana.execute("SELECT name FROM trainee_logins").fetchall() == [("Ana",)]
    with klass.connect("instructor") as instructor:
        assert class_login(instructor, "Ana", "new-password") == login  # a new password, same login
        with pytest.raises(ClassServerError, match="at least 8"):
            class_login(instructor, "Bo", "short")
        with pytest.raises(ClassServerError, match="not written as the class writes names"):
            class_login(instructor, " ", "long-enough")
    with pytest.raises(psycopg.OperationalError):
        klass.connect(login, "ana-password")  # the old password is gone


def test_two_classes_on_one_postgresql_give_a_name_two_logins(server):
    one, two = Class(server), Class(server)
    logins = []
    for k in (one, two):
        with k.connect("instructor") as instructor:
            logins.append(class_login(instructor, "Ana", "ana-password"))
    assert logins[0] != logins[1]
    with one.connect(logins[0], "ana-password") as ana, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own"):
        ana.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [], "attempts": [
            {"uid": "x", "trainee_uid": "y"}]}),))
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        two.connect(logins[0], "ana-password")  # one class's login does not enter another's


def test_a_trainee_pushes_no_attempt_under_anothers_id(tmp_path, klass):
    """s001 checked the trainees a batch lists, not the trainee an attempt names: a batch with no
    trainees and Bo's id (already on the server) on each attempt would have added them as Bo's."""
    path = workstation(tmp_path, "ws.sqlite", "Ana", "Bo")
    push_all(path, klass)
    with Store.open(path) as store:
        bo = store.find_trainee("Bo").uid
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Ana", "ana-password")
    more = made_under_login(tmp_path / "more.sqlite", klass, "Ana", login, "ana-password", 2)
    queue = Queue(more)
    _, batch = queue.batch("x", 10)
    queue.close()
    forged = {"trainees": [], "attempts": [{**a, "trainee_uid": bo} for a in batch["attempts"]]}
    before = klass.count()
    with klass.connect(login, "ana-password") as ana:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own"):
            ana.execute("SELECT push_attempts(%s)", (Jsonb(forged),))
        assert ana.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0] == 2  # her own
    assert klass.count() == before + 2


def test_the_class_login_command(tmp_path, klass):
    done = run_command("class-login", "Ana Lee", "  Bo  ", "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    lines = {ln.split(":")[0].strip(): ln for ln in done.stdout.splitlines()[1:]}
    assert set(lines) == {"Ana Lee", "Bo"}
    password = lines["Ana Lee"].split("password ")[1].split()[0]
    login = lines["Ana Lee"].split("(login ")[1].rstrip(")")
    with klass.connect(login, password) as ana:
        assert ana.execute("SELECT name FROM trainee_logins").fetchall() == [("Ana Lee",)]
    refused = run_here("class-login", "Cy", "--class", klass.address("workstation").url)  # in-process
    assert refused.returncode == 2 and "refuses this login" in refused.stderr
    assert "Traceback" not in refused.stderr
    empty = run_here("class-login", " ", "--class", klass.address("instructor").url)
    assert empty.returncode == 2 and "name cannot be empty" in empty.stderr


def test_an_exam_with_no_sitting_starts_with_the_trainees_password(tmp_path, klass, joined):
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Sam Lee", "sam-password")
    path = workstation(tmp_path, "ws.sqlite", "Sam Lee")
    key = installation_key(tmp_path / "k")
    shared = joined("workstation")
    with Store.open(path) as store:
        sam = store.find_trainee("Sam Lee").id
        with pytest.raises(TraineeLoginNeeded) as asked:
            start_exam(store, exam, sam, key, classroom=shared)
        assert asked.value.name == "Sam Lee" and not asked.value.refused
        with pytest.raises(TraineeLoginNeeded) as wrong:
            start_exam(store, exam, sam, key, classroom=shared, password="not-his-password")
        assert wrong.value.refused and "refuses that password" in str(wrong.value)
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        assert server_rows(klass, "exam_starts") == []
        start_exam(store, exam, sam, key, classroom=shared, password="sam-password").abandon()
    assert [(r[1], r[3]) for r in server_rows(klass, "exam_starts")] == [("Sam Lee", 1)]


@pytest.mark.parametrize("spelling", ["Sam Lee\u200b", "Sam  Lee", "Sam Lee ", "\uff33am Lee", "Sam\u00a0Lee",
                                      "Sam\u2003Lee", "\u202eSam Lee", "Sam Lee\u0378", "Sam Lee\ufdd0",
                                      "Sam Lee\U000e0080", "Sam\ue000 Lee"])
def test_no_other_spelling_of_a_name_gets_round_its_login(klass, joined, spelling):
    """The app writes every name with clean_name, but a workstation's code is the trainee's: the
    server refuses a start, or a login, under any name not written that way (each spelling here
    folds into "Sam Lee", and would be counted apart from his attempts and his login)."""
    assert clean_name(spelling) == "Sam Lee"
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Sam Lee", "sam-password")
        with pytest.raises(ClassServerError, match="not written as the class writes names"):
            class_login(instructor, spelling, "long-enough")
    table = joined.seat()
    with pytest.raises(ClassServerError, match="not written as the class writes names"):
        table.start_attempt("a" * 32, spelling, exam.uid)
    assert server_rows(klass, "exam_starts") == []


def test_the_password_reaches_the_server_as_its_verifier_only(klass):
    """class_login is given the SCRAM verifier made by the driver: not in a statement, an error
    or the server's log, even when the login's role is already there (a class restored on the
    same PostgreSQL)."""
    def role_of(name: str) -> str:
        return "trainee_" + hashlib.md5(f"{uid}\n{name}".encode()).hexdigest()[:24]

    with klass.admin() as admin:
        uid = admin.execute("SELECT uid FROM class_info").fetchone()[0]
        role, stranger = role_of("Ana"), role_of("Cy")
        admin.execute(f'CREATE ROLE "{stranger}" NOLOGIN')  # made by another hand
        admin.execute("SET ROLE class_owner")
        admin.execute(f'CREATE ROLE "{role}" NOLOGIN IN ROLE class_trainee')  # by the class, before
    with klass.connect("instructor") as instructor:
        assert class_login(instructor, "Ana", "Secret-Pass-1234") == role
        with pytest.raises(ClassServerError, match="not the class's to change") as taken:
            class_login(instructor, "Cy", "Secret-Pass-1234")
        assert "SCRAM" not in str(taken.value)
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="SCRAM verifier only"):
            instructor.execute("SELECT class_login('Bo', 'typed-as-such')")  # not through logins
    with klass.admin() as admin:
        stored = admin.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s", (role,)).fetchone()[0]
    assert stored.startswith("SCRAM-SHA-256$")
    with klass.connect(role, "Secret-Pass-1234") as ana:
        assert ana.execute("SELECT current_user").fetchone()[0] == role
    assert "Secret-Pass-1234" not in klass.server.log.read_text(errors="replace")


def test_a_class_server_started_as_the_app_starts_it_keeps_postgresqls_scram_cost(open_folder):
    """The test servers derive their logins' passwords with fewer SCRAM iterations
    (class_server.quick_logins); a class server started as the app starts it (its own cluster,
    Postgres.start, prepare) keeps PostgreSQL's 4096, for the class's logins and for a trainee's
    login the instructor makes (its verifier derived by the driver, as the server reports)."""
    cluster(open_folder / "class")
    server = Postgres(open_folder / "class", port=free_port())
    server.start()
    try:
        (server.folder / "logins.json").write_text(json.dumps({n: PASSWORD for n in CLASS_LOGINS}))
        addresses = prepare(server, [], lambda line: None)
        with psycopg.connect(addresses["instructor"]) as instructor:
            assert instructor.pgconn.parameter_status(b"scram_iterations") == b"4096"
            ana = class_login(instructor, "Ana", "ana-password")
        with psycopg.connect(server.admin_dsn(), autocommit=True) as admin:
            stored = dict(admin.execute("SELECT rolname, rolpassword FROM pg_authid WHERE rolname = ANY(%s)",
                                        ([*CLASS_LOGINS, ana],)).fetchall())
        assert sorted(stored) == sorted([*CLASS_LOGINS, ana])
        assert all(v.startswith("SCRAM-SHA-256$4096:") for v in stored.values()), stored
    finally:
        server.crash()  # nothing of it is kept


def test_s008_on_a_class_with_two_s003_logins_of_one_name(tmp_path, server):
    """Before s008 a login was one progress file's: two files of one name could each have one.
    s008 keeps the older as the name's (it reads both files' rows) and the other logs in no more."""
    k = Class(server, upto="s006_exam_starts_bound_to_trainee_logins")
    push_all(workstation(tmp_path, "a.sqlite", "Ana"), k)
    push_all(workstation(tmp_path, "b.sqlite", "Ana"), k)
    with k.admin() as admin:
        uids = [r[0] for r in admin.execute("SELECT uid FROM trainees ORDER BY id")]
    with k.connect("instructor") as instructor:  # s003's function, as it was: the password as such
        first, second = (instructor.execute("SELECT trainee_login(%s, %s)", (u, pw)).fetchone()[0]
                         for u, pw in zip(uids, ("first-pass", "second-pass"), strict=True))
    k.install()  # s007 and s008
    with k.connect(first, "first-pass") as ana:
        assert ana.execute("SELECT count(*) FROM attempts").fetchone()[0] == 2  # both files'
        assert ana.execute("SELECT trainee_login_of('Ana')").fetchone()[0] == first
    with pytest.raises(psycopg.OperationalError, match="not permitted to log in"):
        k.connect(second, "second-pass")


def test_the_class_servers_own_postgresql_a_bundled_form_changed_under_its_id(server):
    """The class keeps the form it was given (a given form never changes); a later version whose
    bundled form kept its id with other content must not stop the class server from starting."""
    (server.folder / "logins.json").write_text(json.dumps({n: PASSWORD for n in CLASS_LOGINS}))
    said = []
    exam = form()
    prepare(server, [(exam.uid, exam.digest, exam.name, exam.attempts_allowed)], said.append)
    addresses = prepare(server, [(exam.uid, "other content", exam.name, 9)], said.append)
    assert set(addresses) == set(CLASS_LOGINS)
    assert said == [f"Not given to the class: another form with the id {exam.uid} was given to this "
                    f"class: {exam.name!r} differs from it (a different exam is a new form); the "
                    "class keeps the form it was given."]
    with psycopg.connect(server.admin_dsn(DATABASE)) as conn:
        assert conn.execute("SELECT form_digest, attempts_allowed FROM exam_forms_given WHERE form_uid = %s",
                            (exam.uid,)).fetchone() == (exam.digest, exam.attempts_allowed)
    with psycopg.connect(addresses["instructor"]) as instructor:
        login = class_login(instructor, "Ana", "ana-password")
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(f"postgresql://{login}:ana-password@127.0.0.1:{server.port}/postgres")


def test_clean_names_are_the_class_servers_names(unchanged_class):
    """Whatever the app writes as a name (clean_name, run twice to the same) the class server
    takes as written: the names of every script, and marks left to compose by a removed
    character. The class server's refusal of other spellings never refuses a trainee's own."""
    rng = random.Random(14)
    alphabet = [chr(c) for c in (*range(0x20, 0x250), 0x300, 0x308, 0x327, 0x5b4, 0x93f, 0x94d, 0x200b,
                                 0x200d, 0xad, 0xa0, 0x3000, 0xff21, 0x1100, 0x1161, 0xac00, 0x4e00,
                                 0x627, 0x644, 0x1f468, 0x1f3fd, 0xfdd0, 0x378, 0xe000, 0x2028)]
    names = ["José Núñez", "Zoë O'Brien-Smith", "李小龙", "김민준", "محمد علي", "שָׁלוֹם כהן",
             "अनिल कुमार", "👩🏽‍💻 Ana", "a\xad\u0308b", "e\u200b\u0301x"]
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(400)]
    cleaned = [clean_name(n) for n in names]
    assert all(clean_name(c) == c for c in cleaned), "clean_name gives what it would give again"
    with unchanged_class.admin() as admin:
        passed = [r[0] for r in admin.execute(  # each name, in one statement
            "SELECT canonical_name(c) FROM unnest(%s::text[]) AS n (c)", ([c for c in cleaned if c],))]
    assert all(passed) and len(passed) > 350


def test_a_trainee_password_is_never_sent_to_a_server_that_asks_for_it_in_clear():
    """Whatever answers at the class's address and asks for the password as such (not SCRAM)
    is refused before anything is sent: the trainee's password is typed at a workstation
    whose network a trainee controls."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    got = []

    def fake_server():
        conn, _ = listener.accept()
        with conn:
            body = conn.recv(struct.unpack("!I", conn.recv(4))[0] - 4)
            if struct.unpack("!I", body[:4])[0] == 80877103:  # asks for TLS: no
                conn.send(b"N")
                conn.recv(struct.unpack("!I", conn.recv(4))[0] - 4)
            conn.send(b"R" + struct.pack("!II", 8, 3))  # "send me the password in clear"
            conn.settimeout(5)
            with contextlib.suppress(OSError):  # refused: the client hangs up
                got.append(conn.recv(1000))

    thread = threading.Thread(target=fake_server, daemon=True)
    thread.start()
    port = listener.getsockname()[1]
    shared = ClassLedger(class_address(f"postgresql://workstation:x@127.0.0.1:{port}/dealer_class"))
    with pytest.raises(ClassServerError):
        shared.signed_in("trainee_x", "sams-secret-password").start_attempt("r" * 32, "Sam Lee", "f")
    thread.join(10)
    listener.close()
    assert not any(b"sams-secret-password" in g for g in got)


def test_a_name_stored_before_names_were_cleaned_is_sent_clean(tmp_path, klass):
    path = workstation(tmp_path, "old.sqlite", "Sam Lee")
    with sqlite3.connect(path) as db:  # as a file of an early version could hold it
        db.execute("UPDATE trainees SET name = 'Sam  Lee\u200b'")
    push_all(path, klass)
    assert [r[1] for r in server_rows(klass, "trainees")] == ["Sam Lee"]
