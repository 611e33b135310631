"""The exam ledger on the class server, on a real PostgreSQL: a workstation or
an instructor's machine joined to a class cannot give an attempt back by deleting, replacing or
restoring a progress file, nor start a counted exam while the server cannot be reached. Each
attack closed is a test here."""

from __future__ import annotations

import copy
import json
import shutil
import time
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import free_port, progress_file, push_all, server_rows, until
from tests.support.command import run_command, run_here
from tests.support.exams import code_of, form, issuer, sit
from trainer.classes import ClassServerError
from trainer.classes.server.logins import trainee_login
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassLedger
from trainer.exams import ExamAccess, NoAttemptsLeftError, add_form, installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, class_certificates, issue_sitting
from trainer.exams.classledger import give_to_class
from trainer.exams.errors import ClassLedgerError, ExamOfflineError, TraineeLoginNeeded
from trainer.exams.forms import new_form
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import proof_key, prove
from trainer.exams.records import portable_record
from trainer.exams.submission import SUBMISSION
from trainer.library import load_library
from trainer.progress import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def workstation_file(path: Path, name: str = "Sam Lee") -> Path:
    with Store.open(path) as store:
        store.add_trainee(name)
    return path


def replace_file(path: Path, older: Path) -> None:
    """The trainee puts an older copy of the progress file in place of the current one."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.copy(older, path)


def local_results(path: Path) -> int:
    with Store.open(path) as store:
        return store.query("SELECT count(*) AS n FROM exam_results")[0]["n"]


# --------------------------------------------------------------------------- sittings
def test_a_sitting_sat_once_cannot_be_sat_again_from_an_older_progress_file(tmp_path, klass, joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    assert token["class"] and token["attempt"] == 1
    path = workstation_file(tmp_path / "workstation.sqlite")
    shutil.copy(path, tmp_path / "before.sqlite")
    key = installation_key(tmp_path / "installation.key")
    workstation = joined.seat()
    with Store.open(path) as store:
        sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token, classroom=workstation)
    replace_file(path, tmp_path / "before.sqlite")  # the file from before the exam, to sit it again
    with Store.open(path) as store, pytest.raises(ClassLedgerError, match="already used"):
        start_exam(store, exam, store.find_trainee("Sam Lee").id, key, sitting=token, classroom=workstation,
                   start_code=code_of(token))
    assert local_results(path) == 0  # nothing started
    assert len(server_rows(klass, "exam_sitting_uses")) == 1


def test_a_sitting_issued_in_a_class_starts_on_no_workstation_out_of_it(tmp_path, joined, ivy):
    """Leaving the class (or never joining it) is no way around the server's count."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    path = workstation_file(tmp_path / "workstation.sqlite")
    with Store.open(path) as store, pytest.raises(ExamOfflineError, match="joined to that class"):
        start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                   sitting=token, start_code=code_of(token))
    assert local_results(path) == 0


