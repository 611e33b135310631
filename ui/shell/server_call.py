"""A short call to the class server made on the GUI thread (giving a form, making logins).

A server that answers does so in milliseconds; one out of reach takes up to its connect timeout
(5 s) to say so. So the call says what it is doing before it starts: a busy cursor, and a line
(the window's status bar, or a dialog's own) painted before the call blocks, cleared after."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

WAIT_NOTE = "up to 5 s if it cannot be reached"


@contextmanager
def server_call(say: Callable[[str], None], text: str) -> Iterator[None]:
    """`say(text)` and a busy cursor for the block's length; `say("")` after."""
    from ui.qt import QApplication, QEventLoop, Qt

    say(f"{text} ({WAIT_NOTE})…")
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)  # painted now
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()
        say("")


def status_bar_of(widget) -> Callable[[str], None]:
    """A `say` for server_call: the widget's window's status bar (nothing if it has none)."""
    bar = getattr(widget.window(), "statusBar", None)
    if bar is None:
        return lambda _text: None
    return lambda text: bar().showMessage(text) if text else bar().clearMessage()
