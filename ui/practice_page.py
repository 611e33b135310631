"""The Practice screen: choose a game, a kind of drill and a difficulty, and deal."""

from __future__ import annotations

import random

from trainer import GAME_IDS, GAME_NAMES
from trainer.progress import Mode
from ui.qt import QComboBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, Qt, QVBoxLayout, QWidget, Signal

WELCOME = ("<h2>Ready when you are</h2><p>Choose a game, a drill and a difficulty above and press "
           "<b>Deal</b> (Ctrl+N) — or pick a scripted round on the <b>Scenarios</b> screen "
           "(Ctrl+2).</p><p>Every action has a button and a key. After each one you see whether "
           "it was right, and the regulation behind it.</p>")

KINDS = (("Procedure drill", Mode.PRACTICE), ("Payout drill", Mode.PAYOUT_DRILL))


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
        self.game = QComboBox()
        for g in GAME_IDS:
            self.game.addItem(GAME_NAMES[g], g)
        self.kind = QComboBox()
        for text, mode in KINDS:
            self.kind.addItem(text, mode)
        self.difficulty = QSpinBox()
        self.difficulty.setRange(1, 5)
        self.difficulty.setValue(2)
        self.difficulty.setToolTip("1: you pay; 2: you settle; 3: you call the dice; 4–5: the whole round")
        self.deal_button = QPushButton("Deal (Ctrl+N)")
        self.deal_button.setObjectName("primary")
        self.deal_button.clicked.connect(lambda: self.deal())
        for label, w in (("Game", self.game), ("Drill", self.kind), ("Difficulty", self.difficulty)):
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addStretch(1)
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
            from ui.practice import PracticeScreen

            self._screen = PracticeScreen()
            self._screen.finished.connect(self.finished)
            self.welcome.hide()
            self.layout_.addWidget(self._screen, 1)
        return self._screen

    def stop(self) -> None:
        if self._screen is not None:
            self._screen.stop()

    def confirm_replace(self) -> bool:
        """Ask before a new round throws away one the trainee has started."""
        if self._screen is None or not self._screen.in_progress():
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
        from trainer import payout_drill, random_round

        if confirm and not self.confirm_replace():
            return
        game = game or self.game.currentData()
        mode = Mode(self.kind.currentData())  # the combo box hands back the plain string
        difficulty = self.difficulty.value()
        if seed is None:
            self.seed += 1
            seed = self.seed
        if mode is Mode.PAYOUT_DRILL and skill is None:  # a skill is drilled in a procedure round
            self.screen.start(payout_drill(game, seed), mode)
        else:
            self.screen.start(random_round(game, difficulty, seed, skill), "practice")

    def start_scenario(self, scenario) -> None:
        if not self.confirm_replace():
            return
        self.game.setCurrentIndex(GAME_IDS.index(scenario.game))
        self.screen.start(scenario, "practice")
