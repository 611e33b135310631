"""In a class the class server's record is the result, so a trainee need hand nothing in (the
second cold review's attack on the first sitting certified):

- the attack: a trainee sits a sitting in a class, fails, hands nothing in; the sitting ended on
  the server with all its answers but was listed nowhere; the instructor issued the next sitting
  with no warning, certified its pass, and the employer's export showed only the pass;
- now `dealer-trainer certify --class URL` (no submission needed) certifies every sitting of the
  class that ended on the server, timed out there or was recorded abandoned, from the server's
  record: a pass and a fail alike, an abandoned one as abandoned (a fail);
- issuing a new sitting of a form while the trainee has an ended, uncertified sitting of it is
  refused, naming it, unless the instructor says so (`--after-uncertified`).

Each attack is kept in its test, on a real class server."""

from __future__ import annotations

import csv
import io

import pytest

from tests.support.command import run_command, run_here
from tests.support.exams import form, issuer, sent, sit
from trainer.exams import installation_key
from trainer.exams.certify import issue_sitting
from trainer.exams.classledger import abandon
from trainer.exams.errors import UncertifiedSittingError
from trainer.exams.forms import write_form
from trainer.exams.formstore import add_form
from trainer.exams.keys import InstructorKey, write_private_key, write_public_key
from trainer.exams.submission import certify_class
from trainer.progress import Store

PASSPHRASE = "plum kettle orbit 58 lantern"
EXAM = form()


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture
def files(tmp_path, ivy):
    """The instructor's key (scrypt at n = 2**14, as the other tests not about scrypt), public key
    and form file, for the commands."""
    write_private_key(tmp_path / "ivy.key", ivy, PASSPHRASE)
    write_public_key(tmp_path / "ivy.pub", ivy.public)
    write_form(EXAM, tmp_path / "form.json")
    return tmp_path


def issued(tmp_path, ivy, joined, exam, **more) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"), **more)


def sat(tmp_path, exam, token, joined, **more):
    """Sam sits the sitting at his class workstation; every answer and the end reach the server.
    He hands nothing in."""
    with Store.open(tmp_path / "ws.sqlite") as store:
        who = store.find_trainee("Sam Lee")
        trainee = who.id if who is not None else store.add_trainee("Sam Lee")
        return sit(store, installation_key(tmp_path / "k"), trainee, exam, sitting=token,
                   classroom=joined.seat(), **more)


def certify_command(tmp_path, klass, *more: str, program: bool = False):
    """`dealer-trainer certify --class`: through its entry in this process, or the `program`."""
    run = run_command if program else run_here
    return run("certify", *more, "--key", str(tmp_path / "ivy.key"), "--ledger",
               str(tmp_path / "instructor.sqlite"), "--out", str(tmp_path / "certificates.json"),
               "--passphrase-env", "IVY_PASS", "--class", klass.address("instructor").url,
               env={"IVY_PASS": PASSPHRASE})


def exported(klass, tmp_path) -> list[dict]:
    done = run_here("export-results", "--class", klass.address("instructor").url, "--format", "csv",
                    "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 0, done.stderr
    return [r for r in csv.DictReader(io.StringIO(done.stdout, newline="")) if r["Mode"] == "Certified exam"]


def test_35_a_fail_handed_in_by_nobody_is_certified_and_reaches_the_employer(tmp_path, klass, joined, ivy,
                                                                           files):
    """#35 replayed: Sam fails his first sitting (a payout a dollar over) and hands nothing in.
    The instructor's next sitting of the form is refused, naming the first; `certify --class`
    with no submission certifies the fail from the server's record; then the next sitting is
    issued, Sam passes it, and the export lists both, the fail first."""
    exam = EXAM
    first = issued(tmp_path, ivy, joined, exam)
    assert not sat(tmp_path, exam, first, joined, critical_at=0).passed
    with pytest.raises(UncertifiedSittingError, match=f"Sam Lee has a sitting of 'Floor supervisor exam' "
                                                      rf"\(attempt 1, sitting {first['nonce']}\) that "
                                                      "ended on the class server and is not certified"):
        issued(tmp_path, ivy, joined, exam)
    done = run_here("sitting", "--form", str(files / "form.json"), "--trainee", "Sam Lee", "--key",
                    str(files / "ivy.key"), "--ledger", str(tmp_path / "instructor.sqlite"), "--out",
                    str(tmp_path / "next.sitting"), "--passphrase-env", "IVY_PASS", "--class",
                    klass.address("instructor").url, env={"IVY_PASS": PASSPHRASE})
    assert done.returncode != 0 and first["nonce"] in done.stderr and "--after-uncertified" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "next.sitting").exists()

    done = certify_command(tmp_path, klass, program=True)  # nothing handed in
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(
        "certified: Sam Lee, Floor supervisor exam, attempt 1: did not pass")
    assert "from the class server's record" in done.stdout.splitlines()[0]
    again = certify_command(tmp_path, klass)  # certified once
    assert again.returncode == 0 and "0 certificates; 0 refused" in again.stdout, again.stdout

    second = issued(tmp_path, ivy, joined, exam)  # the fail is certified: no warning now
    assert second["attempt"] == 2
    assert sat(tmp_path, exam, second, joined).passed
    done = certify_command(tmp_path, klass)
    assert done.returncode == 0 and "attempt 2: passed" in done.stdout, done.stdout
    rows = exported(klass, tmp_path)
    assert [(r["Trainee"], r["Result"]) for r in rows] == [("Sam Lee", "failed"), ("Sam Lee", "passed")]


