"""A class pushed to a classroom in the machine file, on a real PostgreSQL (the class server
fixtures): every start joins it; File › Leave class sticks at the next start, and after IT moves
the class; a locked class cannot be left or swapped, by the menu or by --class."""

from __future__ import annotations

import pytest

from tests.support.class_server import PASSWORD, attempt, progress_file
from tests.support.live_class import WITHIN, fast_pushes  # noqa: F401 (a fixture)
from tests.test_class_password import CONNECTED, class_line, settings_on_disk, window_for
from trainer.config import ENV
from trainer.progress import Store

pytestmark = pytest.mark.usefixtures("fast_pushes")


@pytest.fixture
def pushed(tmp_path, monkeypatch):
    """Write the machine file, as IT pushes it, for the windows made after."""
    path = tmp_path / "machine" / "config.toml"
    path.parent.mkdir()
    monkeypatch.setenv(ENV, str(path))

    def push(text: str) -> None:
        path.write_text(text, encoding="utf-8")

    return push


def test_the_pushed_class_is_joined_and_leave_class_sticks(qtbot, tmp_path, klass, pushed):
    address = klass.address()  # with the workstation's password, as class-server printed it
    pushed(f'class_address = "{address.url}"\n')
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    store = Store.open(path)
    w = window_for(qtbot, store)
    w.rejoin_class()  # the first start: joined, nothing asked
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert klass.count() == 2
    assert PASSWORD not in settings_on_disk(), "the machine file's password is copied nowhere"
    assert w.leave_class_action.isEnabled()
    w.leave_class_action.trigger()  # File › Leave class
    assert class_line(w) == "" and w.services.classroom.connection is None
    w.close()
    store.close()

    with Store.open(path) as ws:
        ws.record_attempt(attempt(ws.find_trainee("Ana").id, 9))
    for text in (f'class_address = "{address.url}"\n',  # the next start
                 f'class_address = "{address.url}"\ntheme = "light"\n'):  # IT changes the file
        pushed(text)
        store = Store.open(path)
        w = window_for(qtbot, store)
        w.rejoin_class()
        assert w.services.classroom is None, "left, and it stays left"
        assert w.config.value("class_address") == "" and w.config.source("class_address") == "user settings"
        w.close()
        store.close()
    assert klass.count() == 2, "nothing more was sent"


def test_a_locked_class_cannot_be_left_or_swapped(qtbot, tmp_path, klass, pushed):
    from trainer.classes import ClassServerError

    address = klass.address()
    pushed(f'class_address = "{address.url}"\nlocked = ["class_address"]\n')
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class(klass.address("instructor"))  # --class with another login: not used
    assert w.statusBar().currentMessage().startswith("--class is not used: the class is set by ")
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert w.services.classroom.address.user == "workstation"
    join = next(a for a in w.menuBar().actions()[0].menu().actions() if a.text().startswith("Join class…"))
    assert not join.isEnabled() and join.statusTip().startswith("Locked by ")
    assert join.text() == "Join class… (locked by your school)"
    assert not w.leave_class_action.isEnabled()
    with pytest.raises(ClassServerError, match="where it is locked"):
        w.services.classroom.leave()
    assert class_line(w) == CONNECTED, "still in the class"
    w.close()
    store.close()


def test_a_pushed_class_without_its_password_asks_once_and_then_follows_the_school(
        qtbot, tmp_path, klass, pushed):
    from tests.test_class_password import click_join

    pushed(f'class_address = "{klass.address().kept}"\n')  # no password in the file
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    assert dialog.problem.text() == (f"Your school set this workstation's class, {klass.address().shown}: "
                                     "type its password to join it.")
    dialog.password.setText(PASSWORD)
    click_join(qtbot, dialog)
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert w.config.source("class_address").endswith("config.toml"), "the school's, not copied"
    assert "postgresql://" not in settings_on_disk()
    w.close()
    store.close()


