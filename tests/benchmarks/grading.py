"""How long grading a finished round takes: every bundled scenario, worked whole, graded from a
perfect log and from one with a winner left unpaid (the findings path), best of `--repeat`.

    .venv/bin/python tests/benchmarks/grading.py [--repeat 7] [--against DIR]

With `--against DIR` (a checkout of another commit, e.g. `git worktree add /tmp/base HEAD~5`),
the same measurement runs on that engine too, in turns with this one in fresh processes, and
the ratio is printed: the machines are noisy, so compare within one run only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

MEASURE = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from trainer.grading import correct_log, grade
from trainer.procedure import Automation, build
from trainer.scenario import load

files = sorted(Path(sys.argv[2]).glob("*/*.toml"))
cases = []
for f in files:
    s = load(f)
    proc = build(s)
    log = correct_log(proc, Automation.WHOLE_ROUND)
    pays = [i for i, p in enumerate(log) if p.do.value == "pay"]
    unpaid = log[:pays[0]] + log[pays[0] + 1:] if pays else log
    cases.append((s, proc, log, unpaid))
t0 = time.perf_counter()
for s, proc, log, unpaid in cases:
    for entries in (log, unpaid):
        grade(proc, entries, automation=Automation.WHOLE_ROUND, game=s.game,
              target_seconds=s.target_seconds, elapsed=0.0)
print(json.dumps({"seconds": time.perf_counter() - t0, "rounds": len(cases)}))
"""


def once(root: Path, scenarios: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(root), str(scenarios)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--against", type=Path, help="another checkout to compare with")
    args = ap.parse_args()
    scenarios = HERE / "scenarios"  # the same rounds for both engines
    here, there = [], []
    for _ in range(args.repeat):
        here.append(once(HERE, scenarios))
        if args.against:
            there.append(once(args.against, scenarios))
    n = here[0]["rounds"]
    now = statistics.median(r["seconds"] for r in here)
    print(f"this checkout: {n} rounds, 2 logs each: median {now * 1000:.1f} ms "
          f"({now / (2 * n) * 1e6:.0f} µs a log)")
    if there:
        then = statistics.median(r["seconds"] for r in there)
        print(f"{args.against}: median {then * 1000:.1f} ms; this checkout takes "
              f"{now / then:.2f}× its time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
