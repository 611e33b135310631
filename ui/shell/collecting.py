"""Python's reference cycles collected on the application's thread, never on another.

Python collects cycles on whichever thread allocates when a generation is full: a thread hearing a
spoken call, one reading the class, a test run's own. A cycle that holds a Qt object (a QTimer, a
QSettings, one of the app's QObjects) then has it destroyed on that thread, while the window's
thread is inside Qt (PySide lets go of Python's lock for a Qt call, a key press, a paint): Qt does
not allow it, and a test worker ended in a segmentation fault under a key press. So, once there is
an application, Python's own collection is off, and the application's thread collects instead, by
Python's thresholds (the oldest generation whose count passed its threshold; without Python's rule
that puts a full collection off until the long-lived objects have grown by a quarter, which Python
does not expose: a full one after every eleventh of generation 1, 5-7 ms with the main window
built), every second while its event loop runs and whenever `due()` is called (the tests, after
each test). A collection made on purpose (`gc.collect()`) still works anywhere. pyqtgraph's
GarbageCollector does the same; importing pyqtgraph for it would cost a start 0.8 s."""

from __future__ import annotations

import gc
import threading

#: how often the application's thread collects while its event loop runs
EVERY_MS = 1000

_owner: threading.Thread | None = None  # the thread that collects, once there is an application


def on_this_thread(app) -> None:
    """From now on, cycles are collected on this thread (the one running `app`, a Q*Application),
    by a timer of `app`'s and by `due()`; Python's automatic collection is off (again, where
    something turned it on meanwhile). Made once per process: called again, nothing more."""
    global _owner
    if _owner is not None:
        if _owner is threading.current_thread():
            gc.disable()
        return
    from ui.qt import QTimer

    timer = QTimer(app)
    timer.setObjectName("collecting cycles")
    timer.setInterval(EVERY_MS)
    timer.timeout.connect(due)
    gc.disable()
    _owner = threading.current_thread()
    timer.start()


def due() -> int:
    """Collect the generation Python would have collected by now, if any (on the application's
    thread only: called elsewhere, nothing); the objects found unreachable."""
    if _owner is not threading.current_thread():
        return 0
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            return gc.collect(generation)
    return 0


def collecting_here() -> bool:
    """Whether cycles are collected by the application's thread (and not by Python's own)."""
    return _owner is not None
