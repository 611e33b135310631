"""Props & Hops, 58 Pa. Code ch. 668a: two dice in a covered shaker, one-roll wagers, and the
Six Eight Shake that runs across throws.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import NoReturn

from trainer.cite import cite, reading
from trainer.errors import DataError, RequestError
from trainer.games.base import (
    Bet,
    Game,
    Options,
    Throw,
    WagerKind,
    add_chips,
    dice_variants,
    read_dice,
    read_throw,
    settle_each,
)
from trainer.money import winnings
from trainer.paytables import layout, paytable
from trainer.readings import SEATS
from trainer.settlement import Line, Refusal, Step, ThrowReport, ThrowResult, Wager
from trainer.vocabulary import Do

ID = "props-and-hops"
NAME = "Props & Hops"
CHAPTER = "668a"

#: no-roll reasons and the section that calls each
NO_ROLLS = {
    "lid-removed": "668a.3(f)",
    "die-fell-out": "668a.3(g)",
    "die-on-die": "668a.3(h)",
    "not-flat": "668a.3(h)",
}
NO_ROLL_NAMES = {
    "lid-removed": "The player removed the lid",
    "die-fell-out": "A die fell out when the shaker was uncovered",
    "die-on-die": "One die came to rest on top of the other",
    "not-flat": "The dice did not land flat in the shaker",
}
#: the Six Eight Shake combinations that hold a lammer, in the order § 668a.3(e) lists them
LAMMERS = ("1-5", "2-4", "3-3", "2-6", "3-5", "4-4")
REGIONS = ("top", "left", "right", "center")
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
TOTALS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
          9: "Nine", 10: "Ten", 11: "Eleven", 12: "Twelve"}
#: why a wager offered for the throw after a no roll is refused (reading "no-roll")
LATE_AFTER_NO_ROLL = "after a no roll the dice are shaken again while \"no more bets\" stands"
def combination(dice: tuple[int, int]) -> str:
    """The combination two dice show, lower die first ("3-5"): hop and lammer names use it."""
    a, b = sorted(dice)
    return f"{a}-{b}"


ALL_COMBINATIONS = tuple(combination((a, b)) for a in range(1, 7) for b in range(a, 7))


def _catalogue() -> dict[str, Bet]:
    bets: dict[str, Bet] = {}
    hardways = {1: "Two", 2: "Four", 3: "Six", 4: "Eight", 5: "Ten", 6: "Twelve"}
    for n in range(1, 7):
        bets[f"double-{n}-{n}"] = Bet(
            f"double-{n}-{n}", f"{hardways[n]} the Hardway ({n}-{n})", cite(f"668a.2(d)({n})"),
            f"Wins if the next roll is {n}-{n}.", "double", WagerKind.ONE_ROLL)
    pairs = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
    for i, (a, b) in enumerate(pairs, start=1):
        bets[f"any-{a}-{b}"] = Bet(
            f"any-{a}-{b}", f"{WORDS[a].title()}-{WORDS[b].title()} ({a}-{b})",
            cite(f"668a.2(e)({i})"), f"Wins if the next roll is {a}-{b}.", "any-number",
            WagerKind.ONE_ROLL)
    bets["field"] = Bet("field", "Field", cite("668a.2(f)(1)"),
                        "Wins if the next roll totals 2, 3, 4, 9, 10, 11 or 12.", "field", WagerKind.ONE_ROLL)
    for n, region in enumerate(REGIONS, start=2):
        bets[f"hop-{region}"] = Bet(
            f"hop-{region}", f"Hop the {region.title()}", cite(f"668a.2(f)({n})"),
            f"Wins if the next roll is one of the combinations in the {region} hop region of the "
            "layout.", f"hop-{region}", WagerKind.ONE_ROLL)
    bets["one-six-and-under"] = Bet(
        "one-six-and-under", "1-6 and Under", cite("668a.2(f)(6)"),
        "Wins if the next roll is 1-6 or totals 6 or less.", "one-six-and-under", WagerKind.ONE_ROLL)
    bets["three-four-and-over"] = Bet(
        "three-four-and-over", "3-4 and Over", cite("668a.2(f)(7)"),
        "Wins if the next roll is 3-4 or totals 8 or more.", "three-four-and-over", WagerKind.ONE_ROLL)
    bets["six-eight-shake"] = Bet(
        "six-eight-shake", "Six Eight Shake", cite("668a.2(f)(8)"),
        "Wins if 1-5, 2-4, 3-3, 2-6, 3-5 and 4-4 are all thrown before a 7.", "six-eight-shake",
        WagerKind.CYCLE)
    return bets


CATALOGUE = _catalogue()


@cache
def _default_regions() -> dict[str, frozenset[str]]:
    data = layout(ID).get("hop_regions")
    if not isinstance(data, dict):
        raise DataError("resources/layouts/props-and-hops.toml: [hop_regions] is missing")
    return {r: _region(data.get(r), f"layouts/props-and-hops.toml hop_regions.{r}", DataError)
            for r in REGIONS}


def default_regions() -> dict[str, frozenset[str]]:
    """The hop regions of the default layout (resources/layouts/props-and-hops.toml)."""
    return dict(_default_regions())


def _region(raw: object, where: str, error: type[Exception]) -> frozenset[str]:
    def fail(message: str) -> NoReturn:
        if error is RequestError:
            raise RequestError(where, message)
        raise error(f"{where}: {message}")

    if not isinstance(raw, list):
        fail("expected a list of combinations such as \"1-2\"")
    combos: set[str] = set()
    for i, c in enumerate(raw):
        if not isinstance(c, str):
            fail(f"item {i} is not a combination")
        parts = c.split("-")
        if len(parts) == 2 and all(p in "123456" and p for p in parts):
            c = combination((int(parts[0]), int(parts[1])))
        if c not in ALL_COMBINATIONS:
            fail(f"{c!r} is not a combination such as \"1-2\"")
        combos.add(c)
    return frozenset(combos)


def parse_options(raw: Mapping[str, object]) -> Options:
    regions = default_regions()
    for key, value in raw.items():
        if key != "hop_regions":
            raise RequestError(f"options.{key}", f"not an option of {ID}")
        if not isinstance(value, dict):
            raise RequestError("options.hop_regions", "expected an object of top/left/right/center")
        for region, combos in value.items():
            if region not in REGIONS:
                raise RequestError(f"options.hop_regions.{region}", "unknown hop region")
            regions[region] = _region(combos, f"options.hop_regions.{region}", RequestError)
    return Options(hop_regions=regions)


def parse_throw(raw: Mapping[str, object], where: str) -> Throw:
    return read_throw(raw, where, game="Props & Hops", fields={"dice": 2}, reasons=NO_ROLLS)


def resolver(dice: tuple[int, int], regions: Mapping[str, frozenset[str]]):
    """The paying result of each one-roll bet on these dice (None: the bet loses)."""
    combo = combination(dice)
    total = sum(dice)

    def resolve(bet: str) -> str | None:
        if bet.startswith(("double-", "any-")):
            return "win" if bet.split("-", 1)[1] == combo else None
        if bet == "field":
            if total in (2, 12):
                return "2 or 12"
            return "3, 4, 9, 10 or 11" if total in (3, 4, 9, 10, 11) else None
        if bet.startswith("hop-"):
            return "win" if combo in regions[bet[4:]] else None
        if bet == "one-six-and-under":
            return "win" if combo == "1-6" or total < 7 else None
        if bet == "three-four-and-over":
            return "win" if combo == "3-4" or total > 7 else None
        raise KeyError(bet)

    return resolve


def call(dice: tuple[int, int]) -> str:
    a, b = sorted(dice)
    return f"{TOTALS[a + b]}, {WORDS[a]}-{WORDS[b]}"


@dataclass
class Table:
    """The layout between throws: one-roll wagers, and the table's one Six Eight Shake cycle."""

    regions: Mapping[str, frozenset[str]]
    wagers: dict[tuple[int, str], int] = field(default_factory=dict)
    shake: dict[int, int] = field(default_factory=dict)  # seat -> amount, placement order
    lammers: list[str] = field(default_factory=list)  # combinations still holding a lammer
    moved: list[str] = field(default_factory=list)  # lammers moved to the circles, in order
    cycles: int = 0  # Six Eight Shake cycles started, so a new one is told from the last
    reshake: str | None = None  # after a no roll: its section, while "no more bets" stands
    dice_count = 2
    over: bool = False  # Props & Hops never ends; a request may hold any number of rounds

    def offer(self, wager: Wager) -> Refusal | None:
        if self.reshake is not None:  # § 668a.2(a), the dice being shaken again (§ 668a.3(f)-(h))
            return Refusal(wager, LATE_AFTER_NO_ROLL,
                           f"{cite('668a.2(a)')}; {cite(self.reshake)}; {reading('no-roll')}")
        if wager.bet == "six-eight-shake":
            if self.moved:
                # § 668a.3(e) sets the wagers out before the lammers; that none joins a cycle
                # under way is the reading
                return Refusal(wager, "a lammer has already moved this cycle",
                               f"{cite('668a.3(e)')}; {reading('ph-six-eight-shake')}")
            if not self.shake:
                self.lammers = list(LAMMERS)
                self.cycles += 1
            add_chips(self.shake, wager.seat, wager.amount)
            return None
        key = (wager.seat, wager.bet)
        add_chips(self.wagers, key, wager.amount)
        return None

    def no_more_bets(self) -> list[Refusal]:
        return []

    parse_throw = staticmethod(parse_throw)

    def take_down(self, seat: int, bet: str) -> bool:
        if bet != "six-eight-shake" or seat not in self.shake:
            return False
        del self.shake[seat]
        if not self.shake:
            self._end_cycle()
        return True

    def _end_cycle(self) -> None:
        self.shake.clear()
        self.lammers = []
        self.moved = []

    def throw(self, throw: Throw) -> ThrowReport:
        if throw.no_roll is not None:
            self.reshake = NO_ROLLS[throw.no_roll]
            return ThrowReport(False, "No roll", no_roll=throw.no_roll, cite=cite(self.reshake))
        self.reshake = None
        first, second = throw.dice
        dice = (first, second)
        combo, total = combination(dice), sum(dice)
        pays = paytable(ID)
        one_roll = [Wager(s, b, a) for (s, b), a in self.wagers.items()]
        losers, winners = settle_each(one_roll, CATALOGUE, pays, resolver(dice, self.regions))
        self.wagers.clear()
        steps: list[Step] = []
        ses_cite = CATALOGUE["six-eight-shake"].cite
        if self.shake and total == 7:
            losers += [Line.lose(Wager(s, "six-eight-shake", a), ses_cite)
                       for s, a in sorted(self.shake.items())]
            self._end_cycle()
        steps.append(Step(Do.COLLECT, tuple(losers), cite=cite("668a.3(i)")))
        if self.shake and combo in self.lammers:
            self.lammers.remove(combo)
            self.moved.append(combo)
            steps.append(Step(Do.MOVE_LAMMER, cite=cite("668a.3(i)"),
                              detail={"combination": combo, "lammers_moved": len(self.moved)}))
            if not self.lammers:
                entry = pays["six-eight-shake"]
                line = entry.line("win")
                winners += [
                    Line.win(Wager(s, "six-eight-shake", a), winnings(a, line.odds), line.text,
                             ses_cite, entry.cite)
                    for s, a in sorted(self.shake.items())
                ]
                self._end_cycle()
        steps.append(Step(Do.PAY, tuple(winners), cite=cite("668a.3(i)")))
        return ThrowReport(True, call(dice), {"dice": list(dice), "total": total}, tuple(steps),
                           cite=cite("668a.3(h)"))

    def open_wagers(self) -> list[Wager]:
        standing = [Wager(s, b, a) for (s, b), a in self.wagers.items()]
        standing += [Wager(s, "six-eight-shake", a) for s, a in self.shake.items()]
        return sorted(standing, key=lambda w: (w.seat, w.bet))


