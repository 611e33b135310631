"""The instructor's exam forms: the builder (exam items, bundled or from files, never practice
scenarios, each asked of a dealer or, for a floor supervisor, watched as a supervise item with
faults dealt into it; a time limit, a pass mark, the attempts allowed, and for a pool how many
items each sitting draws), and the Forms tab of the Exam screen (the list; new, import, export)."""

from __future__ import annotations

import contextlib
import secrets
import threading

from trainer import GAME_NAMES
from ui.qt import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QObject,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ui.shell.lists import button_row, selected, table


class FormBuilder(QDialog):
    """Build an exam form; `form` holds it once accepted."""

    def __init__(self, items, author: str, parent=None, source=None):
        """`source`: a form to start from (Duplicate as a new form): its settings, and its items
        ticked first in its order. What is saved is a new form, with an id and digest of its own;
        the source is never changed (a form's content is fixed once stored)."""
        super().__init__(parent)
        self.setWindowTitle("New exam form" if source is None else f"Duplicate {source.name!r} as a new form")
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
        ticked = list(zip(source.items, source.scenarios, strict=True)) if source is not None else []
        for it, s in ticked:  # a supervise item stays one, with its faults, seed and pace
            if it.supervise is not None:
                self._add_supervised(it, s, checked=True)
            else:
                self._add_item(s, checked=True)
        for s in items:
            if all(s.id != t.id or it.supervise is not None for it, t in ticked):
                self._add_item(s, checked=False)
        layout.addWidget(self.list, 1)
        row = QHBoxLayout()
        from_file = QPushButton("Add exam items from files…")
        from_file.clicked.connect(self.add_from_file)
        row.addWidget(from_file)
        row.addStretch(1)
        self.faults = QSpinBox()
        self.faults.setRange(1, 10)
        self.faults.setValue(2)
        self.faults.setSuffix(" faults")
        self.faults.setToolTip("How many faults the dealer makes in the round, beside any its "
                               "scenario scripts; each sitting deals its own")
        self.add_supervise = QPushButton("Add as a supervise item")
        self.add_supervise.setToolTip("The chosen exam item, watched by a floor supervisor: a dealer "
                                      "works it making this many faults, which the supervisor flags")
        self.add_supervise.clicked.connect(lambda: self.add_supervised())
        row.addWidget(QLabel("Supervise the chosen item with"))
        row.addWidget(self.faults)
        row.addWidget(self.add_supervise)
        layout.addLayout(row)
        self.message = QLabel("")
        self.message.setObjectName("wrong")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.retire_source = None
        if source is not None:
            self.name.setText(f"{source.name} (new)")
            self.minutes.setValue(max(1, source.time_limit_seconds // 60))
            self.pass_mark.setValue(source.pass_mark)
            self.attempts.setValue(source.attempts_allowed)
            self.draw.setValue(source.draw)
            self.retire_source = QCheckBox(f"Retire {source.name!r} once the new form is saved "
                                           "(its results and certificates stay)")
            self.retire_source.setChecked(True)
            layout.addWidget(self.retire_source)
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

    def _add_supervised(self, item, scenario, *, checked: bool) -> None:
        """A supervise item (a trainer.exams FormItem with its `supervise`) in the list."""
        n = item.supervise.faults
        entry = QListWidgetItem(f"Supervise: {GAME_NAMES[scenario.game]} — {scenario.title} (the dealer "
                                f"makes {n} fault{'s' if n != 1 else ''}, an action every "
                                f"{item.supervise.pace:g} s)")
        entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        entry.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        entry.setData(Qt.ItemDataRole.UserRole, item)
        self.list.addItem(entry)

    def add_supervised(self) -> bool:
        """The chosen exam item, added ticked as a supervise item with the faults asked (dealt
        from a seed of its own: a sitting deals its own faults anyway); its problem in one line
        when the round has no room for them."""
        from trainer.exams import FormError, FormItem

        chosen = self.list.currentItem()
        scenario = chosen.data(Qt.ItemDataRole.UserRole) if chosen is not None else None
        if scenario is None or isinstance(scenario, FormItem):
            self.message.setText("Choose an exam item in the list first (a dealer's, not a supervise item).")
            return False
        try:
            item = FormItem.supervised(scenario, self.faults.value(), secrets.token_hex(8))
        except FormError as e:
            self.message.setText(f"Not added as a supervise item: {e}")
            return False
        self._add_supervised(item, scenario, checked=True)
        self.list.setCurrentRow(self.list.count() - 1)
        self.message.setText("")
        return True

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


NOT_IN_CLASS = ("This app is not in a class: join it with the instructor's address (File › Join "
                "class…) to give forms to the class.")
GIVE_TIP = ("Give the selected form to the class: trainees start it on the class's workstations "
            "with no sitting, counted by the class server against the attempts it allows")
INSTRUCTORS_ONLY = ("Only the instructor's login gives forms to the class: join it with the "
                    "instructor's address (File › Join class…).")


IN_CLASS = 6  # the Forms list's column "In the class", shown while the app is in a class


def attempts(n: int) -> str:
    return f"{n} attempt{'s' if n != 1 else ''}"


class GivenReader(QObject):
    """Which forms the class was given, and the attempts it allows at each (the class server's
    `attempts_allowed`), read on a thread of its own: a server out of reach takes seconds to say
    so, and the Forms list does not wait for it. One read at a time; asked again while one runs,
    it reads once more after it."""

    read = Signal(object, object)  # {form uid: attempts allowed, None when not given}, problem or None

    def __init__(self, parent=None):
        super().__init__(parent)
        self.running = False
        self.again = None

    def start(self, connection, uids: list[str]) -> None:
        if self.running:
            self.again = (connection, uids)
            return
        self.running = True
        threading.Thread(target=self._read, args=(connection, list(uids)), name="forms-given",
                         daemon=True).start()

    def done(self) -> None:
        """The read was shown (on the GUI thread): start the one asked for meanwhile, if any."""
        self.running = False
        if self.again is not None:
            again, self.again = self.again, None
            self.start(*again)

    def _read(self, connection, uids: list[str]) -> None:
        from trainer.classes import ClassServerError

        given, problem = {}, None
        for uid in uids:
            try:
                given[uid] = connection.attempts_allowed(uid)
            except ClassServerError as e:
                problem = str(e)
                break
            except Exception as e:  # shown in the list, never a traceback from a thread
                problem = f"{type(e).__name__}: {e}"
                break
        with contextlib.suppress(RuntimeError):  # the page was closed meanwhile
            self.read.emit(given, problem)


class OrderKeys(QObject):
    """Alt+↑ and Alt+↓ on the forms list move the selected form (`move(-1)`, `move(1)`)."""

    def __init__(self, move, parent=None):
        super().__init__(parent)
        self.move = move
        self.steps = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1}

    def eventFilter(self, watched, event) -> bool:
        from ui.qt import QEvent

        kind = event.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) or \
                event.modifiers() != Qt.KeyboardModifier.AltModifier or event.key() not in self.steps:
            return False
        if kind == QEvent.Type.KeyPress:
            self.move(self.steps[event.key()])
        event.accept()
        return True


