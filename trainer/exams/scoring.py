"""An exam's score and verdict, from the answers given (issue 6, "the pass rule").

- Each part (procedure, payouts, speed, total) is the mean over *all* the form's items, an item
  not answered counting 0; the means are rounded down, so that the total shown is at or above the
  pass mark exactly when the exact mean is (the pass mark being whole): a total that reads 80
  never fails an 80 pass mark, and 79.75 never reads 80.
- Passed: the total at or above the pass mark, and no critical finding in any answer. A critical
  error fails the exam whatever the score, as it would fail a dealer at the table.
- How it ended gives the status: finished (every item answered, or handed in) → "passed" or
  "failed"; time ran out → "timed-out", judged by the same rule on what was answered; left, closed
  or crashed → "abandoned", never passed (the exam was not sat to the end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from trainer.exams.records import Status

PARTS = ("procedure", "payouts", "speed", "total")


class Ending(StrEnum):
    FINISHED = "finished"
    TIME_UP = "time-up"
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class ExamScore:
    procedure: int
    payouts: int
    speed: int
    total: int
    critical: bool
    passed: bool


def exam_score(answers: Iterable, item_count: int, pass_mark: int) -> ExamScore:
    """`answers`: objects or dicts with the four parts and `critical`."""
    get = lambda a, k: a[k] if isinstance(a, dict) else getattr(a, k)  # noqa: E731
    answers = list(answers)
    sums = {p: sum(get(a, p) for a in answers) for p in PARTS}
    critical = any(bool(get(a, "critical")) for a in answers)
    means = {p: sums[p] // item_count for p in PARTS}
    return ExamScore(**means, critical=critical, passed=not critical and means["total"] >= pass_mark)


def verdict(ending: Ending, score: ExamScore) -> tuple[Status, bool]:
    """(status, passed) for an attempt that ended so."""
    if ending is Ending.LEFT:
        return Status.ABANDONED, False
    if ending is Ending.TIME_UP:
        return Status.TIMED_OUT, score.passed
    return (Status.PASSED if score.passed else Status.FAILED), score.passed
