"""Keeping the trainee's spoken calls, with their consent (trainer.speech.kept): the row of File ›
Settings… that asks (off by default), says what is kept, where, and that nothing is sent, opens
the folder and deletes them all; and the practice screen's keeping of each call heard, never in
an exam. The file of the trainee's voice (ui.speech.enrolling teaches it) is kept in the same
folder, a file for each microphone (`voice_path`), and read before a call is heard with it
(`voice_for`)."""

from __future__ import annotations

from pathlib import Path

from trainer import kept_calls as kept
from trainer.progress import Mode
from ui.qt import (
    QCheckBox,
    QDesktopServices,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QUrl,
    QVBoxLayout,
    QWidget,
)

#: what keeping means, in lines of their own (a label that wraps is cut short by the dialog,
#: which sizes itself by its widgets' heights before their widths are known)
EXPLAINED = ("Each call you say aloud in practice (never in an exam) is kept as sound\n"
             "with the call you owed, in this folder, so that your school can test the\n"
             "recogniser on real voices. Nothing is sent anywhere. At most {cap} MiB are kept.")


def data_folder(services) -> Path | None:
    """The data folder of the trainee's own files (kept calls, their voice): the progress
    file's; None without a progress file or a trainee."""
    store = getattr(services, "store", None)
    trainee = getattr(services, "trainee", None)
    path = getattr(store, "path", None)
    if trainee is None or path is None or str(path) == ":memory:":  # no file: no data folder
        return None
    return Path(path).resolve().parent


def kept_folder(services) -> Path | None:
    """The folder of the trainee's kept calls, in the data folder; None without one."""
    folder = data_folder(services)
    return None if folder is None else kept.folder(folder, services.trainee.id)


def voice_path(services, microphone: str) -> Path | None:
    """The file of the trainee's voice for a microphone (its id, as
    ui.speech.audio.microphone_in_use gives it); None without a progress file."""
    from trainer import voice_enrolment

    folder = data_folder(services)
    if folder is None:
        return None
    return voice_enrolment.kept_at(folder, services.trainee.id, microphone)


def voice_for(path: Path | None) -> tuple[Path | None, str | None]:
    """The voice a call is heard with: (`path`, None) where it is a transform this model takes;
    (None, why) where the file cannot be used (damaged, not a transform, unreadable), so that the
    call is heard with the model's own; (None, None) where there is none."""
    from trainer import RequestError, voice_enrolment

    try:
        if path is None or not path.exists():
            return None, None
    except OSError as e:  # a folder this account may not read (Path.exists raises then)
        return None, (f"Your voice for this microphone cannot be used ({path}: cannot be read: "
                      f"{e.strerror or e}); your calls are heard with the recogniser's own model.")
    try:
        voice_enrolment.Transform.read(path)
    except RequestError as e:
        return None, (f"Your voice for this microphone cannot be used ({e}); your calls are "
                      "heard with the recogniser's own model. Teach it your voice again "
                      "(File › Settings…).")
    return path, None


def keep_heard(screen, owed, verdict, sound: bytes, game: str) -> str | None:
    """Keep a call heard on the practice screen where the trainee agreed; never in an exam, nor
    a call with no speech. What went wrong, in a line, or None."""
    if screen.mode is Mode.EXAM or verdict.kind == "none" or not sound:
        return None
    services = getattr(screen.window(), "services", None)
    where = kept_folder(services)
    if where is None or not kept.consented(where):
        return None
    try:
        kept.keep(where, sound, game=game, expected=owed.expected,
                  heard=verdict.heard, verdict=verdict.kind, trainee=services.trainee.name,
                  words=getattr(verdict, "said", ""))
    except kept.Full as e:
        return str(e)
    except OSError as e:
        return f"Your spoken call could not be kept in {where} ({e.strerror or e})."
    return None


class KeptCalls(QWidget):
    """File › Settings…'s row: keep my spoken calls, what that means, the folder, and delete."""

    def __init__(self, window, parent=None):
        super().__init__(parent)
        services = getattr(window, "services", None)
        self.services = services
        self.where = kept_folder(services)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.keep = QCheckBox("Keep my spoken calls")
        self.keep.setAccessibleName("Keep my spoken calls")
        self.note = QLabel()
        self.folder = QLineEdit()  # a path is long: it scrolls rather than wraps
        self.folder.setReadOnly(True)
        self.folder.setAccessibleName("The folder of your kept calls")
        self.open = QPushButton("Open the folder")
        self.delete = QPushButton("Delete them all…")
        self.count = QLabel()
        row = QHBoxLayout()
        row.addWidget(self.keep)
        row.addStretch(1)
        row.addWidget(self.count)
        row.addWidget(self.open)
        row.addWidget(self.delete)
        column.addLayout(row)
        column.addWidget(self.folder)
        column.addWidget(self.note)
        if self.where is None:
            self.note.setText("No progress file is open, so no spoken calls can be kept.")
            for w in (self.keep, self.open, self.delete):
                w.setEnabled(False)
            self.folder.hide()
            return
        self.folder.setText(str(self.where))
        self.folder.setCursorPosition(0)
        self.note.setText(EXPLAINED.format(cap=kept.CAP // 2 ** 20))
        self.keep.setChecked(kept.consented(self.where))
        self.keep.clicked.connect(self.set_keep)
        self.open.clicked.connect(self.open_folder)
        self.delete.clicked.connect(self.delete_all)
        self.refresh()

    def refresh(self) -> None:
        try:
            n = kept.count(self.where)
            size = kept.used(self.where) / 2 ** 20
        except OSError as e:  # a folder that cannot be read: said, and nothing offered on it
            self.count.setText(f"The folder cannot be read ({e.strerror or e}).")
            self.open.setEnabled(False)
            self.delete.setEnabled(False)
            return
        self.count.setText(f"{n} kept ({size:.1f} MiB)" if n else "None kept")
        self.open.setEnabled(self.where.is_dir())
        self.delete.setEnabled(n > 0)

    def set_keep(self, yes: bool) -> None:
        try:
            kept.consent(self.where, yes, self.services.trainee.name)
        except OSError as e:
            self.keep.setChecked(kept.consented(self.where))
            self.note.setText(f"Not changed: {self.where} cannot be written ({e.strerror or e}).")
        self.refresh()

    def open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.where)))

    def delete_all(self) -> None:
        n = kept.count(self.where)
        asked = QMessageBox.question(
            self, "Delete your spoken calls",
            f"Delete the {n} spoken call{'s' * (n != 1)} kept for you in {self.where}? They cannot "
            "be brought back.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if asked != QMessageBox.StandardButton.Yes:
            return
        try:
            kept.delete_all(self.where)
        except OSError as e:
            self.note.setText(f"Not all were deleted: {e.strerror or e} ({self.where}).")
        self.refresh()
