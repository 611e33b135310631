"""Certification nobody at the workstation can forge: instructor keys (Ed25519), signed forms,
one-time sitting tokens with the attempts ledger kept by the instructor, results re-graded from
their logs, and certificates anyone can check with the public key. Each attack the old HMAC
design let through is a test here."""

from __future__ import annotations

import copy
import json
import os
import stat

import pytest

from tests.support.command import run_command, run_here
from tests.support.exams import PASS, code_of, form, issuer, sit
from tests.support.kdf import FAST_N
from trainer import policy
from trainer.exams import KeyFileError, NoAttemptsLeftError, installation_key, start_exam
from trainer.exams.certify import (
    CertifyError,
    certificates,
    certify,
    issue_sitting,
    open_signed_form,
    read_sitting,
    sign_form,
    sitting_form,
    verify_certificate,
)
from trainer.exams.errors import FormFileError
from trainer.exams.forms import new_form
from trainer.exams.keys import (
    InstructorKey,
    passphrase_problem,
    read_private_key,
    read_public_key,
    write_private_key,
    write_public_key,
)
from trainer.exams.records import portable_record
from trainer.progress import Store
from trainer.progress.records import clean_name


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture
def ledger(tmp_path):
    with Store.open(tmp_path / "instructor.sqlite") as store:
        yield store


@pytest.fixture
def workstation(tmp_path):
    with Store.open(tmp_path / "workstation.sqlite") as store:
        trainee = store.add_trainee("Sam Lee")
        yield store, installation_key(tmp_path / "installation.key"), trainee


def record_of(store, result_id: int) -> dict:
    return portable_record(store, result_id)


def sit_form(workstation, exam) -> int:
    """An exam sat at the workstation without a sitting; the result's id."""
    store, key, trainee = workstation
    return sit(store, key, trainee, exam).id


def sat(workstation, exam, token: dict | None = None, **how) -> dict:
    """The record of an exam sat at the workstation, under the sitting `token` if given."""
    store, key, trainee = workstation
    return record_of(store, sit(store, key, trainee, exam, sitting=token, **how).id)


# --- keys ------------------------------------------------------------------------------------


def test_the_private_key_is_sealed_under_the_passphrase_with_strong_scrypt(tmp_path, ivy, real_kdf):
    path = tmp_path / "ivy.key"
    write_private_key(path, ivy, PASS)  # the real parameters (real_kdf): n = 2**17, r = 8
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    doc = json.loads(path.read_text())
    assert doc["kdf"]["n"] >= 2**17 and doc["kdf"]["r"] >= 8
    assert ivy.private.private_bytes_raw().hex() not in path.read_text()
    assert read_private_key(path, PASS).public == ivy.public
    with pytest.raises(KeyFileError, match="passphrase is not right"):
        read_private_key(path, PASS + "!")
    with pytest.raises(KeyFileError, match="never overwritten"):
        write_private_key(path, ivy, PASS)


def test_a_key_file_that_exists_is_refused_before_the_passphrase_is_derived(tmp_path, ivy,
                                                                            monkeypatch):
    """Its name taken: the refusal comes before scrypt's half second and 128 MiB (the function)
    and before the passphrase is asked (the command, which has no terminal to ask it on here)."""
    import trainer.exams.keys as keys

    path = tmp_path / "ivy.key"
    path.write_text("someone's key")
    monkeypatch.setattr(keys, "_derive", lambda *_: pytest.fail("the passphrase was derived"))
    with pytest.raises(KeyFileError, match="never overwritten"):
        write_private_key(path, ivy, PASS)
    done = run_here("instructor-key", "Ivy Park", "--out", str(path))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"{path}: already exists; a key file is never overwritten")
    assert path.read_text() == "someone's key" and not (tmp_path / "ivy.key.pub").exists()


def test_a_swapped_public_key_in_the_key_file_is_refused(tmp_path, ivy):
    path = tmp_path / "ivy.key"
    write_private_key(path, ivy, PASS)
    doc = json.loads(path.read_text())
    doc["public"] = InstructorKey.generate("Mallory").public.raw.hex()
    path.write_text(json.dumps(doc))
    with pytest.raises(KeyFileError):
        read_private_key(path, PASS)


@pytest.mark.parametrize("weak", ["short", "password1234", "123456789012", "aaaaaaaaaaaaaaaa",
                                  "qwertyuiopas", "Ivy Park Ivy Park",
                                  # what our own word list let through (zxcvbn now measures it)
                                  "Summer2024!!", "IvyPark12345", "pennsylvania1"])
def test_a_weak_passphrase_is_refused(tmp_path, ivy, weak):
    assert passphrase_problem(weak, name="Ivy Park")
    with pytest.raises(KeyFileError, match="too weak") as refused:
        write_private_key(tmp_path / "k", ivy, weak)
    said = str(refused.value)
    assert said.endswith(".") and ".." not in said, said  # one sentence, one full stop
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("content", ["", "{", "[]", '{"format": "dealer-trainer-public-key"}',
                                     '{"format": "dealer-trainer-public-key", "version": 1, '
                                     '"name": "x", "public": "zz"}', "x" * 100_000])
