"""The scenario browser: every bundled scenario with its game, difficulty, skills and best score.
A broken scenario file is listed in a warning, never fatal."""

from __future__ import annotations

import html

from trainer import Library, automation_words
from trainer import get_game as get
from ui.qt import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)

COLUMNS = ("Game", "Scenario", "Difficulty", "Skills", "Target", "Best")


class ScenariosPage(QWidget):
    start = Signal(object)  # Scenario

    def __init__(self, library: Library, best: dict[str, int] | None = None, parent=None):
        super().__init__(parent)
        self.library = library
        self.best = best or {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        title = QLabel("Scenarios")
        title.setObjectName("pageTitle")
        top.addWidget(title)
        top.addStretch(1)
        self.filter = QComboBox()
        self.filter.addItem("All games", "")
        for g in sorted({s.game for s in library.scenarios}):
            self.filter.addItem(get(g).name, g)
        self.filter.currentIndexChanged.connect(self.fill)
        top.addWidget(QLabel("Show"))
        top.addWidget(self.filter)
        layout.addLayout(top)
        self.warning = QLabel("")
        self.warning.setObjectName("banner")
        self.warning.setWordWrap(True)
        if library.problems:
            self.warning.setText("Some scenario files were skipped:<br>" + "<br>".join(
                html.escape(p) for p in library.problems))
        self.warning.setVisible(bool(library.problems))
        layout.addWidget(self.warning)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):  # the game and the numbers read whole
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)  # skills: a tooltip
        self.table.setColumnWidth(3, 260)
        self.table.setSortingEnabled(True)
        self.table.itemSelectionChanged.connect(self._show_briefing)
        self.table.itemActivated.connect(lambda _item: self._start())
        layout.addWidget(self.table, 2)
        self.briefing = QTextBrowser()
        layout.addWidget(self.briefing, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.go = QPushButton("Start scenario (Enter)")
        self.go.setObjectName("primary")
        self.go.clicked.connect(self._start)
        row.addWidget(self.go)
        layout.addLayout(row)
        self.fill()

    def set_best(self, best: dict[str, int]) -> None:
        """New best scores (a round was just recorded), the chosen scenario kept."""
        chosen = self.current()
        self.best = best
        self.fill()
        if chosen is not None:
            for row in range(self.table.rowCount()):
                if self.table.item(row, 0).data(Qt.ItemDataRole.UserRole) == chosen.id:
                    self.table.selectRow(row)

    def fill(self) -> None:
        game = self.filter.currentData()
        self.table.setSortingEnabled(False)
        shown = [s for s in self.library.scenarios if not game or s.game == game]
        self.table.setRowCount(len(shown))
        for row, s in enumerate(shown):
            best = self.best.get(s.id)
            cells = (get(s.game).name, s.title, "★" * s.difficulty,
                     ", ".join(k.title for k in s.skills), f"{s.target_seconds} s",
                     f"{best}" if best is not None else "—")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, s.id)
                item.setToolTip(text)
                self.table.setItem(row, col, item)
        self.table.setSortingEnabled(True)
        if shown:
            self.table.selectRow(0)
        # the first row may have been the chosen one before the games shown changed: its new
        # scenario is then chosen with no change of selection to say so, and the briefing shown
        # would be the last one's while Enter starts the new
        self._show_briefing()

    def current(self):
        items = self.table.selectedItems()
        return self.library.by_id(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _show_briefing(self) -> None:
        s = self.current()
        if s is None:
            self.briefing.setHtml("")
            return
        self.briefing.setHtml(f"<h3>{html.escape(s.title)}</h3><p>{html.escape(s.told)}</p>"
                              f"<p><i>{get(s.game).name} · difficulty {s.difficulty} · you do "
                              f"{automation_words(s.automation)} · target {s.target_seconds} s</i></p>")

    def _start(self) -> None:
        s = self.current()
        if s is not None:
            self.start.emit(s)
