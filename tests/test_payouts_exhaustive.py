"""Every one-roll bet over every dice outcome, against an oracle written from the regulations.

The expected values below come from the regulation texts (../shared/regulations) and the engine's
binding readings (../shared/spec/interpretations.md), never from the engine. Each oracle is a few
lines that follow the regulation's words; the comments quote the deciding sentence.

Money: "A wager that pays X to Y wins amount × X / Y ... An exact payout that is not a whole cent is
rounded down to the cent" (interpretations.md, All games). Odd amounts ($3.35, $0.05, $0.01) are
used so that the breakage is exercised.
"""

from __future__ import annotations

import itertools
import random
import re
import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from trainer.settle import settle

ROOT = Path(__file__).resolve().parents[1]
_MONEY = re.compile(r"^\d+\.\d\d$")

# --- helpers: money and the lines of a response ---------------------------------------------------


def cents(text: object) -> int:
    """A contract dollar string ("5.00") in cents; anything else is a failure."""
    if not isinstance(text, str):
        raise AssertionError(f"not a dollar string with two decimals: {text!r}")
    return _cents(text)


@cache
def _cents(text: str) -> int:
    """cents() of a string, kept: the lines of every outcome name a few amounts, each many times."""
    if not _MONEY.match(text):
        raise AssertionError(f"not a dollar string with two decimals: {text!r}")
    whole, frac = text.split(".")
    return int(whole) * 100 + int(frac)


def request_cents(text: str) -> int:
    """A request amount ("1", "0.50", "3.35") in cents."""
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def dollars(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}"


def win(amount: int, odds: tuple[int, int]) -> int:
    """Winnings in cents of `amount` cents at odds X to Y, rounded down to the cent."""
    x, y = odds
    return amount * x // y


def settled(throw: dict, problems: list[str], label: str) -> dict:
    """{(seat, bet): ("collect", amount) | ("pay", amount, payout)} over the collect/pay steps."""
    out: dict = {}
    for step in throw.get("steps", []):
        action = step.get("action")
        if action not in ("collect", "pay"):
            continue
        for line in step.get("lines", []):
            key = (line["seat"], line["bet"])
            if not line.get("cite"):
                problems.append(f"{label}: seat {key[0]} {key[1]}: line has no cite")
            if action == "collect":
                value = ("collect", cents(line["amount"]))
            else:
                value = ("pay", cents(line["amount"]), cents(line["payout"]))
                if "odds" not in line:
                    problems.append(f"{label}: seat {key[0]} {key[1]}: pay line has no odds")
            if key in out:
                problems.append(f"{label}: seat {key[0]} {key[1]}: settled twice")
            out[key] = value
    return out


def show(value: tuple | None) -> str:
    if value is None:
        return "no line"
    if value[0] == "collect":
        return f"collect {dollars(value[1])}"
    return f"pay {dollars(value[2])} on {dollars(value[1])}"


def compare(label: str, got: dict, expected: dict, problems: list[str]) -> None:
    """Append one message per wager whose settlement differs (unexpected lines included)."""
    if got == expected:  # every wager as expected: no message (the common case, without a sort)
        return
    for key in sorted(set(got) | set(expected), key=str):
        if got.get(key) != expected.get(key):
            problems.append(
                f"{label}: seat {key[0]} {key[1]}: expected {show(expected.get(key))}, "
                f"got {show(got.get(key))}"
            )


def expect(amount: int, odds: tuple[int, int] | None) -> tuple:
    """The line a wager of `amount` cents should get: paid at `odds`, or collected (None)."""
    return ("collect", amount) if odds is None else ("pay", amount, win(amount, odds))


def assert_none(problems: list[str]) -> None:
    assert not problems, f"{len(problems)} mismatches, first ones:\n" + "\n".join(problems[:15])


def wager_list(seat_amounts: dict[int, str], bets: list[str]) -> list[dict]:
    return [
        {"seat": seat, "bet": bet, "amount": amount}
        for seat, amount in seat_amounts.items()
        for bet in bets
    ]


