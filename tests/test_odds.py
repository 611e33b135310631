"""`trainer.odds.report` and `dealer-trainer odds`: exact house edges, held to the published
figures, to interpretations.md, and to oracles computed here independently of the engine.

Every comparison is done in exact rational arithmetic (fractions.Fraction); floats never decide a
test. Percentages are compared at two decimals, rounded half up from the exact value.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tomllib
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from trainer.errors import RequestError
from trainer.odds import report

ROOT = Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "resources"
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6", "pai-gow-dice")
CITE_PREFIX = "58 Pa. Code §"

# --- the bet ids of the settle contract ---------------------------------------------------------
PH_DOUBLES = [f"double-{n}-{n}" for n in range(1, 7)]
PH_ANY = [f"any-{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)]
PH_HOPS = ["hop-top", "hop-left", "hop-right", "hop-center"]
BET_IDS = {
    "props-and-hops": [*PH_DOUBLES, *PH_ANY, "field", *PH_HOPS, "one-six-and-under",
                       "three-four-and-over", "six-eight-shake"],
    "three-dice-football": ["touchdown", "defense", "extra-point", "quick-strike", "game-changer",
                            *(f"game-length-{n}" for n in range(1, 7)),
                            "trips-td", "penalty", "turnover", "cover-three", "no-gain", "big-play",
                            "over-four-yards", "under-four-yards"],
    "high-roll-dice": ["pip-ace", *(f"pip-{n}" for n in range(2, 7)),
                       *(f"like-kind-{n}" for n in range(2, 9)), "millionaire-9", "millionaire-10"],
    "high-roll-dice-6": ["pip-ace", *(f"pip-{n}" for n in range(2, 7)),
                         *(f"like-kind-{n}" for n in range(2, 7)), "like-kind-none"],
    "pai-gow-dice": ["sum", *(f"match-{n}" for n in range(1, 7)), "beat-it"],
}


# --- helpers --------------------------------------------------------------------------------------


@cache
def _report(game: str, options: tuple = ()) -> dict:
    return report(game, dict(options) if options else None)


def rows(game: str, **options: str) -> dict[str, dict]:
    """The report's rows by bet id, leaving out rows figured together with another wager."""
    out: dict[str, dict] = {}
    for row in _report(game, tuple(sorted(options.items())))["bets"]:
        if "with" in row:
            continue
        assert row["bet"] not in out, f"{game}: two rows for {row['bet']} without 'with'"
        out[row["bet"]] = row
    return out


def edge(row: dict) -> Fraction:
    return Fraction(row["house_edge_fraction"])


def pct2(x: Fraction | Decimal) -> str:
    """An exact value as a percentage with two decimals, rounded half up: 1/18 -> "5.56"."""
    q = Fraction(x) * 10000
    n = math.floor(q + Fraction(1, 2))
    sign = "-" if n < 0 else ""
    n = abs(n)
    return f"{sign}{n // 100}.{n % 100:02d}"


def decimal_places(text: str) -> int:
    return len(text.partition(".")[2])


def agrees(text: str, exact: Fraction) -> bool:
    """A decimal string agrees with an exact value to its last place (rounded or truncated)."""
    return abs(Fraction(Decimal(text)) - exact) <= Fraction(1, 10 ** decimal_places(text))


def assert_row(row: dict, house_edge: Fraction, win_probability: Fraction | None = None) -> None:
    assert edge(row) == house_edge, (row["bet"], row["house_edge_fraction"], house_edge)
    assert agrees(row["house_edge"], house_edge), (row["bet"], row["house_edge"], house_edge)
    if win_probability is not None:
        assert agrees(row["win_probability"], win_probability), (
            row["bet"], row["win_probability"], win_probability)


def one_to_one_edge(p_win: Fraction, odds: Fraction) -> Fraction:
    """The house edge of a wager that wins `odds` with probability p_win and loses otherwise."""
    return 1 - (odds + 1) * p_win


# --- the published figures ------------------------------------------------------------------------