class PropsAndHops:
    id = ID
    name = NAME
    chapter = CHAPTER
    seats = SEATS[ID]
    dice = 2
    no_rolls: Mapping[str, str] = NO_ROLLS
    no_roll_names: Mapping[str, str] = NO_ROLL_NAMES
    lammers = LAMMERS  # the Six Eight Shake combinations, for the layout (§ 668a.3(e))
    hop_regions = REGIONS  # the hop regions' names (reading "ph-hop-regions")
    cannot_happen: Mapping[str, str] = {}  # no-roll reasons a scenario may not deal
    regulation_file = "668a-props-and-hops.txt"
    throw_fields: tuple[str, ...] = ("dice",)
    events = frozenset({"take-down"})  # a Six Eight Shake wager taken down
    shooter = True
    cocked_dice = False
    settles_in = "668a.3"
    stands_until: str | None = None
    paid_later: frozenset[str] = frozenset()
    step_sections: Mapping[Do, str] = {}
    odds_options: tuple[Mapping[str, object], ...] = ({},)

    def catalogue(self, options: Options | None = None) -> Mapping[str, Bet]:
        return CATALOGUE

    def dice_of(self, throw: Mapping[str, object]) -> tuple[int, ...]:
        return read_dice(throw["dice"], 2, "dice")

    def throw_of(self, dice: tuple[int, ...]) -> dict:
        return {"dice": list(dice)}

    def paid_once(self, bet: str) -> str | None:
        return None

    def call_of(self, dice: tuple[int, ...]) -> str:
        return call((dice[0], dice[1]))

    def calls_like(self, result: ThrowResult, dice: tuple[int, ...],
                   rng: random.Random) -> list[str]:
        return [self.call_of(d) for d in dice_variants(dice, rng)]

    parse_options = staticmethod(parse_options)

    def new_table(self, options: Options) -> Table:
        return Table(options["hop_regions"])


GAME: Game = PropsAndHops()  # typed: mypy holds the descriptor to the protocol
