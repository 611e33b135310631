"""Choosing who is training: the trainee list at start, new trainees, and the instructor's
passphrase."""

from __future__ import annotations

from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    Qt,
    QVBoxLayout,
)


class ProfileDialog(QDialog):
    """Pick a trainee (Enter), or add one. An instructor profile asks for its passphrase."""

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.store = store
        self.chosen = None
        self.setWindowTitle("Who is training?")
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        heading = QLabel("Who is training?")
        heading.setObjectName("pageTitle")
        layout.addWidget(heading)
        self.list = QListWidget()
        self.list.itemActivated.connect(lambda _item: self.accept())
        layout.addWidget(self.list, 1)
        row = QHBoxLayout()
        add = QPushButton("New trainee…")
        add.clicked.connect(self.add_trainee)
        instructor = QPushButton("New instructor…")
        instructor.clicked.connect(self.add_instructor)
        row.addWidget(add)
        row.addWidget(instructor)
        row.addStretch(1)
        layout.addLayout(row)
        self.message = QLabel("")
        self.message.setObjectName("wrong")
        layout.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.fill()

    def fill(self, select: int | None = None) -> None:
        self.list.clear()
        for t in self.store.trainees():
            item = QListWidgetItem(f"{t.name}{'  (instructor)' if t.instructor else ''}")
            item.setData(Qt.ItemDataRole.UserRole, t.id)
            self.list.addItem(item)
            if t.id == select:
                self.list.setCurrentItem(item)
        if self.list.currentRow() < 0 and self.list.count():
            self.list.setCurrentRow(0)

    def _name(self, title: str) -> str | None:
        name, ok = QInputDialog.getText(self, title, "Name:")
        name = name.strip()
        if not ok or not name:
            return None
        if self.store.find_trainee(name) is not None:
            self.message.setText(f"“{name}” is already on the list.")
            return None
        return name

    def add_trainee(self) -> None:
        if (name := self._name("New trainee")) is not None:
            self.fill(self.store.add_trainee(name))

    def add_instructor(self) -> None:
        name = self._name("New instructor")
        if name is None:
            return
        first, ok = QInputDialog.getText(self, "Passphrase", "Choose a passphrase (8 characters "
                                         "or more):", QLineEdit.EchoMode.Password)
        if not ok:
            return
        if len(first) < 8:
            self.message.setText("The passphrase needs 8 characters or more.")
            return
        again, ok = QInputDialog.getText(self, "Passphrase", "Type it again:",
                                         QLineEdit.EchoMode.Password)
        if not ok or again != first:
            self.message.setText("The two passphrases differ; nothing was saved.")
            return
        self.fill(self.store.add_trainee(name, instructor=True, passphrase=first))

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None:
            self.message.setText("Add a trainee first.")
            return
        trainee = self.store.trainee(item.data(Qt.ItemDataRole.UserRole))
        if trainee.instructor and trainee.has_passphrase:
            phrase, ok = QInputDialog.getText(self, "Instructor", f"Passphrase for {trainee.name}:",
                                              QLineEdit.EchoMode.Password)
            if not ok:
                return
            if not self.store.verify_passphrase(trainee.id, phrase):
                QMessageBox.warning(self, "Instructor", "That passphrase is not right.")
                return
        self.chosen = trainee
        super().accept()
