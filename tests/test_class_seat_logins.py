"""No exam starts or steps with the shared workstation login (s040), on a real PostgreSQL: the
fifth cold review's #114 (`attacks/cancel_peer.py`, `cancel_loop.py`, `sit5.py`).

Every workstation not enrolled joins the class with the one shared login, and PostgreSQL lets a
role signal its own sessions (pg_cancel_backend, pg_terminate_backend; no grant takes that away)
and read their statements in pg_stat_activity. So a trainee at one such workstation, cancelling
every other session of the login in a loop, stopped a classmate's exam start at another (refused
three times, as a passing refusal, for as long as the loop ran); and once a sitting has started,
its answers held up past the class's 30 s delivery grace count as not answered.

Now the class server refuses every exam's start and step made with the shared login, saying what
to do (enrol the workstation), and keeps nothing of it: exams go from an enrolled workstation's
login or a trainee's own, which no other workstation's login may signal. The shared login still
sends practice (a push is sent again until the class keeps it, once: a cancel delays it only)."""

from __future__ import annotations

import threading

import psycopg
import pytest

from tests.support.class_server import progress_file, push_all, server_rows, until
from tests.support.exams import code_of, form, issuer, sit
from tests.support.screens import window
from trainer.classes.server import ledger as server_ledger
from trainer.classes.workstation.push import session_options
from trainer.exams import (
    installation_key,
    issue_sitting,
    sign_form,
    sitting_form,
    start_exam,
    write_sitting_file,
)
from trainer.exams.errors import ClassLedgerError, NoAttemptsLeftError
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link, proof_key
from trainer.progress import Store
from ui.classroom.membership import classroom_of

#: what the class server tells a workstation on the shared login that starts or steps an exam
ENROL = "ask the instructor to enrol this workstation (Class tab › Workstations…)"
#: what the refusal is, to the driver
REFUSED = psycopg.errors.InsufficientPrivilege


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def issued(tmp_path, joined, ivy, exam, trainee: str = "Bo Chen") -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, trainee, classroom=joined("instructor"))


def exam_rows(klass) -> dict[str, int]:
    return {t: len(server_rows(klass, t)) for t in
            ("exam_sitting_uses", "exam_sitting_steps", "exam_sitting_refusals", "exam_starts")}


NOTHING = {"exam_sitting_uses": 0, "exam_sitting_steps": 0, "exam_sitting_refusals": 0, "exam_starts": 0}


def test_the_shared_login_starts_and_steps_no_exam_and_keeps_nothing_of_it(tmp_path, klass, joined, ivy):
    exam = form()
    token = issued(tmp_path, joined, ivy, exam)
    nonce, items = token["nonce"], len(exam.items)
    key = proof_key(code_of(token), nonce)
    with klass.connect("workstation") as shared:
        # the start, proven with its code (s027's call, and s012's it stands on)
        with pytest.raises(REFUSED, match=ENROL.replace("(", r"\(").replace(")", r"\)")):
            server_ledger.start_sitting(shared, nonce, "Bo Chen", None, "result-1", link(key, items, 1))
        with pytest.raises(REFUSED, match="enrol this workstation"):
            shared.execute("SELECT start_exam_sitting(%s, 'Bo Chen', %s, 'result-1', %s)",
                           (nonce, exam.digest, link(key, items, 1)))
        assert exam_rows(klass) == NOTHING
        # an exam with no sitting, at a form given to the class
        with klass.connect("instructor") as instructor:
            assert server_ledger.give_form(instructor, exam.uid, exam.digest, exam.name, 3)
        with pytest.raises(REFUSED, match="enrol this workstation"):
            server_ledger.start_attempt(shared, "result-2", "Bo Chen", exam.uid)
        assert exam_rows(klass) == NOTHING

        # the same sitting starts at an enrolled workstation: the refusals spent nothing
        with klass.connect(klass.seat("Table 3")) as seat:
            assert server_ledger.start_sitting(seat, nonce, "Bo Chen", None, "result-1",
                                               link(key, items, 1)).attempt == 1
        # its start asked again, and its first answer, each with the right link: refused
        with pytest.raises(REFUSED, match="enrol this workstation"):
            server_ledger.start_sitting(shared, nonce, "Bo Chen", None, "result-1", link(key, items, 1))
        with pytest.raises(REFUSED, match="enrol this workstation"):
            server_ledger.sitting_step(shared, nonce, 2, link(key, items, 2), position=0, log="[]")
        # an answer over an item's bounds, whose refusal s034 keeps: nothing kept for the shared login
        with pytest.raises(REFUSED, match="enrol this workstation"):
            server_ledger.sitting_step(shared, nonce, 2, link(key, items, 2), position=0,
                                       log="[" + "0," * 200_000 + "0]")
        assert exam_rows(klass) == {**NOTHING, "exam_sitting_uses": 1, "exam_sitting_steps": 1}
        with klass.connect(klass.seat("Table 3")) as seat:
            assert server_ledger.sitting_step(seat, nonce, 2, link(key, items, 2), position=0,
                                              log="[]") == "recorded"
            assert server_ledger.start_attempt(seat, "result-2", "Bo Chen", exam.uid) == 2

        # the shared login still sends practice
        assert push_all(progress_file(tmp_path / "practice.sqlite", {"Bo Chen": 3}), klass) == 3