def check_one_throw(label, request, expected, problems, result_check=None) -> None:
    """Settle a one-throw request and compare its lines with `expected`."""
    try:
        response = settle(request)
    except Exception as exc:  # a crash on one outcome should not hide the others
        problems.append(f"{label}: settle raised {type(exc).__name__}: {exc}")
        return
    throws = response.get("throws", [])
    if len(throws) < 1 or not throws[0].get("valid"):
        problems.append(f"{label}: first throw missing or not valid: {throws[:1]}")
        return
    compare(label, settled(throws[0], problems, label), expected, problems)
    if response.get("refused"):
        problems.append(f"{label}: unexpected refusals {response['refused']}")
    if result_check is not None:
        msg = result_check(throws[0].get("result", {}))
        if msg:
            problems.append(f"{label}: {msg}")


# === Props & Hops (ch. 668a): all 36 ordered outcomes of two dice ================================

PH_DOUBLES = [f"double-{a}-{a}" for a in range(1, 7)]
PH_ANY = [f"any-{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)]
PH_HOPS = ["hop-top", "hop-left", "hop-right", "hop-center"]
PH_FAMILIES = {
    "double": PH_DOUBLES,
    "any-number": PH_ANY,
    "field": ["field"],
    "hop": PH_HOPS,
    "under-over": ["one-six-and-under", "three-four-and-over"],
}
PH_ALL_BETS = [bet for bets in PH_FAMILIES.values() for bet in bets]
PH_SEATS = {1: "7.00", 2: "3.35", 3: "0.01", 6: "25.55"}
OUTCOMES_2 = list(itertools.product(range(1, 7), repeat=2))


def combo(text: str) -> tuple[int, int]:
    a, b = (int(v) for v in text.split("-"))
    return (min(a, b), max(a, b))


def default_hop_regions() -> dict[str, set[tuple[int, int]]]:
    """The default layout's regions (resources/layouts/props-and-hops.toml, § 668a.1(b))."""
    data = tomllib.loads((ROOT / "resources/layouts/props-and-hops.toml").read_text())
    return {name: {combo(c) for c in combos} for name, combos in data["hop_regions"].items()}


def ph_odds(bet: str, d1: int, d2: int, regions) -> tuple[int, int] | None:
    """Odds a Props & Hops one-roll wager wins at on dice (d1, d2), or None if it loses."""
    pair = (min(d1, d2), max(d1, d2))
    total = d1 + d2
    if bet.startswith("double-"):
        # § 668a.2(d): the Hardway bet on a-a wins only on a on each die; § 668a.4: 30 to 1.
        return (30, 1) if pair == combo(bet.removeprefix("double-")) else None
    if bet.startswith("any-"):
        # § 668a.2(e): wins only on that combination; § 668a.4: 15 to 1.
        return (15, 1) if pair == combo(bet.removeprefix("any-")) else None
    if bet == "field":
        # § 668a.2(f)(1): 2, 3, 4, 9, 10, 11, 12 win; § 668a.4: 2 to 1 on 2 or 12, else 1 to 1.
        if total in (2, 12):
            return (2, 1)
        return (1, 1) if total in (3, 4, 9, 10, 11) else None
    if bet.startswith("hop-"):
        # § 668a.2(f)(2)-(5): wins if the combination is in the region; § 668a.4.
        region = bet.removeprefix("hop-")
        odds = (3, 2) if region in ("top", "center") else (2, 1)
        return odds if pair in regions[region] else None
    if bet == "one-six-and-under":
        # § 668a.2(f)(6): "the 1-6 ... or any other combination ... whose total is under 7".
        return (1, 1) if pair == (1, 6) or total < 7 else None
    if bet == "three-four-and-over":
        # § 668a.2(f)(7): "the 3-4 ... or any other combination ... greater than 7".
        return (1, 1) if pair == (3, 4) or total > 7 else None
    raise AssertionError(bet)


def test_default_hop_regions_are_sane():
    """The default regions are 13-14 ways at 3 to 2 and 10-11 ways at 2 to 1 (interpretations)."""
    regions = default_hop_regions()
    ways = {name: sum(1 if a == b else 2 for a, b in r) for name, r in regions.items()}
    assert set(ways) == {"top", "left", "right", "center"}
    assert 13 <= ways["top"] <= 14 and 13 <= ways["center"] <= 14, ways
    assert 10 <= ways["left"] <= 11 and 10 <= ways["right"] <= 11, ways


@cache
def ph_response(d1: int, d2: int) -> dict:
    """One round: seats 1, 2, 3 and 6 each hold every one-roll bet; no hop_regions option."""
    return settle(
        {
            "game": "props-and-hops",
            "options": {},
            "wagers": wager_list(PH_SEATS, PH_ALL_BETS),
            "throws": [{"dice": [d1, d2]}],
        }
    )


@pytest.mark.parametrize("family", list(PH_FAMILIES))
def test_props_and_hops_every_outcome(family):
    regions = default_hop_regions()
    bets = PH_FAMILIES[family]
    problems: list[str] = []
    for d1, d2 in OUTCOMES_2:
        label = f"dice {d1}-{d2}"
        response = ph_response(d1, d2)
        throw = response["throws"][0]
        assert throw["valid"], label
        if throw["result"].get("total") != d1 + d2:
            problems.append(f"{label}: result.total {throw['result'].get('total')}")
        got = {k: v for k, v in settled(throw, problems, label).items() if k[1] in bets}
        expected = {
            (seat, bet): expect(cents(amount), ph_odds(bet, d1, d2, regions))
            for seat, amount in PH_SEATS.items()
            for bet in bets
        }
        compare(label, got, expected, problems)
        if response["refused"] or response["open"]:
            problems.append(f"{label}: refused/open not empty")
    assert_none(problems)


def test_props_and_hops_every_line_is_accounted_for():
    """Each of the 28 one-roll wagers of each seat is settled exactly once on every outcome."""
    problems: list[str] = []
    for d1, d2 in OUTCOMES_2:
        label = f"dice {d1}-{d2}"
        got = settled(ph_response(d1, d2)["throws"][0], problems, label)
        want = {(seat, bet) for seat in PH_SEATS for bet in PH_ALL_BETS}
        if set(got) != want:
            problems.append(f"{label}: missing {sorted(want - set(got))[:3]}, "
                            f"extra {sorted(set(got) - want)[:3]}")
    assert_none(problems)


def test_props_and_hops_hop_regions_option_replaces_the_default():
    """options.hop_regions replaces the layout's regions (settle contract)."""
    regions = {"top": ["6-6"], "left": ["1-2", "2-1"], "right": ["3-3"], "center": ["4-5"]}
    parsed = {name: {combo(c) for c in combos} for name, combos in regions.items()}
    problems: list[str] = []
    for d1, d2 in OUTCOMES_2:
        label = f"custom regions, dice {d1}-{d2}"
        request = {
            "game": "props-and-hops",
            "options": {"hop_regions": regions},
            "wagers": wager_list({4: "3.35"}, PH_HOPS),
            "throws": [{"dice": [d1, d2]}],
        }
        expected = {
            (4, bet): expect(335, ph_odds(bet, d1, d2, parsed)) for bet in PH_HOPS
        }
        check_one_throw(label, request, expected, problems)
    assert_none(problems)


def test_props_and_hops_breakage_examples():
    """Worked by hand: 3 to 2 on $3.35 is $5.025, paid $5.02; 2 to 1 on $3.35 is $6.70."""
    regions = default_hop_regions()
    top = sorted(regions["top"])[0]
    left = sorted(regions["left"])[0]
    throw = ph_response(*top)["throws"][0]
    got = settled(throw, [], "top")
    assert got[(2, "hop-top")] == ("pay", 335, 502)
    assert got[(3, "hop-top")] == ("pay", 1, 1)  # 1.5 cents rounds down
    throw = ph_response(*left)["throws"][0]
    got = settled(throw, [], "left")
    assert got[(2, "hop-left")] == ("pay", 335, 670)


# === Pai Gow Poker dice wagers (§ 645c.2, reconstructed): all 216 outcomes =======================

OUTCOMES_3 = list(itertools.product(range(1, 7), repeat=3))  # (red, blue a, blue b)
PGD_SEATS = {1: "7.00", 2: "3.35", 5: "0.05"}


def pgd_sum_odds(table: str, red: int, a: int, b: int) -> tuple[int, int] | None:
    """The Sum wager (interpretations.md, Pai Gow, reconstructed)."""
    dice = (red, a, b)
    total = sum(dice)
    if table == "A":  # 17 pays 25 to 1, 16 pays 6 to 1, 8 pays 3 to 1
        return {17: (25, 1), 16: (6, 1), 8: (3, 1)}.get(total)
    if table == "B":  # 3 pays 25 to 1, 8 pays 4 to 1, 9 pays 2 to 1
        return {3: (25, 1), 8: (4, 1), 9: (2, 1)}.get(total)
    if table == "C":  # three of a kind 3 to 1, exactly a pair 1 to 1
        distinct = len(set(dice))
        return {1: (3, 1), 2: (1, 1)}.get(distinct)
    if table == "D":  # three consecutive values ("a series of three") 15 to 2
        s = sorted(dice)
        return (15, 2) if s[1] == s[0] + 1 and s[2] == s[1] + 1 else None
    raise AssertionError(table)


def pgd_match_odds(n: int, red: int, a: int, b: int) -> tuple[int, int] | None:
    """Match on N: all three dice N 100 to 1; exactly two dice N 6 to 1."""
    return {3: (100, 1), 2: (6, 1)}.get((red, a, b).count(n))


def pgd_beat_it_odds(table: str, red: int, a: int, b: int) -> tuple[int, int] | None:
    """Beat It (interpretations.md): A/B red vs sum of the blue dice; C any die beats the rest."""
    if table in ("A", "B"):
        lead = red - (a + b)
        if lead >= 4:
            return (50, 1) if table == "A" else (60, 1)
        if lead in (2, 3):
            return (10, 1)
        if lead in (0, 1):
            return (1, 1)
        return None
    if table == "C":
        dice = (red, a, b)
        beats = any(d - (sum(dice) - d) >= 1 for d in dice)
        return (5, 2) if beats else None
    raise AssertionError(table)


def pgd_check(bets, options, odds_of) -> list[str]:
    problems: list[str] = []
    for red, a, b in OUTCOMES_3:
        label = f"{options} red {red} blue {a},{b}"
        request = {
            "game": "pai-gow-dice",
            "options": options,
            "wagers": wager_list(PGD_SEATS, bets),
            "throws": [{"red": red, "blue": [a, b]}],
        }
        expected = {
            (seat, bet): expect(cents(amount), odds_of(bet, red, a, b))
            for seat, amount in PGD_SEATS.items()
            for bet in bets
        }

        def result_check(result, red=red, a=a, b=b):
            if result.get("total") != red + a + b:
                return f"result.total {result.get('total')} (expected {red + a + b})"
            return None

        check_one_throw(label, request, expected, problems, result_check)
    return problems


@pytest.mark.parametrize("table", ["A", "B", "C", "D"])
def test_pai_gow_sum_every_outcome(table):
    options = {} if table == "A" else {"sum_paytable": table}  # A is the default
    assert_none(pgd_check(["sum"], options, lambda _bet, *d: pgd_sum_odds(table, *d)))


def test_pai_gow_match_every_outcome():
    bets = [f"match-{n}" for n in range(1, 7)]
    assert_none(pgd_check(bets, {}, lambda bet, *d: pgd_match_odds(int(bet[-1]), *d)))


@pytest.mark.parametrize("table", ["A", "B", "C"])
def test_pai_gow_beat_it_every_outcome(table):
    options = {"beat_it_paytable": table}
    assert_none(pgd_check(["beat-it"], options, lambda _bet, *d: pgd_beat_it_odds(table, *d)))


def test_pai_gow_breakage_examples():
    """15 to 2 on $3.35 is $25.125 -> $25.12; 5 to 2 on $3.35 is $8.375 -> $8.37 (by hand)."""
    assert win(335, pgd_sum_odds("D", 2, 3, 4)) == 2512
    assert win(335, pgd_beat_it_odds("C", 6, 1, 2)) == 837


# === Three Dice Football (ch. 577): the first throw of a game, all 216 outcomes ==================

TDF_SINGLE = [
    "trips-td", "penalty", "turnover", "cover-three",
    "no-gain", "big-play", "over-four-yards", "under-four-yards",
]
TDF_SEATS = {1: "7.00", 2: "3.35", 16: "0.05"}


def tdf_kind(g1: int, g2: int, red: int) -> tuple[str, int]:
    """(kind, yards gained) in the interpretation's reading order; yards = max(0, green - red)."""
    green = g1 + g2
    if g1 == g2 == red:  # Trips TD: all three dice equal
        return "trips", green - red
    if red == 6 and green in (2, 3):  # Turnover: red 6 and green total 2 or 3
        return "turnover", 0
    if green < red:  # Penalty: green total below red
        return "penalty", 0
    if green == red:  # No gain
        return "no-gain", 0
    return "gain", green - red


def tdf_single_odds(bet: str, g1: int, g2: int, red: int) -> tuple[int, int] | None:
    """§ 577.3(d) and § 577.8(b), as read in interpretations.md ("on the dice, not the field")."""
    kind, yards = tdf_kind(g1, g2, red)
    trips = kind == "trips"
    if bet == "trips-td":  # (d)(1) wins if a Trips TD is scored; 30 to 1
        return (30, 1) if trips else None
    if bet == "penalty":  # (d)(2) a penalty or turnover; 9 to 1
        return (9, 1) if kind in ("penalty", "turnover") else None
    if bet == "turnover":  # (d)(3) a turnover; 60 to 1
        return (60, 1) if kind == "turnover" else None
    if bet == "cover-three":  # (d)(4) a Trips TD, a penalty or a turnover; 7 to 1
        return (7, 1) if kind in ("trips", "penalty", "turnover") else None
    if bet == "no-gain":  # (d)(5) zero yards gained, a penalty or a turnover; 5 to 1
        return (5, 1) if kind in ("no-gain", "penalty", "turnover") else None
    if bet == "big-play":  # (d)(6) 7 yards or more, or a Trips TD; 4 to 1
        return (4, 1) if trips or (kind == "gain" and yards >= 7) else None
    if bet == "over-four-yards":  # (d)(7) 5 yards or more (1 to 1), or a Trips TD (7 to 1)
        if trips:
            return (7, 1)
        return (1, 1) if kind == "gain" and yards >= 5 else None
    if bet == "under-four-yards":  # (d)(8) 3 yards or less, a penalty or turnover; not Trips
        return (1, 1) if not trips and yards <= 3 else None
    raise AssertionError(bet)


@pytest.mark.parametrize("bet", TDF_SINGLE)
def test_three_dice_football_single_play_first_throw(bet):
    problems: list[str] = []
    for red, g1, g2 in OUTCOMES_3:
        label = f"{bet}: green {g1},{g2} red {red}"
        request = {
            "game": "three-dice-football",
            "options": {},
            "wagers": wager_list(TDF_SEATS, [bet]),
            "throws": [{"green": [g1, g2], "red": red}],
        }
        expected = {
            (seat, bet): expect(cents(amount), tdf_single_odds(bet, g1, g2, red))
            for seat, amount in TDF_SEATS.items()
        }
        kind, yards = tdf_kind(g1, g2, red)

        def result_check(result, kind=kind, yards=yards):
            if result.get("kind") != kind:
                return f"result.kind {result.get('kind')!r}, expected {kind!r}"
            if kind == "gain" and result.get("yards") != yards:
                return f"result.yards {result.get('yards')!r}, expected {yards}"
            if result.get("play") != 1:
                return f"result.play {result.get('play')!r}, expected 1"
            return None

        check_one_throw(label, request, expected, problems, result_check)
    assert_none(problems)


def test_three_dice_football_all_single_play_bets_together():
    """All eight single play bets on one seat, every outcome: settled exactly as when alone."""
    problems: list[str] = []
    for red, g1, g2 in OUTCOMES_3:
        label = f"green {g1},{g2} red {red}"
        request = {
            "game": "three-dice-football",
            "options": {},
            "wagers": wager_list({9: "3.35"}, TDF_SINGLE),
            "throws": [{"green": [g1, g2], "red": red}],
        }
        expected = {(9, b): expect(335, tdf_single_odds(b, g1, g2, red)) for b in TDF_SINGLE}
        check_one_throw(label, request, expected, problems)
    assert_none(problems)


# === High Roll Dice (ch. 675a) ===================================================================

#: § 675a.2(d): ace (1) is the highest, then 6, 5, 4, 3, with 2 the lowest.
HRD_RANK = {1: 6, 6: 5, 5: 4, 4: 3, 3: 2, 2: 1}
PIP_BET = {1: "pip-ace", 2: "pip-2", 3: "pip-3", 4: "pip-4", 5: "pip-5", 6: "pip-6"}
FACE_NAME = {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
#: § 675a.5(a) / (b) / (c), 10 dice
HRD10_PIP = {2: (6, 1), 3: (6, 1), 4: (5, 1), 5: (4, 1), 6: (4, 1), 1: (3, 1)}
HRD10_LK = {8: (5000, 1), 7: (400, 1), 6: (30, 1), 5: (4, 1), 4: (1, 1), 3: (3, 5), 2: (12, 1)}
HRD10_MILLIONAIRE = {10: 1_000_000, 9: 50_000}  # dollars for $1, "in proportion" for less
#: § 675a.6(j) / (k), 6 dice; count 1 is the "no match" circle
HRD6_PIP = {2: (8, 1), 3: (6, 1), 4: (5, 1), 5: (4, 1), 6: (3, 1), 1: (2, 1)}
HRD6_LK = {6: (6000, 1), 5: (200, 1), 4: (15, 1), 3: (2, 1), 2: (1, 2), 1: (60, 1)}
HRD6_LK_BET = {1: "like-kind-none", **{k: f"like-kind-{k}" for k in range(2, 7)}}


def winning_face(dice) -> tuple[int, int]:
    """The face on the most dice, a tie to the higher rank (§ 675a.2(e)(1)), and its count."""
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], HRD_RANK[f]))
    return face, counts[face]


