"""What every Qt test leaves behind (tests/support/qt.py): no window open, no timer running, and
no window it made, shown or hidden; a window a wider fixture keeps (KEPT) stays."""

from __future__ import annotations

from shiboken6 import isValid

from tests.support.qt import KEPT, tidy, windows


def test_a_window_the_test_closed_without_deleting_it_is_deleted(qtbot):
    from ui.qt import QLabel, QVBoxLayout, QWidget

    before = QWidget()  # a wider fixture's window, made before the test
    from_before = windows()
    closed = QWidget()  # as the app's window: closed, and still held (by its signals, there)
    QVBoxLayout(closed).addWidget(QLabel("a label inside", closed))
    closed.show()
    qtbot.waitExposed(closed)
    closed.close()
    kept = QWidget()
    kept.setProperty(KEPT, True)
    open_ = QWidget()
    open_.show()

    left, timers = tidy(from_before)

    assert left == [open_] and not timers, "the window left open is named"
    assert not isValid(closed) and not isValid(open_), "the windows the test made are deleted"
    assert isValid(before) and isValid(kept), "a wider fixture's windows stay"
    for w in (before, kept):
        w.deleteLater()
