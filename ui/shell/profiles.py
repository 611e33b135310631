"""Choosing who is training: the trainee list at start, new trainees, and the instructor's
passphrase."""

from __future__ import annotations

from pathlib import Path

from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
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
from ui.shell.working import KEY_WORK, NEW_KEY_WORK, off_the_gui_thread

#: what a trainee with a class login of her own is asked when her profile is made here (its lines
#: broken: QInputDialog does not wrap its words, and the whole was wider than a laptop's screen)
CLASS_PASSWORD_ASKED = ("{name} has a login of their own in the class.\nType its password to make "
                        "this profile the trainee the class knows\n(one trainee on every "
                        "workstation), or Cancel for a profile of this workstation's own:")
#: said once the profile was made under the id the class knows the trainee by
CLASS_IDENTITY_TAKEN = ("{name} is the trainee the class knows: the results made here join those "
                        "of the other workstations.")


class ProfileDialog(QDialog):
    """Pick a trainee (Enter), or add one. An instructor profile asks for its passphrase. A new
    name a person would read as a trainee's here, or in the class joined (`classroom`, a
    ClassLedger), is refused in one line naming the clash. A new trainee whose name has a login
    of its own in the class is asked its password, and the profile made under the trainee id the
    class knows them by (`_class_identity`)."""

    def __init__(self, store, parent=None, classroom=None):
        super().__init__(parent)
        self.store = store
        self.classroom = classroom
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
        for b in (add, instructor):  # Enter is Start's, even after one of these was clicked
            b.setAutoDefault(False)  # (Space still presses the one that has the focus)
        row.addWidget(add)
        row.addWidget(instructor)
        row.addStretch(1)
        layout.addLayout(row)
        self.message = QLabel("")
        self.message.setObjectName("wrong")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.start = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.start.setText("Start")
        self.start.setDefault(True)
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
        if not ok:
            return None
        if not name:  # OK pressed on nothing: said, as every other name refused here
            self.say("Not added: the name was blank; type one.")
            return None
        from trainer.progress import clean_name, long_name, name_problem

        clean = clean_name(name)
        if (why := long_name(clean)) is not None:
            self.say(f"Not added: {why}.")
            return None
        if self.store.find_trainee(name) is not None:
            self.say(f"“{name}” is already on the list.")
            return None
        here = [t.name for t in self.store.trainees()]
        why = (name_problem(clean, here, "on this workstation", mixed=False) or self._in_class(clean)
               or name_problem(clean, [], ""))
        if why is not None:
            self.say(f"Not added: {why}.")
            return None
        return name

    def _in_class(self, name: str) -> str | None:
        """The clash with a name of the class joined, if the class answers (when it does not, it
        refuses the name when the trainee's results reach it, and names it there)."""
        from trainer.classes import ClassServerError
        from trainer.progress import look_alike_message

        if self.classroom is None:
            return None
        try:
            other = self.classroom.look_alike(name)
        except ClassServerError:
            return None
        return look_alike_message(name, other, "in the class") if other else None

    def add_trainee(self) -> None:
        from trainer.progress import StoreError

        if (name := self._name("New trainee")) is not None:
            go_on, identity = self._class_identity(name)
            if not go_on:
                return
            uid, salt = identity if identity is not None else (None, None)
            try:
                self.fill(self.store.add_trainee(name, uid=uid, uid_salt=salt))
            except (StoreError, ValueError) as e:
                self.say(f"Not added: {e}.")
                return
            # what was refused before is not this name's
            self.say(CLASS_IDENTITY_TAKEN.format(name=name) if uid else "", wrong=False)
            self.list.setFocus()  # the new trainee, chosen: Enter starts

    def _class_identity(self, name: str) -> tuple[bool, tuple[str, str | None] | None]:
        """For a name with a login of its own in the class joined: her class password, asked, and
        the trainee id the class knows her by, with its salt when her login made it now
        (ClassLedger.class_identity), which her profile here is made under and keeps, so that
        the class has one trainee for her on every workstation. (True,
        None) for a profile of this workstation's own (no class, no login, no row of hers in the
        class yet, or Cancel); (False, None) when the class refused: said, nothing made."""
        from trainer.classes import ClassServerError, LoginRefusedError
        from ui.shell.server_call import server_call

        if self.classroom is None:
            return True, None
        try:
            login = self.classroom.login_of(name)
        except ClassServerError:
            return True, None  # the class does not answer now: a profile of this workstation's own
        if login is None:
            return True, None
        password, ok = QInputDialog.getText(self, "Class login", CLASS_PASSWORD_ASKED.format(name=name),
                                            QLineEdit.EchoMode.Password)
        if not ok or not password:
            return True, None
        try:
            with server_call(self.busy, "Asking the class for the trainee id it knows you by"):
                return True, self.classroom.class_identity(name, password)
        except LoginRefusedError:
            self.say(f"Not added: the class refuses this password for {name}. Type it again, or "
                     "Cancel at the password to make a profile of this workstation's own.")
        except ClassServerError as e:
            self.say(f"Not added: {e}.")
        return False, None

    def add_instructor(self, *, key_file: str | None = None, passphrase: str | None = None,
                       name: str | None = None) -> int | None:
        """An instructor profile is made with an instructor key: a new one sealed under a strong
        passphrase, or the instructor's existing key file (trainer.exams.roles)."""
        from trainer.exams import MIN_PASSPHRASE, ExamError, add_instructor, instructor_key

        name = name or self._name("New instructor")
        if name is None:
            return None
        if key_file is None and passphrase is None:
            box = QMessageBox(QMessageBox.Icon.Question, "Instructor key",
                              f"{name} signs exam forms, sittings and certificates with an "
                              "instructor key. Make a new one on this machine, or use the key "
                              "file you already have?", parent=self)
            new = box.addButton("Make a new key", QMessageBox.ButtonRole.AcceptRole)
            existing = box.addButton("Use my key file…", QMessageBox.ButtonRole.ActionRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() is existing:
                key_file, _ = QFileDialog.getOpenFileName(self, "Your instructor key", "",
                                                          "Instructor keys (*.key)")
                if not key_file:
                    return None
            elif box.clickedButton() is not new:
                return None
        if passphrase is None:
            prompt = ("The key's passphrase:" if key_file else
                      f"Choose a passphrase for the new key ({MIN_PASSPHRASE} characters or more; "
                      "a few words make a good one):")
            passphrase, ok = QInputDialog.getText(self, "Passphrase", prompt,
                                                  QLineEdit.EchoMode.Password)
            if not ok:
                return None
            if key_file is None:
                again, ok = QInputDialog.getText(self, "Passphrase", "Type it again:",
                                                 QLineEdit.EchoMode.Password)
                if not ok or again != passphrase:
                    self.say("The two passphrases differ; nothing was saved.")
                    return None
        try:
            # the key's work (scrypt) on a thread; the progress file only on its own thread, here
            prepared = off_the_gui_thread(
                self.busy, KEY_WORK if key_file else NEW_KEY_WORK,
                lambda: instructor_key(name, passphrase, self.key_dir(), key_file=key_file))
            trainee, path = add_instructor(self.store, prepared)
        except (ExamError, ValueError) as e:
            self.say(str(e))
            return None
        self.say(f"{name}'s instructor key is {path}. Keep it; give {path.name}.pub to "
                 "workstations and auditors." if key_file is None else "", wrong=False)
        self.fill(trainee)
        self.list.setFocus()
        return trainee

    def say(self, text: str, *, wrong: bool = True) -> None:
        self.message.setObjectName("wrong" if wrong else "note")
        self.message.style().polish(self.message)
        self.message.setText(text)

    def busy(self, text: str) -> None:
        """The line under the list while a passphrase is checked (ui.shell.working)."""
        self.say(text, wrong=False)

    def key_dir(self) -> Path:
        """Where new instructor keys are written: beside the progress file."""
        return Path(self.store.path).resolve().parent / "instructor-keys"

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None:
            self.say("Add a trainee first.")
            return
        trainee = self.store.trainee(item.data(Qt.ItemDataRole.UserRole))
        if trainee.instructor and (trainee.has_passphrase or trainee.public_key):
            phrase, ok = QInputDialog.getText(self, "Instructor", f"Passphrase for {trainee.name}:",
                                              QLineEdit.EchoMode.Password)
            if not ok:
                return
            if not self.open_instructor(trainee, phrase):
                return
        self.chosen = trainee
        super().accept()

    def open_instructor(self, trainee, phrase: str, key_file: str | None = None) -> bool:
        """An instructor made with a key opens with the key's passphrase (the key file asked for
        when it has moved); one from an older version, with its stored passphrase."""
        from trainer.exams import ExamError, KeyFileError, open_instructor
        from trainer.progress import check_passphrase

        if not trainee.public_key:
            stored = self.store.passphrase_hash(trainee.id)  # read here; checked (scrypt) on a thread
            if off_the_gui_thread(self.busy, KEY_WORK, lambda: check_passphrase(stored, phrase)):
                return True
            QMessageBox.warning(self, "Instructor", "That passphrase is not right.")
            return False
        if key_file is None and not Path(trainee.key_path or "").is_file():
            key_file, _ = QFileDialog.getOpenFileName(
                self, f"{trainee.name}'s instructor key was moved: where is it?", "",
                "Instructor keys (*.key)")
            if not key_file:
                return False
        try:
            off_the_gui_thread(self.busy, KEY_WORK, lambda: open_instructor(trainee, phrase, key_file))
        except KeyFileError as e:
            QMessageBox.warning(self, "Instructor", str(e).split(": ", 1)[-1].capitalize())
            return False
        except ExamError as e:
            QMessageBox.warning(self, "Instructor", str(e))
            return False
        return True
