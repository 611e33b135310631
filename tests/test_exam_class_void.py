"""An instructor voids a sitting a genuine outage spoiled (s019, trainer.exams.classledger "A
sitting voided"): with a reason the class keeps, insert-only, from an instructor's login only;
its attempt is given back, it is never started nor certified, and a sitting certified already
is not voided."""

from __future__ import annotations

import dataclasses

import psycopg
import pytest

from tests.support.class_server import server_rows
from tests.support.command import run_command, run_here
from tests.support.exams import code_of, form, issuer, sit
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, issue_sitting
from trainer.exams.errors import ClassLedgerError, ExamError, NoAttemptsLeftError
from trainer.exams.keys import InstructorKey
from trainer.exams.records import portable_record
from trainer.progress import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def issued(tmp_path, ivy, joined, exam) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))


def certified(tmp_path, ivy, joined, record: dict, token: dict) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return certify(ledger, ivy, record, token, classroom=joined("instructor"))


def sat(tmp_path, joined, exam, token, name: str) -> dict:
    """Sam sits the token through on a workstation of the class; the result handed in."""
    with Store.open(tmp_path / name) as store:
        sam = store.find_trainee("Sam Lee") or store.trainee(store.add_trainee("Sam Lee"))
        result = sit(store, installation_key(tmp_path / "k"), sam.id, exam, sitting=token,
                     classroom=joined.seat())
        return portable_record(store, result.id)


def void(klass, nonce: str, reason: str, login: str = "instructor", *, program: bool = False):
    """`dealer-trainer void-sitting`: through its entry in this process, or the `program`."""
    run = run_command if program else run_here
    return run("void-sitting", nonce, "--reason", reason, "--class", klass.address(login).url)


def test_a_voided_sitting_gives_its_attempt_back_and_is_never_certified(tmp_path, klass, joined, ivy):
    exam = dataclasses.replace(form(), attempts_allowed=1)
    spoiled = issued(tmp_path, ivy, joined, exam)
    record = sat(tmp_path, joined, exam, spoiled, "ws.sqlite")  # the outage: the instructor voids it
    with pytest.raises(NoAttemptsLeftError):
        issued(tmp_path, ivy, joined, exam)
    for login, reason, says in (("workstation", "the network was down", "instructor"),
                                ("instructor", " \u200b ", "needs a reason"),
                                ("instructor", "x" * 501, "at most 500")):
        done = void(klass, spoiled["nonce"], reason, login)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    done = void(klass, "0" * 32, "the network was down")
    assert done.returncode == 2 and "was not issued in this class" in done.stderr
    done = void(klass, spoiled["nonce"], "the network was down", program=True)
    assert done.returncode == 0 and "its attempt is given back" in done.stdout, done.stderr
    done = void(klass, spoiled["nonce"], "again")
    assert done.returncode == 2 and "voided already, by instructor (the network was down)" in done.stderr
    [(nonce, reason, _, login)] = server_rows(klass, "exam_sitting_voids")
    assert (nonce, reason, login) == (spoiled["nonce"], "the network was down", "instructor")
    with klass.connect("instructor") as conn, pytest.raises(psycopg.Error):
        conn.execute("DELETE FROM exam_sitting_voids")  # insert-only
    # never certified: by the app, nor by a certificate written straight to the server
    voided = r"voided on the class server by instructor \(the network was down\)"
    with pytest.raises(CertifyError, match=voided):
        certified(tmp_path, ivy, joined, record, spoiled)
    with klass.connect("instructor") as conn, pytest.raises(psycopg.errors.CheckViolation, match="voided"):
        conn.execute("INSERT INTO exam_certificates (result_uid, nonce, trainee_name, signer, certificate, "
                     "signed) VALUES ('r', %s, 'Sam Lee', 'f', '{}', 0)", (spoiled["nonce"],))
    # the attempt given back: a new sitting, numbered after the voided one
    again = issued(tmp_path, ivy, joined, exam)
    assert again["attempt"] == 2
    with Store.open(tmp_path / "ws.sqlite") as store, pytest.raises(ExamError):
        start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                   sitting=spoiled, classroom=joined.seat(), start_code=code_of(spoiled))
    certificate = certified(tmp_path, ivy, joined, sat(tmp_path, joined, exam, again, "ws2.sqlite"), again)
    assert certificate["attempt"] == 2
    done = void(klass, again["nonce"], "the network was down")
    assert done.returncode == 2 and "certified already" in done.stderr, done.stderr


def test_a_sitting_never_started_is_voided_and_cannot_start(tmp_path, klass, joined, ivy):
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    assert void(klass, token["nonce"], "issued to the wrong trainee").returncode == 0
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        with pytest.raises((ClassLedgerError, ExamError), match="voided"):
            start_exam(store, exam, sam, installation_key(tmp_path / "k"), sitting=token,
                       classroom=joined.seat(), start_code=code_of(token))
    assert server_rows(klass, "exam_sitting_uses") == []
