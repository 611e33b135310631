"""A refusal of an exam's step that the class server keeps nothing of is not final, on a real
PostgreSQL.

Before, the app took the server's "step 3 of this sitting could not be recorded: try again" (its
step function, after two tries at the insert) as the server's answer: the step was marked
refused in the file and never sent again, the next part opened, and the server held no answer
of the item (nor any refusal of it), so `certify --class` certified it not answered. A dropped
connection or a serialization failure kept the answer waiting, but the window said at once that
the answer had not reached the class and told the trainee to call the proctor.

Now such a refusal (trainer.classes.server.failures `passing`) leaves the step waiting, as a lost
connection does; the window tries again with backoff and shows a calm line for the class's
allowance for delivery (DELIVERY_GRACE, the server's `exam_queue_allowance()`), and only then
says that the answer has not reached the class. The server's passing refusals are made real by a
trigger the test puts on its table of steps (failing the next N inserts, with the server's own
words or SQLSTATE 40001), and a connection is killed with pg_terminate_backend mid-sitting."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.class_server import server_rows
from tests.support.exams import code_of, form, issuer, sit
from tests.support.screens import QUICK_RUNNER_MS, quicken_runner, window
from trainer.classes import ClassServerError
from trainer.classes.errors import PassingRefusalError
from trainer.classes.workstation.connection import ClassConnection
from trainer.exams import DELIVERY_GRACE, installation_key, issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.progress import Store
from ui.classroom.membership import classroom_of
from ui.qt import Qt

#: what the server says when it could not record a step now (s012, s014)
NOT_RECORDED = "step %s of this sitting could not be recorded: try again"


#: the runner's longest pause between tries in the window's tests (quicken_runner)
QUICK_RETRY_MS = QUICK_RUNNER_MS["RETRY_MS"]


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture
def issued(tmp_path, joined, ivy):
    """The exam, and a sitting of it for Sam Lee the instructor issued in the class."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return exam, issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))


@contextlib.contextmanager
def sitting_in_the_window(qtbot, tmp_path, klass, issued, monkeypatch):
    """Sam's workstation joined to the class, the exam begun in the window with the proctor's
    code, the background pusher stopped (only the window sends: the pusher would take some of the
    tries); (the window's class connection, the exam's runner). Abandoned and closed after."""
    quicken_runner(monkeypatch)  # the held line shown sooner too, as quick tries are done within it
    exam, token = issued
    store = Store.open(tmp_path / "ws.db")
    sam = store.add_trainee("Sam Lee")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), sam)
    page = None
    try:
        classroom_of(w).join(klass.address(klass.seat()))
        page = w.show_screen("exam")
        assert page.begin(exam, sitting=token, start_code=code_of(token))
        conn = page.class_connection()
        conn.stop()
        yield conn, page.runner, store
    finally:
        if page is not None and page.runner is not None:
            page.abandon()
            qtbot.waitUntil(lambda: page.runner is None, timeout=3 * QUICK_RETRY_MS)
        w.close()
        store.close()


def failing_steps(klass, n: int, sqlstate: str = "P0001") -> None:
    """The class server refuses the next `n` answers or ends it would record (a start goes
    through), keeping nothing, as it does
    when it cannot record one now: its own words (P0001), or a serialization failure (40001)."""
    with klass.admin() as admin:
        admin.execute("CREATE SEQUENCE failing_tries")
        admin.execute("GRANT USAGE ON SEQUENCE failing_tries TO PUBLIC")
        admin.execute(f"""CREATE FUNCTION failing_step() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.step > 1 AND nextval('failing_tries') <= {n} THEN
                    RAISE EXCEPTION USING ERRCODE = '{sqlstate}',
                        MESSAGE = format('{NOT_RECORDED}', NEW.step);
                END IF;
                RETURN NEW;
            END $$""")
        admin.execute("CREATE TRIGGER failing_step BEFORE INSERT ON exam_sitting_steps "
                      "FOR EACH ROW EXECUTE FUNCTION failing_step()")


def tries_made(klass) -> int:
    return klass.read("SELECT last_value FROM failing_tries")[0][0]


def test_the_delivery_grace_is_the_class_servers_allowance(klass):
    with klass.connect(klass.seat()) as conn:
        assert conn.execute("SELECT exam_queue_allowance()").fetchone()[0] == DELIVERY_GRACE


@pytest.mark.parametrize("sqlstate", ["P0001", "40001"])
def test_a_step_the_server_could_not_record_now_waits_and_goes_through(tmp_path, klass, joined, issued,
                                                                      sqlstate):
    exam, token = issued
    classroom = joined.seat()
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        failing_steps(klass, 1, sqlstate)
        session = sit(store, installation_key(tmp_path / "k"), sam, exam, sitting=token,
                      classroom=classroom, stop_after=1)
        assert session.problem.endswith(f"could not do it now and kept nothing of it "
                                        f"({NOT_RECORDED % 2}); it is asked again")
        assert session.waiting
        waiting = store.query("SELECT step, sent, reply FROM exam_stream ORDER BY step")
        assert [(r["step"], r["sent"], r["reply"]) for r in waiting] == [(2, None, None)]  # not refused
        assert server_rows(klass, "exam_sitting_refusals") == []
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start"]
        assert classroom.send_steps(str(store.path)) == 1  # sent again: recorded
        kept = store.query("SELECT reply FROM exam_stream ORDER BY step")
        assert [r["reply"] for r in kept] == ["recorded"]
    assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer"]
    assert tries_made(klass) == 2


