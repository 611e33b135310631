"""Workstations… (the instructor's Class tab, while the app is in a class): the workstations
enrolled in the class with a login of their own; enrolling one, its address (with a new
password) shown once; revoking one (trainer.classes: `ClassConnection.enrol_workstation`,
`revoke_workstation`, `workstations`, as `dealer-trainer class-workstation` does them).

Every workstation joined with the shared workstation login shares it: a trainee who changes that
login's password stops them all. A workstation enrolled joins with its own address (File › Join
class… at it), and whatever a trainee does with that login stops that workstation only; revoked,
it loses every right at once, its open connections too. Enrolling a workstation again gives it a
new password (and gives a revoked one back).

Each password is made here, given to the server as its verifier, and shown once inside the
workstation's address, to copy; nothing keeps it. A call refused (a workstation's login; a
supervisor's lists but enrols nothing) or a server out of reach is one line.

Below the list, the shared workstation login's state (open or closed, since when, by whom) and
the button that closes it once every workstation is enrolled, or opens it again (asked first,
saying what it does; `dealer-trainer class-workstation close-shared|open-shared` does the same)."""

from __future__ import annotations

import time

from ui.classroom.logins import problem_and_status, shown_once
from ui.qt import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ui.shell import fonts

INTRO = ("A workstation enrolled joins the class with a login of its own: whatever a trainee does "
         "with it (a new password, its settings) stops that workstation only. Workstations joined "
         "with the shared workstation login all stop together, and start no exam. Enrol each, then "
         "join it with its own address (File › Join class… at that workstation).")
SHOWN_ONCE = ("<b>Shown only now.</b> Each address holds its workstation's password: paste it at that "
              "workstation (File › Join class…) and keep it from the trainees. A lost one is replaced "
              "by enrolling the workstation again.")
INSTRUCTORS_ONLY = ("only the instructor's login enrols and revokes workstations: join the class "
                    "with the instructor's address (File › Join class…)")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
COLUMNS = ("Workstation", "State", "Since", "Login")


