"""A test file rerun in a Qt of its own with a laptop's screen and a projector's beside it (the
offscreen platform's `configfile`), as tests/test_screen_sizes.py and tests/test_presentation.py
do: their tests that need the two screens skip in the suite's own Qt and run in this one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.support.paths import ROOT

SCREENS = {"laptop": (1366, 768), "projector": (1920, 1080)}
SKIP = "needs the laptop and projector screens: test_on_a_laptop_and_a_projector runs it"


def rerun_on_two_screens(test_file, tmp_path, selection: str) -> int:
    """Run the tests of `test_file` that `selection` (pytest -k) chooses in a Qt with SCREENS side
    by side; how many passed. An assertion fails when any failed or skipped."""
    config = tmp_path / "screens.json"
    x, screens = 0, []
    for name, (width, height) in SCREENS.items():
        screens.append({"name": name, "x": x, "y": 0, "width": width, "height": height,
                        "logicalDpi": 96, "dpr": 1})
        x += width
    config.write_text(json.dumps({"screens": screens}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    # no test run on two screens uses Hypothesis, whose plugin imports it whole at the end of a run
    # (some 0.8 s of processor per rerun)
    done = subprocess.run([sys.executable, "-m", "pytest", str(test_file), "-q", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-k", selection],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    assert done.returncode == 0, done.stdout[-6000:]
    assert "skipped" not in summary, summary
    return int(re.search(r"(\d+) passed", summary).group(1))
