"""The window's own keys while an exam runs: quitting asks about a practice round under way
before the exam's own question (a Cancel there leaves the exam as it was), and F5 still presents
the exam's table (an exam locks the window's other shortcuts)."""

from __future__ import annotations

import pytest

from tests.support.practice_screen import do_next
from tests.support.screens import answer, quicken_runner, window
from trainer.exams import add_bundled_forms, installation_key, results
from trainer.progress import Store
from ui.qt import QApplication, QMessageBox, Qt, QTimer


@pytest.fixture
def school(tmp_path, monkeypatch):
    quicken_runner(monkeypatch)
    store = Store.open(tmp_path / "school.db")
    rosa = store.add_trainee("Rosa Diaz")
    key = installation_key(tmp_path / "installation.key")
    add_bundled_forms(store)
    yield store, key, rosa
    store.close()


def exam_started(qtbot, w):
    page = w.show_screen("exam")
    page.available.selectRow(0)
    answer({"button": "Yes"})
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert page.runner is not None and page.runner.ended is None
    return page


def test_cancelling_the_quit_over_an_exam_leaves_the_exam_running(qtbot, school):
    store, key, rosa = school
    w = window(qtbot, store, key, rosa)
    practice = w.show_screen("practice")
    practice.deal(seed=5, game="props-and-hops")
    do_next(qtbot, practice.screen)
    assert practice.under_way()
    page = exam_started(qtbot, w)
    asked = []

    def cancel():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, cancel)
            return
        asked.append(box.text())
        box.reject()  # Cancel, or No to a question that should not be asked

    QTimer.singleShot(20, cancel)
    assert not w.close()
    assert asked == ["A practice round is under way: quit and leave it ungraded?"]
    assert page.runner.ended is None  # the exam not left, nor its sitting spent
    assert [r.status.value for r in results(store)] != ["abandoned"]
    answer({"button": "Yes"})
    page.runner.ask_leave()


def test_f5_in_a_running_exam_still_presents_its_table(qtbot, school):
    from ui.shell.presenting import ONE_SCREEN

    store, key, rosa = school
    w = window(qtbot, store, key, rosa)
    page = exam_started(qtbot, w)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    said = []
    answer({"button": "OK"}, seen=said)
    qtbot.keyClick(page.runner.screen, Qt.Key.Key_F5)  # the suite's Qt has one screen: it says so
    qtbot.waitUntil(lambda: said == [ONE_SCREEN])
    answer({"button": "Yes"})
    page.runner.ask_leave()
