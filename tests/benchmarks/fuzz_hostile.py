"""The full hostile-input fuzz: 5,000 hostile inputs for each of `settle`, `key`,
`grade`, `check` and every import (tests.support.fuzz), run in this process. Prints, for each,
the cases run, the failures (exit 70, a traceback, an uncaught exception, a message that names
nothing), how each case ended, and the time; exit status 1 when any case failed.

    PYTHONPATH=. python tests/benchmarks/fuzz_hostile.py                 # 5,000 of each
    PYTHONPATH=. python tests/benchmarks/fuzz_hostile.py --cases 500 --only settle grade
    PYTHONPATH=. python tests/benchmarks/fuzz_hostile.py --only key --case 1234   # one again

The default run has a few hundred of each (tests/test_hostile_input.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.fuzz import TARGETS, fuzz


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=5000, help="hostile inputs for each (5,000)")
    p.add_argument("--seed", type=int, default=29)
    p.add_argument("--only", nargs="+", choices=sorted(TARGETS), help="these targets only")
    p.add_argument("--case", type=int, help="run only this case number (to see one failure again)")
    p.add_argument("--show", type=int, default=5, help="failures shown for each target")
    args = p.parse_args(argv)
    failed = 0
    start = time.perf_counter()
    for name in args.only or TARGETS:
        cases = args.cases if args.case is None else args.case + 1
        report = fuzz(TARGETS[name](), cases, args.seed, only=args.case)
        print(report.explain(args.show), flush=True)
        failed += len(report.failures)
    print(f"total: {failed} failures, {time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
