"""The tests that need a laptop's screen (1366×768) and a projector's (1920×1080) beside it, run in
a Qt of their own whose offscreen platform has both (`QT_QPA_PLATFORM=offscreen:configfile=…`,
tests/support/two_screens.py): the app laid out on each screen (tests/test_screen_sizes.py) and
the table presented on the projector (tests/test_presentation.py). The run's own Qt has the
offscreen platform's one small screen, where those tests skip, saying so. Both files run in one
program, which pays its start once."""

from __future__ import annotations

import pytest

from tests.support.two_screens import rerun_on_two_screens

GAMES = 4  # Props & Hops, Three Dice Football, High Roll Dice, Pai Gow Poker dice

#: each file's tests that need the two screens (pytest -k within the file; "" for all of them), and
#: the least number of cases that must pass. test_screen_sizes: on each screen, in both prints, the
#: payout keypads (a drill and an exam per game), large print per game, a choice and the Class tab;
#: test_presentation: its tests named two_screens
CHOSEN = {"test_screen_sizes.py": ("", 2 * 2 * (2 * GAMES + GAMES + 2)),
          "test_presentation.py": ("two_screens", 5)}


@pytest.mark.qt  # the app's widgets, in a pytest of its own
def test_on_a_laptop_and_a_projector(tmp_path):
    passed = rerun_on_two_screens({name: expression for name, (expression, _) in CHOSEN.items()}, tmp_path)
    for name, (_, cases) in CHOSEN.items():
        assert passed[name] >= cases, f"{name}: {passed[name]} passed, {cases} at least"
