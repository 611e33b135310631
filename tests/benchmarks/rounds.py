"""Seeded mixed rounds for the benchmarks: every game, every kind of throw, valid requests."""

from __future__ import annotations

import random

PH_BETS = ([f"double-{n}-{n}" for n in range(1, 7)]
           + [f"any-{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)]
           + ["field", "hop-top", "hop-left", "hop-right", "hop-center", "one-six-and-under",
              "three-four-and-over", "six-eight-shake"])
TDF_FULL = ["touchdown", "defense", "extra-point", "quick-strike", "game-changer",
            *(f"game-length-{n}" for n in range(1, 7))]
TDF_SINGLE = ["trips-td", "penalty", "turnover", "cover-three", "no-gain", "big-play",
              "over-four-yards", "under-four-yards"]


def amount(rng: random.Random) -> str:
    return rng.choice(["1", "2.50", "5", "10", "25", "7.35"])


def props_and_hops(rng):
    throws = []
    for _ in range(rng.randint(1, 8)):
        t = {"dice": [rng.randint(1, 6), rng.randint(1, 6)]} if rng.random() > 0.1 else \
            {"no_roll": "die-fell-out"}
        t["wagers"] = [{"seat": rng.randint(1, 6), "bet": rng.choice(PH_BETS[:-1]),
                        "amount": amount(rng)} for _ in range(rng.randint(0, 4))]
        throws.append(t)
    wagers = [{"seat": rng.randint(1, 6), "bet": rng.choice(PH_BETS), "amount": amount(rng)}
              for _ in range(rng.randint(1, 8))]
    return {"game": "props-and-hops", "wagers": wagers, "throws": throws}


def football(rng):
    wagers = [{"seat": rng.randint(1, 16), "bet": rng.choice(TDF_FULL + TDF_SINGLE),
               "amount": amount(rng)} for _ in range(rng.randint(1, 10))]
    return {"game": "three-dice-football", "wagers": wagers, "throws": football_throws(rng, wagers)}


def football_throws(rng, wagers):
    """Throws until the game ends (whether an extra point roll comes depends on the wagers)."""
    from trainer.games.base import Throw
    from trainer.games.three_dice_football import Table
    from trainer.settlement import Wager

    table, throws = Table(), []
    for w in wagers:
        table.offer(Wager(w["seat"], w["bet"], 100))
    while not table.over:
        g, r = [rng.randint(1, 6), rng.randint(1, 6)], rng.randint(1, 6)
        table.throw(Throw(dice=(*g, r)))
        throws.append({"green": g, "red": r,
                       "wagers": [{"seat": rng.randint(1, 16), "bet": rng.choice(TDF_SINGLE),
                                   "amount": amount(rng)}]})
    return throws


def high_roll(rng):
    wagers = []
    for seat in range(1, rng.randint(2, 7)):
        a = amount(rng)
        wagers += [{"seat": seat, "bet": f"pip-{rng.choice(['ace', '2', '3', '4', '5', '6'])}", "amount": a},
                   {"seat": seat, "bet": f"like-kind-{rng.randint(2, 8)}", "amount": a}]
        if rng.random() < 0.5:
            wagers.append({"seat": seat, "bet": "extra-roll", "amount": a})
    first = [rng.randint(1, 6) for _ in range(10)]
    from trainer.games.high_roll_dice import winning_face

    _, count = winning_face(tuple(first))
    throws = [{"dice": first}]
    if any(w["bet"] == "extra-roll" for w in wagers) and count < 10:
        throws.append({"dice": [rng.randint(1, 6) for _ in range(10 - count)]})
    return {"game": "high-roll-dice", "wagers": wagers, "throws": throws}


def pai_gow(rng):
    wagers = [{"seat": rng.randint(1, 6), "bet": rng.choice(["sum", "beat-it", f"match-{rng.randint(1, 6)}"]),
               "amount": amount(rng)} for _ in range(rng.randint(1, 6))]
    return {"game": "pai-gow-dice", "options": {"sum_paytable": rng.choice("ABCD"),
                                                "beat_it_paytable": rng.choice("ABC")},
            "wagers": wagers, "throws": [{"red": rng.randint(1, 6),
                                          "blue": [rng.randint(1, 6), rng.randint(1, 6)]}]}


def mixed_rounds(n: int, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    makers = (props_and_hops, football, high_roll, pai_gow)
    return [makers[i % 4](rng) for i in range(n)]
