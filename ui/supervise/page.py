"""The Supervise screen: choose a game, a round (dealt, or a bundled scenario), a difficulty and
the dealer's pace, and deal; the round is watched on the supervise screen under the bar. The pace
is remembered between runs."""

from __future__ import annotations

import contextlib
import random

from trainer import GAME_IDS, playback
from ui.practice.page import difficulty_box, game_box
from ui.qt import QComboBox, QHBoxLayout, QLabel, QPushButton, Qt, QVBoxLayout, QWidget, Signal

WELCOME = ("<h2>Catch the dealer</h2><p>The trainer deals a round and works it as the dealer, "
           "with mistakes put in: a short pay, a winner collected, a wrong call, a marker on the "
           "wrong down. Watch the table and flag each mistake as you see it: <b>F</b> or "
           "<b>Space</b> (or the Flag button, or a click on the wager), point at it and say what "
           "is wrong.</p><p>At the end the debrief shows what you caught and missed, what the "
           "dealer should have done and the section it breaks.</p>")
#: the dealer's paces: seconds between actions (0: step by step with Next, at the lower
#: difficulties), and their words
PACES = ((0.0, "Step by step"), (4.0, "Slow, 4 s"), (2.0, "A dealer's, 2 s"), (1.5, "Fast, 1.5 s"))
PACE_KEY = "supervise/pace"
DEALT = ""  # the round combo box's data for a dealt round


