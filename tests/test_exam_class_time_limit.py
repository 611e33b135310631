"""The exam's time limit, kept by the class server (s014), where the trainee has no hand:

- the instructor registers the form's time limit with the sitting when issuing it;
- an answer, or the end, that reaches the server more than its allowance for delivery (30 s, s031)
  after the time limit, counted by the server's clock from its own record of the start, is kept
  in order and marked late, and the workstation is told so;
- `certify --class` counts an answer marked late as not answered, and names it and why in the
  certificate; an end marked late is a time-out, and so is a sitting whose end never reached
  the server once the time is over (what it never received is not answered);
- an outage: answers queued in time that reach the server within the allowance count; those
  that reach it later count as not answered, as a held clock's would (the server cannot tell
  them apart), and the certificate says which and by how much.

No test waits: the server's clock is moved on for a sitting by moving its record of the start
back (`server_clock_moves_on`), as the superuser, its append-only triggers off for that one
statement."""

from __future__ import annotations

import contextlib
import re
import time

import psycopg
import pytest

from tests.support.class_server import server_clock_moves_on, server_rows
from tests.support.exams import code_of, form, issuer, sent
from trainer.exams import AwaitingClassError, installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.exams.records import portable_record
from trainer.progress import Store

LIMIT = 900  # seconds: tests.support.exams.form's time limit
ALLOWANCE = 30  # seconds the class allows after it for delivery (README, "The time limit")


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def issued(tmp_path, ivy, joined, exam) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))


def certified(tmp_path, ivy, joined, record: dict, token: dict) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return certify(ledger, ivy, record, token, classroom=joined("instructor"))


def workstation(tmp_path) -> Store:
    store = Store.open(tmp_path / "ws.sqlite")
    store.add_trainee("Sam Lee")
    return store


def started(store, tmp_path, exam, token, classroom, clock=None):
    """Sam's sitting, started on the class server (its start code typed by the proctor)."""
    more = {"clock": clock} if clock is not None else {}
    return start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                      sitting=token, classroom=classroom, start_code=code_of(token), **more)


def answer(session, *positions: int) -> None:
    """Answer the items at `positions` correctly (the workstation queues each for the class)."""
    from trainer.grading import correct_log, grade
    from trainer.procedure import build

    for p in positions:
        s = session.scenario(p)
        proc = build(s)
        log = correct_log(proc, s.automation)
        session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), log)


@contextlib.contextmanager
def cable_out(session):
    """The network is down: every send of the sitting's steps fails as an unreachable server
    would. Sat online, the answer just given then waits in the file, and the next item does not
    open until the server has it (trainer.exams.session)."""
    from trainer.classes.errors import ClassUnreachableError

    classroom = session.classroom

    def unreachable(path):
        raise ClassUnreachableError("the class server cannot be reached (the cable is out)")

    classroom.send_steps = unreachable
    try:
        yield
    finally:
        del classroom.send_steps  # the class connection's own again


def steps(klass) -> list[tuple]:
    """(step, kind, position, late) of every step the server kept, in order."""
    return klass.read("SELECT step, kind, position, late IS NOT NULL FROM exam_sitting_steps "
                      "ORDER BY step")


def replies(store) -> list[str]:
    return [r["reply"] for r in store.query("SELECT reply FROM exam_stream ORDER BY step")]


def test_the_time_limit_is_registered_with_the_sitting_and_required(tmp_path, klass, joined, ivy):
    token = issued(tmp_path, ivy, joined, form())
    assert [r[4] for r in server_rows(klass, "exam_sitting_links")] == [LIMIT]
    with klass.connect("instructor") as instructor, pytest.raises(psycopg.errors.CheckViolation):
        instructor.execute("INSERT INTO exam_sitting_links (nonce, items, verifier) VALUES (%s, 3, %s)",
                           (token["nonce"], bytes(32)))  # a sitting whose time the server would not keep


