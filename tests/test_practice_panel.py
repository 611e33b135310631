"""The practice screen's feedback panel after an exam on a projector's width: the column a keypad
stood in during the exam is given back, and the next round shows the panel (the hint and the
feedback) at its width again, not collapsed out of sight beside the table."""

from __future__ import annotations

import pytest

from trainer.progress import Mode


@pytest.fixture
def wide_screen(qtbot):
    """A practice screen on its own, at a projector's width."""
    from tests.support.qt import shown_alone
    from ui.practice.screen import PracticeScreen

    screen = PracticeScreen()
    screen.setMinimumWidth(1700)  # the offscreen screen is small: the width a projector gives
    yield from shown_alone(qtbot, screen, 820)


@pytest.mark.qt
def test_the_feedback_panel_comes_back_after_an_exams_keypad(qtbot, wide_screen):
    from trainer import Do, load_library

    screen = wide_screen
    scenario = load_library().by_id("ph-no-roll-calls")
    screen.start(scenario)
    qtbot.waitUntil(lambda: screen.side.width() >= 330 and screen.split.sizes()[1] >= 330)
    screen.start(scenario, Mode.EXAM)
    assert not screen.side.isVisible()
    screen.cycle(1)
    screen.act(Do.PAY)
    qtbot.waitUntil(lambda: screen.dialog is not None and screen.room.isVisible())
    screen.dialog.reject()
    qtbot.waitUntil(lambda: not screen.room.isVisible())
    screen.start(scenario)  # a practice round again: the panel is back
    qtbot.waitUntil(lambda: screen.side.isVisible())
    qtbot.wait(20)
    panel = screen.side.geometry()
    assert screen.split.sizes()[1] >= 330, f"the panel is collapsed: {screen.split.sizes()}"
    assert screen.split.rect().contains(panel), f"the panel {panel.getRect()} is out of sight"
