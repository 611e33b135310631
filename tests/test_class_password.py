"""The class password on a workstation: never in the settings, the Join dialog, the status bar,
tooltips or messages; kept for this user only in the app's own libpq password file, which the
driver reads itself; asked for again when none is kept or the file cannot be used; removed by
File › Leave class. On a real PostgreSQL (the class server fixtures)."""

from __future__ import annotations

import itertools
import os
import stat
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import PASSWORD, Class, attempt, progress_file, until
from tests.support.live_class import FAST, WITHIN, fast_pushes  # noqa: F401 (a fixture)
from tests.support.screens import window_for as progress_window
from trainer.classes import ClassConnection, ClassServerError, class_address
from trainer.classes.server.logins import add_login
from trainer.classes.workstation import passfile
from trainer.classes.workstation.address import masked, split_password, with_passfile, with_password
from trainer.classes.workstation.push import connect
from trainer.progress import Store

pytestmark = pytest.mark.usefixtures("fast_pushes")

CONNECTED = "Class: connected — all results sent"
ODD = "pa:ss\\wo:rd\\"  # what libpq's password file must escape: a colon and a backslash
_logins = itertools.count(1)


def odd_login(klass: Class, password: str = ODD):
    """A workstation login of its own on the class server, with `password`."""
    name = f"workstation_pw_{next(_logins)}"
    with psycopg.connect(klass.server.admin_dsn(), autocommit=True) as admin:
        add_login(admin, name, "class_workstation", password)
    return klass.address(name, "x").kept, password


# --------------------------------------------------------------------------- the password file
def test_the_password_file_is_libpqs_own_escaped_owner_only_and_read_by_the_driver(tmp_path, klass):
    kept, password = odd_login(klass)
    address = with_password(class_address(kept), password)
    path = tmp_path / "conf" / passfile.NAME
    passfile.store(path, address)
    assert password in address.url or "%" in address.url  # the driver's URL holds it, quoted
    assert not list(path.parent.glob("*.part")), "written whole, then renamed"
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    escaped = ODD.replace("\\", "\\\\").replace(":", "\\:")
    assert lines == [f"127.0.0.1:{klass.server.port}:{klass.database}:{address.user}:{escaped}"]
    assert passfile.lookup(path, address) == ODD
    joined = with_passfile(address, path)
    assert joined.password is None and ODD not in joined.url and joined.passfile == str(path)
    with connect(joined) as conn:  # libpq itself finds the password in the file
        assert conn.execute("SELECT current_user").fetchone()[0] == address.user
    passfile.forget(path)
    assert not path.exists()
    with pytest.raises(psycopg.OperationalError, match="no password supplied"):
        connect(joined).close()


@pytest.mark.parametrize(("content", "says"), [
    ("127.0.0.1:5432:class_1:workstation\n", "is damaged (line 1 has 4 fields, not 5"),
    ("# a note\n127.0.0.1:5432:class_1:workstation:s3cret\\\n",
     "is damaged (line 2: it ends in a lone backslash)"),
    (b"\xff\xfe\x00s3cret", "is damaged (it is not text)"),
])
def test_a_damaged_password_file_is_one_line_without_the_password(tmp_path, content, says):
    path = tmp_path / passfile.NAME
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    path.chmod(0o600)
    with pytest.raises(passfile.PasswordFileError) as e:
        passfile.lookup(path, class_address("postgresql://workstation@127.0.0.1:5432/class_1"))
    assert says in str(e.value) and str(path) in str(e.value)
    assert "s3cret" not in str(e.value) and "\n" not in str(e.value)


def test_a_password_file_others_may_read_or_not_a_file_is_refused(tmp_path):
    address = class_address("postgresql://workstation:s3cret@127.0.0.1:5432/class_1")
    path = tmp_path / passfile.NAME
    assert passfile.lookup(path, address) is None, "no file: no password kept"
    passfile.store(path, address)
    if os.name == "posix":
        path.chmod(0o644)  # libpq would ignore it, silently: the app says so
        with pytest.raises(passfile.PasswordFileError, match="can be read by other users"):
            passfile.lookup(path, address)
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(passfile.PasswordFileError, match="is not a file"):
        passfile.lookup(folder, address)
    with pytest.raises(passfile.PasswordFileError, match="cannot be read"):
        passfile.lookup(tmp_path / passfile.NAME / "below-a-file", address)
    with pytest.raises(passfile.PasswordFileError, match="cannot be kept in"):
        passfile.store(path / "below-a-file", address)


