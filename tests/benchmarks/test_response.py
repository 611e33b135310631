"""Benchmark: a click on an action shows its feedback within a frame (16 ms) at the median.

    make bench      (or: pytest tests/benchmarks/test_response.py --benchmark-only)

Each round is set up afresh (not timed); the timed part is the trainee's click on "Collect" with
a losing wager selected, through the grading, the table redraw and the feedback panel. The
baseline, timed in the same run, is a bare button whose click sets a label's text.
"""

from __future__ import annotations

import pytest

from tests.support.paths import ROOT
from trainer.library import load_library
from trainer.procedure import Automation, Do

LIBRARY = load_library(ROOT / "scenarios")


@pytest.fixture
def screen(practice_screen):
    return practice_screen


def test_feedback_after_a_click(benchmark, qtbot, screen):
    from ui.qt import QApplication, Qt

    scenario = LIBRARY.by_id("ph-busy-six-seats")

    def setup():
        screen.start(scenario, automation=Automation.SETTLEMENT)
        e = screen.round.next_expected()
        screen.select(e.seat, e.bet)
        return (), {}

    def click():
        qtbot.mouseClick(screen.actions.buttons[Do.COLLECT], Qt.MouseButton.LeftButton)
        QApplication.processEvents()
        assert "Right" in screen.feedback.entries[0]

    benchmark.pedantic(click, setup=setup, rounds=60, iterations=1)


def test_baseline_bare_button(benchmark, qtbot):
    from ui.qt import QApplication, QLabel, QPushButton, Qt, QVBoxLayout, QWidget

    w = QWidget()
    layout = QVBoxLayout(w)
    button, label = QPushButton("Collect"), QLabel("")
    layout.addWidget(button)
    layout.addWidget(label)
    button.clicked.connect(lambda: label.setText("Right"))
    qtbot.addWidget(w)
    w.show()

    def click():
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        QApplication.processEvents()

    benchmark.pedantic(click, rounds=60, iterations=1)
    w.close()
