"""Exact house edges (`dealer-trainer odds`), by enumeration and exact dynamic programming.

Everything is a Fraction; nothing is simulated. The odds take their rules from the games' own
modules (the same functions that settle a round), and their payouts from the paytable data, so
a figure here is the figure of the engine a trainee is graded against. Tests hold these figures
to the published ones (Field 5.56%, Double 13.89%, Any Number 11.11%) and to the readings
(docs/readings.md).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, factorial
from typing import TypeVar

from trainer import games
from trainer.errors import RequestError
from trainer.games import pai_gow_dice as pgd
from trainer.games import props_and_hops as ph
from trainer.games import three_dice_football as tdf
from trainer.games.base import Bet, Options, WagerKind
from trainer.games.high_roll_dice import FACE_KEY, winning_face
from trainer.games.props_and_hops import LAMMERS
from trainer.games.three_dice_football import Play, PlayKind, Table, read_play
from trainer.paytables import PayEntry, paytable

ONE = Fraction(1)
#: what one equally-weighted outcome of a bet's throw is: the dice, or the play they make
Outcome = TypeVar("Outcome")
#: the paying result of a bet (a line of its paytable entry), or None when it loses
Resolve = Callable[[str], str | None]


@dataclass(frozen=True, slots=True)
class Row:
    bet: str
    name: str
    pays: str
    house_edge: Fraction
    win_probability: Fraction
    cite: str
    with_: str | None = None  # another wager the row is figured together with
    reconstructed: bool = False

    def to_json(self) -> dict:
        out: dict[str, str | bool] = {"bet": self.bet}
        if self.with_:
            out["with"] = self.with_
        out |= {
            "house_edge": decimal_text(self.house_edge),
            "house_edge_fraction": f"{self.house_edge.numerator}/{self.house_edge.denominator}",
            "win_probability": decimal_text(self.win_probability),
            "cite": self.cite,
        }
        if self.reconstructed:
            out["reconstructed"] = True
        return out


def decimal_text(x: Fraction, places: int = 10) -> str:
    with localcontext() as ctx:
        ctx.prec = 60
        value = Decimal(x.numerator) / Decimal(x.denominator)
        return str(value.quantize(Decimal(1).scaleb(-places)))


def pays_text(entry: PayEntry) -> str:
    if list(entry.lines) == ["win"]:
        return entry.lines["win"].text
    return "; ".join(f"{k}: {v.text}" for k, v in entry.lines.items())


def one_roll_rows(outcomes: Iterable[tuple[Outcome, int]], resolvers: Callable[[Outcome], Resolve],
                  bets: Mapping[str, Bet], table: Mapping[str, PayEntry],
                  ids: Iterable[str]) -> list[Row]:
    """Rows for bets decided by one equally-weighted outcome each (weight = number of ways)."""
    ids = list(ids)
    back = dict.fromkeys(ids, Fraction(0))  # total returned per unit, wager included
    won = dict.fromkeys(ids, 0)
    total = 0
    for outcome, weight in outcomes:
        total += weight
        resolve = resolvers(outcome)
        for b in ids:
            key = resolve(b)
            if key is not None:
                back[b] += weight * (table[bets[b].pays].lines[key].odds + 1)
                won[b] += weight
    return [row(bets[b], table, ONE - back[b] / total, Fraction(won[b], total)) for b in ids]


def row(bet: Bet, table: Mapping[str, PayEntry], edge: Fraction, p: Fraction,
        with_: str | None = None) -> Row:
    entry = table[bet.pays]  # the paytable's section sets the edge (§ 577.8(a), § 668a.4, ...)
    return Row(bet.id, bet.name, pays_text(entry), edge, p, entry.cite, with_, bet.reconstructed)


# --- Props & Hops --------------------------------------------------------------------------------


def props_and_hops(options: Options) -> list[Row]:
    table = paytable(ph.ID)
    regions = options["hop_regions"]
    ids = [b for b in ph.CATALOGUE if b != "six-eight-shake"]
    rows = one_roll_rows((((a, b), 1) for a, b in product(range(1, 7), repeat=2)),
                         lambda dice: ph.resolver(dice, regions), ph.CATALOGUE, table, ids)
    p = six_eight_shake_probability()
    bet = ph.CATALOGUE["six-eight-shake"]
    odds = table[bet.pays].lines["win"].odds
    return [*rows, row(bet, table, ONE - p * (odds + 1), p)]


@cache
def six_eight_shake_probability() -> Fraction:
    """P(all six lammer combinations are thrown before a 7), by DP over the lammers left."""
    ways = {c: (1 if c[0] == c[2] else 2) for c in LAMMERS}
    seven = 6

    @cache
    def win(left: frozenset[str]) -> Fraction:
        if not left:
            return ONE
        moving = sum(ways[c] for c in left)
        return sum((Fraction(ways[c], moving + seven) * win(left - {c}) for c in left),
                   Fraction(0))

    return win(frozenset(LAMMERS))


# --- Three Dice Football -------------------------------------------------------------------------


@cache
def football_plays() -> tuple[tuple[Play, int], ...]:
    """Every throw of the three dice, grouped by the play it makes: (Play, ways of 216)."""
    plays = Counter(read_play((a, b), r) for a, b, r in product(range(1, 7), repeat=3))
    return tuple(plays.items())


@cache
def football_games() -> dict[tuple[bool, int, bool], Fraction]:
    """The probability of each way a game can end: (touchdown, plays, Trips TD or turnover).

    Exact DP over the drive's states, stepping the engine's own Table through every play."""
    ends: defaultdict[tuple[bool, int, bool], Fraction] = defaultdict(Fraction)
    frontier = {(Table().yard_line, False, 0, 0): ONE}
    while frontier:
        nxt: defaultdict[tuple[int, bool, int, int], Fraction] = defaultdict(Fraction)
        for (yard, goal, down, plays), p in frontier.items():
            for play, ways in football_plays():
                t = Table(yard_line=yard, goal=goal, down=down, plays=plays + 1)
                q = p * Fraction(ways, 216)
                if t._advance(play):
                    changer = play.kind in (PlayKind.TRIPS, PlayKind.TURNOVER)
                    ends[(t.touchdown, t.plays, changer)] += q
                else:
                    nxt[(t.yard_line, t.goal, t.down, t.plays)] += q
        frontier = nxt
    return dict(ends)


def three_dice_football(options: Options) -> list[Row]:
    table, bets = paytable(tdf.ID), tdf.CATALOGUE
    ends = football_games()
    p_td = sum((p for (td, _, _), p in ends.items() if td), Fraction(0))

    def odds(bet: str, key: str = "win") -> Fraction:
        return table[bets[bet].pays].lines[key].odds

    rows = []
    ep_back, ep_won = Fraction(0), 0
    for g1, g2, red in product(range(1, 7), repeat=3):
        key = tdf.extra_point_result((g1, g2, red))
        if key:
            ep_back += Fraction(1, 216) * (odds("extra-point", key) + 1)
            ep_won += 1
    for b, bet in bets.items():
        if bet.kind is not WagerKind.FULL_GAME:
            continue
        if b == "touchdown":
            back, p = p_td * (odds(b) + 1), p_td
        elif b == "defense":
            back, p = (1 - p_td) * (odds(b) + 1), 1 - p_td
        elif b == "extra-point":
            back, p = p_td * ep_back, p_td * Fraction(ep_won, 216)
        elif b == "quick-strike":
            wins = {n: sum((q for (td, k, _), q in ends.items() if td and k == n), Fraction(0))
                    for n in range(1, 5)}
            back = sum((wins[n] * (odds(b, f"play {n}") + 1) for n in wins), Fraction(0))
            p = sum(wins.values(), Fraction(0))
        elif b == "game-changer":
            p = sum((q for (_, _, gc), q in ends.items() if gc), Fraction(0))
            back = p * (odds(b) + 1)
        else:
            n = int(b.rsplit("-", 1)[1])
            p = sum((q for (_, k, _), q in ends.items() if k == n), Fraction(0))
            back = p * (odds(b) + 1)
        rows.append(row(bet, table, ONE - back, p))
    singles = [b for b, bet in bets.items() if bet.kind is WagerKind.SINGLE_PLAY]

    def resolvers(play: Play) -> Resolve:
        return lambda bet: tdf.single_play_result(bet, play)

    rows += one_roll_rows(football_plays(), resolvers, bets, table, singles)
    return rows


# --- High Roll Dice ------------------------------------------------------------------------------


@cache
def dice_counts(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of n dice as counts of faces 1..6, with its number of orderings."""
    out = []

    def parts(left: int, slots: int):
        if slots == 1:
            yield (left,)
            return
        for k in range(left + 1):
            for rest in parts(left - k, slots - 1):
                yield (k, *rest)

    for counts in parts(n, 6):
        ways = factorial(n)
        for c in counts:
            ways //= factorial(c)
        out.append((counts, ways))
    return tuple(out)


