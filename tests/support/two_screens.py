"""Test files rerun in one Qt of their own with a laptop's screen and a projector's beside it (the
offscreen platform's `configfile`): tests/test_screen_sizes.py and tests/test_presentation.py. Their
tests that need the two screens skip in the suite's own Qt, and tests/test_two_screens.py runs them
all in this one, in one program: each program pays Python's and pytest's start, the collection and
the app's imports (some 1 s of processor) before its first test."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

SCREENS = {"laptop": (1366, 768), "projector": (1920, 1080)}
SKIP = "needs the laptop and projector screens: tests/test_two_screens.py runs it"


def rerun_on_two_screens(chosen: dict[str, str], tmp_path: Path) -> dict[str, int]:
    """Run, in a Qt with SCREENS side by side, the tests of each file of tests/ in `chosen` that its
    expression (pytest -k, within that file; "" for all) chooses; how many passed in each file.
    An assertion fails when any failed or skipped."""
    config = tmp_path / "screens.json"
    x, screens = 0, []
    for name, (width, height) in SCREENS.items():
        screens.append({"name": name, "x": x, "y": 0, "width": width, "height": height,
                        "logicalDpi": 96, "dpr": 1})
        x += width
    config.write_text(json.dumps({"screens": screens}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    files = [f"tests/{name}" for name in chosen]
    selection = " or ".join(f"({Path(name).stem} and ({expression}))" if expression else Path(name).stem
                            for name, expression in chosen.items())
    # no test run on two screens uses Hypothesis, whose plugin imports it whole at the end of a run
    # (some 0.8 s of processor per rerun), anyio, or a class server, whose fixtures import psycopg
    # and the server's modules (with anyio's plugin, 0.15 s of the program's start; the run's
    # TMPDIR, which it inherits, spares tests/conftest.py the server's module too)
    done = subprocess.run([sys.executable, "-m", "pytest", *files, "-q", "-rp", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:anyio",
                           "-p", "no:tests.support.class_server_fixtures", "-k", selection],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    assert done.returncode == 0, done.stdout[-6000:]
    assert "skipped" not in summary, summary
    return {name: len(re.findall(rf"^PASSED tests/{re.escape(name)}::", done.stdout, re.MULTILINE))
            for name in chosen}