class WorkstationsDialog(QDialog):
    """The workstations enrolled; a name typed and Enrol; one selected and Revoke…."""

    def __init__(self, connection, parent=None):
        super().__init__(parent)
        self.connection = connection
        self.listed: list = []  # trainer.classes.server.logins.Workstation, as shown
        self.shared = None  # trainer.classes.server.logins.SharedLogin, as shown (None: not read)
        self.made: list[tuple[str, str]] = []  # (name, address with its password), as shown
        self.setWindowTitle("Workstations")
        self.setMinimumWidth(680)
        self.resize(800, 440)
        layout = QVBoxLayout(self)
        intro = QLabel(INTRO)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        heading = QLabel("&Workstations enrolled:")
        layout.addWidget(heading)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setAccessibleName("Workstations enrolled")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(110)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selected)
        heading.setBuddy(self.table)
        layout.addWidget(self.table, 2)
        row = QHBoxLayout()
        self.name = QLineEdit()
        self.name.setPlaceholderText("A name for the workstation, e.g. Table 3")
        self.name.setAccessibleName("Workstation's name")
        label = QLabel("&Name:")
        label.setBuddy(self.name)
        self.enrol_button = QPushButton("&Enrol")
        self.enrol_button.setToolTip("A login of its own for this workstation, with a new password "
                                     "(a workstation enrolled already: a new password)")
        self.enrol_button.clicked.connect(self.enrol)
        self.revoke_button = QPushButton("&Revoke…")
        self.revoke_button.setToolTip("The selected workstation's login stops working, at once")
        self.revoke_button.setAutoDefault(False)
        self.revoke_button.setEnabled(False)
        self.revoke_button.clicked.connect(lambda: self.revoke())
        row.addWidget(label)
        row.addWidget(self.name, 1)
        row.addWidget(self.enrol_button)
        row.addSpacing(12)
        row.addWidget(self.revoke_button)
        layout.addLayout(row)
        # the shared workstation login: its state, and closing or opening it
        shared = QHBoxLayout()
        self.shared_state = QLabel()
        self.shared_state.setWordWrap(True)
        self.shared_state.setAccessibleName("The shared workstation login")
        shared.addWidget(self.shared_state, 1)
        self.shared_button = QPushButton("Close the &shared login…")
        self.shared_button.setAutoDefault(False)
        self.shared_button.setEnabled(False)
        self.shared_button.clicked.connect(lambda: self.toggle_shared())
        shared.addWidget(self.shared_button)
        layout.addLayout(shared)
        self.problem, self.status = problem_and_status(layout)
        # the addresses just made, each with its password: shown once
        self.shown = QWidget()
        shown = QVBoxLayout(self.shown)
        shown.setContentsMargins(0, 0, 0, 0)
        self.warning = shown_once(SHOWN_ONCE)
        shown.addWidget(self.warning)
        # each address whole (they are long), to read, select or copy: a line per workstation
        self.addresses = QPlainTextEdit()
        self.addresses.setReadOnly(True)
        self.addresses.setAccessibleName("New addresses, each with its workstation's password")
        mono = fonts.mono()  # as large as the words around it: the theme's (the app's, for a widget)
        mono.setPointSizeF(max(mono.pointSizeF(), QApplication.font(self.addresses).pointSizeF()))
        self.addresses.setFont(mono)
        lines = self.addresses.fontMetrics().lineSpacing()
        self.addresses.setMinimumHeight(4 * lines + 12)  # two addresses; more scroll
        self.addresses.setMaximumHeight(8 * lines + 12)
        shown.addWidget(self.addresses)
        self.loopback = QLabel()
        self.loopback.setObjectName("subtitle")
        self.loopback.setWordWrap(True)
        self.loopback.hide()
        shown.addWidget(self.loopback)
        copies = QHBoxLayout()
        self.copy_button = QPushButton("&Copy")
        self.copy_button.setToolTip("Copy every workstation's name and address (a line each)")
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(self.copy)
        copies.addWidget(self.copy_button)
        copies.addStretch(1)
        shown.addLayout(copies)
        self.shown.hide()
        layout.addWidget(self.shown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAutoDefault(False)
        layout.addWidget(buttons)
        self.enrol_button.setDefault(True)  # Enter enrols the name typed
        self.name.setFocus()
        self.refresh()

    # --- the list ------------------------------------------------------------------------------

    def refresh(self) -> bool:
        """The workstations as the class server has them; False (and why, in one line) if it
        cannot say."""
        from trainer.classes import ClassServerError

        try:
            with self._call("Reading the workstations of the class"):
                self.listed = self.connection.workstations()
        except ClassServerError as e:
            self.say("The workstations cannot be read: " + self._why(e))
            return False
        self.table.setRowCount(len(self.listed))
        for r, w in enumerate(self.listed):
            state = ("revoked", w.revoked) if w.revoked is not None else ("enrolled", w.enrolled)
            for c, text in enumerate((w.name, state[0], when(state[1]), w.login)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.setAccessibleDescription(f"{len(self.listed)} workstations" if self.listed
                                            else "No workstation enrolled yet")
        self._selected()
        return self.refresh_shared()

    def refresh_shared(self) -> bool:
        """The shared workstation login's state as the class server has it, and its button."""
        from trainer.classes import ClassServerError

        try:
            with self._call("Reading the shared workstation login"):
                self.shared = self.connection.shared_login()
        except ClassServerError as e:
            self.shared = None
            self.shared_state.setText("The shared workstation login's state cannot be read.")
            self.shared_button.setEnabled(False)
            self.say("The shared workstation login cannot be read: " + self._why(e))
            return False
        enrolled = sum(1 for w in self.listed if w.revoked is None)
        if self.shared.closed:
            self.shared_state.setText(
                f"<b>Shared workstation login: closed</b> since {when(self.shared.since)} (by "
                f"{self.shared.by}). Only the {enrolled} enrolled workstation{'s' if enrolled != 1 else ''} "
                "join; no start of the class server opens it again.")
            self.shared_button.setText("Open the &shared login…")
            self.shared_button.setToolTip("Workstations not enrolled join with the shared login again")
        else:
            self.shared_state.setText(
                "<b>Shared workstation login: open.</b> Workstations not enrolled join with it to "
                "practise: no exam starts on it, and whoever holds it can lock them all out. Close it "
                "once every workstation is enrolled.")
            self.shared_button.setText("Close the &shared login…")
            self.shared_button.setToolTip("Only the enrolled workstations join: the shared login "
                                          "connects no more" if enrolled else
                                          "Enrol the workstations first: closed now, every workstation stops")
        self.shared_button.setEnabled(self.shared.closed or enrolled > 0)
        return True

    def selected(self):
        rows = {i.row() for i in self.table.selectedItems()}
        return self.listed[min(rows)] if rows and min(rows) < len(self.listed) else None

    def _selected(self) -> None:
        chosen = self.selected()
        self.revoke_button.setEnabled(chosen is not None and chosen.revoked is None)

    # --- enrolling and revoking ----------------------------------------------------------------

    def enrol(self) -> str | None:
        """Enrol the workstation named (or give it a new password): its address shown once."""
        from trainer.classes import ClassServerError, new_password, with_login
        from trainer.progress import clean_name

        name = clean_name(self.name.text())
        if not name:
            self.name.setFocus()
            self.say("Type a name for the workstation (as it is known in the room, e.g. Table 3).")
            return None
        password = new_password()
        try:
            with self._call(f"Enrolling {name}"):
                login = self.connection.enrol_workstation(name, password)
        except ClassServerError as e:
            self.say(f"{name} was not enrolled: " + self._why(e))
            return None
        self.problem.hide()
        self.name.clear()
        address = with_login(self.connection.address, login, password)
        self.show_made(name, address)
        self.refresh()
        return address.url

    def revoke(self, *, confirm: bool = True) -> bool:
        """Revoke the selected workstation (asked first): its login stops working, at once."""
        from trainer.classes import ClassServerError

        chosen = self.selected()
        if chosen is None or chosen.revoked is not None:
            return False
        if confirm and QMessageBox.question(
                self, "Revoke the workstation?",
                f"{chosen.name} stops at once: its login loses every right, its open connections "
                "too, and it cannot connect again. Results it has not sent wait in its progress "
                "file until it joins the class again (enrolled again, or with the shared login)."
                "\n\nRevoke it?") != QMessageBox.StandardButton.Yes:
            return False
        try:
            with self._call(f"Revoking {chosen.name}"):
                self.connection.revoke_workstation(chosen.name)
        except ClassServerError as e:
            self.say(f"{chosen.name} was not revoked: " + self._why(e))
            return False
        self.problem.hide()
        self.made = [m for m in self.made if m[0] != chosen.name]  # its address no longer works
        self._fill_made()
        self.refresh()
        self.status.setText(f"{chosen.name} was revoked.")
        return True

    def toggle_shared(self, *, confirm: bool = True) -> bool:
        """Close the shared workstation login, or open it again (asked first, saying what it does)."""
        from trainer.classes import CLOSE_SHARED_SAYS, OPEN_SHARED_SAYS, ClassServerError

        if self.shared is None:
            return False
        close = not self.shared.closed
        enrolled = [w.name for w in self.listed if w.revoked is None]
        says = CLOSE_SHARED_SAYS if close else OPEN_SHARED_SAYS
        if close:
            says += f"\n\nEnrolled ({len(enrolled)}): {', '.join(enrolled)}."
        verb = "Close" if close else "Open"
        if confirm and QMessageBox.question(
                self, f"{verb} the shared workstation login?",
                f"{says}\n\n{verb} it?") != QMessageBox.StandardButton.Yes:
            return False
        try:
            with self._call(f"{'Closing' if close else 'Opening'} the shared workstation login"):
                if close:
                    self.connection.close_shared_login()
                else:
                    self.connection.open_shared_login()
        except ClassServerError as e:
            done = "closed" if close else "opened"
            self.say(f"The shared workstation login was not {done}: " + self._why(e))
            return False
        self.problem.hide()
        self.refresh()
        self.status.setText(f"The shared workstation login is {'closed' if close else 'open'}.")
        return True

    def show_made(self, name: str, address) -> None:
        self.made = [m for m in self.made if m[0] != name] + [(name, address.url)]
        self._fill_made()
        if address.host in LOOPBACK:
            self.loopback.setText(f"These addresses reach the server as this machine does "
                                  f"({address.host}): at a workstation, put the instructor machine's "
                                  "name or address in its place.")
            self.loopback.show()
        if self.shown.isHidden():
            self.shown.show()
        # taller for the addresses, as far as the window (or the screen) allows: they scroll
        room = int(0.85 * (self.parentWidget().window().height() if self.parentWidget() is not None
                           else self.screen().availableGeometry().height()))
        self.resize(self.width(), max(self.height(), min(self.sizeHint().height(), room)))

    def _fill_made(self) -> None:
        self.addresses.setPlainText("\n".join(f"{name}:  {url}" for name, url in self.made))
        self.shown.setVisible(bool(self.made))

    def copy(self) -> None:
        QApplication.clipboard().setText(self.text())
        n = len(self.made)
        self.status.setText(f"Copied {n} address{'es' if n != 1 else ''} to the clipboard.")

    def text(self) -> str:
        """Every workstation just enrolled and its address, a line each."""
        return "".join(f"{name}\t{url}\n" for name, url in self.made)

    # --- saying --------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    @staticmethod
    def _why(e) -> str:
        return f"{e}" + (f" — {INSTRUCTORS_ONLY}." if "refuses this login" in str(e) else ".")

    def _call(self, text: str):
        from ui.shell.server_call import server_call

        return server_call(self.status.setText, text)


def when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))
