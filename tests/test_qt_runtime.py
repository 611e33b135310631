"""The Qt binding the app runs on must not leak references to None.

PySide6 6.12.0 on Python 3.11 took a reference from None on every Qt call that returns nothing,
and the interpreter aborted once the count ran out ("none_dealloc") — a busy table makes
thousands of such calls a frame. pyproject.toml keeps to a release without the fault; this test
catches a binding that brings it back.
"""

from __future__ import annotations

import sys


def test_qt_calls_do_not_drain_none(qtbot):
    from ui.qt import QGraphicsRectItem, QLabel

    item, label = QGraphicsRectItem(), QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(20_000):
        item.setZValue(1.0)
        label.setText("x")
    assert sys.getrefcount(None) >= before - 100