def test_winning_face_matches_the_regulation_examples():
    # § 675a.2(e)(1): three 6s and four 4s -> 4s; three 6s and three 1s -> 1s.
    assert winning_face([6, 6, 6, 4, 4, 4, 4, 2, 3, 5]) == (4, 4)
    assert winning_face([6, 6, 6, 1, 1, 1, 2, 3, 4, 5]) == (1, 3)
    # § 675a.4(e): four 5s, three 6s, two 1s and one 4 -> the 5s.
    assert winning_face([5, 5, 5, 5, 6, 6, 6, 1, 1, 4]) == (5, 4)


def hrd_result_check(face: int, count: int):
    def check(result):
        if result.get("face") != FACE_NAME[face] or result.get("count") != count:
            return (f"result face/count {result.get('face')!r}/{result.get('count')!r}, "
                    f"expected {FACE_NAME[face]!r}/{count}")
        return None

    return check


HRD6_BETS = [PIP_BET[f] for f in range(1, 7)] + [HRD6_LK_BET[k] for k in range(1, 7)]
HRD6_AMOUNTS = ["3.35", "7.00", "0.05"]


def hrd6_expected(dice, seat: int, amount: int) -> dict:
    face, count = winning_face(dice)
    expected = {
        (seat, PIP_BET[f]): expect(amount, HRD6_PIP[f] if f == face else None) for f in range(1, 7)
    }
    for k, bet in HRD6_LK_BET.items():
        expected[(seat, bet)] = expect(amount, HRD6_LK[k] if k == count else None)
    return expected