@pytest.mark.parametrize("login", ["workstation", "seat", "instructor", "trainee"])
def test_no_login_calls_the_exam_calls_that_do_not_ask_who_it_is(klass, login):
    from trainer.classes.server.logins import class_login

    with klass.connect("instructor") as instructor:
        name = {"workstation": "workstation", "seat": klass.seat(), "instructor": "instructor",
                "trainee": class_login(instructor, "Bo Chen", "bo-chen-password")}[login]
    password = "bo-chen-password" if login == "trainee" else None
    with (klass.connect(name, password) if password else klass.connect(name)) as conn:
        for call in ("open_exam_sitting_any_login('n', 'Bo Chen', NULL, 'r', NULL)",
                     "start_exam_sitting_any_login('n', 'Bo Chen', NULL, 'r', NULL)",
                     "exam_sitting_step_any_login('n', 2, NULL, 'answer', 0, '[]', NULL)",
                     "start_exam_attempt_any_login('r', 'Bo Chen', 'floor-1')",
                     "refuse_exam_on_shared_login()", "shared_workstation_caller()"):
            with pytest.raises(REFUSED, match="permission denied for function"):
                conn.execute("SELECT " + call)


def test_the_app_on_the_shared_login_says_to_enrol_the_workstation_and_starts_nothing(tmp_path, klass,
                                                                                     joined, ivy):
    exam = form()
    token = issued(tmp_path, joined, ivy, exam)
    with Store.open(tmp_path / "ws.sqlite") as store:
        bo = store.add_trainee("Bo Chen")
        key = installation_key(tmp_path / "k")
        with pytest.raises(ClassLedgerError) as refused:
            start_exam(store, exam, bo, key, sitting=token, classroom=joined("workstation"),
                       start_code=code_of(token))
        said = str(refused.value)
        assert ENROL in said and "\n" not in said, said
        with klass.connect("instructor") as instructor:
            server_ledger.give_form(instructor, exam.uid, exam.digest, exam.name, 3)
        with pytest.raises(NoAttemptsLeftError, match="enrol this workstation"):
            start_exam(store, exam, bo, key, classroom=joined("workstation"))
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        assert exam_rows(klass) == NOTHING
        # the proctor has the workstation enrolled, and it joins with its own login: the same sitting
        result = sit(store, key, bo, exam, sitting=token, classroom=joined(klass.seat()))
    assert result.passed
    assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer", "answer",
                                                                         "answer", "end"]