def test_a_counted_exam_does_not_start_while_the_class_server_cannot_be_reached(tmp_path, klass,
                                                                                 joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    nowhere = class_address(f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
    offline = joined(address=nowhere)
    path = workstation_file(tmp_path / "workstation.sqlite")
    key = installation_key(tmp_path / "installation.key")
    with Store.open(path) as store:
        sam = store.find_trainee("Sam Lee").id
        with pytest.raises(ExamOfflineError, match="does not start offline"):
            start_exam(store, exam, sam, key, sitting=token, classroom=offline,
                       start_code=code_of(token))
        with pytest.raises(ExamOfflineError, match="does not start offline"):
            start_exam(store, exam, sam, key, classroom=offline)  # no sitting: counted all the same
    assert local_results(path) == 0
    assert server_rows(klass, "exam_sitting_uses") == [] and server_rows(klass, "exam_starts") == []


def ledger_sessions(klass) -> list[int]:
    """The backends of the class's database logged in as the instructor, as the server lists them."""
    with klass.admin() as admin:
        return [pid for (pid,) in admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND usename = 'instructor' ORDER BY pid")]


def test_the_ledgers_calls_share_one_login_and_one_the_server_ended_is_made_again(klass, monkeypatch):
    monkeypatch.setattr(ClassLedger, "idle", 3600.0)  # nothing here is let go for want of calls
    ledger = ClassLedger(klass.address("instructor"))
    exam = form()
    assert give_to_class(ledger, exam) is True
    for _ in range(5):
        assert ledger.attempts_used("Sam Lee", exam.uid) == 0
        assert ledger.login_of("Sam Lee") is None
    (kept,) = ledger_sessions(klass)  # eleven calls, one login
    with klass.admin() as admin:  # the server ends the session while it rests (a restart does)
        assert admin.execute("SELECT pg_terminate_backend(%s, 5000)", (kept,)).fetchone() == (True,)
    assert ledger.attempts_allowed(exam.uid) == exam.attempts_allowed  # no call fails for it
    (again,) = ledger_sessions(klass)
    assert again != kept
    ledger.close()  # let go at once (its backend ends once it reads the close)
    until(lambda: ledger_sessions(klass) == [], what="the closed connection's end")
    assert ledger.login_of("Sam Lee") is None  # and made again at the next call
    assert len(ledger_sessions(klass)) == 1
    del ledger  # a ledger dropped lets its connection go
    until(lambda: ledger_sessions(klass) == [], what="the dropped ledger's connection's end")


def test_the_server_refuses_a_sitting_it_did_not_issue_or_one_expired_by_its_clock(tmp_path, joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        outside = issue_sitting(ledger, ivy, exam, "Sam Lee")  # issued in no class
        stale = issue_sitting(ledger, ivy, exam, "Sam Lee", now=time.time() - 5 * 3600,
                              classroom=joined("instructor"))
    path = workstation_file(tmp_path / "workstation.sqlite")
    key = installation_key(tmp_path / "installation.key")
    workstation = joined.seat()
    with Store.open(path) as store:
        sam = store.find_trainee("Sam Lee").id
        with pytest.raises(ClassLedgerError, match="not issued in this class"):
            start_exam(store, exam, sam, key, sitting=outside, classroom=workstation,
                       start_code=code_of(outside))
        with pytest.raises(ClassLedgerError, match=r"expired \(by the class server.s clock\)"):
            # the workstation's clock set back to when the sitting was good
            start_exam(store, exam, sam, key, sitting=stale, classroom=workstation,
                       clock=lambda: stale["issued"] + 60, start_code=code_of(stale))
    assert local_results(path) == 0


def test_a_second_instructor_file_issues_no_attempt_beyond_the_forms(tmp_path, joined, ivy):
    """The attempt count is the class's: a second instructor machine, or the instructor's own file
    restored from before, starts again at 0 in its file but not on the server."""
    exam = form()  # 3 attempts
    with Store.open(tmp_path / "a.sqlite") as a:
        tokens = [issue_sitting(a, ivy, exam, "Sam Lee", classroom=joined("instructor")) for _ in range(3)]
    assert [t["attempt"] for t in tokens] == [1, 2, 3]
    with Store.open(tmp_path / "b.sqlite") as b:
        with pytest.raises(NoAttemptsLeftError, match="every attempt"):
            issue_sitting(b, ivy, exam, "Sam Lee", classroom=joined("instructor"))
        assert b.query("SELECT count(*) AS n FROM exam_sittings")[0]["n"] == 0  # nothing kept


# --------------------------------------------------------------------------- exams with no sitting
def test_attempts_at_a_form_come_back_from_no_fresh_progress_file(tmp_path, klass, joined):
    lib = load_library()
    exam = new_form("Stick exam", [lib.by_id("ph-first-shake"), lib.by_id("pgd-sum-a-sixteen")],
                    time_limit_seconds=600, created_by="Ivy", attempts_allowed=2, uid="stick-1")
    workstation = joined.seat()
    path = tmp_path / "workstation.sqlite"
    workstation_file(path)
    push_all(path, klass, address=workstation.address)  # as the pusher does on joining: it serves Sam (s018)
    with Store.open(path) as store:
        add_form(store, exam)  # the exam on the workstation, before any attempt
    assert give_to_class(joined("instructor"), exam)  # and given to the class by the instructor
    shutil.copy(path, tmp_path / "fresh.sqlite")
    key = installation_key(tmp_path / "installation.key")
    with Store.open(path) as store:
        sam = store.find_trainee("Sam Lee").id
        start_exam(store, exam, sam, key, classroom=workstation).abandon()  # attempt 1
    replace_file(path, tmp_path / "fresh.sqlite")
    with Store.open(path) as store:
        sam = store.find_trainee("Sam Lee").id
        exam_list = ExamAccess(store, sam, classroom=workstation).available()
        assert [a.attempts_left for a in exam_list if a.uid == exam.uid] == [1]
        start_exam(store, exam, sam, key, classroom=workstation).abandon()  # attempt 2, by the server
    assert sorted(r[3] for r in server_rows(klass, "exam_starts")) == [1, 2]
    path.unlink()
    workstation_file(path)  # a new file: a new trainee id, the same trainee
    with Store.open(path) as store, pytest.raises(NoAttemptsLeftError, match="counted by the class server"):
        start_exam(store, exam, store.find_trainee("Sam Lee").id, key, classroom=workstation)
    assert len(server_rows(klass, "exam_starts")) == 2


# --------------------------------------------------------------------------- certificates
def test_certificates_are_kept_by_the_class_and_checked_when_read_back(tmp_path, klass, joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    shutil.copy(tmp_path / "instructor.sqlite", tmp_path / "instructor-before.sqlite")
    path = workstation_file(tmp_path / "workstation.sqlite")
    with Store.open(path) as store:
        result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                     sitting=token, classroom=joined.seat())
        record = portable_record(store, result.id)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token, classroom=joined("instructor"))
    with Store.open(tmp_path / "instructor-before.sqlite") as restored, \
            pytest.raises(CertifyError, match="already has a certificate in this class"):
        certify(restored, ivy, record, token, classroom=joined("instructor"))  # the same sitting again

    forged = copy.deepcopy(certificate)
    forged.update(result="f" * 32, sitting="e" * 32, total=100, passed=True)
    with klass.connect("instructor") as conn:  # an instructor login writes a row of its own
        conn.execute("INSERT INTO exam_certificates VALUES (%s, %s, %s, %s, %s, %s)",
                     (forged["result"], forged["sitting"], "Sam Lee", "x", json.dumps(forged),
                      time.time() + 1))
    read = class_certificates(joined("supervisor"), [ivy.public])
    assert [(c["result"], signer) for c, signer in read] == [(certificate["result"], ivy.public),
                                                             (forged["result"], None)]
    with pytest.raises(ClassLedgerError, match="refuses this login"):
        class_certificates(joined.seat(), [ivy.public])  # a workstation reads no certificate


# --------------------------------------------------------------------------- certifying checks the server
def modified_engine(monkeypatch):
    """A workstation whose engine skips the class server's count (`use_exam_sitting`): its exams
    start whatever the server would say."""
    monkeypatch.setattr("trainer.exams.classledger.count_start", lambda *args, **kwargs: None)


def counting_signatures(monkeypatch) -> list:
    """Every payload an instructor key signs from now on."""
    signed, sign = [], InstructorKey.sign
    monkeypatch.setattr(InstructorKey, "sign", lambda key, body: signed.append(body) or sign(key, body))
    return signed


def test_a_result_whose_sitting_the_server_never_saw_started_is_not_certified(tmp_path, monkeypatch,
                                                                              klass, joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    path = workstation_file(tmp_path / "workstation.sqlite")
    with monkeypatch.context() as m:
        modified_engine(m)
        with Store.open(path) as store:
            result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                         sitting=token, classroom=joined.seat())
            record = portable_record(store, result.id)
    assert server_rows(klass, "exam_sitting_uses") == []  # the server never counted it
    signed = counting_signatures(monkeypatch)
    with Store.open(tmp_path / "instructor.sqlite") as ledger, \
            pytest.raises(CertifyError, match=f"sitting {token['nonce']} .*never started on the class"):
        certify(ledger, ivy, record, token, classroom=joined("instructor"))
    assert signed == [] and server_rows(klass, "exam_certificates") == []


def test_a_sitting_used_once_on_the_server_is_certified_once(tmp_path, monkeypatch, klass, joined, ivy):
    """The trainee sits the sitting (counted), then sits it again from the file of before with an
    engine that skips the count; the instructor, from a file restored from before the first
    certificate, is refused the second before signing anything, the sitting named."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    shutil.copy(tmp_path / "instructor.sqlite", tmp_path / "instructor-before.sqlite")
    path = workstation_file(tmp_path / "workstation.sqlite")
    shutil.copy(path, tmp_path / "workstation-before.sqlite")
    key = installation_key(tmp_path / "k")
    with Store.open(path) as store:
        result = sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token,
                     classroom=joined.seat())
        first = portable_record(store, result.id)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certify(ledger, ivy, first, token, classroom=joined("instructor"))
    replace_file(path, tmp_path / "workstation-before.sqlite")
    with monkeypatch.context() as m:
        modified_engine(m)
        with Store.open(path) as store:
            result = sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token,
                         classroom=joined.seat())
            second = portable_record(store, result.id)
    assert len(server_rows(klass, "exam_sitting_uses")) == 1
    signed = counting_signatures(monkeypatch)
    with Store.open(tmp_path / "instructor-before.sqlite") as restored, \
            pytest.raises(CertifyError, match=f"sitting {token['nonce']} .*already has a certificate "
                                              "in this class.*certified once"):
        certify(restored, ivy, second, token, classroom=joined("instructor"))
    assert signed == [] and len(server_rows(klass, "exam_certificates")) == 1


# --------------------------------------------------------------------------- whose attempts
def test_a_login_of_ones_own_keeps_ones_attempts_from_other_workstations(tmp_path, klass, joined, ivy):
    """Sam's own login starts no exam for Ann, with her sitting or without one; once Sam has a
    login, a workstation's login starts no exam without a sitting for Sam; and no
    workstation reads a sitting's nonce, so none spends a sitting without its token."""
    exam = form()
    path = progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 1, "Ann Roe": 1})
    push_all(path, klass)  # the trainees are on the server, as any workstation's push puts them
    with Store.open(path) as store:
        uid = {t.name: t.uid for t in store.trainees()}
        add_form(store, exam)
    with klass.connect("instructor") as instructor:
        login = trainee_login(instructor, uid["Sam Lee"], "sam-password")
    give_to_class(joined("instructor"), exam)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        ann_token = issue_sitting(ledger, ivy, exam, "Ann Roe", classroom=joined("instructor"))
    sams_own, table = joined(address=klass.address(login, "sam-password")), joined.seat()
    key = installation_key(tmp_path / "k")
    with Store.open(path) as store:
        sam, ann = store.find_trainee("Sam Lee").id, store.find_trainee("Ann Roe").id
        with pytest.raises(NoAttemptsLeftError, match="starts exams for Sam Lee only, not for Ann Roe"):
            start_exam(store, exam, ann, key, classroom=sams_own)
        with pytest.raises(ClassLedgerError, match="starts exams for Sam Lee only, not for Ann Roe"):
            start_exam(store, exam, ann, key, sitting=ann_token, classroom=sams_own,
                       start_code=code_of(ann_token))
        with pytest.raises(TraineeLoginNeeded, match="Sam Lee has a login of their own"):
            start_exam(store, exam, sam, key, classroom=table)  # the app asks for his password
        with pytest.raises(ClassServerError, match="Sam Lee has a login of their own"):
            table.start_attempt("f" * 32, "Sam Lee", exam.uid)  # an engine that would not ask
        assert server_rows(klass, "exam_starts") == [] and server_rows(klass, "exam_sitting_uses") == []
        start_exam(store, exam, sam, key, classroom=sams_own).abandon()  # his own, with his login
        start_exam(store, exam, ann, key, sitting=ann_token, classroom=table,  # her token
                   start_code=code_of(ann_token)).abandon()
    assert [r[1] for r in server_rows(klass, "exam_starts")] == ["Sam Lee"]
    assert len(server_rows(klass, "exam_sitting_uses")) == 1
    for reach_around in ("SELECT nonce FROM exam_sittings",
                         "SELECT start_exam_attempt_as_asked('x', 'Sam Lee', 'f', 9)"):
        with klass.connect(klass.seat()) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(reach_around)


# --------------------------------------------------------------------------- the commands, with --class
@pytest.fixture
def instructor_files(tmp_path, ivy):
    """Ivy's key file (passphrase in IVY_PASS) and a form file, as the commands read them."""
    from trainer.exams.forms import write_form
    from trainer.exams.keys import write_private_key

    # scrypt at n = 2**14, as in the other tests not about scrypt: each command that opens the key
    # derives it again (tests/test_exams_certify.py holds the real parameters)
    write_private_key(tmp_path / "ivy.key", ivy, "plum kettle orbit 58 lantern")
    write_form(form(), tmp_path / "form.json")
    return {"key": str(tmp_path / "ivy.key"), "form": str(tmp_path / "form.json"),
            "env": {"IVY_PASS": "plum kettle orbit 58 lantern"}}


def test_the_sitting_command_issues_on_the_class_server(tmp_path, klass, instructor_files):
    f = instructor_files
    done = run_command("sitting", "--form", f["form"], "--trainee", "Sam Lee", "--key", f["key"],
                       "--ledger", str(tmp_path / "ledger.sqlite"), "--out", str(tmp_path / "sam.sitting"),
                       "--passphrase-env", "IVY_PASS", "--class", klass.address("instructor").url,
                       env=f["env"])
    assert done.returncode == 0, done.stderr
    assert "attempt 1 of 3" in done.stdout
    assert [(r[1], r[4]) for r in server_rows(klass, "exam_sittings")] == [("Sam Lee", 1)]


@pytest.mark.parametrize("command", ["sitting", "certify"])
@pytest.mark.parametrize(("where", "says"), [
    ("http://nowhere", "--class"),
    ("postgresql://instructor:x@127.0.0.1:{port}/dealer_class", "cannot be reached"),
])
def test_bad_class_input_to_the_commands_is_one_line_and_exit_2(tmp_path, ivy, instructor_files, command,
                                                                where, says):
    f = instructor_files
    ledger, out = tmp_path / "ledger.sqlite", tmp_path / "out.json"
    Store.open(ledger).close()
    (tmp_path / "submission.json").write_text("{}")
    if command == "sitting":
        args = ["sitting", "--form", f["form"], "--trainee", "Sam Lee"]
    else:  # a submission of one result, as far as the server's check
        with Store.open(ledger) as store:
            token = issue_sitting(store, ivy, form(), "Sam Lee")
        record = {"trainee": "Sam Lee", "uid": token["nonce"], "form": {"digest": token["form"]["digest"]}}
        record["proof"] = prove(proof_key(code_of(token), token["nonce"]), record)  # as if sat
        (tmp_path / "submission.json").write_text(json.dumps(
            {"format": SUBMISSION, "version": 1, "results": [{"record": record, "sitting": token}]}))
        args = ["certify", str(tmp_path / "submission.json")]
    done = run_here(*args, "--key", f["key"], "--ledger", str(ledger), "--out", str(out),
                    "--passphrase-env", "IVY_PASS", "--class", where.format(port=free_port()), env=f["env"])
    assert done.returncode == 2, done.stdout + done.stderr
    assert says in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()
    with Store.open(ledger) as store:
        assert store.query("SELECT count(*) AS n FROM exam_certificates")[0]["n"] == 0
