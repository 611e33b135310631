"""A screen that is not built yet says so plainly."""

from __future__ import annotations

from ui.qt import QLabel, Qt, QVBoxLayout, QWidget


class Placeholder(QWidget):
    def __init__(self, title: str, text: str, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 18)
        heading = QLabel(title)
        heading.setObjectName("pageTitle")
        body = QLabel(text)
        body.setWordWrap(True)
        body.setObjectName("subtitle")
        body.setAlignment(Qt.AlignmentFlag.AlignTop)
        layout.addWidget(heading)
        layout.addWidget(body)
        layout.addStretch(1)