class CancelLoop:
    """Review 5's `cancel_loop.py`, on a thread: cancel every other session of the shared login
    that is running a statement, again and again, until stopped; how many it cancelled, and how
    many times it looked."""

    def __init__(self, klass):
        self.conn = psycopg.connect(klass.address("workstation").url, autocommit=True,
                                    options=session_options())
        self.stop, self.cancelled, self.rounds = threading.Event(), 0, 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            self.cancelled += sum(r[0] for r in self.conn.execute(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename = session_user "
                "AND pid <> pg_backend_pid() AND state = 'active'").fetchall())
            self.rounds += 1

    def at_least(self, rounds: int) -> None:
        until(lambda: self.rounds >= rounds, what=f"{rounds} rounds of the cancel loop")

    def __enter__(self) -> CancelLoop:
        self.thread.start()
        self.at_least(1)
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        self.conn.close()


def test_a_shared_login_cancelling_in_a_loop_stops_no_exam_at_an_enrolled_workstation(tmp_path, klass,
                                                                                     joined, ivy):
    """The review's attack, kept: while a session of the shared login cancels every other session
    of it in a loop (which it does: another workstation's statement on the shared login is
    cancelled), Bo's exam at an enrolled workstation starts, every answer and its end reach the
    class, and nothing is refused or cancelled."""
    exam = form()
    token = issued(tmp_path, joined, ivy, exam)
    seat = joined(klass.seat("Table 2"))
    with CancelLoop(klass) as loop:
        with klass.connect("workstation") as classmate, pytest.raises(psycopg.errors.QueryCanceled):
            classmate.execute("SELECT pg_sleep(120)")  # ended by the loop, not by its time
        until(lambda: loop.cancelled >= 1, what="the loop counting the statement it cancelled")
        with Store.open(tmp_path / "ws.sqlite") as store:
            bo = store.add_trainee("Bo Chen")
            before = loop.rounds
            result = sit(store, installation_key(tmp_path / "k"), bo, exam, sitting=token, classroom=seat)
            problems = store.query("SELECT reply FROM exam_stream WHERE reply <> 'recorded' OR reply IS NULL")
        loop.at_least(before + 1)  # it kept at it throughout
    assert result.passed
    assert [r["reply"] for r in problems] == []
    assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer", "answer",
                                                                         "answer", "end"]
    assert server_rows(klass, "exam_sitting_refusals") == []


def test_the_exam_screen_on_the_shared_login_says_to_enrol_the_workstation(qtbot, tmp_path, klass, joined,
                                                                          ivy, monkeypatch):
    """The trainee's start at a workstation on the shared login: one line, saying what to do, and
    nothing opens; joined with the workstation's own login, the same sitting starts."""
    from tests.test_exam_seal_start_ui import start_dialog

    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Bo Chen", classroom=joined("instructor"))
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = str(tmp_path / "bo.sitting")
    code = write_sitting_file(path, token, signed, key=ivy)
    warned: list[str] = []
    monkeypatch.setattr("ui.exams.sitting.QMessageBox.warning", lambda _p, _t, text: warned.append(text))
    store = Store.open(tmp_path / "ws.db")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), store.add_trainee("Bo Chen"))
    page = None
    try:
        classroom_of(w).join(klass.address("workstation"))
        page = w.show_screen("exam")
        start_dialog([])
        assert not page.certification.sit(path, code=code)
        assert len(warned) == 1 and ENROL in warned[0], warned
        assert "\n" not in warned[0] and "Traceback" not in warned[0]
        assert page.runner is None and w.sidebar.isEnabled()
        assert exam_rows(klass) == NOTHING

        classroom_of(w).join(klass.address(klass.seat()))
        start_dialog([])
        assert page.certification.sit(path, code=code)
        assert page.runner is not None and len(warned) == 1
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start"]
    finally:
        if page is not None and page.runner is not None:  # an exam open: it is left, not closed over
            page.abandon()
            qtbot.waitUntil(lambda: page.runner is None, timeout=10_000)
        w.close()
        store.close()
