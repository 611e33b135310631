"""The lists the screens show (exam forms, results, certificates): one row per record, whole rows
selected, every heading readable, the record's key on each row; and the row of buttons under a
list."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ui.qt import (
    QAbstractItemView,
    QFont,
    QFontMetrics,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QStyle,
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
    # the column that takes the rest keeps its heading whole when the window is narrow: the list
    # scrolls sideways rather than cut it (the others are as wide as their contents)
    header.setMinimumSectionSize(max(header.minimumSectionSize(), heading_width(header, headers[stretch])))
    return t


def heading_width(header: QHeaderView, text: str) -> int:
    """The width a heading's text takes, in the header's font made bold (as the themes draw
    it), with room for the section's padding and sort marker."""
    font = QFont(header.font())
    font.setBold(True)
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
    return QFontMetrics(font).horizontalAdvance(f" {text} ") + 4 * margin


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
