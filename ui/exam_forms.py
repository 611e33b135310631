"""The instructor's exam forms: the builder (exam items, bundled or from files, never practice
scenarios; a time limit, a pass mark, the attempts allowed, and for a pool how many items each
sitting draws), and the Forms tab of the Exam screen (the list; new, import, export)."""

from __future__ import annotations

from trainer import GAME_NAMES
from ui.lists import button_row, selected, table
from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
)


class FormBuilder(QDialog):
    """Build an exam form; `form` holds it once accepted."""

    def __init__(self, items, author: str, parent=None):
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
        self.draw = QSpinBox()
        self.draw.setRange(0, 100)
        self.draw.setSpecialValueText("every ticked item, in order")
        self.draw.setSuffix(" items drawn from the ticked ones")
        self.draw.setToolTip("A pool: each sitting draws this many of the ticked items (the "
                             "instructor's machine draws when it issues the sitting, and the "
                             "workstation receives only those)")
        for label, w in (("Name", self.name), ("Time limit", self.minutes), ("Pass mark", self.pass_mark),
                         ("Attempts allowed", self.attempts), ("Each sitting asks", self.draw)):
            fields.addRow(label, w)
        layout.addLayout(fields)
        hint = QLabel("Exam items (tick the ones the exam asks, in order). Exam items are "
                      "scenarios of their own, never practice scenarios: add yours from files.")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.list = QListWidget()
        for s in items:
            self._add_item(s, checked=False)
        layout.addWidget(self.list, 1)
        from_file = QPushButton("Add exam items from files…")
        from_file.clicked.connect(self.add_from_file)
        layout.addWidget(from_file)
        self.message = QLabel("")
        self.message.setObjectName("wrong")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.save_button.setText("Save form")
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
        from trainer import ScenarioError, build
        from trainer import load_scenario as load

        paths = [path] if path else QFileDialog.getOpenFileNames(self, "Exam item files", "",
                                                                 "Scenarios (*.toml)")[0]
        problems = []
        for p in paths:
            try:
                scenario = load(p)
                build(scenario)
            except ScenarioError as e:
                problems.append(str(e))
                continue
            self._add_item(scenario, checked=True)
        self.message.setText("\n".join(problems))

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
        if self.draw.value() > len(items):
            self.message.setText(f"Each sitting asks {self.draw.value()} items, but only {len(items)} "
                                 "are ticked: tick more, or ask fewer.")
            return
        try:
            self.form = new_form(name, items, time_limit_seconds=self.minutes.value() * 60,
                                 created_by=self.author, pass_mark=self.pass_mark.value(),
                                 attempts_allowed=self.attempts.value(), draw=self.draw.value())
        except FormError as e:
            self.message.setText(str(e))
            return
        super().accept()


class FormsTab:
    """The instructor's Forms tab of ExamPage (a mixin): the list, and new, import and export."""

    def _forms_tab(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.forms = table(["Form", "Games", "Parts", "Time", "Pass mark", "Attempts"])
        v.addWidget(self.forms, 1)
        v.addLayout(button_row((("New form…", self.new_form), ("Import form…", self.import_form),
                                ("Export form…", self.export_form),
                                ("Issue a sitting…", lambda: self.certification.issue()),
                                ("Certify a submission…", lambda: self.certification.certify()))))
        return w

    def new_form(self) -> None:
        from trainer.exams import add_form, exam_items
        from ui.exam_forms import FormBuilder

        builder = FormBuilder(exam_items().values(), self.trainee.name, self)
        if builder.exec() and builder.form is not None:
            add_form(self.store, builder.form)
            self.refresh()

    def import_form(self) -> None:
        from trainer.exams import ExamError, import_form

        path, _ = QFileDialog.getOpenFileName(self, "Import an exam form", "", "Exam forms (*.json)")
        if path:
            try:
                form, added = import_form(self.store, path)
            except ExamError as e:
                QMessageBox.warning(self, "Import form", str(e))
                return
            QMessageBox.information(self, "Import form", f"{form.name}: "
                                    + ("added." if added else "already here."))
            self.refresh()

    def export_form(self) -> None:
        from trainer.exams import export_form

        uid = selected(self.forms)
        if uid is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the exam form", "exam-form.json",
                                              "Exam forms (*.json)")
        if path:
            export_form(self.store, uid, path)
