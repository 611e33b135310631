"""View › Present on second screen (F5): the table, or a replay's, full screen on the projector while
the console stays on the laptop; Esc or F5 brings it back; unplugging the projector brings it back
without a crash; with one screen it says so.

The run's own Qt has the offscreen platform's one screen: the one-screen test runs there.
tests/test_two_screens.py runs this file's two-screen tests again in a Qt whose offscreen platform
has a laptop and a projector (`QT_QPA_PLATFORM=offscreen:configfile=…`, with
tests/test_screen_sizes.py); in any other Qt they skip, saying so."""

from __future__ import annotations

import pytest

from tests.support.two_screens import SCREENS, SKIP


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


def console(qtbot, screen):
    """The main window maximised on `screen`, a Props & Hops round dealt."""
    from ui.shell.app import throwaway_settings
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None, Trainee()), settings=throwaway_settings())
    qtbot.addWidget(w)
    w.setScreen(screen)
    w.setGeometry(screen.availableGeometry().adjusted(40, 40, -40, -40))
    w.showMaximized()
    qtbot.waitExposed(w)
    page = w.show_screen("practice")
    page.deal(seed=5, game="props-and-hops", confirm=False)
    qtbot.waitUntil(page.screen.view.isVisible)  # a widget added to a shown window is shown next
    return w, page.screen


@pytest.fixture
def two_screens():
    from ui.qt import QApplication

    found = {s.name(): s for s in QApplication.instance().screens()}
    if set(found) != set(SCREENS):
        pytest.skip(SKIP)
    return found


def presented() -> list:
    """The presentation windows on screen."""
    from ui.qt import QApplication

    return [t for t in QApplication.topLevelWidgets() if t.objectName() == "presentation" and t.isVisible()]


def press(qtbot, widget, key) -> None:
    """`key` typed in `widget`: its window made the active one first, as a click on it would (a
    key goes to the active window, and F5 and Esc are that window's shortcuts)."""
    widget.window().activateWindow()
    qtbot.waitUntil(widget.isActiveWindow)
    qtbot.keyClick(widget, key)
    qtbot.wait(20)


def keypad(qtbot, screen):
    """The payout keypad open over the round (window-modal, as the Pay action opens it), active."""
    from trainer import Do
    from ui.practice.dialogs import PayoutKeypad

    screen.cycle(1)
    screen.act(Do.PAY)
    pad = screen.dialog
    assert isinstance(pad, PayoutKeypad)
    qtbot.waitActive(pad)
    return pad


def test_two_screens_f5_shows_the_table_on_the_projector_and_esc_brings_it_back(qtbot, two_screens):
    from ui.qt import Qt

    w, screen = console(qtbot, two_screens["laptop"])
    view = screen.view
    press(qtbot, screen, Qt.Key.Key_F5)
    shown = w.presentation.shown
    assert shown is not None and shown.isVisible()
    assert view.window() is shown and view.isVisible()
    assert shown.screen() is two_screens["projector"]
    assert shown.geometry() == two_screens["projector"].geometry()
    assert view.width() > 1366 * 0.9, view.width()  # the projector's width, not the laptop's
    assert w.screen() is two_screens["laptop"] and w.isVisible()  # the console stays
    holder = w.presentation.holder
    assert holder.window() is w and holder.isVisible() and "other screen" in holder.text()
    screen.refresh()  # the round goes on from the console: the projector's table follows it
    press(qtbot, shown, Qt.Key.Key_Escape)
    assert w.presentation.shown is None and not presented()
    assert view.window() is w and screen.table_layout.indexOf(view) >= 0 and view.isVisible()
    qtbot.waitUntil(w.isActiveWindow)  # the keys came back with the table
    # and again, ended by F5 from the console this time
    press(qtbot, screen, Qt.Key.Key_F5)
    assert view.window() is w.presentation.shown
    press(qtbot, screen, Qt.Key.Key_F5)
    assert view.window() is w and w.presentation.shown is None
    press(qtbot, screen, Qt.Key.Key_F5)  # the window closed while presenting: nothing left behind
    assert presented()
    assert w.close()
    qtbot.waitUntil(lambda: not presented(), timeout=3000)


def test_two_screens_unplugging_the_projector_brings_the_table_back(qtbot, two_screens):
    from ui.qt import QGuiApplication, Qt

    w, screen = console(qtbot, two_screens["laptop"])
    view = screen.view
    press(qtbot, screen, Qt.Key.Key_F5)
    shown = w.presentation.shown
    assert view.window() is shown
    QGuiApplication.instance().screenRemoved.emit(two_screens["projector"])  # the cable pulled
    qtbot.wait(20)
    assert w.presentation.shown is None and not presented()
    assert view.window() is w and screen.table_layout.indexOf(view) >= 0 and view.isVisible()
    w.show_screen("practice").deal(seed=6, game="pai-gow-dice", confirm=False)  # the app goes on
    qtbot.wait(20)
    assert screen.view.window() is w and screen.view.isVisible()
    w.close()


