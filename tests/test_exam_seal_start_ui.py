"""The Exam screen's start of a sitting sealed with the class server's share (the third cold
review's #60), on the real start dialog and a real PostgreSQL: the dialog says what exam is
coming (from the signed token: the items are not open yet) and that the class server must
record the start first; with the workstation's traffic to the server cut, the start is refused
in one line and nothing opens; once the server is reached, the exam opens on its start."""

from __future__ import annotations

import pytest

from tests.support.class_server import free_port, server_rows
from tests.support.exams import form, issuer
from tests.support.screens import window
from trainer.classes.workstation.address import class_address
from trainer.exams import installation_key, issue_sitting, sign_form, sitting_form, write_sitting_file
from trainer.exams.keys import InstructorKey
from trainer.progress import Store
from ui.classroom.membership import classroom_of


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def start_dialog(seen: list) -> None:
    """Note what the start dialog says, when it opens, and press its Start button."""
    from ui.qt import QApplication, QMessageBox, QTimer

    def look():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "startExam":
            QTimer.singleShot(20, look)
            return
        seen.append(f"{box.text()}\n{box.informativeText()}")
        next(b for b in box.buttons() if b.text() == "Start").click()

    QTimer.singleShot(20, look)


def test_the_start_dialog_waits_for_the_class_server_and_nothing_opens_without_it(qtbot, tmp_path, klass,
                                                                                 joined, ivy, monkeypatch):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = str(tmp_path / "sam.sitting")
    code = write_sitting_file(path, token, signed, key=ivy)
    warned: list[str] = []
    monkeypatch.setattr("ui.exams.sitting.QMessageBox.warning", lambda _p, _t, text: warned.append(text))
    store = Store.open(tmp_path / "ws.db")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), store.add_trainee("Sam Lee"))
    try:
        classroom_of(w).join(klass.address(klass.seat()))
        page = w.show_screen("exam")
        conn = page.class_connection()
        reachable = conn.address
        conn.stop()  # the workstation's traffic to the class server is cut
        conn.address = class_address(f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
        seen: list[str] = []
        start_dialog(seen)
        assert not page.certification.sit(path, code=code)
        assert len(seen) == 1 and "Floor supervisor exam: 3 items, 15 minutes. Attempt 1 of 3" in seen[0]
        assert "The class server must record your start before the items open" in seen[0]
        assert len(warned) == 1, warned
        assert warned[0].startswith("The class server must record your start before the items open: ")
        assert "\n" not in warned[0] and "Traceback" not in warned[0]
        assert page.runner is None and w.sidebar.isEnabled()
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        assert server_rows(klass, "exam_sitting_steps") == []

        conn.address = reachable  # the connection is back: the proctor starts again, same code
        start_dialog(seen)
        assert page.certification.sit(path, code=code)
        assert page.runner is not None and page.runner.isVisible() and len(warned) == 1
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start"]
        assert len(page.runner.scenarios) == 3
        page.abandon()
        qtbot.waitUntil(lambda: page.runner is None, timeout=10_000)
    finally:
        w.close()
        store.close()
