"""The app in a class on a real PostgreSQL, for the tests of its windows: the workstations' pushes
and the status bar's class line made fast (`fast_pushes`, a fixture to take), and the instructor's
window live on the Class tab (`instructor_window`)."""

from __future__ import annotations

import pytest

from tests.support.class_server import progress_file, until
from tests.support.screens import on_class_tab, window_for
from trainer.progress import Store

FAST = {"poll": 0.05, "backoff": (0.05, 0.5)}
#: ms between the status bar's reads of the class connection (the app's: a second, STATUS_MS)
STATUS_MS = 50
WITHIN = 60_000  # ms: only a guard against a hang


@pytest.fixture
def fast_pushes(monkeypatch):
    """Pushes polled and retried within a fraction of a second, and the status bar's class line
    read every STATUS_MS (ui.classroom.membership): a test waits for the line it expects, never
    for the app's second between reads, and what each line says is the same at either pace."""
    monkeypatch.setattr("ui.classroom.membership.OPTIONS", FAST)
    monkeypatch.setattr("ui.classroom.membership.STATUS_MS", STATUS_MS)


def sent(window) -> None:
    """Wait until the window's class connection has sent every attempt of its file (taken or
    set aside by the class): a Class tab built quickly read the class before the push, and a
    test that then looked for the file's trainee there failed."""
    from ui.classroom.membership import classroom_of

    def done() -> bool:
        connection = classroom_of(window).connection
        return connection is not None and connection.waiting() == 0

    until(done, what="the file's attempts sent to the class")


def instructor_window(qtbot, tmp_path, klass, login: str = "instructor"):
    """(window, Progress page, store): Instructor Lee's window joined to `klass` with `login`,
    on the Class tab; the file holds a trainee "Ana" with 4 attempts, sent to the class before
    the Class tab first reads it (`sent`)."""
    path = progress_file(tmp_path / "teacher.db", {"Ana": 4})
    store = Store.open(path)
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="a long class passphrase")
    w = window_for(qtbot, store, store.trainee(lee))[0]
    w.rejoin_class(klass.address(login))
    sent(w)
    return w, on_class_tab(w), store
