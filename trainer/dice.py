"""Where dice come from: injected, so practice rounds are seeded and tests script them.

The engine never rolls dice itself. A round asks its dice source for as many dice as the table
expects next (`table.dice_count`): 2 for Props & Hops, 3 for Three Dice Football (green, green,
red) and the Pai Gow dice (red, blue, blue), 10 or 6 for High Roll Dice, fewer on an extra roll.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from trainer.games.base import Throw


class DiceSource(Protocol):
    def roll(self, n: int) -> tuple[int, ...]: ...


class SeededDice:
    """Fair dice from a seeded generator: the same seed gives the same throws."""

    def __init__(self, seed: int | float | str | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, n: int) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, 6) for _ in range(n))


class ScriptedDice:
    """Dice that show what a test or scenario says, in order; running out is an error."""

    def __init__(self, throws: Iterable[Iterable[int]]):
        self._throws = [tuple(t) for t in throws]
        self._next = 0

    def roll(self, n: int) -> tuple[int, ...]:
        if self._next >= len(self._throws):
            raise LookupError(f"the script has no throw {self._next + 1}")
        dice = self._throws[self._next]
        if len(dice) != n or not all(1 <= d <= 6 for d in dice):
            raise ValueError(f"scripted throw {self._next + 1} is {dice}, but {n} dice were thrown")
        self._next += 1
        return dice


def throw(table, dice: DiceSource) -> Throw:
    """A valid throw of as many dice as the table expects next."""
    return Throw(dice=dice.roll(table.dice_count))
