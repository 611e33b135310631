"""High Roll Dice, 58 Pa. Code ch. 675a (10 dice), and its 6-dice variation (§ 675a.6).

The dealer throws the dice; the face on the most dice (ties to the higher rank, ace high) wins
Pip Street, and how many dice show it decides Like Kind Boulevard and Millionaire Row. In the
10-dice game a player may buy an Extra Roll of the dice that did not match.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from trainer.cite import cite
from trainer.errors import RequestError
from trainer.games.base import (
    Bet,
    Game,
    Options,
    Throw,
    WagerKind,
    dice_variants,
    no_options,
    pay_or_collect,
    read_dice,
    read_throw,
    refuse,
)
from trainer.money import fmt_dollars
from trainer.paytables import paytable
from trainer.readings import HRD_RANK, MILLIONAIRE_MAX_CENTS, SEATS
from trainer.settlement import Line, Refusal, Step, ThrowReport, ThrowResult, Wager, settle_together
from trainer.vocabulary import Do

NO_ROLLS = {
    "die-off-table": "675a.4(b)",
    "die-on-die": "675a.4(b)",
    "cocked-multiple-sides": "675a.4(c)",
}
NO_ROLL_NAMES = {
    "die-off-table": "A die went off the table",
    "die-on-die": "One die came to rest on top of another",
    "cocked-multiple-sides": "A die is cocked, resting on more than one side",
}
FACE_KEY = {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
FACE_VALUE = {key: face for face, key in FACE_KEY.items()}
FACE_WORDS = {1: ("ace", "aces"), 2: ("two", "twos"), 3: ("three", "threes"),
              4: ("four", "fours"), 5: ("five", "fives"), 6: ("six", "sixes")}
COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
               8: "Eight", 9: "Nine", 10: "Ten"}
PIPS = tuple(f"pip-{FACE_KEY[f]}" for f in (2, 3, 4, 5, 6, 1))  # as laid out: two ... ace


def winning_face(dice: tuple[int, ...]) -> tuple[int, int]:
    """(face, count): the face on the most dice, a tie going to the higher rank (§ 675a.2(d))."""
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], _RANK[f]))
    return face, counts[face]


_RANK = {f: -HRD_RANK.index(f) for f in HRD_RANK}  # the higher rank, the greater


def like_kind_key(bet: str) -> str:
    return bet.removeprefix("like-kind-")


def first_roll_pays(face: int, count: int) -> dict[str, str]:
    """The bets a first roll of `count` dice showing `face` pays, each with the line of its
    paytable entry it is paid on: the face's Pip Street, the Like Kind circle of the count
    ("none": no match) and the Millionaire Row of the count. Every other bet loses."""
    key, n = FACE_KEY[face], str(count)
    circle = "none" if count == 1 else n
    return {f"pip-{key}": key, f"like-kind-{circle}": circle, f"millionaire-{n}": n}


def call(face: int, count: int) -> str:
    if count == 1:
        return "No match, ace high"
    return f"{COUNT_WORDS[count]} {FACE_WORDS[face][1]}"


def throw_box(face: int) -> str:
    """The name of the throw box's area for a face, where its matching dice are moved."""
    return f"throw-box-{FACE_KEY[face]}"


def extra_roll_call(face: int, matched: int, count: int) -> str:
    """The call of the extra roll (§ 675a.4(h)): how many more of the face, and the count now."""
    word = FACE_WORDS[face][0 if matched == 1 else 1]
    return f"{matched or 'No'} more {word}: {count} of a kind"


@dataclass(frozen=True)
class Variant:
    """What differs between the 10-dice game and the 6-dice variation."""

    id: str
    name: str
    dice: int
    like_kind: tuple[str, ...]  # circle keys
    extras: bool  # Millionaire Row and the Extra Roll
    pip_section: str
    like_kind_section: str
    equal_value_section: str


TEN = Variant("high-roll-dice", "High Roll Dice", 10, tuple(str(k) for k in range(2, 9)), True,
              "675a.2(e)(1)", "675a.2(e)(2)", "675a.1(b)(2)(iv)")
SIX = Variant("high-roll-dice-6", "High Roll Dice (6 dice)", 6,
              (*(str(k) for k in range(2, 7)), "none"), False,
              "675a.6(d)", "675a.6(d)", "675a.6(b)(3)")


