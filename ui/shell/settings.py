"""File › Settings…: each setting of ui.shell.config (the theme, large print, the data folder, the
class), its value, where it comes from, and whether the machine file locks it. A change applies
at once (the data folder from the next start); a locked setting cannot be changed here or
anywhere else in the app; "Follow the school" (or "Use the default") drops the user's own
choice. Below them, spoken calls' own: the microphone, whether the trainee's calls are kept
(ui.speech.keeping), and their voice (ui.speech.enrolling)."""

from __future__ import annotations

from trainer import KEYS
from ui.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from ui.shell import theme
from ui.shell.config import COMMAND_LINE, DEFAULT, USER_SETTINGS, shown

TITLES = {"theme": "&Theme:", "large_print": "&Large print:", "data_folder": "&Data folder:",
          "class_address": "Class:"}


#: the dialog's least width, or its layout's where that is wider (large print)
WIDTH = 720


def origin(config, key: str) -> str:
    """Where a setting's value comes from, in the words the dialog shows."""
    source = config.source(key)
    if config.locked(key):
        return f"Locked by your school ({source})"
    if source == DEFAULT:
        return "The app's default"
    if source == USER_SETTINGS:
        return "Your choice"
    if source == COMMAND_LINE:
        return "This run's command line"
    return f"Set by your school ({source})"


class SettingsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.config = window.config
        self.setWindowTitle("Settings")
        self.setMinimumWidth(WIDTH)
        layout = QVBoxLayout(self)
        intro = QLabel("Your choices are kept for you. A setting your school's IT set for this "
                       "computer applies until you choose otherwise; a locked one stays as they set it.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        grid = QGridLayout()
        self.theme = QComboBox()
        for name in theme.THEMES:
            self.theme.addItem(name.title(), name)
        self.theme.activated.connect(lambda _: self.changed(window.set_theme, self.theme.currentData()))
        self.large_print = QCheckBox("Larger words everywhere")
        self.large_print.clicked.connect(lambda on: self.changed(window.large_print_action.setChecked, on))
        self.folder = QLineEdit()
        self.folder.setReadOnly(True)
        self.choose_folder = QPushButton("Choose…")
        self.choose_folder.clicked.connect(self.pick_folder)
        folder = QWidget()
        row = QHBoxLayout(folder)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.folder, 1)
        row.addWidget(self.choose_folder)
        self.klass = QLineEdit()  # an address is long: it scrolls rather than wraps
        self.klass.setReadOnly(True)
        self.klass.setToolTip("File › Join class… and File › Leave class change it")
        self.controls = {"theme": self.theme, "large_print": self.large_print, "data_folder": folder,
                         "class_address": self.klass}
        self.origins: dict[str, QLabel] = {}
        self.resets: dict[str, QPushButton] = {}
        for n, key in enumerate(KEYS):
            label = QLabel(TITLES[key])
            label.setBuddy(self.controls[key])
            grid.addWidget(label, n * 2, 0)
            grid.addWidget(self.controls[key], n * 2, 1)
            reset = QPushButton()
            reset.clicked.connect(lambda _=False, k=key: self.reset(k))
            grid.addWidget(reset, n * 2, 2)
            self.resets[key] = reset
            said = QLabel()
            said.setWordWrap(True)
            said.setAccessibleName(f"{key} source")
            grid.addWidget(said, n * 2 + 1, 1, 1, 2)
            self.origins[key] = said
        self._microphone_row(grid, len(KEYS) * 2)
        self._kept_calls_row(grid, len(KEYS) * 2 + 2)
        self._voice_row(grid, len(KEYS) * 2 + 3)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        self.problem = QLabel()
        self.problem.setObjectName("wrong")
        self.problem.setWordWrap(True)
        self.problem.setVisible(bool(self.config.notes))
        self.problem.setText(" ".join(self.config.notes))  # what this start could not use
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.refresh()

    def showEvent(self, event) -> None:
        """Wide enough for every row, and tall enough: a least width set by hand (WIDTH) takes
        the place of the one its layout asks, which large print makes wider (the spoken calls'
        row was cut off, 910 px wanted in 720); and a dialog's least height leaves out what its
        wrapped lines (the intro) take beyond one line, which would squeeze the last rows."""
        super().showEvent(event)
        self.setMinimumWidth(max(WIDTH, self.layout().minimumSize().width()))
        width = max(self.width(), self.minimumWidth())
        needed = self.layout().heightForWidth(width)
        if needed > self.height() or width > self.width():
            self.resize(width, max(needed, self.height()))

    def _microphone_row(self, grid: QGridLayout, row: int) -> None:
        """The microphone spoken calls are heard from (View › Speak my calls), or why none can be:
        a row of the grid, and its note under it."""
        from ui.speech.audio import microphone_problem, microphones

        label = QLabel("&Microphone:")
        self.microphone = QComboBox()
        self.microphone.setAccessibleName("Microphone")
        label.setBuddy(self.microphone)
        self.microphone.addItem("The computer's default", "")
        for device, name in microphones():
            self.microphone.addItem(name, device)
        speech = getattr(self.window, "speech", None)
        chosen = speech.microphone if speech is not None else None
        self.microphone.setCurrentIndex(max(0, self.microphone.findData(chosen or "")))
        problem = microphone_problem()
        self.microphone.setEnabled(problem is None and speech is not None)
        self.microphone.setToolTip(problem or "The microphone the app listens to for your calls")
        self.microphone.activated.connect(
            lambda _: speech.set_microphone(self.microphone.currentData() or None))
        grid.addWidget(label, row, 0)
        grid.addWidget(self.microphone, row, 1)
        self.microphone_note = QLabel(problem or "For View › Speak my calls")
        self.microphone_note.setWordWrap(True)
        grid.addWidget(self.microphone_note, row + 1, 1, 1, 2)

    def _kept_calls_row(self, grid: QGridLayout, row: int) -> None:
        """Keep my spoken calls (ui.speech.keeping): asked, off by default."""
        from ui.qt import Qt
        from ui.speech.keeping import KeptCalls

        self.kept_calls = KeptCalls(self.window)
        label = QLabel("Spoken calls:")
        label.setBuddy(self.kept_calls.keep)
        grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
        # in the fields' column only, its edges theirs (across the column of Follow the school
        # buttons too, it passed their right edge by the grid's spacing)
        grid.addWidget(self.kept_calls, row, 1)

    def _voice_row(self, grid: QGridLayout, row: int) -> None:
        """Teach it my voice (ui.speech.enrolling), and whether the trainee has a voice for the
        microphone chosen: under Keep my spoken calls, and again when another is chosen."""
        from ui.speech.enrolling import VoiceRow

        self.voice = VoiceRow(self.window, lambda: (self.microphone.currentData() or None,
                                                    self.microphone.currentText()))
        self.microphone.activated.connect(lambda _: self.voice.refresh())
        grid.addWidget(self.voice, row, 1)

    def refresh(self) -> None:
        """Every row again, from the settings as they now are."""
        c = self.config
        self.theme.setCurrentIndex(max(0, self.theme.findData(c.value("theme"))))
        self.large_print.setChecked(bool(c.value("large_print")))
        self.folder.setText(str(c.value("data_folder")))
        address = c.value("class_address")
        self.klass.setText(shown("class_address", address) if address else "No class")
        self.klass.setCursorPosition(0)  # the address from its start
        for key in KEYS:
            locked = c.locked(key)
            self.controls[key].setEnabled(not locked)
            text = origin(c, key)
            if key == "data_folder" and c.user(key) is not None and c.source(key) == USER_SETTINGS:
                text += "; used from the next start"
            self.origins[key].setText(text)
            reset = self.resets[key]
            reset.setText("Use the default" if c.under(key) == c.default(key) else "Follow the school")
            reset.setVisible(key != "class_address" and not locked and c.user(key) is not None)

    def changed(self, apply, value) -> None:
        """A setting changed here: applied as the window's menu applies it, and shown again."""
        apply(value)
        self.refresh()

    def reset(self, key: str) -> None:
        """Drop the user's choice: the machine's value (or the default) again."""
        if key == "theme":
            self.window.set_theme(str(self.config.under("theme")))
        elif key == "large_print":
            self.window.large_print_action.setChecked(bool(self.config.under("large_print")))
        self.config.forget(key)
        self.refresh()

    def pick_folder(self) -> None:
        from trainer.progress import network_share, refusal

        name = QFileDialog.getExistingDirectory(self, "The data folder", self.folder.text())
        if not name:
            return
        share = network_share(name)
        if share is not None:
            self.problem.setText(f"Not used: {refusal(share)}.")
            self.problem.show()
            return
        self.problem.hide()
        self.config.choose("data_folder", name)
        self.refresh()
