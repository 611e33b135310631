"""The Class tab's grid of skills by trainee as a model the view reads, so that drawing the class
again costs what changed, not how many trainees it has: `SkillsModel.show(overview, changed)` tells
the view which rows changed (a live class reads what each result changed: one result changes one
row, and only that row is made again), and resets it only when the trainees or the skills are
others. A
`QTableWidget` re-measured every column for every cell it was given: one redraw grew with the
square of the trainees (2.1 s at 200).

`KeyView` is the read-only view of rows that opens its current row on Enter and on a
double-click (the trainee dialog's table, a `QTableWidget`, does the same through `opens_row`)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from trainer import SKILL_TITLES
from ui.qt import QAbstractItemView, QAbstractTableModel, QColor, QModelIndex, Qt, QTableView, Signal

HEADING_WIDTH = 16  # characters a line of a skill's heading (written upwards: UprightHeader)
GOOD, FAIR, POOR = QColor("#c8e6c9"), QColor("#fff3cd"), QColor("#f8d7da")  # 90% and up, 75%, below
INK = QColor("#1d1d1b")  # on the three grounds, in both themes
ANSWER_TIP = "Median seconds to each action, over the trainee's last 10 attempts"


@dataclass(frozen=True)
class Row:
    """One trainee's line: the name, each skill's accuracy (None: no exercise yet), the seconds."""

    trainee_id: int
    name: str
    accuracies: tuple[float | None, ...]
    seconds: float | None


def row_of(overview, trainee) -> Row:
    cells = (overview.cells.get((trainee.id, s)) for s in overview.skills)
    return Row(trainee.id, trainee.name, tuple(c.accuracy if c is not None else None for c in cells),
               overview.answer_seconds.get(trainee.id))


class SkillsModel(QAbstractTableModel):
    """Skills (columns, then the answer time) by trainee (rows), green, amber or red by accuracy."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.skills: tuple = ()
        self.rows: list[Row] = []

    def show(self, overview, changed=None) -> bool:
        """Take a ClassOverview (`changed`: the trainees, by id, whose rows may differ from the
        overview shown before; None: any); True when the model was reset (other trainees or
        skills), after which the view sizes its columns again. Otherwise only the rows that
        changed are made again and redrawn."""
        skills = tuple(overview.skills)
        if skills != self.skills or [t.id for t in overview.trainees] != [r.trainee_id for r in self.rows]:
            self.beginResetModel()
            self.skills, self.rows = skills, [row_of(overview, t) for t in overview.trainees]
            self.endResetModel()
            return True
        last = len(skills)
        for r, t in enumerate(overview.trainees):
            if changed is not None and t.id not in changed:
                continue
            before, now = self.rows[r], row_of(overview, t)
            self.rows[r] = now
            if before.name != now.name:
                self.headerDataChanged.emit(Qt.Orientation.Vertical, r, r)
            if before != now:
                self.dataChanged.emit(self.index(r, 0), self.index(r, last))
        return False

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.skills else len(self.skills) + 1

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        row, column = self.rows[index.row()], index.column()
        if column == len(self.skills):  # the answer time
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{row.seconds:.1f}" if row.seconds else "—"
            return int(Qt.AlignmentFlag.AlignCenter) if role == Qt.ItemDataRole.TextAlignmentRole else None
        accuracy = row.accuracies[column]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{accuracy:.0%}" if accuracy is not None else "—"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.name}: {SKILL_TITLES[self.skills[column]]}"
        if accuracy is None:
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            return GOOD if accuracy >= 0.9 else FAIR if accuracy >= 0.75 else POOR
        if role == Qt.ItemDataRole.ForegroundRole:
            return INK
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical:
            return self.rows[section].name if role == Qt.ItemDataRole.DisplayRole else None
        answer = section == len(self.skills)
        if role == Qt.ItemDataRole.DisplayRole:  # each skill by its title, on two or three short lines
            return "Answer\n(s)" if answer else textwrap.fill(self.skills[section].title, HEADING_WIDTH)
        if role == Qt.ItemDataRole.ToolTipRole:  # in full in its tooltip
            return ANSWER_TIP if answer else self.skills[section].title
        return None


def opens_row(view, event) -> bool:
    """Enter on a table of rows opens its current row (the view's `opened`); True when it did."""
    row = view.currentIndex().row()
    if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and row >= 0:
        view.opened.emit(row)
        return True
    return False


class KeyView(QTableView):
    """A read-only view of rows that opens its current row on Enter (and on a double-click)."""

    opened = Signal(int)  # row

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.doubleClicked.connect(lambda index: self.opened.emit(index.row()))
        self.verticalHeader().sectionDoubleClicked.connect(self.opened.emit)

    def currentRow(self) -> int:
        return self.currentIndex().row()

    def keyPressEvent(self, event) -> None:
        if not opens_row(self, event):
            super().keyPressEvent(event)
