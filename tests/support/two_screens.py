"""Test files rerun in one Qt of their own with a laptop's screen and a projector's beside it (the
offscreen platform's `configfile`): tests/test_screen_sizes.py and tests/test_presentation.py. Their
tests that need the two screens skip in the suite's own Qt, and tests/test_two_screens.py runs them
all in this one, in one program (tests.support.rerun)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.rerun import rerun

SCREENS = {"laptop": (1366, 768), "projector": (1920, 1080)}
SKIP = "needs the laptop and projector screens: tests/test_two_screens.py runs it"


def rerun_on_two_screens(chosen: dict[str, str], tmp_path: Path) -> dict[str, int]:
    """Run, in a Qt with SCREENS side by side, the tests of each file of tests/ in `chosen` that its
    expression (pytest -k, within that file; "" for all) chooses (tests.support.rerun); how many
    passed in each file."""
    config = tmp_path / "screens.json"
    x, screens = 0, []
    for name, (width, height) in SCREENS.items():
        screens.append({"name": name, "x": x, "y": 0, "width": width, "height": height,
                        "logicalDpi": 96, "dpr": 1})
        x += width
    config.write_text(json.dumps({"screens": screens}))
    return rerun(chosen, {"QT_QPA_PLATFORM": f"offscreen:configfile={config}"})
