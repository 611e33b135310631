"""The instructor's exam form builder: scenarios (bundled or from files), a time limit, a pass
mark and the attempts allowed."""

from __future__ import annotations

from trainer.games import GAME_NAMES
from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
)


class FormBuilder(QDialog):
    """Build an exam form; `form` holds it once accepted."""

    def __init__(self, library, author: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New exam form")
        self.setMinimumSize(640, 560)
        self.author = author
        self.form = None
        self.extra: list = []  # scenarios added from files
        layout = QVBoxLayout(self)
        fields = QFormLayout()
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. Props & Hops dealer certification, spring class")
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 240)
        self.minutes.setValue(20)
        self.minutes.setSuffix(" min")
        self.pass_mark = QSpinBox()
        self.pass_mark.setRange(1, 100)
        self.pass_mark.setValue(80)
        self.attempts = QSpinBox()
        self.attempts.setRange(1, 10)
        self.attempts.setValue(2)
        for label, w in (("Name", self.name), ("Time limit", self.minutes), ("Pass mark", self.pass_mark),
                         ("Attempts allowed", self.attempts)):
            fields.addRow(label, w)
        layout.addLayout(fields)
        layout.addWidget(QLabel("Scenarios (tick the ones the exam asks, in order):"))
        self.list = QListWidget()
        for s in library.scenarios:
            self._add_item(s, checked=False)
        layout.addWidget(self.list, 1)
        from_file = QPushButton("Add a scenario from a file…")
        from_file.clicked.connect(self.add_from_file)
        layout.addWidget(from_file)
        self.message = QLabel("")
        self.message.setObjectName("wrong")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Save form")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _add_item(self, scenario, *, checked: bool) -> None:
        item = QListWidgetItem(f"{GAME_NAMES[scenario.game]} — {scenario.title} "
                               f"(difficulty {scenario.difficulty}, {scenario.target_seconds} s)")
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        item.setData(Qt.ItemDataRole.UserRole, scenario)
        self.list.addItem(item)

    def add_from_file(self, path: str | None = None) -> None:
        from trainer.procedure import build
        from trainer.scenario import ScenarioError, load

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "A scenario file", "", "Scenarios (*.toml)")
        if not path:
            return
        try:
            scenario = load(path)
            build(scenario)
        except ScenarioError as e:
            self.message.setText(str(e))
            return
        self._add_item(scenario, checked=True)

    def chosen(self) -> list:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]

    def accept(self) -> None:
        from trainer.exams import FormError, new_form

        name = self.name.text().strip()
        if not name:
            self.message.setText("Give the form a name.")
            return
        items = self.chosen()
        if not items:
            self.message.setText("Tick at least one scenario.")
            return
        try:
            self.form = new_form(name, items, time_limit_seconds=self.minutes.value() * 60,
                                 created_by=self.author, pass_mark=self.pass_mark.value(),
                                 attempts_allowed=self.attempts.value())
        except FormError as e:
            self.message.setText(str(e))
            return
        super().accept()
