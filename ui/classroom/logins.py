"""Trainee logins… (the instructor's Class tab, while the app is in a class): a login of their own
in the class for each trainee chosen, by name (trainer.progress: `ClassConnection.class_login`,
`new_password`), as `dealer-trainer class-login` makes them.

A trainee with a login types its password at a workstation to start an exam with no sitting, and
nobody else can start one under their name (trainer.exams.classledger, "Whose attempts"). Making
a login again gives it a new password; the old one stops working.

Each password is made here, given to the server, and shown once, in a read-only table, to copy or
print (a PDF, a line per trainee to cut apart); nothing keeps it, on this machine or the server
(which keeps only PostgreSQL's hash of it). A call refused (a workstation's or supervisor's login)
or a server out of reach is one line; the logins made before it are shown, as they were changed."""

from __future__ import annotations

import html
import time
from pathlib import Path

from ui.qt import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFont,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ui.shell import fonts

INTRO = ("Each trainee ticked gets a login of their own in the class: at a workstation they type "
         "its password to start an exam with no sitting, and nobody else can start one under "
         "their name. A trainee who has a login gets a new password, and the old one stops working.")
SHOWN_ONCE = ("<b>Shown only now.</b> These passwords are kept nowhere, here or on the class server: "
              "copy or print them before closing, and give each trainee their own. A password "
              "lost is replaced by making that trainee's login again.")


def problem_and_status(layout) -> tuple[QLabel, QLabel]:
    """A dialog's line for what went wrong (the theme's colour, hidden until then) and its status
    line, added to `layout` in that order."""
    problem = QLabel()
    problem.setObjectName("wrong")  # the theme's colour for what went wrong
    problem.setWordWrap(True)
    problem.hide()
    layout.addWidget(problem)
    status = QLabel()
    status.setObjectName("subtitle")
    layout.addWidget(status)
    return problem, status


def shown_once(text: str) -> QLabel:
    """The framed warning above what a dialog shows only once (new passwords, new addresses)."""
    warning = QLabel(text)
    warning.setObjectName("warning")
    warning.setWordWrap(True)
    warning.setStyleSheet("border: 2px solid #c77c02; border-radius: 4px; padding: 6px;")
    return warning
INSTRUCTORS_ONLY = ("only the instructor's login makes trainee logins: join the class with the "
                    "instructor's address (File › Join class…)")


