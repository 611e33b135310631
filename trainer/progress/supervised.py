"""Supervised rounds in the progress file (migration m021_supervised_rounds): each round watched to
its debrief, with every fault and whether it was caught; and the catch rate computed from them, per
fault class and per game, with the weakest class to drill."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from fractions import Fraction

from trainer.games import GAME_IDS
from trainer.progress.store import Store
from trainer.supervise.catalogue import FaultClass
from trainer.supervise.rounds import SupervisedRound
from trainer.supervise.scoring import Score

#: the fewest faults of a class seen before its catch rate may name it the weakest
SEEN_ENOUGH = 3


def round_uid(trainee_uid: str, deal: str, finished: float) -> str:
    """A supervised round's uid in a class and in the exports: sha256 of its trainee's uid, its
    deal's id and the time it was finished (as the file holds it, exactly): the same on every
    machine and in every results file."""
    return hashlib.sha256(f"{trainee_uid}\n{deal}\n{finished!r}".encode()).hexdigest()


def record_supervised(store: Store, trainee_id: int, rnd: SupervisedRound, score: Score,
                      difficulty: int, finished: float | None = None) -> int:
    """Append a supervised round and its faults, in one transaction; the round's row id."""
    with store.write() as db:
        return insert_supervised(db, trainee_id, rnd, score, difficulty, finished)


def insert_supervised(db, trainee_id: int, rnd: SupervisedRound, score: Score, difficulty: int,
                      finished: float | None = None) -> int:
    """The round and its faults written in the transaction `db` is in; the round's row id."""
    caught = {id(c.fault): c for c in score.caught}
    flags = sorted((*(c.flag for c in score.caught), *score.false_alarms), key=lambda f: f.at)
    raised = [{"at": f.at, "target": f.target, "kind": f.kind} for f in flags]
    cur = db.execute(
        "INSERT INTO supervised_rounds (trainee_id, round_uid, game, difficulty, finished, pace,"
        " score, d_prime, false_alarms, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (trainee_id, rnd.id, rnd.scenario.game, difficulty,
         time.time() if finished is None else finished, rnd.pace, str(score.score), score.d_prime,
         len(score.false_alarms), json.dumps(raised)))
    row = cur.lastrowid
    assert row is not None  # an INSERT's row
    for n, fault in enumerate(rnd.faults):
        c = caught.get(id(fault))
        db.execute("INSERT INTO supervised_faults (round_id, n, kind, fault_class, caught, seconds)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   (row, n, fault.type.id, fault.type.fault_class.value, int(c is not None),
                    None if c is None else c.seconds))
    return row


@dataclass(frozen=True)
class CatchRates:
    """A trainee's catch rate: (caught, faults) per fault class and per game, the rounds
    supervised, and the weakest class (the lowest rate among those seen SEEN_ENOUGH times) with
    the game it is weakest in."""

    by_class: dict[str, tuple[int, int]]
    by_game: dict[str, tuple[int, int]]
    by_game_class: dict[tuple[str, str], tuple[int, int]]
    rounds: int
    weakest: str | None
    weakest_game: str | None

    @staticmethod
    def rate(pair: tuple[int, int]) -> Fraction | None:
        caught, seen = pair
        return Fraction(caught, seen) if seen else None


def catch_rates(store: Store, trainee_id: int) -> CatchRates:
    """The catch rates from every supervised round of the trainee."""
    rows = store.query(
        "SELECT r.game AS game, f.fault_class AS cls, sum(f.caught) AS caught, count(*) AS seen"
        " FROM supervised_faults AS f JOIN supervised_rounds AS r ON r.id = f.round_id"
        " WHERE r.trainee_id = ? GROUP BY r.game, f.fault_class", (trainee_id,))
    rounds = sum(r["n"] for r in store.query(
        "SELECT game, count(*) AS n FROM supervised_rounds WHERE trainee_id = ? GROUP BY game",
        (trainee_id,)) if r["game"] in GAME_IDS)
    by_class: dict[str, tuple[int, int]] = {}
    by_game: dict[str, tuple[int, int]] = {}
    by_both: dict[tuple[str, str], tuple[int, int]] = {}
    for r in rows:
        if r["game"] not in GAME_IDS:  # a row written by hand into the file: no game of ours
            continue
        pair = (int(r["caught"]), int(r["seen"]))
        by_both[(r["game"], r["cls"])] = pair
        for key, table in ((r["cls"], by_class), (r["game"], by_game)):
            old = table.get(key, (0, 0))
            table[key] = (old[0] + pair[0], old[1] + pair[1])
    order = [c.value for c in FaultClass]
    seen = [c for c in order if by_class.get(c, (0, 0))[1] >= SEEN_ENOUGH]
    weakest = min(seen, key=lambda c: (Fraction(*by_class[c]), order.index(c)), default=None)
    game = None
    if weakest is not None:
        games = [(g, pair) for (g, c), pair in by_both.items() if c == weakest]
        game = min(games, key=lambda x: (Fraction(*x[1]), x[0]))[0]
    return CatchRates(by_class, by_game, by_both, rounds, weakest, game)
