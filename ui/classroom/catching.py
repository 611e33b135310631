"""The Class tab's Supervising view, beside the skills grid: each trainee's catch rate per fault
class and per game (trainer.classes.workstation.catching, read live with the rest of the tab) and
the class's weakest fault class named above it."""

from __future__ import annotations

import html
import textwrap

from trainer import GAME_IDS, GAME_NAMES, FaultClass
from ui.classroom.grid import FAIR, GOOD, INK, POOR, KeyView
from ui.progress.supervising import CLASS_WORDS, rate_text
from ui.qt import QAbstractTableModel, QHeaderView, QLabel, QModelIndex, Qt, QVBoxLayout, QWidget

#: a line of a column's heading, in characters
HEADING_WIDTH = 12
#: the columns: the rounds, each fault class, each game
CLASSES = [c.value for c in FaultClass]
HEADINGS = ["Rounds", *(CLASS_WORDS[c].split(":")[0].removesuffix(" the regulation imposes")
                        for c in CLASSES), *(GAME_NAMES[g] for g in GAME_IDS)]
EMPTY = ("No supervised rounds in the class yet: they reach it from the workstations with the "
         "attempts, as each trainee finishes one on the Supervise screen.")
NOT_LIVE = "Supervised rounds are read from the class server: join the class as its instructor."


class CatchModel(QAbstractTableModel):
    """Trainees (rows) by rounds, fault class and game (columns): caught over seen, coloured as
    the skills grid colours accuracy."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []

    def show(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADINGS)

    def pair(self, row, column: int) -> tuple[int, int]:
        if column <= len(CLASSES):
            return row.by_class.get(CLASSES[column - 1], (0, 0))
        return row.by_game.get(GAME_IDS[column - 1 - len(CLASSES)], (0, 0))

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        row, column = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if column == 0:
            return str(row.rounds) if role == Qt.ItemDataRole.DisplayRole else None
        caught, seen = self.pair(row, column)
        if role == Qt.ItemDataRole.DisplayRole:
            return rate_text((caught, seen))
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.name}: {HEADINGS[column]}, {caught} of {seen} faults caught"
        if not seen:
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            return GOOD if caught >= 0.9 * seen else FAIR if caught >= 0.75 * seen else POOR
        if role == Qt.ItemDataRole.ForegroundRole:
            return INK
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical:
            return self.rows[section].name if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:  # on short lines, as the skills grid's headings
            return textwrap.fill(HEADINGS[section], HEADING_WIDTH)
        return HEADINGS[section] if role == Qt.ItemDataRole.ToolTipRole else None


class CatchView(QWidget):
    """The weakest fault class of the class, then the trainees' catch rates."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.weakest = QLabel(NOT_LIVE)
        self.weakest.setWordWrap(True)
        self.weakest.setAccessibleName("The class's weakest fault class")
        layout.addWidget(self.weakest)
        self.table = KeyView()
        self.model = CatchModel(self.table)
        self.table.setModel(self.model)
        self.table.setAccessibleName("Catch rate by trainee, fault class and game")
        # a column as wide as its heading and values, measured whenever they change (a few
        # columns, one row a trainee: no cost worth keeping apart, as the skills grid's is)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 1)

    def show_rates(self, rates) -> None:
        """Draw a ClassCatchRates (None: the class is not read live)."""
        if rates is None:
            self.model.show([])
            self.weakest.setText(NOT_LIVE)
            return
        self.model.show(rates.rows)
        if not rates.rows:
            self.weakest.setText(EMPTY)
        elif rates.weakest is None:
            self.weakest.setText("No fault class named the weakest yet: one is, once the class has "
                                 "seen three of its faults.")
        else:
            caught, seen = rates.by_class[rates.weakest]
            words = html.escape(CLASS_WORDS[rates.weakest])
            self.weakest.setText(f"The class's weakest fault class: <b>{words}</b> — "
                                 f"{rate_text((caught, seen))} caught ({caught} of {seen} faults)")
