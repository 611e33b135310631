"""What a dealer may call: the right call of a throw and plausible wrong ones, for the announce
choices of the practice screen. The right call is the engine's own (ThrowReport.call)."""

from __future__ import annotations

import random

from trainer import games
from trainer.procedure.model import ThrowView


def dice_of(game: str, throw: dict) -> tuple[int, ...]:
    """The dice of a throw in the settle contract's form, in the game's order (Three Dice
    Football: green, green, red; Pai Gow: red, blue, blue)."""
    return games.get(game).dice_of(throw)


def call_of(game: str, dice: tuple[int, ...]) -> str:
    """The call of a first throw with these dice (in the game's order)."""
    return games.get(game).call_of(dice)


def choices(game: str, view: ThrowView, n: int = 4, seed: int = 0) -> list[str]:
    """The right call of a round's throw among n - 1 wrong ones, in a fixed order."""
    rng = random.Random(f"{game}:{view.throw}:{seed}")
    right = view.call
    result = view.result
    g = games.get(game)
    if view.valid:
        pool = g.calls_like(result, dice_of(game, view.event.throw), rng)
    else:  # a no roll: every call offered is wrong, as announcing it would be
        right = ""
        pool = [g.call_of(tuple(rng.randint(1, 6) for _ in range(g.dice))) for _ in range(12)]
    wrong = [c for c in dict.fromkeys(pool) if c != right][: n - 1 if right else n]
    out = [right, *wrong] if right else wrong
    rng.shuffle(out)
    return out
