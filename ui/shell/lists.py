"""The lists the screens show (exam forms, results, certificates): one row per record, whole rows
selected, every heading readable, the record's key on each row; and the row of buttons under a
list."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ui.qt import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
)


def table(headers: list[str], stretch: int = 0) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.verticalHeader().setVisible(False)
    header = t.horizontalHeader()
    for column in range(len(headers)):  # every heading readable; the one column takes the rest
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return t


def fill(t: QTableWidget, rows: list[tuple], keys: list) -> None:
    t.setRowCount(len(rows))
    for r, (cells, key) in enumerate(zip(rows, keys, strict=True)):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(str(text))
            item.setToolTip(str(text))  # whole, where the column cuts it short
            item.setData(Qt.ItemDataRole.UserRole, key)
            t.setItem(r, c, item)
    if rows:
        t.selectRow(0)


def selected(t: QTableWidget):
    items = t.selectedItems()
    return items[0].data(Qt.ItemDataRole.UserRole) if items else None


def button_row(buttons: Iterable[tuple[str, Callable[[], object]]]) -> QHBoxLayout:
    """Buttons left to right, each calling its action when clicked, then space."""
    row = QHBoxLayout()
    for text, action in buttons:
        button = QPushButton(text)
        button.clicked.connect(lambda _=False, act=action: act())
        row.addWidget(button)
    row.addStretch(1)
    return row