class LoginsDialog(QDialog):
    """Tick trainees (or type a name), Make logins; each name with its new password, once."""

    def __init__(self, connection, names: list[str], chosen=(), parent=None):
        super().__init__(parent)
        self.connection = connection
        self.made: list[tuple[str, str, str]] = []  # (name, password, login), as shown
        self.setWindowTitle("Trainee logins")
        self.setMinimumWidth(620)
        self.resize(700, 460)
        layout = QVBoxLayout(self)
        intro = QLabel(INTRO)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        heading = QLabel("&Trainees of the class:")
        layout.addWidget(heading)
        self.names = QListWidget()
        self.names.setAccessibleName("Trainees")
        self.names.setMinimumHeight(110)
        heading.setBuddy(self.names)
        for name in names:
            self._add(name, checked=name in chosen)
        layout.addWidget(self.names, 1)
        row = QHBoxLayout()
        self.name = QLineEdit()
        self.name.setPlaceholderText("Another trainee's name, as their profile spells it")
        self.name.setAccessibleName("Another trainee's name")
        self.name.installEventFilter(self)
        other = QLabel("&Name:")
        other.setBuddy(self.name)
        self.add_button = QPushButton("&Add")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_typed)
        row.addWidget(other)
        row.addWidget(self.name, 1)
        row.addWidget(self.add_button)
        layout.addLayout(row)
        self.problem, self.status = problem_and_status(layout)
        # what was made: each name and its new password, shown once
        self.shown = QWidget()
        shown = QVBoxLayout(self.shown)
        shown.setContentsMargins(0, 0, 0, 0)
        self.warning = shown_once(SHOWN_ONCE)
        shown.addWidget(self.warning)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Trainee", "Password", "Login"])
        self.table.setAccessibleName("New passwords")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(150)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        shown.addWidget(self.table)
        copies = QHBoxLayout()
        self.copy_button = QPushButton("&Copy")
        self.copy_button.setToolTip("Copy every name and password (a line each) to the clipboard")
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(self.copy)
        self.print_button = QPushButton("&Print…")
        self.print_button.setToolTip("A PDF with a line per trainee, to print and cut apart")
        self.print_button.setAutoDefault(False)
        self.print_button.clicked.connect(lambda: self.print_pdf())
        copies.addWidget(self.copy_button)
        copies.addWidget(self.print_button)
        copies.addStretch(1)
        shown.addLayout(copies)
        self.shown.hide()
        layout.addWidget(self.shown, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.make_button = buttons.addButton("&Make logins", QDialogButtonBox.ButtonRole.ActionRole)
        self.make_button.clicked.connect(self.make)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.make_button.setDefault(True)  # once in the dialog: Enter makes the logins
        self.names.setFocus()

    # --- choosing --------------------------------------------------------------------------------

    def _add(self, name: str, *, checked: bool) -> None:
        item = QListWidgetItem(name)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        self.names.addItem(item)

    def add_typed(self) -> None:
        """The name typed joins the list, ticked (a name listed already is ticked)."""
        from trainer.progress import clean_name

        name = clean_name(self.name.text())
        if not name:
            self.name.setFocus()
            return
        found = self.names.findItems(name, Qt.MatchFlag.MatchExactly)
        if found:
            found[0].setCheckState(Qt.CheckState.Checked)
        else:
            self._add(name, checked=True)
        self.name.clear()
        self.problem.hide()

    def eventFilter(self, watched, event) -> bool:
        """Enter in the name field adds the name typed (Make logins is Enter everywhere else)."""
        from ui.qt import QEvent

        if (watched is self.name and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.name.text().strip()):
            self.add_typed()
            return True
        return super().eventFilter(watched, event)

    def chosen(self) -> list[str]:
        return [self.names.item(i).text() for i in range(self.names.count())
                if self.names.item(i).checkState() == Qt.CheckState.Checked]

    # --- making ----------------------------------------------------------------------------------

    def make(self) -> int:
        """A login (or a new password) for each trainee ticked; how many were made. Stops at the
        first refusal, saying why in one line; those made before it are shown."""
        from trainer.classes import ClassServerError, ClassUnreachableError, new_password
        from ui.shell.server_call import server_call

        if self.name.text().strip():
            self.add_typed()
        names = self.chosen()
        if not names:
            return self.say("Tick the trainees to give a login, or type a name and Add it.")
        self.problem.hide()
        made, problem = [], None
        with server_call(self.status.setText, f"Making {len(names)} login"
                         f"{'s' if len(names) != 1 else ''} on the class server"):
            for name in names:
                password = new_password()
                try:
                    login = self.connection.class_login(name, password)
                except ClassUnreachableError as e:
                    problem = f"{e}."
                    break
                except ClassServerError as e:
                    problem = f"{e}" + (f" — {INSTRUCTORS_ONLY}." if "refuses this login" in str(e) else ".")
                    break
                made.append((name, password, login))
        if made:
            self.show_made(made)
        if problem is not None:
            done = f"{len(made)} made, then " if made else "No login made: "
            self.say(done + problem)
        return len(made)

    def show_made(self, made: list[tuple[str, str, str]]) -> None:
        """Add the logins just made to the table (a name made again: its new password only)."""
        again = {name for name, _, _ in made}
        self.made = [m for m in self.made if m[0] not in again] + made
        mono = fonts.mono()
        mono.setPointSizeF(max(mono.pointSizeF(), self.font().pointSizeF()) * 1.15)
        mono.setWeight(QFont.Weight.DemiBold)
        self.table.setRowCount(len(self.made))
        for r, row in enumerate(self.made):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c == 1:
                    item.setFont(mono)
                self.table.setItem(r, c, item)
        for i in range(self.names.count()):  # made: unticked, so that Make logins does not renew them
            if self.names.item(i).text() in again:
                self.names.item(i).setCheckState(Qt.CheckState.Unchecked)
        if self.shown.isHidden():
            self.shown.show()
            self.resize(self.width(), max(self.height(), self.sizeHint().height() + 120))
        self.table.setFocus()

    def say(self, text: str) -> int:
        self.problem.setText(text)
        self.problem.show()
        return 0

    # --- copying and printing ------------------------------------------------------------------

    def text(self) -> str:
        """Every name and password, a line each (and the login, for the record)."""
        return "".join(f"{name}\t{password}\t{login}\n" for name, password, login in self.made)

    def copy(self) -> None:
        from ui.qt import QApplication

        QApplication.clipboard().setText(self.text())
        self.status.setText(f"Copied {len(self.made)} name{'s' if len(self.made) != 1 else ''} and "
                            "password" + ("s" if len(self.made) != 1 else "") + " to the clipboard.")

    def print_pdf(self, path: str | None = None) -> Path | None:
        """A PDF of the logins made (asked where, unless `path`): a line per trainee to cut apart."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Print the trainee logins to PDF",
                                                  "trainee-logins.pdf", "PDF (*.pdf)")
        if not path:
            return None
        out = write_pdf(self.made, self.connection.address, Path(path))
        self.status.setText(f"Written to {out}: print it, then delete the file.")
        return out


def logins_html(made: list[tuple[str, str, str]], address) -> str:
    rows = "".join(f"<tr><td class='name'>{html.escape(name)}</td><td class='pw'>{html.escape(password)}"
                   f"</td></tr><tr><td colspan=2 class='how'>Class {html.escape(address.database)} at "
                   f"{html.escape(address.host)} · your login: {html.escape(login)} · type this password "
                   "at the workstation when an exam asks for it</td></tr>"
                   f"<tr><td colspan=2 class='cut'>✂ {'- ' * 60}</td></tr>"
                   for name, password, login in made)
    return f"""<html><head><style>
body {{ font-family: 'DejaVu Sans', sans-serif; font-size: 11pt; }}
td.name {{ font-size: 13pt; font-weight: bold; padding: 10px 24px 2px 0; }}
td.pw {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 15pt; padding: 10px 0 2px 0; }}
td.how {{ font-size: 9pt; color: #444; }}
td.cut {{ color: #888; font-size: 8pt; padding-bottom: 6px; }}
</style></head><body>
<h2>Trainee logins — {time.strftime('%Y-%m-%d %H:%M')}</h2>
<p>Give each trainee their own line. Keep this sheet out of sight and destroy what is left.</p>
<table>{rows}</table></body></html>"""


def write_pdf(made: list[tuple[str, str, str]], address, path: Path) -> Path:
    from ui.qt import QMarginsF, QPageLayout, QPageSize, QPdfWriter, QTextDocument

    writer = QPdfWriter(str(path))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.Letter),
                                     QPageLayout.Orientation.Portrait, QMarginsF(20, 20, 20, 20),
                                     QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    writer.setTitle("Trainee logins")
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    doc.setHtml(logins_html(made, address))
    doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size().toSizeF())
    doc.print_(writer)
    return path