def test_a_locked_class_without_its_password_is_joined_from_the_start_prompt(qtbot, tmp_path, klass, pushed):
    """The school locks its class and leaves the password out of the machine file: the prompt at
    start joins it with the password typed (kept for this user, the class left the school's), and
    the next start rejoins without asking; another class is still refused."""
    from tests.test_class_password import click_join
    from trainer.classes import ClassServerError

    pushed(f'class_address = "{klass.address().kept}"\nlocked = ["class_address"]\n')
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    dialog.password.setText(PASSWORD)
    click_join(qtbot, dialog)
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert w.config.source("class_address").endswith("config.toml") and w.config.locked("class_address")
    assert "postgresql://" not in settings_on_disk()
    with pytest.raises(ClassServerError, match="where it is locked"):
        w.services.classroom.join(klass.address("instructor"), remember=True)
    w.close()
    again = window_for(qtbot, store)  # the next start: the kept password, no prompt
    again.rejoin_class()
    qtbot.waitUntil(lambda: class_line(again) == CONNECTED, timeout=WITHIN)
    assert getattr(again, "join_dialog", None) is None, "asked again"
    again.close()
    store.close()


def file_menu_action(w, text: str):
    return next(a for a in w.menuBar().actions()[0].menu().actions() if a.text().startswith(text))


def test_a_locked_class_whose_prompt_was_cancelled_is_joined_from_the_file_menu(
        qtbot, tmp_path, klass, pushed):
    """The school locks its class without the password, and the trainee cancels the prompt at
    start: File › Join class… asks for the password alone (the school's address shown, not
    editable) and joins; a class the machine file locks with its password keeps it off."""
    from tests.test_class_password import click_join
    from ui.qt import Qt

    pushed(f'class_address = "{klass.address().kept}"\nlocked = ["class_address"]\n')
    store = Store.open(progress_file(tmp_path / "ws.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    w.rejoin_class()
    prompt = w.join_dialog
    qtbot.waitExposed(prompt)
    assert prompt.problem.text() == "This workstation keeps no password for it yet: type it to join."
    assert not prompt.address.isEnabled() and prompt.focusWidget() is prompt.password
    qtbot.keyClick(prompt, Qt.Key.Key_Escape)  # not now
    assert not prompt.isVisible() and class_line(w) == ""
    join = file_menu_action(w, "Join class…")
    assert join.isEnabled() and join.text() == "Join class… (password only: locked by your school)"
    tip = join.statusTip()
    assert tip.startswith("Type the password of the class ") and "config.toml" in tip
    join.trigger()  # File › Join class…
    dialog = w.join_dialog
    assert dialog is not prompt
    qtbot.waitExposed(dialog)
    assert dialog.address.text() == klass.address().kept and not dialog.address.isEnabled()
    assert dialog.focusWidget() is dialog.password
    qtbot.keyClicks(dialog.address, "x")  # the school's address cannot be typed over
    assert dialog.address.text() == klass.address().kept
    qtbot.keyClicks(dialog.password, "not the password")  # mistyped: the status bar says so
    click_join(qtbot, dialog)
    qtbot.waitUntil(lambda: "refuses this workstation's password (File › Join class… to type it again)"
                    in class_line(w), timeout=WITHIN)
    assert join.isEnabled()
    join.trigger()  # typed again
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    assert not dialog.address.isEnabled()
    qtbot.keyClicks(dialog.password, PASSWORD)
    click_join(qtbot, dialog)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: class_line(w) == CONNECTED, timeout=WITHIN)
    assert w.config.source("class_address").endswith("config.toml"), "the class stays the school's"
    assert "postgresql://" not in settings_on_disk()
    assert not w.leave_class_action.isEnabled(), "a locked class is not left"
    w.close()
    store.close()

    pushed(f'class_address = "{klass.address().url}"\nlocked = ["class_address"]\n')  # its password too
    store = Store.open(progress_file(tmp_path / "other.db", {"Ana": 1}))
    w = window_for(qtbot, store)
    join = file_menu_action(w, "Join class…")
    assert not join.isEnabled() and join.text() == "Join class… (locked by your school)"
    w.close()
    store.close()
