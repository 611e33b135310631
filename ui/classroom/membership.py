"""A workstation in a class: its results pushed to the class server in the background,
and the class's state in the status bar for as long as it is in the class.

`Classroom(window)` holds the ClassConnection: `join(address)` starts pushing (the address is
checked first, and a problem is a ClassServerError of one line, never a traceback), each attempt
recorded wakes the pusher, `leave()` forgets the class, `close()` stops the pusher at quit (its
thread joined). A QTimer on the GUI thread reads the connection's state each second for the
permanent line in the status bar; the pusher's thread touches no Qt object.

`JoinDialog` is File › Join class…: the address the class server printed is pasted, checked and
joined; the class is remembered, so the workstation rejoins it at the next start. The address is
remembered without its password (the setting `class_address`, ui.shell.config: over the machine
file's, which File › Leave class overrides too); the password is kept apart, in the
app's own libpq password file (`password_file`, trainer.classes.workstation.passfile: readable by this
user only), which the driver reads itself. The dialog never shows a password: one pasted with the
address moves to a masked field. A workstation that keeps no password for its class (or whose
password file cannot be read) asks for it again at the next start; File › Leave class removes both.
A class the machine file locks without its password (`school_class`) is joined the
same way, the dialog asking the password alone: the address is the school's and cannot be changed.
`--class URL` joins for one run and keeps nothing. This module, and the class server's driver
behind it, load only when a class is joined."""

from __future__ import annotations

from pathlib import Path

from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QObject,
    QTimer,
    QVBoxLayout,
    Signal,
)

SETTING = "class_address"  # the class joined (no password; ui.shell.config's key), rejoined at each start
STATUS_MS = 1000
EXAMPLE = "postgresql://workstation:PASSWORD@HOST:5432/dealer_class"
KEPT = "(kept on this workstation)"  # the password field's placeholder when the password is kept
OPTIONS: dict = {}  # the ClassConnection's timings (poll, backoff): its own unless a test shortens them
#: the class's words (s018) for a result refused because its trainee has a login of their own, and
#: what the status bar's tooltip then says to do (ui.classroom.own_login)
OWN_LOGIN = "has a login of their own in this class"
SEND_OWN = ("A trainee with a class login of their own sends these with it: File › Send my results "
            "with my class login…")
SHOWN_REASON = 160  # characters of a refusal the status bar shows (its tooltip has it whole)


def results(n: int) -> str:
    return f"{n} result{'s' if n != 1 else ''}"


def password_file(settings) -> Path:
    """The app's own libpq password file, this user's: beside the settings when they are a file
    of their own (INI), else in the app's configuration folder."""
    from trainer.classes import passfile
    from ui.qt import QSettings, QStandardPaths

    if settings.format() == QSettings.Format.IniFormat:
        return Path(settings.fileName()).parent / passfile.NAME
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    if not folder:
        raise passfile.PasswordFileError("this user has no folder for the app's settings, so the class "
                                "password cannot be kept")
    return Path(folder) / passfile.NAME


def status_line(waiting: int, connected: bool, problem: str | None, refused: bool = False, *,
                unreachable: bool = True, set_aside: list[tuple[str, str]] | None = None,
                answering: bool = True, file_damaged: bool = False, crowded: str | None = None) -> str:
    """The status bar's words for the class's state: `refused`, the server refused the password;
    `unreachable`, the last try found no server (else the server answered and refused the push);
    `set_aside`, the attempts the class refused, (uid, why) newest first; `answering` False, the
    server is there and does not answer (frozen); `file_damaged`, the progress file's check found
    it damaged, and nothing more is sent from it; `crowded`, the server had no connection free
    for the login at the last push or call (its words), which a connection still held does not
    hide."""
    if file_damaged:
        return (f"Class: the progress file is damaged, and nothing more is sent from it; "
                f"{results(waiting)} not sent")
    if crowded is not None and not refused:
        text = f"Class: the class server has no connection free for this workstation ({crowded})"
        return f"{text}; {results(waiting)} waiting" if waiting else text
    text = _state(waiting, connected, problem, refused, unreachable, answering)
    if not set_aside:
        return text
    from trainer.classes import refused_line

    why = refused_line(set_aside)
    why = why if len(why) <= SHOWN_REASON else why[:SHOWN_REASON - 1] + "…"
    if problem is None and connected and not waiting:
        return f"Class: connected — {why}; the others are sent"
    return f"{text}; {why}"


