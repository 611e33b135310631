"""Benchmark: the table redrawn after every action of whole rounds, incrementally (what the app
does: only the groups and wager stacks that changed) against a full redraw of every dynamic item
(the baseline, measured in the same run on the same states).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/table_redraw.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def states(game: str, rounds: int) -> list:
    """The table state after every action of random rounds played right."""
    from trainer.drills import random_round
    from trainer.practice import PracticeRound

    out = []
    for k in range(rounds):
        r = PracticeRound(random_round(game, 1 + k % 5, seed=f"bench-{k}"))
        while True:
            out.append(r.table_state())
            if r.finished:
                break
            e = r.next_expected()
            r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    from ui.qt import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from trainer import games
    from ui.table import table_view

    for game in games.GAME_IDS:
        seq = states(game, args.rounds)
        view = table_view(game)
        view.resize(1280, 800)
        timings = {}
        for name, full in (("full", True), ("incremental", False), ("full ", True)):
            t0 = time.perf_counter()
            for s in seq:
                if full:
                    view._clear_dynamic()
                view.set_state(s)
            timings[name.strip()] = min(timings.get(name.strip(), 1e9), time.perf_counter() - t0)
        view.close()
        per = {k: v / len(seq) * 1000 for k, v in timings.items()}
        ratio = timings["full"] / timings["incremental"]
        print(f"{game:20} {len(seq):5} states: full {per['full']:.2f} ms, incremental "
              f"{per['incremental']:.2f} ms per action = {ratio:.1f}x faster")
    app.processEvents()


if __name__ == "__main__":
    main()