@pytest.mark.parametrize("first_die", range(1, 7))
def test_high_roll_dice_6_every_outcome(first_die):
    """All 6^6 outcomes (7776 per first die): every Pip Street and Like Kind circle.

    § 675a.6(d) and § 675a.1(b)(2)(iv): all of a player's wagers must be of equal value, so one seat
    holds all twelve at one amount; seat and amount rotate (1-6; $3.35, $7.00, $0.05).
    """
    problems: list[str] = []
    rest = itertools.product(range(1, 7), repeat=5)
    for i, tail in enumerate(rest):
        dice = [first_die, *tail]
        seat = 1 + i % 6
        amount = HRD6_AMOUNTS[i % 3]
        request = {
            "game": "high-roll-dice-6",
            "options": {},
            "wagers": wager_list({seat: amount}, HRD6_BETS),
            "throws": [{"dice": dice}],
        }
        check_one_throw(
            f"dice {dice}", request, hrd6_expected(dice, seat, cents(amount)), problems,
            hrd_result_check(*winning_face(dice)),
        )
        if len(problems) > 50:
            break
    assert_none(problems)


HRD10_PIPS_AND_LK = [PIP_BET[f] for f in range(1, 7)] + [f"like-kind-{k}" for k in range(2, 9)]
HRD10_FAMILIES = {
    "pip": [PIP_BET[f] for f in range(1, 7)],
    "like-kind": [f"like-kind-{k}" for k in range(2, 9)],
    "millionaire": ["millionaire-9", "millionaire-10"],
}
#: seat: (amount of the Pip Street and Like Kind wagers, amount of each Millionaire Row wager)
HRD10_SEATS = {1: ("7.00", "1"), 2: ("3.35", "0.50")}
MULTISETS_10 = list(itertools.combinations_with_replacement(range(1, 7), 10))


