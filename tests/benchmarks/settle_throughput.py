"""Benchmark: `dealer-trainer settle --jsonl` on 10,000 mixed rounds, and `odds` over every game.

Run with `make bench`. Each figure comes with a baseline measured in the same run, on the same
input, so the ratio means something on a noisy machine:
  - settle: a Python process that only parses and re-serialises each JSON line;
  - odds: a Python process that starts and imports json.
Prints rounds per second and seconds, best of 3.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.rounds import mixed_rounds

ECHO = ("import json, sys\n"
        "for line in sys.stdin:\n"
        "    sys.stdout.write(json.dumps(json.loads(line)) + '\\n')\n")


def best_of(runs: int, cmd: list[str], stdin_path: Path | None = None) -> float:
    best = float("inf")
    for _ in range(runs):
        with open(stdin_path or "/dev/null", "rb") as f:
            t0 = time.perf_counter()
            done = subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            elapsed = time.perf_counter() - t0
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[:500]}")
        best = min(best, elapsed)
    return best


def main() -> None:
    exe = shutil.which("dealer-trainer", path=str(Path(sys.executable).parent)) or "dealer-trainer"
    n = 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in mixed_rounds(n)))
        settle = best_of(3, [exe, "settle", "--jsonl"], path)
        echo = best_of(3, [sys.executable, "-c", ECHO], path)
    odds = best_of(3, [exe, "odds", "--json"])
    bare = best_of(3, [sys.executable, "-c", "import json"])
    print(f"settle --jsonl: {n} rounds in {settle:.3f} s = {n / settle:,.0f} rounds/s; "
          f"JSON echo baseline {echo:.3f} s; ratio {settle / echo:.2f}x")
    print(f"odds (every game and paytable): {odds:.3f} s; bare Python start {bare:.3f} s; "
          f"ratio {odds / bare:.2f}x")


if __name__ == "__main__":
    main()