def test_a_refusal_the_server_keeps_is_still_final(tmp_path, klass, joined, issued):
    """Only what the server kept nothing of is sent again: a step it refuses for good (here one
    whose link does not prove the start code) is marked with its refusal and not sent again."""
    from trainer.classes.server import ledger as server_ledger

    exam, token = issued
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        sit(store, installation_key(tmp_path / "k"), sam, exam, sitting=token,
            classroom=joined.seat(), stop_after=1)
    with klass.connect(klass.seat()) as conn, pytest.raises(ClassServerError) as refused:
        server_ledger.sitting_step(conn, token["nonce"], 3, b"\0" * 32, position=1, log="[]")
    assert not isinstance(refused.value, PassingRefusalError)
    assert "does not prove the sitting's start code" in str(refused.value)


def test_the_window_tries_again_calmly_after_a_killed_connection_and_refusals(qtbot, tmp_path, klass,
                                                                             issued, monkeypatch):
    """Part 1 reaches the class; then the step's connection is killed (pg_terminate_backend) and
    the server refuses the next three tries at part 2, keeping nothing. The window shows a calm
    line, never the call to the proctor, and part 3 opens once the server has part 2."""
    with sitting_in_the_window(qtbot, tmp_path, klass, issued, monkeypatch) as (conn, runner, store):
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 1
        qtbot.waitUntil(lambda: runner.index == 1, timeout=3000)
        assert conn._steps.held  # the connection the answers go on
        with klass.admin() as admin:
            killed = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE usename = %s AND datname = current_database()", (klass.seat(),)
                                   ).fetchone()[0]
        assert killed >= 1
        failing_steps(klass, 3)
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 2
        seen: list[str] = []

        def part_3_open() -> bool:
            if runner.held.isVisible() and (not seen or seen[-1] != runner.held.text()):
                seen.append(runner.held.text())
            return runner.index == 2

        qtbot.waitUntil(part_3_open, timeout=int(DELIVERY_GRACE * 1000))
        assert seen and all(t.startswith("<h3>Sending your answer</h3>") for t in seen), seen
        assert not any("proctor" in t or "Waiting for the class server" in t for t in seen)
        assert runner.screen.isVisible() and not runner.held.isVisible()
        assert tries_made(klass) == 4  # three refused, the fourth recorded
        steps = server_rows(klass, "exam_sitting_steps")
        assert [(r[3], r[6]) for r in steps] == [("start", None), ("answer", 0), ("answer", 1)]
        assert server_rows(klass, "exam_sitting_refusals") == []
        replies = [r["reply"] for r in store.query("SELECT reply FROM exam_stream ORDER BY step")]
        assert replies == ["recorded", "recorded"]


def test_a_refusal_that_does_not_pass_is_said_at_once(qtbot, tmp_path, klass, issued, monkeypatch):
    """The workstation's login is refused by the class (its password changed): trying again does
    not help, so the window says at once, not after the grace, that the answer has not reached
    the class."""
    from trainer.classes.workstation.address import class_address

    with sitting_in_the_window(qtbot, tmp_path, klass, issued, monkeypatch) as (conn, runner, _):
        reachable = conn.address
        conn.address = class_address(reachable.url.replace(":class-test-password@", ":not-the-password@"))
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 1
        qtbot.waitUntil(lambda: runner.held.isVisible(), timeout=5000)
        qtbot.waitUntil(lambda: "Waiting for the class server" in runner.held.text(), timeout=3000)
        assert "refuses the password" in runner.held.text() and "Tell the proctor now" in runner.held.text()
        conn.address = reachable
        qtbot.waitUntil(lambda: runner.index == 1, timeout=3000)


def test_a_pusher_meeting_a_passing_refusal_keeps_the_step_waiting(tmp_path, klass, joined, issued):
    """What sends in the background (`send_now`, the pusher's own sending) meets the same
    refusal: the step waits, not refused, and goes with the next send."""
    exam, token = issued
    classroom = joined.seat()
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        failing_steps(klass, 2)
        sit(store, installation_key(tmp_path / "k"), sam, exam, sitting=token, classroom=classroom,
            stop_after=1)  # its own send refused once
        pusher = ClassConnection(str(store.path), klass.address(klass.seat()))
        try:
            with pytest.raises(PassingRefusalError):
                pusher.send_now()  # refused twice
            assert [r["reply"] for r in store.query("SELECT reply FROM exam_stream")] == [None]
            pusher.send_now()
        finally:
            pusher.close()
        assert [r["reply"] for r in store.query("SELECT reply FROM exam_stream")] == ["recorded"]
    assert tries_made(klass) == 3