def test_props_and_hops_published_figures():
    ph = rows("props-and-hops")
    assert pct2(edge(ph["field"])) == "5.56"
    assert pct2(Decimal(ph["field"]["house_edge"])) == "5.56"
    assert edge(ph["field"]) == Fraction(1, 18)
    for bet in PH_DOUBLES:
        assert pct2(edge(ph[bet])) == "13.89", bet
        assert pct2(Decimal(ph[bet]["house_edge"])) == "13.89", bet
        assert edge(ph[bet]) == Fraction(5, 36), bet
    for bet in PH_ANY:
        assert pct2(edge(ph[bet])) == "11.11", bet
        assert pct2(Decimal(ph[bet]["house_edge"])) == "11.11", bet
        assert edge(ph[bet]) == Fraction(1, 9), bet


def _ways(combo: str) -> int:
    a, b = combo.split("-")
    return 1 if a == b else 2


def test_props_and_hops_field_and_under_over_oracle():
    ph = rows("props-and-hops")
    dice = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    # Field: 2 or 12 pays 2 to 1; 3, 4, 9, 10, 11 pay 1 to 1.
    ev = sum(2 if a + b in (2, 12) else 1 if a + b in (3, 4, 9, 10, 11) else -1 for a, b in dice)
    assert_row(ph["field"], Fraction(-ev, 36), Fraction(16, 36))
    # interpretations.md: 1-6 and Under wins on 1-6 or 2-6; 3-4 and Over on 3-4 or 8-12, 1 to 1.
    under = sum(1 for a, b in dice if {a, b} == {1, 6} or a + b < 7)
    over = sum(1 for a, b in dice if {a, b} == {3, 4} or a + b > 7)
    assert under == over == 17
    assert_row(ph["one-six-and-under"], one_to_one_edge(Fraction(17, 36), Fraction(1)),
               Fraction(17, 36))
    assert_row(ph["three-four-and-over"], one_to_one_edge(Fraction(17, 36), Fraction(1)),
               Fraction(17, 36))


def test_default_hop_regions_are_a_few_percent():
    regions = tomllib.loads((RESOURCES / "layouts" / "props-and-hops.toml").read_text())["hop_regions"]
    odds = {"top": Fraction(3, 2), "center": Fraction(3, 2), "left": Fraction(2), "right": Fraction(2)}
    expected = {}
    for region, pays in odds.items():
        ways = sum(_ways(c) for c in set(regions[region]))
        expected[region] = one_to_one_edge(Fraction(ways, 36), pays)
    # the default example layout: Top and Center 14 ways at 3 to 2, Left and Right 11 at 2 to 1
    assert expected == {"top": Fraction(1, 36), "center": Fraction(1, 36),
                        "left": Fraction(3, 36), "right": Fraction(3, 36)}
    ph = rows("props-and-hops")
    for region, he in expected.items():
        row = ph[f"hop-{region}"]
        assert_row(row, he)
        assert 0 < edge(row) < Fraction(1, 10), (region, row["house_edge"])
    assert pct2(edge(ph["hop-top"])) == pct2(edge(ph["hop-center"])) == "2.78"
    assert pct2(edge(ph["hop-left"])) == pct2(edge(ph["hop-right"])) == "8.33"


# Six Eight Shake: 150 to 1 when 1-5, 2-4, 3-3, 2-6, 3-5 and 4-4 all come before a 7.
SES_WAYS = {"1-5": 2, "2-4": 2, "3-3": 1, "2-6": 2, "3-5": 2, "4-4": 1}


@cache
def _ses_all_before_seven(remaining: frozenset[str]) -> Fraction:
    """P(every combination in `remaining` is thrown before a 7), by DP over subsets."""
    if not remaining:
        return Fraction(1)
    # Only throws of a 7 or of a remaining combination change the state.
    relevant = 6 + sum(SES_WAYS[c] for c in remaining)
    return sum(
        (Fraction(SES_WAYS[c], relevant) * _ses_all_before_seven(remaining - {c}) for c in remaining),
        Fraction(0),
    )


def test_six_eight_shake_oracle():
    p = _ses_all_before_seven(frozenset(SES_WAYS))
    assert 0 < p < Fraction(1, 150)
    row = rows("props-and-hops")["six-eight-shake"]
    assert_row(row, one_to_one_edge(p, Fraction(150)), p)
    assert edge(row) > 0


# --- Three Dice Football ----------------------------------------------------------------------------


