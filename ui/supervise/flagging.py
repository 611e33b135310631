"""The flag the supervisor raises: what is pointed at (a wager on the table, the call, a record)
and what is wrong with it, chosen from the catalogue's words with their sections. All from the
keyboard too: ↑ ↓ choose, Tab or → goes on to the faults, Enter flags, Esc cancels."""

from __future__ import annotations

from trainer import playback, readable
from ui.qt import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

DATA = Qt.ItemDataRole.UserRole


class FlagPanel(QWidget):
    """Point at something and say what is wrong; `flagged` with (target, fault type id)."""

    flagged = Signal(str, str)
    cancelled = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.round = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QLabel("<b>Flag:</b> point at it (click the table, or ↑ ↓), then say what is wrong")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.targets = QListWidget()
        self.targets.setAccessibleName("What you point at")
        self.choices = QListWidget()
        self.choices.setAccessibleName("What is wrong")
        self.choices.setWordWrap(True)
        layout.addWidget(self.targets, 2)
        asked = QLabel("What is wrong, in the regulation's words:")
        asked.setWordWrap(True)  # large print on a laptop: read whole, never cut
        layout.addWidget(asked)
        layout.addWidget(self.choices, 3)
        row = QHBoxLayout()
        self.flag_button = QPushButton("Flag it (Enter)")
        self.flag_button.setObjectName("primary")
        self.flag_button.clicked.connect(self.flag)
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.cancel_button.clicked.connect(self.cancelled)
        row.addWidget(self.flag_button)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        self.targets.currentRowChanged.connect(self._fill_choices)
        self.targets.itemDoubleClicked.connect(lambda _: self.choices.setFocus())
        self.choices.itemDoubleClicked.connect(lambda _: self.flag())
        for lst in (self.targets, self.choices):
            lst.installEventFilter(self)

    def open_at(self, rnd, frame, shown=()) -> None:
        """Ready to flag at `frame` of the round (`shown`: the frames shown up to it): its
        targets listed, the first chosen."""
        self.round = rnd
        self.targets.clear()
        for target, words in playback.targets(rnd, frame, shown):
            item = QListWidgetItem(words)
            item.setData(DATA, target)
            self.targets.addItem(item)
        self.targets.setCurrentRow(0)
        self.targets.setFocus()

    def point_at(self, target: str) -> bool:
        """Choose a target (a wager clicked on the table); False if it is not listed."""
        for row in range(self.targets.count()):
            if self.targets.item(row).data(DATA) == target:
                self.targets.setCurrentRow(row)
                self.choices.setFocus()
                return True
        return False

    def target(self) -> str | None:
        item = self.targets.currentItem()
        return item.data(DATA) if item is not None else None

    def _fill_choices(self, _row: int) -> None:
        self.choices.clear()
        target = self.target()
        if target is None or self.round is None:
            return
        for t in playback.choices(self.round, target):
            item = QListWidgetItem(f"{t.words} — {readable(t.section)}")
            item.setData(DATA, t.id)
            self.choices.addItem(item)
        self.choices.setCurrentRow(0)

    def flag(self) -> None:
        target, item = self.target(), self.choices.currentItem()
        if target is not None and item is not None:
            self.flagged.emit(target, item.data(DATA))

    def eventFilter(self, watched, event) -> bool:
        """The lists' keys: Enter goes on from the targets to the faults and flags from the
        faults, → and ← move between the two lists, Esc cancels."""
        from ui.qt import QEvent

        if event.type() != QEvent.Type.KeyPress:
            return False
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.cancelled.emit()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if watched is self.targets:
                self.choices.setFocus()
            else:
                self.flag()
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_Tab) and watched is self.targets:
            self.choices.setFocus()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Backtab) and watched is self.choices:
            self.targets.setFocus()
        else:
            return False
        return True