def test_a_workstation_that_holds_its_clock_and_sends_an_hour_late_gets_nothing_certified(tmp_path, klass,
                                                                                        joined, ivy):
    """The attack: a patched workstation whose exam clock never moves (its countdown never runs
    out) answers every item right, and sends the answers an hour after the start by the class
    server's clock. The server keeps them, marked late, and says so; certify --class counts them
    as not answered, and the sitting fails as timed out, naming why."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        held = time.time()  # the exam clock stops where it was at the start
        session = started(store, tmp_path, exam, token, joined.seat(), clock=lambda: held)
        server_clock_moves_on(klass, token["nonce"], 3600)
        answer(session, 0, 1, 2)  # sat online: each answer goes as it is given, an hour late
        assert session.result.status.value == "passed"  # by its own held clock
        assert sent(store, joined.seat()) == 0  # nothing waits
        record = portable_record(store, session.result_id)
        said = replies(store)
    assert all(r.startswith("recorded late: it reached the class server 27") for r in said), said
    assert steps(klass) == [(1, "start", None, False), (2, "answer", 0, True), (3, "answer", 1, True),
                            (4, "answer", 2, True), (5, "end", None, True)]
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert not certificate["passed"] and certificate["status"] == "timed-out"
    assert certificate["answers"] == [] and certificate["total"] == 0
    late = certificate["late"]
    assert [i["position"] for i in late["items"]] == [0, 1, 2]
    # an hour after the start is 45 minutes after the limit, and whatever the test took besides
    assert all(i["after_limit"] >= 3600 - LIMIT for i in late["items"]) and late["ended_after_limit"] >= 2700
    assert re.match(r"items 1, 2, 3 reached the class server up to 4\d min after the time limit and count "
                    r"as not answered; its end reached it 4\d min after the time limit \(handed in "
                    r"then, it timed out\)", late["why"]), late["why"]
    assert "the time limit is 15 min from the class server's own record of the start" in late["why"]


def test_an_outage_past_the_allowance_costs_the_answers_that_came_late_and_says_so(tmp_path, klass, joined,
                                                                                   ivy):
    """Item 1 reaches the class in time; then the network is down: item 2 is answered in time at
    the workstation and waits in its file (item 3 does not open), and the outage outlasts the time
    limit and the allowance by ten minutes. When the network is back item 2 goes, marked late, and
    item 3 after it: item 1 counts, 2 and 3 count as not answered, and the certificate names them
    and how late they came."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        answer(session, 0)  # in time: it goes as it is given
        with cable_out(session):
            answer(session, 1)  # it waits in the file
            with pytest.raises(AwaitingClassError):
                answer(session, 2)
            server_clock_moves_on(klass, token["nonce"], LIMIT + ALLOWANCE + 600)
        assert session.send()  # the network is back
        answer(session, 2)
        assert sent(store, joined.seat()) == 0
        record = portable_record(store, session.result_id)
        said = replies(store)
    assert said[0] == "recorded" and all(r.startswith("recorded late: ") for r in said[1:])
    assert "counts as not answered" in said[1]
    assert [s[3] for s in steps(klass)] == [False, False, True, True, True]
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert [a["position"] for a in certificate["answers"]] == [0] and certificate["answers"][0]["passed"]
    assert not certificate["passed"] and certificate["status"] == "timed-out"
    assert [i["position"] for i in certificate["late"]["items"]] == [1, 2]
    assert all(i["after_limit"] >= ALLOWANCE + 600 for i in certificate["late"]["items"])
    assert re.match(r"items 2, 3 reached the class server up to 1\d min after", certificate["late"]["why"])


