"""Dealing a random round: what every game's dealer shares. Each game's steps deal its own rounds
(`GameSteps.deal`, in trainer.procedure.<game>); trainer.drills seeds them and names the round.

Difficulty sets the amounts (round at 1–2, odd amounts where breakage matters from 3), the
improper offers (from 3) and how often a throw is a no roll (or always, when the no roll is the
skill drilled). The same seed always deals the same round, so a drill is dealt again from its id
when a results file is imported: keep the order of the random draws.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from trainer.dice import SeededDice
from trainer.games.base import Game
from trainer.scenario import Event, Offer
from trainer.vocabulary import Skill

ROUND_AMOUNTS = (500, 1000, 2500, 500, 1000)
ODD_AMOUNTS = (335, 750, 1225, 700, 333, 1800, 2500, 575)


@dataclass
class Deal:
    """One round being dealt: its random source and dice, the game, the difficulty, the seats
    taken and the skill drilled (None for plain practice)."""

    rng: random.Random
    dice: SeededDice
    game: Game
    difficulty: int
    seats: list[int]
    skill: Skill | None

    def amount(self) -> int:
        return self.rng.choice(ODD_AMOUNTS if self.difficulty >= 3 else ROUND_AMOUNTS)

    def improper(self, seat: int, bet: str, amount: int, where: str) -> Offer | None:
        """Now and then, at difficulty 3 and up, an offer the trainee must refuse."""
        if self.difficulty < 3 or self.rng.random() > 0.1 * (self.difficulty - 2):
            return None
        kind = self.rng.choice(("cash", "seated", "late"))
        return Offer(seat, bet, amount, cash=kind == "cash", seated=kind != "seated",
                     late=kind == "late", where=where)

    def no_roll(self, n: int) -> Event | None:
        """Now and then a no roll, as event number n: one of the game's reasons that can happen."""
        chance = 0.5 if self.skill is Skill.NO_ROLL else 0.08 * (self.difficulty - 1)
        if self.rng.random() >= chance:
            return None
        reason = self.rng.choice([r for r in self.game.no_rolls if r not in self.game.cannot_happen])
        return Event("no-roll", f"events[{n}]", {"no_roll": reason})

