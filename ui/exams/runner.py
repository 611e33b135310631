"""Taking an exam: the form's scenarios one after another in the practice screen's exam mode
(no feedback, no hints), under one visible countdown: the session's own clock
(trainer.exams.session.exam_clock), read through `remaining`, so that what the trainee sees and
what the record says cannot drift apart. Time running out ends the exam; so does leaving it. The
page that owns the runner records each part as soon as it is done."""

from __future__ import annotations

from collections.abc import Callable

from trainer.exams import Ending
from trainer.progress import Mode
from ui.practice.screen import PracticeScreen
from ui.qt import QHBoxLayout, QLabel, QMessageBox, QPushButton, QTimer, QVBoxLayout, QWidget, Signal


class ExamRunner(QWidget):
    item_finished = Signal(int, object, object)  # index, Result, PracticeRound
    over = Signal(object)  # how it ended: an Ending

    def __init__(self, title: str, scenarios: list, remaining: Callable[[], float],
                 sitting: bool = False, parent=None):
        super().__init__(parent)
        self.scenarios = scenarios
        self.sitting = sitting  # sat under a sitting an instructor issued: good for one attempt
        self._remaining = remaining  # seconds left, by the exam session's clock
        self.index = -1
        self.ended: Ending | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 8, 12, 0)
        self.heading = QLabel(f"<b>Exam:</b> {title}")
        self.part = QLabel("")
        self.countdown = QLabel("")
        self.countdown.setObjectName("timer")
        self.leave = QPushButton("Leave exam")
        self.leave.setToolTip("Ends the attempt; it is recorded as left")
        self.leave.clicked.connect(self.ask_leave)
        for w in (self.heading, self.part):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.countdown)
        bar.addWidget(self.leave)
        layout.addLayout(bar)
        self.screen = PracticeScreen()
        self.screen.finished.connect(self._item_done)
        layout.addWidget(self.screen, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(250)
        self.timer.timeout.connect(self.tick)

    @property
    def remaining(self) -> float:
        return max(0.0, self._remaining())

    def start(self) -> None:
        self.timer.start()
        self._next()

    def tick(self) -> None:
        left = self.remaining
        self.countdown.setText(f"{int(left) // 60}:{int(left) % 60:02d} left")
        self.countdown.setObjectName("timerLate" if left < 60 else "timer")
        self.countdown.style().polish(self.countdown)
        if left <= 0 and self.ended is None:
            self.end(Ending.TIME_UP)

    def _next(self) -> None:
        self.index += 1
        if self.index >= len(self.scenarios):
            self.end(Ending.FINISHED)
            return
        self.part.setText(f"Part {self.index + 1} of {len(self.scenarios)}")
        self.screen.start(self.scenarios[self.index], mode=Mode.EXAM)
        self.tick()

    def _item_done(self, result, round_) -> None:
        if self.ended is not None:
            return
        self.item_finished.emit(self.index, result, round_)
        QTimer.singleShot(600, self._next)  # a moment to see that the part is done

    def ask_leave(self) -> bool:
        """Ask before ending the attempt as left (Leave exam, closing the window); True when it
        ended."""
        if self.ended is not None:
            return True
        spent = (" The sitting is spent with it: it cannot be sat again, and the attempt goes to "
                 "your instructor as left." if self.sitting else "")
        answer = QMessageBox.question(self, "Leave the exam?", "Leaving ends this attempt: it is "
                                      f"recorded as left, with the parts you finished.{spent} Leave?")
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.end(Ending.LEFT)
        return True

    def end(self, how: Ending) -> None:
        if self.ended is not None:
            return
        self.ended = how
        self.timer.stop()
        self.screen.stop()
        self.over.emit(how)
