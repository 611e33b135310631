"""How many of tests/test_table_plays.py's random rounds the table views need: each game's rounds
played as that test plays them, noting the round at which each step of ui/ (a line of a function
to the next, or to its return: coverage's branches) was first taken. A round after the last that
took a new step draws nothing the earlier ones did not.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/table_rounds_reach.py [GAME] [--rounds N]

Line tracing makes it some three times slower than the test itself."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

UI = str(ROOT / "ui")


def reach(game: str, rounds: int) -> dict[tuple[str, int, int], int]:
    """Each step of ui/ taken in `rounds` random rounds of `game`: the round it was first taken."""
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
    for k in range(rounds):
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


def main() -> None:
    from tests.test_table_plays import ROUNDS_PER_GAME
    from trainer import games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=games.GAME_IDS)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    for game in [args.game] if args.game else games.GAME_IDS:
        first = reach(game, args.rounds)
        last = max(first.values())
        print(f"{game}: {len(first)} steps of ui/ in {args.rounds} rounds, the last new one in round "
              f"{last + 1}; the test plays {ROUNDS_PER_GAME[game]}"
              + ("" if last < ROUNDS_PER_GAME[game] else ": TOO FEW"), flush=True)


if __name__ == "__main__":
    main()
