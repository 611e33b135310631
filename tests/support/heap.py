"""The heap a test process keeps from its collection: the test modules, the modules they import and
every test's item, some 210,000 objects in a worker of `make test`, all alive to the end of the
run. Python's collection of reference cycles walked all of them again in each of its full passes:
five during the collection itself (about 0.3 s of CPU), more in each worker's run as its heap
grows, and two at the end of the run (pytest's, for the warnings of objects freed then).

So the collection of cycles is off while the tests are collected, and once they are, what is left
is collected once and frozen (gc.freeze): kept out of every later pass. A frozen object is still
freed when nothing refers to it; only a cycle of them is never freed, and what collection made
lives to the end of the run anyway. What the tests make is collected as before.

Measured on the 2-core machine, by turns: three workers collecting the whole suite (`-n 3 -k`
choosing none) took 12.3 to 12.7 s of CPU in all without this (four runs), 9.3 to 9.4 s with it (five);
973 of the suite's tests chosen by `-k` from the whole collection, 64.9 and 61.4 s against 57.5
and 57.5 s."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


def freeze() -> None:
    """Collect the cycles that are garbage now, and keep every object left out of later passes."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_collection(session: pytest.Session):
    enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if enabled:
            gc.enable()
        freeze()


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """For a test of code that freezes the heap and turns the collection of cycles off itself:
    nothing frozen while it runs, and what is left frozen again after it; and Python's collection
    on, as in a process with no Qt application, and off again after where a Qt test had made one
    (ui.shell.collecting): what is garbage as it starts is collected here first, on the
    application's thread, so that no Qt object left by an earlier test is there for another
    thread's collection."""
    frozen, enabled = gc.get_freeze_count() > 0, gc.isenabled()
    gc.unfreeze()
    if not enabled:
        gc.collect()
        gc.enable()
    yield
    if not enabled:
        gc.disable()
    if frozen:
        freeze()
