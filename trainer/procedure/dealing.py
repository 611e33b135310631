"""Dealing a random round: what every game's dealer shares. Each game's steps deal its own rounds
(`GameSteps.deal`, in trainer.procedure.<game>); trainer.drills seeds them and names the round.

Difficulty sets the amounts (round at 1–2, odd amounts where breakage matters from 3), the
improper offers (from 3) and how often a throw is a no roll (or always, when the no roll is the
skill drilled). The same seed always deals the same round, so a drill is dealt again from its id
when a results file is imported: keep the order of the random draws. A new draw belongs to a new
dealer version (`Deal.dealer`, named in the drill's id by trainer.drills): version 1 is the
dealing before versions, version 2 adds the die cocked on chips and the lost die to the
irregular throws. The bets a dealer draws from are `DEALT`, not the game's catalogue: a wager
added to a game changes no round an existing id deals, and a dealer that deals it is a new
version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from trainer.dice import SeededDice
from trainer.games.base import Game
from trainer.scenario import Event, Offer
from trainer.table_state import COCKED
from trainer.vocabulary import Skill

_HRD_PIPS = ("pip-ace", "pip-6", "pip-5", "pip-4", "pip-3", "pip-2")
#: every bet dealers 1 and 2 deal, per game, in the order they draw from: frozen, as every dealt
#: round is (never add to or reorder a list: a new dealer version gets lists of its own)
DEALT: dict[str, tuple[str, ...]] = {
    "props-and-hops": (
        *(f"double-{n}-{n}" for n in range(1, 7)),
        *(f"any-{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)),
        "field", "hop-top", "hop-left", "hop-right", "hop-center", "one-six-and-under",
        "three-four-and-over", "six-eight-shake"),
    "three-dice-football": (
        "touchdown", "defense", "extra-point", "quick-strike", "game-changer",
        *(f"game-length-{n}" for n in range(1, 7)),
        "trips-td", "penalty", "turnover", "cover-three", "no-gain", "big-play", "over-four-yards",
        "under-four-yards"),
    "high-roll-dice": (*_HRD_PIPS, *(f"like-kind-{k}" for k in range(2, 9)), "millionaire-9",
                       "millionaire-10", "extra-roll"),
    "high-roll-dice-6": (*_HRD_PIPS, *(f"like-kind-{k}" for k in range(2, 7)), "like-kind-none"),
    "pai-gow-dice": ("sum", *(f"match-{n}" for n in range(1, 7)), "beat-it"),
}

ROUND_AMOUNTS = (500, 1000, 2500, 500, 1000)
ODD_AMOUNTS = (335, 750, 1225, 700, 333, 1800, 2500, 575)


@dataclass
class Deal:
    """One round being dealt: its random source and dice, the game, the difficulty, the seats
    taken, the skill drilled (None for plain practice) and the dealer version."""

    rng: random.Random
    dice: SeededDice
    game: Game
    difficulty: int
    seats: list[int]
    skill: Skill | None
    dealer: int
    cocked: int | None = field(default=None, init=False)  # the next throw's die cocked on chips

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
        """Now and then an irregular throw, as event number n: one of the game's no-roll reasons
        that can happen, and from dealer 2 a lost die or a die cocked on chips where the game has
        them. A cocked die is no event of its own: the next `throw` has it."""
        chance = 0.5 if self.skill is Skill.NO_ROLL else 0.08 * (self.difficulty - 1)
        if self.rng.random() >= chance:
            return None
        reason = self.rng.choice([r for r in self.game.no_rolls if r not in self.game.cannot_happen]
                                 + self.irregular_throws())
        if reason == COCKED:
            self.cocked = self.rng.randrange(self.game.dice)
            return None
        if reason == "lost-die":  # a die off the table and lost: a no roll, and a new set of dice
            return Event("lost-die", f"events[{n}]", {"no_roll": "die-off-table"})
        return Event("no-roll", f"events[{n}]", {"no_roll": reason})

    def irregular_throws(self) -> list[str]:
        """The irregular throws this dealer deals beside the no-roll reasons: from dealer 2, a die
        lost off the table (where the game changes the dice for it: an event of its own) and a
        die cocked on chips (where the game reads it)."""
        kinds = []
        if self.dealer >= 2 and "lost-die" in self.game.events:
            kinds.append("lost-die")
        if self.dealer >= 2 and self.game.cocked_dice:
            kinds.append(COCKED)
        return kinds

    def throw(self, n: int, dice: dict) -> Event:
        """A throw of these dice as event number n, with the die cocked on chips if one was dealt."""
        cocked, self.cocked = self.cocked, None
        return Event("throw", f"events[{n}]", dice, cocked=cocked)
