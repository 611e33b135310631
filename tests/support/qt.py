"""A clean Qt for every test that uses qtbot: settings of its own, no window or timer left
behind; and the practice screen and page on their own, as fixtures."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _own_settings(request, tmp_path_factory):
    """Qt tests keep their QSettings (window size, theme, last screen) in a folder of their own,
    under the app's own names (a QSettings() made before the first window is the app's)."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    from ui.qt import QSettings
    from ui.shell.config import identify

    identify()

    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    yield


#: a widget's dynamic property that keeps it past the test that made it: a wider fixture's widget,
#: made on first use inside a test (tests/test_table_plays.py's views)
KEPT = "kept by a fixture"


def _address(widget) -> int:
    """The widget's C++ address: the same widget whichever Python wrapper names it."""
    from shiboken6 import getCppPointer

    return getCppPointer(widget)[0]


def windows() -> set[int]:
    """The windows (top-level widgets) that exist now, shown or hidden, by address."""
    from ui.qt import QApplication

    app = QApplication.instance()
    return set() if app is None else {_address(w) for w in app.topLevelWidgets()}


def tidy(from_before: set[int]) -> tuple[list, set]:
    """After a test: close the windows it left open and delete every window it made, shown or
    hidden (those of `from_before` and those marked KEPT stay); (the windows left open, the
    timers left running).

    A window closed but not deleted stays in the process (the app's own window, whose signals
    hold it, closes without being deleted), and every later theme or palette change restyles it:
    a worker of a full run gathered thousands of widgets. The windows the test made go now, with
    the widgets it closed and deleted later (qtbot's among them), as they would when the app's
    event loop came round."""
    from ui.qt import QApplication, QEvent, QTimer

    app = QApplication.instance()
    if app is None:
        return [], set()
    app.processEvents()
    left = [w for w in app.topLevelWidgets() if w.isVisible()]
    # every widget is a top-level one or inside one, and findChildren looks all the way down
    timers = {t for w in app.topLevelWidgets() for t in w.findChildren(QTimer) if t.isActive()}
    for w in left:
        w.close()
    for w in app.topLevelWidgets():
        if _address(w) not in from_before and not w.property(KEPT):
            w.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return left, timers


def delete_closed(from_before: set[int]) -> None:
    """Delete now the windows made since `from_before` that are closed (not those marked KEPT):
    before a theme or palette is reset at a test's end, which would restyle every widget of them
    for nothing. Those left open stay, for `_no_qt_leftovers` to name."""
    from ui.qt import QApplication, QEvent

    app = QApplication.instance()
    for w in app.topLevelWidgets():
        if _address(w) not in from_before and not w.isVisible() and not w.property(KEPT):
            w.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def look() -> tuple | None:
    """The application's look, which a theme sets (ui.shell.theme.apply): its style sheet,
    palette, font, theme and large print; None before there is an application."""
    from ui.qt import QApplication, QFont, QPalette
    from ui.shell.theme import WIDGETS

    app = QApplication.instance()
    if app is None:
        return None
    return (app.styleSheet(), QPalette(app.palette()), QFont(app.font(WIDGETS)), app.property("theme"),
            app.property("large_print"))


def restore_look(before: tuple | None) -> None:
    """The application's look as `look` found it, each part set again only where it changed (a
    style sheet, palette or font set restyles every widget there is)."""
    from ui.qt import QApplication
    from ui.shell.theme import WIDGETS

    app = QApplication.instance()
    if before is None or app is None:
        return
    sheet, palette, font, theme, large = before
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    if app.palette() != palette:
        app.setPalette(palette)
    if app.font(WIDGETS) != font:
        app.setFont(font, WIDGETS)
    app.setProperty("theme", theme)
    app.setProperty("large_print", large)


@pytest.fixture(autouse=True)
def _no_qt_leftovers(request):
    """Fail any Qt test that leaves windows open or timers running (napari's rule); delete every
    window it made (`tidy`), so that no test pays for another's widgets; and give the application
    back its look (`restore_look`): a theme a test chose (View › Dark theme, a start that applies
    the configured one) would otherwise style every widget of every later test in the process, as
    it styles none when that test runs alone (building a window under the light theme's style sheet
    costs about half as much again). Once a test has the application (qtbot's or qapp's), Python's
    cycles are collected on its thread only (ui.shell.collecting), for the rest of the worker:
    after each test, and while Qt waits."""
    qt = "qtbot" in request.fixturenames
    from_before = windows() if qt else set()
    if qt or "qapp" in request.fixturenames:
        from ui.shell import collecting

        # made now, as qtbot would, so that its look is known
        collecting.on_this_thread(request.getfixturevalue("qapp"))
    before = look() if qt else None
    yield
    try:
        if qt:
            left, timers = tidy(from_before)
            restore_look(before)  # after the test's windows are gone: none of them is restyled
            assert not left, f"windows left open: {left}"
            assert not timers, "timers left running: " + ", ".join(
                f"{t.objectName() or 'QTimer'} in {type(t.parent()).__name__}" for t in timers)
    finally:
        collected_here()


def collected_here() -> None:
    """Once the process has a Qt application (made by qtbot, or by a test itself), Python's cycles
    are collected on this thread only, for the rest of the worker (a test with no Qt too: its
    cyclic garbage waits for its end); and a generation whose count passed its threshold during
    the test (its windows' cycles too) is collected now."""
    if "ui.qt" not in sys.modules:
        return
    from ui.qt import QCoreApplication
    from ui.shell import collecting

    app = QCoreApplication.instance()
    if app is not None:
        collecting.on_this_thread(app)
    collecting.due()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    """The windows a Qt test leaves open quit unasked, as a picture's do (MainWindow.quit_anyway):
    pytest-qt closes them after the test, where no one answers "Quit?" of a round left under
    way, and the run would wait for an answer forever. A test that closes its window itself is
    asked, and answers."""
    if "qtbot" in getattr(item, "fixturenames", ()) and "ui.shell.window" in sys.modules:
        from ui.qt import QApplication
        from ui.shell.window import MainWindow

        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow):
                w.asks_before_quit = False
    return (yield)


def shown_alone(qtbot, widget, height: int):
    """Show a practice widget on its own at a workstation's size; stop and close it after."""
    qtbot.addWidget(widget)
    widget.resize(1400, height)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.stop()
    widget.close()


@pytest.fixture
def practice_screen(qtbot):
    """A practice screen on its own, shown at a workstation's size."""
    from ui.practice.screen import PracticeScreen

    yield from shown_alone(qtbot, PracticeScreen(), 860)


@pytest.fixture
def practice_page(qtbot):
    """The practice page (deal bar and screen) on its own, shown at a workstation's size."""
    from ui.practice.page import PracticePage

    yield from shown_alone(qtbot, PracticePage(), 900)
