"""The run's own home folders (tests/support/home.py) hold for the programs a test starts too: a
run of the speech tests' path, as a developer starts it from a shell whose HOME is theirs and
which sets no XDG folder, writes nothing under that home, and the speech-dispatcher the app's
engine starts there (none runs on the run's own socket) ends with the run."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support import speechd

ROOT = Path(__file__).resolve().parents[1]
#: a speech test that looks for the stickman's engine with nothing faked (the View menu's check)
SPEECH_TEST = "tests/test_speech_options.py::test_on_is_remembered_and_reaches_the_practice_screen"


def speech_dispatchers(home: Path) -> set[int]:
    """The speech-dispatcher processes started with `home` as their HOME."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if b"speech-dispatcher" not in (proc / "cmdline").read_bytes():
                continue
            if f"HOME={home}".encode() in (proc / "environ").read_bytes().split(b"\0"):
                found.add(int(proc.name))
        except OSError:
            continue  # ended meanwhile, or not ours to read
    return found


def test_a_run_of_the_speech_tests_writes_nothing_under_home_and_ends_its_speech_dispatcher(
        tmp_path):
    if (why := speechd.missing()) is not None:
        pytest.skip(why)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("XDG_") and k not in ("SPEECHD_ADDRESS", "DEALER_TRAINER_CONFIG")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    seen: set[int] = set()
    running = threading.Event()

    def watch() -> None:  # the speech-dispatchers of the run, seen while it runs
        while not running.wait(0.05):
            seen.update(speech_dispatchers(home))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               SPEECH_TEST], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=300)
    finally:
        running.set()
        watcher.join()
    assert done.returncode == 0, done.stdout + done.stderr
    assert seen, "the run started no speech-dispatcher: nothing was proven"
    assert speech_dispatchers(home) == set()  # ended with the run
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