# --------------------------------------------------------------------------- never shown
@pytest.mark.parametrize("text", [
    "postgresql://workstation:s3cret@10.0.0.5:99999/dealer_class",
    "http://workstation:s3cret@10.0.0.5/dealer_class",
    "postgresql://workstation:s3cret@:5432/dealer_class",
    "postgresql://workstation:s3cret@10.0.0.5:5432/",
    "postgresql://workstation:s3%zzcret@10.0.0.5:5432/dealer_class",
    "postgresql://workstation:s3@cret@10.0.0.5:5432/",
    "postgresql://workstation@10.0.0.5:5432/?password=s3cret",
    "postgresql://workstation:s3cret/dealer_class",  # the server left out
])
def test_a_bad_address_is_refused_without_its_password(text):
    with pytest.raises(ClassServerError) as e:
        class_address(text)
    assert "cret" not in str(e.value), str(e.value)
    assert "cret" not in masked(text)


def test_an_address_is_kept_shown_and_printed_without_its_password():
    address = class_address("postgresql://workstation:s3c%3Aret@10.0.0.5/dealer_class?sslmode=require"
                            "&sslpassword=k3y")
    assert address.password == "s3c:ret"
    assert address.kept == "postgresql://workstation@10.0.0.5:5432/dealer_class?sslmode=require"
    assert address.shown == "postgresql://workstation@10.0.0.5:5432/dealer_class"
    for text in (address.kept, address.shown, repr(address), str(address)):
        assert "s3c" not in text and "k3y" not in text
    assert split_password("postgresql://workstation:s3c%3Aret@10.0.0.5/dealer_class") == \
        ("postgresql://workstation@10.0.0.5/dealer_class", "s3c:ret")
    assert split_password("postgresql://workstation@10.0.0.5/db?password=s3c&sslmode=require") == \
        ("postgresql://workstation@10.0.0.5/db?sslmode=require", "s3c")
    assert split_password("postgresql://workst") == ("postgresql://workst", None)


# --------------------------------------------------------------------------- the app
def window_for(qtbot, store):
    return progress_window(qtbot, store, store.find_trainee("Ana"))[0]


def class_line(w) -> str:
    classroom = w.services.classroom
    return classroom.label.text() if classroom is not None and not classroom.label.isHidden() else ""


def settings_on_disk() -> str:
    from ui.qt import QSettings

    settings = QSettings()
    settings.sync()
    return Path(settings.fileName()).read_text(encoding="utf-8")


def password_file() -> Path:
    from ui.classroom.membership import password_file
    from ui.qt import QSettings

    return password_file(QSettings())


def everything_shown(w) -> str:
    """All the text the window and its open dialogs show: labels, fields, tooltips, the status bar."""
    from ui.qt import QApplication, QLabel, QLineEdit, QWidget

    texts = [w.statusBar().currentMessage()]
    for top in QApplication.topLevelWidgets():
        for widget in [top, *top.findChildren(QWidget)]:
            texts.append(widget.toolTip())
            if isinstance(widget, QLabel):
                texts.append(widget.text())
            if isinstance(widget, QLineEdit) and widget.echoMode() == QLineEdit.EchoMode.Normal:
                texts.append(widget.text())
    return "\n".join(texts)


def click_join(qtbot, dialog) -> None:
    from ui.qt import Qt

    qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)


def test_joining_keeps_the_password_apart_and_the_next_start_rejoins_with_it(qtbot, tmp_path, klass):
    from ui.qt import QApplication, QLineEdit, QSettings

    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    store = Store.open(path)
    w = window_for(qtbot, store)
    w.join_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    good = klass.address()
    QApplication.clipboard().setText(good.url)
    dialog.address.setFocus()
    dialog.address.paste()  # pasted as the class server printed it, password and all
    assert dialog.address.text() == good.url.replace(f":{PASSWORD}@", "@"), "the password left the field"
    assert dialog.password.text() == PASSWORD
    assert dialog.password.echoMode() == QLineEdit.EchoMode.Password
    assert PASSWORD not in everything_shown(w)
    click_join(qtbot, dialog)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert klass.count() == 3
    on_disk = settings_on_disk()
    assert good.kept in on_disk and PASSWORD not in on_disk, "the settings hold the address only"
    kept = password_file()
    assert PASSWORD in kept.read_text(encoding="utf-8")
    if os.name == "posix":
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert PASSWORD not in everything_shown(w)
    w.join_class()  # opened again: the address, and the password only as "kept"
    again = w.join_dialog
    assert again.address.text() == good.kept and again.password.text() == ""
    assert again.password.placeholderText() == "(kept on this workstation)"
    assert PASSWORD not in everything_shown(w)
    again.close()
    w.close()
    store.close()

    with Store.open(path) as ws:  # one more attempt, recorded while the app was closed
        ws.record_attempt(attempt(ws.find_trainee("Ana").id, 9))
    store = Store.open(path)  # the next start: rejoined with the kept password
    w = window_for(qtbot, store)
    w.rejoin_class()
    address = w.services.classroom.address
    assert address.password is None and address.passfile == str(kept)
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert klass.count() == 4
    assert PASSWORD not in settings_on_disk()
    w.leave_class()  # File › Leave class: the address and the password both go
    assert not kept.exists() and not QSettings().contains("class/address")
    assert "postgresql://" not in settings_on_disk()
    w.close()
    store.close()


