"""A supervised round played back as the supervisor watches it: the dealer's actions one at a time,
each with the table as it stands after it, and what a supervisor may point at and say.

The table is made by the practice round (trainer.practice.PracticeRound, every step the
dealer's): each action of the faulty log is done to it in turn, as a replay does a trainee's, so a
short pay shows the chips paid, a winner collected shows collected, a pointer on the wrong box
shows there. After the last action comes one more frame, the round over: a step left out at the
end is seen there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from trainer.practice import PracticeRound
from trainer.procedure.model import Performed, describe
from trainer.supervise.catalogue import POINTED, FaultType, of_game, target_words
from trainer.supervise.rounds import (
    PACE,
    WHOLE,
    SupervisedRound,
    SuperviseError,
    dealt,
    supervise,
)
from trainer.supervise.scoring import WINDOW
from trainer.table_state import TableState

#: the faults a round is dealt with, at each difficulty: (fewest, most), chosen by the seed; from
#: difficulty 3 a round may have none at all
FAULTS = {1: (1, 2), 2: (1, 3), 3: (0, 3), 4: (0, 4), 5: (0, 5)}
#: the difficulties at which the supervisor may step through the round (Next) instead of
#: watching it at a pace
STEPPED_UP_TO = 2
WAGER = "wager"
#: the rounds a drill of one fault class chooses among (`drill`)
DRILL_TRIES = 24
#: what a supervisor points at besides a wager, in the order a screen lists them
RECORDS = tuple(dict.fromkeys(POINTED.values()))
#: each target but a wager, in the supervisor's words
TARGET_WORDS = {
    "call": "The dealer's call", "pointer": "The pointer", "lammers": "The lammers",
    "markers": "The Yard Marker and pucks", "throw box": "The dice in the throw box",
    "dice": "The dice", "extra roll": "The extra roll", "shaker": "The shaker",
}


@dataclass(frozen=True)
class Frame:
    """One moment of the round: after the dealer's action `index` (the log's), or, at
    len(log), the round over."""

    index: int
    at: float  # seconds into the round
    action: Performed | None  # None: the round is over
    text: str  # the action in words ("Pay seat 2 Six the Hardway (3-3) $150.00")
    throw: int
    table: TableState


def faults_for(difficulty: int, seed: int | str) -> int:
    """How many faults a dealt round has at a difficulty (FAULTS), from the seed."""
    low, high = FAULTS[min(max(difficulty, 1), 5)]
    return random.Random(f"supervise-faults:{difficulty}:{seed}").randint(low, high)


def deal(game: str, difficulty: int, seed: int | str, scenario=None,
         pace: float = PACE) -> SupervisedRound:
    """A round to supervise: the bundled `scenario` (its [[fault]] entries, or faults from the
    seed when it has none) or a round dealt at `difficulty`, with faults_for(difficulty, seed)
    faults, fewer where the round has no room for them."""
    count = None if scenario is not None and scenario.faults else faults_for(difficulty, seed)
    while True:
        try:
            if scenario is not None:
                return supervise(scenario, count, seed, pace)
            return dealt(game, difficulty, seed, count, pace)
        except SuperviseError:
            if not count:
                raise
            count -= 1


def drill(game: str, difficulty: int, seed: int, fault_class: str,
          pace: float = PACE) -> SupervisedRound:
    """A dealt round to drill one fault class: of the rounds the seeds seed … seed + DRILL_TRIES
    - 1 deal, the first with the most faults of that class. Its id deals it again."""
    best, most = None, -1
    for n in range(DRILL_TRIES):
        rnd = deal(game, difficulty, seed + n, pace=pace)
        mine = sum(f.type.fault_class.value == fault_class for f in rnd.faults)
        if mine > most:
            best, most = rnd, mine
    assert best is not None
    return best


def frames(rnd: SupervisedRound) -> list[Frame]:
    """The round as it is watched: one frame after each of the dealer's actions, and the last
    with the round over."""
    clock = [0.0]
    practice = PracticeRound(rnd.scenario, WHOLE, clock=lambda: clock[0], procedure=rnd.procedure)
    table = practice.table_state()
    out: list[Frame] = []
    for n, p in enumerate(rnd.log):
        clock[0] = p.at
        try:
            while p.throw > practice.throw and not practice.finished:
                practice.skip_throw()  # a step left out: the table moves on with the dealer
            if not practice.finished:
                practice.perform(p.do, seat=p.seat, bet=p.bet, amount=p.amount, value=p.value)
                table = practice.table_state()
        except (ValueError, KeyError, RuntimeError):
            pass  # an action the table cannot show: it stays as it was
        out.append(Frame(n, p.at, p, describe(p.do, p.seat, p.bet, p.amount, p.value), p.throw,
                         table))
    end = len(rnd.log) * rnd.pace
    out.append(Frame(len(rnd.log), end, None, "The dealer has finished the round",
                     rnd.log[-1].throw if rnd.log else 0, table))
    return out


def kinds_of(t: FaultType) -> frozenset[str]:
    """What a supervisor points at to flag a fault of this type: a wager, or a call or record."""
    return frozenset(POINTED.get(do, WAGER) for do in t.op.dos) or frozenset({WAGER})


def kind_of(target: str) -> str:
    return WAGER if target.startswith("seat ") else target


def targets(rnd: SupervisedRound, frame: Frame, shown: Sequence[Frame] = ()) -> list[tuple[str, str]]:
    """What the supervisor may point at in this frame, each with its words: the wagers on the
    table (or dealt with this throw) and those the frames `shown` before it (in order, ending
    with it) had up to WINDOW seconds ago, then the calls and records of the game. A wager paid
    or collected and taken down stays listed while a flag on it can still catch a fault (the
    scoring gives WINDOW seconds; the seventh cold review, #141: it left the list at the next
    throw)."""
    keys = {(w.seat, w.bet) for w in frame.table.wagers} | set(frame.table.marks)
    for before, after in pairwise(shown):
        if frame.at - after.at <= WINDOW:  # `before` was on the screen until `after` came
            keys |= {(w.seat, w.bet) for w in before.table.wagers} | set(before.table.marks)
    wagers = [f"seat {s} {b}" for s, b in sorted(keys)]
    kinds = set().union(*(kinds_of(t) for t in of_game(rnd.scenario.game)))
    return [(t, words_of(t)) for t in (*wagers, *(k for k in RECORDS if k in kinds))]


def words_of(target: str) -> str:
    """A target in the supervisor's words: a wager by the name its layout prints."""
    return target_words(target) if kind_of(target) == WAGER else TARGET_WORDS.get(target, target)


