"""A sitting issued in a class opens only once the class server has recorded its start (the
third cold review's attack #60, `attacks/late_start.py`): before, its items were sealed under the
start code alone, so whoever held the sitting file and the code (the proctor reads it aloud at
the start; a workstation the trainee administers can log the keys) opened the items with the
workstation's traffic to the server cut, worked them with the engine, and only then let the
start reach the server, whose clock, and so the time limit, started after the items were seen.

Now the items are sealed under the code and a share the instructor records on the class server
when issuing the sitting (s027): no login reads it, and the server releases it only from the call
that records the start, in the same transaction, by its own clock. Each attack is kept in its
test; the home sitting, certification end to end and sitting files written before are checked
to work as they did."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import free_port, server_rows
from tests.support.exams import form, issuer, sent
from trainer.classes import ClassServerError
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassConnection
from trainer.exams import ExamStart, installation_key, start_exam
from trainer.exams.certify import CertifyError, issue_sitting, sign_form, sitting_form
from trainer.exams.errors import ExamOfflineError
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import class_share, link, proof_key, start_code
from trainer.exams.submission import (
    SealedSitting,
    certify_class,
    open_sitting_file,
    read_sitting_file,
    seal,
    unseal,
    write_sitting_file,
)
from trainer.grading import correct_log, grade
from trainer.procedure import build
from trainer.progress import Store

SHARE_NEEDED = "the class server must record your start before the items open"


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def class_sitting(tmp_path: Path, ivy, joined, exam, trainee: str = "Sam Lee") -> tuple[Path, dict, str]:
    """A sitting issued in the class and its file, as the instructor hands it out: (its path,
    its token, the start code the proctor types)."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, trainee, classroom=joined("instructor"))
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = tmp_path / f"{trainee.split()[0].lower()}.sitting"
    code = write_sitting_file(path, token, signed, key=ivy)
    return path, token, code


def workstation(tmp_path: Path, name: str = "Sam Lee") -> tuple[Path, int]:
    path = tmp_path / "workstation.sqlite"
    with Store.open(path) as store:
        found = store.find_trainee(name)
        trainee = found.id if found is not None else store.add_trainee(name)
    return path, trainee


def cut(klass, queue: Path) -> ClassConnection:
    """A class connection whose traffic to the class server goes nowhere (the cable pulled, a
    firewall rule on the workstation the trainee administers)."""
    return ClassConnection(str(queue), class_address(
        f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}"))


def answered(session) -> None:
    """Every item of the session answered as the engine would work it."""
    for p in range(len(session.form.items)):
        s = session.scenario(p)
        proc = build(s)
        log = correct_log(proc, s.automation)
        session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), log)


def starts(klass) -> list[tuple]:
    return [r for r in server_rows(klass, "exam_sitting_steps") if r[3] == "start"]


# --------------------------------------------------------------------------- the attack
def test_the_items_do_not_open_with_the_file_and_the_code_while_the_server_is_cut(tmp_path, klass, joined,
                                                                                  ivy):
    """late_start.py: the sitting file and its code, the traffic to the class server cut. The
    file does not open (it says the server must record the start first), the sealed form does not
    decrypt under the code alone, and the app's start is refused in one line, with nothing
    opened, written or recorded. Once the server is reached, it records the start first, and
    only then do the items open."""
    exam = form()
    path, _, code = class_sitting(tmp_path, ivy, joined, exam)
    with pytest.raises(CertifyError, match=SHARE_NEEDED):
        read_sitting_file(path, code)  # the attack's first line: no server, the code alone
    doc = json.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(CertifyError, match="the start code is not right"):
        unseal(doc["sealed_form"], code, str(path))  # the sealed blob, under the code alone
    stripped = {**doc["sealed_form"]}
    stripped.pop("share")
    with pytest.raises(CertifyError, match="the start code is not right"):
        unseal(stripped, code, str(path))  # the share's mark taken out: nothing more
    assert all(item.text not in path.read_text(encoding="utf-8") for item in exam.items)

    ws, sam = workstation(tmp_path)
    _, opened_token, sealed = open_sitting_file(path, code)
    assert isinstance(sealed, SealedSitting) and sealed.ahead.items == len(exam.items)
    key = installation_key(tmp_path / "installation.key")
    with Store.open(ws) as store:
        with pytest.raises(ExamOfflineError) as refused:
            start_exam(store, sealed, sam, key, sitting=opened_token, classroom=cut(klass, ws),
                       start_code=code)
        said = str(refused.value)
        assert said.startswith("The class server must record your start before the items open: ")
        assert "\n" not in said and "Traceback" not in said and "start again with the same code" in said
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
    assert starts(klass) == []

    with Store.open(ws) as store:
        session = start_exam(store, sealed, sam, key, sitting=opened_token, classroom=joined.seat(),
                             start_code=code)
        assert session.form.digest == exam.digest and len(session.form.items) == len(exam.items)
        (start,) = starts(klass)
        assert start[4] is not None  # the server's record of the start, by its clock, came first
        session.abandon()