def hrd10_wagers() -> list[dict]:
    wagers = []
    for seat, (amount, millionaire) in HRD10_SEATS.items():
        wagers += [{"seat": seat, "bet": b, "amount": amount} for b in HRD10_PIPS_AND_LK]
        wagers += [
            {"seat": seat, "bet": b, "amount": millionaire}
            for b in ("millionaire-9", "millionaire-10")
        ]
    return wagers


def hrd10_odds(bet: str, face: int, count: int):
    if bet.startswith("pip-"):  # § 675a.2(e)(1): wins when its face occurs the most
        f = 1 if bet == "pip-ace" else int(bet[-1])
        return HRD10_PIP[f] if f == face else None
    if bet.startswith("like-kind-"):  # circle K wins when the count is K; 9, 10 match no circle
        k = int(bet.removeprefix("like-kind-"))
        return HRD10_LK[k] if k == count else None
    if bet.startswith("millionaire-"):
        # § 675a.2(e)(4)/675a.4(f)(3): "nine matching dice" pays the nine circle only; the odds
        # command gives "the exact probability of the count", so 10 of a kind does not pay the 9.
        n = int(bet.removeprefix("millionaire-"))
        return (HRD10_MILLIONAIRE[n], 1) if n == count else None
    raise AssertionError(bet)


