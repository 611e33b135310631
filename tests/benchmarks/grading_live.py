"""How long grading a practice round after every action takes: random rounds of every game,
worked right, graded after each action as the practice screen does, best of `--repeat`.

    .venv/bin/python tests/benchmarks/grading_live.py [--repeat 5] [--against DIR]

Two ways in the same run: the log graded whole after every action (`grade` on each prefix, as
a practice round did before) and as it grows (`LiveGrade`, what it does now). With `--against
DIR` (a checkout of another commit, e.g. `git worktree add /tmp/base HEAD~3`), that engine's
`grade` on each prefix is measured too, in turns with this one in fresh processes: the machines
are noisy, so compare within one run only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.benchmarks.practice_rounds import measured

HERE = Path(__file__).resolve().parents[2]

MEASURE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import trainer.grading as grading
from trainer.drills import random_round
from trainer.grading import correct_log, grade
from trainer.procedure import Automation, build
from trainer import games

cases = []
for g in sorted(games.GAME_IDS):
    for d in (1, 3, 5):
        for seed in range(6):
            s = random_round(g, d, f"bench-{seed}")
            proc = build(s)
            cases.append((s, proc, correct_log(proc, Automation.WHOLE_ROUND)))
out = {"actions": sum(len(log) for _, _, log in cases)}
t0 = time.process_time()
for s, proc, log in cases:
    for n in range(1, len(log) + 1):
        grade(proc, log[:n], automation=Automation.WHOLE_ROUND, game=s.game,
              target_seconds=s.target_seconds, final=False)
out["whole"] = time.process_time() - t0
if hasattr(grading, "LiveGrade"):
    t0 = time.process_time()
    for s, proc, log in cases:
        live = grading.LiveGrade(proc, automation=Automation.WHOLE_ROUND, game=s.game,
                                 target_seconds=s.target_seconds)
        for n in range(1, len(log) + 1):
            live.grade(log[:n])
    out["grown"] = time.process_time() - t0
print(json.dumps(out))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout to compare with")
    args = ap.parse_args()
    here, there = [], []
    for _ in range(args.repeat):
        here.append(measured(MEASURE, HERE))
        if args.against:
            there.append(measured(MEASURE, args.against.resolve()))
    best = {k: min(r[k] for r in here) for k in ("whole", "grown")}
    print(f"{here[0]['actions']} actions, CPU seconds, best of {args.repeat}")
    print(f"  graded whole after each action: {best['whole']:.3f}")
    print(f"  graded as it grows (LiveGrade): {best['grown']:.3f}  "
          f"({best['grown'] / best['whole']:.0%} of the whole)")
    if there:
        other = min(r["whole"] for r in there)
        print(f"  {args.against}, graded whole after each action: {other:.3f}  "
              f"(this one as it grows: {best['grown'] / other:.0%} of it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