def _catalogue(v: Variant) -> dict[str, Bet]:
    bets = {}
    for f in (1, 6, 5, 4, 3, 2):
        b = f"pip-{FACE_KEY[f]}"
        one, many = FACE_WORDS[f]
        bets[b] = Bet(b, f"Pip Street {one.title()}", cite(v.pip_section),
                      f"Wins if {many} are the face on the most dice (ties go to the higher rank).",
                      "pip-street", WagerKind.FIRST_ROLL)
    for k in v.like_kind:
        b = f"like-kind-{k}"
        if k == "none":
            name, when = "Like Kind No Match", "Wins if no two dice match."
        else:
            name, when = (f"Like Kind {k} of a Kind",
                          f"Wins if exactly {k} dice show the winning face.")
        bets[b] = Bet(b, name, cite(v.like_kind_section), when, "like-kind", WagerKind.FIRST_ROLL)
    if v.extras:
        for k in ("9", "10"):
            bets[f"millionaire-{k}"] = Bet(
                f"millionaire-{k}", f"Millionaire Row {k} of a Kind", cite("675a.2(e)(4)"),
                f"Wins if {k} dice match on the first roll; at most $1.", "millionaire-row",
                WagerKind.FIRST_ROLL)
        bets["extra-roll"] = Bet(
            "extra-roll", "Extra Roll", cite("675a.2(e)(3)"),
            "A purchase, never returned: the dice that did not match are thrown again for the "
            "player's Like Kind wagers above the first count.", "like-kind-extra-roll",
            WagerKind.EXTRA_ROLL)
    return bets


def equal_to(bet: str, v: Variant) -> str:
    """What makes a wager equal the Pip Street wager: its own sentence where it says so (a Like
    Kind wager "equal to the player's Pip Street Wager", an Extra Roll "equal to the player's
    Like Kind"), and the layout's inscription that all of them must be."""
    own = (v.like_kind_section if bet.startswith("like-kind-") and v.extras else
           "675a.2(e)(3)" if bet == "extra-roll" else None)
    return "; ".join(cite(s) for s in (own, v.equal_value_section) if s)


def judge(wagers: list[Wager], v: Variant) -> tuple[list[Wager], list[Refusal]]:
    """The wager rules at "no more bets" (reading "hrd-wager-rules"): (accepted, refused).

    Chips a seat puts on the same bet are one wager of their sum (reading "one-wager-per-bet"),
    so they are added up first; then every wager is judged whole."""
    merged: dict[tuple[int, str], Wager] = {}
    for w in wagers:
        key = (w.seat, w.bet)
        had = merged.get(key)
        merged[key] = w if had is None else Wager(w.seat, w.bet, had.amount + w.amount)
    accepted: list[Wager] = []
    refused: list[Refusal] = []
    by_seat: dict[int, list[Wager]] = {}
    for w in merged.values():
        by_seat.setdefault(w.seat, []).append(w)
    for mine in by_seat.values():
        pips = [w for w in mine if w.bet.startswith("pip-")]
        if not pips:
            refused += [refuse(w, "the player has no Pip Street wager, which every player must "
                                  "place to take part", v.pip_section) for w in mine]
            continue
        base = pips[0].amount
        likes = False
        for w in [w for w in mine if w.bet != "extra-roll"] + [w for w in mine if w.bet == "extra-roll"]:
            if w.bet.startswith("millionaire-"):
                if w.amount > MILLIONAIRE_MAX_CENTS:
                    refused.append(refuse(w, "a Millionaire Row wager may not be more than $1",
                                          "675a.2(e)(4)"))
                    continue
            elif w.amount != base:
                # the wager's own sentence where it says "equal to", and the layout's inscription
                refused.append(Refusal(w, "must equal the player's first Pip Street wager "
                                          f"({fmt_dollars(base)})", equal_to(w.bet, v)))
                continue
            elif w.bet == "extra-roll" and not likes:
                refused.append(refuse(w, "an Extra Roll needs an accepted Like Kind wager",
                                      "675a.2(e)(3)"))
                continue
            likes = likes or w.bet.startswith("like-kind-")
            accepted.append(w)
    return accepted, refused


