"""What the bundle's tests share: where the bundle `make bundle` built is, and a user's
environment to start it in."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.paths import ROOT

BUNDLE = ROOT / "dist" / "dealer-trainer"
APP = BUNDLE / "dealer-trainer-app"
CLI = BUNDLE / "dealer-trainer"


def clean_env(home: Path) -> dict[str, str]:
    """The environment a user's desktop gives: no PYTHONPATH, a home and data folders of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               QT_QPA_PLATFORM="offscreen")
    return env
