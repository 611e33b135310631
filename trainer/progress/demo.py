"""A demonstration class: trainees with a month of practice and the mistakes real trainees make.
For screenshots, the README's pictures and tests of the Progress and Class screens; it only ever
writes to the store it is given.

`seed_demo` writes the month; `seed_session` adds the class at work now (a round each, finished in
the last minutes); `DemoClass` answers the live Class tab's questions to a class server
(trainer.classes.workstation.connection.ClassConnection's instructor calls) from a progress file."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from trainer import games
from trainer.drills import payout_drill_built, random_round_built
from trainer.games import GAME_IDS
from trainer.grading import Result, correct_log, grade
from trainer.procedure import Do, Performed, Procedure
from trainer.progress.records import AttemptRecord, Mode, drill_item_id, skills_of
from trainer.progress.store import Store
from trainer.scenario import Scenario

DAY = 86400.0
NAMES = ("Ana Ruiz", "Ben Cole", "Cara Diaz", "Dev Patel", "Eve Moss", "Finn Hale")


def flawed(log: list[Performed], rng: random.Random, slip: float) -> list[Performed]:
    """A trainee's log: the right one with a slip now and then (a missed step, a short payout,
    two steps swapped)."""
    out = list(log)
    dropped: set[int] = set()
    for i in range(len(out)):
        if rng.random() >= slip:
            continue
        p = out[i]
        kind = rng.choice(("drop", "short", "swap"))
        if kind == "short" and p.do is Do.PAY and p.amount:
            out[i] = Performed(p.do, p.throw, p.seat, p.bet, max(1, p.amount - rng.choice((25, 50, 100))),
                               p.value, p.at)
        elif kind == "swap" and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        elif kind == "drop":
            dropped.add(i)
    return [p for i, p in enumerate(out) if i not in dropped]

#: the games whose payout drill is one settled throw (a full game wager stands past its throw)
ONE_THROW_GAMES = tuple(g for g in GAME_IDS if games.get(g).stands_until is None)


@dataclass(frozen=True)
class Worked:
    """A round dealt and worked by a demonstration trainee, graded."""

    scenario: Scenario
    procedure: Procedure
    log: list[Performed]
    elapsed: float
    result: Result


def _grade(s: Scenario, log: list[Performed], elapsed: float, procedure: Procedure) -> Worked:
    return Worked(s, procedure, log, elapsed, grade(procedure, log, automation=s.automation, game=s.game,
                                                    target_seconds=s.target_seconds, elapsed=elapsed))


def _practice(rng: random.Random, key: str, slip: float) -> tuple[int, Worked]:
    """A practice round of a game and difficulty drawn by `rng`, dealt by `key`: (its difficulty,
    the round worked with slips)."""
    game = rng.choice(GAME_IDS)
    difficulty = rng.randint(1, 4)
    s, proc = random_round_built(game, difficulty, key)
    log = flawed(correct_log(proc, s.automation, seconds_each=rng.uniform(2.0, 6.0)), rng, slip)
    return difficulty, _grade(s, log, (log[-1].at if log else 10.0) + rng.uniform(3, 12), proc)


def _record(store: Store, trainee_id: int, w: Worked, *, mode: Mode, difficulty: int, started: float) -> None:
    s = w.scenario
    store.record_attempt(AttemptRecord.from_result(
        trainee_id=trainee_id, item_id=drill_item_id(s.game, difficulty), game=s.game, mode=mode,
        result=w.result, log=w.log, skills=skills_of(w.procedure, s.automation), started=started,
        ended=started + w.elapsed, target=s.target_seconds, seed=s.id))


def seed_demo(store: Store, *, trainees: tuple[str, ...] = NAMES, days: int = 30, seed: int = 1,
              now: float | None = None) -> dict[str, int]:
    """Add the trainees and their attempts; returns their ids by name."""
    rng = random.Random(seed)
    now = time.time() if now is None else now
    ids = {}
    for n, name in enumerate(trainees):
        tid = store.add_trainee(name)
        ids[name] = tid
        slip = 0.02 + 0.05 * n  # the later names struggle more
        for day in range(days):
            for k in range(rng.randint(0, 3)):
                difficulty, w = _practice(rng, f"{seed}:{name}:{day}:{k}", slip * (1 - day / (2 * days)))
                started = now - (days - day) * DAY + k * 900 + rng.uniform(0, 600)
                _record(store, tid, w, mode=Mode.PRACTICE, difficulty=difficulty, started=started)
            if day % 2 == 0:  # a payout drill every other day, getting quicker
                game = rng.choice(ONE_THROW_GAMES)
                s, proc = payout_drill_built(game, f"{seed}:{name}:{day}")
                pace = (1.6 - day / days) * (1 + n * 0.08)
                log = flawed(correct_log(proc, s.automation, seconds_each=6 * pace), rng, slip)
                w = _grade(s, log, s.target_seconds * pace * rng.uniform(0.85, 1.15), proc)
                _record(store, tid, w, mode=Mode.PAYOUT_DRILL, difficulty=4,
                        started=now - (days - day) * DAY + 4000)
    return ids


#: who is at work in the demonstration class now, and how many minutes ago each last round ended
SESSION = {"Cara Diaz": 0.5, "Ana Ruiz": 2.0, "Finn Hale": 4.5, "Dev Patel": 9.0}


def seed_session(store: Store, ids: dict[str, int], *, now: float | None = None, seed: int = 1,
                 ended: dict[str, float] = SESSION) -> None:
    """The class at work now: each trainee named in `ended` (of `ids`, as seed_demo gives them)
    finished one more practice round that many minutes before `now`."""
    rng = random.Random(f"{seed}:session")
    now = time.time() if now is None else now
    for name, minutes in ended.items():
        difficulty, w = _practice(rng, f"{seed}:{name}:session", 0.05)
        _record(store, ids[name], w, mode=Mode.PRACTICE, difficulty=difficulty,
                started=now - 60 * minutes - w.elapsed)