def choices(rnd: SupervisedRound, target: str) -> list[FaultType]:
    """The faults a supervisor may name at a target, in the catalogue's words and order: those of
    the round's game that show there."""
    kind = kind_of(target)
    return [t for t in of_game(rnd.scenario.game) if kind in kinds_of(t)]


def flag_time(frame: Frame, since: float, pace: float) -> float:
    """When a flag is raised, in seconds into the round: the frame's time and the time it has
    been shown, at most until the next action (`since`: seconds since it was shown; 0 when the
    round is stepped through)."""
    return frame.at + min(max(since, 0.0), pace * 0.999)


def should(fault) -> str:
    """What the dealer should have done, in words."""
    if fault.expected is not None:
        return f"{fault.expected.label} ({fault.type.should})"
    return fault.type.should[:1].upper() + fault.type.should[1:]


def done_words(fault) -> str:
    """What the dealer did instead, in words."""
    if not fault.done:
        return "Nothing: the step was left out"
    return "; ".join(describe(p.do, p.seat, p.bet, p.amount, p.value) for p in fault.done)


def sections_of(fault, findings) -> str:
    """The sections the fault breaks: the grader's findings', or the catalogue's."""
    return "; ".join(dict.fromkeys(f.cite for f in findings if f.cite)) or fault.type.section

