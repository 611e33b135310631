"""A supervised round: a scenario's (or a dealt round's) correct dealer, with faults put in.

The correct dealer's log is every step of the whole round in the procedure's order
(trainer.grading.correct_log), one action every `pace` seconds. Faults go in at steps: those a
scenario scripts ([[fault]]) and `count` more chosen from the seed. The choice is a
`random.Random` seeded with a text, which gives the same numbers on every machine and Python, so
the same id (`round_id`) deals the same round with the same faults anywhere (`again`). No two
faults touch the same step or the same wager, so each shows as itself; a round may have none.

The grader judges the faulty log (`SupervisedRound.graded`), and each fault's debrief is the
grader's own findings of it (`SupervisedRound.debrief`): what the dealer did, what the dealer
should have done, the section it breaks.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import NoReturn

from trainer.drills import UnknownRound, deal_again, random_round_built
from trainer.grading import Finding, Result, correct_log, grade
from trainer.procedure import build
from trainer.procedure.model import Automation, Do, Expected, Performed, Procedure
from trainer.scenario import Scenario, ScenarioError
from trainer.supervise.catalogue import CATALOGUE, FaultType, Round, Site, of_game, target

WHOLE = Automation.WHOLE_ROUND
#: seconds between the dealer's actions, unless the round is dealt at another pace
PACE = 2.0
#: how many faults a round gets when neither the scenario nor the caller says
DEFAULT_FAULTS = 3
#: the most faults a round is asked for (a round has far fewer steps to put them in)
MOST_FAULTS = 50
ID_PREFIX = "supervise-v1"


class SuperviseError(ValueError):
    """A supervised round that cannot be dealt as asked; the message says why, on one line."""


@dataclass(frozen=True)
class Fault:
    """One fault in a supervised round."""

    type: FaultType
    step: str  # the step's id in the answer key ([[fault]] step)
    target: str  # what the supervisor points at (trainer.supervise.catalogue.target)
    throw: int
    expected: Expected | None  # the correct step it changes; None where it adds an action
    done: tuple[Performed, ...]  # what the dealer did instead, in the round's log (none: left out)
    at: float  # seconds into the round: when the supervisor can first see it
    index: int  # where in the round's log it shows (the action it is, or comes instead of)
    cents: int  # the money it moves wrongly, to or from the player (0 for a call or record)
    scripted: bool = False

    def concerns(self, f: Finding) -> bool:
        """Whether a finding of the grader is this fault's."""
        return (any(f.actual is p for p in self.done)
                or (self.expected is not None and f.expected is self.expected))

    def to_json(self) -> dict:
        return {"kind": self.type.id, "class": self.type.fault_class.value, "words": self.type.words,
                "section": self.type.section, "severity": self.type.severity.value,
                "step": self.step, "target": self.target, "throw": self.throw, "at": self.at,
                "cents": self.cents, "scripted": self.scripted,
                "done": [p.to_json() for p in self.done],
                "should": self.expected.label if self.expected is not None else None}


@dataclass
class SupervisedRound:
    id: str
    scenario: Scenario
    procedure: Procedure
    correct: list[Performed]  # the correct dealer's log
    log: list[Performed]  # the dealer the supervisor watches, faults and all, timed
    faults: list[Fault]
    pace: float

    def graded(self) -> Result:
        """The grader's judgement of the faulty log."""
        return grade(self.procedure, self.log, automation=WHOLE, game=self.scenario.game,
                     target_seconds=self.scenario.target_seconds)

    def debrief(self) -> list[tuple[Fault, list[Finding]]]:
        """Each fault with the grader's findings of it, in the order they happened."""
        found = self.graded().findings
        return [(f, [x for x in found if f.concerns(x)]) for f in self.faults]


def round_id(scenario_id: str, count: int, seed: int | str) -> str:
    return f"{ID_PREFIX}:{scenario_id}:{count}:{seed}"


def setting(scenario: Scenario, procedure: Procedure | None = None) -> Round:
    """What the ops look at: the scenario, its procedure (built here unless the caller has it)
    and its correct dealer."""
    proc = procedure if procedure is not None else build(scenario)
    steps = [e for _, e in proc.for_trainee(WHOLE).actions()]
    return Round(scenario, proc, steps, correct_log(proc, WHOLE, 0.0))