def _state(waiting: int, connected: bool, problem: str | None, refused: bool, unreachable: bool,
           answering: bool) -> str:
    if problem is not None and refused:
        text = "Class: the server refuses this workstation's password (File › Join class… to type it again)"
        return f"{text}; {results(waiting)} waiting" if waiting else text
    if not answering:
        text = "Class: the class server is not answering (trying again)"
        return f"{text}; {results(waiting)} waiting" if waiting else f"{text}; no results waiting"
    if problem is not None and not unreachable:
        return (f"Class: the class server refused the push ({problem}); {results(waiting)} waiting; "
                "trying again")
    if problem is not None:  # in words: no such class, too old a server, not reached and why ...
        if waiting:
            return f"Class: {results(waiting)} waiting to be sent ({problem}; trying again)"
        return f"Class: {problem} (trying again); no results waiting"
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
        from now on; with `remember`, rejoin it at the next start (its password, if it has one,
        kept in the password file, the address without it in the settings). An address without
        a password uses the one the password file keeps for it, if any. ClassServerError says
        why not (nothing changed then)."""
        from trainer.classes import ClassConnection, ClassServerError, class_address, passfile, with_passfile

        address = class_address(address) if isinstance(address, str) else address
        store = self.window.services.store
        if store is None or str(store.path) == ":memory:":
            raise ClassServerError("joining a class needs a progress file: this session has none "
                                   "(start the app with a writable progress file, --db FILE)")
        settings = self.window.settings
        if remember:
            config = self.window.config
            locked = config.locked(SETTING)
            school = remembered(config) if locked else None
            if locked and (school is None or school.kept != address.kept):
                raise ClassServerError(f"the class is set by {config.source(SETTING)}, "
                                       "where it is locked")
            path = password_file(settings)
            if address.password:
                passfile.store(path, address)
                address = with_passfile(address, path)  # connects as the next start will
            else:
                passfile.forget(path)  # a class that asks no password: none kept for another
            if not locked:  # the locked class's password is kept; the class stays the school's
                config.choose(SETTING, address.kept)
        elif address.password is None and address.passfile is None:
            address = with_passfile(address, password_file(settings))  # the kept one, if any
        connection = ClassConnection(str(store.path), address, store=store, **OPTIONS)
        self._disconnect()
        self.connection = connection
        connection.start()
        self.timer.start()
        self.label.show()
        self.show_status()
        self.changed.emit()

    def leave(self) -> None:
        """Stop pushing and forget the class, its password too (what waits stays in the file, for
        the next class); the choice sticks, though the machine file names a class. PasswordFileError
        when the password file cannot be removed; ClassServerError when the machine file locks
        the class."""
        from trainer.classes import ClassServerError, passfile

        config = self.window.config
        if not config.choose(SETTING, ""):  # no class, though the machine file names one
            raise ClassServerError(f"the class is set by {config.source(SETTING)}, where it is locked")
        self.close()
        passfile.forget(password_file(self.window.settings))

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
        pusher = getattr(c, "pusher", None)
        set_aside = c.refused_attempts() if pusher is not None else None
        self.label.setText(status_line(waiting, c.connected, c.problem, getattr(pusher, "refused", False),
                                       unreachable=getattr(c, "unreachable", True),
                                       set_aside=set_aside,
                                       answering=getattr(c, "answering", True),
                                       file_damaged=getattr(c, "file_damaged", False),
                                       crowded=getattr(c, "crowded", None)))
        own = any(OWN_LOGIN in why for _, why in set_aside or ())
        self.label.setToolTip(f"{c.address.shown}\n{c.status}" + (f"\n{SEND_OWN}" if own else ""))


class JoinDialog(QDialog):
    """Paste the class's address; Join checks it and joins, or says what is wrong and stays.

    The password has a field of its own, masked: a password pasted with the address moves there
    as it is pasted, so that the address field never shows it. Left empty, the password kept on
    this workstation for that class is used (the field says when there is one)."""

    def __init__(self, classroom: Classroom, parent=None, address=None):
        super().__init__(parent)
        self.classroom = classroom
        self.setWindowTitle("Join class")
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        intro = QLabel("Paste the address the class server printed (<i>dealer-trainer class-server"
                       "</i>). This workstation's results go to the class from now on, and wait in "
                       "the progress file whenever the server cannot be reached. The password is "
                       "kept for this user only, apart from the address, until File › Leave class.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.address = QLineEdit()
        self.address.setPlaceholderText(EXAMPLE.replace(":PASSWORD", ""))
        self.address.setAccessibleName("Class address")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.address.textChanged.connect(self.take_password)
        config = classroom.window.config
        school = school_class(config)
        current = school or address or classroom.address or remembered(config)
        if current is not None:
            self.address.setText(current.kept)
        if school is not None:  # the school's class: its address stays, only the password is typed
            self.address.setEnabled(False)  # the look of a locked setting (File › Settings…)
            self.address.setToolTip(f"Locked by {config.source(SETTING)}")
            intro.setText(f"Your school set this workstation's class, and {config.source(SETTING)} "
                          "locks it: only its password is typed here. The password is kept for this "
                          "user only, apart from the address.")
        form.addRow("&Address:", self.address)
        form.addRow("&Password:", self.password)
        layout.addLayout(form)
        self.problem = QLabel()
        self.problem.setObjectName("wrong")  # the theme's colour for what went wrong
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.join_button = buttons.addButton("&Join", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.join_button.setDefault(True)  # once in the dialog: Enter joins, never cancels
        if school is not None:
            self.password.setFocus()
        self.show_kept()

    def take_password(self, text: str) -> None:
        """A password in the address moves to the password field (and out of sight)."""
        from trainer.classes import split_password

        rest, password = split_password(text)
        if password is not None:
            self.password.setText(password)
            self.address.setText(rest)  # calls this again, with nothing left to move
        self.show_kept()

    def kept_password(self):
        """The password kept on this workstation for the address in the field (None if none, or
        the address is not whole yet); PasswordFileError when the password file cannot be read."""
        from trainer.classes import ClassServerError, class_address, passfile

        try:
            address = class_address(self.address.text())
        except ClassServerError:
            return None
        return passfile.lookup(password_file(self.classroom.window.settings), address)

    def show_kept(self) -> None:
        from trainer.classes import ClassServerError

        try:
            kept = self.kept_password()
        except ClassServerError:
            kept = None
        self.password.setPlaceholderText(KEPT if kept else "")

    def accept(self) -> None:
        from trainer.classes import ClassServerError, class_address, with_password

        text = self.address.text().strip()
        if not text:
            return self.say(f"Paste the class's address: {EXAMPLE}")
        try:
            address = class_address(text)
            password = self.password.text() or self.kept_password()
            if password:
                address = with_password(address, password)
            self.classroom.join(address, remember=True)
        except ClassServerError as e:
            return self.say(f"Not joined: {e}.")
        self.password.clear()
        super().accept()

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()
        if self.address.text().strip() and not self.password.text():
            self.password.setFocus()
        else:
            self.address.setFocus()


def remembered(config):
    """The class the settings give (joined with File › Join class… last time, or the machine
    file's; a ClassAddress), None if none or not a class address."""
    from trainer.classes import ClassServerError, class_address

    text = config.value(SETTING)
    try:
        return class_address(str(text)) if text else None
    except ClassServerError:
        return None


def school_class(config):
    """The class the machine file locks without its password (a ClassAddress): File › Join
    class… then asks this user for the password alone, the address staying the school's. None
    when the class is not locked, is no class address, or the machine file holds its password."""
    if not config.locked(SETTING):
        return None
    school = remembered(config)
    return school if school is not None and school.password is None else None


def classroom_of(window) -> Classroom:
    """The window's Classroom, made the first time a class is joined."""
    services = window.services
    return services.classroom if services.classroom is not None else Classroom(window)


def ask(window, address, why: str) -> None:
    """Open File › Join class… for the class at `address`, saying `why` (its password is asked
    for again)."""
    dialog = JoinDialog(classroom_of(window), window, address=address)
    window.join_dialog = dialog
    dialog.open()
    dialog.say(why)  # once open, so that the password field has the focus


def rejoin(window, address=None) -> None:
    """At start: join the class given with --class (a ClassAddress; nothing kept), or the one
    joined with File › Join class… last time, with the password kept for it; with none kept, or
    a password file that cannot be read, File › Join class… opens to ask for it. A setting from
    before passwords were kept apart, which holds the password, is moved out of the settings
    first. Any other problem is a line in the status bar."""
    from trainer.classes import ClassServerError, class_address, passfile, with_passfile
    from ui.shell.config import USER_SETTINGS

    def problem(text: str) -> None:
        window.statusBar().showMessage(f"Not in the class: {text}.", 30000)

    config = window.config
    if address is not None and config.locked(SETTING):
        window.statusBar().showMessage(f"--class is not used: the class is set by "
                                       f"{config.source(SETTING)}, where it is locked.", 30000)
        address = None
    if address is not None:
        try:
            classroom_of(window).join(address)
        except ClassServerError as e:
            problem(str(e))
        return
    remembered = config.value(SETTING)
    if not remembered:
        return
    try:
        remembered = class_address(str(remembered))
        path = password_file(window.settings)
    except ClassServerError as e:
        return problem(str(e))
    if remembered.password is not None and config.source(SETTING) != USER_SETTINGS:
        try:  # the machine file's password: it keeps it, nothing is copied
            classroom_of(window).join(remembered)
        except ClassServerError as e:
            problem(str(e))
        return
    if remembered.password is not None:  # kept in the settings by an older version: moved out
        config.choose(SETTING, remembered.kept)
        try:
            passfile.store(path, remembered)
        except ClassServerError as e:  # joined for this run; asked for at the next start
            try:
                classroom_of(window).join(remembered)
            except ClassServerError as again:
                return problem(str(again))
            window.statusBar().showMessage(f"In the class for this run only: {e}; it is asked for "
                                           "at the next start.", 30000)
            return
    try:
        password = passfile.lookup(path, remembered)
    except ClassServerError as e:
        return ask(window, remembered, f"Not rejoined: {e}. Type the class password to join again.")
    if password is None and school_class(config) is not None:  # said by the dialog: only why now
        return ask(window, remembered, "This workstation keeps no password for it yet: type it to join.")
    if password is None and config.source(SETTING) != USER_SETTINGS:  # the school's class, first time
        return ask(window, remembered, f"Your school set this workstation's class, {remembered.shown}: "
                                       "type its password to join it.")
    if password is None:
        return ask(window, remembered, "This workstation keeps no password for the class at "
                                       f"{remembered.shown}: type it to join again.")
    try:
        classroom_of(window).join(with_passfile(remembered, path))
    except ClassServerError as e:
        problem(str(e))