def test_a_damaged_public_key_file_is_named(tmp_path, content):
    path = tmp_path / "ivy.pub"
    path.write_text(content)
    with pytest.raises(KeyFileError, match=r"ivy\.pub"):
        read_public_key(path)


# --- forms -----------------------------------------------------------------------------------


def test_an_edited_signed_form_no_longer_opens(ivy):
    signed = sign_form(form(), ivy)
    assert open_signed_form(signed, [ivy.public]).pass_mark == 80
    for field, value in (("pass_mark", 0), ("attempts_allowed", 99)):
        forged = copy.deepcopy(signed)
        forged["form"][field] = value
        forged["digest"] = new_form(**_args(forged["form"])).digest  # the digest recomputed too
        with pytest.raises(FormFileError, match="signature does not verify"):
            open_signed_form(forged, [ivy.public])
    mallory = InstructorKey.generate("Mallory")
    with pytest.raises(FormFileError, match="not signed by an instructor key this machine trusts"):
        open_signed_form(sign_form(form(), mallory), [ivy.public])


def _args(doc: dict) -> dict:
    return {"name": doc["name"], "items": [(i["scenario"], i["toml"]) for i in doc["items"]],
            "time_limit_seconds": doc["time_limit_seconds"], "created_by": doc["created_by"],
            "pass_mark": doc["pass_mark"], "attempts_allowed": doc["attempts_allowed"],
            "uid": doc["uid"], "created": doc["created"]}


# --- sittings and the ledger -------------------------------------------------------------------


def test_the_attempts_are_counted_in_the_instructors_ledger(ledger, ivy):
    exam = form()  # three attempts
    tokens = [issue_sitting(ledger, ivy, exam, "Sam Lee") for _ in range(3)]
    assert [read_sitting(t, [ivy.public]).attempt for t in tokens] == [1, 2, 3]
    # the workstation's files may be deleted or restored: the count is kept here
    with pytest.raises(NoAttemptsLeftError):
        issue_sitting(ledger, ivy, exam, "Sam Lee")
    # an invisible character does not make a new trainee
    with pytest.raises(NoAttemptsLeftError):
        issue_sitting(ledger, ivy, exam, "Sam\u200b Lee")


def test_names_are_compared_as_people_read_them(tmp_path):
    assert clean_name("Ivy\u200b") == clean_name("Ivy") == clean_name(" Ｉｖｙ ")
    assert clean_name("Ivy\u202eyvI") == "IvyyvI"
    from trainer.progress.errors import NameTakenError

    with Store.open(tmp_path / "p.sqlite") as store:
        store.add_trainee("Ivy")
        for look_alike in ("Ivy\u200b", "Ｉｖｙ", "I\u00advy", " ivy "):
            with pytest.raises(NameTakenError):
                store.add_trainee(look_alike)
        assert [t.name for t in store.trainees()] == ["Ivy"]


# --- certification -----------------------------------------------------------------------------


def test_a_result_is_regraded_and_its_scores_in_the_file_are_ignored(ledger, workstation, ivy):
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    record = sat(workstation, exam, token, critical_at=1)
    assert record["passed"] is False
    forged = copy.deepcopy(record)  # rewritten as 100% and passed, as the old chain allowed
    forged.update(passed=True, total=100, procedure=100, payouts=100, critical=False)
    for a in forged["answers"]:
        a.update(total=100, payouts=100, critical=False, passed=True, findings=[])
    # what the proof of the start code covers (its status, its logs) cannot be changed at all
    restatus = copy.deepcopy(forged)
    restatus["status"] = "passed"
    with pytest.raises(CertifyError, match="does not prove"):
        certify(ledger, ivy, restatus, token)
    certificate = certify(ledger, ivy, forged, token)
    assert certificate["passed"] is False and certificate["critical"] is True
    assert certificate["answers"][1]["findings"][0]["kind"] == "wrong amount"
    assert verify_certificate(certificate, [ivy.public])["total"] == certificate["total"]


def test_an_item_with_a_missed_call_fails_the_exam_and_its_certificate(ledger, workstation, ivy):
    """The one pass rule (trainer.policy): an exam passes only when every item passes. A missed
    call fails its item whatever the exam's total, on the workstation and in `certify`, and the
    certificate states the rule it was graded under."""
    exam = form(ids=("ph-first-shake", "tdf-rejected-dice-lost-die"))  # the second: whole round
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    record = sat(workstation, exam, token, missed_call_at=1)
    assert record["total"] >= exam.pass_mark  # the total alone would pass
    assert record["passed"] is False and record["status"] == "failed"
    assert record["answers"][1]["passed"] is False and record["answers"][0]["passed"]
    certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is False and certificate["status"] == "failed"
    assert certificate["critical"] is False and certificate["total"] >= exam.pass_mark
    [missed] = certificate["answers"][1]["findings"]
    assert missed["severity"] == "major" and missed["kind"] == "missing"
    assert certificate["rule"] == {"number": policy.RULE, "name": policy.RULES[policy.RULE].name}
    assert verify_certificate(certificate, [ivy.public])["rule"]["number"] == policy.RULE


