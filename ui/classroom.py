"""A workstation in a class (issue 14): its results pushed to the class server in the background,
and the class's state in the status bar for as long as it is in the class.

`Classroom(window)` holds the ClassConnection: `join(address)` starts pushing (the address is
checked first, and a problem is a ClassServerError of one line, never a traceback), each attempt
recorded wakes the pusher, `leave()` forgets the class, `close()` stops the pusher at quit (its
thread joined). A QTimer on the GUI thread reads the connection's state each second for the
permanent line in the status bar; the pusher's thread touches no Qt object.

`JoinDialog` is File › Join class…: the address the class server printed is pasted, checked and
joined; the class is remembered (QSettings `class/address`), so the workstation rejoins it at the
next start. This module, and the class server's driver behind it, load only when a class is
joined."""

from __future__ import annotations

from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QObject,
    QTimer,
    QVBoxLayout,
    Signal,
)

SETTING = "class/address"  # the class joined with File › Join class…, rejoined at each start
STATUS_MS = 1000
EXAMPLE = "postgresql://workstation:PASSWORD@HOST:5432/dealer_class"
OPTIONS: dict = {}  # the ClassConnection's timings (poll, backoff): its own unless a test shortens them


def results(n: int) -> str:
    return f"{n} result{'s' if n != 1 else ''}"


def status_line(waiting: int, connected: bool, problem: str | None) -> str:
    """The status bar's words for the class's state."""
    if problem is not None:
        if waiting:
            return f"Class: {results(waiting)} waiting to be sent (server unreachable; trying again)"
        return "Class: server unreachable (trying again); no results waiting"
    if not connected:  # the first try is under way
        return f"Class: connecting — {results(waiting)} waiting" if waiting else "Class: connecting…"
    if waiting:
        return f"Class: connected — sending {results(waiting)}"
    return "Class: connected — all results sent"


class Classroom(QObject):
    changed = Signal()  # joined, left or closed: `connection` says which

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.connection = None
        self.label = QLabel()
        self.label.setObjectName("classStatus")
        self.label.setAccessibleName("Class")
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self.timer = QTimer(self)
        self.timer.setObjectName("class status")
        self.timer.setInterval(STATUS_MS)
        self.timer.timeout.connect(self.show_status)
        services = window.services
        services.classroom = self
        services.recorded.connect(self.recorded)
        self.changed.connect(services.class_changed)

    @property
    def address(self):
        return self.connection.address if self.connection is not None else None

    def join(self, address, *, remember: bool = False) -> None:
        """Push this workstation's results to the class at `address` (text or a ClassAddress)
        from now on; with `remember`, rejoin it at the next start. ClassServerError says why not."""
        from trainer.progress import ClassConnection, ClassServerError, class_address

        address = class_address(address) if isinstance(address, str) else address
        store = self.window.services.store
        if store is None or str(store.path) == ":memory:":
            raise ClassServerError("joining a class needs a progress file: this session has none "
                                   "(start the app with a writable progress file, --db FILE)")
        connection = ClassConnection(str(store.path), address, **OPTIONS)
        self._disconnect()
        self.connection = connection
        connection.start()
        if remember:
            self.window.settings.setValue(SETTING, address.url)
        self.timer.start()
        self.label.show()
        self.show_status()
        self.changed.emit()

    def leave(self) -> None:
        """Stop pushing and forget the class (what waits stays in the file, for the next class)."""
        self.window.settings.remove(SETTING)
        self.close()

    def close(self) -> None:
        """Stop pushing (at quit): the pusher's thread ends here; the class stays remembered."""
        if self.connection is None:
            return
        self._disconnect()
        self.timer.stop()
        self.label.hide()
        self.changed.emit()

    def _disconnect(self) -> None:
        if self.connection is not None:
            connection, self.connection = self.connection, None
            connection.close()

    def recorded(self, attempt_id) -> None:
        """An attempt was saved to the file: push it now rather than at the next poll."""
        if self.connection is not None and attempt_id is not None:
            self.connection.wake()

    def show_status(self) -> None:
        c = self.connection
        if c is None:
            return
        try:
            waiting = c.waiting()
        except Exception as e:  # the progress file could not be read this time: say so, poll on
            self.label.setText(f"Class: cannot read the progress file ({e})")
            return
        self.label.setText(status_line(waiting, c.connected, c.problem))
        self.label.setToolTip(f"{c.address.shown}\n{c.status}")


class JoinDialog(QDialog):
    """Paste the class's address; Join checks it and joins, or says what is wrong and stays."""

    def __init__(self, classroom: Classroom, parent=None):
        super().__init__(parent)
        self.classroom = classroom
        self.setWindowTitle("Join class")
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        intro = QLabel("Paste the address the class server printed (<i>dealer-trainer class-server"
                       "</i>). This workstation's results go to the class from now on, and wait in "
                       "the progress file whenever the server cannot be reached.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.address = QLineEdit()
        self.address.setPlaceholderText(EXAMPLE)
        self.address.setAccessibleName("Class address")
        current = classroom.address
        if current is not None:
            self.address.setText(current.url)
        layout.addWidget(self.address)
        self.problem = QLabel()
        self.problem.setObjectName("error")
        self.problem.setStyleSheet("color: #b00020;")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.join_button = buttons.addButton("&Join", QDialogButtonBox.ButtonRole.AcceptRole)
        self.join_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def accept(self) -> None:
        from trainer.progress import ClassServerError

        text = self.address.text().strip()
        if not text:
            return self.say(f"Paste the class's address: {EXAMPLE}")
        try:
            self.classroom.join(text, remember=True)
        except ClassServerError as e:
            return self.say(f"Not joined: {e}.")
        super().accept()

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()
        self.address.setFocus()


def classroom_of(window) -> Classroom:
    """The window's Classroom, made the first time a class is joined."""
    services = window.services
    return services.classroom if services.classroom is not None else Classroom(window)


def rejoin(window, address=None) -> None:
    """At start: join the class given with --class (a ClassAddress; not remembered), or the one
    joined with File › Join class… last time. A problem is a line in the status bar."""
    from trainer.progress import ClassServerError

    remembered = window.settings.value(SETTING)
    if address is None and not remembered:
        return
    try:
        classroom_of(window).join(address if address is not None else str(remembered))
    except ClassServerError as e:
        window.statusBar().showMessage(f"Not in the class: {e}.", 30000)
