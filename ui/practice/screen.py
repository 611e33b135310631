"""The practice screen: the table, the action bar, and feedback after every action.

It draws and collects input; the round itself (what is expected, what the trainer does, the
grading) is trainer.practice.PracticeRound. Dialogs open non-modally (`open()`), so the screen
stays responsive and tests can type into them.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import TYPE_CHECKING

from trainer import LABELS, Automation, Do, automation_words, part_title, policy, readable
from trainer.progress import Mode
from ui.practice.actions import ActionBar
from ui.practice.dialogs import ChoiceDialog, NumberDialog, PayoutKeypad, place_on_screen
from ui.qt import (
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QPoint,
    QPushButton,
    QShortcut,
    QSplitter,
    Qt,
    QTextBrowser,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ui.shell import theme
from ui.table.base import PLACE

if TYPE_CHECKING:  # the engine's round machinery loads with the first round, not at start-up
    from trainer import Feedback, PracticeRound, Result, Scenario



class FeedbackPanel(QTextBrowser):
    """Right or wrong, what was expected, and the regulation sentence behind it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("feedback")
        self.setOpenExternalLinks(False)
        self.entries: list[str] = []
        self.retheme()

    def retheme(self) -> None:
        """The marks and quotes in the theme's colours, those already written included."""
        self.document().setDefaultStyleSheet(theme.rich_text_css())
        self._show()

    def _show(self) -> None:
        # the scroll bar held while the text is set again: the text, cleared first, would drop
        # it and be laid out twice, without it and with it again (half of an action's cost);
        # let go after, it stays or goes as the new text needs, as it would have
        bar = Qt.ScrollBarPolicy
        held = self.verticalScrollBar().isVisible()
        if held:
            self.setVerticalScrollBarPolicy(bar.ScrollBarAlwaysOn)
        self.setHtml("<hr>".join(self.entries[:12]))
        if held:
            self.setVerticalScrollBarPolicy(bar.ScrollBarAsNeeded)

    def add(self, fb: Feedback) -> None:
        mark = ('<span class="ok">✔ Right</span>' if fb.ok else
                '<span class="wrong">✘ Not right</span>')
        parts = [f"<p>{mark} — {html.escape(readable(fb.message.removeprefix('Right: ')))}</p>"]
        if not fb.ok and fb.expected is not None:
            parts.append(f"<p><b>Expected:</b> {html.escape(fb.expected.label)}</p>")
        if fb.cite:
            parts.append(f"<p><b>{html.escape(readable(fb.cite))}</b></p>")
        if fb.quote:
            parts.append(f"<blockquote class='quiet'>{html.escape(_short(fb.quote))}</blockquote>")
        self.entries.insert(0, "".join(parts))
        self._show()

    def briefing(self, title: str, text: str) -> None:
        self.entries.insert(0, f"<h3>Briefing</h3><p>{html.escape(text)}</p>")
        self._show()

    def note(self, text: str) -> None:
        self.entries.insert(0, f"<p><i>{html.escape(text)}</i></p>")
        self._show()

    def summary(self, result: Result, round_: PracticeRound) -> None:
        s = result.score
        verdict = ("<span class='ok'>PASSED</span>" if s.passed else
                   "<span class='wrong'>NOT PASSED</span>")
        rows = [f"<h2>Round complete — {verdict}</h2>",
                f"<p style='font-size:13pt'>Procedure <b>{s.procedure}</b> · Payouts "
                f"<b>{s.payouts}</b> · Speed <b>{s.speed}</b> · Total <b>{s.total}</b>"
                f" &nbsp; ({round_.elapsed:.0f} s of a {round_.scenario.target_seconds} s target)</p>"]
        reasons = policy.why_not((f.severity for f in result.findings), s.total)
        if reasons:
            rows.append("<p><b>Not passed:</b> " + html.escape("; ".join(reasons)) + ".</p>")
        rows.append(f"<p class='quiet'><i>Graded under {html.escape(policy.rule(s.rule).title)}"
                    "</i></p>")
        if result.findings:
            rows.append("<h3>Findings</h3><ol>")
            for f in result.findings:
                rows.append(f"<li><b>{html.escape(f.kind.value)}</b> ({f.severity.value}): "
                            f"{html.escape(readable(f.message))}<br><i>{html.escape(readable(f.cite))}"
                            "</i></li>")
            rows.append("</ol>")
        else:
            rows.append("<p>No findings: every step right, in order, to the cent.</p>")
        self.entries.insert(0, "".join(rows))
        self._show()