def test_two_screens_a_replay_is_presented_from_its_dialog(qtbot, two_screens, tmp_path):
    from tests.support.progress import played_round
    from trainer.progress import Store, replay_of
    from ui.classroom.replay import ReplayDialog
    from ui.qt import QSplitter, Qt

    w, _ = console(qtbot, two_screens["laptop"])
    with Store.open(tmp_path / "p.db") as store:
        rae = store.add_trainee("Rae")
        played_round(store, rae)
        [attempt] = store.attempts(rae)
    replay = ReplayDialog(replay_of(attempt), w.show_screen("progress"))
    replay.open()  # window-modal, as the Class tab opens it
    qtbot.waitExposed(replay)
    view = replay.view
    press(qtbot, replay.steps, Qt.Key.Key_F5)
    assert view.window() is w.presentation.shown, "the replay's table, not the practice table"
    replay.steps.setCurrentRow(replay.steps.count() - 1)  # stepped on the laptop
    press(qtbot, replay.steps, Qt.Key.Key_Escape)
    assert view.window() is replay and isinstance(view.parentWidget(), QSplitter)
    assert replay.isVisible(), "Esc ended the presentation, not the replay"
    press(qtbot, replay.steps, Qt.Key.Key_F5)
    assert presented()
    replay.close()
    replay.deleteLater()  # the replay closed while presented: the projector's window closes too
    qtbot.waitUntil(lambda: not presented(), timeout=3000)
    assert w.presentation.shown is None
    w.close()


def test_two_screens_a_round_of_another_game_ends_the_presentation(qtbot, two_screens):
    from ui.qt import Qt

    w, screen = console(qtbot, two_screens["laptop"])
    press(qtbot, screen, Qt.Key.Key_F5)
    assert presented()
    w.show_screen("practice").deal(seed=6, game="pai-gow-dice", confirm=False)  # a new table
    qtbot.waitUntil(lambda: not presented(), timeout=3000)
    assert w.presentation.shown is None
    assert screen.view.window() is w and screen.view.isVisible()
    assert screen.table_layout.count() == 1, "no line left where the old table was"
    press(qtbot, screen, Qt.Key.Key_F5)  # the new table presents as the old one did
    assert screen.view.window() is w.presentation.shown
    press(qtbot, screen, Qt.Key.Key_Escape)
    assert screen.view.window() is w
    w.close()


def test_two_screens_f5_in_the_keypad_presents_and_its_esc_stays_the_keypads(qtbot, two_screens):
    """F5 typed in a window-modal dialog over the window (the keypad) presents the window's table;
    Esc typed in the keypad closes the keypad, not the presentation; F5 in it ends it."""
    from ui.qt import Qt

    w, screen = console(qtbot, two_screens["laptop"])
    pad = keypad(qtbot, screen)
    press(qtbot, pad.field, Qt.Key.Key_F5)
    assert screen.view.window() is w.presentation.shown and pad.isVisible()
    press(qtbot, pad.field, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: screen.dialog is None)  # the keypad closed (and deleted)
    assert presented() and screen.view.window() is w.presentation.shown
    pad = keypad(qtbot, screen)  # opened while presenting
    press(qtbot, pad.field, Qt.Key.Key_F5)
    assert w.presentation.shown is None and screen.view.window() is w and pad.isVisible()
    pad.reject()
    w.close()


def test_with_one_screen_f5_says_so(qtbot):
    from tests.support.screens import answer
    from ui.qt import QApplication, Qt

    if len(QApplication.instance().screens()) != 1:
        pytest.skip("a Qt with one screen")
    w, screen = console(qtbot, QApplication.instance().primaryScreen())
    view = screen.view
    said: list = []
    answer({"button": "OK"}, seen=said)
    press(qtbot, screen, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: bool(said), timeout=3000)
    assert "Only one screen" in said[0]
    assert w.presentation.shown is None and view.window() is w
    w.close()


def test_with_one_screen_f5_in_a_dialog_says_so_over_it(qtbot):
    """F5 typed in a window-modal dialog over the window (the keypad) is read there too."""
    from tests.support.screens import answer
    from ui.qt import QApplication, Qt

    if len(QApplication.instance().screens()) != 1:
        pytest.skip("a Qt with one screen")
    w, screen = console(qtbot, QApplication.instance().primaryScreen())
    pad = keypad(qtbot, screen)
    said: list = []
    answer({"button": "OK"}, seen=said)
    press(qtbot, pad.field, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: bool(said), timeout=3000)
    assert "Only one screen" in said[0]
    assert pad.isVisible() and screen.dialog is pad
    pad.reject()
    w.close()
