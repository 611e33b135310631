"""The practice screen's feedback panel (ui.practice.screen.FeedbackPanel): what each action's
feedback shows, written one action after the other."""

from __future__ import annotations


class _Feedback:
    """What the panel reads of a trainer.Feedback."""

    def __init__(self, n: int):
        self.ok = n % 3 != 0
        self.message = f"Right: collect the losing wager of seat {n}" if self.ok else f"Pay seat {n} first"
        self.expected = None if self.ok else type("E", (), {"label": f"Pay seat {n} Field"})()
        self.cite = "58 Pa. Code § 668a.3(g)"
        self.quote = ("The dealer shall collect all losing wagers before paying any winning "
                      "wager. ") * (1 + n % 2)


def test_feedback_written_action_by_action_reads_as_if_written_at_once(qtbot):
    """Fifteen actions' feedback, one after the other, past the point where the panel scrolls:
    after each, the panel is drawn pixel for pixel as Qt's own text browser draws the same
    document set in one go, its scroll bar shown exactly when that one's is. The panel holds its
    scroll bar while it writes its text again (half of an action's cost): this proves the bar
    still comes as the text needs, and goes with it when a new round clears the panel, and
    nothing else moves."""
    from ui.practice.screen import FeedbackPanel
    from ui.qt import QTextBrowser

    def shown(widget):
        qtbot.addWidget(widget)
        widget.resize(420, 520)
        widget.show()
        qtbot.waitExposed(widget)
        return widget

    panel = shown(FeedbackPanel())

    def as_at_once(when: str) -> bool:
        once = QTextBrowser()
        once.setObjectName(panel.objectName())
        once.setHtml(panel.toHtml())
        shown(once)
        bar = panel.verticalScrollBar().isVisible()
        assert bar == once.verticalScrollBar().isVisible(), f"{when}: the scroll bar"
        assert panel.grab().toImage() == once.grab().toImage(), when
        once.close()
        return bar

    scrolled = []
    for n in range(1, 16):
        panel.add(_Feedback(n))
        scrolled.append(as_at_once(f"after {n} actions"))
    assert not scrolled[0] and scrolled[-1], "the panel never came to scroll: nothing was proved"
    panel.entries.clear()  # a new round, as the practice screen starts one (ui.practice.screen)
    panel.setHtml("")
    panel.note("Nothing was placed.")
    assert not as_at_once("a new round's first note"), "the scroll bar stayed after the text went"
