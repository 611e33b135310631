"""Taking an exam: the form's scenarios one after another in the practice screen's exam mode
(no feedback, no hints), and its supervise items on the supervise screen, sealed (the dealer at
the item's pace, the flags handed in with no score and no debrief), under one visible countdown:
the session's own clock (trainer.exams.session.exam_clock), read through `remaining`, so that
what the trainee sees and what the record says cannot drift apart. Time running out ends the
exam; so does leaving it. The page that owns the runner records each part as soon as it is done.

An exam sat online in a class (trainer.exams.session, `ExamSession.send`) is `hold`-en after an
answer the class server has not acknowledged: the runner tries again, after pauses that double
up to RETRY_MS (trainer.classes `pauses`), and opens the next part (or, at the end, the result)
only once the server has it. While the server cannot be reached, or refuses for a passing reason
and keeps nothing (a dropped connection, a serialization failure, a step it could not record
now), the runner shows a calm line in place of the table for up to `grace` seconds (the class's
allowance for delivery, trainer.exams DELIVERY_GRACE); only after that, or at once when the
server refuses for good (this login refused), does it say that the answer has not reached the
class and that the proctor should be told. It goes on trying either way. The countdown runs on
meanwhile: the exam's clock does not stop for an outage.
Each try reaches the class server on a thread of its own (`deliver`), never on the GUI thread:
a server that accepts and never answers holds the try (up to the class connection's bound on
each wait) and not the window, whose countdown moves every second throughout."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from html import escape

from trainer.classes import pauses
from trainer.exams import DELIVERY_GRACE, Ending
from trainer.progress import Mode
from ui.practice.screen import PracticeScreen
from ui.qt import QHBoxLayout, QLabel, QMessageBox, QPushButton, QTimer, QVBoxLayout, QWidget, Signal

RETRY_MS = 3000  # the longest pause before a held exam asks the class server again
#: the pause before the first try again (doubling up to RETRY_MS)
FIRST_RETRY_MS = 500
#: how long after an answer the class server has to acknowledge it before the runner says it waits
SHOW_HELD_MS = 1000
#: how long a part just done stays on screen before the next opens: a moment to see it is done
PART_DONE_MS = 600


class ExamRunner(QWidget):
    item_finished = Signal(int, object, object)  # index, Result, PracticeRound
    flags_given = Signal(int, object)  # a supervise item's index, the supervisor's flags
    over = Signal(object)  # how it ended: an Ending
    delivered = Signal(object)  # a try at the class server ended (on its thread): what it said

    def __init__(self, title: str, scenarios: list, remaining: Callable[[], float],
                 sitting: bool = False, rounds: list | None = None, parent=None):
        """`rounds`: each item's supervised round to watch (None: a dealer's item, worked)."""
        super().__init__(parent)
        self.scenarios = scenarios
        self.rounds = rounds or [None] * len(scenarios)
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
        self.held = QLabel("")
        self.held.setObjectName("examWaiting")
        self.held.setWordWrap(True)
        self.held.setContentsMargins(24, 24, 24, 24)
        self.held.hide()
        layout.addWidget(self.held)
        self._send: Callable[[], bool] | None = None  # while held: try the class server again
        self._problem: Callable[[], str | None] = lambda: None
        self._then: Callable[[], None] | None = None
        self._deliver: Callable[[], object] | None = None  # the try itself, run on a thread
        self._noted: Callable[[object], None] = lambda said: None  # what a try said, on the GUI thread
        self._delivering = False  # a try is under way on its thread
        #: seconds the runner tries an answer again, showing a calm line, before it says the answer
        #: has not reached the class
        self.grace = DELIVERY_GRACE
        self._since = 0.0  # when the hold began (time.monotonic)
        self._failed_for_good = False  # the last try was refused for a reason that does not pass
        self._pauses = pauses((FIRST_RETRY_MS / 1000, RETRY_MS / 1000))
        self.delivered.connect(self._tried)
        self._due = False  # the part is done and its moment shown: the next opens when not held
        self.retry = QTimer(self)
        self.retry.setInterval(RETRY_MS)
        self.retry.timeout.connect(self.try_again)
        self.show_held = QTimer(self)  # an answer not acknowledged soon: say that the exam waits
        self.show_held.setSingleShot(True)
        self.show_held.setInterval(SHOW_HELD_MS)
        self.show_held.timeout.connect(self._show_held)
        self.screen = PracticeScreen()
        self.screen.finished.connect(self._item_done)
        layout.addWidget(self.screen, 1)
        self.layout_ = layout
        self._watch = None  # the supervise screen, built with the first supervise item
        self.timer = QTimer(self)
        self.timer.setInterval(250)
        self.timer.timeout.connect(self.tick)

    @property
    def watch(self):
        """The supervise screen, sealed, on which a supervise item is watched."""
        if self._watch is None:
            from ui.supervise.screen import SuperviseScreen

            self._watch = SuperviseScreen()
            self._watch.handed_in.connect(self._flags_done)
            self._watch.hide()
            self.layout_.addWidget(self._watch, 1)
        return self._watch

    def current(self) -> QWidget:
        """The screen the item in hand is on: the supervise screen's, or the practice screen."""
        supervised = 0 <= self.index < len(self.rounds) and self.rounds[self.index] is not None
        return self.watch if supervised else self.screen

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

    def hold(self, send: Callable[[], bool], problem: Callable[[], str | None],
             then: Callable[[], None] | None = None, deliver: Callable[[], object] | None = None,
             noted: Callable[[object], None] | None = None) -> None:
        """The class server has not acknowledged the last answer: try `deliver` (on a thread of
        its own; `noted` gets what it said, on the GUI thread) now and after each pause (doubling
        up to RETRY_MS) until `send` (quick: what the file says) finds it acknowledged; then go on
        (the next part, or `then`). Unless acknowledged within SHOW_HELD_MS, say so in place of
        the table: calmly for `grace` seconds while what stops it may pass."""
        self._send, self._problem, self._then = send, problem, then
        self._deliver, self._noted = deliver, noted or (lambda said: None)
        self._since, self._failed_for_good = time.monotonic(), False
        self._pauses = pauses((FIRST_RETRY_MS / 1000, RETRY_MS / 1000))
        self.retry.start(RETRY_MS)
        self.show_held.start()
        self.try_again()

    def _show_held(self) -> None:
        if self._send is None or self.held.isVisible():
            return
        self.current().hide()
        self.held.show()
        self._say()

    def try_again(self) -> None:
        if not self._check() or self._deliver is None or self._delivering:
            return
        self._delivering = True
        threading.Thread(target=self._try, args=(self._deliver,), name="exam-deliver", daemon=True).start()

    def _try(self, deliver: Callable[[], object]) -> None:
        """On the try's thread: `deliver`, and what it said handed to the GUI thread."""
        said = deliver()
        with contextlib.suppress(RuntimeError):  # the runner is gone (the window closed meanwhile)
            self.delivered.emit(said)

    def _tried(self, said: object) -> None:
        self._delivering = False
        if self._send is not None:
            self._failed_for_good = said is not None and not getattr(said, "passing", False)
            self._noted(said)
            if self._check():
                if said is None:  # sent, and more waits (the end, after the last answer)
                    self.try_again()
                else:  # the next try after a pause, longer each time (the timer's, at the latest)
                    self.retry.start(round(next(self._pauses) * 1000))

    @property
    def undelivered(self) -> bool:
        """Held past the grace, or refused for a reason that does not pass: the trainee is told
        that the answer has not reached the class."""
        return self._failed_for_good or time.monotonic() - self._since >= self.grace

    def _check(self) -> bool:
        """Whether the runner still waits (True), after a look at whether the server has it."""
        if self._send is None:
            return False
        if not self._send():
            if self.held.isVisible():
                self._say()
            return True
        then = self._then
        self._send, self._then, self._deliver = None, None, None
        self.retry.stop()
        self.show_held.stop()
        if then is not None:
            then()  # the exam has ended: the page shows its result
            return False
        self.held.hide()
        self.current().show()
        if self._due:
            self._next()
        return False

    def _say(self) -> None:
        done = f"part {self.index + 1}" if self.ended is None else "the end of the exam"
        if not self.undelivered:
            self.held.setText(
                f"<h3>Sending your answer</h3><p>Your answer to {escape(done)} is saved on this "
                "workstation and on its way to the class server. "
                + ("The next part opens" if self.ended is None else "Your result is shown")
                + " as soon as the server has it.</p>")
            return
        why = self._problem()
        self.held.setText(
            f"<h3>Waiting for the class server</h3><p>Your answer to {escape(done)} is saved on this "
            "workstation, but the class server has not acknowledged it yet. "
            + ("The next part opens" if self.ended is None else "Your result is shown")
            + " as soon as it has; this screen tries again every few seconds.</p>"
            "<p>The exam's clock keeps running while you wait: time lost to an outage is not given "
            "back here. Tell the proctor now: the instructor sees how many answers reached the class "
            "and decides about the sitting.</p>"
            + (f"<p><i>{escape(why)}</i></p>" if why else ""))

    def _advance(self) -> None:
        self._due = True
        if self._send is None:  # held: the next part opens once the class server has the answer
            self._next()

    def _next(self) -> None:
        self._due = False
        if self.ended is not None:
            return
        self.index += 1
        if self.index >= len(self.scenarios):
            self.end(Ending.FINISHED)
            return
        self.part.setText(f"Part {self.index + 1} of {len(self.scenarios)}")
        rnd = self.rounds[self.index]
        if rnd is not None:  # watched at the item's own pace, sealed
            self.screen.stop()
            self.screen.hide()
            self.watch.show()
            self.watch.start(rnd, paced=True, sealed=True)
        else:
            if self._watch is not None:
                self._watch.stop()
                self._watch.hide()
            self.screen.show()
            self.screen.start(self.scenarios[self.index], mode=Mode.EXAM)
        self.tick()

    def _item_done(self, result, round_) -> None:
        if self.ended is not None:
            return
        self.item_finished.emit(self.index, result, round_)
        QTimer.singleShot(PART_DONE_MS, self._advance)

    def _flags_done(self, flags) -> None:
        if self.ended is not None:
            return
        self.flags_given.emit(self.index, flags)
        QTimer.singleShot(PART_DONE_MS, self._advance)

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
        self.retry.stop()
        self.show_held.stop()
        self._send = None
        self.screen.stop()
        if self._watch is not None:
            self._watch.stop()
        self.over.emit(how)
