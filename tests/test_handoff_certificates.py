"""Exam results reach the employer only as certificates, and every certificate reaches it: the
export leaves out every attempt of exam mode (any workstation can write one) and writes each
certificate the instructor signed, checked with the instructor's public key at export, in the
CSV transcript and as xAPI statements; one that does not verify is named and left out.

The program itself (`run_command`) exports once from a file, once to a file (`--out`), once from a
class and once in another time zone; the other cases call its entry in this process (`run_here`)."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.support.class_server import T0, attempt
from tests.support.command import run_command, run_here
from tests.support.exams import form, issuer, sit
from tests.support.xapi import problems
from trainer.classes.workstation.connection import ClassLedger
from trainer.exams import installation_key
from trainer.exams.certify import certificates, certify, issue_sitting, verification_code
from trainer.exams.employer import certified
from trainer.exams.keys import InstructorKey, write_public_key
from trainer.exams.records import portable_record
from trainer.progress.handoff import ASSESSMENT, EXTENSIONS, TRANSCRIPT_COLUMNS
from trainer.progress.records import Mode
from trainer.progress.store import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture
def ivy_pub(tmp_path, ivy):
    path = tmp_path / "ivy.pub"
    write_public_key(path, ivy.public)
    return path


EXAM = form()


def certified_exam(tmp_path, ivy, ledger_path, name: str, *, critical_at=None) -> dict:
    """An exam sat by `name` at a workstation of their own under a sitting the instructor issued,
    then certified into the instructor's file; the certificate."""
    exam = EXAM
    with Store.open(ledger_path) as ledger:
        token = issue_sitting(ledger, ivy, exam, name)
    ws = tmp_path / f"ws-{name.split()[0]}.sqlite"
    with Store.open(ws) as store:
        trainee = store.add_trainee(name)
        result = sit(store, installation_key(tmp_path / f"{name.split()[0]}.key"), trainee, exam,
                     sitting=token, critical_at=critical_at)
        record = portable_record(store, result.id)
    with Store.open(ledger_path) as ledger:
        return certify(ledger, ivy, record, token)


