"""An exam sat in a class is sat online, through the app on a real PostgreSQL: after an answer
the class server has not acknowledged (the network cut), the Exam screen says so in place of the
table and waits; the next part opens once the server has the answer, and the result is shown
only once the server holds every answer and the end."""

from __future__ import annotations

import pytest

from tests.support.class_server import free_port, server_rows
from tests.support.exams import code_of, form, issuer
from tests.support.screens import on_class_tab, quicken_runner, window
from trainer.classes.workstation.address import class_address
from trainer.exams import Ending, installation_key, issue_sitting, start_exam
from trainer.exams.keys import InstructorKey
from trainer.progress import Store
from ui.classroom.membership import classroom_of
from ui.exams.runner import RETRY_MS
from ui.qt import Qt


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def test_the_exam_waits_for_the_class_server_before_the_next_part_and_the_result(qtbot, tmp_path, klass,
                                                                                joined, ivy, monkeypatch):
    from ui.qt import QMessageBox

    # a wait that fails mid-sitting ends in w.close(), which asks "Leave the exam?": answered,
    # so that the failure is reported rather than the run held by a box no one sees
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    quicken_runner(monkeypatch)  # the window tries again, and opens the next part, without the app's pauses
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    store = Store.open(tmp_path / "ws.db")
    sam = store.add_trainee("Sam Lee")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), sam)
    try:
        classroom_of(w).join(klass.address(klass.seat()))
        page = w.show_screen("exam")
        assert page.begin(exam, sitting=token, start_code=code_of(token))
        conn, runner = page.class_connection(), page.runner
        # the class's 30 s, shortened: what the trainee reads before and after it (at 1 s, a
        # worker on a machine loaded 12 deep once read the line after it, not the one before)
        runner.grace = 2.5
        reachable = conn.address
        conn.stop()  # the network is cut: the background pusher gets nowhere either
        conn.address = class_address(f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 1 handed in
        qtbot.waitUntil(lambda: runner.held.isVisible(), timeout=5000)
        assert runner.held.text().startswith("<h3>Sending your answer</h3>")  # calm, while it may pass
        assert "proctor" not in runner.held.text()
        qtbot.waitUntil(lambda: "Waiting for the class server" in runner.held.text(), timeout=3 * RETRY_MS)
        assert "cannot be reached" in runner.held.text() and "Tell the proctor now" in runner.held.text()
        assert not runner.screen.isVisible() and runner.index == 0  # part 2 has not opened
        conn.address = reachable  # the network is back: the screen's next try gets through
        qtbot.waitUntil(lambda: runner.index == 1, timeout=3 * RETRY_MS)
        assert runner.index == 1 and runner.screen.isVisible() and not runner.held.isVisible()
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer"]
        conn.address = class_address(f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
        runner.end(Ending.LEFT)  # the trainee leaves (Leave exam, Yes)
        qtbot.waitUntil(lambda: runner.held.isVisible(), timeout=5000)
        assert page.runner is runner  # no result before the server has the end
        assert "Your result is shown" in runner.held.text()
        conn.address = reachable
        qtbot.waitUntil(lambda: page.runner is None, timeout=3 * RETRY_MS)  # the result is shown
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer", "end"]
    finally:
        w.close()
        store.close()


def test_the_class_tab_shows_a_sitting_started_and_never_ended(qtbot, tmp_path, klass, joined, ivy):
    """The trainee cut the network after the start and never sent: the instructor's Class tab,
    live from the server, lists the sitting as started, with the answers received, not ended."""
    import time

    from tests.support.screens import window_for

    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    with Store.open(tmp_path / "ws.db") as store:
        start_exam(store, exam, store.add_trainee("Sam Lee"), installation_key(tmp_path / "k"), sitting=token,
                   classroom=joined.seat(), start_code=code_of(token))
    started = server_rows(klass, "exam_sitting_steps")[0][9]
    store = Store.open(tmp_path / "teacher.db")
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="a long class passphrase")
    w, _ = window_for(qtbot, store, store.trainee(lee))
    page = None
    try:
        w.rejoin_class(klass.address("instructor"))
        page = on_class_tab(w)
        qtbot.waitUntil(lambda: page.live.refreshes >= 1, timeout=10_000)
        side = page.klass.side.toPlainText()
        assert "Sittings not ended" in side
        when = time.strftime("%H:%M", time.localtime(started))
        assert (f"Sam Lee, {exam.uid}, attempt 1 (sitting {token['nonce']}): started {when}, "
                "0 of 3 answers received, not ended") in side
    finally:
        if page is not None and page.live is not None:
            page.live.stop()
        w.close()
        store.close()