@dataclass
class Table:
    v: Variant
    catalogue: Mapping[str, Bet]
    offered: list[Wager] = field(default_factory=list)
    wagers: dict[tuple[int, str], int] = field(default_factory=dict)
    judged: bool = False
    face: int = 0
    count: int = 0
    pays: dict[str, str] = field(default_factory=dict)  # the first roll's winners (first_roll_pays)
    held: dict[tuple[int, str], int] = field(default_factory=dict)  # Like Kind awaiting the extra roll
    extra_roll: bool = False  # the next valid throw is the extra roll
    over: bool = False

    @property
    def dice_count(self) -> int:
        return self.v.dice - self.count if self.extra_roll else self.v.dice

    def parse_throw(self, raw: Mapping[str, object], where: str) -> Throw:
        what = "on the extra roll, the dice that did not match" if self.extra_roll else "dice"
        try:
            return read_throw(raw, where, game="High Roll Dice", fields={"dice": self.dice_count},
                              reasons=NO_ROLLS)
        except RequestError as e:
            if self.extra_roll and e.field == f"{where}.dice":
                raise RequestError(e.field, f"{e.message} ({what})") from None
            raise

    def offer(self, wager: Wager) -> Refusal | None:
        if self.judged:
            if wager.bet != "extra-roll":
                return refuse(wager, "wagers are made before the dice are shaken", "675a.2(a)")
            if any(b == "extra-roll" for _, b in self.wagers):  # the dealer locked the sensor out
                return Refusal(wager, "an Extra Roll is bought before the dice are shaken; the "
                                      "sensor was locked out at \"no more bets\"",
                               f"{cite('675a.2(a)')}, § 675a.4(a)")
            return refuse(wager, "an Extra Roll is bought before the dice are shaken", "675a.2(a)")
        self.offered.append(wager)
        return None

    def no_more_bets(self) -> list[Refusal]:
        if self.judged:
            return []
        self.judged = True
        accepted, refused = judge(self.offered, self.v)
        self.wagers = {(w.seat, w.bet): w.amount for w in accepted}
        return refused

    def take_down(self, seat: int, bet: str) -> bool:
        return False

    def open_wagers(self) -> list[Wager]:
        book = self.held if self.extra_roll else self.wagers
        if not self.judged:
            book = {(w.seat, w.bet): w.amount for w in judge(self.offered, self.v)[0]}
        return sorted((Wager(s, b, a) for (s, b), a in book.items()), key=lambda w: (w.seat, w.bet))

    def throw(self, throw: Throw) -> ThrowReport:
        if throw.no_roll is not None:
            return ThrowReport(False, "No roll", no_roll=throw.no_roll,
                               cite=cite(NO_ROLLS[throw.no_roll]))
        if self.extra_roll:
            return self._extra_roll(throw.dice)
        self.face, self.count = winning_face(throw.dice)
        self.pays = first_roll_pays(self.face, self.count)
        result: ThrowResult = {"dice": list(throw.dice), "face": FACE_KEY[self.face], "count": self.count}
        steps = self._settle_ten() if self.v.extras else self._settle_six()
        self.wagers.clear()
        self.over = not self.extra_roll
        return ThrowReport(True, call(self.face, self.count), result, tuple(steps),
                           cite=cite("675a.4(d)" if self.v.extras else "675a.6(h)"))

    def _line(self, seat: int, bet: str, key: str | None, entry: str) -> Line:
        return pay_or_collect(Wager(seat, bet, self.wagers[(seat, bet)]), key,
                              self.catalogue[bet].cite, paytable(self.v.id)[entry])

    def _settle_group(self, seat: int, prefix: str, entry: str, section: str,
                      buyer: bool = False) -> list[Step]:
        mine = [b for (s, b) in self.wagers if s == seat and b.startswith(prefix)]
        if not mine:
            return []
        losers: list[Line] = []
        winners: list[Line] = []
        for bet in mine:
            key = self.pays.get(bet)
            if buyer and key is None and int(like_kind_key(bet)) > self.count:
                self.held[(seat, bet)] = self.wagers[(seat, bet)]
                continue
            line = self._line(seat, bet, key, entry)
            (winners if key else losers).append(line)
        return settle_together(losers, winners, cite(section), seat=seat)

    def _settle_ten(self) -> list[Step]:
        steps = []
        buyers = sorted(s for (s, b) in self.wagers if b == "extra-roll")
        if buyers:
            purchases = [Line.lose(Wager(s, "extra-roll", self.wagers[(s, "extra-roll")]),
                                   cite("675a.4(a)")) for s in buyers]
            steps.append(Step(Do.COLLECT, tuple(purchases), cite("675a.4(a)"),
                              {"to": "table inventory"}))
        for seat in sorted({s for s, _ in self.wagers}):
            buyer = seat in buyers
            steps += self._settle_group(seat, "pip-", "pip-street", "675a.4(f)(1)")
            steps += self._settle_group(seat, "like-kind-", "like-kind",
                                        "675a.4(f)(2)(ii)" if buyer else "675a.4(f)(2)(i)", buyer)
            steps += self._settle_group(seat, "millionaire-", "millionaire-row", "675a.4(f)(3)")
        if buyers and self.count < self.v.dice:
            self.extra_roll = True
            steps.append(Step(Do.EXTRA_ROLL, cite=cite("675a.4(g)"), detail={
                "face": FACE_KEY[self.face], "held": self.count, "dice": self.v.dice - self.count}))
        return steps

    def _settle_six(self) -> list[Step]:
        losers: list[Line] = []
        winners: list[Line] = []
        entries = paytable(self.v.id)
        pip_street, like_kind = entries["pip-street"], entries["like-kind"]
        pays, catalogue = self.pays, self.catalogue
        for (seat, bet), amount in sorted(self.wagers.items()):  # one wager a (seat, bet)
            key = pays.get(bet)
            line = pay_or_collect(Wager(seat, bet, amount), key, catalogue[bet].cite,
                                  pip_street if bet.startswith("pip-") else like_kind)
            (winners if key else losers).append(line)
        return settle_together(losers, winners, cite("675a.6(i)"))

    def _extra_roll(self, dice: tuple[int, ...]) -> ThrowReport:
        matched = dice.count(self.face)
        self.count += matched
        entry = paytable(self.v.id)["like-kind-extra-roll"]
        steps = []
        for seat in sorted({s for s, _ in self.held}):
            losers: list[Line] = []
            winners: list[Line] = []
            for (s, bet), amount in self.held.items():
                if s != seat:
                    continue
                key = like_kind_key(bet)
                line = pay_or_collect(Wager(s, bet, amount), key if key == str(self.count) else None,
                                      cite("675a.4(h)"), entry)
                (winners if line.payout is not None else losers).append(line)
            steps += settle_together(losers, winners, cite("675a.4(h)"), seat=seat)
        self.held.clear()
        self.extra_roll, self.over = False, True
        result: ThrowResult = {"dice": list(dice), "face": FACE_KEY[self.face], "count": self.count,
                               "extra_roll": True, "matched": matched}
        text = extra_roll_call(self.face, matched, self.count)
        return ThrowReport(True, text, result, tuple(steps), cite=cite("675a.4(h)"))