def read_csv(text: str) -> list[dict]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == list(TRANSCRIPT_COLUMNS)
    return [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


def test_a_forged_exam_row_never_reaches_the_employer(tmp_path):
    """The attack: a trainee writes one row of exam mode, 100, passed, in their own progress file
    (or pushes it); the employer's transcript and statements showed "Exam … 100 … passed"."""
    path = tmp_path / "ws.sqlite"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana Ruiz")
        store.record_attempt(attempt(ana, 1))  # a practice round
        store.record_attempt(attempt(ana, 2, mode=Mode.EXAM, item_id="pgd-sum-c-pair", game="pai-gow-dice",
                                     total=100, passed=True))
    done = run_command("export-results", str(path), "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = read_csv(done.stdout)
    assert [r["Mode"] for r in rows] == ["Scenario"]
    assert "1 exam attempt left out: an exam reaches the employer only as its certificate" in done.stderr
    done = run_here("export-results", str(path), "--format", "xapi")
    found = json.loads(done.stdout)
    assert len(found) == 1 and found[0]["object"]["definition"]["type"] != ASSESSMENT
    assert found[0]["context"]["contextActivities"]["category"][0]["id"].endswith("/categories/practice")


def test_each_certificate_reaches_the_employer_checked_with_the_public_key(tmp_path, ivy, ivy_pub):
    ledger = tmp_path / "instructor.sqlite"
    passed = certified_exam(tmp_path, ivy, ledger, "Sam Lee")
    failed = certified_exam(tmp_path, ivy, ledger, "Ana Ruiz", critical_at=1)
    assert passed["passed"] and not failed["passed"]
    done = run_here("export-results", str(ledger), "--format", "csv", "--public-key", str(ivy_pub))
    assert done.returncode == 0, done.stderr
    rows = {r["Trainee"]: r for r in read_csv(done.stdout)}
    assert set(rows) == {"Sam Lee", "Ana Ruiz"}
    for cert in (passed, failed):
        row = rows[cert["trainee"]]
        assert row["Mode"] == "Certified exam" and row["Scenario or drill"] == "Floor supervisor exam"
        assert row["Score"] == str(cert["total"]) and row["Attempt id"] == cert["result"]
        assert row["Result"] == ("passed" if cert["passed"] else "failed")
        assert row["Certified by"] == f"Ivy Park (key {ivy.public.fingerprint})"
        assert row["Verification code"] == verification_code(cert)
    out = tmp_path / "statements.json"
    done = run_command("export-results", str(ledger), "--format", "xapi", "--public-key", str(ivy_pub),
                       "--out", str(out), "--activity-base", "https://lms.example-casino.com/dt/")
    assert done.returncode == 0, done.stderr
    assert f"{out}: 0 attempts and 2 certificates as xAPI statements" in done.stdout
    found = json.loads(out.read_text(encoding="utf-8"))
    assert [problems(s) for s in found] == [[], []]
    by = {s["actor"]["name"]: s for s in found}
    assert by["Sam Lee"]["verb"]["display"] == {"en-US": "passed"}
    assert by["Ana Ruiz"]["verb"]["display"] == {"en-US": "failed"}
    assert by["Ana Ruiz"]["result"]["score"]["raw"] == failed["total"]
    assert by["Sam Lee"]["object"] == {
        "objectType": "Activity", "id": "https://lms.example-casino.com/dt/exams/floor-1",
        "definition": {"name": {"en-US": "Floor supervisor exam"}, "type": ASSESSMENT}}
    assert by["Sam Lee"]["context"]["extensions"][EXTENSIONS["signer-key"]] == ivy.public.fingerprint
    extensions = by["Sam Lee"]["context"]["extensions"]
    assert extensions[EXTENSIONS["verification-code"]] == verification_code(passed)
    # one trainee's
    done = run_here("export-results", str(ledger), "--format", "csv", "--public-key", str(ivy_pub),
                       "--trainee", "Sam Lee")
    assert done.returncode == 0, done.stderr
    assert [r["Trainee"] for r in read_csv(done.stdout)] == ["Sam Lee"]


def test_without_the_public_key_no_certificate_is_written_and_that_is_said(tmp_path, ivy):
    ledger = tmp_path / "instructor.sqlite"
    certified_exam(tmp_path, ivy, ledger, "Sam Lee")
    done = run_here("export-results", str(ledger), "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert read_csv(done.stdout) == []
    assert "1 exam certificate not written: give the instructor's --public-key KEY to check and " \
           "export it" in done.stderr


@pytest.mark.parametrize(("change", "says"), [
    (lambda c: c.update(total=100, passed=True, status="passed"), "signature does not verify"),
    (lambda c: c.update(trainee="Someone Else"), "signature does not verify"),
    (lambda c: c["signer"].update(public=InstructorKey.generate("Mallory").public.raw.hex()),
     "not signed by an instructor key this machine trusts"),
    (lambda c: c.update(signature="00" * 64), "signature does not verify"),
    (lambda c: c.update(format="something else"), "not a Dealer Trainer certificate"),
])
def test_a_certificate_that_does_not_verify_is_named_and_left_out(tmp_path, ivy, change, says):
    ledger = tmp_path / "instructor.sqlite"
    good = certified_exam(tmp_path, ivy, ledger, "Sam Lee", critical_at=1)
    bad = json.loads(json.dumps(good))
    bad["result"] = "forged-result"
    change(bad)
    found = certified([good, bad, "not a certificate"], [ivy.public])
    assert [c.result for c in found.certified] == [good["result"]]
    assert len(found.left_out) == 2 and says in found.left_out[0] and "left out" in found.left_out[0]
    assert found.left_out[1].startswith("a certificate: not a Dealer Trainer certificate")


def test_a_certificate_signed_by_a_mallory_key_given_by_the_trainee_is_not_an_instructors(tmp_path, ivy):
    """The export trusts only the keys the exporter names: a trainee's own key signs a "passed"
    certificate; exported with the instructor's key it is left out and named."""
    ledger = tmp_path / "instructor.sqlite"
    real = certified_exam(tmp_path, ivy, ledger, "Sam Lee", critical_at=1)
    mallory = issuer(InstructorKey.generate("Mallory"))
    forged = json.loads(json.dumps(real))
    body = {k: v for k, v in forged.items() if k != "signature"} | {
        "total": 100, "passed": True, "status": "passed", "result": "mallory-1",
        "signer": {"name": "Ivy Park", "public": mallory.public.raw.hex(),
                   "fingerprint": mallory.public.fingerprint}}
    forged = {**body, "signature": mallory.sign(body)}
    with Store.open(ledger) as store:  # a sitting the forger's certificate can name
        nonce = issue_sitting(store, ivy, EXAM, "Bo Cole")["nonce"]
    with Store.open(ledger) as store, store.write() as db:
        db.execute("INSERT INTO exam_certificates (result_uid, nonce, certificate, signed) "
                   "VALUES (?, ?, ?, ?)",
                   ("mallory-1", nonce, json.dumps(forged), T0))
    with Store.open(ledger) as store:
        assert len(certificates(store)) == 2
    pub = tmp_path / "ivy.pub"
    write_public_key(pub, ivy.public)
    done = run_here("export-results", str(ledger), "--format", "csv", "--public-key", str(pub))
    assert done.returncode == 0, done.stderr
    assert [(r["Trainee"], r["Result"]) for r in read_csv(done.stdout)] == [("Sam Lee", "failed")]
    assert "the certificate of Sam Lee (mallory-1): the certificate is not signed by an instructor key " \
           "this machine trusts; left out" in done.stderr


def test_a_public_key_that_cannot_be_read_stops_the_export_in_one_line(tmp_path, ivy):
    ledger = tmp_path / "instructor.sqlite"
    certified_exam(tmp_path, ivy, ledger, "Sam Lee")
    (tmp_path / "bad.pub").write_text("{")
    out = tmp_path / "t.csv"
    done = run_here("export-results", str(ledger), "--format", "csv", "--public-key",
                       str(tmp_path / "bad.pub"), "--out", str(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "bad.pub" in done.stderr
    assert not out.exists()


def test_the_class_exports_the_certificates_it_keeps(tmp_path, klass, ivy, ivy_pub):
    """The class server keeps each certificate signed in the class (ClassLedger.add_certificate);
    the instructor's export of the class writes it, checked with the key; a trainee's login,
    which reads no certificate, still exports their own practice."""
    cert = certified_exam(tmp_path, ivy, tmp_path / "instructor.sqlite", "Sam Lee")
    ClassLedger(klass.address("instructor")).add_certificate(cert)
    url = klass.address("instructor").url
    done = run_command("export-results", "--class", url, "--format", "csv", "--public-key", str(ivy_pub))
    assert done.returncode == 0, done.stderr
    [row] = read_csv(done.stdout)
    assert (row["Trainee"], row["Mode"], row["Result"]) == ("Sam Lee", "Certified exam", "passed")
    done = run_here("export-results", "--class", url, "--format", "csv")
    assert done.returncode == 0 and read_csv(done.stdout) == []
    assert "1 exam certificate not written" in done.stderr


def test_with_the_public_key_every_attempt_left_out_of_the_class_is_named(tmp_path, klass, ivy, ivy_pub):
    """Checking the certificates with the key once replaced the notes naming the class's attempts
    left out (a retracted one): the export said nothing of them."""
    from tests.support.class_server import progress_file, push_all

    push_all(progress_file(tmp_path / "ws.db", {"Ana": 2}), klass)
    uid = klass.uids()[0]
    ClassLedger(klass.address("instructor")).retract(uid, "sat at Bo's seat")
    url = klass.address("instructor").url
    done = run_here("export-results", "--class", url, "--format", "csv", "--public-key", str(ivy_pub))
    assert done.returncode == 0, done.stderr
    assert uid not in done.stdout
    assert f"attempt {uid} of 'Ana': retracted by instructor: sat at Bo's seat" in done.stderr


def test_the_submission_is_readable_by_the_trainees_account_only(tmp_path, ivy):
    """It carries the sittings' tokens and every answer, as a sitting file does."""
    import os
    import stat

    from trainer.exams.submission import export_submission

    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, EXAM, "Sam Lee")
    with Store.open(tmp_path / "ws.sqlite") as store:
        sit(store, installation_key(tmp_path / "k"), store.add_trainee("Sam Lee"), EXAM, sitting=token)
        assert export_submission(store, tmp_path / "submission.json") == 1
    assert stat.S_IMODE(os.stat(tmp_path / "submission.json").st_mode) == 0o600


def test_a_certificates_row_is_dated_when_the_exam_was_sat_not_signed(tmp_path, ivy, ivy_pub):
    """The fourth cold review (#96): sat at 14:20:27, certified at 14:21:47, the row said 14:21:47.
    Here certified an hour and a half after it was sat: the row gives the date the certificate
    signs as sat."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, EXAM, "Sam Lee")
    with Store.open(tmp_path / "ws.sqlite") as store:
        result = sit(store, installation_key(tmp_path / "sam.key"), store.add_trainee("Sam Lee"), EXAM,
                     sitting=token)
        record = portable_record(store, result.id)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        cert = certify(ledger, ivy, record, token, now=record["started"] + 5400)
    assert cert["certified"] - cert["sat"] >= 5400
    done = run_command("export-results", str(tmp_path / "instructor.sqlite"), "--format", "csv",
                       "--public-key", str(ivy_pub), env={"TZ": "America/New_York"})
    assert done.returncode == 0, done.stderr
    [row] = read_csv(done.stdout)
    sat = datetime.fromtimestamp(cert["sat"], ZoneInfo("America/New_York"))
    assert row["Date and time"] == sat.strftime("%Y-%m-%d %H:%M:%S")


def test_one_trainees_export_of_the_class_writes_her_certificates_with_no_practice_row(tmp_path, klass, ivy,
                                                                                        ivy_pub):
    """The fourth cold review (#97): Ana has a certificate in the class and no practice row there;
    `export-results --class --trainee "Ana Ruiz"` stopped, exit 2, "the class has no trainee named
    'Ana Ruiz'". A name the class knows neither way is still refused by name."""
    cert = certified_exam(tmp_path, ivy, tmp_path / "instructor.sqlite", "Ana Ruiz")
    ClassLedger(klass.address("instructor")).add_certificate(cert)
    url = klass.address("instructor").url
    done = run_here("export-results", "--class", url, "--format", "csv", "--public-key", str(ivy_pub),
                       "--trainee", "Ana Ruiz")
    assert done.returncode == 0, done.stderr
    [row] = read_csv(done.stdout)
    assert (row["Trainee"], row["Mode"], row["Attempt id"]) == ("Ana Ruiz", "Certified exam", cert["result"])
    nobody = run_here("export-results", "--class", url, "--format", "csv", "--public-key", str(ivy_pub),
                         "--trainee", "Bo Chen")
    assert nobody.returncode == 2 and nobody.stdout == ""
    assert "the class has no trainee named 'Bo Chen', and keeps no certificate of that name" in nobody.stderr
    assert "Traceback" not in nobody.stderr
