"""Property tests: random valid rounds of every game through `settle()`.

For every response:
- one entry per throw; a no-roll throw is invalid and has no collect or pay lines;
- every collect and pay line cites "58 Pa. Code §";
- a wager (one seat, one bet; several chips on it are one wager of their sum) appears at most once
  among the lines of one throw;
- money is conserved per seat and bet: what was offered, less what was refused and what was taken
  down, is exactly what was settled (collected or paid) plus what is still open. So every accepted
  wager is settled once or listed in "open", and a refused wager is never settled;
- in one-round games a wager is settled at most once in the whole round;
- in Props & Hops, Pai Gow and the 6-dice High Roll game, within a throw every collect step comes
  before every pay step.

The generators keep the requests valid (they track only what they must: the Six Eight Shake cycle
for take-downs, the end of a Three Dice Football game, and whether a High Roll Dice extra roll
follows). The wager sets are both valid and invalid; refusals are taken from the response.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.settle import settle

# Hypothesis runs an import statement in every draw: at Python's own speed here, not through
# the hook PySide6 puts in front of every import (tests/support/imports.py)
pytestmark = pytest.mark.usefixtures("python_import")

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CITE_PREFIX = "58 Pa. Code §"
SES = "six-eight-shake"

PH_BETS = tuple(
    [f"double-{n}-{n}" for n in range(1, 7)]
    + [f"any-{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)]
    + ["field", "hop-top", "hop-left", "hop-right", "hop-center", "one-six-and-under",
       "three-four-and-over", SES]
)
PH_NO_ROLLS = ["lid-removed", "die-fell-out", "die-on-die", "not-flat"]
PH_COMBOS = [f"{a}-{b}" for a in range(1, 7) for b in range(a, 7)]
LAMMERS = frozenset({"1-5", "2-4", "3-3", "2-6", "3-5", "4-4"})

TDF_FULL_GAME = ["touchdown", "defense", "extra-point", "quick-strike", "game-changer",
                 *(f"game-length-{n}" for n in range(1, 7))]
TDF_SINGLE_PLAY = ["trips-td", "penalty", "turnover", "cover-three", "no-gain", "big-play",
                   "over-four-yards", "under-four-yards"]
TDF_NO_ROLLS = ["die-off-table", "die-on-die", "not-simultaneous", "missed-far-end",
                "on-bank-chips", "in-dice-cup", "on-rail", "cheating-device", "improper",
                "cocked-multiple-sides"]

HRD_NO_ROLLS = ["die-off-table", "die-on-die", "cocked-multiple-sides"]
PIPS = ["pip-ace", *(f"pip-{n}" for n in range(2, 7))]
RANK = (1, 6, 5, 4, 3, 2)

PGD_BETS = ("sum", *(f"match-{n}" for n in range(1, 7)), "beat-it")

dice = st.integers(1, 6)


def cents(text: str) -> int:
    value = Decimal(str(text)) * 100
    assert value == value.to_integral_value(), text
    return int(value)


# Each strategy is made once (`cache`, so the wagers' bets are tuples): Hypothesis checks a
# strategy object it has not been given before, at every draw. The same strategy, drawn the same.
@cache
def cents_between(low: int, high: int) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from((100, 500, 1000, 2500)), st.integers(low, high))


@cache
@st.composite
def amounts(draw, low: int = 1, high: int = 100_000) -> tuple[str, int]:
    """An amount in cents, written as the contract's decimal string ("5", "5.00" or "0.25")."""
    c = draw(cents_between(low, high))
    c = min(max(c, low), high)
    if c % 100 == 0 and draw(st.booleans()):
        return str(c // 100), c
    return f"{c // 100}.{c % 100:02d}", c


def wager(seat: int, bet: str, amount: str) -> dict:
    return {"seat": seat, "bet": bet, "amount": amount}


@cache
@st.composite
def wagers(draw, seats: int, bets: tuple[str, ...], max_size: int) -> list[dict]:
    """Random wagers; a repeated (seat, bet) is likely, to exercise the merge rule."""
    seat = st.integers(1, seats) if draw(st.booleans()) else st.integers(1, min(seats, 3))
    out = []
    bet = st.sampled_from(bets)
    for _ in range(draw(st.integers(0, max_size))):
        text, _ = draw(amounts())
        out.append(wager(draw(seat), draw(bet), text))
    return out


# --- the checks ------------------------------------------------------------------------------------


def offered(request: dict) -> list[tuple[tuple[int, str], int]]:
    out = [((w["seat"], w["bet"]), cents(w["amount"])) for w in request.get("wagers", [])]
    for t in request["throws"]:
        out += [((w["seat"], w["bet"]), cents(w["amount"])) for w in t.get("wagers", [])]
    return out


def check(request: dict, response: dict, *, taken_down: Counter | None = None,
          collect_before_pay: bool = False, one_round: bool = False) -> None:
    throws = response["throws"]
    assert len(throws) == len(request["throws"])
    settled: Counter = Counter()
    lines_per_key: Counter = Counter()
    for i, (asked, answer) in enumerate(zip(request["throws"], throws, strict=True)):
        no_roll = "no_roll" in asked
        assert answer["valid"] is (not no_roll), (i, answer)
        in_throw: Counter = Counter()
        order = []
        for step in answer["steps"]:
            if step["action"] not in ("collect", "pay"):
                continue
            for line in step["lines"]:
                assert isinstance(line.get("cite"), str), (i, line)
                assert line["cite"].startswith(CITE_PREFIX), (i, line)
                key = (line["seat"], line["bet"])
                settled[key] += cents(line["amount"])
                in_throw[key] += 1
                lines_per_key[key] += 1
                if step["action"] == "pay":
                    assert cents(line["payout"]) >= 0, (i, line)
            if step["lines"]:
                order.append(step["action"])
        if no_roll:
            assert not in_throw, f"throw {i} is a no roll but settles {sorted(in_throw)}"
        twice = [k for k, n in in_throw.items() if n > 1]
        assert not twice, f"throw {i} settles {twice} more than once"
        if collect_before_pay and "pay" in order:
            assert "collect" not in order[order.index("pay"):], f"throw {i}: steps {order}"

    offers: Counter = Counter()
    for key, c in offered(request):
        offers[key] += c
    refused: Counter = Counter()
    for r in response["refused"]:
        refused[(r["seat"], r["bet"])] += cents(r["amount"])
        assert r.get("cite"), r
    still_open: Counter = Counter()
    for o in response["open"]:
        key = (o["seat"], o["bet"])
        assert key not in still_open, f"{key} listed twice in open"
        still_open[key] += cents(o["amount"])
    taken_down = taken_down or Counter()
    for key in set(offers) | set(refused) | set(settled) | set(still_open) | set(taken_down):
        accepted = offers[key] - refused[key] - taken_down[key]
        assert refused[key] <= offers[key], f"{key}: refused more than was offered"
        assert accepted == settled[key] + still_open[key], (
            f"{key}: offered {offers[key]}, refused {refused[key]}, taken down {taken_down[key]}, "
            f"settled {settled[key]}, open {still_open[key]}")
    if one_round:
        again = [k for k, n in lines_per_key.items() if n > 1]
        assert not again, f"settled more than once in one round: {again}"


# --- Props & Hops ------------------------------------------------------------------------------------


class ShakeCycle:
    """The table's one Six Eight Shake cycle, only as far as take-downs need it."""

    def __init__(self) -> None:
        self.shake: dict[int, int] = {}
        self.moved: set[str] = set()
        self.reshake = False  # after a no roll: wagers are late until a valid throw

    def offer(self, w: dict) -> None:
        if w["bet"] == SES and not self.moved and not self.reshake:
            self.shake[w["seat"]] = self.shake.get(w["seat"], 0) + cents(w["amount"])

    def take_down(self, seat: int) -> int:
        amount = self.shake.pop(seat)
        if not self.shake:
            self.moved = set()
        return amount

    def throw(self, a: int, b: int) -> None:
        self.reshake = False
        if not self.shake:
            return
        if a + b == 7:
            self.shake, self.moved = {}, set()
            return
        combo = f"{min(a, b)}-{max(a, b)}"
        if combo in LAMMERS:
            self.moved.add(combo)
        if self.moved == LAMMERS:
            self.shake, self.moved = {}, set()


@cache
@st.composite
def hop_regions(draw) -> dict:
    regions = {}
    for region in ("top", "left", "right", "center"):
        if draw(st.booleans()):
            regions[region] = draw(st.lists(st.sampled_from(PH_COMBOS), max_size=8, unique=True))
    return {"hop_regions": regions} if regions else {}


# Throws that finish a Six Eight Shake cycle are rare at random; mix them in.
PH_DICE = st.one_of(
    st.tuples(dice, dice),
    st.sampled_from([(1, 5), (2, 4), (3, 3), (2, 6), (3, 5), (4, 4), (5, 1), (4, 2), (6, 2), (5, 3)]),
)


@cache
@st.composite
def ph_plan(draw) -> list[tuple[int, int]]:
    """The dice of the valid throws, now and then with all six lammer combinations in a row."""
    plan = draw(st.lists(PH_DICE, min_size=1, max_size=12))
    if draw(st.booleans()):
        run = draw(st.permutations([(1, 5), (2, 4), (3, 3), (2, 6), (3, 5), (4, 4)]))
        at = draw(st.sampled_from([0, 0, 1, len(plan)]))
        plan[at:at] = run
    return plan


# Six Eight Shake is drawn more often than the one-roll bets, so cycles and refusals come up.
PH_WAGER_BETS = PH_BETS + (SES,) * 6
#: what a throw that takes a Six Eight Shake wager down carries
PH_ONE_ROLL_BETS = tuple(b for b in PH_BETS if b != SES)


@SETTINGS
@given(st.data())
def test_props_and_hops_rounds(data):
    draw = data.draw
    cycle = ShakeCycle()
    taken: Counter = Counter()
    late: list[dict] = []
    request = {"game": "props-and-hops", "options": draw(hop_regions()),
               "wagers": draw(wagers(6, PH_WAGER_BETS, 8)), "throws": []}
    for w in request["wagers"]:
        cycle.offer(w)
    for a, b in draw(ph_plan()):
        for no_roll in (True, False):
            if no_roll and draw(st.integers(0, 6)):
                continue
            throw: dict = {}
            if cycle.shake and draw(st.integers(0, 4)) == 0:
                seats = draw(st.lists(st.sampled_from(sorted(cycle.shake)), min_size=1, max_size=2,
                                      unique=True))
                throw["take_down"] = [{"seat": s, "bet": SES} for s in seats]
                for s in seats:
                    taken[(s, SES)] += cycle.take_down(s)
            # A throw that takes down a Six Eight Shake wager carries no new one, so the order of
            # the two within the throw cannot matter.
            bets = PH_WAGER_BETS if "take_down" not in throw else PH_ONE_ROLL_BETS
            placed = draw(wagers(6, bets, 3))
            for w in placed:
                cycle.offer(w)
                if cycle.reshake:
                    late.append(w)
            if placed:
                throw["wagers"] = placed
            if no_roll:
                throw["no_roll"] = draw(st.sampled_from(PH_NO_ROLLS))
                cycle.reshake = True
            else:
                throw["dice"] = [a, b]
                cycle.throw(a, b)
            request["throws"].append(throw)
    response = settle(request)
    check(request, response, taken_down=taken, collect_before_pay=True)
    # a wager carried by the throw after a no roll is late: refused, never settled
    refused = Counter((r["seat"], r["bet"], cents(r["amount"])) for r in response["refused"])
    for w in late:
        assert refused[(w["seat"], w["bet"], cents(w["amount"]))] > 0, w


# --- Three Dice Football -----------------------------------------------------------------------------


class Football:
    """Just enough of the game (interpretations.md) to know when it ends."""

    def __init__(self) -> None:
        self.yard, self.down, self.goal = 20, 1, False
        self.valid_seen = False
        self.extra_point_wager = False
        self.phase = "play"  # "play", "extra-point" or "over"

    def offer(self, w: dict) -> None:
        # Full game wagers are accepted only before the first valid throw (§ 577.3(c)).
        if w["bet"] == "extra-point" and not self.valid_seen and self.phase == "play":
            self.extra_point_wager = True

    def throw(self, green: list[int], red: int) -> None:
        self.valid_seen = True
        if self.phase == "extra-point":
            self.phase = "over"
            return
        a, b = green
        total = a + b
        if a == b == red:
            return self._touchdown()
        if red == 6 and total in (2, 3):
            self.phase = "over"
            return
        if total < red:
            self.yard += 1
        elif total > red:
            self.yard -= total - red
            if self.yard <= 0:
                return self._touchdown()
        if not self.goal and self.yard <= 10:
            self.goal, self.down = True, 1
        else:
            self.down += 1
        if self.down > 3:
            self.phase = "over"

    def _touchdown(self) -> None:
        self.phase = "extra-point" if self.extra_point_wager else "over"


# A mix that reaches the end zone often enough: big gains, trips, turnovers, and plain random.
TDF_THROW = st.one_of(
    st.tuples(st.tuples(dice, dice), dice),
    st.tuples(st.tuples(st.integers(4, 6), st.integers(4, 6)), st.integers(1, 2)),
    st.sampled_from([((2, 2), 2), ((1, 1), 1), ((1, 2), 6), ((1, 1), 6), ((6, 6), 6)]),
)


@SETTINGS
@given(st.data())
def test_three_dice_football_games(data):
    draw = data.draw
    game = Football()
    bets = (*TDF_FULL_GAME, *TDF_SINGLE_PLAY)
    request = {"game": "three-dice-football", "options": {}, "wagers": draw(wagers(16, bets, 10)),
               "throws": []}
    for w in request["wagers"]:
        game.offer(w)
    no_rolls = 0
    while game.phase != "over":
        throw: dict = {}
        placed = draw(wagers(16, bets, 3))
        for w in placed:
            game.offer(w)
        if placed:
            throw["wagers"] = placed
        if no_rolls < 3 and draw(st.integers(0, 6)) == 0:
            no_rolls += 1
            throw["no_roll"] = draw(st.sampled_from(TDF_NO_ROLLS))
        else:
            green, red = draw(TDF_THROW)
            throw["green"], throw["red"] = list(green), red
            game.throw(list(green), red)
        request["throws"].append(throw)
    response = settle(request)
    check(request, response, one_round=False)
    plays = [t for t in response["throws"] if t["valid"] and not t["result"].get("extra_point")]
    assert 1 <= len(plays) <= 6
    assert plays[-1]["result"]["next_down"] is None


# --- High Roll Dice ------------------------------------------------------------------------------------


def winning_face(roll: list[int]) -> tuple[int, int]:
    c = Counter(roll)
    top = max(c.values())
    return next(f for f in RANK if c[f] == top), top


@cache
@st.composite
def hrd_seat(draw, seat: int, ten: bool) -> tuple[list[dict], bool]:
    """One player's wagers, in the order pip, like kind, extra roll, millionaire; mostly valid.

    Returns the wagers and whether this player's Extra Roll purchase stands.
    """
    like_kinds = [f"like-kind-{n}" for n in range(2, 9 if ten else 7)]
    if not ten:
        like_kinds.append("like-kind-none")
    text_a, _ = draw(amounts(high=5_000))

    def amount() -> str:
        # the player's standard amount, or now and then a different one (refused)
        return text_a if draw(st.integers(0, 5)) else draw(amounts(high=5_000))[0]

    out: list[dict] = []
    totals: dict[str, int] = {}  # chips on one bet are one wager of their sum, judged whole

    def place(bet: str, text: str) -> None:
        out.append(wager(seat, bet, text))
        totals[bet] = totals.get(bet, 0) + cents(text)
        if draw(st.integers(0, 7)) == 0:  # the same chips again: an addition
            out.append(wager(seat, bet, text))
            totals[bet] += cents(text)

    has_pip = draw(st.integers(0, 7)) > 0
    pips: list[str] = []
    if has_pip:
        pips = draw(st.lists(st.sampled_from(PIPS), min_size=1, max_size=3, unique=True))
        place(pips[0], text_a)
        for bet in pips[1:]:
            place(bet, amount())
    for bet in draw(st.lists(st.sampled_from(like_kinds), max_size=3, unique=True)):
        place(bet, amount())
    extra = False
    if ten and draw(st.booleans()):
        place("extra-roll", amount())
        base = totals[pips[0]] if has_pip else None
        standing_like_kind = any(totals[b] == base for b in totals if b.startswith("like-kind-"))
        extra = has_pip and standing_like_kind and totals["extra-roll"] == base
    if ten:
        for bet in draw(st.lists(st.sampled_from(["millionaire-9", "millionaire-10"]), max_size=2,
                                 unique=True)):
            place(bet, draw(amounts(high=150))[0])
    return out, extra


@cache
@st.composite
def hrd_roll(draw, n: int) -> list[int]:
    return draw(st.one_of(
        st.lists(dice, min_size=n, max_size=n),
        # many matching dice, so the high counts come up
        st.tuples(dice, st.integers(0, n)).flatmap(
            lambda fk: st.lists(dice, min_size=n - fk[1], max_size=n - fk[1]).map(
                lambda rest, fk=fk: [fk[0]] * fk[1] + rest)),
    ))


def hrd_request(draw, game: str) -> dict:
    ten = game == "high-roll-dice"
    n = 10 if ten else 6
    request = {"game": game, "options": {}, "wagers": [], "throws": []}
    extra_roll = False
    seats = draw(st.lists(st.integers(1, 6), min_size=0, max_size=6, unique=True))
    for seat in seats:
        placed, extra = draw(hrd_seat(seat, ten))
        request["wagers"] += placed
        extra_roll |= extra
    for _ in range(draw(st.integers(0, 2))):
        request["throws"].append({"no_roll": draw(st.sampled_from(HRD_NO_ROLLS))})
    roll = draw(hrd_roll(n))
    if extra_roll:
        # keep the count at 8 or less, so the extra roll has dice to throw and a circle to win
        face, count = winning_face(roll)
        while count > 8:
            roll[roll.index(face)] = face % 6 + 1
            face, count = winning_face(roll)
    request["throws"].append({"dice": roll})
    if extra_roll:
        _, count = winning_face(roll)
        for _ in range(draw(st.integers(0, 1))):
            request["throws"].append({"no_roll": draw(st.sampled_from(HRD_NO_ROLLS))})
        request["throws"].append({"dice": draw(st.lists(dice, min_size=10 - count,
                                                        max_size=10 - count))})
    return request


@SETTINGS
@given(st.data())
def test_high_roll_dice_rounds(data):
    request = hrd_request(data.draw, "high-roll-dice")
    response = settle(request)
    check(request, response, one_round=True)


@SETTINGS
@given(st.data())
def test_high_roll_dice_6_rounds(data):
    request = hrd_request(data.draw, "high-roll-dice-6")
    response = settle(request)
    check(request, response, collect_before_pay=True, one_round=True)


# --- Pai Gow dice --------------------------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_pai_gow_dice_rounds(data):
    draw = data.draw
    options = {}
    if draw(st.booleans()):
        options["sum_paytable"] = draw(st.sampled_from("ABCD"))
    if draw(st.booleans()):
        options["beat_it_paytable"] = draw(st.sampled_from("ABC"))
    request = {"game": "pai-gow-dice", "options": options, "wagers": draw(wagers(6, PGD_BETS, 10)),
               "throws": []}
    for _ in range(draw(st.integers(0, 2))):
        request["throws"].append({"no_roll": draw(st.sampled_from(HRD_NO_ROLLS))})
    last = {"red": draw(dice), "blue": [draw(dice), draw(dice)]}
    if placed := draw(wagers(6, PGD_BETS, 2)):
        last["wagers"] = placed
    request["throws"].append(last)
    response = settle(request)
    check(request, response, collect_before_pay=True, one_round=True)
    # after a no roll the shaker is used again while "no more bets" stands: late, refused
    late = len(request["throws"]) > 1
    refused = Counter((r["seat"], r["bet"], cents(r["amount"])) for r in response["refused"])
    assert all((refused[(w["seat"], w["bet"], cents(w["amount"]))] > 0) is late for w in placed)
