"""An exam with no sitting, on a workstation in a class, for a trainee with a login of their own
(trainer.exams.classledger, "Whose attempts"), through the app on a real PostgreSQL:
the Exam screen asks for the trainee's class password in a masked field, asks again when the
server refuses it, starts nothing when it is cancelled, and counts the start with the trainee's
own login."""

from __future__ import annotations

import pytest

from tests.support.class_server import server_rows
from tests.support.exams import form
from tests.support.screens import answer, window
from trainer.classes.server.logins import class_login
from trainer.exams import add_form, give_to_class, installation_key
from trainer.progress import Store
from ui.classroom.membership import classroom_of


@pytest.fixture
def sam_in_class(qtbot, tmp_path, klass, joined):
    """Sam's workstation, joined to the class with the shared login; the exam given to the class
    and Sam given a login of his own by the instructor."""
    exam = form()
    give_to_class(joined("instructor"), exam)
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Sam Lee", "sam-password")
    store = Store.open(tmp_path / "ws.db")
    sam = store.add_trainee("Sam Lee")
    add_form(store, exam)
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), sam)
    classroom_of(w).join(klass.address("workstation"))
    page = w.show_screen("exam")
    names = [page.available.item(r, 0).text() for r in range(page.available.rowCount())]
    page.available.selectRow(names.index(exam.name))
    yield w, page, store
    w.close()
    store.close()


def started_here(store) -> int:
    return store.query("SELECT count(*) AS n FROM exam_results")[0]["n"]


def test_the_exam_starts_with_the_trainees_class_password(qtbot, klass, sam_in_class):
    from ui.qt import QLineEdit, Qt

    w, page, store = sam_in_class
    asked = []
    answer({"button": "Yes"}, {"text": "not-his-password"}, {"text": "sam-password"}, asked=asked)
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert page.runner is not None and not w.sidebar.isEnabled(), "the exam is under way"
    assert len(asked) == 2
    assert "Sam Lee has a login of their own in this class" in asked[0][0]
    assert "refuses that password for Sam Lee" in asked[1][0]
    assert all(mode == QLineEdit.EchoMode.Password for _, mode in asked), "the password is masked"
    assert [(r[1], r[3]) for r in server_rows(klass, "exam_starts")] == [("Sam Lee", 1)]
    assert started_here(store) == 1
    page.abandon()


def test_no_password_starts_nothing(qtbot, klass, sam_in_class):
    from ui.qt import Qt

    w, page, store = sam_in_class
    answer({"button": "Yes"}, {"text": ""})
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert page.runner is None and w.sidebar.isEnabled()
    assert server_rows(klass, "exam_starts") == [] and started_here(store) == 0
