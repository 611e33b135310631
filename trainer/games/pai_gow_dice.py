"""The Pai Gow Poker dice wagers, 58 Pa. Code § 645c.2 — RECONSTRUCTED.

Our copy of § 645c.2 lost subsections (e)–(g) but a flattened paytable; reading
"pgd-reconstructed" rebuilds the Sum, Match and Beat It wagers from it. One red die and two blue
dice; one throw settles the round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from trainer.cite import cite, reading
from trainer.errors import RequestError
from trainer.games.base import (
    Bet,
    Game,
    Options,
    Throw,
    WagerKind,
    add_chips,
    dice_variants,
    read_dice,
    read_die,
    read_throw,
    settle_each,
)
from trainer.paytables import paytable
from trainer.readings import SEATS
from trainer.settlement import Refusal, ThrowReport, ThrowResult, Wager, settle_together
from trainer.vocabulary import Do

ID = "pai-gow-dice"
NAME = "Pai Gow Poker dice wagers"
CHAPTER = "645c"
RECONSTRUCTED = " (reconstructed)"
SUM_PAYTABLES = ("A", "B", "C", "D")
BEAT_IT_PAYTABLES = ("A", "B", "C")
#: no-roll reasons: our copy of § 645c.2 has no text on them (reading "pgd-no-roll"); a die
#: cannot leave the closed shaker, but the settle contract keeps the reason
NO_ROLLS = {
    "die-off-table": "645c.2",
    "die-on-die": "645c.2",
    "cocked-multiple-sides": "645c.2",
}
NO_ROLL_NAMES = {
    "die-off-table": "A die went off the table",
    "die-on-die": "One die came to rest on top of another",
    "cocked-multiple-sides": "A die is cocked, resting on more than one side",
}
NO_ROLL_CITE = reading("pgd-no-roll")
#: no-roll reasons the settle contract keeps but a scenario may not deal, and why
CANNOT_HAPPEN = {"die-off-table": "a die cannot leave the table: the dice are read inside the "
                                  "closed shaker (reading 'pgd-no-roll')"}
SUM_WHEN = {
    "A": "Wins on a total of 17 (25 to 1), 16 (6 to 1) or 8 (3 to 1).",
    "B": "Wins on a total of 3 (25 to 1), 8 (4 to 1) or 9 (2 to 1).",
    "C": "Wins on three of a kind (3 to 1) or exactly a pair (1 to 1).",
    "D": "Wins on three consecutive values, in any order (15 to 2).",
}
BEAT_IT_WHEN = {
    "A": "Wins if the red die ties or beats the sum of the blue dice (by 4: 50 to 1; by 2–3: 10 to "
         "1; tie or 1: 1 to 1).",
    "B": "Wins if the red die ties or beats the sum of the blue dice (by 4: 60 to 1; by 2–3: 10 to "
         "1; tie or 1: 1 to 1).",
    "C": "Wins if any one die beats the sum of the other two by 1 or more (5 to 2).",
}
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def catalogue(options: Options) -> dict[str, Bet]:
    return _catalogue(options["sum_paytable"], options["beat_it_paytable"])


@cache
def _catalogue(s: str, b: str) -> dict[str, Bet]:
    rc = cite("645c.2(e)") + RECONSTRUCTED
    bets = {"sum": Bet("sum", f"Sum (paytable {s})", rc, SUM_WHEN[s], f"sum-{s}", WagerKind.ONE_ROLL, True)}
    for n in range(1, 7):
        bets[f"match-{n}"] = Bet(f"match-{n}", f"Match {n}", rc,
                                 f"Wins if two dice (6 to 1) or all three (100 to 1) show {n}.",
                                 "match", WagerKind.ONE_ROLL, True)
    bets["beat-it"] = Bet("beat-it", f"Beat It (paytable {b})", rc, BEAT_IT_WHEN[b],
                          f"beat-it-{b}", WagerKind.ONE_ROLL, True)
    return bets


def parse_options(raw: Mapping[str, object]) -> Options:
    options: dict[str, str] = {"sum_paytable": "A", "beat_it_paytable": "A"}
    for key, value in raw.items():
        choices = {"sum_paytable": SUM_PAYTABLES, "beat_it_paytable": BEAT_IT_PAYTABLES}.get(key)
        if choices is None:
            raise RequestError(f"options.{key}", f"not an option of {ID}")
        if not isinstance(value, str) or value not in choices:
            raise RequestError(f"options.{key}", f"{value!r} is not a paytable; expected one of "
                                                 f"{', '.join(choices)}")
        options[key] = value
    return Options(sum_paytable=options["sum_paytable"], beat_it_paytable=options["beat_it_paytable"])


def resolver(red: int, blue: tuple[int, int], options: Options) -> Callable[[str], str | None]:
    dice = (red, *blue)
    total = sum(dice)
    distinct = len(set(dice))

    def resolve(bet: str) -> str | None:
        if bet == "sum":
            match options["sum_paytable"]:
                case "A":
                    return f"total {total}" if total in (17, 16, 8) else None
                case "B":
                    return f"total {total}" if total in (3, 8, 9) else None
                case "C":
                    return {1: "three of a kind", 2: "a pair"}.get(distinct)
                case _:
                    low = min(dice)
                    return "a series of three" if sorted(dice) == [low, low + 1, low + 2] else None
        if bet.startswith("match-"):
            return {3: "triple match", 2: "double match"}.get(dice.count(int(bet[6:])))
        if options["beat_it_paytable"] == "C":
            return "a die beats the other two" if any(2 * d > total for d in dice) else None
        ahead = red - blue[0] - blue[1]
        if ahead >= 4:
            return "by 4 points"
        if ahead >= 2:
            return "by 2 or 3 points"
        return "tie or 1 point" if ahead >= 0 else None

    return resolve


def call(red: int, blue: tuple[int, int]) -> str:
    """The dealer's announcement of each die (§ 645c.2(g))."""
    return f"Red {WORDS[red]}, blue {WORDS[blue[0]]} and {WORDS[blue[1]]}"