def test_after_uncertified_issues_the_next_sitting_and_the_fail_is_still_certified(tmp_path, klass, joined,
                                                                                 ivy, files):
    """An instructor who means it issues the next sitting anyway (`--after-uncertified`); the
    ended fail is not lost by it: `certify --class` still certifies it."""
    exam = EXAM
    first = issued(tmp_path, ivy, joined, exam)
    sat(tmp_path, exam, first, joined, critical_at=0)
    done = run_command("sitting", "--form", str(files / "form.json"), "--trainee", "Sam Lee", "--key",
                       str(files / "ivy.key"), "--ledger", str(tmp_path / "instructor.sqlite"), "--out",
                       str(tmp_path / "next.sitting"), "--passphrase-env", "IVY_PASS", "--after-uncertified",
                       "--class", klass.address("instructor").url, env={"IVY_PASS": PASSPHRASE})
    assert done.returncode == 0, done.stderr
    assert "attempt 2 of 3" in done.stdout
    done = certify_command(tmp_path, klass)
    assert done.returncode == 0 and "attempt 1: did not pass" in done.stdout, done.stdout
    assert [r["Result"] for r in exported(klass, tmp_path)] == ["failed"]


def test_an_abandoned_sitting_is_certified_abandoned_and_exported(tmp_path, klass, joined, ivy, files):
    """Sam answers one item well and is never heard from again; the instructor records the sitting
    abandoned. It was a fail that no certificate ever carried: now `certify --class` certifies it
    abandoned (a fail, whatever the answers received), and the export lists it."""
    exam = EXAM
    token = issued(tmp_path, ivy, joined, exam)
    with Store.open(tmp_path / "ws.sqlite") as store:
        sit(store, installation_key(tmp_path / "k"), store.add_trainee("Sam Lee"), exam, sitting=token,
            classroom=joined.seat(), stop_after=1)  # and nothing more: he left
        sent(store, joined.seat())
    abandon(joined("instructor"), token["nonce"], "left the room")
    with pytest.raises(UncertifiedSittingError, match=token["nonce"]):
        issued(tmp_path, ivy, joined, exam)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    [c] = summary.certificates
    assert summary.refused == []
    assert (c["status"], c["passed"], c["sitting"]) == ("abandoned", False, token["nonce"])
    assert c["recorded"]["abandoned"]["reason"] == "left the room"
    assert [r["Result"] for r in exported(klass, tmp_path)] == ["abandoned"]


def test_a_sitting_still_under_way_is_not_certified_from_its_record(tmp_path, klass, joined, ivy):
    """Its last answers may still be on their way: it waits (certify --class lists it as not
    ended), and nothing is signed for it."""
    exam = EXAM
    token = issued(tmp_path, ivy, joined, exam)
    with Store.open(tmp_path / "ws.sqlite") as store:
        sit(store, installation_key(tmp_path / "k"), store.add_trainee("Sam Lee"), exam, sitting=token,
            classroom=joined.seat(), stop_after=1)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.certificates == [] and summary.refused == []


