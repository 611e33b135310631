"""What `export-results --class` holds while it runs, for the tests that it holds a few attempts
and never the class (tests/test_handoff_streamed.py, tests/test_class_identity.py,
tests/test_class_claims_settled.py; on a large class, as a program of its own:
tests/benchmarks/export_memory.py).

The export reads each attempt's row, skills and findings, never its log
(trainer.classes.workstation.results), so the bulk of the classes these tests make is in their
findings: each attempt carries FINDINGS findings of about 4,000 characters each (the longest
message the class keeps), about 80 KB an attempt, in few objects, so that tracing each allocation
(tracemalloc) costs little. The export is run once before it is measured (`exported`), so that
what is measured is what it holds, not the modules it loads the first time it runs in a process."""

from __future__ import annotations

import json
import tracemalloc

from tests.support.command import run_here

#: findings an attempt of these classes carries
FINDINGS = 20
#: the characters of each finding's message: the class keeps 4,000 at most (s010)
MESSAGE = 4000


def findings() -> tuple[dict, ...]:
    """An attempt's findings, as the app records them (trainer.progress.records.finding_json)."""
    return tuple({"kind": "wrong amount", "severity": "major", "cite": "§ 577.6", "skill": "payouts",
                  "message": f"Paid $4 on round {k}: ".ljust(MESSAGE, "."), "expected": "$5",
                  "actual": {"do": "pay", "round": 1 + k, "at": 2.5, "amount": 400}}
                 for k in range(FINDINGS))


def pushed_findings() -> list[dict]:
    """`findings()` as a workstation pushes them (the progress file's columns,
    trainer.classes.workstation.queue)."""
    return [{"kind": f["kind"], "skill": f["skill"], "citation": f["cite"], "severity": f["severity"],
             "message": f["message"], "expected": f["expected"],
             "actual": json.dumps(f["actual"], separators=(",", ":"))} for f in findings()]


def peak(call) -> int:
    """The most memory Python held while `call` ran, above what it held before."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def exported(*args: str):
    """`dealer-trainer export-results ARGS` run in this process: its result (a CompletedProcess)
    and the most memory it held, measured on its second run (the first loads its modules)."""
    run_here("export-results", *args)
    done = []
    held = peak(lambda: done.append(run_here("export-results", *args)))
    return done[0], held
