"""What every game shares: bets, throws, the table protocol, and one-roll settlement.

A game module defines its bet catalogue (ids from the settle contract, docs/settle.md; names and
citations from the regulation), how it reads a throw, and a `Table` that carries the state across
throws.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypedDict

from trainer.cite import cite
from trainer.errors import RequestError, key_name
from trainer.frozen import quick_init
from trainer.money import winnings
from trainer.paytables import PayEntry
from trainer.settlement import Line, Refusal, ThrowReport, ThrowResult, Wager
from trainer.vocabulary import Do


class WagerKind(StrEnum):
    """When a wager is decided: on one roll, over a Six Eight Shake cycle, the full game or a
    single play (the regulation's "full game wagers" and "single play wagers", § 577.3(b), (d)),
    on the first roll, or by the extra roll bought. (A finding's kind is trainer.grading.Kind.)"""

    ONE_ROLL = "one roll"
    CYCLE = "Six Eight Shake cycle"
    FULL_GAME = "full game"
    SINGLE_PLAY = "single play"
    FIRST_ROLL = "first roll"
    EXTRA_ROLL = "extra roll purchase"


@dataclass(frozen=True, slots=True)
class Bet:
    """One entry of a game's bet catalogue."""

    id: str  # the settle contract's id
    name: str  # as the regulation names it
    cite: str  # the section that says when it wins
    wins_when: str  # one plain sentence
    pays: str  # the paytable entry that pays it
    kind: WagerKind
    reconstructed: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class Throw:
    """A throw as the dealer reads it: the dice, or the reason it is no roll."""

    dice: tuple[int, ...] = ()
    no_roll: str | None = None

    @property
    def valid(self) -> bool:
        return self.no_roll is None


class Options(TypedDict, total=False):
    """A game's options as read (`Game.parse_options`), defaults filled in: the settle contract's
    `options`. A game reads only its own."""

    hop_regions: Mapping[str, frozenset[str]]  # Props & Hops: each hop region's combinations
    sum_paytable: str  # Pai Gow dice: the property's Sum paytable, A–D (§ 645c.2(e))
    beat_it_paytable: str  # Pai Gow dice: its Beat It paytable, A–C


class Table(Protocol):
    """A game's table state across the throws of a round (or of a Props & Hops session)."""

    over: bool

    @property
    def dice_count(self) -> int:
        """How many dice the next throw has."""

    def parse_throw(self, raw: Mapping[str, object], where: str) -> Throw: ...
    def offer(self, wager: Wager) -> Refusal | None: ...
    def no_more_bets(self) -> list[Refusal]: ...
    def take_down(self, seat: int, bet: str) -> bool: ...
    def throw(self, throw: Throw) -> ThrowReport: ...
    def open_wagers(self) -> list[Wager]: ...


class Game(Protocol):
    id: str
    name: str
    chapter: str
    seats: int
    dice: int  # dice on a normal throw
    no_rolls: Mapping[str, str]  # reason -> section
    no_roll_names: Mapping[str, str]  # reason -> what the dealer sees, in the regulation's words
    cannot_happen: Mapping[str, str]  # reasons settle reads but a scenario may not deal -> why
    regulation_file: str  # the chapter's text in resources/regulations/
    throw_fields: tuple[str, ...]  # the fields of a throw in the settle contract and scenarios
    events: frozenset[str]  # the scenario events of this game's own, beyond throws and wagers
    shooter: bool  # a player throws (and a scenario names the shooter)
    cocked_dice: bool  # a die may come to rest cocked on chips, and is read (or re-thrown)
    settles_in: str  # the section that settles a throw's wagers
    stands_until: str | None  # the section that keeps an undecided wager up past its throw
    #: bets decided on one throw and paid after a later one (a touchdown's Touchdown wager, paid
    #: after the extra point roll, § 577.6(f)(1)): paid early, it is out of order, not unearned
    paid_later: frozenset[str]
    #: the section of a step of the game's own, cited when the step is done where none was
    #: called for (an extra point roll with no Extra Point wager up)
    step_sections: Mapping[Do, str]
    # the options whose odds `dealer-trainer odds` reports: every paytable a property may choose
    odds_options: tuple[Mapping[str, object], ...]

    def catalogue(self, options: Options) -> Mapping[str, Bet]: ...
    def dice_of(self, throw: Mapping[str, object]) -> tuple[int, ...]:
        """A throw's dice in the game's order (the throw as the settle contract writes it)."""
    def throw_of(self, dice: tuple[int, ...]) -> dict:
        """The throw of these dice (in the game's order), as the settle contract writes it."""
    def call_of(self, dice: tuple[int, ...]) -> str:
        """The call of a first throw of these dice (in the game's order)."""
    def calls_like(self, result: ThrowResult, dice: tuple[int, ...],
                   rng: random.Random) -> list[str]:
        """Calls a dealer might make instead of this throw's right one (the practice screen's
        wrong choices): the calls of nearby dice, or of the game's own special throws."""
    def paid_once(self, bet: str) -> str | None:
        """The section that forbids paying this wager again in a later throw, if the game has one."""
    def parse_options(self, raw: Mapping[str, object]) -> Options: ...
    def new_table(self, options: Options) -> Table: ...


# --- helpers the games share ----------------------------------------------------------------------


def dice_variants(dice: tuple[int, ...], rng: random.Random) -> list[tuple[int, ...]]:
    """The dice with one die off by one or two pips, in a shuffled order (wrong calls are made of
    these)."""
    out = []
    for i in range(len(dice)):
        for delta in (-1, 1, 2, -2):
            face = dice[i] + delta
            if 1 <= face <= 6:
                out.append((*dice[:i], face, *dice[i + 1:]))
    rng.shuffle(out)
    return out


def add_chips(standing: dict, key, amount: int) -> None:
    """Put a wager's chips on the layout: chips on a bet that already has some make one wager."""
    standing[key] = standing.get(key, 0) + amount



def pay_or_collect(wager: Wager, key: str | None, rule_cite: str, entry: PayEntry) -> Line:
    """Settle one wager: `key` names the paying result (a line of `entry`), None means it loses."""
    if key is None:
        return Line.lose(wager, rule_cite)
    line = entry.line(key)
    return Line.win(wager, winnings(wager.amount, line.odds), line.text, rule_cite, entry.cite)


def settle_each(
    wagers: Iterable[Wager],
    catalogue: Mapping[str, Bet],
    paytable: Mapping[str, PayEntry],
    resolve: Callable[[str], str | None],
) -> tuple[list[Line], list[Line]]:
    """Settle wagers decided by one result; returns (losers, winners) in seat order."""
    losers: list[Line] = []
    winners: list[Line] = []
    for w in sorted(wagers, key=lambda w: w.seat):
        bet = catalogue[w.bet]
        line = pay_or_collect(w, resolve(w.bet), bet.cite, paytable[bet.pays])
        (losers if line.payout is None else winners).append(line)
    return losers, winners


def read_dice(raw: object, count: int | None, where: str) -> tuple[int, ...]:
    """A list of `count` die faces (None: any number), each 1–6, or a RequestError naming the
    field."""
    if not isinstance(raw, list):
        many = "" if count is None else f" of {count}"
        raise RequestError(where, f"expected a list{many} dice, got {type(raw).__name__}")
    if count is not None and len(raw) != count:
        raise RequestError(where, f"expected {count} dice, got {len(raw)}")
    if all(type(v) is int and 1 <= v <= 6 for v in raw):  # the common case: no message built
        return tuple(raw)
    return tuple(read_die(v, f"{where}[{i}]") for i, v in enumerate(raw))


def read_die(raw: object, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 6:
        raise RequestError(where, f"{raw!r} is not a die face (1–6)")
    return raw


def read_throw(raw: Mapping[str, object], where: str, *, game: str,
               fields: Mapping[str, int | None], reasons: Mapping[str, str]) -> Throw:
    """A throw as the settle contract writes it: a no roll (one of `reasons`), or the dice of each
    field in the game's order (`fields`: field -> how many dice in its list, None for a lone die
    written as a number)."""
    if "no_roll" in raw:
        return read_no_roll(raw, reasons, where)
    check_keys(raw, tuple(fields), where)
    if any(f not in raw for f in fields):
        shape = ", ".join(f'"{f}": ' + {None: "r", 2: "[a, b]"}.get(n, "[...]") for f, n in fields.items())
        raise RequestError(where, f"a {game} throw is {{{shape}}} or {{\"no_roll\": reason}}")
    dice: list[int] = []
    for f, n in fields.items():
        dice += [read_die(raw[f], f"{where}.{f}")] if n is None else read_dice(raw[f], n, f"{where}.{f}")
    return Throw(dice=tuple(dice))


def read_no_roll(raw: Mapping[str, object], reasons: Mapping[str, str], where: str) -> Throw:
    if set(raw) != {"no_roll"}:
        extra = sorted(set(raw) - {"no_roll"})
        raise RequestError(f"{where}.{extra[0]}", "a no roll carries no dice")
    reason = raw["no_roll"]
    if not isinstance(reason, str) or reason not in reasons:
        raise RequestError(
            f"{where}.no_roll", f"unknown no-roll reason {reason!r}; expected one of {', '.join(reasons)}"
        )
    return Throw(no_roll=str(reason))


def check_keys(raw: Mapping[str, object], allowed: tuple[str, ...], where: str) -> None:
    if extra := sorted(raw.keys() - allowed):
        name = key_name(extra[0])
        raise RequestError(f"{where}.{name}" if where else name, "unknown field")


def refuse(wager: Wager, reason: str, section: str) -> Refusal:
    return Refusal(wager, reason, cite(section))


def no_options(raw: Mapping[str, object], game: str) -> Options:
    for key in raw:
        raise RequestError(f"options.{key_name(key)}", f"not an option of {game}")
    return {}
