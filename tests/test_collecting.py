"""Python's reference cycles are collected on the application's thread, never on another
(ui.shell.collecting): a cycle holding a Qt object destroyed on a thread hearing a call or reading
the class, while the window's thread was inside Qt, ended a test worker in a segmentation fault."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading

from tests.support.paths import ROOT


class Cycle:
    """Garbage only a collection of cycles frees; says on which thread it was freed."""

    def __init__(self, freed: list[str]):
        self.me, self.freed = self, freed

    def __del__(self):
        self.freed.append(threading.current_thread().name)


def allocate_on_a_thread(kept: list) -> None:
    """A thread that makes many more objects than Python makes between two collections of its own
    (and keeps them: the count stays up)."""
    def work():
        kept.extend([] for _ in range(20 * gc.get_threshold()[0]))

    thread = threading.Thread(target=work, name="allocating")
    thread.start()
    thread.join()


def test_a_cycle_is_collected_on_the_applications_thread_not_the_one_that_allocated(qtbot):
    from ui.shell import collecting

    freed: list[str] = []
    kept: list = []
    Cycle(freed)
    allocate_on_a_thread(kept)
    assert freed == []  # Python's own collection would have freed it on "allocating"
    assert collecting.collecting_here() and not gc.isenabled()
    # while Qt waits, the application's thread collects what Python would have
    qtbot.waitUntil(lambda: bool(freed), timeout=3 * collecting.EVERY_MS)
    assert freed == [threading.current_thread().name]


def test_due_on_another_thread_collects_nothing(qtbot):
    from ui.shell import collecting

    freed: list[str] = []
    kept: list = []
    Cycle(freed)
    allocate_on_a_thread(kept)
    found: list[int] = []
    thread = threading.Thread(target=lambda: found.append(collecting.due()), name="other")
    thread.start()
    thread.join()
    assert found == [0] and freed == []
    assert collecting.due() > 0 and freed == [threading.current_thread().name]


#: run in a program of its own: the app's application, Qt timers in reference cycles made on its
#: thread, and another thread allocating while the application's thread runs Qt's event loop
TIMERS_IN_CYCLES = """
import gc, sys, threading, time
from ui.shell.app import application
from ui.qt import QEventLoop, QTimer

was = gc.isenabled()
app = application()
print(was, gc.isenabled(), flush=True)

class Holder:
    def __init__(self):
        self.me = self  # a cycle: only a collection of cycles frees it
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(lambda: None)
        self.timer.start()

stop = False
def allocate():
    while not stop:
        junk = [[] for _ in range(2000)]

thread = threading.Thread(target=allocate, daemon=True)
thread.start()
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    for _ in range(50):
        Holder()
    loop = QEventLoop()
    QTimer.singleShot(5, loop.quit)
    loop.exec()
stop = True
thread.join()
print("survived", flush=True)
"""


def test_qt_timers_in_cycles_are_never_destroyed_on_another_thread():
    """The app's application (`dealer-trainer`, its pictures; `dealer-trainer speech-check` makes
    its own the same way): Python's own collection is off. Before, the allocating thread collected
    the cycles, destroyed their timers there ("QObject::~QObject: Timers cannot be stopped from
    another thread"), and the program ended in a segmentation fault within a second."""
    run = subprocess.run([sys.executable, "-c", TIMERS_IN_CYCLES, "1.5"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert run.stdout.split() == ["True", "False", "survived"]
    assert "another thread" not in run.stderr, run.stderr[-2000:]