def high_roll_dice(options: Options, game_id: str) -> list[Row]:
    game = games.get(game_id)
    bets, table = game.catalogue(options), paytable(game_id)
    n = game.dice

    def first_roll(counts: tuple[int, ...]) -> Resolve:
        dice = tuple(f for f, c in zip(range(1, 7), counts, strict=True) for _ in range(c))
        face, count = winning_face(dice)
        key = "none" if count == 1 else str(count)

        def resolve(bet: str) -> str | None:
            if bet.startswith("pip-"):
                return FACE_KEY[face] if bet == f"pip-{FACE_KEY[face]}" else None
            if bet.startswith("millionaire-"):
                return bet[12:] if bet[12:] == key else None
            return key if bet == f"like-kind-{key}" else None

        return resolve

    ids = [b for b in bets if b != "extra-roll"]
    rows = one_roll_rows(dice_counts(n), first_roll, bets, table, ids)
    if "extra-roll" in bets:
        rows += extra_roll_rows(bets, table, n)
    return rows


def extra_roll_rows(bets: Mapping[str, Bet], table: Mapping[str, PayEntry], n: int) -> list[Row]:
    """The Extra Roll bought with one Like Kind wager on circle K, figured on both (2 units)."""
    first: Counter[int] = Counter()
    for counts, ways in dice_counts(n):
        dice = tuple(f for f, c in zip(range(1, 7), counts, strict=True) for _ in range(c))
        first[winning_face(dice)[1]] += ways
    total = 6**n
    first_odds = table["like-kind"].lines
    extra_odds = table["like-kind-extra-roll"].lines
    rows = []
    for k in sorted(int(x) for x in extra_odds):
        back, p_win = Fraction(0), Fraction(0)
        for count, ways in first.items():
            p = Fraction(ways, total)
            if count == k:
                back += p * (first_odds[str(k)].odds + 1)
                p_win += p
            elif count < k:
                rest = n - count
                need = k - count
                hit = comb(rest, need) * Fraction(1, 6) ** need * Fraction(5, 6) ** (rest - need)
                back += p * hit * (extra_odds[str(k)].odds + 1)
                p_win += p * hit
        rows.append(row(bets["extra-roll"], table, ONE - back / 2, p_win, f"like-kind-{k}"))
    return rows


