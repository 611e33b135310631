"""Re-grading a recorded attempt on this machine, from its log (what a results file's import
does): the file's scores, findings and skills are never taken as they are.

The round is dealt again from what the attempt names: a bundled scenario by its id, or a dealt
practice round or payout drill by its seed (trainer.drills.rebuild). The log is read as any log
from outside is (trainer.regrade.read_log), skipped throws included, and graded by this
machine's engine with the attempt's own duration. An attempt whose round this machine cannot
deal again (a scenario file it does not have) cannot be re-graded: `regrade_attempt` says why.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from trainer.drills import rebuild
from trainer.errors import RequestError
from trainer.grading import grade
from trainer.library import Library, load_library
from trainer.procedure import Automation, build
from trainer.progress.records import AttemptRecord, Mode, skills_of
from trainer.regrade import read_log
from trainer.scenario import Scenario


@lru_cache(maxsize=1)
def _library() -> Library:
    return load_library()


def scenario_of(record: AttemptRecord) -> Scenario | None:
    """The round an attempt was played on, dealt again here; None if this machine cannot."""
    if record.seed is not None:
        return rebuild(str(record.seed))
    if record.mode is Mode.SCENARIO:
        return _library().by_id(record.item_id)
    return None


def regrade_attempt(record: AttemptRecord) -> tuple[AttemptRecord | None, str]:
    """(the attempt with its scores, findings and skills as this machine grades its log, "") or
    (None, why it cannot be re-graded here)."""
    scenario = scenario_of(record)
    if scenario is None:
        what = f"the round {record.seed}" if record.seed is not None else f"the scenario {record.item_id!r}"
        return None, f"{what} cannot be dealt again on this machine"
    if scenario.game != record.game:
        return None, f"it names {record.game}, but its round is {scenario.game}"
    try:
        log, _ = read_log(list(record.log))
    except RequestError as e:
        return None, f"its log cannot be read ({e})"
    automation = Automation.PAYOUTS if record.mode is Mode.PAYOUT_DRILL else scenario.automation
    procedure = build(scenario)
    result = grade(procedure, log, automation=automation, game=scenario.game,
                   target_seconds=scenario.target_seconds, elapsed=record.duration)
    s = result.score
    return dataclasses.replace(
        record, procedure=s.procedure, payouts=s.payouts, speed=s.speed, total=s.total,
        passed=s.passed, critical=s.critical, findings=tuple(f.to_json() for f in result.findings),
        rule=s.rule,
        skills=skills_of(procedure, automation), target=float(scenario.target_seconds)), ""
