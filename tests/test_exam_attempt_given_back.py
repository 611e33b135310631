"""An attempt a classmate spent is given back by the instructor. The attack (the third cold
review): a trainee at a workstation starts exams with no sitting for Bo Chen, who has no
class login, until the class counts every attempt of the form spent; then the instructor can
issue Bo no sitting of that form, and nothing gave the attempts back (void-sitting voids
sittings only). Now the instructor lists them and gives each back with a reason the class keeps
(`dealer-trainer give-back-attempt`, s026's void_exam_start), which no other login may."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from tests.support.class_server import server_rows
from tests.support.command import run_command, run_here
from tests.support.exams import form, issuer
from trainer.classes import ClassServerError
from trainer.exams.certify import issue_sitting
from trainer.exams.classledger import give_to_class
from trainer.exams.errors import NoAttemptsLeftError
from trainer.exams.keys import InstructorKey
from trainer.progress import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def test_the_instructor_gives_back_the_attempts_a_classmate_spent(tmp_path, klass, joined, ivy):
    exam = form()
    give_to_class(joined("instructor"), exam)
    table = joined.seat()
    spent = [uuid.uuid4().hex for _ in range(exam.attempts_allowed)]
    for uid in spent:  # a classmate, at an enrolled workstation, for a name with no login
        table.start_attempt(uid, "Bo Chen", exam.uid)
    with pytest.raises(ClassServerError, match="used 3 of the 3"):
        table.start_attempt(uuid.uuid4().hex, "Bo Chen", exam.uid)
    with Store.open(tmp_path / "instructor.sqlite") as ledger, pytest.raises(NoAttemptsLeftError):
        issue_sitting(ledger, ivy, exam, "Bo Chen", classroom=joined("instructor"))

    url = klass.address("instructor").url
    listed = run_command("give-back-attempt", "--class", url)  # the program; the rest in process
    assert listed.returncode == 0, listed.stderr
    assert all(uid in listed.stdout for uid in spent) and "Bo Chen, floor-1, attempt 3" in listed.stdout
    for who in ("workstation", "supervisor"):  # nobody else gives one back
        done = run_here("give-back-attempt", spent[0], "--reason", "mine", "--class",
                           klass.address(who).url)
        assert done.returncode == 2 and "only an instructor" in done.stderr, done.stderr
    done = run_here("give-back-attempt", spent[0], "--class", url)
    assert done.returncode == 2 and "needs a reason" in done.stderr, done.stderr
    done = run_here("give-back-attempt", "0" * 32, "--reason", "x", "--class", url)
    assert done.returncode == 2 and "was not started in this class with no sitting" in done.stderr
    done = run_here("give-back-attempt", spent[0], "--reason", "spent at Table 2 while Bo was out",
                       "--class", url)
    assert done.returncode == 0, done.stderr
    again = run_here("give-back-attempt", spent[0], "--reason", "again", "--class", url)
    assert again.returncode == 2 and "given back already" in again.stderr

    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Bo Chen", classroom=joined("instructor"))
    assert token["trainee"] == "Bo Chen"
    [kept] = server_rows(klass, "exam_start_voids")
    assert kept[0] == spent[0] and kept[1] == "spent at Table 2 while Bo was out"
    with klass.connect("instructor") as c, pytest.raises(psycopg.Error):
        c.execute("DELETE FROM exam_start_voids")
