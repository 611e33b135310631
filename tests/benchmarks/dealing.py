"""How long a trainee's Deal takes in the engine, per game and difficulty, and proof that a change
to dealing or building deals and builds exactly what it did.

    .venv/bin/python tests/benchmarks/dealing.py [--repeat 5] [--deals 200] [--page] [--against DIR]
    .venv/bin/python tests/benchmarks/dealing.py --digest [--against DIR]

The first measures `random_round_built` (what the practice screen's Deal calls: the round and
its procedure, built once) in milliseconds of CPU per deal, best of `--repeat`, for every game
at every difficulty; with `--page`, the Practice page's Deal itself (offscreen Qt: the deal,
the practice round started and the screen drawn; each game's table view made before timing).
`--digest` prints one digest per game of many seeded rounds (every
difficulty, every drilled skill, payout drills, by both dealers) and of the procedure of each:
every stage with every field of every expected action, what each stage waits for, and each
throw's view (offers, layout, result, the table before and after). With `--against DIR` (a
checkout of another commit, e.g. `git worktree add --detach /tmp/base main`) the same runs on
that engine too, in turns with this one, each in a fresh process with the same hash seed; the
digests must be equal and the times are compared within one run only (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

TIME = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from trainer import games
from trainer.drills import random_round_built

n = int(sys.argv[2])
random_round_built("props-and-hops", 1, 0)  # modules loaded, tables read: not a deal's work
out = {}
for game in sorted(games.GAME_IDS):
    for difficulty in range(1, 6):
        t0 = time.process_time()
        for seed in range(n):
            random_round_built(game, difficulty, f"bench-{seed}")
        out[f"{game} {difficulty}"] = (time.process_time() - t0) / n * 1000
print(json.dumps(out))
"""

PAGE = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from ui.qt import QApplication
from trainer import games
from ui.practice.page import PracticePage

app = QApplication.instance() or QApplication([])
page = PracticePage()
page.resize(1400, 900)
page.show()
n = int(sys.argv[2])
for game in sorted(games.GAME_IDS):  # each game's table view is made by its first deal
    page.game.setCurrentIndex(page.game.findData(game))
    page.deal(seed=0, confirm=False)
    app.processEvents()
out = {}
for game in sorted(games.GAME_IDS):
    for difficulty in range(1, 6):
        page.game.setCurrentIndex(page.game.findData(game))
        page.difficulty.setValue(difficulty)
        t0 = time.process_time()
        for seed in range(n):
            page.deal(seed=seed + 1, confirm=False)
            app.processEvents()
        out[f"{game} {difficulty}"] = (time.process_time() - t0) / n * 1000
page.screen.stop()
print(json.dumps(out))
"""

DIGEST = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from trainer import games
from trainer.drills import DEALERS, payout_drill, random_round, random_round_built
from trainer.procedure import build
from trainer.vocabulary import Skill

def text(s, proc):
    return repr((s.id, s.title, s.briefing, s.game, s.difficulty, s.skills, s.target_seconds,
                 s.automation, s.options, sorted(s.players.items()), s.shooter, s.wagers,
                 s.events, proc.stages, proc.after, proc.tail, proc.throws))

out = {}
for game in sorted(games.GAME_IDS):
    h = hashlib.sha256()
    for dealer in DEALERS:
        for difficulty in range(1, 6):
            for seed in range(60):
                s, proc = random_round_built(game, difficulty, f"proof-{seed}", None, dealer)
                h.update(text(s, proc).encode())
                if seed % 20 == 0:  # the dealt scenario alone builds the same procedure
                    again = random_round(game, difficulty, f"proof-{seed}", None, dealer)
                    h.update(text(again, build(again)).encode())
        for skill in Skill:
            for seed in range(3):
                s, proc = random_round_built(game, 3, seed, skill, dealer)
                h.update(text(s, proc).encode())
        for seed in range(8):
            s = payout_drill(game, seed, dealer)
            h.update(text(s, build(s)).encode())
    out[game] = h.hexdigest()
print(json.dumps(out))
"""


def measured(code: str, root: Path, *args: str) -> dict:
    """What `code` prints (JSON), run in a Python of its own on the checkout `root`."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", code, str(root), *args], capture_output=True,
                          text=True, check=True, env=env)
    return json.loads(done.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--deals", type=int, default=200, help="deals per game and difficulty")
    ap.add_argument("--against", type=Path, help="another checkout to compare with")
    ap.add_argument("--digest", action="store_true", help="digests of rounds and procedures")
    ap.add_argument("--page", action="store_true",
                    help="the Practice page's Deal, screen and all (Qt, offscreen)")
    args = ap.parse_args()
    roots = [HERE] + ([args.against.resolve()] if args.against else [])
    if args.digest:
        digests = {root: measured(DIGEST, root) for root in roots}
        for root, d in digests.items():
            print(root)
            for game, h in d.items():
                print(f"  {game:22} {h}")
        if args.against:
            same = digests[roots[0]] == digests[roots[1]]
            print("the same rounds and procedures" if same else "DIFFERENT rounds or procedures")
            return 0 if same else 1
        return 0
    runs: dict[Path, list[dict]] = {root: [] for root in roots}
    for _ in range(args.repeat):
        for root in roots:
            runs[root].append(measured(PAGE if args.page else TIME, root, str(args.deals)))
    best = {root: {k: min(r[k] for r in got) for k in got[0]} for root, got in runs.items()}
    what = "the Practice page's Deal" if args.page else "round and procedure"
    print(f"ms of CPU per deal ({what}), best of {args.repeat}, {args.deals} deals each")
    print(f"{'game':22} {'difficulty':>10} " + " ".join(f"{'root ' + str(i):>9}" for i in range(len(roots)))
          + ("  this/other" if args.against else ""))
    for i, root in enumerate(roots):
        print(f"  root {i}: {root}")
    for key in best[HERE]:
        game, difficulty = key.split()
        cells = [best[root][key] for root in roots]
        ratio = f"  {cells[0] / cells[1]:9.0%}" if args.against else ""
        print(f"{game:22} {difficulty:>10} " + " ".join(f"{c:9.3f}" for c in cells) + ratio)
    totals = [sum(best[root].values()) for root in roots]
    print(f"{'all (sum)':33} " + " ".join(f"{t:9.3f}" for t in totals)
          + (f"  {totals[0] / totals[1]:9.0%}" if args.against else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
