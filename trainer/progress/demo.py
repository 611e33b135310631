"""A demonstration class: trainees with a month of practice and the mistakes real trainees make.
For screenshots, the README's pictures and tests of the Progress and Class screens; it only ever
writes to the store it is given."""

from __future__ import annotations

import random
import time

from trainer import games
from trainer.drills import payout_drill, random_round
from trainer.games import GAME_IDS
from trainer.grading import correct_log, grade
from trainer.procedure import Do, Performed, build
from trainer.progress.records import AttemptRecord, Mode, drill_item_id, skills_of
from trainer.progress.store import Store

DAY = 86400.0
NAMES = ("Ana Ruiz", "Ben Cole", "Cara Diaz", "Dev Patel", "Eve Moss", "Finn Hale")


def flawed(log: list[Performed], rng: random.Random, slip: float) -> list[Performed]:
    """A trainee's log: the right one with a slip now and then (a missed step, a short payout,
    two steps swapped)."""
    out = list(log)
    for i in range(len(out)):
        if rng.random() >= slip:
            continue
        p = out[i]
        kind = rng.choice(("drop", "short", "swap"))
        if kind == "short" and p.do is Do.PAY and p.amount:
            out[i] = Performed(p.do, p.round, p.seat, p.bet, max(1, p.amount - rng.choice((25, 50, 100))),
                               p.value, p.at)
        elif kind == "swap" and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        elif kind == "drop":
            out[i] = None
    return [p for p in out if p is not None]

#: the games whose payout drill is one settled throw (a full game wager stands past its throw)
ONE_THROW_GAMES = tuple(g for g in GAME_IDS if games.get(g).stands_until is None)


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
                game = rng.choice(GAME_IDS)
                difficulty = rng.randint(1, 4)
                s = random_round(game, difficulty, f"{seed}:{name}:{day}:{k}")
                proc = build(s)
                log = flawed(correct_log(proc, s.automation, seconds_each=rng.uniform(2.0, 6.0)),
                             rng, slip * (1 - day / (2 * days)))
                elapsed = (log[-1].at if log else 10.0) + rng.uniform(3, 12)
                result = grade(proc, log, automation=s.automation, game=game,
                               target_seconds=s.target_seconds, elapsed=elapsed)
                started = now - (days - day) * DAY + k * 900 + rng.uniform(0, 600)
                store.record_attempt(AttemptRecord.from_result(
                    trainee_id=tid, item_id=drill_item_id(game, difficulty), game=game,
                    mode=Mode.PRACTICE, result=result, log=log, skills=skills_of(proc, s.automation),
                    started=started, ended=started + elapsed, target=s.target_seconds, seed=s.id))
            if day % 2 == 0:  # a payout drill every other day, getting quicker
                game = rng.choice(ONE_THROW_GAMES)
                s = payout_drill(game, f"{seed}:{name}:{day}")
                proc = build(s)
                pace = (1.6 - day / days) * (1 + n * 0.08)
                log = flawed(correct_log(proc, s.automation, seconds_each=6 * pace), rng, slip)
                elapsed = s.target_seconds * pace * rng.uniform(0.85, 1.15)
                result = grade(proc, log, automation=s.automation, game=game,
                               target_seconds=s.target_seconds, elapsed=elapsed)
                started = now - (days - day) * DAY + 4000
                store.record_attempt(AttemptRecord.from_result(
                    trainee_id=tid, item_id=drill_item_id(game, 4), game=game,
                    mode=Mode.PAYOUT_DRILL, result=result, log=log,
                    skills=skills_of(proc, s.automation), started=started, ended=started + elapsed,
                    target=s.target_seconds, seed=s.id))
    return ids