def supervise(scenario: Scenario, count: int | None = None, seed: int | str = 0,
              pace: float = PACE, *, procedure: Procedure | None = None) -> SupervisedRound:
    """The round with its scripted faults and `count` more from the seed (by default none when
    the scenario scripts some, DEFAULT_FAULTS when it does not). ScenarioError for a [[fault]]
    that cannot be; SuperviseError when the round has no room for the faults asked.
    `procedure`: the scenario's own, when the caller has it (it is not built again)."""
    if count is None:
        count = 0 if scenario.faults else DEFAULT_FAULTS
    if not 0 <= count <= MOST_FAULTS:
        raise SuperviseError(f"--faults {count}: a round takes 0 to {MOST_FAULTS} faults")
    if not (pace > 0 and math.isfinite(pace)):
        raise SuperviseError(f"a pace of {pace} seconds: the dealer needs a positive pace")
    rnd = setting(scenario, procedure)
    chosen = scripted(rnd)
    used = _Used(rnd)
    for _, site in chosen:
        used.take(site)
    rng = random.Random(f"{ID_PREFIX}:{scenario.id}:{count}:{seed}")
    # where each type can go in this round, found once: only what the chosen faults take changes
    places = [(t, t.sites(rnd)) for t in of_game(scenario.game)] if count else []
    for n in range(count):
        open_ = [(t, [s for s in sites if used.free(s)]) for t, sites in places]
        open_ = [(t, sites) for t, sites in open_ if sites]
        if not open_:
            beside = " beside its scripted ones" if scenario.faults else ""
            raise SuperviseError(f"{scenario.id} has room for only {n} fault{'s' if n != 1 else ''}"
                                 f"{beside}, not {count}")
        kind, sites = rng.choice(open_)
        site = rng.choice(sites)
        used.take(site)
        chosen.append((kind, site))
    return inject(rnd, chosen, round_id(scenario.id, count, seed), pace,
                  scripted=len(scenario.faults))


def dealt(game: str, difficulty: int, seed: int | str, count: int | None = None,
          pace: float = PACE) -> SupervisedRound:
    """A dealt round (trainer.drills) with `count` faults; the same seed, the same round."""
    scenario, procedure = random_round_built(game, difficulty, seed)
    return supervise(scenario, count, seed, pace, procedure=procedure)


def again(rid: str, find=None, pace: float = PACE) -> SupervisedRound:
    """The round an id names, dealt again: "supervise-v1:<scenario or dealt round id>:<faults>:
    <seed>", its dealer at `pace`. `find` turns a scenario's id into the scenario (the bundled
    library by default)."""
    prefix, _, rest = rid.partition(":")
    scenario_id, _, rest = rest.partition(":")
    count, _, seed = rest.partition(":")
    if prefix != ID_PREFIX or not scenario_id or not count.isdigit() or not seed:
        raise SuperviseError(f"{rid}: not the id of a supervised round ({ID_PREFIX}:SCENARIO:"
                             "FAULTS:SEED)")
    if scenario_id.startswith(("drill-", "payout-drill-")):
        try:
            scenario = deal_again(scenario_id)
        except UnknownRound as e:
            raise SuperviseError(str(e)) from None
    else:
        if find is None:
            from trainer.library import load_library
            find = load_library().by_id
        scenario = find(scenario_id)
        if scenario is None:
            raise SuperviseError(f"{rid}: no bundled scenario has the id {scenario_id!r}")
    return supervise(scenario, int(count), seed, pace)