def test_a_clean_result_is_certified_and_verifies_with_the_public_key_alone(ledger, workstation,
                                                                            ivy, tmp_path):
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    certificate = certify(ledger, ivy, sat(workstation, exam, token), token)
    assert certificate["passed"] and certificate["total"] >= 80
    assert certificates(ledger) == [certificate]
    assert "kdf" not in json.dumps(certificate)  # nothing to guess a passphrase from
    # an auditor's machine: only the public key file
    write_public_key(tmp_path / "ivy.pub", ivy.public)
    (tmp_path / "certs.json").write_text(json.dumps([certificate]))
    # the program itself verifies in test_issue_sit_submit_certify_verify_through_the_commands
    done = run_here("verify-results", str(tmp_path / "certs.json"),
                    "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 0, done.stderr
    assert "1 certificate verified" in done.stdout and ivy.public.fingerprint in done.stdout
    certificate["trainee"] = "Someone Else"  # a certificate passed on under another name
    (tmp_path / "certs.json").write_text(json.dumps([certificate]))
    done = run_here("verify-results", str(tmp_path / "certs.json"), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 1 and "signature does not verify" in done.stdout


def test_a_token_is_good_for_one_result(ledger, workstation, ivy):
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    record = sat(workstation, exam, token)
    certify(ledger, ivy, record, token)
    with pytest.raises(CertifyError, match="already used"):
        certify(ledger, ivy, record, token)
    with pytest.raises(CertifyError, match="already sat on this workstation"):
        sat(workstation, exam, token)  # the same token sat again, for a better score


def test_tokens_not_issued_here_or_for_someone_else_are_refused(ledger, workstation, ivy, tmp_path):
    exam = form()
    record = sat(workstation, exam)
    mallory = InstructorKey.generate("Mallory")
    with Store.open(tmp_path / "other.sqlite") as other:
        foreign = issue_sitting(other, mallory, exam, "Sam Lee")
        unrecorded = issue_sitting(other, ivy, exam, "Sam Lee")  # Ivy's key, another ledger
    with pytest.raises(CertifyError, match="not signed by an instructor key"):
        certify(ledger, ivy, record, foreign)
    with pytest.raises(CertifyError, match="not issued by this instructor's ledger"):
        certify(ledger, ivy, record, unrecorded)
    someone_else = issue_sitting(ledger, ivy, exam, "Ana Ruiz")
    with pytest.raises(CertifyError, match="issued to 'Ana Ruiz'"):
        certify(ledger, ivy, record, someone_else)
    edited = copy.deepcopy(issue_sitting(ledger, ivy, exam, "Sam Lee"))
    edited["attempt"] = 1
    edited["nonce"] = someone_else["nonce"]
    with pytest.raises(CertifyError, match="signature does not verify"):
        certify(ledger, ivy, record, edited)


def test_a_result_on_an_edited_form_is_refused_by_name(ledger, workstation, ivy):
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    easy = form(pass_mark=0)  # the same uid, the trainee's own copy edited
    record = sat(workstation, easy)
    with pytest.raises(CertifyError, match="another form than the sitting's"):
        certify(ledger, ivy, record, token)


@pytest.mark.parametrize("damage", [
    lambda r: r.update(answers="all right"),
    lambda r: r["answers"][0].update(position=7),
    lambda r: r["answers"][0].update(log=[{"do": "pay", "round": 1, "amount": 10**400}]),
    lambda r: r["answers"].append(dict(r["answers"][0])),
    lambda r: r.update(status="certified"),
    lambda r: r.update(uid=""),
])
def test_a_damaged_record_is_refused_with_a_message(ledger, workstation, ivy, damage):
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    record = sat(workstation, exam, token)
    damage(record)
    with pytest.raises(CertifyError):
        certify(ledger, ivy, record, token)
    # nothing was used up
    assert ledger.query("SELECT result_uid FROM exam_sittings")[0]["result_uid"] is None


# --- one exam at a time --------------------------------------------------------------------------

SITTER = """
import sys, time
from tests.support.exams import form
from trainer.exams import installation_key, start_exam
from trainer.progress import Store
store = Store.open(sys.argv[1])
trainee = store.find_trainee("Sam Lee").id
session = start_exam(store, form(), trainee, installation_key(sys.argv[2]))
print(session.uid, flush=True)
time.sleep(120)
"""


def test_a_second_copy_of_the_app_never_closes_a_running_exam(tmp_path):
    """Starting a second copy of the app once closed a running exam as abandoned. Now the sitting
    holds a lock; the second copy leaves it, and closes it only once its process is gone."""
    import subprocess
    import sys

    from tests.support.paths import ROOT
    from trainer.exams import close_interrupted, get_result

    db, secret = tmp_path / "ws.sqlite", tmp_path / "installation.key"
    with Store.open(db) as store:
        store.add_trainee("Sam Lee")
    sitter = subprocess.Popen([sys.executable, "-c", SITTER, str(db), str(secret)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        uid = sitter.stdout.readline().strip()
        assert uid, "the first app did not start the exam"
        with Store.open(db) as store:  # the second copy starts
            assert close_interrupted(store, installation_key(secret)) == []
            [row] = store.query("SELECT id, status FROM exam_results WHERE uid = ?", (uid,))
            assert row["status"] == "in-progress"
        sitter.kill()  # the first copy dies mid-exam: its lock goes with it
        sitter.wait(timeout=30)
        with Store.open(db) as store:
            assert close_interrupted(store, installation_key(secret)) == [row["id"]]
            assert get_result(store, row["id"]).status.value == "abandoned"
        assert not list(tmp_path.glob(".*.lock"))
    finally:
        sitter.kill()
        sitter.wait(timeout=30)


# --- the whole path, through the commands an instructor runs -------------------------------------


def test_issue_sit_submit_certify_verify_through_the_commands(tmp_path, monkeypatch):
    """Instructor: key, sitting file. Workstation: opens it, sits the exam, exports the
    submission. Instructor: certifies. Auditor: verifies with the public key alone. The sitting,
    the certifying and the verifying are the program (`run_command`); the key is made through the
    command's entry in this process, at the tests' lowered scrypt cost (tests/support/kdf.py),
    which the programs read from the key file (the real cost is the strong-scrypt test's), and
    the refusals after them call the entry too."""
    from tests.support.exams import sit
    from trainer.exams import start_exam
    from trainer.exams.forms import write_form
    from trainer.exams.submission import export_submission, read_sitting_file

    env = {"IVY_PASS": PASS}
    key, ledger = tmp_path / "ivy.key", tmp_path / "instructor.sqlite"
    done = run_here("instructor-key", "Ivy Park", "--out", str(key), "--passphrase-env", "IVY_PASS",
                    env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(key.read_text())["kdf"]["n"] == FAST_N  # what the programs below derive
    public = read_public_key(tmp_path / "ivy.key.pub")
    assert public.fingerprint in done.stdout
    exam = form(pass_mark=80)
    write_form(exam, tmp_path / "form.json")
    issue = ("sitting", "--form", str(tmp_path / "form.json"), "--trainee", "Sam Lee", "--key",
             str(key), "--ledger", str(ledger), "--passphrase-env", "IVY_PASS")
    done = run_command(*issue, "--out", str(tmp_path / "sam-1.sitting"), env=env)
    assert done.returncode == 0 and "attempt 1 of 3" in done.stdout, done.stderr
    code = done.stdout.split("start code: ")[1].split()[0]

    # the workstation: the file is sealed until the proctor gives the code
    assert "ph-first-shake" not in (tmp_path / "sam-1.sitting").read_text()
    with pytest.raises(CertifyError, match="enter the start code"):
        read_sitting_file(tmp_path / "sam-1.sitting")
    with pytest.raises(CertifyError, match="start code is not right"):
        read_sitting_file(tmp_path / "sam-1.sitting", "AAAA-AAAA-AAAA-AAAA")
    sitting, token, sat_form = read_sitting_file(tmp_path / "sam-1.sitting", code.lower())
    assert sitting.trainee == "Sam Lee" and sat_form.digest == exam.digest
    with Store.open(tmp_path / "ws.sqlite") as ws:
        sam, secret = ws.add_trainee("Sam Lee"), installation_key(tmp_path / "installation.key")
        ana = ws.add_trainee("Ana Ruiz")
        with pytest.raises(CertifyError, match="issued to Sam Lee"):
            start_exam(ws, sat_form, ana, secret, sitting=token, start_code=code)
        session = start_exam(ws, sat_form, sam, secret, sitting=token, start_code=code)
        session.abandon()  # an attempt that went badly...
        sit(ws, secret, sam, sat_form, critical_at=0)  # ...and one sat without a sitting
        assert export_submission(ws, tmp_path / "submission.json") == 1

    done = run_command("certify", str(tmp_path / "submission.json"), "--key", str(key), "--ledger",
                       str(ledger), "--out", str(tmp_path / "certs.json"), "--passphrase-env",
                       "IVY_PASS", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "did not pass" in done.stdout  # abandoned: never passed
    monkeypatch.setenv("IVY_PASS", PASS)
    for grace in ("nan", "-1", "721"):
        refused = run_here("certify", str(tmp_path / "submission.json"), "--key", str(key),
                           "--ledger", str(ledger), "--out", str(tmp_path / "g.json"),
                           "--passphrase-env", "IVY_PASS", "--grace-hours", grace)
        assert refused.returncode == 2 and "--grace-hours" in refused.stderr, refused.stderr
    again = run_here("certify", str(tmp_path / "submission.json"), "--key", str(key), "--ledger",
                     str(ledger), "--out", str(tmp_path / "again.json"), "--passphrase-env", "IVY_PASS")
    assert again.returncode == 1 and "already used" in again.stdout
    done = run_command("verify-results", str(tmp_path / "certs.json"), "--public-key",
                       str(tmp_path / "ivy.key.pub"))
    assert done.returncode == 0 and "1 certificate verified" in done.stdout
    # the summary keeps passes and fails apart: a script reading only the exit code can ask
    assert "0 passed, 1 did not pass" in done.stdout and "pass rule 2" in done.stdout
    strict = run_here("verify-results", str(tmp_path / "certs.json"), "--public-key",
                      str(tmp_path / "ivy.key.pub"), "--require-pass")
    assert strict.returncode == 1 and "certificate 1 did not pass" in strict.stderr
    (tmp_path / "none.json").write_text("[]")  # nothing verified is not a success
    empty = run_here("verify-results", str(tmp_path / "none.json"), "--public-key",
                     str(tmp_path / "ivy.key.pub"))
    assert empty.returncode == 1 and "no certificate" in empty.stderr
    monkeypatch.setenv("IVY_PASS", "not the passphrase")
    wrong = run_here(*issue, "--out", str(tmp_path / "x"))
    assert wrong.returncode == 2 and "passphrase is not right" in wrong.stderr


def test_a_sitting_file_signed_by_two_keys_or_for_another_form_is_refused(tmp_path, ivy):
    from trainer.exams.submission import read_sitting_file, write_sitting_file

    with Store.open(tmp_path / "l.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, form(), "Sam Lee")
    mallory = InstructorKey.generate("Mallory")
    code = write_sitting_file(tmp_path / "a", token, sign_form(form(), mallory), key=ivy)
    with pytest.raises(CertifyError, match="not signed by an instructor key"):
        read_sitting_file(tmp_path / "a", code)
    write_sitting_file(tmp_path / "b", token, sign_form(form(pass_mark=50), ivy), sealed=False, key=ivy)
    with pytest.raises(CertifyError, match="another form"):
        read_sitting_file(tmp_path / "b", code)
    (tmp_path / "c").write_text("{")
    with pytest.raises(CertifyError, match="not JSON"):
        read_sitting_file(tmp_path / "c")


# --- item pools, and the sitting's form never at rest on the workstation -------------------------

POOL = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive", "hrd-four-fives", "ph-hop-breakage")


def pool_form(draw: int = 2):
    from trainer.library import load_library

    lib = load_library()
    return new_form("Pooled exam", [lib.by_id(i) for i in POOL], time_limit_seconds=900,
                    created_by="Ivy", attempts_allowed=20, uid="pool-1", draw=draw)


def test_a_pool_sends_each_sitting_only_its_draw_and_certifies_on_it(ledger, workstation, ivy, tmp_path):
    from trainer.exams.submission import read_sitting_file, write_sitting_file

    exam = pool_form(draw=2)
    drawn = set()
    for n in range(6):
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
        assert "items" not in token["form"], "the draw is in the ledger only, not readable ahead"
        sat_form = sitting_form(ledger, exam, token)
        assert len(sat_form.items) == 2
        write_sitting_file(tmp_path / f"s{n}.json", token, sign_form(sat_form, ivy), sealed=False,
                           key=ivy)
        text = (tmp_path / f"s{n}.json").read_text()
        shown = [it.scenario_id for it in sat_form.items]
        others = [it for it in exam.items if it.scenario_id not in shown]
        assert all(f'"scenario": "{it.scenario_id}"' not in text for it in others)  # the rest stays home
        drawn.add(tuple(shown))
    assert len(drawn) > 1  # six draws of 2 from 5 (10 ways) are not all the same, but for 1e-5
    _, token, sat_form = read_sitting_file(tmp_path / "s5.json", code_of(json.loads(
        (tmp_path / "s5.json").read_text())["sitting"]))
    assert len(sat_form.items) == 2 and sat_form.uid == exam.uid
    store, key, trainee = workstation
    result = sit(store, key, trainee, sat_form, sitting=token)
    assert result.item_count == 2
    certificate = certify(ledger, ivy, record_of(store, result.id), token)
    assert certificate["passed"] and certificate["form"]["items"] == 2
    assert [a["item_id"] for a in certificate["answers"]] == [it.scenario_id for it in sat_form.items]


def test_a_result_sat_on_another_draw_is_refused(ledger, workstation, ivy):
    """The trainee's copy of the pool drawn again (say, the easiest items): another form digest."""
    exam = pool_form(draw=2)
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    mine = sitting_form(ledger, exam, token)
    other = exam.drawn(next(p for p in ([0, 1], [2, 3], [1, 4])
                            if [it.scenario_id for it in exam.drawn(p).items]
                            != [it.scenario_id for it in mine.items]))
    record = record_of(workstation[0], sit_form(workstation, other))
    record["uid"] = token["nonce"]
    with pytest.raises(CertifyError, match="another form than the sitting's"):
        certify(ledger, ivy, record, token)


def test_the_sitting_form_is_not_stored_on_the_workstation(ledger, workstation, ivy, tmp_path):
    """A sitting's scenarios live in memory while it runs: nothing of them is in the trainee's
    progress file (or its -wal), where `dealer-trainer key` could read them mid-exam."""

    exam = pool_form(draw=3)
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    sat_form = sitting_form(ledger, exam, token)
    store, key, trainee = workstation
    sit(store, key, trainee, sat_form, sitting=token)
    on_disk = b"".join(p.read_bytes() for p in tmp_path.glob("workstation.sqlite*"))
    assert b"[[players]]" not in on_disk  # no scenario text at all
    assert store.query("SELECT count(*) AS n FROM exam_forms WHERE uid = ?", (exam.uid,))[0]["n"] == 0


@pytest.mark.parametrize("draw, says", [(6, "draw: must be a whole number from 0 to 5"),
                                        (-1, "draw: must be a whole number from 0 to 5"),
                                        ("2", "draw: must be a whole number")])
def test_a_form_file_with_a_bad_draw_is_named(tmp_path, draw, says):
    from trainer.exams.forms import read_form

    doc = pool_form(draw=2).to_json()
    doc["draw"] = draw
    (tmp_path / "f.json").write_text(json.dumps(doc))
    with pytest.raises(FormFileError, match=says):
        read_form(tmp_path / "f.json")


def test_a_pool_sat_without_a_sitting_draws_at_its_start(workstation):
    from trainer.exams.session import start_exam

    store, key, trainee = workstation
    exam = pool_form(draw=3)
    seen = set()
    for _ in range(12):  # until two starts drew differently
        session = start_exam(store, exam, trainee, key)
        assert len(session.form.items) == 3
        assert session.abandon().item_count == 3
        assert {it.scenario_id for it in session.form.items} <= set(POOL)
        seen.add(tuple(it.scenario_id for it in session.form.items))
        if len(seen) > 1:
            break
    # twelve draws of 3 from 5 (10 ways), the same every time: 1 in 10^11 (four: 1 in 1,000, and
    # a run of the suite met it)
    assert len(seen) > 1


def test_verify_results_checks_the_certificates_of_a_progress_file_without_writing_it(
        tmp_path, workstation, ivy):
    import hashlib
    import sqlite3

    path = tmp_path / "instructor.sqlite"
    with Store.open(path) as ledger:
        exam = form()
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
        certify(ledger, ivy, sat(workstation, exam, token), token)
    write_public_key(tmp_path / "ivy.pub", ivy.public)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = run_here("verify-results", str(path), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 0 and "1 certificate verified" in done.stdout, done.stdout + done.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    db = sqlite3.connect(path)  # a certificate edited in place, to another trainee
    db.executescript("DROP TRIGGER exam_certificates_no_update; UPDATE exam_certificates SET "
                     "certificate = json_set(certificate, '$.trainee', 'Someone Else');")
    db.close()
    done = run_here("verify-results", str(path), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 1 and "signature does not verify" in done.stdout


# --- what a cold review found (each failed before its fix) ---------------------------------------


def test_a_result_id_other_than_the_sittings_is_refused(ledger, workstation, ivy):
    """Sam's submission naming Ana's result id: it would have claimed her certificate's place."""
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    record = sat(workstation, exam, token)
    assert record["uid"] == token["nonce"]
    for uid in ("a" * 32, "\ud800", 10**400, None):
        forged = dict(record, uid=uid)
        with pytest.raises(CertifyError, match="not the result sat under this sitting"):
            certify(ledger, ivy, forged, token)
    assert certify(ledger, ivy, record, token)["result"] == token["nonce"]


def test_a_certificate_shows_only_on_its_own_result(ledger, workstation, ivy):
    """A real certificate pasted (with the sqlite3 command) under a failed result's id."""
    from trainer.exams.certify import certificate_matches
    from trainer.exams.records import get_result

    store, key, trainee = workstation
    exam = form()
    good = issue_sitting(ledger, ivy, exam, "Sam Lee")
    certificate = certify(ledger, ivy, sat(workstation, exam, good), good)
    bad = issue_sitting(ledger, ivy, exam, "Sam Lee")
    failed = sit(store, key, trainee, exam, critical_at=0, sitting=bad)
    passed = next(r for r in store.query("SELECT id FROM exam_results WHERE uid = ?", (good["nonce"],)))
    assert certificate_matches(certificate, get_result(store, passed["id"]))
    assert not certificate_matches(certificate, get_result(store, failed.id))
    pasted = dict(certificate, result=failed.uid)  # and its id rewritten: the signature breaks
    with pytest.raises(CertifyError, match="signature does not verify"):
        verify_certificate(pasted, [ivy.public])


def test_a_sitting_kept_and_sat_long_after_it_expired_is_refused(ledger, workstation, ivy):
    """The workstation's clock set back to start an expired token: the instructor's clock says."""
    from trainer.exams.certify import CERTIFY_WITHIN

    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee", now=1_790_000_000.0, valid_for=3600)
    store, key, trainee = workstation
    from trainer.exams.session import start_exam

    session = start_exam(store, exam, trainee, key, sitting=token, clock=lambda: 1_790_000_100.0,
                         start_code=code_of(token))
    session.abandon()
    record = record_of(store, session.result.id)
    late = 1_790_000_000.0 + 3600 + CERTIFY_WITHIN + 60
    assert CERTIFY_WITHIN == 12 * 3600  # hours, not days: a clock set back days gains nothing
    with pytest.raises(CertifyError, match=r"expired 12 hours ago.*--grace-hours"):
        certify(ledger, ivy, record, token, now=late)
    with pytest.raises(CertifyError, match="expired 3 days ago"):
        certify(ledger, ivy, record, token, now=late + 60 * 3600)
    # an instructor who certifies later widens it, on purpose
    assert certify(ledger, ivy, record, token, now=late + 60 * 3600, within=4 * 86400)["status"] == \
        "abandoned"


@pytest.mark.parametrize("edit", [lambda t: t.update(issued=10**400), lambda t: t.update(nonce="x"),
                                  lambda t: t.update(nonce=["a"])])
def test_a_self_signed_token_with_hostile_fields_is_named_not_a_crash(edit):
    from trainer.exams.certify import SITTING, VERSION, _signer

    mallory = InstructorKey.generate("Mallory")
    body = {"format": SITTING, "version": VERSION, "nonce": "0" * 32, "trainee": "Sam Lee",
            "form": {"uid": "f", "name": "f", "digest": "d"}, "attempt": 1, "issued": 1.0,
            "expires": 2.0, "signer": _signer(mallory.public)}
    edit(body)
    token = {**body, "signature": mallory.sign(body)}
    with pytest.raises(CertifyError, match="damaged sitting token"):
        read_sitting(token, [mallory.public])


# --- the start code: only who opened the sitting can hand in its result, so that a certificate is
# only ever for the person who sat -------------------------------------------------------------------


def test_a_classmate_with_the_token_but_not_the_code_gets_no_certificate(ledger, workstation, ivy, tmp_path):
    """The attack: Ana's sitting token (read from her sitting file) and the items (Bo sat the same
    form) let Bo write a submission for Ana. Without the start code it proves nothing: refused."""
    from trainer.exams.submission import write_sitting_file

    exam = form()
    anas = issue_sitting(ledger, ivy, exam, "Ana Ruiz")
    path = tmp_path / "ana.sitting"
    write_sitting_file(path, anas, sign_form(sitting_form(ledger, exam, anas), ivy), key=ivy)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # her sitting file: hers only
    store, key, _ = workstation
    ana = store.add_trainee("Ana Ruiz")
    with pytest.raises(CertifyError, match="start code"):
        start_exam(store, exam, ana, key, sitting=anas)  # the app: no start without the code
    with pytest.raises(CertifyError, match="start code is not right"):
        start_exam(store, exam, ana, key, sitting=anas, start_code="AAAA-AAAA-AAAA-AAAA")
    # a patched app: Bo's own perfect answers, written under Ana's token, with no proof or a guess
    bos = issue_sitting(ledger, ivy, exam, "Bo Diaz")
    bo = store.add_trainee("Bo Diaz")
    mine = record_of(store, sit(store, key, bo, exam, sitting=bos).id)
    forged = {**copy.deepcopy(mine), "uid": anas["nonce"], "trainee": "Ana Ruiz"}
    for proof in (None, mine["proof"], "0" * 64, 7):
        attempt = {**forged, "proof": proof} if proof is not None else {k: v for k, v in forged.items()
                                                                      if k != "proof"}
        with pytest.raises(CertifyError, match="does not prove"):
            certify(ledger, ivy, attempt, anas)
    # and her sitting is still hers to sit and be certified on
    assert certify(ledger, ivy, record_of(store, sit(store, key, ana, exam, sitting=anas).id), anas)["passed"]


def test_the_proof_key_is_gone_when_the_attempt_ends(ledger, workstation, ivy):
    """What the start code gives is held while the attempt runs and cleared at its end, so a
    file read afterwards holds nothing to write another result with."""
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    store, key, trainee = workstation
    session = start_exam(store, exam, trainee, key, sitting=token, start_code=code_of(token))
    [row] = store.query("SELECT proof_key, proof FROM exam_results WHERE uid = ?", (token["nonce"],))
    assert row["proof_key"] and row["proof"] is None
    session.abandon()
    [row] = store.query("SELECT proof_key, proof FROM exam_results WHERE uid = ?", (token["nonce"],))
    assert row["proof_key"] is None and len(row["proof"]) == 64
    assert certify(ledger, ivy, record_of(store, session.result.id), token)["status"] == "abandoned"


def test_a_sitting_from_before_proofs_is_certified_as_before(ledger, workstation, ivy):
    """Tokens issued before results carried proofs (no "proof" in them) keep working."""
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee", proof=False)
    record = sat(workstation, exam, token)
    assert "proof" not in record and certify(ledger, ivy, record, token)["passed"]


def test_a_crafted_marker_move_is_refused_by_name_and_the_rest_is_certified(ledger, workstation, ivy,
                                                                            tmp_path):
    """One crafted `move-markers` value in one trainee's record made certify exit 70 and certify
    nobody in the batch. The sitter's own app could write it (it holds the proof key while the
    attempt runs), so it is re-proved here: the record is refused naming the field, and the
    batch's other result is certified."""
    from trainer.exams.proof import proof_key, prove
    from trainer.exams.submission import SUBMISSION, certify_submission

    exam = form(ids=("tdf-rejected-dice-lost-die",))
    good, bad = (issue_sitting(ledger, ivy, exam, "Sam Lee") for _ in range(2))
    records = [sat(workstation, exam, t) for t in (good, bad)]
    crafted = records[1]
    move = next(p for p in crafted["answers"][0]["log"] if p["do"] == "move-markers")
    move["value"] = "13 · 2nd Down · play x"
    crafted["proof"] = prove(proof_key(code_of(bad), bad["nonce"]), crafted)
    path = tmp_path / "submission.json"
    path.write_text(json.dumps({"format": SUBMISSION, "version": 1, "exported": 0, "source": "ws",
                                "results": [{"record": records[1], "sitting": bad},
                                            {"record": records[0], "sitting": good}]}))
    summary = certify_submission(ledger, ivy, path)
    [refused] = summary.refused
    assert "results[0]" in refused and "log[" in refused and "not a move of the markers" in refused
    assert [c["result"] for c in summary.certificates] == [good["nonce"]]


def test_a_certificate_signs_the_date_sat_and_a_made_up_one_is_refused(ledger, workstation, ivy):
    """The certificate said when it was certified, never when the exam was sat. It signs the
    date sat, which must lie in its sitting (issued, valid until) by the instructor's ledger: a
    record whose start was moved a year on, or is not a time, is refused by name."""
    exam = form()
    token = issue_sitting(ledger, ivy, exam, "Sam Lee", now=1_790_000_000.0, valid_for=3600)
    store, key, trainee = workstation
    session = start_exam(store, exam, trainee, key, sitting=token, clock=lambda: 1_790_000_600.0,
                         start_code=code_of(token))
    session.abandon()
    record = record_of(store, session.result.id)
    for started, why in ((1_790_000_600.0 + 365 * 86400, "outside its sitting"),
                         (1_790_000_000.0 - 86400, "outside its sitting"),
                         ("yesterday", "is not a time"), (float("nan"), "is not a time")):
        with pytest.raises(CertifyError, match=why):
            certify(ledger, ivy, dict(record, started=started), token, now=1_790_001_000.0)
    signed = certify(ledger, ivy, record, token, now=1_790_001_000.0)
    assert verify_certificate(signed, [ivy.public])["sat"] == 1_790_000_600.0
    forged = dict(signed, sat=1_790_000_100.0)  # the date changed on the signed file
    with pytest.raises(CertifyError, match="signature does not verify"):
        verify_certificate(forged, [ivy.public])


def test_a_certificates_notes_are_named_as_the_instructor_reads_them():
    """`certify` and the app's Certify say the same of how a certificate's answers were taken:
    late, delivered late, graded as wrong, not watched (a supervise answer sooner than its rounds
    could be watched), certified as recorded; nothing for a certificate with none."""
    from trainer.exams import certificate_notes

    c = {"late": {"why": "item 2 after the limit"}, "delivered_late": {"why": "item 3, 22 s on"},
         "unusable": {"why": "item 1 cannot be re-graded"}, "too_soon": {"why": "items 1-4, 0.4 s in"},
         "recorded": {"held": "refused 1 answer of item 2"}}
    assert certificate_notes(c) == [
        "not in time: item 2 after the limit", "delivered after the time limit: item 3, 22 s on",
        "graded as wrong: item 1 cannot be re-graded", "not watched: items 1-4, 0.4 s in",
        "certified as recorded: refused 1 answer of item 2"]
    assert certificate_notes({"recorded": {}}) == [] and certificate_notes({}) == []
