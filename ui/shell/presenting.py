"""View › Present on second screen (F5): the table being worked, or the replay open, full screen
on the other screen (a projector), while the instructor's console (the window, the action bar,
the feedback, the replay's steps) stays on the laptop.

The table itself moves: the widget drawn in the window (ui.table) is lifted into a full-screen
window on the other screen, and a line holds its place in the console saying where it went. F5
again, or Esc, puts it back where it was; so does unplugging the projector
(QGuiApplication.screenRemoved), before Qt moves the full-screen window anywhere. With one screen
it says so and moves nothing.

F5 and Esc are shortcuts, matched by Qt's shortcut map in C++ when a key is pressed (an application
event filter would pass every event of the app, paints and timers too, into Python: a sixth of the
processor of building and showing the screens). A window's shortcut is live only while that window
is the active one, and a replay or the keypad is a window-modal dialog of its own, which the main
window's shortcuts do not reach: so the F5 action is added to each window of this main window's (a
dialog over it, however deep, and the presentation) when it first becomes the focus window
(QGuiApplication.focusWindowChanged, which fires only when the focus moves to another window; a
menu's popup is not one: in an open menu F5 works only where the menu holds the action, View). The
Esc action is added, while presenting only, to the presentation and to the window the table was
taken from; a dialog over that window, such as the keypad, is another window and keeps its own Esc.
When the presentation had the keyboard as it ends, the keyboard goes back with the table, to its
window or the dialog over it."""

from __future__ import annotations

from ui.qt import (
    QAction,
    QApplication,
    QGuiApplication,
    QKeySequence,
    QLabel,
    QMessageBox,
    QObject,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)

KEY = "F5"
ONE_SCREEN = ("Only one screen is connected. Connect the projector and set it to extend the "
              "desktop (not to mirror it), then press F5 again.")
NOTHING = ("There is no table to present: deal a round on the Practice screen, or open a replay "
           "on the Class tab, then press F5.")


