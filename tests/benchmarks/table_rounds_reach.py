"""Which of tests/test_table_plays.py's random rounds the table views need: each game's first N
rounds played as that test plays them, noting the round at which each step of ui/ (a line of a
function to the next, or to its return: coverage's branches) was first taken. A round that took no
new step draws nothing the rounds before it did not; the test plays the rounds that took one (and
the first ten), and this says whether those still take every step the N rounds take.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/table_rounds_reach.py [GAME] [--rounds N]

Line tracing makes it some three times slower than the test itself."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

UI = str(ROOT / "ui")


def reach(game: str, rounds: Iterable[int]) -> dict[tuple[str, int, int], int]:
    """Each step of ui/ taken in the random rounds of `game` numbered `rounds` (played in that
    order, as the test plays them): the round it was first taken."""
    from tests.test_table_plays import play_through
    from trainer.drills import random_round
    from ui.qt import QApplication
    from ui.table import table_view

    _app = QApplication.instance() or QApplication([])
    first: dict[tuple[str, int, int], int] = {}
    now = 0

    def trace(frame, event, arg):
        name = frame.f_code.co_filename
        if not name.startswith(UI):
            return None
        last = -frame.f_code.co_firstlineno  # the function's entry

        def step(frame, event, arg):
            nonlocal last
            to = frame.f_lineno if event == "line" else -frame.f_code.co_firstlineno
            if event in ("line", "return"):
                first.setdefault((name, last, to), now)
                last = to
            return step

        return step

    views = {}
    for k in rounds:
        now = k
        scenario = random_round(game, 1 + k % 5, seed=f"table-{k}")
        key = (scenario.game, repr(sorted(scenario.options.items())))
        if key not in views:
            views[key] = table_view(scenario.game, scenario.options)
            views[key].resize(1280, 800)
        sys.settrace(trace)
        try:
            play_through(views[key], scenario, paint_each=False)
        finally:
            sys.settrace(None)
    return first


def reach_apart(game: str, rounds: Iterable[int]) -> dict[tuple[str, int, int], int]:
    """`reach` in a process of its own: what a process does once (a cache filled, a font looked
    up) is a step its first round takes, and no round of a second `reach` in the same process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as apart:
        return apart.submit(reach, game, list(rounds)).result()


def main() -> None:
    from tests.test_table_plays import ROUNDS
    from trainer import games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=games.GAME_IDS)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    for game in [args.game] if args.game else games.GAME_IDS:
        first = reach_apart(game, range(args.rounds))
        new = sorted(set(first.values()))
        played = reach_apart(game, ROUNDS[game])
        missed = set(first) - set(played)
        print(f"{game}: {len(first)} steps of ui/ in {args.rounds} rounds, first taken in rounds {new}; "
              f"the test's {len(ROUNDS[game])} rounds take {len(first) - len(missed)} of them"
              + (f": TOO FEW, play {new}" if missed else ""), flush=True)


if __name__ == "__main__":
    main()
