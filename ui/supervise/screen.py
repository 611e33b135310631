"""The supervise screen: the trainer deals a round and works it as the dealer on the table, one
action at a time, faults and all (trainer.playback); the supervisor flags what is wrong (F or
Space, or the Flag button, or a click on a wager), and at the end sees the score and the debrief.

Paced, the dealer acts every `pace` seconds and a flag pauses the dealer; stepped (at the lower
difficulties), the dealer acts when the supervisor presses Next (N or →). A flag's time is the
action's time and how long it has been shown (trainer.playback.flag_time), from `clock`.

Sealed (a supervise item of an exam, ui.exams.runner), Finish hands the flags in (`handed_in`)
with no score and no debrief: what the dealer did wrong is shown only once the exam has ended.
"""

from __future__ import annotations

import html
import time
from dataclasses import replace

from trainer import Flag, playback, score_flags
from ui.qt import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    QStackedWidget,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ui.supervise.debrief import Debrief, clock
from ui.supervise.flagging import FlagPanel

WATCH, FLAG, DEBRIEF = range(3)  # the side panel's pages


class SuperviseScreen(QWidget):
    """Watch a round and flag the dealer's mistakes."""

    finished = Signal(object, object)  # the SupervisedRound, its Score
    handed_in = Signal(object)  # sealed: the supervisor's flags (a list of Flag), unscored

    def __init__(self, parent=None, clock=time.monotonic):
        super().__init__(parent)
        self.clock = clock
        self.round = None
        self.frames: list = []
        self.pos = 0
        self.flags: list[Flag] = []
        self.paced = True
        self.sealed = False  # an exam's item: no score, no debrief (`handed_in`)
        self.handed = False  # sealed, and the flags handed in
        self.paused = False  # paced, stopped with P (a flag stops the dealer only while it is made)
        self.shown_at = 0.0  # when the action shown was shown (`clock`)
        self._paused_at = 0.0  # when the flag stopped the dealer
        self.score = None
        self.view = None
        from ui.speech.voice import Stickman

        self.stickman = Stickman(self)  # View › The stickman's voice: the dealer's calls aloud
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        top = QHBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("pageTitle")
        self.title.setWordWrap(True)
        self.status = QLabel("")
        self.status.setObjectName("subtitle")
        top.addWidget(self.title, 1)
        top.addWidget(self.status)
        layout.addLayout(top)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.table_host = QWidget()
        self.table_layout = QVBoxLayout(self.table_host)
        self.table_layout.setContentsMargins(0, 0, 0, 0)
        self.split.addWidget(self.table_host)
        self.side = QStackedWidget()
        self.side.setMinimumWidth(340)
        watch = QWidget()
        column = QVBoxLayout(watch)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(QLabel("<b>The dealer</b>"))
        self.says = QLabel("")
        self.says.setObjectName("dealerSays")
        self.says.setWordWrap(True)
        self.says.setAccessibleName("What the dealer does now")
        column.addWidget(self.says)
        self.history = QListWidget()
        self.history.setAccessibleName("What the dealer has done")
        self.history.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.history.setWordWrap(True)
        column.addWidget(self.history, 3)
        column.addWidget(QLabel("<b>Your flags</b>"))
        self.flag_list = QListWidget()
        self.flag_list.setAccessibleName("Your flags")
        self.flag_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.flag_list.setWordWrap(True)
        column.addWidget(self.flag_list, 1)
        self.side.addWidget(watch)
        self.flagging = FlagPanel()
        self.flagging.flagged.connect(self._flagged)
        self.flagging.cancelled.connect(self.resume)
        self.flagging.targets.currentRowChanged.connect(lambda _: self._draw())
        self.side.addWidget(self.flagging)
        self.debrief = Debrief()
        self.debrief.show_at.connect(self.show_frame)
        self.side.addWidget(self.debrief)
        self.split.addWidget(self.side)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([1000, 380])
        layout.addWidget(self.split, 1)
        bar = QHBoxLayout()
        self.play_button = QPushButton("Pause (P)")
        self.play_button.clicked.connect(self.toggle)
        self.next_button = QPushButton("Next (N)")
        self.next_button.setToolTip("The dealer's next action — N or →")
        self.next_button.clicked.connect(self.step)
        self.flag_button = QPushButton("Flag (F)")
        self.flag_button.setObjectName("primary")
        self.flag_button.setToolTip("Stop the dealer and flag what is wrong — F or Space")
        self.flag_button.clicked.connect(self.begin_flag)
        self.end_button = QPushButton("Finish (Ctrl+Enter)")
        self.end_button.clicked.connect(self.finish)
        self.buttons = (self.play_button, self.next_button, self.flag_button, self.end_button)
        for b in self.buttons:
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            bar.addWidget(b)
        self.after = QLabel("")  # under the debrief: how to watch another round
        bar.addWidget(self.after)
        bar.addStretch(1)
        layout.addLayout(bar)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        # to the millisecond: a coarse timer may fire 5% late, and a pause (a question asked,
        # ui.supervise.page.SupervisePage.held) would add its slack again
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def keyPressEvent(self, event) -> None:
        """The screen's keys, wherever the focus is in it: F or Space flag, P pauses, N or →
        the next action when stepping, Ctrl+Enter finishes."""
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if ctrl and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
        elif ctrl or mods & Qt.KeyboardModifier.AltModifier:
            super().keyPressEvent(event)
            return
        elif key in (Qt.Key.Key_F, Qt.Key.Key_Space):
            self.begin_flag()
        elif key == Qt.Key.Key_P:
            self.toggle()
        elif key in (Qt.Key.Key_N, Qt.Key.Key_Right):
            self.step()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # --- the round ---------------------------------------------------------------------------

    def start(self, rnd, paced: bool = True, sealed: bool = False) -> None:
        """Watch `rnd` (a SupervisedRound): at its pace, or stepped with Next; `sealed`, as an
        exam's item."""
        self.stop()
        self.round, self.paced, self.flags, self.score = rnd, paced, [], None
        self.sealed, self.handed = sealed, False
        self.paused = False
        self.frames = playback.frames(rnd)
        s = rnd.scenario
        self.title.setText(f"Supervise: {s.heading}")
        self._ensure_view(s)
        self.history.clear()
        self.flag_list.clear()
        self.side.setCurrentIndex(WATCH)
        self.split.setSizes([1000, 380])
        for b in self.buttons:
            b.show()
        self.next_button.setEnabled(not paced)
        self.play_button.setEnabled(paced)
        self.flag_button.setEnabled(True)
        self.end_button.setEnabled(True)
        self.end_button.setToolTip("End this part and hand in your flags; what is not flagged is "
                                   "missed" if sealed else
                                   "End the round and see the debrief; what is not flagged is missed")
        self.after.setText("")
        self.show_frame(0, record=True)
        if paced:
            self.play_button.setText("Pause (P)")
            self.timer.start(self._interval())
        self.setFocus()

    def _ensure_view(self, scenario) -> None:
        from ui.table import table_view

        if self.view is not None and self.view.draws(scenario.game, scenario.options):
            return
        if self.view is not None:
            self.view.retire(self.table_layout)
        self.view = table_view(scenario.game, dict(scenario.options))
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.wager_clicked.connect(self._clicked)
        self.table_layout.addWidget(self.view)

    def _interval(self) -> int:
        return max(1, round(self.round.pace * 1000))

    def stop(self) -> None:
        self.timer.stop()
        if self.view is not None:
            self.view.stop_animations()

    def in_progress(self) -> bool:
        return self.round is not None and self.score is None and not self.handed

    @property
    def frame(self):
        return self.frames[self.pos]

    def show_frame(self, index: int, record: bool = False) -> None:
        """Show the table after the action `index` (the round over at the last); `record`: as
        the dealer does it, into the history."""
        self.pos = max(0, min(index, len(self.frames) - 1))
        frame = self.frame
        self.shown_at = self.clock()
        said = (frame.text if frame.action is not None else
                f"{frame.text}. Flag what is still wrong, then Finish (Ctrl+Enter).")
        self.says.setText(f"<span style='font-size:15pt; font-weight:600'>{html.escape(said)}</span>")
        if record:
            if frame.action is not None:
                self.stickman.action(frame.action.do, frame.action.value, self.round.scenario.game)
            self.history.addItem(f"{clock(frame.at)}  {frame.text}")
            # once the new line is laid out (wrapped), so that all of it shows
            QTimer.singleShot(0, self.history.scrollToBottom)
        throw = f"Throw {frame.throw}" if frame.throw else "Before the first throw"
        self.status.setText(f"{throw} · action {min(frame.index + 1, len(self.frames) - 1)} of "
                            f"{len(self.frames) - 1} · {clock(frame.at)}")
        self._draw()

    def _draw(self) -> None:
        table = self.frame.table
        target = self.flagging.target() if self.side.currentIndex() == FLAG else None
        if target is not None and playback.kind_of(target) == playback.WAGER:
            seat, _, bet = target.removeprefix("seat ").partition(" ")
            table = replace(table, selected=(int(seat), bet))
        else:
            table = replace(table, selected=None)
        self.view.set_state(table)

    def step(self) -> None:
        """The dealer's next action (Next, when stepped)."""
        if self.paced or self.side.currentIndex() != WATCH or self.pos >= len(self.frames) - 1:
            return
        self.show_frame(self.pos + 1, record=True)

    def _tick(self) -> None:
        if self.round is None or self.side.currentIndex() != WATCH:
            return
        if self.pos < len(self.frames) - 1:
            self.show_frame(self.pos + 1, record=True)
        if self.pos < len(self.frames) - 1:
            self.timer.start(self._interval())
        else:
            self.play_button.setEnabled(False)

    def toggle(self) -> None:
        """Pause or go on (paced only)."""
        if not self.paced or not self.in_progress() or self.side.currentIndex() != WATCH:
            return
        self.paused = not self.paused
        self.play_button.setText("Go on (P)" if self.paused else "Pause (P)")
        if self.paused:
            self.timer.stop()
        elif self.pos < len(self.frames) - 1:
            self.timer.start(self._interval())

    # --- flagging ----------------------------------------------------------------------------

    def begin_flag(self) -> None:
        """Stop the dealer and point at what is wrong."""
        if not self.in_progress() or self.side.currentIndex() == FLAG:
            return
        self._paused_at = self.clock()
        self.timer.stop()
        self.flagging.open_at(self.round, self.frame, self.frames[:self.pos + 1])
        self.side.setCurrentIndex(FLAG)
        self.flagging.targets.setFocus()
        self._draw()

    def _clicked(self, seat: int, bet: str) -> None:
        """A click on a wager: points at it, flagging if not already."""
        if not self.in_progress():
            return
        self.begin_flag()
        self.flagging.point_at(f"seat {seat} {bet}")

    def _flagged(self, target: str, kind: str) -> None:
        since = 0.0 if not self.paced else self._paused_at - self.shown_at
        flag = Flag(playback.flag_time(self.frame, since, self.round.pace), target, kind)
        self.flags.append(flag)
        choice = self.flagging.choices.currentItem().text().split(" — ")[0]
        self.flag_list.addItem(f"{clock(flag.at)}  {playback.words_of(target)}: {choice}")
        self.resume()

    def resume(self) -> None:
        """Back to watching: the dealer goes on at the pace (from the action shown)."""
        if not self.in_progress():
            return
        self.side.setCurrentIndex(WATCH)
        self._draw()
        if self.paced and not self.paused and self.pos < len(self.frames) - 1:
            self.shown_at = self.clock() - (self._paused_at - self.shown_at)
            left = self.round.pace - (self.clock() - self.shown_at)
            self.timer.start(max(1, round(left * 1000)))
        self.setFocus()

    # --- the end -----------------------------------------------------------------------------

    def finish(self) -> None:
        """The score and the debrief."""
        if not self.in_progress():
            return
        self.timer.stop()
        if self.sealed:  # an exam's item: the flags handed in, nothing said of them
            self.handed = True
            for b in self.buttons:
                b.setEnabled(False)
            self.says.setText("<span style='font-size:15pt; font-weight:600'>Part done: your "
                              "flags are handed in.</span>")
            self.handed_in.emit(list(self.flags))
            return
        self.score = score_flags(self.round, self.flags)
        self.debrief.show_score(self.round, self.score, self.frame_at)
        self.side.setCurrentIndex(DEBRIEF)
        for b in self.buttons:
            b.setEnabled(False)
            b.hide()
        self.after.setText("Ctrl+Shift+S (or Deal, above) deals another round to supervise.")
        self.split.setSizes([820, 560])
        self.debrief.lines.setFocus()
        self.finished.emit(self.round, self.score)

    def frame_at(self, seconds: float):
        """The frame shown at a moment of the round."""
        return max((f for f in self.frames if f.at <= seconds), key=lambda f: f.at,
                   default=self.frames[0])
