"""The Exam screen works dealers' rounds only: a form with supervise items is not started there
(nothing written, no attempt counted), and it says why in one line, through the real widgets."""

from __future__ import annotations

from tests.support.screens import answer, window
from trainer.exams import Ending, add_form, installation_key
from trainer.exams.examples import supervisor_form
from trainer.progress import Store
from ui.qt import Qt


def test_an_exam_with_supervise_items_is_not_started_on_the_exam_screen(qtbot, tmp_path):
    with Store.open(tmp_path / "school.db") as store:
        rosa = store.add_trainee("Rosa Diaz")
        exam = supervisor_form()
        add_form(store, exam)
        trainee = window(qtbot, store, installation_key(tmp_path / "installation.key"), rosa)
        page = trainee.show_screen("exam")
        names = [page.available.item(r, 0).text() for r in range(page.available.rowCount())]
        page.available.selectRow(names.index(exam.name))
        seen: list[str] = []
        answer({"button": "Yes"}, {"button": "OK"}, seen=seen)
        qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
        if page.runner is not None:  # started all the same: leave it, so that the test ends
            page.runner.end(Ending.LEFT)
        assert page.runner is None and len(seen) == 2, "the exam started"
        said = seen[1]
        assert said.startswith("This exam has supervise items") and "nothing was started" in said
        assert "\n" not in said and "Traceback" not in said
        assert trainee.sidebar.isEnabled(), "the window is not locked to it"
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        trainee.close()
