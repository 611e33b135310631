"""What a dealer does after a throw: ordered steps of collect and pay lines, each cited.

A `Step` is one thing the dealer does; its lines may be done in any order, and the steps come in
the order the chapter requires, except that a step `with_previous` may be done in any order with
the step before it (the text joins them with "and", with no "first" or "then": reading
"settlement-orders"). Every line carries the citation that decides it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from trainer.frozen import quick_init
from trainer.money import fmt
from trainer.vocabulary import Do


@quick_init
@dataclass(frozen=True, slots=True)
class Wager:
    seat: int
    bet: str
    amount: int  # cents

    def to_json(self) -> dict:
        return {"seat": self.seat, "bet": self.bet, "amount": fmt(self.amount)}


@quick_init
@dataclass(frozen=True, slots=True)
class Line:
    """One wager settled: collected (payout None) or paid (payout = winnings, wager kept)."""

    seat: int
    bet: str
    amount: int
    cite: str
    payout: int | None = None
    odds: str | None = None
    odds_cite: str | None = None

    @classmethod
    def lose(cls, wager: Wager, cite: str) -> Line:
        return cls(wager.seat, wager.bet, wager.amount, cite)

    @classmethod
    def win(cls, wager: Wager, payout: int, odds: str, cite: str, odds_cite: str) -> Line:
        return cls(wager.seat, wager.bet, wager.amount, cite, payout, odds, odds_cite)

    def to_json(self) -> dict:
        out = {"seat": self.seat, "bet": self.bet, "amount": fmt(self.amount), "cite": self.cite}
        if self.payout is not None:
            out["payout"] = fmt(self.payout)
            out["odds"] = self.odds
            out["odds_cite"] = self.odds_cite
        return out


class StepDetail(TypedDict, total=False):
    """What a step says beside its lines: the settle contract's "own fields" of a step."""

    seat: int  # High Roll Dice: the player whose wagers the step settles (§ 675a.4(f))
    to: str  # where a collection goes: "table inventory" (the Extra Roll, § 675a.4(a))
    # move-lammer (Props & Hops, § 668a.3(i)): the box the lammer leaves, and how many have moved
    combination: str
    lammers_moved: int
    # move-markers (Three Dice Football, § 577.6): where the Yard Marker and the pucks go, the play
    # just made, and the next down (None: the game is over)
    yard_line: int
    play: int
    down: str | None
    down_puck: str
    game_length_puck: int
    # extra-roll (High Roll Dice, § 675a.4(g)): the face held, how many dice show it, and how
    # many dice are thrown again
    face: str
    held: int
    dice: int


class ThrowResult(TypedDict, total=False):
    """What a valid throw shows: the settle contract's `result`, each game with its own fields."""

    dice: list[int]  # Props & Hops, High Roll Dice
    total: int  # Props & Hops, Pai Gow dice
    green: list[int]  # Three Dice Football: the two green dice, and the red one
    red: int  # Three Dice Football, Pai Gow dice
    blue: list[int]  # Pai Gow dice
    play: int  # Three Dice Football: the play (1–6) ...
    kind: str  # ... what it was (a PlayKind: gain, no-gain, penalty, turnover, trips)
    yards: int
    yard_line: int  # ... where the ball is after it (0: a touchdown)
    next_down: str | None  # ... the next down (None: the game is over)
    extra_point: bool  # ... the extra point roll, and how many of its dice show a one
    ones: int
    face: str  # High Roll Dice: the winning face (ace, 2 ... 6) ...
    count: int  # ... how many dice show it (after an extra roll, the new total)
    extra_roll: bool  # ... the extra roll
    matched: int  # ... how many of the extra roll's dice match


@quick_init
@dataclass(frozen=True, slots=True)
class Step:
    action: Do
    lines: tuple[Line, ...] = ()
    cite: str = ""
    detail: StepDetail = field(default_factory=lambda: StepDetail())
    #: may be done in any order with the step before it (not part of the settle interface)
    with_previous: bool = False

    def to_json(self) -> dict:
        action = self.action
        out: dict = {"action": action._value_}  # its text, without the enum's `value` property
        if action is _COLLECT or action is _PAY:
            out["lines"] = [line.to_json() for line in self.lines]
        out.update(self.detail)
        if self.cite:
            out["cite"] = self.cite
        return out


_COLLECT, _PAY = Do.COLLECT, Do.PAY


@dataclass(frozen=True, slots=True)
class Refusal:
    wager: Wager
    reason: str
    cite: str

    def to_json(self) -> dict:
        return {**self.wager.to_json(), "reason": self.reason, "cite": self.cite}


@quick_init
@dataclass(frozen=True, slots=True)
class ThrowReport:
    """The dealer's reading of one throw and the work that follows it."""

    valid: bool
    call: str
    result: ThrowResult = field(default_factory=lambda: ThrowResult())
    steps: tuple[Step, ...] = ()
    no_roll: str | None = None
    cite: str = ""

    def to_json(self) -> dict:
        out: dict = {"valid": self.valid}
        if self.valid:
            out["result"] = dict(self.result)
        else:
            out["no_roll"] = self.no_roll
        out["call"] = self.call
        if self.cite:
            out["cite"] = self.cite
        out["steps"] = [s.to_json() for s in self.steps]
        return out


def settle_together(losers: Iterable[Line], winners: Iterable[Line], cite: str,
                    **detail: Unpack[StepDetail]) -> list[Step]:
    """"Collect the losing wagers and pay out the winning ones": the collections, then the
    payments, which the dealer may do in any order among themselves."""
    return joined([Step(Do.COLLECT, tuple(losers), cite, detail),
                   Step(Do.PAY, tuple(winners), cite, detail)])


def joined(steps: Iterable[Step]) -> list[Step]:
    """The steps, each after the first done in any order with the one before it: one group."""
    out = list(steps)
    # made whole, not by dataclasses.replace, which reads every field's definition each call
    return out[:1] + [Step(s.action, s.lines, s.cite, s.detail, True) for s in out[1:]]
