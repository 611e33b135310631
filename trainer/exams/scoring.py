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


def as_the_class_holds(store, result) -> tuple[object, str | None]:
    """An ended result sat online in a class as the class server holds it, which is what is
    certified (trainer.exams.classledger, "The time limit"): an answer whose step the server
    recorded late, or refused, counts as not answered, and an end recorded late makes a finished
    exam a time-out; the score and verdict are reckoned again so. (the result, the words saying
    what the server's record changed), or (the result as it is, None) when it changed nothing
    (a result sat in no class, or every step recorded in time). The server's replies are the ones
    the workstation kept with each step it sent (the file's `exam_stream`)."""
    import dataclasses

    rows = store.query("SELECT s.ending, s.reply, a.position FROM exam_stream s LEFT JOIN exam_answers a "
                       "ON a.id = s.answer_id WHERE s.result_id = ? AND s.reply IS NOT NULL ORDER BY s.step",
                       (result.id,))
    held_back = {r["position"]: r["reply"] for r in rows
                 if r["ending"] is None and r["reply"] != "recorded"}
    end_late = any(r["ending"] is not None and str(r["reply"]).startswith("recorded late") for r in rows)
    if (not held_back and not end_late) or not result.over:
        return result, None
    answers = tuple(a for a in result.answers if a.position not in held_back)
    ending = {Status.ABANDONED: Ending.LEFT, Status.TIMED_OUT: Ending.TIME_UP}.get(result.status,
                                                                                 Ending.FINISHED)
    if end_late and ending is Ending.FINISHED:
        ending = Ending.TIME_UP
    score = exam_score(answers, result.item_count, result.pass_mark)
    status, passed = verdict(ending, score)
    said = [f"item {p + 1}: {why}" for p, why in sorted(held_back.items(), key=lambda kv: kv[0] or 0)]
    if end_late:
        said.append("its end reached the class server after the time limit: it timed out")
    held = dataclasses.replace(result, answers=answers, status=status, passed=passed, critical=score.critical,
                               procedure=score.procedure, payouts=score.payouts, speed=score.speed,
                               total=score.total)
    return held, ("As the class server holds it, which is what is certified: " + "; ".join(said))
