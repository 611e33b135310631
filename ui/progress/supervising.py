"""The Progress screen's Supervising tab: the trainee's catch rate per fault class and per game,
from the rounds supervised (trainer.progress.catch_rates), and "Drill this" for the weakest class."""

from __future__ import annotations

from fractions import Fraction

from trainer import GAME_IDS, GAME_NAMES, FaultClass
from ui.qt import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)

#: each fault class in a supervisor's words
CLASS_WORDS = {"money": "Money: payouts and collections", "calls": "Calls: the dice and no rolls",
               "records": "Records: markers, pointer, lammers, pucks",
               "security": "Security: dice, late wagers, cocked dice",
               "order": "Order the regulation imposes"}


def rate_text(pair: tuple[int, int]) -> str:
    caught, seen = pair
    return f"{round(Fraction(100 * caught, seen))}%" if seen else "—"


class SupervisingTab(QWidget):
    drill = Signal(str, str)  # the fault class, the game to drill it in

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        row = QHBoxLayout()
        self.weakest = QLabel("")
        self.weakest.setWordWrap(True)
        self.drill_button = QPushButton("Drill this")
        self.drill_button.setObjectName("primary")
        self.drill_button.clicked.connect(self._drill)
        row.addWidget(self.weakest, 1)
        row.addWidget(self.drill_button)
        layout.addLayout(row)
        tables = QHBoxLayout()
        self.by_class = self._table(["Fault class", "Caught", "Faults", "Catch rate"])
        self.by_game = self._table(["Game", "Caught", "Faults", "Catch rate"])
        tables.addWidget(self.by_class)
        tables.addWidget(self.by_game)
        layout.addLayout(tables, 1)
        self.rates = None

    @staticmethod
    def _table(headers: list[str]) -> QTableWidget:
        table = QTableWidget(0, len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        return table

    def show_rates(self, rates) -> None:
        """`rates`: trainer.progress.CatchRates, or None where no progress is kept."""
        self.rates = rates
        if rates is None or not rates.rounds:
            self.summary.setText("No round supervised yet: Supervise (Ctrl+6) deals one, and the "
                                 "faults you catch and miss are kept here.")
            self.weakest.setText("")
            self.drill_button.hide()
            for table in (self.by_class, self.by_game):
                table.setRowCount(0)
            return
        seen = sum(s for _, s in rates.by_class.values())
        caught = sum(c for c, _ in rates.by_class.values())
        self.summary.setText(f"<b>{rates.rounds}</b> round{'' if rates.rounds == 1 else 's'} "
                             f"supervised · <b>{caught}</b> of {seen} faults caught "
                             f"({rate_text((caught, seen))})")
        self._fill(self.by_class, [(CLASS_WORDS[c.value], rates.by_class.get(c.value, (0, 0)))
                                   for c in FaultClass])
        self._fill(self.by_game, [(GAME_NAMES[g], rates.by_game.get(g, (0, 0))) for g in GAME_IDS])
        if rates.weakest is None:
            self.weakest.setText("Supervise a few more rounds: a class is named the weakest once "
                                 "you have seen three of its faults.")
            self.drill_button.hide()
        else:
            pair = rates.by_game_class[(rates.weakest_game, rates.weakest)]
            self.weakest.setText(f"<b>Weakest:</b> {CLASS_WORDS[rates.weakest]} — "
                                 f"{rate_text(rates.by_class[rates.weakest])} caught; in "
                                 f"{GAME_NAMES[rates.weakest_game]}, {rate_text(pair)}")
            self.drill_button.show()

    @staticmethod
    def _fill(table: QTableWidget, rows) -> None:
        table.setRowCount(len(rows))
        for r, (name, pair) in enumerate(rows):
            for c, text in enumerate((name, str(pair[0]), str(pair[1]), rate_text(pair))):
                table.setItem(r, c, QTableWidgetItem(text))

    def _drill(self) -> None:
        if self.rates is not None and self.rates.weakest is not None:
            self.drill.emit(self.rates.weakest, self.rates.weakest_game)
