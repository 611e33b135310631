"""Work of a second or more that the window must not wait on: an instructor key's passphrase
(scrypt, about a second on a laptop: trainer.exams.keys) is checked on a thread of its own, while
the window repaints under a busy cursor and a line says what is being done.

The caller gets the work's answer, or its exception, on the GUI thread, as if it had called it
there. Meanwhile no input reaches the window (the work was asked for by a click whose answer is
awaited), but it paints, and timers run. Work the window goes on beside (a trainee's voice
fitted, ui.speech.enrolling, whose Cancel drops the answer) is `in_background`."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: what the window says while an instructor key's passphrase is checked
KEY_WORK = "Checking the instructor key's passphrase (a second or two)"
NEW_KEY_WORK = "Sealing the new instructor key under its passphrase (a second or two)"
POLL_MS = 15  # how often the waiting GUI thread looks whether the work is done


def _worker(work: Callable[[], T], out: dict) -> threading.Thread:
    """A thread (not started) that puts `work()`'s value in out["value"], or the exception it
    raised in out["error"], for the GUI thread to hand on."""

    def run() -> None:
        try:
            out["value"] = work()
        except BaseException as e:  # handed to the GUI thread, raised there
            out["error"] = e

    return threading.Thread(target=run, name="off-the-gui-thread", daemon=True)


def off_the_gui_thread(say: Callable[[str], None], text: str, work: Callable[[], T]) -> T:
    """`work()` on a thread, with `say(text + "…")` and a busy cursor until it ends, then
    `say("")`; its value, or its exception raised here."""
    from ui.qt import QApplication, QEventLoop, Qt, QTimer

    out: dict = {}
    worker = _worker(work, out)
    say(f"{text}…")
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(POLL_MS)
    poll.timeout.connect(lambda: None if worker.is_alive() else loop.quit())
    try:
        worker.start()
        poll.start()
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        worker.join()
    finally:
        poll.stop()
        QApplication.restoreOverrideCursor()
        say("")
    if "error" in out:
        raise out["error"]
    return out["value"]


class Cancelled(Exception):
    """The one who waited cancelled the work. The work cannot be stopped once under way: its
    answer, when it comes, is handed to whoever asks for it (`when_done`), else dropped."""

    def __init__(self, text: str, worker: threading.Thread | None = None, out: dict | None = None):
        super().__init__(text)
        self.worker, self.out = worker, {} if out is None else out

    def when_done(self, parent, report: Callable[[object, BaseException | None], None]) -> None:
        """Call `report(value, error)` on the GUI thread once the work cancelled has ended (at
        once when it has): its value (None when it raised) and its exception (None when it
        did not). Watched by a timer of `parent`'s, so it ends with `parent`."""
        _when_done(parent, self.worker, self.out, report)


def _when_done(parent, worker: threading.Thread | None, out: dict,
               report: Callable[[object, BaseException | None], None]) -> None:
    """`report(out's value, out's error)` on the GUI thread once `worker` has ended, watched by a
    timer of `parent`'s (nothing is reported once `parent` is gone)."""
    from ui.qt import QTimer

    def look() -> None:
        if worker is not None and worker.is_alive():
            return
        poll.stop()
        poll.deleteLater()
        report(out.get("value"), out.get("error"))

    poll = QTimer(parent)
    poll.setInterval(POLL_MS * 10)
    poll.timeout.connect(look)
    poll.start()


def in_background(parent, work: Callable[[], T],
                  report: Callable[[object, BaseException | None], None]) -> None:
    """`work()` on a thread of its own while the window goes on taking input; `report(value,
    error)` on the GUI thread once it has ended, as `Cancelled.when_done` reports, while `parent`
    lives (the caller says the work is under way, and drops an answer it no longer wants)."""
    out: dict = {}
    worker = _worker(work, out)
    worker.start()
    _when_done(parent, worker, out, report)


def cancellable(parent, title: str, text: str, work: Callable[[], T]) -> T:
    """`work()` on a thread of its own, while a dialog over `parent` (window-modal: the window
    takes no input meanwhile) says `text` above a busy bar and a Cancel button, and the window
    paints and its timers run. Its value, or its exception raised here; Cancelled when Cancel
    came first (the thread goes on to its end: Cancelled.when_done hands on what it answers)."""
    from ui.qt import QEventLoop, QProgressDialog, Qt, QTimer

    out: dict = {}
    worker = _worker(work, out)
    box = QProgressDialog(text, "Cancel", 0, 0, parent)  # a range of 0 to 0: a busy bar
    box.setObjectName("busy")
    box.setWindowTitle(title)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setAutoClose(False)
    box.setAutoReset(False)
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(POLL_MS)
    poll.timeout.connect(lambda: None if worker.is_alive() else loop.quit())
    box.canceled.connect(loop.quit)
    try:
        worker.start()
        poll.start()
        box.show()
        loop.exec()
    finally:
        poll.stop()
        box.canceled.disconnect(loop.quit)
        box.hide()
        box.deleteLater()
    if worker.is_alive():
        raise Cancelled(text, worker, out)
    if "error" in out:
        raise out["error"]
    return out["value"]