# --- Pai Gow dice --------------------------------------------------------------------------------


def pai_gow_dice(options: Options) -> list[Row]:
    bets = pgd.catalogue(options)
    outcomes = ((((r, (a, b))), 1) for r, a, b in product(range(1, 7), repeat=3))
    return one_roll_rows(outcomes, lambda o: pgd.resolver(o[0], o[1], options), bets,
                         paytable(pgd.ID), list(bets))


# --- reports -------------------------------------------------------------------------------------


#: each game's odds, by game id: the registry of this module
ROWS: dict[str, Callable[[Options], list[Row]]] = {
    "props-and-hops": props_and_hops,
    "three-dice-football": three_dice_football,
    "high-roll-dice": lambda options: high_roll_dice(options, "high-roll-dice"),
    "high-roll-dice-6": lambda options: high_roll_dice(options, "high-roll-dice-6"),
    "pai-gow-dice": pai_gow_dice,
}


def rows(game_id: str, options: Options) -> list[Row]:
    return ROWS[game_id](options)


def report(game: str, options: Mapping | None = None, where: str = "game") -> dict:
    """The odds of every wager of a game, as `dealer-trainer odds --json` prints them."""
    g = games.get(game, where)
    raw = dict(options or {})
    try:
        parsed = g.parse_options(raw)
    except RequestError as e:
        raise RequestError(e.field.replace("options.", "--option "), e.message) from None
    shown = {k: v for k, v in parsed.items() if k != "hop_regions"}
    if "hop_regions" in parsed:
        shown["hop_regions"] = {k: sorted(v) for k, v in parsed["hop_regions"].items()}
    return {"game": g.id, "name": g.name, "options": shown,
            "bets": [r.to_json() for r in rows(g.id, parsed)]}


def every_report() -> list[dict]:
    """Every game, and every paytable a property may choose."""
    return [report(g, options) for g in games.GAME_IDS for options in games.get(g).odds_options]


def render(rep: dict) -> str:
    """A report as a table an instructor reads."""
    g = games.get(rep["game"])
    bets = g.catalogue(g.parse_options({k: v for k, v in rep["options"].items()
                                        if k != "hop_regions"}))
    opts = ", ".join(f"{k}={v}" for k, v in rep["options"].items() if k != "hop_regions")
    lines = [f"{g.name} (58 Pa. Code ch. {g.chapter})" + (f" — {opts}" if opts else "")]
    lines.append(f"  {'Wager':<42} {'House edge':>11} {'Wins':>9}  Rule; odds")
    for b in rep["bets"]:
        bet = bets[b["bet"]]
        name = bet.name + (f" with {bets[b['with']].name}" if "with" in b else "")
        edge = Fraction(b["house_edge_fraction"])
        rule = bet.cite.replace("58 Pa. Code ", "")
        lines.append(f"  {name:<42} {decimal_text(edge * 100, 2):>10}% "
                     f"{decimal_text(Fraction(b['win_probability']) * 100, 2):>8}%  "
                     f"{rule}; {b['cite'].replace('58 Pa. Code ', '')}")
    if any(b.get("reconstructed") for b in rep["bets"]):
        lines.append("  Reconstructed: confirm against your property's Rules Submission.")
    together = sorted({bets[b["bet"]].name for b in rep["bets"] if "with" in b})
    lines.append("  Citations are to 58 Pa. Code." + "".join(
        f" A row \"{name} with …\" figures the two wagers together." for name in together))
    return "\n".join(lines)
