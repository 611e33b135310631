"""The listening thread of a call (ui.speech.hearing.Hearing) never touches a Qt object: its
levels, verdict and failures reach the window from the window's own thread, and a screen closed
while the thread is in the middle of a call deletes the Hearing with it without the thread ever
emitting on the deleted object (which ended the whole app with a segmentation fault), and the
thread then ends."""

from __future__ import annotations

import threading

import pytest

from ui.qt import QObject, Qt, QWidget, Signal
from ui.speech.hearing import Hearing

pytestmark = pytest.mark.qt


class Source(QObject):
    """An input the test feeds by hand."""

    blocks = Signal(bytes)
    ended = Signal()
    failed = Signal(str)

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


class Listener:
    """Gives a level for each block and a verdict at the third; `gate` holds the third block
    until the test opens it; `finished` is set when it gave its verdict."""

    def __init__(self):
        self.level = 0.5
        self.fed = 0
        self.gate = threading.Event()
        self.finished = threading.Event()

    def feed(self, pcm: bytes):
        self.fed += 1
        if self.fed == 3:
            self.gate.wait(10)
            self.finished.set()
            return "heard"
        return None

    def finish(self):
        self.finished.set()
        return "finished"


def threads_of(hearing: Hearing) -> dict[str, set[str]]:
    """For each signal, the threads its slots ran on (connected directly: a slot runs on the
    thread that emitted)."""
    seen: dict[str, set[str]] = {"level": set(), "verdict": set(), "failed": set()}
    for name, names in seen.items():
        getattr(hearing, name).connect(lambda *_, names=names: names.add(
            threading.current_thread().name), Qt.ConnectionType.DirectConnection)
    return seen


def test_levels_and_the_verdict_are_emitted_on_the_window_s_thread(qtbot):
    listener = Listener()
    listener.gate.set()
    source = Source()
    hearing = Hearing(lambda: listener, source)
    seen = threads_of(hearing)
    verdicts = []
    hearing.verdict.connect(verdicts.append)
    hearing.start()
    for _ in range(3):
        source.blocks.emit(b"\0\0" * 1600)
    qtbot.waitUntil(lambda: verdicts == ["heard"], timeout=5000)
    assert seen["level"] == {threading.current_thread().name}
    assert seen["verdict"] == {threading.current_thread().name}
    assert hearing.wait(5)


def test_a_failure_is_said_on_the_window_s_thread(qtbot):
    def cannot():
        raise OSError("no model")

    hearing = Hearing(cannot, Source())
    seen = threads_of(hearing)
    said = []
    hearing.failed.connect(said.append)
    hearing.start()
    qtbot.waitUntil(lambda: said == ["Cannot listen: no model"], timeout=5000)
    assert seen["failed"] == {threading.current_thread().name}


def test_a_screen_closed_during_a_call_deletes_its_hearing_and_the_thread_ends(qtbot):
    screen = QWidget()
    listener = Listener()
    source = Source()
    hearing = Hearing(lambda: listener, source, parent=screen)
    verdicts = []
    hearing.verdict.connect(verdicts.append)
    hearing.start()
    for _ in range(3):
        source.blocks.emit(b"\0\0" * 1600)
    qtbot.waitUntil(lambda: listener.fed == 3, timeout=5000)  # the thread is inside the call
    gone = []
    hearing.destroyed.connect(lambda *_: gone.append(True))
    screen.deleteLater()  # closed, with its hearing, not stopped
    qtbot.waitUntil(lambda: gone == [True], timeout=5000)
    listener.gate.set()  # the verdict comes after the object has gone
    assert listener.finished.wait(5)
    assert hearing.wait(5)
    qtbot.wait(50)  # nothing is delivered: the object and its timer are gone
    assert verdicts == []


def test_a_hearing_deleted_unstopped_while_it_waits_for_sound_ends_its_thread(qtbot):
    screen = QWidget()
    listener = Listener()
    hearing = Hearing(lambda: listener, Source(), parent=screen)
    hearing.start()
    thread = hearing._thread
    qtbot.wait(50)
    screen.deleteLater()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=5000)
