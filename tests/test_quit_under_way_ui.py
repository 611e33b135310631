"""Quitting (Ctrl+Q, File › Quit, the window's close box) with a round under way: the round is
neither graded nor kept, nor offered at the next start, so the window asks first, Cancel the
default and Escape cancelling; a round with nothing of the trainee's in it quits unasked."""

from __future__ import annotations

import pytest

from tests.support.practice_screen import do_next
from tests.support.screens import window_for
from trainer.progress import Store
from ui.qt import QApplication, QMessageBox, Qt, QTimer

SUPERVISED = "SELECT count(*) AS n FROM supervised_rounds"


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        store.add_trainee("Rosa Diaz")
        yield store


def shown(qtbot, store):
    """Rosa's window, shown and active: its keys reach its menus."""
    w, _ = window_for(qtbot, store, store.trainees()[0])
    qtbot.waitExposed(w)
    active(qtbot, w)
    return w


def active(qtbot, w) -> None:
    """`w` the active window (again, once a box over it has closed), as a user's click makes it."""
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)


def ctrl_q(qtbot, window, how: str, during=None, before=None) -> list[tuple[str, str, str]]:
    """Ctrl+Q pressed on `window`; the question it asks answered `how` ("Escape", or a button's
    label), or, when nothing is asked, nothing done. What was asked: the box's text, informative
    text and default button, one for each box; `during` is called while the box is open, `before`
    just before the keys are pressed."""
    asked = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            return
        asked.append((box.text(), box.informativeText(), box.defaultButton().text()))
        if during is not None:
            during()
        if how == "Escape":
            qtbot.keyClick(box, Qt.Key.Key_Escape)
        else:
            next(b for b in box.buttons() if b.text() == how).click()

    active(qtbot, window)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(answer)
    timer.start(50)  # a box is open by then, or none will be
    if before is not None:
        before()
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    timer.stop()  # none was asked: its answer is not left to answer the next test's question
    return asked


def test_a_practice_round_under_way_is_asked_for_and_kept_on_cancel(qtbot, store):
    w = shown(qtbot, store)
    qtbot.keyClick(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # File › Deal a round
    screen = w.pages["practice"].screen
    do_next(qtbot, screen, keyboard=True)
    do_next(qtbot, screen, keyboard=True)
    round_, log, due = screen.round, list(screen.round.log), screen.round.next_expected()
    question = ("A practice round is under way: quit and leave it ungraded?",
                "Nothing of it is kept, and the next start does not offer it again.", "Cancel")
    assert ctrl_q(qtbot, w, "Cancel") == [question]
    assert w.isVisible()
    assert screen.round is round_ and screen.round.log == log and screen.round.next_expected() == due
    assert screen.clock.isActive()  # its clock still running
    assert ctrl_q(qtbot, w, "Escape") == [question] and w.isVisible()
    do_next(qtbot, screen)  # the round goes on where it was
    assert len(screen.round.log) > len(log)
    assert ctrl_q(qtbot, w, "Quit") == [question]
    assert not w.isVisible()
    assert store.attempts() == []  # what the question said: nothing of it kept


def test_a_round_untouched_or_finished_quits_unasked(qtbot, store):
    """Dealt and not acted in, nothing of the trainee's is lost; finished, it is recorded."""
    w = shown(qtbot, store)
    page = w.show_screen("practice")
    page.deal(seed=5, game="props-and-hops")
    assert not page.under_way()
    assert ctrl_q(qtbot, w, "Cancel") == [] and not w.isVisible()

    w = shown(qtbot, store)
    page = w.show_screen("practice")
    page.deal(seed=5, game="props-and-hops")
    do_next(qtbot, page.screen)
    page.screen.finish()
    assert ctrl_q(qtbot, w, "Cancel") == [] and not w.isVisible()
    assert len(store.attempts()) == 1


def test_a_supervised_round_under_way_is_asked_for(qtbot, store):
    w = shown(qtbot, store)
    page = w.show_screen("supervise")
    page.difficulty.setValue(1)
    page.pace.setCurrentIndex(0)  # step by step: the round waits for Next
    page.deal(seed=3, game="props-and-hops")
    assert not page.under_way()  # nothing watched yet: it would quit unasked
    screen = page.screen
    qtbot.keyClick(screen, Qt.Key.Key_N)  # the dealer's next action
    assert screen.pos == 1
    assert ctrl_q(qtbot, w, "Cancel") == [(
        "A round you supervise is under way: quit and leave it ungraded?",
        "Nothing of it is kept, and the next start does not offer it again.", "Cancel")]
    assert w.isVisible() and screen.pos == 1 and screen.in_progress()
    assert ctrl_q(qtbot, w, "Quit") and not w.isVisible()
    assert store.query(SUPERVISED)[0]["n"] == 0


def test_the_dealer_waits_while_the_question_is_up(qtbot, store):
    """A paced round to supervise: the dealer's next action is held while "Quit?" is asked (a
    fault could go by behind the box, unflaggable), and comes after Cancel with the time it had
    left."""
    w = shown(qtbot, store)
    page = w.show_screen("supervise")
    page.difficulty.setValue(3)  # the dealer keeps the pace
    page.pace.setCurrentIndex(3)  # fast, 1.5 s
    page.deal(seed=3, game="props-and-hops")
    screen = page.screen
    qtbot.waitUntil(lambda: screen.pos >= 1, timeout=5000)
    held, left = [], []
    ctrl_q(qtbot, w, "Cancel", during=lambda: held.append((screen.timer.isActive(), screen.pos)),
           before=lambda: left.append(screen.timer.remainingTime()))
    assert held == [(False, screen.pos)] and w.isVisible()
    # what it had left before the question, not the whole pace again
    assert screen.timer.isActive() and 0 < screen.timer.remainingTime() <= left[0] <= 1500
    at = screen.pos
    qtbot.waitUntil(lambda: screen.pos == at + 1, timeout=5000)  # and the dealer goes on