@cache
def _tdf_games(yard: int = 20, down: int = 1, goal: bool = False, plays: int = 0):
    """Exact distribution of (touchdown?, plays, trips-or-turnover?) under interpretations.md."""
    out: Counter = Counter()
    p = Fraction(1, 216)
    for a in range(1, 7):
        for b in range(1, 7):
            for r in range(1, 7):
                n, green = plays + 1, a + b
                if a == b == r:
                    out[(True, n, True)] += p
                    continue
                if r == 6 and green in (2, 3):
                    out[(False, n, True)] += p
                    continue
                y = yard + 1 if green < r else yard - (green - r) if green > r else yard
                if y <= 0:
                    out[(True, n, False)] += p
                    continue
                if not goal and y <= 10:
                    nxt_goal, nxt_down = True, 1
                else:
                    nxt_goal, nxt_down = goal, down + 1
                if nxt_down > 3:
                    out[(False, n, False)] += p
                    continue
                for k, v in _tdf_games(y, nxt_down, nxt_goal, n).items():
                    out[k] += v * p
    return out


def _tdf_p_touchdown() -> Fraction:
    return sum((v for (td, _, _), v in _tdf_games().items() if td), Fraction(0))


def test_touchdown_matches_contract_example():
    row = rows("three-dice-football")["touchdown"]
    p_td = _tdf_p_touchdown()
    he = 1 - 2 * p_td
    # Own oracle against the contract example's win probability, to 10 places.
    assert f"{Decimal(p_td.numerator) / Decimal(p_td.denominator):.10f}" == "0.4819134403"
    assert Decimal(row["win_probability"]).quantize(Decimal("1e-10")) == Decimal("0.4819134403")
    assert decimal_places(row["house_edge"]) >= 10
    # The contract prints house_edge 0.0361731191; 1 - 2 x 0.4819134403... is 0.03617311937...,
    # so the example agrees with the exact value to 9 places. Hold the engine to 9 places against
    # the example and to the last place against the exact value.
    assert row["house_edge"].startswith("0.036173119")
    assert abs(Fraction(Decimal(row["house_edge"])) - he) < Fraction(1, 10 ** 10)
    assert_row(row, he, p_td)
    assert pct2(edge(row)) == "3.62"


def test_touchdown_cite_as_in_contract_example():
    # settle-contract.md's `odds --json` example: "cite": "58 Pa. Code § 577.8(a)"
    assert rows("three-dice-football")["touchdown"]["cite"] == "58 Pa. Code § 577.8(a)"


def test_defense_and_game_length_figures():
    tdf = rows("three-dice-football")
    p_td = _tdf_p_touchdown()
    assert pct2(edge(tdf["defense"])) == "6.74"
    assert_row(tdf["defense"], Fraction(9, 5) * p_td - Fraction(4, 5), 1 - p_td)
    length_pays = {1: Fraction(22), 2: Fraction(22), 3: Fraction(6, 5), 4: Fraction(5),
                   5: Fraction(3), 6: Fraction(6)}
    lengths: Counter = Counter()
    for (_, n, _), v in _tdf_games().items():
        lengths[n] += v
    assert sum(lengths.values()) == 1
    figures = []
    for n, pays in length_pays.items():
        row = tdf[f"game-length-{n}"]
        assert_row(row, one_to_one_edge(lengths[n], pays), lengths[n])
        figures.append(pct2(edge(row)))
        assert Fraction(417, 10000) <= Fraction(Decimal(pct2(edge(row)))) / 100 <= Fraction(1243, 10000)
    assert min(figures, key=Decimal) == "4.17"
    assert max(figures, key=Decimal) == "12.43"


def test_every_three_dice_football_wager_has_a_positive_edge():
    tdf = rows("three-dice-football")
    assert set(BET_IDS["three-dice-football"]) <= set(tdf)
    for bet, row in tdf.items():
        assert edge(row) > 0, (bet, row["house_edge"])
        assert Decimal(row["house_edge"]) > 0, (bet, row["house_edge"])


# --- Pai Gow dice ---------------------------------------------------------------------------------

PGD_THROWS = [(r, a, b) for r in range(1, 7) for a in range(1, 7) for b in range(1, 7)]


def _pgd_edge(pays) -> Fraction:
    ev = sum((Fraction(pays(*t)) if pays(*t) is not None else Fraction(-1) for t in PGD_THROWS),
             Fraction(0))
    return -ev / 216


