"""The run's own home folders: what the app and Qt write under the user's configuration and data
folders (QFileDialog's QtProject.conf, QSettings in their default place, the default progress file,
the class password file) goes to folders of this process's own, which the programs the tests start
inherit. A developer's own settings stay untouched, and two pytest processes (xdist's workers, or
the runs of two checkouts) never write the same file. The machine-wide config file
(trainer.config) is one of the run's own too, which no test makes unless it means to; a computer
with its own (/etc/xdg/dealer-trainer/config.toml), which every run reads whatever the
environment says, runs no tests. Qt's machine-wide settings are the run's own too."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: the variables Qt's standard paths read on Linux (ConfigLocation, AppDataLocation and the like;
#: XDG_CONFIG_DIRS: Qt's machine-wide settings, ui.shell.config.older_settings)
VARIABLES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS")
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
        (folder / name.lower()).mkdir()
        config.stash[_SAVED].append((name, os.environ.get(name)))
        os.environ[name] = str(folder / name.lower())
    config.stash[_SAVED].append((MACHINE, os.environ.get(MACHINE)))
    os.environ[MACHINE] = str(folder / "machine" / "config.toml")  # none, until a test writes it


def folder(config: pytest.Config) -> Path:
    """The run's own home folder (this process's)."""
    return config.stash[_FOLDER]


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in config.stash.get(_SAVED, []):
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    made = config.stash.get(_FOLDER, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)