def scripted(rnd: Round) -> list[tuple[FaultType, Site]]:
    """The scenario's [[fault]] entries, each checked against the round: ScenarioError at its
    line for an unknown kind, another game's kind, a step the round has not, a step the kind
    cannot go in, or a step another fault has taken."""
    s = rnd.scenario
    out: list[tuple[FaultType, Site]] = []
    used = _Used(rnd)

    def fail(where: str, message: str) -> NoReturn:
        raise ScenarioError(s.path or s.id, s.line_of(where), message)

    for f in s.faults:
        kind = CATALOGUE.get(f.kind)
        if kind is None:
            mine = [t.id for t in of_game(s.game)]
            import difflib
            close = difflib.get_close_matches(f.kind, mine, n=1)
            fail(f"{f.where}.kind", f"unknown fault kind \"{f.kind}\""
                 + (f" — did you mean \"{close[0]}\"?" if close else
                    f"; {s.game} has {', '.join(mine[:4])} …"))
        if kind.game != s.game:
            fail(f"{f.where}.kind", f"\"{f.kind}\" is a fault of {kind.game}, not of {s.game}")
        sites = kind.sites(rnd)
        if not any(e.id == f.step for e in rnd.steps) and not any(
                site.id(rnd) == f.step for site in sites):
            fail(f"{f.where}.step", f"no step \"{f.step}\" in this round (the step ids are the "
                                    "answer key's: dealer-trainer key SCENARIO --json)")
        site = next((x for x in sites if x.id(rnd) == f.step), None)
        if site is None:
            places = [x.id(rnd) for x in sites]
            fail(f"{f.where}.step", f"\"{f.kind}\" cannot go in step \"{f.step}\"; "
                 + (f"in this round it goes in {', '.join(places[:3])}{' …' if len(places) > 3 else ''}"
                    if places else "this round has no step it can go in"))
        if not used.free(site):
            fail(f"{f.where}.step", f"step \"{f.step}\" already has a fault, or shares its wager "
                                    "with one")
        used.take(site)
        out.append((kind, site))
    return out


class _Used:
    """The steps and wagers the faults chosen so far touch."""

    def __init__(self, rnd: Round):
        self.rnd = rnd
        self.steps: set[int] = set()
        self.wagers: set[tuple] = set()

    def _wagers(self, site: Site) -> set[tuple]:
        out: set[tuple] = set()
        for i in site.touches():
            e = self.rnd.steps[i]
            if e.seat is not None and e.bet is not None:
                out.add((e.seat, e.bet))
        if site.added is not None:
            out.add((site.added.seat, site.added.bet))
        return out

    def free(self, site: Site) -> bool:
        return not (site.touches() & self.steps) and not (self._wagers(site) & self.wagers)

    def take(self, site: Site) -> None:
        self.steps |= site.touches()
        self.wagers |= self._wagers(site)


def inject(rnd: Round, chosen: list[tuple[FaultType, Site]], rid: str, pace: float,
           scripted: int = 0) -> SupervisedRound:
    """The correct log with each chosen fault made in it, timed at `pace`."""
    log = list(rnd.log)
    made = []
    for kind, site in chosen:
        log, done = kind.op.apply(rnd, log, site)
        made.append((kind, site, done))
    timed = [replace(p, at=n * pace) for n, p in enumerate(log)]
    new = {id(old): p for old, p in zip(log, timed, strict=True)}
    faults = []
    for n, (kind, site, done) in enumerate(made):
        if done:
            where = min(next(i for i, q in enumerate(log) if q is p) for p in done)
        else:  # left out: seen when the next step that is still done comes instead
            where = next((i for j in range(site.step + 1, len(rnd.log)) for i, q in enumerate(log)
                          if q is rnd.log[j]), len(log))
        changed = rnd.steps[site.step] if site.added is None and kind.op.replaces else None
        faults.append(Fault(kind, site.id(rnd), target(site.added or rnd.steps[site.step]),
                            (site.added or rnd.steps[site.step]).throw, changed,
                            tuple(new[id(p)] for p in done), where * pace, where,
                            swing(rnd, changed, done), scripted=n < scripted))
    faults.sort(key=lambda f: f.at)
    return SupervisedRound(rid, rnd.scenario, rnd.procedure, list(rnd.log), timed, faults, pace)


def swing(rnd: Round, step: Expected | None, done: tuple[Performed, ...]) -> int:
    """The money a fault moves wrongly, in cents: what the player gets from the dealer's actions
    (a payment given, a stake taken) against what the correct step gives."""
    def stake(throw: int, seat, bet) -> int:
        view = rnd.procedure.throws[throw - 1] if 1 <= throw <= len(rnd.procedure.throws) else None
        return next((w.amount for w in (view.layout if view else ()) if (w.seat, w.bet) == (seat, bet)), 0)

    def worth(do: Do, throw: int, seat, bet, amount) -> int:
        if do is Do.PAY:
            return amount or 0
        if do is Do.COLLECT:
            return -stake(throw, seat, bet)
        return 0

    right = worth(step.do, step.throw, step.seat, step.bet, step.amount) if step is not None else 0
    wrong = sum(worth(p.do, p.throw, p.seat, p.bet, p.amount) for p in done)
    return abs(wrong - right)