def test_an_old_setting_holding_the_password_is_moved_out_at_the_next_start(qtbot, tmp_path, klass):
    from ui.qt import QSettings

    good = klass.address()
    settings = QSettings()
    settings.setValue("class/address", good.url)  # as File › Join class… kept it before
    settings.sync()
    assert PASSWORD in settings_on_disk()
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 2}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    on_disk = settings_on_disk()
    assert PASSWORD not in on_disk and good.kept in on_disk
    assert passfile.lookup(password_file(), good) == PASSWORD
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert klass.count() == 2
    assert w.services.classroom.address.password is None, "connected through the password file"
    w.close()
    store.close()


def test_with_no_password_kept_the_next_start_asks_for_it(qtbot, tmp_path, klass):
    from ui.qt import QSettings, Qt

    good = klass.address()
    QSettings().setValue("class/address", good.kept)
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 2}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    assert dialog.address.text() == good.kept and dialog.password.text() == ""
    assert dialog.problem.text() == (f"This workstation keeps no password for the class at {good.shown}: "
                                     "type it to join again.")
    qtbot.waitUntil(dialog.password.hasFocus, timeout=5000)  # the field to type in
    qtbot.keyClicks(dialog.password, PASSWORD)
    qtbot.keyClick(dialog.password, Qt.Key.Key_Return)  # Enter joins (Join is the default)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert klass.count() == 2 and passfile.lookup(password_file(), good) == PASSWORD
    assert PASSWORD not in settings_on_disk()
    w.close()
    store.close()


@pytest.mark.parametrize(("damage", "says"), [
    (lambda p: p.write_text("127.0.0.1:5432\n"), "is damaged (line 1 has 2 fields, not 5"),
    (lambda p: p.chmod(0o644), "can be read by other users"),
])
def test_a_password_file_that_cannot_be_used_is_said_and_the_password_asked_for(
        qtbot, tmp_path, klass, damage, says):
    from ui.qt import QSettings

    if "other users" in says and os.name != "posix":
        pytest.skip("file modes are POSIX's")
    good = klass.address()
    QSettings().setValue("class/address", good.kept)
    passfile.store(password_file(), good)
    damage(password_file())
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    text = dialog.problem.text()
    assert text.startswith("Not rejoined: the class password file ") and says in text, text
    assert text.endswith("Type the class password to join again.") and "\n" not in text
    assert PASSWORD not in everything_shown(w)
    qtbot.keyClicks(dialog.password, PASSWORD)
    click_join(qtbot, dialog)  # written anew, as it should be
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert passfile.lookup(password_file(), good) == PASSWORD
    w.close()
    store.close()


def test_a_wrong_password_is_said_in_the_status_bar_without_it(qtbot, tmp_path, klass):
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 2}))
    w = window_for(qtbot, store)
    w.join_class()
    dialog = w.join_dialog
    qtbot.keyClicks(dialog.address, klass.address().kept)
    qtbot.keyClicks(dialog.password, "not-the-password")
    click_join(qtbot, dialog)
    qtbot.waitUntil(lambda: "refuses" in class_line(w), timeout=WITHIN)
    assert class_line(w) == ("Class: the server refuses this workstation's password (File › Join class… "
                             "to type it again); 2 results waiting")
    assert "not-the-password" not in everything_shown(w)
    w.join_class()  # typed again, right this time
    qtbot.keyClicks(w.join_dialog.password, PASSWORD)
    click_join(qtbot, w.join_dialog)
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    w.close()
    store.close()


def test_a_class_given_on_the_command_line_is_not_kept(qtbot, tmp_path, klass):
    from ui.qt import QSettings

    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class(klass.address())  # dealer-trainer --class URL
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert not QSettings().contains("class/address") and not password_file().exists()
    assert PASSWORD not in everything_shown(w)
    w.close()
    store.close()


def test_a_pusher_says_when_the_password_is_refused(tmp_path, klass):
    pusher = ClassConnection(str(progress_file(tmp_path / "ws.db", {"Ana": 1})),
                             klass.address(password="wrong"), **FAST)
    pusher.start()
    try:
        until(lambda: pusher.problem is not None, what="a failed push")
        assert pusher.pusher.refused and "wrong" not in pusher.status
    finally:
        pusher.close()
