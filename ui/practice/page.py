"""The Practice screen: choose a game, a kind of drill and a difficulty, and deal."""

from __future__ import annotations

import random

from trainer import GAME_IDS, GAME_NAMES
from trainer.progress import Mode
from ui.qt import (
    QComboBox,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QPushButton,
    QShortcut,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

WELCOME = ("<h2>Ready when you are</h2><p>Choose a game, a drill and a difficulty above and press "
           "<b>Deal</b> (Ctrl+N) — or pick a scripted round on the <b>Scenarios</b> screen "
           "(Ctrl+2).</p><p>Every action has a button and a key. After each one you see whether "
           "it was right, and the regulation behind it.</p>")

KINDS = (("Procedure drill", Mode.PRACTICE), ("Payout drill", Mode.PAYOUT_DRILL))


def game_box() -> QComboBox:
    """A choice of every game, by its name, with its id as the data (the deal bars' first box)."""
    box = QComboBox()
    for g in GAME_IDS:
        box.addItem(GAME_NAMES[g], g)
    return box


def difficulty_box(tip: str) -> QSpinBox:
    """The difficulty, 1 to 5, at 2 to begin with; `tip` says what each level asks."""
    box = QSpinBox()
    box.setRange(1, 5)
    box.setValue(2)
    box.setToolTip(tip)
    return box

class PracticePage(QWidget):
    """The deal bar, and the practice screen under it (built with the first round, so the app
    opens fast)."""

    finished = Signal(object, object)  # Result, PracticeRound

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 8, 12, 0)
        self.game = game_box()
        self.kind = QComboBox()
        for text, mode in KINDS:
            self.kind.addItem(text, mode)
        self.difficulty = difficulty_box("1: you pay; 2: you settle; 3: you call the dice; "
                                         "4–5: the whole round")
        self.deal_button = QPushButton("Deal (Ctrl+N)")
        self.deal_button.setObjectName("primary")
        self.deal_button.clicked.connect(lambda: self.deal())
        # after a round: the same round again, or the next one
        self.retry_button = QPushButton("Retry")
        self.retry_button.setToolTip("Work the same round again, from the start — Ctrl+R")
        self.retry_button.clicked.connect(self.retry)
        self.next_button = QPushButton("Next")
        self.next_button.setToolTip("The next scenario of this game, or a new round dealt — "
                                    "Ctrl+Shift+N")
        self.next_button.clicked.connect(self.next_round)
        for button, key in ((self.retry_button, "Ctrl+R"), (self.next_button, "Ctrl+Shift+N")):
            button.setEnabled(False)
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(button.click)
        self.current: tuple | None = None  # how the round on the screen was started
        for label, w in (("Game", self.game), ("Drill", self.kind), ("Difficulty", self.difficulty)):
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.retry_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.deal_button)
        layout.addLayout(bar)
        self.layout_ = layout
        self.welcome = QLabel(WELCOME)
        self.welcome.setWordWrap(True)
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.welcome, 1)
        self._screen = None
        self.seed = random.SystemRandom().randrange(1 << 30)

    @property
    def screen(self):
        """The practice screen, built the first time it is needed."""
        if self._screen is None:
            from ui.practice.screen import PracticeScreen

            self._screen = PracticeScreen()
            self._screen.finished.connect(self.finished)
            self._screen.finished.connect(lambda *_: self._round_over(True))
            self.welcome.hide()
            self.layout_.addWidget(self._screen, 1)
            self._screen.show()  # at once, so that the first round takes the keyboard focus
        return self._screen

    def stop(self) -> None:
        if self._screen is not None:
            self._screen.stop()

    def under_way(self) -> bool:
        """A round the trainee has acted in and not finished (a new round records it as it
        stands; quitting the app leaves it ungraded: ui.shell.window.MainWindow.quit_anyway)."""
        return self._screen is not None and self._screen.in_progress()

    def confirm_replace(self) -> bool:
        """Ask before a new round throws away one the trainee has started."""
        if not self.under_way():
            return True
        from ui.qt import QMessageBox

        answer = QMessageBox.question(self, "Start a new round?", "The round in progress will be "
                                      "given up and recorded as it stands. Start a new one?")
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self._screen.finish()
        return True

    def deal(self, seed: int | None = None, skill=None, game: str | None = None,
             confirm: bool = True) -> None:
        from trainer import payout_drill_built, random_round_built

        if confirm and not self.confirm_replace():
            return
        game = game or self.game.currentData()
        mode = Mode(self.kind.currentData())  # the combo box hands back the plain string
        difficulty = self.difficulty.value()
        if seed is None:
            self.seed += 1
            seed = self.seed
        if mode is Mode.PAYOUT_DRILL and skill is None:  # a skill is drilled in a procedure round
            # from difficulty 3 the trainee finds the winners too; below, each is brought to the keypad
            # (each deal builds the round's procedure: the screen takes it, not building it again)
            scenario, procedure = payout_drill_built(game, seed, difficulty=difficulty)
            self._start(("deal", game, seed, skill), scenario, mode, guided=difficulty <= 2,
                        procedure=procedure)
        else:
            scenario, procedure = random_round_built(game, difficulty, seed, skill)
            self._start(("deal", game, seed, skill), scenario, Mode.PRACTICE, procedure=procedure)

    def start_scenario(self, scenario) -> None:
        if not self.confirm_replace():
            return
        self._start(("scenario", scenario), scenario, Mode.PRACTICE)

    def _start(self, how: tuple, scenario, mode: Mode, *, guided: bool = True,
               procedure=None) -> None:
        self.current = (how, scenario, mode, guided, procedure)
        # the deal bar shows the round on the screen: one difficulty, wherever it is read
        self.game.setCurrentIndex(GAME_IDS.index(scenario.game))
        self.kind.setCurrentIndex([m for _, m in KINDS].index(
            Mode.PAYOUT_DRILL if mode is Mode.PAYOUT_DRILL else Mode.PRACTICE))
        self.difficulty.setValue(scenario.difficulty)
        self._round_over(False)
        self.screen.start(scenario, mode, guided=guided, procedure=procedure)

    def _round_over(self, over: bool) -> None:
        self.retry_button.setEnabled(over)
        self.next_button.setEnabled(over)

    def retry(self) -> None:
        """The same round again: the same scenario, or the same deal (its seed)."""
        if self.current is not None and self.confirm_replace():
            how, scenario, mode, guided, procedure = self.current
            self._start(how, scenario, mode, guided=guided, procedure=procedure)

    def next_round(self) -> None:
        """After a scenario, the next scenario of its game (in the library's order, round to the
        first); after a dealt round, a new one."""
        if self.current is None or not self.confirm_replace():
            return
        how, scenario, *_ = self.current
        if how[0] != "scenario":
            self.deal(confirm=False)
            return
        from trainer import load_library

        same = [s for s in load_library().scenarios if s.game == scenario.game]
        ids = [s.id for s in same]
        after = same[(ids.index(scenario.id) + 1) % len(same)] if scenario.id in ids else same[0]
        self._start(("scenario", after), after, Mode.PRACTICE)