def test_the_app_asks_before_the_next_sitting_and_certifies_the_ended_fail(qtbot, tmp_path, klass, joined,
                                                                         ivy, files):
    """#35 through the instructor's screens, joined to the class: Issue a sitting… names Sam's
    ended, uncertified fail and asks (No issues nothing, Yes issues attempt 2); Certify…, with no
    submission, certifies the fail from the class server's record."""
    from tests.support.screens import answer, window
    from trainer.exams.roles import new_instructor

    first = issued(tmp_path, ivy, joined, EXAM)
    sat(tmp_path, EXAM, first, joined, critical_at=0)
    store = Store.open(tmp_path / "instructor.sqlite")
    lee, _ = new_instructor(store, "Ivy Park", PASSPHRASE, tmp_path, key_file=files / "ivy.key")
    w = window(qtbot, store, installation_key(tmp_path / "k2"), lee)
    try:
        w.rejoin_class(klass.address("instructor"))
        page = w.show_screen("exam")
        page.refresh()
        rows = [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]
        page.forms.selectRow(rows.index(EXAM.name))
        key = str(files / "ivy.key")
        seen: list = []
        answer({"button": "No"}, seen=seen)
        assert page.certification.issue("Sam Lee", str(tmp_path / "2.sitting"), key, PASSPHRASE) is None
        assert first["nonce"] in seen[0] and "Issue a new sitting anyway?" in seen[0]
        assert not (tmp_path / "2.sitting").exists()
        answer({"button": "Yes"}, {"button": "OK"})
        token = page.certification.issue("Sam Lee", str(tmp_path / "2.sitting"), key, PASSPHRASE)
        assert token is not None and token["attempt"] == 2
        seen = []
        answer({"button": "No"}, {"button": "OK"}, seen=seen)  # no submission: the class's record
        summary = page.certification.certify(out=str(tmp_path / "certs.json"), key_path=key,
                                             passphrase=PASSPHRASE)
        assert summary is not None and [c["sitting"] for c in summary.certificates] == [first["nonce"]]
        assert "1 certified, 0 refused" in seen[1]
        assert "Sam Lee, Floor supervisor exam: did not pass" in seen[1]
        assert "from the class server's record" in seen[1]
    finally:
        w.close()
        store.close()


def test_every_sitting_the_class_knows_is_certified_or_named(tmp_path, klass, joined, ivy):
    """The class has two instructors, Ivy and Ray, each with a file of their own; Ivy's file is
    then restored from a copy made before she issued Sam's sitting. Sam and Bo sit, hand nothing
    in, and their sittings end on the class server. `certify --class` from Ivy's restored file
    found neither (it read only the file's sittings) and said nothing: now it writes Sam's
    sitting back into her file and certifies it, and names Bo's as Ray's, not certified; Ray's
    own certifies Bo's."""
    ray = issuer(InstructorKey.generate("Ray Lind"))
    older = tmp_path / "ivy-older.sqlite"
    with Store.open(older) as copy:
        add_form(copy, EXAM)  # her copy of the form: the file as it was before the sitting
    sam = issued(tmp_path, ivy, joined, EXAM)
    assert not sat(tmp_path, EXAM, sam, joined, critical_at=0).passed
    with Store.open(tmp_path / "ray.sqlite") as ray_file:
        bo = issue_sitting(ray_file, ray, EXAM, "Bo Lin", classroom=joined("instructor"))
    with Store.open(tmp_path / "bo.sqlite") as store:
        assert sit(store, installation_key(tmp_path / "k"), store.add_trainee("Bo Lin"), EXAM, sitting=bo,
                   classroom=joined.seat()).passed

    with Store.open(older) as restored:
        done = certify_class(restored, ivy, joined("instructor"))
        assert restored.query("SELECT nonce FROM exam_sittings")[0]["nonce"] == sam["nonce"]
    assert [(c["trainee"], c["passed"]) for c in done.certificates] == [("Sam Lee", False)]
    assert done.refused == [
        f"sitting {bo['nonce']} (Bo Lin): issued from another instructor's file (key "
        f"{ray.public.fingerprint}), not certified here: its instructor certifies it "
        "(dealer-trainer certify --class)"]
    with Store.open(tmp_path / "ray.sqlite") as ray_file:
        done = certify_class(ray_file, ray, joined("instructor"))
    assert [(c["trainee"], c["passed"]) for c in done.certificates] == [("Bo Lin", True)]
    assert done.refused == []


def test_the_certificates_file_is_the_instructors_only(tmp_path, klass, joined, ivy, files):
    """The certificates `certify` writes (trainees' names, scores and findings) were 0644, any
    user of the instructor's machine could read them; an export is 0600, and so are they now,
    a file there before included."""
    import os
    import stat

    token = issued(tmp_path, ivy, joined, EXAM)
    sat(tmp_path, EXAM, token, joined)
    out = tmp_path / "certificates.json"
    out.write_text("[]\n")
    out.chmod(0o644)
    done = certify_command(tmp_path, klass)
    assert done.returncode == 0 and "certified: Sam Lee" in done.stdout, done.stderr
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