def parse_throw(raw: Mapping[str, object], where: str) -> Throw:
    return read_throw(raw, where, game="Pai Gow dice", fields={"red": None, "blue": 2}, reasons=NO_ROLLS)


@dataclass
class Table:
    options: Options
    bets: Mapping[str, Bet]
    wagers: dict[tuple[int, str], int] = field(default_factory=dict)
    over: bool = False
    reshake: bool = False  # after a no roll, while "no more bets" stands
    dice_count = 3

    parse_throw = staticmethod(parse_throw)

    def offer(self, wager: Wager) -> Refusal | None:
        if self.reshake:
            return Refusal(wager, "after a no roll the shaker is used again while \"no more "
                                  "bets\" stands: a wager must be placed before the shaker is "
                                  "used", cite("645c.2(f)"))
        key = (wager.seat, wager.bet)
        add_chips(self.wagers, key, wager.amount)
        return None

    def no_more_bets(self) -> list[Refusal]:
        return []

    def take_down(self, seat: int, bet: str) -> bool:
        return False

    def open_wagers(self) -> list[Wager]:
        return sorted((Wager(s, b, a) for (s, b), a in self.wagers.items()),
                      key=lambda w: (w.seat, w.bet))

    def throw(self, throw: Throw) -> ThrowReport:
        if not throw.valid:
            self.reshake = True
            return ThrowReport(False, "No roll", no_roll=throw.no_roll, cite=NO_ROLL_CITE)
        red, blue = throw.dice[0], (throw.dice[1], throw.dice[2])
        wagers = [Wager(s, b, a) for (s, b), a in self.wagers.items()]
        losers, winners = settle_each(wagers, self.bets, paytable(ID),
                                      resolver(red, blue, self.options))
        self.wagers.clear()
        self.over = True
        section = cite("645c.2(g)")  # "by collecting losing wagers and paying out winning wagers": no order
        steps = settle_together(losers, winners, section)
        return ThrowReport(True, call(red, blue), {"red": red, "blue": list(blue), "total": red + sum(blue)},
                           tuple(steps), cite=section)


class PaiGowDice:
    id = ID
    name = NAME
    chapter = CHAPTER
    seats = SEATS[ID]
    dice = 3
    no_rolls: Mapping[str, str] = NO_ROLLS
    no_roll_names: Mapping[str, str] = NO_ROLL_NAMES
    cannot_happen: Mapping[str, str] = CANNOT_HAPPEN
    regulation_file = "645c2-pai-gow-poker-dice-wagers.txt"
    throw_fields: tuple[str, ...] = ("red", "blue")
    events: frozenset[str] = frozenset()
    shooter = False
    cocked_dice = False  # a closed shaker: its no rolls are the chapter's own
    settles_in = "645c.2(g)"
    stands_until: str | None = None
    paid_later: frozenset[str] = frozenset()
    step_sections: Mapping[Do, str] = {}
    # every Sum paytable and every Beat It paytable of § 645c.2(e), each at least once
    odds_options: tuple[Mapping[str, object], ...] = tuple(
        {"sum_paytable": s, "beat_it_paytable": b}
        for s, b in zip(SUM_PAYTABLES, (*BEAT_IT_PAYTABLES, BEAT_IT_PAYTABLES[-1]), strict=True))

    catalogue = staticmethod(catalogue)

    def dice_of(self, throw: Mapping[str, object]) -> tuple[int, ...]:
        return (read_die(throw["red"], "red"), *read_dice(throw["blue"], 2, "blue"))

    def throw_of(self, dice: tuple[int, ...]) -> dict:
        return {"red": dice[0], "blue": list(dice[1:])}

    def paid_once(self, bet: str) -> str | None:
        return None

    def call_of(self, dice: tuple[int, ...]) -> str:
        return call(dice[0], (dice[1], dice[2]))

    def calls_like(self, result: ThrowResult, dice: tuple[int, ...],
                   rng: random.Random) -> list[str]:
        return [self.call_of(d) for d in dice_variants(dice, rng)]
    parse_options = staticmethod(parse_options)

    def new_table(self, options: Options) -> Table:
        return Table(options, catalogue(options))


GAME: Game = PaiGowDice()  # typed: mypy holds the descriptor to the protocol