def _sum_pays(table: str):
    def pays(r, a, b):
        total, kinds, s = r + a + b, len({r, a, b}), sorted((r, a, b))
        if table == "A":
            return {17: 25, 16: 6, 8: 3}.get(total)
        if table == "B":
            return {3: 25, 8: 4, 9: 2}.get(total)
        if table == "C":
            return 3 if kinds == 1 else 1 if kinds == 2 else None
        return Fraction(15, 2) if s[1] == s[0] + 1 and s[2] == s[1] + 1 else None
    return pays


def _match_pays(n: int):
    def pays(r, a, b):
        hits = (r, a, b).count(n)
        return 100 if hits == 3 else 6 if hits == 2 else None
    return pays


def _beat_it_pays(table: str):
    def pays(r, a, b):
        if table == "C":
            dice = (r, a, b)
            return Fraction(5, 2) if any(2 * d > sum(dice) for d in dice) else None
        lead = r - (a + b)
        if lead >= 4:
            return 50 if table == "A" else 60
        if lead in (2, 3):
            return 10
        return 1 if lead in (0, 1) else None
    return pays


DESIGNED = {"2.78", "4.63", "5.56", "7.41"}


@pytest.mark.parametrize("table, expected", [
    ("A", Fraction(1, 18)), ("B", Fraction(5, 108)), ("C", Fraction(1, 18)), ("D", Fraction(1, 18)),
])
def test_pai_gow_sum_paytables(table, expected):
    row = rows("pai-gow-dice", sum_paytable=table)["sum"]
    assert _pgd_edge(_sum_pays(table)) == expected
    assert_row(row, expected)
    assert pct2(edge(row)) in DESIGNED


@pytest.mark.parametrize("table, expected", [
    ("A", Fraction(2, 27)), ("B", Fraction(1, 36)), ("C", Fraction(1, 36)),
])
def test_pai_gow_beat_it_paytables(table, expected):
    row = rows("pai-gow-dice", beat_it_paytable=table)["beat-it"]
    assert _pgd_edge(_beat_it_pays(table)) == expected
    assert_row(row, expected)
    assert pct2(edge(row)) in DESIGNED


def test_pai_gow_match_and_default_paytables():
    pgd = rows("pai-gow-dice")
    for n in range(1, 7):
        expected = _pgd_edge(_match_pays(n))
        assert expected == Fraction(5, 108)
        assert_row(pgd[f"match-{n}"], expected)
        assert pct2(edge(pgd[f"match-{n}"])) in DESIGNED
    assert edge(pgd["sum"]) == Fraction(1, 18)  # default A
    assert edge(pgd["beat-it"]) == Fraction(2, 27)  # default A


# --- High Roll Dice ---------------------------------------------------------------------------------