class Presentation(QObject):
    """The presentation of `window`'s table (a MainWindow) on another screen."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.view: QWidget | None = None  # the table presented
        self.shown: QWidget | None = None  # the full-screen window on the other screen
        self.holder: QLabel | None = None  # in the console, where the table was
        self.screen = None
        self.action = _key_action("Present on second screen", KEY, window, self.toggle)
        window.addAction(self.action)  # F5 in the window (the View menu's item is this action)
        self.end = _key_action("End the presentation", "Esc", self, self.stop)
        app = QGuiApplication.instance()
        app.screenRemoved.connect(self._screen_removed)
        app.focusWindowChanged.connect(self._focused)

    @property
    def on(self) -> bool:
        return self.shown is not None

    def toggle(self) -> bool:
        """Start presenting, or end it; whether it is on after."""
        if self.on:
            self.stop()
            return False
        return self.start()

    def table(self) -> QWidget | None:
        """The table to present: the open replay's (a modal dialog), else the window's shown one."""
        from ui.table.base import TableView

        modal = QApplication.activeModalWidget()
        for top in ([modal] if modal is not None else []) + [self.window]:
            found = [v for v in top.findChildren(TableView) if v.isVisible()]
            if found:
                return found[0]
        return None

    def other_screen(self):
        here = self.window.screen()
        return next((s for s in QGuiApplication.screens() if s is not here), None)

    def start(self) -> bool:
        owner = QApplication.activeModalWidget() or self.window
        screen = self.other_screen()
        if screen is None:
            QMessageBox.information(owner, "Present on second screen", ONE_SCREEN)
            return False
        view = self.table()
        if view is None:
            QMessageBox.information(owner, "Present on second screen", NOTHING)
            return False
        self.view, self.screen = view, screen
        size = screen.size()
        self.holder = QLabel(f"The table is on the other screen ({size.width()}×{size.height()}). "
                             "F5 or Esc brings it back here.")
        self.holder.setObjectName("presenting")
        self.holder.setWordWrap(True)
        self.holder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        _swap(view, self.holder)
        shown = QWidget(None, Qt.WindowType.Window | Qt.WindowType.FramelessWindowHint)
        shown.setObjectName("presentation")
        shown.setWindowTitle("Dealer Trainer — presentation")
        layout = QVBoxLayout(shown)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(view)
        view.show()
        shown.setScreen(screen)
        shown.setGeometry(screen.geometry())
        shown.addActions([self.action, self.end])
        self.holder.window().addAction(self.end)  # the console: the window, or the replay
        shown.showFullScreen()
        self.shown = shown
        view.destroyed.connect(self._view_gone)  # a round of another game replaced it
        self.holder.destroyed.connect(self._place_gone)  # the exam, or the replay, closed
        return True

    def stop(self) -> None:
        """Bring the table back where it was in the console, and close the presentation."""
        shown, view, holder = self.shown, self.view, self.holder
        self.shown = self.view = self.holder = self.screen = None
        if shown is None:
            return
        for top in self.end.associatedObjects():  # Esc is the console's own again
            top.removeAction(self.end)
        if QApplication.activeWindow() is shown:
            # the keys go back with the table: to the window it is in again, or a dialog over it
            console = holder.window() if holder is not None else self.window
            (QApplication.activeModalWidget() or console).activateWindow()
        if view is not None:
            view.destroyed.disconnect(self._view_gone)
        if holder is not None:
            holder.destroyed.disconnect(self._place_gone)
            if view is not None:
                _swap(holder, view)
            holder.deleteLater()
        shown.hide()
        shown.deleteLater()

    def _view_gone(self, *_args) -> None:
        self.view = None
        self.stop()

    def _place_gone(self, *_args) -> None:
        """The screen the table was taken from is gone (an exam ended, a replay closed): the
        presentation ends, and the table, whose screen it was, goes with it."""
        self.holder = None
        if self.view is not None:
            self.view.destroyed.disconnect(self._view_gone)
            self.view = None  # a child of the presentation's window: deleted with it
        self.stop()

    def _screen_removed(self, screen) -> None:
        if self.on and screen is self.screen:
            self.stop()

    def _focused(self, focus) -> None:
        """Another window has the focus: if it is one of this main window's (a dialog over it, a
        message box, the presentation), F5 is live in it too."""
        top = QApplication.activeWindow()  # the focus window's widget, set before the signal
        if focus is None or top is None or top is self.window or self.action in top.actions():
            return
        if self._ours(top):
            top.addAction(self.action)

    def _ours(self, top: QWidget) -> bool:
        """Whether a key pressed in the window `top` is for this window: a dialog over it, or the
        presentation."""
        while top is not None and top is not self.window and top is not self.shown:
            top = top.parentWidget()  # a dialog's parent is a widget of the window it is over
        return top is not None


def _key_action(text: str, key: str, parent: QObject, slot) -> QAction:
    """An action run by `key` in the windows it is added to (Qt.WindowShortcut, the default):
    once for a key held down, not again for each of its repeats."""
    action = QAction(text, parent)
    action.setShortcut(QKeySequence(key))
    action.setAutoRepeat(False)
    action.triggered.connect(slot)
    return action


def _swap(old: QWidget, new: QWidget) -> None:
    """Put `new` where `old` is (a splitter's pane, or a place in a box layout) and lift `old` out."""
    parent = old.parentWidget()
    if isinstance(parent, QSplitter):
        index = parent.indexOf(old)
        sizes = parent.sizes()
        parent.replaceWidget(index, new)
        parent.setSizes(sizes)
        return
    layout = parent.layout() if parent is not None else None
    if layout is None:
        return
    index = layout.indexOf(old)
    stretch = layout.stretch(index) if hasattr(layout, "stretch") else 0
    layout.removeWidget(old)
    old.setParent(None)
    layout.insertWidget(index, new, stretch)
    new.show()