def test_no_login_reads_a_sittings_share(tmp_path, klass, joined, ivy):
    """The share is on the class server from the issue on: no login reads it, changes it or
    removes it, a trainee's, a workstation's, the supervisor's or the instructor's."""
    _, token, _ = class_sitting(tmp_path, ivy, joined, form())
    trainee = joined("instructor").class_login("Sam Lee", "sam-password-for-the-class")
    logins = [("workstation", None), ("supervisor", None), ("instructor", None),
              (trainee, "sam-password-for-the-class")]
    for login, password in logins:
        with klass.connect(login, *([password] if password else [])) as conn:
            for statement in ("SELECT share FROM exam_sitting_shares",
                              "SELECT count(*) FROM exam_sitting_shares",
                              "UPDATE exam_sitting_shares SET share = share",
                              "DELETE FROM exam_sitting_shares"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
    with klass.admin() as admin:  # it is there, and it is the instructor's
        assert admin.execute("SELECT nonce, share FROM exam_sitting_shares").fetchall() == [
            (token["nonce"], class_share(ivy, token["nonce"]))]


def test_the_share_is_released_only_with_the_start_recorded(tmp_path, klass, joined, ivy):
    """Asked without the start code's link, for another trainee, or by another trainee's own
    login, the start function refuses and releases nothing; asked rightly, it records the start
    (the server's nonce and clock) and returns the share in the same answer."""
    exam = form()
    _, token, code = class_sitting(tmp_path, ivy, joined, exam)
    nonce = token["nonce"]
    first = link(proof_key(code, nonce), len(exam.items), 1)
    ana = joined("instructor").class_login("Ana Ruiz", "ana-password-for-the-class")
    call = "SELECT open_exam_sitting(%s, %s, %s, %s, %s)"
    with klass.connect(klass.seat()) as table, klass.connect(ana, "ana-password-for-the-class") as anas:
        with pytest.raises(psycopg.errors.RaiseException, match="start code was not proven"):
            table.execute(call, (nonce, "Sam Lee", None, nonce, secrets.token_bytes(32)))
        with pytest.raises(psycopg.errors.RaiseException, match="issued to Sam Lee, not Ana Ruiz"):
            table.execute(call, (nonce, "Ana Ruiz", None, nonce, first))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="starts exams for Ana Ruiz only"):
            anas.execute(call, (nonce, "Sam Lee", None, nonce, first))
        assert starts(klass) == []
        got = table.execute(call, (nonce, "Sam Lee", None, nonce, first)).fetchone()[0]
    assert bytes.fromhex(got["share"]) == class_share(ivy, nonce)
    (start,) = starts(klass)
    assert (start[4], start[5]) == (got["opened"], nonce)  # opened, result
    with klass.admin() as admin:
        received = admin.execute("SELECT received FROM exam_sitting_steps WHERE nonce = %s AND step = 1",
                                 (nonce,)).fetchone()[0]
    assert got["started"] == received