RANK = (1, 6, 5, 4, 3, 2)
FACE_ID = {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
# § 675a.5(a)-(b) and § 675a.6(j)-(k), written here from the regulation text
PIP_10 = {2: 6, 3: 6, 4: 5, 5: 4, 6: 4, 1: 3}
LIKE_10 = {8: 5000, 7: 400, 6: 30, 5: 4, 4: 1, 3: Fraction(3, 5), 2: 12}
PIP_6 = {2: 8, 3: 6, 4: 5, 5: 4, 6: 3, 1: 2}
LIKE_6 = {6: 6000, 5: 200, 4: 15, 3: 2, 2: Fraction(1, 2), 1: 60}


@cache
def _hrd_first_roll(n: int) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """(P(winning face), P(count)) over all multisets of n dice, with multinomial weights."""
    face: Counter = Counter()
    count: Counter = Counter()
    for dice in combinations_with_replacement(range(1, 7), n):
        c = Counter(dice)
        weight = Fraction(math.factorial(n), math.prod(math.factorial(k) for k in c.values()) * 6 ** n)
        top = max(c.values())
        face[next(f for f in RANK if c[f] == top)] += weight
        count[top] += weight
    assert sum(face.values()) == 1 == sum(count.values())
    return dict(face), dict(count)


@pytest.mark.parametrize("game, n, pip, like", [
    ("high-roll-dice", 10, PIP_10, LIKE_10),
    ("high-roll-dice-6", 6, PIP_6, LIKE_6),
])
def test_high_roll_dice_oracle(game, n, pip, like):
    face, count = _hrd_first_roll(n)
    hrd = rows(game)
    for f, odds in pip.items():
        assert_row(hrd[f"pip-{FACE_ID[f]}"], one_to_one_edge(face[f], Fraction(odds)), face[f])
    for k, odds in like.items():
        bet = "like-kind-none" if k == 1 else f"like-kind-{k}"
        assert_row(hrd[bet], one_to_one_edge(count[k], Fraction(odds)), count[k])


def test_millionaire_row():
    hrd = rows("high-roll-dice")
    p9 = Fraction(6 * 10 * 5, 6 ** 10)
    p10 = Fraction(6, 6 ** 10)
    _, count = _hrd_first_roll(10)
    assert count[9] == p9 and count[10] == p10
    assert_row(hrd["millionaire-9"], one_to_one_edge(p9, Fraction(50_000)), p9)
    assert_row(hrd["millionaire-10"], one_to_one_edge(p10, Fraction(1_000_000)), p10)


# --- format of every row ------------------------------------------------------------------------

DECIMAL = re.compile(r"^-?\d+\.\d{10,}$")
FRACTION = re.compile(r"^-?\d+/\d+$")


@pytest.mark.parametrize("game", GAMES)
def test_every_row_is_exact_and_cited(game):
    rep = _report(game)
    assert rep["game"] == game
    assert isinstance(rep["options"], dict)
    assert rep["bets"]
    for row in rep["bets"]:
        where = (game, row.get("bet"), row.get("with"))
        assert DECIMAL.match(row["house_edge"]), where
        assert FRACTION.match(row["house_edge_fraction"]), where
        he = Fraction(row["house_edge_fraction"])
        assert he.denominator > 0
        assert agrees(row["house_edge"], he), (where, row["house_edge"], row["house_edge_fraction"])
        wp = Decimal(row["win_probability"])
        assert 0 <= wp <= 1, where
        assert row["cite"].startswith(CITE_PREFIX), where
    plain = {row["bet"] for row in rep["bets"] if "with" not in row}
    missing = set(BET_IDS[game]) - plain
    assert not missing, f"{game}: no figures for {sorted(missing)}"
    if game == "high-roll-dice":
        assert any(row["bet"] == "extra-roll" or "extra-roll" in json.dumps(row.get("with"))
                   for row in rep["bets"]), "no row figures the Extra Roll purchase"


def test_report_rejects_an_unknown_game():
    with pytest.raises(RequestError):
        report("craps")


def test_report_rejects_a_bad_option():
    with pytest.raises(RequestError):
        report("pai-gow-dice", {"sum_paytable": "E"})
    with pytest.raises(RequestError):
        report("pai-gow-dice", {"no_such_option": "A"})


# --- the command line -------------------------------------------------------------------------------


def _command() -> list[str]:
    exe = Path(sys.executable).with_name("dealer-trainer")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "trainer"]


def run_odds(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*_command(), "odds", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_cli_readable_table():
    p = run_odds("--game", "props-and-hops")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    text = p.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    assert "field" in text.lower()
    assert len([ln for ln in text.splitlines() if ln.strip()]) >= len(BET_IDS["props-and-hops"])


def test_cli_json_is_the_report():
    p = run_odds("--game", "props-and-hops", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == report("props-and-hops")


def test_cli_option_changes_the_sum_row():
    default = run_odds("--game", "pai-gow-dice", "--json")
    b = run_odds("--game", "pai-gow-dice", "--option", "sum_paytable=B", "--json")
    assert default.returncode == 0 and b.returncode == 0, (default.stderr, b.stderr)

    def sum_row(out: str) -> dict:
        return next(r for r in json.loads(out)["bets"] if r["bet"] == "sum" and "with" not in r)

    assert Fraction(sum_row(default.stdout)["house_edge_fraction"]) == Fraction(1, 18)
    assert Fraction(sum_row(b.stdout)["house_edge_fraction"]) == Fraction(5, 108)
    assert json.loads(b.stdout) == report("pai-gow-dice", {"sum_paytable": "B"})


@pytest.mark.parametrize("args", [
    ("--game", "craps"),
    ("--game", "craps", "--json"),
    ("--game", "pai-gow-dice", "--option", "no_such_option=A"),
    ("--game", "pai-gow-dice", "--option", "sum_paytable=E", "--json"),
    ("--game", "props-and-hops", "--option", "sum_paytable=B"),
], ids=["unknown-game", "unknown-game-json", "unknown-option", "bad-paytable", "wrong-game-option"])
def test_cli_rejects_bad_odds_requests(args):
    p = run_odds(*args)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