class FormsTab:
    """The instructor's Forms tab of ExamPage (a mixin): the list, and new, import and export;
    while the app is in a class, Give to class (trainer.exams.give_to_class), also offered for a
    form just made or imported."""

    def _forms_tab(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.forms = table(["Form", "Games", "Parts", "Time", "Pass mark", "Attempts", "In the class"],
                            stretch=1)  # the form's name read whole, as the Exam list's
        self.forms.horizontalHeaderItem(IN_CLASS).setToolTip(
            "Given to the class: trainees start it on the class's workstations with no sitting, "
            "as many times as the class allows (read from the class server)")
        self.given: dict[str, int | None] = {}  # read from the class server, by form uid
        self.given_problem: str | None = None
        self.given_reader = GivenReader(self)
        self.given_reader.read.connect(self._given_read)
        v.addWidget(self.forms, 1)
        row = button_row((("New form…", self.new_form), ("Import form…", self.import_form),
                          ("Export form…", self.export_form),
                          ("Issue a sitting…", lambda: self.certification.issue()),
                          ("Certify…", lambda: self.certification.certify())))
        self.give_button = QPushButton("Give to &class")
        self.give_button.clicked.connect(lambda: self.give_form_to_class())
        row.insertWidget(3, self.give_button)  # after Export form…
        v.addLayout(row)
        keep = button_row((("Duplicate as a new form…", self.duplicate_form),
                           ("Retire form…", self.retire_form), ("Bring back", self.bring_back_form)))
        # the forms' order, kept in the progress file: as the trainees' list shows them too.
        # Alt+↑ and Alt+↓ are read by the list itself (a list takes its arrow keys before any
        # shortcut) and by the buttons' shortcuts elsewhere on the tab
        for at, (text, key, step) in enumerate((("Move &up", "Alt+Up", -1),
                                                ("Move &down", "Alt+Down", 1))):
            button = QPushButton(text)
            button.setShortcut(QKeySequence(key))
            button.setToolTip(f"Move the selected form {'up' if step < 0 else 'down'} the list — {key}")
            button.clicked.connect(lambda _=False, s=step: self.move_form(s))
            keep.insertWidget(at, button)
        self.order_keys = OrderKeys(self.move_form, self.forms)
        self.forms.installEventFilter(self.order_keys)
        self.show_retired = QCheckBox("Show retired forms")
        self.show_retired.toggled.connect(lambda _on: self.refresh())
        keep.addWidget(self.show_retired)
        v.addLayout(keep)
        self.services.class_changed.connect(self.show_class_state)
        self.show_class_state()
        return w

    def show_class_state(self) -> None:
        """Give to class is enabled while the app is in a class; its tooltip says why not."""
        joined = self.class_connection() is not None
        self.give_button.setEnabled(joined)
        self.give_button.setToolTip(GIVE_TIP if joined else NOT_IN_CLASS)
        self.forms.setColumnHidden(IN_CLASS, not joined)
        self.given, self.given_problem = {}, None
        self.show_given()
        self.read_given()

    def in_class(self, uid: str) -> str:
        """The Forms list's "In the class" cell of a form."""
        if uid in self.given:
            n = self.given[uid]
            return f"given, {attempts(n)}" if n is not None else "not given"
        return "?" if self.given_problem is not None else "…"

    def read_given(self) -> None:
        """Read which of the forms listed the class was given (on a thread), while in a class."""
        classroom = self.class_connection()
        if classroom is not None and self.forms.rowCount():
            rows = range(self.forms.rowCount())
            self.given_reader.start(classroom, [self.forms.item(r, 0).data(Qt.ItemDataRole.UserRole)
                                                for r in rows])

    def _given_read(self, given: dict, problem: str | None) -> None:
        if self.class_connection() is not None:
            self.given.update(given)
            self.given_problem = problem
            self.show_given()
        self.given_reader.done()

    def show_given(self) -> None:
        for r in range(self.forms.rowCount()):
            item = self.forms.item(r, IN_CLASS)
            if item is not None:
                item.setText(self.in_class(item.data(Qt.ItemDataRole.UserRole)))
                item.setToolTip(f"Not read from the class server: {self.given_problem}"
                                if item.text() == "?" else "")

    def give_form_to_class(self, uid: str | None = None) -> bool | None:
        """Give the selected form (or `uid`'s) to the class, and say how it went in a message:
        True given now, False given already, None not given (out of class, refused, out of reach)."""
        from trainer.exams import ClassLedgerError, ExamOfflineError, get_form, give_to_class
        from ui.shell.server_call import server_call, status_bar_of

        classroom = self.class_connection()
        uid = uid or selected(self.forms)
        if uid is None:
            return None
        form = get_form(self.store, uid)
        title = "Give to class"
        if classroom is None:
            QMessageBox.information(self, title, NOT_IN_CLASS)
            return None
        try:
            with server_call(status_bar_of(self), f"Giving {form.name!r} to the class at "
                                                  f"{classroom.address.shown}"):
                given = give_to_class(classroom, form)
        except ExamOfflineError as e:
            QMessageBox.warning(self, title, f"Not given: {e}")
            return None
        except ClassLedgerError as e:
            hint = f"\n\n{INSTRUCTORS_ONLY}" if "refuses this login" in str(e) else ""
            QMessageBox.warning(self, title, f"Not given: {e}{hint}")
            return None
        each = f"{attempts(form.attempts_allowed)} each"
        self.given[form.uid] = form.attempts_allowed  # given now or before: the same form
        self.show_given()
        if given:
            QMessageBox.information(self, title, f"{form.name!r} is given to the class: trainees "
                                    f"start it on the class's workstations with no sitting, {each}, "
                                    "counted by the class server.")
        else:
            QMessageBox.information(self, title, f"{form.name!r} was already given to the class "
                                    f"({each}): nothing changed.")
        return given

    def offer_to_class(self, form, said: str) -> None:
        """A form just made or imported, while in a class: give it to the class now? (`said`:
        what happened to it, first.) Not now is the default: a form given stays given."""
        if self.class_connection() is None:
            if said:
                QMessageBox.information(self, "Import form", said)
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Give to class",
                          f"{said + ' ' if said else ''}Give {form.name!r} to the class now? "
                          f"Trainees then start it on the class's workstations with no sitting, "
                          f"{attempts(form.attempts_allowed)} each. A form given to the class "
                          "stays given (Give to class on this tab does it later).", parent=self)
        give = box.addButton("&Give to class", QMessageBox.ButtonRole.AcceptRole)
        later = box.addButton("&Not now", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(later)
        box.setEscapeButton(later)
        box.exec()
        if box.clickedButton() is give:
            self.give_form_to_class(form.uid)

    def new_form(self) -> None:
        from trainer.exams import add_form, exam_items
        from ui.exams.forms import FormBuilder

        builder = FormBuilder(exam_items().values(), self.trainee.name, self)
        if builder.exec() and builder.form is not None:
            add_form(self.store, builder.form)
            self.refresh()
            self.offer_to_class(builder.form, "")

    def duplicate_form(self) -> bool:
        """A new form made from the selected one (its settings and items to change): forms are
        signed and digested, so a form is never edited; the new one may retire the old."""
        from trainer.exams import add_form, archive_form, exam_items, get_form
        from ui.exams.forms import FormBuilder

        uid = selected(self.forms)
        if uid is None:
            QMessageBox.information(self, "Duplicate as a new form", "Choose a form first.")
            return False
        source = get_form(self.store, uid)
        builder = FormBuilder(exam_items().values(), self.trainee.name, self, source=source)
        if not builder.exec() or builder.form is None:
            return False
        add_form(self.store, builder.form)
        if builder.retire_source.isChecked():
            archive_form(self.store, source.uid)
        self.refresh()
        self.offer_to_class(builder.form, "")
        return True

    def move_form(self, step: int) -> bool:
        """Move the selected form up (-1) or down (+1) the list; it stays selected."""
        from trainer.exams import move_form

        uid = selected(self.forms)
        if uid is None:
            return False
        moved = move_form(self.store, uid, step, archived=self.show_retired.isChecked())
        self.refresh()
        for row in range(self.forms.rowCount()):
            if self.forms.item(row, 0).data(Qt.ItemDataRole.UserRole) == uid:
                self.forms.selectRow(row)
        return moved

    def retire_form(self, confirm: bool = True) -> bool:
        """Retire the selected form: no longer offered, sat or issued; its results, sittings issued
        and certificates stay, and it can be brought back."""
        from trainer.exams import archive_form, get_form

        uid = selected(self.forms)
        if uid is None:
            return False
        form = get_form(self.store, uid)
        if form.archived:
            return False
        if confirm and QMessageBox.question(
                self, "Retire form", f"Retire {form.name!r}? It is no longer offered to trainees and "
                "no sitting of it can be issued. Its results, the sittings already issued and their "
                "certificates stay; Show retired forms, then Bring back, offers it again.") \
                != QMessageBox.StandardButton.Yes:
            return False
        archive_form(self.store, uid)
        self.refresh()
        return True

    def bring_back_form(self) -> bool:
        from trainer.exams import get_form, restore_form

        uid = selected(self.forms)
        if uid is None or not get_form(self.store, uid).archived:
            return False
        restore_form(self.store, uid)
        self.refresh()
        return True

    def import_form(self) -> None:
        from trainer.exams import ExamError, import_form

        path, _ = QFileDialog.getOpenFileName(self, "Import an exam form", "", "Exam forms (*.json)")
        if path:
            try:
                form, added = import_form(self.store, path)
            except ExamError as e:
                QMessageBox.warning(self, "Import form", str(e))
                return
            self.refresh()
            self.offer_to_class(form, f"{form.name}: " + ("added." if added else "already here."))

    def export_form(self) -> None:
        from trainer.exams import export_form

        uid = selected(self.forms)
        if uid is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the exam form", "exam-form.json",
                                              "Exam forms (*.json)")
        if path:
            export_form(self.store, uid, path)