def test_a_second_start_returns_the_same_share_and_the_same_recorded_start(tmp_path, klass, joined, ivy):
    """A start whose answer was lost, or that the proctor cancelled at the workstation: asked
    again for the same result, the server answers the same record and share (its clock is not
    started again), and the app opens the sitting on it. Once an answer has reached the server,
    or for another result, it is a second sitting: refused."""
    exam = form()
    path, token, code = class_sitting(tmp_path, ivy, joined, exam)
    nonce = token["nonce"]
    ws, sam = workstation(tmp_path)
    key = installation_key(tmp_path / "installation.key")
    _, opened_token, sealed = open_sitting_file(path, code)
    first = link(proof_key(code, nonce), len(exam.items), 1)
    with Store.open(ws) as store:
        cancelled = ExamStart.checked(store, sealed, sam, key, sitting=opened_token,
                                      classroom=joined.seat(), start_code=code)
        counted = cancelled.count()  # recorded on the server; the window never opened it
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        session = start_exam(store, sealed, sam, key, sitting=opened_token, classroom=joined.seat(),
                             start_code=code)
        assert store.query("SELECT class_start FROM exam_results")[0]["class_start"] == counted.opened
        again = joined.seat().start_sitting(nonce, "Sam Lee", None, nonce, first)
        assert again == counted and counted.share == class_share(ivy, nonce)
        assert len(starts(klass)) == 1 and starts(klass)[0][4] == counted.opened
        with pytest.raises(ClassServerError, match="already used"):
            joined.seat().start_sitting(nonce, "Sam Lee", None, "f" * 32, first)
        s = session.scenario(0)
        proc = build(s)
        log = correct_log(proc, s.automation)
        session.record(0, grade(proc, log, automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), log)
        sent(store, joined.seat())
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer"]
        with pytest.raises(ClassServerError, match="already used"):
            joined.seat().start_sitting(nonce, "Sam Lee", None, nonce, first)
        session.abandon()


# --------------------------------------------------------------------------- what works as before
def test_a_home_sitting_is_sealed_under_its_code_alone_as_before(tmp_path, ivy):
    """A sitting issued with no class: its file opens with the code, no server asked."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = tmp_path / "home.sitting"
    code = write_sitting_file(path, token, signed, key=ivy)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert "share" not in doc["sealed_form"]
    assert unseal(doc["sealed_form"], code, str(path)) == signed
    _, opened_token, opened = open_sitting_file(path, code)
    assert opened.digest == exam.digest and read_sitting_file(path, code)[2].digest == exam.digest
    ws, sam = workstation(tmp_path)
    with Store.open(ws) as store:
        session = start_exam(store, opened, sam, installation_key(tmp_path / "k"), sitting=opened_token,
                             start_code=code)
        answered(session)
        assert session.result.passed


def pool():
    from tests.support.library import bundled
    from trainer.exams import new_form

    lib = bundled()
    ids = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive", "hrd-four-fives")
    return new_form("Pooled exam", [lib.by_id(i) for i in ids], time_limit_seconds=900, created_by="Ivy",
                    attempts_allowed=3, uid="pool-1", draw=2)


@pytest.mark.parametrize("exam", [form(), pool()], ids=["form", "pool"])
def test_a_class_sitting_sealed_with_its_share_is_sat_and_certified(tmp_path, klass, joined, ivy, exam):
    """From the sitting file to the certificate, in the class: the file and the code, the start
    recorded and the share released, every item answered and sent, `certify --class`; for a
    pool too (its token names the draw by a salted digest, checked once the share opens it)."""
    path, token, code = class_sitting(tmp_path, ivy, joined, exam)
    ws, sam = workstation(tmp_path)
    _, opened_token, sealed = open_sitting_file(path, code)
    with Store.open(ws) as store:
        session = start_exam(store, sealed, sam, installation_key(tmp_path / "k"), sitting=opened_token,
                             classroom=joined.seat(), start_code=code)
        answered(session)
        sent(store, joined.seat())
        assert session.result is not None and session.result.passed
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    (certificate,) = summary.certificates
    assert certificate["sitting"] == token["nonce"] and certificate["trainee"] == "Sam Lee"
    assert certificate["passed"] is True


def test_a_sitting_file_written_before_shares_opens_as_before(tmp_path, klass, joined, ivy):
    """A class sitting's file as the app wrote it before shares (the form sealed under the code
    alone): it opens with the code, is sat in the class and certified, as it was."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path, code = tmp_path / "old.sitting", start_code(ivy, token["nonce"])
    path.write_text(json.dumps({"format": "dealer-trainer-sitting-file", "version": 1, "sitting": token,
                                "sealed_form": seal(signed, code)}), encoding="utf-8")
    _, opened_token, opened = open_sitting_file(path, code)
    assert not isinstance(opened, SealedSitting) and opened.digest == exam.digest
    ws, sam = workstation(tmp_path)
    with Store.open(ws) as store:
        session = start_exam(store, opened, sam, installation_key(tmp_path / "k"), sitting=opened_token,
                             classroom=joined.seat(), start_code=code)
        answered(session)
        sent(store, joined.seat())
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == [] and len(summary.certificates) == 1
