"""How long dealing and working random rounds takes, without the screen: every game at every
difficulty dealt (`random_round`), then worked right through `PracticeRound`, asking for the
table's state after each action as the practice screen does; CPU seconds, best of `--repeat`.

    .venv/bin/python tests/benchmarks/practice_rounds.py [--repeat 5] [--against DIR]

With `--against DIR` (a checkout of another commit, e.g. `git worktree add /tmp/base HEAD~4`),
the same measurement runs on that engine too, in turns with this one in fresh processes: the
machines are noisy, so compare within one run only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

MEASURE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from trainer import games
from trainer.drills import random_round
from trainer.practice import PracticeRound

deals = [(g, d, f"bench-{seed}") for g in sorted(games.GAME_IDS) for d in range(1, 6)
         for seed in range(6)]
t0 = time.process_time()
rounds = [random_round(g, d, seed) for g, d, seed in deals]
dealt = time.process_time() - t0
t0 = time.process_time()
actions = 0
for s in rounds:
    r = PracticeRound(s)
    while not r.finished:
        e = r.next_expected()
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
        r.table_state()
        actions += 1
    r.finish()
print(json.dumps({"rounds": len(rounds), "actions": actions, "dealt": dealt,
                  "worked": time.process_time() - t0}))
"""


def measured(code: str, root: Path) -> dict:
    """What the measuring `code` prints (JSON), run in a Python of its own on the checkout `root`."""
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout to compare with")
    args = ap.parse_args()
    runs: dict[Path, list[dict]] = {HERE: []}
    if args.against:
        runs[args.against.resolve()] = []
    for _ in range(args.repeat):
        for root, got in runs.items():
            got.append(measured(MEASURE, root))
    first = runs[HERE][0]
    print(f"{first['rounds']} rounds, {first['actions']} actions; CPU seconds, best of {args.repeat}")
    best = {root: {k: min(r[k] for r in got) for k in ("dealt", "worked")} for root, got in runs.items()}
    for root, b in best.items():
        print(f"  {root}: dealt {b['dealt']:.3f}, worked {b['worked']:.3f}")
    if args.against:
        here, there = best[HERE], best[args.against.resolve()]
        print(f"  this one / the other: dealt {here['dealt'] / there['dealt']:.0%}, "
              f"worked {here['worked'] / there['worked']:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
