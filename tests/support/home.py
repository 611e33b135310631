"""The run's own home folders: what the app and Qt write under the user's configuration, data,
cache and runtime folders (QFileDialog's QtProject.conf, QSettings in their default place, the
default progress file, the class password file; fontconfig's cache; the speech-dispatcher that
Qt's speech engine starts when none is running, with its socket, pid file and logs, and
PulseAudio's client files) goes to folders of this process's own, which the programs the tests
start inherit. A developer's own settings and ~/.cache stay untouched, and two pytest processes
(xdist's workers, or the runs of two checkouts) never write the same file. A speech-dispatcher
started in the run's runtime folder (by the app's engine, in this process or a program a test
started) is ended with the run, after the app's engine threads (ui.speech.engine), which may be
starting one still. The machine-wide config file
(trainer.config) is one of the run's own too, which no test makes unless it means to; a computer
with its own (/etc/xdg/dealer-trainer/config.toml), which every run reads whatever the
environment says, runs no tests. Qt's machine-wide settings are the run's own too. A
speech-dispatcher started for the run has espeak-ng's English voices only (tests/support/speechd.py
says why)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.support import speechd

#: the variables Qt's standard paths read on Linux (ConfigLocation, AppDataLocation and the like;
#: XDG_CONFIG_DIRS: Qt's machine-wide settings, ui.shell.config.older_settings), and those where
#: the programs the app starts write (XDG_CACHE_HOME: fontconfig; XDG_RUNTIME_DIR: a
#: speech-dispatcher's socket, pid file and logs, which without it go to ~/.cache)
VARIABLES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS", "XDG_CACHE_HOME",
             "XDG_RUNTIME_DIR")
#: where a speech-dispatcher started for the run writes its pid, under XDG_RUNTIME_DIR
SPEECHD_PID = Path("speech-dispatcher", "pid", "speech-dispatcher.pid")
MACHINE = "DEALER_TRAINER_CONFIG"  # the machine-wide config file (trainer.config.ENV)
_FOLDER = pytest.StashKey[Path]()
_SAVED = pytest.StashKey[list]()  # (name, the value it had, or None)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Before any test module is collected, so before Qt reads the paths (QSettings keeps them)."""
    from trainer.config import own_place

    if own_place().exists():  # read whatever the environment says: its locks would hold here too
        raise pytest.UsageError(f"this computer has its own machine-wide settings file, {own_place()}, "
                                "which every run of the app reads: run the tests where there is none")
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-home-"))
    config.stash[_FOLDER], config.stash[_SAVED] = folder, []
    for name in VARIABLES:
        (folder / name.lower()).mkdir(mode=0o700)  # the runtime folder must be the user's alone
        config.stash[_SAVED].append((name, os.environ.get(name)))
        os.environ[name] = str(folder / name.lower())
    config.stash[_SAVED].append((MACHINE, os.environ.get(MACHINE)))
    os.environ[MACHINE] = str(folder / "machine" / "config.toml")  # none, until a test writes it
    if (english := speechd.english_only(folder / "espeak")) is not None:
        config.stash[_SAVED].append((speechd.DATA_PATH, os.environ.get(speechd.DATA_PATH)))
        os.environ[speechd.DATA_PATH] = str(english)


def folder(config: pytest.Config) -> Path:
    """The run's own home folder (this process's)."""
    return config.stash[_FOLDER]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(_FOLDER, None)
    if made is not None:
        end_speech_dispatcher(made / "xdg_runtime_dir")
    for name, value in config.stash.get(_SAVED, []):
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)


def end_speech_dispatcher(runtime: Path) -> None:
    """End the speech-dispatcher started in `runtime` (the run's XDG_RUNTIME_DIR), if one was: the
    app's engine threads first (one may be starting it), then the process its pid file names,
    where it is that speech-dispatcher still (SIGTERM, SIGKILL after 5 s)."""
    engine = sys.modules.get("ui.speech.engine")
    if engine is not None:
        engine.end()
    try:
        pid = int((runtime / SPEECHD_PID).read_text().split()[0])
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError, IndexError):
        return  # none was started, or it has ended
    if b"speech-dispatcher" not in command or str(runtime).encode() not in command:
        return  # the pid is another process's now
    os.kill(pid, signal.SIGTERM)
    for _ in range(50):
        if not Path(f"/proc/{pid}").exists() or _zombie(pid):
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True