def test_answers_held_up_within_the_allowance_count(tmp_path, klass, joined, ivy):
    """An outage: the answer given in time reaches the class 20 s after the time limit, within the
    30 s allowed for delivery, and the others follow within them; they count, the sitting passes,
    and the certificate names each answer that came after the limit and by how much."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        with cable_out(session):
            answer(session, 0)  # it waits in the file
            server_clock_moves_on(klass, token["nonce"], LIMIT + ALLOWANCE - 10)
        answer(session, 1, 2)  # the network is back: the first goes, then these
        assert sent(store, joined.seat()) == 0
        record = portable_record(store, session.result_id)
        assert replies(store) == ["recorded"] * 4
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert certificate["passed"] and certificate["status"] == "passed" and "late" not in certificate
    after = certificate["delivered_late"]
    assert [i["position"] for i in after["items"]] == [0, 1, 2]
    assert all(20 <= i["after_limit"] < ALLOWANCE for i in after["items"])
    assert re.match(r"items 1, 2, 3 reached the class server up to 2\d s after the time limit, within "
                    r"the 30 s the class allows for delivery: counted as answered in time", after["why"])


def test_answers_sent_two_minutes_after_the_limit_are_marked_late(tmp_path, klass, joined, ivy):
    """The fourth cold review (#92): with the proof key from his file, Tom sent every answer of his
    own sitting 115 s after the server's time limit: recorded with no late mark, certified
    "passed (100)". The allowance is for delivery only now: they are marked late, counted as not
    answered, and the certificate says so."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        server_clock_moves_on(klass, token["nonce"], LIMIT + 115)
        answer(session, 0, 1, 2)
        record = portable_record(store, session.result_id)
        said = replies(store)
    assert all(r.startswith("recorded late: it reached the class server 11") for r in said), said
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert not certificate["passed"] and certificate["answers"] == []
    assert [i["position"] for i in certificate["late"]["items"]] == [0, 1, 2]


def test_a_workstation_that_never_sends_its_answers_is_certified_as_the_server_kept_it(tmp_path, klass,
                                                                                      joined, ivy):
    """The attack: a patched workstation sends the start and then nothing (not its answers, not
    its end), so that the class server's record never ends and the sitting is never certified;
    its result is handed in with every answer right. Within the time it is not certified yet
    (its answers may be on their way); once the time limit and its allowance are over by the
    server's clock, it is certified as the server kept it: timed out, nothing answered."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        session.online = False  # the patch: sat as if offline, and nothing sent
        answer(session, 0, 1, 2)  # kept back: never sent
        record = portable_record(store, session.result_id)
    assert record["status"] == "passed"
    with pytest.raises(CertifyError, match="has not ended on the class server yet"):
        certified(tmp_path, ivy, joined, record, token)
    server_clock_moves_on(klass, token["nonce"], 3600)
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert not certificate["passed"] and certificate["status"] == "timed-out"
    assert certificate["answers"] == [] and certificate["late"]["items"] == []
    assert certificate["late"]["ended"] is False
    assert re.match(r"its end had not reached the class server 4\d min after the time limit: it timed "
                    r"out, and what the server had not received counts as not answered",
                    certificate["late"]["why"])


def test_the_certify_command_says_what_came_too_late(tmp_path, klass, joined, ivy):
    """`dealer-trainer certify --class` prints, under the certificate's line, which items reached
    the class server too late and why."""
    from tests.support.command import run_command
    from trainer.exams.keys import write_private_key
    from trainer.exams.submission import export_submission

    # scrypt at n = 2**14, as the other tests not about scrypt
    write_private_key(tmp_path / "ivy.key", ivy, "plum kettle orbit 58 lantern")
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        session = started(store, tmp_path, exam, token, joined.seat())
        answer(session, 0)
        with cable_out(session):
            answer(session, 1)
            server_clock_moves_on(klass, token["nonce"], LIMIT + ALLOWANCE + 600)
        answer(session, 2)
        assert export_submission(store, tmp_path / "submission.json") == 1
    done = run_command("certify", str(tmp_path / "submission.json"), "--key", str(tmp_path / "ivy.key"),
                       "--ledger", str(tmp_path / "instructor.sqlite"), "--out", str(tmp_path / "out.json"),
                       "--passphrase-env", "IVY_PASS", "--class", klass.address("instructor").url,
                       env={"IVY_PASS": "plum kettle orbit 58 lantern"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("certified: Sam Lee, Floor supervisor exam, attempt 1: did not pass")
    assert re.match(r"  not in time: items 2, 3 reached the class server up to 1\d min after the time "
                    r"limit and count as not answered", lines[1]), lines[1]


def test_a_sitting_past_its_time_holds_up_no_new_sitting_of_its_form(tmp_path, klass, joined, ivy):
    """A sitting started and never ended held up every new sitting of its form until the
    instructor recorded it abandoned, even once its time was over by the server's clock: then it
    has ended, timed out, as it is certified, and a new sitting is issued."""
    from trainer.exams.classledger import unended_lines
    from trainer.exams.errors import ClassLedgerError, UncertifiedSittingError
    from trainer.exams.submission import certify_class

    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with workstation(tmp_path) as store:
        started(store, tmp_path, exam, token, joined.seat())  # and never ended
    server_clock_moves_on(klass, token["nonce"], LIMIT + ALLOWANCE - 30)  # the queue's time left
    with pytest.raises(ClassLedgerError, match="not ended"):
        issued(tmp_path, ivy, joined, exam)
    assert not unended_lines(joined("instructor"))[0].endswith("timed out")
    server_clock_moves_on(klass, token["nonce"], 60)  # 30 s past the allowance
    [line] = unended_lines(joined("instructor"))
    assert line.endswith("not ended; its time is over: it is certified as timed out")
    # ended, timed out, and not certified: named until it is (tests/test_exam_class_ended.py)
    with pytest.raises(UncertifiedSittingError, match=token["nonce"]):
        issued(tmp_path, ivy, joined, exam)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        [certificate] = certify_class(ledger, ivy, joined("instructor")).certificates
    assert (certificate["status"], certificate["answers"]) == ("timed-out", [])
    assert certificate["late"]["ended"] is False
    again = issued(tmp_path, ivy, joined, exam)
    assert again["attempt"] == 2 and again["nonce"] != token["nonce"]