@cache
def hrd10_response(multiset: tuple[int, ...]) -> dict:
    dice = list(multiset)
    random.Random(hash(multiset) & 0xFFFF).shuffle(dice)  # order must not matter
    return settle(
        {
            "game": "high-roll-dice",
            "options": {},
            "wagers": hrd10_wagers(),
            "throws": [{"dice": dice}],
        }
    )


def test_there_are_3003_multisets_of_ten_dice():
    assert len(MULTISETS_10) == 3003


@pytest.mark.xdist_group("hrd10-multisets")  # one worker settles the 3,003 multisets, once
@pytest.mark.parametrize("family", list(HRD10_FAMILIES))
def test_high_roll_dice_10_every_multiset(family):
    """All 3003 multisets of 10 dice (each stands for all its orderings); no extra roll."""
    bets = HRD10_FAMILIES[family]
    problems: list[str] = []
    for multiset in MULTISETS_10:
        label = f"dice {''.join(map(str, multiset))}"
        face, count = winning_face(multiset)
        try:
            response = hrd10_response(multiset)
        except Exception as exc:
            problems.append(f"{label}: settle raised {type(exc).__name__}: {exc}")
            continue
        throw = response["throws"][0]
        msg = hrd_result_check(face, count)(throw.get("result", {}))
        if msg:
            problems.append(f"{label}: {msg}")
        got = {k: v for k, v in settled(throw, problems, label).items() if k[1] in bets}
        expected = {}
        for seat, (amount, millionaire) in HRD10_SEATS.items():
            a = request_cents(millionaire if family == "millionaire" else amount)
            for bet in bets:
                expected[(seat, bet)] = expect(a, hrd10_odds(bet, face, count))
        compare(label, got, expected, problems)
        if response["refused"] or response["open"] or len(response["throws"]) != 1:
            problems.append(f"{label}: refused/open not empty")
    assert_none(problems)