def _short(text: str, limit: int = 420) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


class PracticeScreen(QWidget):
    """Work a round. Modes: practice (feedback after every action), a payout drill (payouts
    against the clock), an exam (no feedback or hints until the end)."""

    finished = Signal(object, object)  # Result, PracticeRound

    def __init__(self, parent=None):
        super().__init__(parent)
        self.round: PracticeRound | None = None
        self.guided = True  # a payout drill brings each winner to the keypad
        self._reported: PracticeRound | None = None  # the round whose end was reported
        self.mode = Mode.PRACTICE
        self.view = None
        self.selected: tuple[int, str] | None = None
        self.dialog = None
        self.placing = None  # (action, Place prompt) while the trainee picks a box on the layout
        self._place: str | None = None  # the place chosen from the keyboard (← →), if any
        # a move of several markers: the places still to pick, those picked, how they are logged
        self._stages: list = []
        self._picked: list[str] = []
        self._join = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        top = QHBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("pageTitle")
        self.progress = QLabel("")
        self.progress.setObjectName("subtitle")
        self.timer_label = QLabel("")
        self.timer_label.setObjectName("timer")
        self.title.setWordWrap(True)  # a long title wraps (large print, a laptop): never cut
        top.addWidget(self.title, 1)
        top.addWidget(self.progress)
        top.addSpacing(16)
        top.addWidget(self.timer_label)
        layout.addLayout(top)
        from ui.speech.calls import SpokenCalls

        self.spoken = SpokenCalls(self)  # View › Speak my calls: off until the window turns it on
        top.insertWidget(1, self.spoken.meter)
        self.briefing = QLabel("")
        self.briefing.setWordWrap(True)
        self.briefing.setObjectName("subtitle")
        self.briefing.setMaximumHeight(46)
        layout.addWidget(self.briefing)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.table_host = QWidget()
        self.table_layout = QVBoxLayout(self.table_host)
        self.table_layout.setContentsMargins(0, 0, 0, 0)
        self.split.addWidget(self.table_host)
        self.side = side = QWidget()  # the hint and the feedback; none in an exam
        side.setMinimumWidth(330)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.feedback = FeedbackPanel()
        side_layout.addWidget(self.hint)
        side_layout.addWidget(self.feedback, 1)
        self.split.addWidget(side)
        # in an exam, where there is no panel: the column a dialog stands in while it is open
        self.room = QWidget()
        self.room.hide()
        self.split.addWidget(self.room)
        self._room_taken: list[int] | None = None  # the widths before the panel made room
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([1000, 360, 0])
        # never collapsed: an exam gives the hidden panel's width to its dialog's column, and the
        # next round would show the panel at none
        self.split.setCollapsible(1, False)
        layout.addWidget(self.split, 1)
        # in an exam, where there is no feedback panel: what the screen says of the trainee's
        # input (select a wager first, nothing was placed), one line under the table
        self.said = QLabel("")
        self.said.setObjectName("examSaid")
        self.said.setWordWrap(True)
        self.said.hide()
        layout.addWidget(self.said)
        self.actions = ActionBar()
        self.actions.triggered.connect(self.act)
        self.undo_button = QPushButton("Undo\nCtrl+Z")
        self.undo_button.setToolTip("Take back your last action of this throw (a chip, a payout, "
                                    "a marker) — Ctrl+Z")
        self.undo_button.clicked.connect(self.undo)
        self.skip = QPushButton("Next throw\nCtrl+→")
        self.skip.setToolTip("Leave the rest of this throw (it counts as missing) — Ctrl+Right")
        self.skip.clicked.connect(self.skip_throw)
        self.end = QPushButton("Finish\nCtrl+Enter")
        self.end.setToolTip("End the round and see the score — Ctrl+Enter")
        self.end.clicked.connect(self.finish)
        # after the actions, in their rows: the page's width for all
        for b in (self.undo_button, self.skip, self.end):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.actions.add_after(b)
        layout.addWidget(self.actions)
        self._keys = []
        # Tab is left to the focus, so the feedback panel is reached from the keyboard: ← →
        # choose a wager (or a place), and the feedback panel scrolls with ↑ ↓ once Tab is there
        for key, slot in (("Right", lambda: self.cycle(1)), ("Left", lambda: self.cycle(-1)),
                          ("H", self.show_hint),
                          ("Ctrl+Right", self.skip_throw), ("Ctrl+Return", self.finish),
                          ("Ctrl+Enter", self.finish)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
            self._keys.append(shortcut)
        self.clock = QTimer(self)
        self.clock.setInterval(200)
        self.clock.timeout.connect(self._tick)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    # --- starting ------------------------------------------------------------------------------

    def start(self, scenario: Scenario, mode: Mode = Mode.PRACTICE,
              automation: Automation | None = None, guided: bool = True,
              procedure=None) -> None:
        """Deal the round. In a payout drill `guided` brings each winner to the keypad in turn;
        unguided (from difficulty 3), finding the winners is the trainee's work too.
        `procedure`: the scenario's own, when the deal built it (it is not built again)."""
        from trainer import PracticeRound
        from trainer import get_game as get

        self.stop()
        self.mode = mode
        self.guided = guided
        if mode is Mode.PAYOUT_DRILL:
            automation = Automation.PAYOUTS
        self.round = PracticeRound(scenario, automation, procedure=procedure)
        self.round.subscribe(self._round_changed)
        self.selected = None
        self.feedback.entries.clear()
        self.feedback.setHtml("")
        # an exam part names its game: two parts of a form may share a title
        self.title.setText(part_title(scenario.heading, scenario.game) if mode is Mode.EXAM
                           else scenario.heading)
        label = {Mode.PAYOUT_DRILL: "Payout drill", Mode.EXAM: "Exam"}.get(mode, "Practice")
        if mode is Mode.EXAM:  # sealed: no briefing, no hint, nothing that gives the answer
            self.briefing.setText(f"<b>{label}</b> · {get(scenario.game).name} · you do "
                                  f"{automation_words(self.round.automation)} · no feedback until "
                                  "the end")
        else:
            self.briefing.setText(f"<b>{label}</b> · {get(scenario.game).name} · difficulty "
                                  f"{scenario.difficulty} · you do "
                                  f"{automation_words(self.round.automation)} · "
                                  "the briefing is on the right · H for a hint")
        self._ensure_view(scenario)
        self.view.name_irregularities = mode is not Mode.EXAM
        self.actions.set_game(scenario.game, self)
        self.actions.setEnabled(True)
        for b in (self.undo_button, self.skip, self.end):
            b.setEnabled(True)
        self.clock.start()
        if mode is not Mode.EXAM:
            self.feedback.briefing(scenario.title, scenario.told)
        # an exam has no feedback to show, and one clock: the exam's own (ui.exams.runner)
        self.side.setVisible(mode is not Mode.EXAM)
        self.timer_label.setVisible(mode is not Mode.EXAM)
        self.said.setText("")
        self.said.setVisible(mode is Mode.EXAM)
        if mode is Mode.PAYOUT_DRILL:
            self.note("Pay every winning wager, one after another: type the payout, or "
                      "build it from the chips, and press Enter. The clock is running."
                      if guided else
                      "Find every winning wager: select it (click, or ← →), press P and "
                      "type the payout or build it from the chips; the losers are "
                      "collected for you. The clock is running.")
        self.refresh()
        self.setFocus()
        if self.round.finished:  # nothing for the trainee to do in this round
            self._done()
        elif mode is Mode.PAYOUT_DRILL:
            QTimer.singleShot(0, self, self._drill_next)

    def note(self, text: str) -> None:
        """Say something of the trainee's input: in the feedback panel, and in an exam (which
        has none on screen) on the line under the table."""
        self.feedback.note(text)
        if self.mode is Mode.EXAM:
            self.said.setText(text)

    def _ensure_view(self, scenario: Scenario) -> None:
        if self.view is not None and self.view.draws(scenario.game, scenario.options):
            return
        from ui.table import table_view

        if self.view is not None:
            self.view.retire(self.table_layout)
        self.view = table_view(scenario.game, scenario.options)
        self.view.wager_clicked.connect(self.select)
        self.table_layout.addWidget(self.view)

    def in_progress(self) -> bool:
        return self.round is not None and not self.round.finished and bool(
            [p for p in self.round.log if not p.by_trainer])

    def stop(self) -> None:
        """Stop the clock and animations (leaving the screen, closing the app)."""
        self.clock.stop()
        self.spoken.stop()  # a hearing under way stops with the round
        if self.view is not None:
            self.view.stop_animations()
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None
        self._end_placing()

    # --- drawing -------------------------------------------------------------------------------

    def _round_changed(self, round_) -> None:
        if round_ is self.round:
            self.refresh()

    def refresh(self) -> None:
        r = self.round
        if r is None or self.view is None:
            return
        self.view.set_state(replace(r.table_state(), selected=self.selected,
                                    highlighted=self._place if self.placing is not None else None))
        # how many throws the round has is told only where the briefing walks through it
        told = r.scenario.walked_through
        self.progress.setText(f"Throw {max(r.throw, 1)}" + (f" of {r.throws}" if told else "")
                              if r.throws else "")
        self.hint.setText("")
        self._tick()
        self.spoken.check()  # a call owed now is listened for

    def _tick(self) -> None:
        r = self.round
        if r is None:
            return
        target = r.scenario.target_seconds
        self.timer_label.setText(f"{r.elapsed:5.1f} s / {target} s")
        self.timer_label.setObjectName("timerLate" if r.elapsed > target else "timer")
        self.timer_label.style().polish(self.timer_label)
        if r.finished:
            self.clock.stop()

    def select(self, seat: int, bet: str) -> None:
        """A click on the layout: the box being placed on, if the trainee is placing something,
        else the wager to act on."""
        if self.placing is not None:
            do, prompt = self.placing
            if bet not in prompt.targets:
                self.note(f"{prompt.title}: that is not one of the boxes — "
                          f"{prompt.question} (Esc to stop)")
                return
            self._picked.append(prompt.targets[bet])
            if self._stages:  # the next marker of the same move (the Down Puck, then the Game Length Puck)
                following = self._stages.pop(0)
                self.placing, self._place = (do, following), None
                self.hint.setText("")
                self.refresh()
                self.note(f"{prompt.title}: {prompt.said(self._picked[-1])}. {following.title}: "
                          f"{following.question} Or choose with ← → and press Enter. (Esc to stop)")
                return
            picked, join = self._picked, self._join
            self._end_placing()
            self._do(do, value=join.join(picked) if join else picked[0])
            return
        if seat == PLACE:  # a place on the layout, not a wager: nothing to select
            return
        self.selected = (seat, bet)
        self.refresh()

    def _step_place(self, step: int) -> None:
        _, prompt = self.placing
        names = list(prompt.targets)
        i = (names.index(self._place) + step) if self._place in names else (0 if step > 0 else -1)
        self._place = names[i % len(names)]
        self.refresh()  # the place chosen, ringed on the table
        self.hint.setText(f"<b>{html.escape(prompt.title)}:</b> {html.escape(self._place_label())}"
                          " — Enter puts it there, ← → choose, Esc stops")

    def _place_label(self) -> str:
        """The place chosen from the keyboard, in words: the bet's name, or the place's own."""
        _, prompt = self.placing
        bet = self.view.catalogue.get(self._place) if self.view is not None else None
        return bet.name if bet is not None else prompt.said(prompt.targets[self._place])

    def keyPressEvent(self, event) -> None:
        # Enter puts what is being placed, Esc stops placing: not shortcuts, so that in a dialog
        # Enter and Esc stay the dialog's
        if self.placing is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.place_chosen()
            return
        if self.placing is not None and event.key() == Qt.Key.Key_Escape:
            self.cancel_placing()
            return
        super().keyPressEvent(event)

    def place_chosen(self) -> None:
        """Enter: put it on the place chosen with ← →."""
        if self.placing is not None and self._place in self.placing[1].targets:
            self.select(PLACE, self._place)

    def cancel_placing(self) -> None:
        if self.placing is not None:
            self._end_placing()
            self.note("Nothing was placed.")

    def _end_placing(self) -> None:
        ringed = self._place is not None
        self.placing, self._place = None, None
        self._stages, self._picked, self._join = [], [], ""
        if ringed:
            self.refresh()  # the ring goes
        self.hint.setText("")

    def _wager_keys(self) -> list[tuple[int, str]]:
        if self.round is None:
            return []
        return sorted({(w.seat, w.bet) for w in self.round.table_state().wagers})

    def cycle(self, step: int) -> None:
        if self.placing is not None:  # the keyboard's way to the layout: step through the places
            self._step_place(step)
            return
        keys = self._wager_keys()
        if not keys:
            return
        i = keys.index(self.selected) + step if self.selected in keys else (0 if step > 0 else -1)
        self.selected = keys[i % len(keys)]
        self.refresh()

    def show_hint(self) -> None:
        if self.round is None or self.mode is Mode.EXAM:
            return
        e = self.round.next_expected()
        self.hint.setText(f"<b>Next:</b> {html.escape(e.label)} — {html.escape(readable(e.cite))}" if e
                          else "Nothing left to do: finish the round.")

    # --- acting --------------------------------------------------------------------------------

    def act(self, do: Do) -> None:
        from trainer import NEEDS_WAGER, Amount, Choice, Number, Place

        r = self.round
        if r is None or r.finished or self.dialog is not None:
            return
        self._end_placing()  # another action: whatever was being placed is not
        if do not in r.mine:  # the trainer's step at this level: no dialog as if it were theirs
            self.feedback.note(f"{LABELS[do]}: the trainer does this for you at this level (you "
                               f"do {automation_words(r.automation)}); watch the table.")
            return
        if do in NEEDS_WAGER and self.selected is None:
            self.note(f"{LABELS[do]}: select a wager first — click it, or use ← →.")
            return
        seat, bet = self.selected if do in NEEDS_WAGER else (None, None)
        prompt = r.prompt(do, seat, bet)
        if isinstance(prompt, Amount):
            self._ask(PayoutKeypad(prompt.title, self),
                      lambda d: self._do(do, seat=seat, bet=bet, amount=d.cents))
        elif isinstance(prompt, Choice):
            self._ask(ChoiceDialog(prompt.title, prompt.question, list(prompt.options), self),
                      lambda d: self._do(do, value=prompt.values[prompt.options.index(d.choice)]))
        elif isinstance(prompt, Number):
            self._ask(NumberDialog(prompt.title, prompt.question, prompt.low, prompt.high,
                                   prompt.start, self), lambda d: self._do(do, value=str(d.value)))
        elif isinstance(prompt, Place):  # the next click on the layout (or ← → Enter) says where
            self.placing, self._place = (do, prompt), None
            self._stages, self._picked, self._join = list(prompt.then), [], prompt.join
            self.note(f"{prompt.title}: {prompt.question} Or choose with ← → and press "
                      "Enter. (Esc to stop)")
        else:
            self._do(do, seat=seat, bet=bet)

    def call(self, do: Do, value: str | None) -> None:
        """A call made aloud (ui.speech.calls): the call action with its choice made, on the one
        path the action bar's takes, so it is graded the same. "No roll" asks its reason as the
        action does; an action that is the trainer's at this level is refused as the action is."""
        r = self.round
        if r is None or r.finished or self.dialog is not None:
            return
        if do not in r.mine or value is None:
            self.act(do)
            return
        self._end_placing()
        self._do(do, value=value)

    def _ask(self, dialog, then) -> None:
        self.dialog = dialog

        def done(code: int) -> None:
            self.dialog = None
            if code:
                then(dialog)
            dialog.deleteLater()
            self.setFocus()
            # after what the answer starts (a payout drill's next winner), so that the table
            # does not jump between two dialogs
            QTimer.singleShot(0, self, self._give_back_room)  # not after the screen

        dialog.finished.connect(done)
        dialog.open()
        self._make_room(dialog)

    def _make_room(self, dialog) -> None:
        """Put the dialog at the right of the table, in a column the table makes room for: the
        feedback panel, widened to the dialog's width where it is narrower (large print), or in an
        exam (no panel) a column of its own while the dialog is open. The table fits what is
        left, so the dialog covers no wager box; a dialog wider than half the screen's width is
        only placed, over the table's right side. Always on the screen, whole."""
        need = dialog.frameGeometry().width() + 16
        total = self.split.width()
        if need <= total // 2:
            if self.side.isVisible():
                sizes = self.split.sizes()
                if sizes[1] < need:
                    self._room_taken = self._room_taken or sizes
                    self.split.setSizes([sizes[0] + sizes[1] - need, need, 0])
            else:
                self.room.setFixedWidth(need)
                self.room.show()
                self.split.setSizes([total - need - self.split.handleWidth(), 0, need])
        column = self.side if self.side.isVisible() else (self.room if self.room.isVisible()
                                                           else self.table_host)
        left = column.mapToGlobal(column.rect().topLeft())
        x = left.x() + max(0, (column.width() - dialog.frameGeometry().width()) // 2)
        place_on_screen(dialog, QPoint(x, left.y() + 8))

    def _give_back_room(self) -> None:
        """The dialog is answered and no other opened: the table takes its width back."""
        if self.dialog is not None:
            return
        if self.room.isVisible():
            self.room.hide()
        if self._room_taken is not None:
            self.split.setSizes(self._room_taken)
            self._room_taken = None

    def _do(self, do: Do, **fields) -> None:
        r = self.round
        if r is None or r.finished:
            return
        from trainer import CLEARS_SELECTION

        if do in CLEARS_SELECTION:
            self.selected = None
        fb = r.perform(do, **fields)  # the round tells the screen it changed (refresh)
        if self.mode is not Mode.EXAM:
            self.feedback.add(fb)
            self._put_right(fb)
        if r.finished:
            self._done()
        elif self.mode is Mode.PAYOUT_DRILL:
            QTimer.singleShot(0, self, self._drill_next)

    def _put_right(self, fb: Feedback) -> None:
        """A record put wrong (the pointer, a marker, the matching dice) stays where the trainee
        put it for this throw; the next throw starts from where it belongs. Said, so that the
        table never changes without a word."""
        from trainer import PLACEMENTS

        wrong = next((f.expected for f in fb.findings
                      if fb.action.do in PLACEMENTS and f.expected is not None
                      and f.expected.do is fb.action.do), None)
        if wrong is not None:
            self.note(f"It stays where you put it for this throw; from the next throw the "
                      f"table goes on as it should be: {wrong.label}.")

    def _drill_next(self) -> None:
        r = self.round
        if r is None or r.finished or self.dialog is not None or not self.guided:
            return
        e = r.next_expected()
        if e is not None and e.do is Do.PAY:
            self.selected = (e.seat, e.bet)
            self.refresh()
            self.act(Do.PAY)

    def undo(self) -> None:
        """Ctrl+Z, Edit › Undo, the Undo button: take back the trainee's last action of this throw
        (trainer.practice: `undoable`, reading "undo"). What is refused says why in the status
        bar."""
        r = self.round
        if r is None:
            self._say("Nothing to undo: no round is being worked.")
            return
        if self.dialog is not None:  # the dialog's own keys: nothing is done yet
            return
        if self.placing is not None:  # the placing under way is what is taken back
            self.cancel_placing()
            return
        taken = r.undo(told=self.mode is not Mode.EXAM)  # the round tells the screen (refresh)
        if isinstance(taken, str):
            self._say(f"Cannot undo: {taken}.")
            return
        if taken.seat is not None and taken.bet is not None:
            self.selected = (taken.seat, taken.bet)  # the wager it was done to, ready again
            self.refresh()
        said = f"Taken back: {LABELS[taken.do]}" + (f", seat {taken.seat}" if taken.seat else "")
        self.feedback.note(said + (" (a mistake its feedback named still counts)."
                                   if self.mode is not Mode.EXAM else "."))
        self._say(said + ".")

    def _say(self, text: str) -> None:
        """A line in the window's status bar (on a screen of its own, the feedback panel)."""
        window = self.window()
        bar = getattr(window, "statusBar", None)
        if window is not self and callable(bar):
            bar().showMessage(text, 10000)
        else:
            self.feedback.note(text)

    def skip_throw(self) -> None:
        r = self.round
        if r is None or r.finished or self.dialog is not None:
            return
        self._end_placing()
        r.skip_throw()  # the round tells the screen it changed (refresh)
        self.note("The rest of that throw was left undone.")
        if r.finished:
            self._done()

    def finish(self) -> None:
        r = self.round
        if r is None or self.dialog is not None:
            return
        for _ in range(10_000):  # each skip closes one throw
            if r.finished:
                break
            r.skip_throw()
        self._done()

    def _done(self) -> None:
        r = self.round
        if r is None or self._reported is r:
            return
        self._reported = r
        self._end_placing()
        self.clock.stop()
        self._tick()
        result = r.finish()
        if self.mode is Mode.EXAM:  # no feedback until the whole exam is over
            self.note("This part of the exam is done.")
        else:
            self.feedback.summary(result, r)
        if r.log_full:  # the most one round's answer holds (trainer.practice.LOG_ACTIONS)
            self.note(f"This round ended after {len(r.log):,} actions, the most one round's "
                      "record holds; what was left undone counts as missing.")
        self.actions.setEnabled(False)  # the round is over: nothing is left for them to do
        for b in (self.undo_button, self.skip, self.end):
            b.setEnabled(False)
        self.finished.emit(result, r)