class HighRollDice:
    seats = SEATS["high-roll-dice"]
    no_rolls: Mapping[str, str] = NO_ROLLS
    no_roll_names: Mapping[str, str] = NO_ROLL_NAMES
    face_keys = FACE_KEY  # face -> its name in bet ids ("pip-ace") and results
    throw_box = staticmethod(throw_box)
    cannot_happen: Mapping[str, str] = {}  # no-roll reasons a scenario may not deal
    chapter = "675a"
    regulation_file = "675a-high-roll-dice.txt"
    throw_fields: tuple[str, ...] = ("dice",)
    shooter = False
    cocked_dice = True
    stands_until: str | None = None
    paid_later: frozenset[str] = frozenset()
    step_sections: Mapping[Do, str] = {}
    odds_options: tuple[Mapping[str, object], ...] = ({},)

    def __init__(self, variant: Variant):
        self.v = variant
        self.id, self.name, self.dice = variant.id, variant.name, variant.dice
        self._catalogue = _catalogue(variant)
        # the 6-dice variation has no Extra Roll (§ 675a.6)
        self.events = frozenset({"extra-roll"}) if "extra-roll" in self._catalogue else frozenset()
        self.settles_in = "675a.4" if self.events else "675a.6"

    def dice_of(self, throw: Mapping[str, object]) -> tuple[int, ...]:
        return read_dice(throw["dice"], None, "dice")  # a first roll, or an extra roll

    def throw_of(self, dice: tuple[int, ...]) -> dict:
        return {"dice": list(dice)}

    def call_of(self, dice: tuple[int, ...]) -> str:
        return call(*winning_face(dice))

    def calls_like(self, result: ThrowResult, dice: tuple[int, ...],
                   rng: random.Random) -> list[str]:
        if not result.get("extra_roll"):
            return [self.call_of(d) for d in dice_variants(dice, rng)]
        # the extra roll's call counts the matching dice: offer the other counts
        face = FACE_VALUE[result["face"]]
        held = result["count"] - result["matched"]
        return [extra_roll_call(face, m, held + m) for m in range(0, min(5, len(dice) + 1))]

    def paid_once(self, bet: str) -> str | None:
        # § 675a.4(h): a Like Kind paid on the first roll is not paid again on the extra roll
        return cite("675a.4(h)") if self.events and bet.startswith("like-kind-") else None

    def catalogue(self, options: Options | None = None) -> Mapping[str, Bet]:
        return self._catalogue

    def parse_options(self, raw: Mapping[str, object]) -> Options:
        return no_options(raw, self.id)

    def new_table(self, options: Options) -> Table:
        return Table(self.v, self._catalogue)


GAME: Game = HighRollDice(TEN)  # typed: mypy holds the descriptor to the protocol
GAME_6: Game = HighRollDice(SIX)