def test_high_roll_dice_10_millionaire_amounts():
    """$1,000,000 for $1 ten of a kind; $0.50 gets half (interpretations: 'in proportion')."""
    got = settled(hrd10_response((4,) * 10)["throws"][0], [], "ten 4s")
    assert got[(1, "millionaire-10")] == ("pay", 100, 100_000_000)
    assert got[(2, "millionaire-10")] == ("pay", 50, 50_000_000)
    got = settled(hrd10_response((2,) * 9 + (1,))["throws"][0], [], "nine 2s")
    assert got[(1, "millionaire-9")] == ("pay", 100, 5_000_000)
    assert got[(2, "millionaire-9")] == ("pay", 50, 2_500_000)
    assert got[(2, "like-kind-3")] == ("collect", 335)


PERMUTATION_SAMPLES = [
    (1, 1, 6, 6, 5, 5, 4, 4, 3, 2),  # four pairs: ace wins on rank
    (2, 2, 2, 3, 3, 3, 4, 5, 6, 6),  # 2s and 3s tie at three: 3 ranks higher
    (6, 6, 6, 6, 6, 6, 6, 6, 1, 2),
    (5, 5, 5, 5, 5, 5, 5, 5, 5, 3),
    (1, 2, 3, 4, 5, 6, 1, 2, 3, 4),
]


@pytest.mark.parametrize("multiset", PERMUTATION_SAMPLES, ids=lambda m: "".join(map(str, m)))
def test_high_roll_dice_10_order_of_dice_does_not_matter(multiset):
    rng = random.Random(20240601)
    answers = []
    for _ in range(6):
        dice = list(multiset)
        rng.shuffle(dice)
        response = settle(
            {"game": "high-roll-dice", "options": {}, "wagers": hrd10_wagers(),
             "throws": [{"dice": dice}]}
        )
        throw = response["throws"][0]
        answers.append((settled(throw, [], str(dice)), throw["result"].get("face"),
                        throw["result"].get("count")))
    reference = answers[0]
    assert all(a == reference for a in answers)
    face, count = winning_face(multiset)
    assert reference[1:] == (FACE_NAME[face], count)
