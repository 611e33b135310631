"""An exam's score and verdict, from the answers given, under the pass rule of
trainer.policy.

- Each part (procedure, payouts, speed, total) is the mean over *all* the form's items, an item
  not answered counting 0; the means are rounded down, so that the total shown is at or above the
  pass mark exactly when the exact mean is (the pass mark being whole): a total that reads 80
  never fails an 80 pass mark, and 79.75 never reads 80.
- Passed (the grading policy's one rule, trainer.policy): every item passed by the rule a round
  passes by (no critical and no major finding, its total at the round's pass mark), and the
  exam's total at or above the form's pass mark. An item with a missed call, a winner unpaid or
  an item not answered fails the exam whatever the total, as it would fail a dealer at the table.
- How it ended gives the status: finished (every item answered, or handed in) → "passed" or
  "failed"; time ran out → "timed-out", judged by the same rule on what was answered; left, closed
  or crashed → "abandoned", never passed (the exam was not sat to the end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from trainer.exams.records import Status
from trainer.policy import RULE, exam_passes

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
    rule: int = RULE  # the pass rule it was scored under (trainer.policy)


def exam_score(answers: Iterable, item_count: int, pass_mark: int) -> ExamScore:
    """`answers`: objects or dicts with the four parts, `critical` and `passed` (each item's
    verdict by the rule it was graded under: graded now, the rule in force)."""
    get = lambda a, k: a[k] if isinstance(a, dict) or hasattr(a, "keys") else getattr(a, k)  # noqa: E731
    answers = list(answers)
    sums = {p: sum(get(a, p) for a in answers) for p in PARTS}
    critical = any(bool(get(a, "critical")) for a in answers)
    means = {p: sums[p] // item_count for p in PARTS}
    passed = exam_passes((bool(get(a, "passed")) for a in answers), item_count, means["total"],
                         pass_mark)
    return ExamScore(**means, critical=critical, passed=passed)


def verdict(ending: Ending, score: ExamScore) -> tuple[Status, bool]:
    """(status, passed) for an attempt that ended so."""
    if ending is Ending.LEFT:
        return Status.ABANDONED, False
    if ending is Ending.TIME_UP:
        return Status.TIMED_OUT, score.passed
    return (Status.PASSED if score.passed else Status.FAILED), score.passed
