"""Shared test setup, loaded once for the whole run from tests/support: the program as a user runs
it, a clean Qt per test, one class server (a real PostgreSQL) for every test that needs it, and
home folders of the run's own. Helpers shared by several test modules live in tests/support too
(`from tests.support.<module> import`).

`make test` runs the suite on every core (pytest-xdist, `-n auto --dist loadgroup`, a worker more
than the cores: `pytest_xdist_auto_num_workers`): each worker is a process of its own, with its
own Qt, its own class server and its own home folders; tests marked with one xdist_group run in
one worker (tests/support/groups.py). Plain `python -m pytest`
runs it in one process, in order, for debugging."""

from __future__ import annotations

import os
import tempfile

import pytest

pytest.register_assert_rewrite("tests.support")  # the helpers' asserts explain as a test's do
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _temporary_files_in_memory() -> None:
    """The tests' temporary files (tmp_path, the programs' files and folders) go to memory where
    the machine has room there (in_memory: /dev/shm, a tmpfs with 2 GiB free) and TMPDIR is not
    set, in this process and the workers and programs it starts: a progress file's fsyncs then
    wait for no disk. No test can tell whether an fsync reached the disk, so each proves what it
    did."""
    if "TMPDIR" in os.environ:  # set by the user, or by the run that started this program
        return
    from tests.support.class_server import in_memory  # after the rewrite is registered

    if memory := in_memory():
        os.environ["TMPDIR"] = memory
        tempfile.tempdir = None  # read again from TMPDIR


_temporary_files_in_memory()


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (make test): a worker more than the cores. The workers wait for the class server
    and the programs they start, and a third worker on two cores runs meanwhile: the whole suite
    took 147.0, 148.7 and 143.9 s with 3 workers against 160.8, 162.3 and 155.9 s with 2, run by
    turns on the 2-core machine, for about 4% more CPU."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1

pytest_plugins = ["tests.support.home", "tests.support.command", "tests.support.qt",
                  "tests.support.class_server_fixtures", "tests.support.markers", "tests.support.groups",
                  "tests.support.order", "tests.support.progress_file", "tests.support.kdf",
                  "tests.support.imports", "tests.support.speech_screens", "tests.support.heap"]