class SupervisePage(QWidget):
    finished = Signal(object, object)  # the SupervisedRound, its Score

    def __init__(self, settings=None, parent=None):
        """`settings`: where the pace is remembered (a QSettings; none: not remembered)."""
        super().__init__(parent)
        self.settings = settings
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(12, 8, 12, 0)
        self.game = game_box()
        self.which = QComboBox()
        self.which.setAccessibleName("Round")
        self.difficulty = difficulty_box(f"1–{playback.STEPPED_UP_TO}: step by step if you like, "
                                         "fewer mistakes; from 3 the dealer keeps the pace, and a "
                                         "round may have no mistake at all")
        self.pace = QComboBox()
        self.pace.setAccessibleName("The dealer's pace")
        self.pace.setToolTip("The time the dealer takes over each action; step by step, Next (N) "
                             "shows the next one")
        for seconds, words in PACES:
            self.pace.addItem(words, seconds)
        remembered = settings.value(PACE_KEY, None) if settings is not None else None
        try:
            index = [p for p, _ in PACES].index(float(remembered)) if remembered is not None else 2
        except (TypeError, ValueError):
            index = 2  # a remembered pace this version does not offer
        self.pace.setCurrentIndex(index)
        self.pace.currentIndexChanged.connect(self._pace_chosen)
        self.deal_button = QPushButton("Deal")
        self.deal_button.setToolTip("Deal a round to supervise — Ctrl+Shift+S")
        self.deal_button.setObjectName("primary")
        self.deal_button.clicked.connect(lambda: self.deal())
        # the game and the pace read whole; the round takes what room is left, so that a long
        # scenario title never pushes the Deal button off a small screen (its tooltip is whole)
        self.which.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.which.setMinimumContentsLength(len("A dealt round"))
        self.which.currentTextChanged.connect(self.which.setToolTip)
        for label, w in (("Game", self.game), ("Round", self.which), ("Difficulty", self.difficulty),
                         ("Pace", self.pace)):
            bar.addWidget(QLabel(label))
            bar.addWidget(w, 1 if w is self.which else 0)
        bar.addWidget(self.deal_button)
        layout.addLayout(bar)
        self.layout_ = layout
        self.welcome = QLabel(WELCOME)
        self.welcome.setWordWrap(True)
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.welcome, 1)
        self._screen = None
        self.dealt_difficulty = self.difficulty.value()  # the round on the screen's
        self.seed = random.SystemRandom().randrange(1 << 30)
        self.game.currentIndexChanged.connect(self._fill_rounds)
        self.difficulty.valueChanged.connect(self._steps_allowed)
        self._fill_rounds()
        self._steps_allowed()

    @property
    def screen(self):
        """The supervise screen, built with the first round."""
        if self._screen is None:
            from ui.supervise.screen import SuperviseScreen

            self._screen = SuperviseScreen()
            self._screen.finished.connect(self.finished)
            self.welcome.hide()
            self.layout_.addWidget(self._screen, 1)
            self._screen.show()
        return self._screen

    def stop(self) -> None:
        if self._screen is not None:
            self._screen.stop()

    def under_way(self) -> bool:
        """A round being watched, past its first action or flagged, and not yet scored: quitting
        the app leaves it unscored (ui.shell.window.MainWindow.quit_anyway)."""
        s = self._screen
        return s is not None and s.in_progress() and (s.pos > 0 or bool(s.flags))

    @contextlib.contextmanager
    def held(self):
        """The dealer of a paced round waits while the window asks something (Quit?), and goes
        on after with the time it had left: no action goes by behind the question."""
        s = self._screen
        if s is None or not s.timer.isActive():
            yield
            return
        left, asked = s.timer.remainingTime(), s.clock()
        s.timer.stop()
        try:
            yield
        finally:
            s.shown_at += s.clock() - asked  # a flag's time counts the action's showing alone
            s.timer.start(max(1, left))

    def _fill_rounds(self) -> None:
        from trainer import load_library

        game = self.game.currentData()
        self.which.clear()
        self.which.addItem("A dealt round", DEALT)
        for s in load_library().scenarios:
            if s.game == game:
                self.which.addItem(s.title, s.id)

    def _steps_allowed(self) -> None:
        """Step by step only at the lower difficulties; above them, the dealer's pace."""
        allowed = self.difficulty.value() <= playback.STEPPED_UP_TO
        item = self.pace.model().item(0)
        item.setEnabled(allowed)
        if not allowed and self.pace.currentIndex() == 0:
            self.pace.setCurrentIndex(2)

    def _pace_chosen(self) -> None:
        if self.settings is not None:
            self.settings.setValue(PACE_KEY, self.pace.currentData())

    def deal(self, seed: int | None = None, game: str | None = None) -> None:
        """Deal a round to supervise from the bar (or `game` and `seed`), and start watching it."""
        from trainer import load_library

        if game is not None:
            self.game.setCurrentIndex(GAME_IDS.index(game))
        game = self.game.currentData()
        if seed is None:
            self.seed += 1
            seed = self.seed
        chosen = self.which.currentData()
        scenario = load_library().by_id(chosen) if chosen else None
        stepped = self._stepped()
        self._watch(playback.deal(game, self.difficulty.value(), seed, scenario,
                                  pace=self._pace(stepped)), stepped)

    def drill(self, fault_class: str, game: str) -> None:
        """A dealt round with the most faults of one class the next seeds give (Progress ›
        Supervising › Drill this)."""
        self.game.setCurrentIndex(GAME_IDS.index(game))
        self.which.setCurrentIndex(0)  # a dealt round
        self.seed += 1
        stepped = self._stepped()
        rnd = playback.drill(game, self.difficulty.value(), self.seed, fault_class,
                             pace=self._pace(stepped))
        self.seed += playback.DRILL_TRIES
        self._watch(rnd, stepped)

    def _stepped(self) -> bool:
        return (float(self.pace.currentData()) == 0.0
                and self.difficulty.value() <= playback.STEPPED_UP_TO)

    def _pace(self, stepped: bool) -> float:
        seconds = float(self.pace.currentData())
        return playback.PACE if stepped or not seconds else seconds

    def _watch(self, rnd, stepped: bool) -> None:
        self.dealt_difficulty = self.difficulty.value()
        self.screen.start(rnd, paced=not stepped)
