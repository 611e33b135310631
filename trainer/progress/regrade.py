"""Re-grading a recorded attempt on this machine, from its log (what a results file's import
does): the file's scores, findings and skills are never taken as they are.

The round is dealt again from what the attempt names: a bundled scenario by its id, or a dealt
practice round or payout drill by its seed (trainer.drills.deal_again_built, with the procedure
its deal built). The log is read as any log from outside is (trainer.regrade.read_log), skipped
throws included, and graded by this machine's engine with the attempt's own duration. An
attempt whose round this machine cannot deal again (a scenario file it does not have) cannot be
re-graded: `regrade_attempt` says why.
"""

from __future__ import annotations

from functools import lru_cache

from trainer.drills import UnknownRound, deal_again_built, rebuild
from trainer.errors import RequestError
from trainer.grading import grade
from trainer.library import Library, load_library
from trainer.procedure import Automation, Procedure, build
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


def round_of(record: AttemptRecord) -> tuple[Scenario | None, Procedure | None]:
    """`scenario_of`, with its procedure: a dealt round's is the one its deal built, not built
    again; (None, None) if this machine cannot deal the round."""
    if record.seed is not None:
        try:
            return deal_again_built(str(record.seed))
        except UnknownRound:
            return None, None
    scenario = scenario_of(record)
    return scenario, None if scenario is None else build(scenario)


Rounds = dict[tuple, tuple[Scenario | None, Procedure | None]]


def regrade_attempt(record: AttemptRecord, rounds: Rounds | None = None) -> tuple[AttemptRecord | None, str]:
    """(the attempt with its scores, findings and skills as this machine grades its log, "") or
    (None, why it cannot be re-graded here). `rounds` keeps the rounds dealt again (and their
    procedures) for the attempts that follow: an import of a whole class deals each round once.
    Keep it to one thread: a procedure caches what it works out as it is graded."""
    key = (record.seed, record.mode, record.item_id)
    found = None if rounds is None else rounds.get(key)
    if found is None:
        found = round_of(record)
        if rounds is not None:
            rounds[key] = found
    scenario, procedure = found
    if scenario is None or procedure is None:
        what = f"the round {record.seed}" if record.seed is not None else f"the scenario {record.item_id!r}"
        return None, f"{what} cannot be dealt again on this machine"
    if scenario.game != record.game:
        return None, f"it names {record.game}, but its round is {scenario.game}"
    try:
        log, _ = read_log(list(record.log))
    except RequestError as e:
        return None, f"its log cannot be read ({e})"
    automation = Automation.PAYOUTS if record.mode is Mode.PAYOUT_DRILL else scenario.automation
    result = grade(procedure, log, automation=automation, game=scenario.game,
                   target_seconds=scenario.target_seconds, elapsed=record.duration)
    return record.regraded(result, skills_of(procedure, automation), float(scenario.target_seconds)), ""
