"""The fault catalogue: every mistake a supervised dealer can be made to make, each the mutation
of a correct step the grader already knows (trainer.grading), with the section it breaks, its
severity under the grading policy (trainer.policy) and the words a supervisor picks it by.

A fault type names its game, its class (money, calls, records, security, order), the finding the
grader makes of it (`finding`) and how it changes the correct dealer's log (its `Op`). An op
finds the places a round offers it (`sites`) and makes the change (`apply`): a step left out, done
with another amount or value, done as another action, done twice, done early or late, or an
action no step asks for (a wager still working, collected). The grader is the judge: the
catalogue only says what the grader will find, and tests/test_supervise_catalogue.py holds the two
together, fault type by fault type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from trainer import games
from trainer.calls import choices
from trainer.cite import cite
from trainer.games.high_roll_dice import FACE_VALUE
from trainer.grading import Kind, standing
from trainer.policy import Severity
from trainer.procedure.model import Do, Expected, Performed, Procedure
from trainer.scenario import Scenario


class FaultClass(StrEnum):
    """The classes a supervisor's catch rate is kept by."""

    MONEY = "money"
    CALLS = "calls"
    RECORDS = "records"
    SECURITY = "security"
    ORDER = "order"


#: what a supervisor points at, by the step the fault is in (a wager is pointed at by its seat
#: and bet instead: `target`)
POINTED = {
    Do.ANNOUNCE: "call", Do.NO_ROLL: "call", Do.NO_MORE_BETS: "call", Do.ANNOUNCE_DOWN: "call",
    Do.PLACE_POINTER: "pointer", Do.PLACE_LAMMERS: "lammers", Do.MOVE_LAMMER: "lammers",
    Do.PLACE_SIX_EIGHT: "lammers", Do.SET_MARKERS: "markers", Do.MOVE_MARKERS: "markers",
    Do.MOVE_DICE: "throw box", Do.OFFER_DICE: "dice", Do.NEW_DICE: "dice",
    Do.EXTRA_POINT_ROLL: "dice", Do.EXTRA_ROLL: "dice", Do.LOCK_OUT_EXTRA_ROLL: "extra roll",
    Do.COVER_AND_SHAKE: "shaker", Do.RECOVER_SHAKER: "shaker", Do.OFFER_SHAKER: "shaker",
    Do.PASS_SHAKER: "shaker", Do.UNCOVER: "shaker", Do.SHAKE_AND_THROW: "shaker",
    Do.USE_SHAKER: "shaker",
}
TARGETS = ("wager", *dict.fromkeys(POINTED.values()))


def target_words(target: str) -> str:
    """A target as a supervisor reads it: a wager by the name the layout prints."""
    seat, _, bet = target.removeprefix("seat ").partition(" ")
    return f"seat {seat} {games.bet_name(bet)}" if target.startswith("seat ") and bet else target


def target(step: Expected | Performed) -> str:
    """What a supervisor points at to flag a fault in this step: the wager ("seat 2 hop-top")
    or the call or record ("call", "pointer", "markers", ...)."""
    if step.seat is not None and step.bet is not None:
        return f"seat {step.seat} {step.bet}"
    return POINTED.get(step.do, step.do.value)


@dataclass
class Round:
    """What an op looks at: the scenario, its procedure, and the correct dealer's whole log with
    the expected step behind each of its actions (`steps[i]` is `log[i]`'s)."""

    scenario: Scenario
    procedure: Procedure
    steps: list[Expected]
    log: list[Performed]

    def throw_steps(self, throw: int) -> list[int]:
        return [i for i, e in enumerate(self.steps) if e.throw == throw]

    def stage_of(self) -> dict[int, int]:
        """The stage of each step, by its index in the log."""
        stages = {id(e): s for s, e in self.procedure.actions()}
        return {i: stages[id(e)] for i, e in enumerate(self.steps)}


@dataclass(frozen=True)
class Site:
    """One place a fault type can go in a round: the step it changes (an index in the correct
    log), the step it is moved before, or after (order, lateness), and the action it adds where
    it changes no step (a wager collected while it still works)."""

    step: int
    other: int | None = None
    added: Performed | None = None

    def id(self, rnd: Round) -> str:
        """The step a scenario's [[fault]] names: the id of the step in the answer key (`key
        --json`), or of the action added."""
        if self.added is not None:
            a = self.added
            return Expected(a.do, "", rnd.steps[self.step].skill, a.throw, a.seat, a.bet).id
        return rnd.steps[self.step].id

    def touches(self) -> frozenset[int]:
        return frozenset({self.step} | ({self.other} if self.other is not None else set()))


def at(log: list[Performed], p: Performed) -> int:
    """Where the very action `p` is in `log` (by identity: equal actions are not the same)."""
    return next(i for i, q in enumerate(log) if q is p)


class Op:
    """How a fault type changes the correct log."""

    dos: frozenset[Do] = frozenset()
    #: the fault changes a step of the correct log (False: it adds an action beside them)
    replaces = True

    def __init__(self, *dos: Do, when: Callable[[Round, int], bool] | None = None):
        self.dos = frozenset(dos) or self.dos
        self.when = when

    def fits(self, rnd: Round, i: int) -> bool:
        return rnd.steps[i].do in self.dos and (self.when is None or self.when(rnd, i))

    def sites(self, rnd: Round) -> list[Site]:
        return [Site(i) for i in range(len(rnd.steps)) if self.fits(rnd, i)
                and self.changed(rnd, i) is not None]

    def changed(self, rnd: Round, i: int) -> Performed | None:
        """The step done wrong, as the dealer does it (None: this op has none to do here)."""
        return None

    def apply(self, rnd: Round, log: list[Performed],
              site: Site) -> tuple[list[Performed], tuple[Performed, ...]]:
        """The log with the fault in it, and the actions the fault did (none for a step left
        out). `log` may already hold other faults, at other steps."""
        n = at(log, rnd.log[site.step])
        wrong = self.changed(rnd, site.step)
        assert wrong is not None
        return [*log[:n], wrong, *log[n + 1:]], (wrong,)


def _as(p: Performed, **changes) -> Performed:
    fields = {"do": p.do, "throw": p.throw, "seat": p.seat, "bet": p.bet, "amount": p.amount,
              "value": p.value, **changes}
    return Performed(fields["do"], fields["throw"], fields["seat"], fields["bet"], fields["amount"],
                     fields["value"])


class Omit(Op):
    """The step left undone."""

    def sites(self, rnd: Round) -> list[Site]:
        return [Site(i) for i in range(len(rnd.steps)) if self.fits(rnd, i)]

    def apply(self, rnd, log, site):
        n = at(log, rnd.log[site.step])
        return [*log[:n], *log[n + 1:]], ()


def short_by(amount: int) -> int:
    """What a short pay (or an overpay) is off by: a fifth of the payout, in whole dollars, at
    least $1; half of a payout of $1 or less."""
    return max(100, amount // 5 // 100 * 100) if amount > 100 else amount // 2


class Amount(Op):
    """A payment of another amount: `how` gives it from the right one and the wager's stake."""

    dos = frozenset({Do.PAY})

    def __init__(self, how: Callable[[int, int], int], when=None):
        super().__init__(Do.PAY, when=when)
        self.how = how

    def changed(self, rnd, i):
        p, e = rnd.log[i], rnd.steps[i]
        view = rnd.procedure.throws[e.throw - 1]
        stake = next((w.amount for w in view.layout if (w.seat, w.bet) == (e.seat, e.bet)), None)
        right = p.amount or 0
        if stake is None or right <= 1:
            return None
        amount = self.how(right, stake)
        return None if amount == right or amount <= 0 else _as(p, amount=amount)


class Swap(Op):
    """The step done as another action: a winner collected, a loser paid (even money), a no roll
    announced as dice, dice called a no roll, a wager that must be refused accepted."""

    def __init__(self, do: Do, into: Do, when=None):
        super().__init__(do, when=when)
        self.into = into

    def changed(self, rnd, i):
        p, e = rnd.log[i], rnd.steps[i]
        if self.into is Do.COLLECT:
            return _as(p, do=Do.COLLECT, amount=None)
        if self.into is Do.PAY:
            return _as(p, do=Do.PAY, amount=e.amount or 100)
        if self.into is Do.ACCEPT:
            return _as(p, do=Do.ACCEPT)
        if self.into is Do.NO_ROLL:
            game = games.get(rnd.scenario.game)
            return _as(p, do=Do.NO_ROLL, value=next(r for r in game.no_rolls if r not in game.cannot_happen))
        view = rnd.procedure.throws[e.throw - 1]  # a no roll announced as the dice
        said = choices(rnd.scenario.game, view, n=2, seed=i)
        return _as(p, do=Do.ANNOUNCE, value=said[0]) if said else None


class Revalue(Op):
    """The step done with another value: the wrong call, box, seat, marker or no-roll reason.
    The value is never one another step of the throw expects (that would be that step)."""

    def changed(self, rnd, i):
        p, e = rnd.log[i], rnd.steps[i]
        taken = {s.value for s in rnd.steps if s.throw == e.throw and s.do is e.do}
        for value in other_values(rnd, i):
            if value not in taken:
                return _as(p, value=value)
        return None


def other_values(rnd: Round, i: int) -> list[str]:
    """Wrong values a dealer could give step i, likeliest first."""
    e, game = rnd.steps[i], games.get(rnd.scenario.game)
    value = e.value or ""
    if e.do is Do.ANNOUNCE:
        return choices(rnd.scenario.game, rnd.procedure.throws[e.throw - 1], n=4, seed=i)
    if e.do is Do.NO_ROLL:
        return [r for r in game.no_rolls if r not in game.cannot_happen]
    if e.do in (Do.OFFER_DICE, Do.OFFER_SHAKER, Do.PASS_SHAKER):
        seats = sorted(rnd.scenario.players)
        return [str(s) for s in seats if str(s) != value]
    if e.do is Do.PLACE_POINTER:  # a combination "a-b": one die read wrong
        a, b = (int(x) for x in value.split("-"))
        near = [(a, b + 1), (a, b - 1), (a + 1, b), (a - 1, b)]
        return [f"{min(x, y)}-{max(x, y)}" for x, y in near if 1 <= x <= 6 and 1 <= y <= 6]
    if e.do is Do.MOVE_LAMMER:
        return ["1-5", "2-4", "3-3", "2-6", "3-5", "4-4"]
    if e.do is Do.MOVE_MARKERS:
        yard, *rest = value.split(" · ")
        return [" · ".join([str(int(yard) + step), *rest]) for step in (1, -1)
                if 0 <= int(yard) + step <= 100]
    if e.do is Do.ANNOUNCE_DOWN:  # the yard line said wrong
        line = re.search(r"(\d+)$", value)
        return [value[:line.start()] + str(int(line[1]) + step) for step in (1, -1)] if line else []
    if e.do is Do.MOVE_DICE:
        return list(FACE_VALUE)
    return []


class PayTwice(Op):
    """A winner paid a second time, just after the first."""

    dos = frozenset({Do.PAY})
    replaces = False

    def sites(self, rnd):
        return [Site(i) for i in range(len(rnd.steps)) if self.fits(rnd, i)]

    def apply(self, rnd, log, site):
        n = at(log, rnd.log[site.step])
        again = _as(log[n])
        return [*log[:n + 1], again, *log[n + 1:]], (again,)


class CollectWorking(Op):
    """A wager still working (not decided on this throw) collected after the throw's own
    steps: the grader's `standing` says which are."""

    replaces = False

    def __init__(self, bets: Callable[[str], bool] = lambda bet: True):
        super().__init__()
        self.bets = bets

    def sites(self, rnd):
        out = []
        for view in rnd.procedure.throws:
            mine = rnd.throw_steps(view.throw)
            if not mine:
                continue
            for w in view.layout:
                grab = Performed(Do.COLLECT, view.throw, w.seat, w.bet)
                if self.bets(w.bet) and standing(grab, rnd.procedure, rnd.scenario.game) is not None:
                    out.append(Site(mine[-1], added=grab))
        return out

    def apply(self, rnd, log, site):
        assert site.added is not None
        n = at(log, rnd.log[site.step])
        grab = _as(site.added)
        return [*log[:n + 1], grab, *log[n + 1:]], (grab,)


class SettleLate(Op):
    """A payment or collection done only after the dice were thrown again: moved after the next
    throw's first action. Only where no extra point roll or extra roll comes between (past one,
    the grader finds an order broken instead: trainer.grading.late_finding)."""

    def sites(self, rnd):
        out = []
        held = {s.throw for s in rnd.steps if s.do in (Do.EXTRA_POINT_ROLL, Do.EXTRA_ROLL)}
        for i in range(len(rnd.steps)):
            e = rnd.steps[i]
            if not self.fits(rnd, i) or e.throw in held:
                continue
            later = next((j for j in range(i + 1, len(rnd.steps)) if rnd.steps[j].throw > e.throw), None)
            if later is not None:
                out.append(Site(i, other=later))
        return out

    def apply(self, rnd, log, site):
        assert site.other is not None
        p = log[at(log, rnd.log[site.step])]
        rest = [q for q in log if q is not p]
        n = at(rest, rnd.log[site.other])
        late = _as(p, throw=rnd.steps[site.other].throw)
        return [*rest[:n + 1], late, *rest[n + 1:]], (late,)


class Early(Op):
    """A step done before a step of its throw that the regulation puts first (`before`: the
    actions that must come first; `same_seat`: only a step of the same player's)."""

    def __init__(self, *dos: Do, before: Sequence[Do], same_seat: bool = False, when=None):
        super().__init__(*dos, when=when)
        self.before, self.same_seat = frozenset(before), same_seat

    def sites(self, rnd):
        stage = rnd.stage_of()
        out = []
        for i in range(len(rnd.steps)):
            if not self.fits(rnd, i):
                continue
            e, ancestors = rnd.steps[i], rnd.procedure.ancestors(stage[i])
            first = next((j for j in range(i) if rnd.steps[j].throw == e.throw
                          and rnd.steps[j].do in self.before and stage[j] in ancestors
                          and (not self.same_seat or rnd.steps[j].seat == e.seat)), None)
            if first is not None:
                out.append(Site(i, other=first))
        return out

    def apply(self, rnd, log, site):
        assert site.other is not None
        p = rnd.log[site.step]
        rest = [q for q in log if q is not p]
        n = at(rest, rnd.log[site.other])
        return [*rest[:n], p, *rest[n:]], (p,)


class AfterNoMoreBets(Op):
    """A wager accepted after the dealer called "no more bets": the acceptance moved after the
    call (the grader finds the call done before a wager it must follow)."""

    dos = frozenset({Do.ACCEPT})

    def sites(self, rnd):
        out = []
        for i in range(len(rnd.steps)):
            if not self.fits(rnd, i):
                continue
            call = next((j for j in range(i + 1, len(rnd.steps)) if rnd.steps[j].do is Do.NO_MORE_BETS
                         and rnd.steps[j].throw == rnd.steps[i].throw), None)
            if call is not None:
                out.append(Site(i, other=call))
        return out

    def apply(self, rnd, log, site):
        assert site.other is not None
        p = rnd.log[site.step]
        rest = [q for q in log if q is not p]
        n = at(rest, rnd.log[site.other])
        return [*rest[:n + 1], p, *rest[n + 1:]], (p,)


@dataclass(frozen=True)
class FaultType:
    """One kind of mistake in one game."""

    id: str  # "ph-short-pay": the game's prefix and the mistake
    game: str
    fault_class: FaultClass
    words: str  # what the supervisor picks, in the regulation's words
    sections: tuple[str, ...]  # the sections it breaks ("58 Pa. Code § 668a.4"); a finding cites one
    severity: Severity
    finding: Kind  # what the grader finds
    op: Op = field(compare=False)
    #: what the dealer should have done, said to the supervisor in the debrief
    should: str = ""

    @property
    def section(self) -> str:
        return "; ".join(self.sections)

    def sites(self, rnd: Round) -> list[Site]:
        return self.op.sites(rnd) if rnd.scenario.game == self.game else []

    def to_json(self) -> dict:
        return {"id": self.id, "game": self.game, "class": self.fault_class.value,
                "words": self.words, "section": self.section, "severity": self.severity.value,
                "finding": self.finding.value}


# --- the catalogue --------------------------------------------------------------------------------

#: the no-roll reasons of a die resting cocked or on chips
COCKED = ("cocked-multiple-sides", "on-bank-chips")
PH, TDF, HRD, HRD6, PGD = ("props-and-hops", "three-dice-football", "high-roll-dice",
                           "high-roll-dice-6", "pai-gow-dice")
PREFIX = {PH: "ph", TDF: "tdf", HRD: "hrd", HRD6: "hrd6", PGD: "pgd"}
C, M = Severity.CRITICAL, Severity.MAJOR
MONEY, CALLS, RECORDS, SECURITY, ORDER = FaultClass


def sections(*parts: str) -> tuple[str, ...]:
    return tuple(cite(p) for p in parts)


def refused(why: Callable) -> Callable[[Round, int], bool]:
    """A refusal of an offer for which `why(offer)` holds (late, cash, unseated)."""
    def test(rnd: Round, i: int) -> bool:
        e = rnd.steps[i]
        view = rnd.procedure.throws[e.throw - 1] if e.throw else None
        offer = next((o for o, reason in (view.offers if view else ()) if reason
                      and (o.seat, o.bet, o.amount) == (e.seat, e.bet, e.amount)), None)
        return offer is not None and why(offer)
    return test


def reason(*names: str) -> Callable[[Round, int], bool]:
    return lambda rnd, i: rnd.steps[i].value in names


def lost(rnd: Round, i: int) -> bool:
    """A collection of a losing wager (not the High Roll Dice Extra Roll wagers, which go to the
    table inventory when they are locked out, § 675a.4(a))."""
    return "675a.4(a)" not in rnd.steps[i].cite


def _money(game: str, paytable: tuple[str, ...], wagers: tuple[str, ...]) -> list[FaultType]:
    """The money faults every game has: its paytable's sections and its wagers' sections."""
    p = PREFIX[game]
    pay, wager = sections(*paytable), sections(*wagers)
    return [
        FaultType(f"{p}-short-pay", game, MONEY, "Short pay: paid less than the paytable's odds",
                  pay, C, Kind.WRONG_AMOUNT, Amount(lambda right, stake: right - short_by(right)),
                  "pay the winning wager at the odds the paytable sets"),
        FaultType(f"{p}-overpay", game, MONEY, "Overpay: paid more than the paytable's odds",
                  pay, C, Kind.WRONG_AMOUNT, Amount(lambda right, stake: right + short_by(right)),
                  "pay the winning wager at the odds the paytable sets"),
        FaultType(f"{p}-even-money", game, MONEY, "Paid at the wrong odds: even money on a wager "
                  "the paytable pays otherwise", pay, C, Kind.WRONG_AMOUNT,
                  Amount(lambda right, stake: stake), "pay at the odds of the wager's paytable"),
        FaultType(f"{p}-winner-collected", game, MONEY, "A winning wager collected", wager, C,
                  Kind.EXTRA, Swap(Do.PAY, Do.COLLECT), "pay out the winning wager"),
        FaultType(f"{p}-loser-paid", game, MONEY, "A losing wager paid", wager, C, Kind.EXTRA,
                  Swap(Do.COLLECT, Do.PAY, when=lost), "collect the losing wager"),
        FaultType(f"{p}-winner-unpaid", game, MONEY, "A winning wager left unpaid", wager, C,
                  Kind.MISSING, Omit(Do.PAY), "pay out the winning wager"),
        FaultType(f"{p}-loser-left", game, MONEY, "A losing wager left on the layout", wager, C,
                  Kind.MISSING, Omit(Do.COLLECT, when=lost), "collect the losing wager"),
    ]


def _catalogue() -> list[FaultType]:
    out: list[FaultType] = []
    # Props & Hops, 58 Pa. Code Chapter 668a
    out += _money(PH, ("668a.4",), ("668a.2",))
    out += [
        FaultType("ph-paid-twice", PH, MONEY, "A winning wager paid twice", sections("668a.2"), C,
                  Kind.EXTRA, PayTwice(), "pay each winning wager once"),
        FaultType("ph-shake-collected-working", PH, MONEY, "A Six Eight Shake wager collected "
                  "while it is still working", sections("668a.2(f)(8)"), C, Kind.EXTRA,
                  CollectWorking(), "leave the wager in its circle until a seven or the sixth lammer"),
        FaultType("ph-take-down-kept", PH, MONEY, "A wager taken down and not returned",
                  sections("668a.2(f)(8)"), C, Kind.MISSING, Omit(Do.TAKE_DOWN),
                  "return the wager the player took down"),
        FaultType("ph-settled-late", PH, MONEY, "A wager settled only after the dice were thrown "
                  "again", sections("668a.3(i)"), C, Kind.LATE, SettleLate(Do.PAY, Do.COLLECT),
                  "collect losing wagers and pay winning wagers before the next shake"),
        FaultType("ph-wrong-call", PH, CALLS, "The dice announced wrong", sections("668a.3(h)"),
                  M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE), "announce the skyward faces"),
        FaultType("ph-no-more-bets-missed", PH, CALLS, "\"No more bets\" not called",
                  sections("668a.3(e)"), M, Kind.MISSING, Omit(Do.NO_MORE_BETS),
                  "call \"no more bets\" after all players have placed their wagers"),
        FaultType("ph-no-roll-missed", PH, CALLS, "A no roll announced as a roll",
                  sections("668a.3(f)", "668a.3(g)", "668a.3(h)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE), "call \"no roll\""),
        FaultType("ph-no-roll-reason", PH, CALLS, "A no roll called for the wrong reason",
                  sections("668a.3(f)", "668a.3(g)", "668a.3(h)"), M, Kind.WRONG_CALL,
                  Revalue(Do.NO_ROLL), "call the no roll for what happened"),
        FaultType("ph-valid-roll-called-no-roll", PH, CALLS, "A valid roll called a no roll",
                  sections("668a.3(h)"), M, Kind.WRONG_CALL, Swap(Do.ANNOUNCE, Do.NO_ROLL),
                  "announce the skyward faces"),
        FaultType("ph-pointer-wrong", PH, RECORDS, "The pointer placed on the wrong combination",
                  sections("668a.3(h)"), M, Kind.WRONG_RECORD, Revalue(Do.PLACE_POINTER),
                  "place the pointer on the combination thrown"),
        FaultType("ph-pointer-missed", PH, RECORDS, "The pointer not placed", sections("668a.3(h)"),
                  M, Kind.MISSING, Omit(Do.PLACE_POINTER), "place the pointer on the combination thrown"),
        FaultType("ph-lammers-not-placed", PH, RECORDS, "The lammers not placed for a Six Eight "
                  "Shake", sections("668a.3(e)"), M, Kind.MISSING, Omit(Do.PLACE_LAMMERS),
                  "place a lammer on each Six Eight Shake combination"),
        FaultType("ph-lammer-not-moved", PH, RECORDS, "A lammer not moved to the Six Eight Shake "
                  "circles", sections("668a.3(i)"), M, Kind.MISSING, Omit(Do.MOVE_LAMMER),
                  "move the lammer of the combination thrown"),
        FaultType("ph-wrong-lammer", PH, RECORDS, "The wrong lammer moved", sections("668a.3(i)"),
                  M, Kind.WRONG_RECORD, Revalue(Do.MOVE_LAMMER),
                  "move the lammer of the combination thrown"),
        FaultType("ph-shaker-to-wrong-player", PH, RECORDS, "The shaker passed to the wrong player",
                  sections("668a.3(k)"), M, Kind.WRONG_RECORD, Revalue(Do.PASS_SHAKER),
                  "pass the shaker to the next player to the left"),
        FaultType("ph-shaker-not-shaken", PH, RECORDS, "The covered shaker not shaken",
                  sections("668a.3(d)", "668a.3(j)"), M, Kind.MISSING, Omit(Do.COVER_AND_SHAKE),
                  "cover the shaker and shake it"),
        FaultType("ph-late-wager-accepted", PH, SECURITY, "A late wager accepted",
                  sections("668a.2(a)"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT, when=refused(lambda o: o.late)),
                  "refuse a wager made after the dice are shaken"),
        FaultType("ph-improper-wager-accepted", PH, SECURITY, "A cash or unseated player's wager "
                  "accepted", sections("668a.2(b)", "668a.2(c)"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT, when=refused(lambda o: o.cash or not o.seated)),
                  "refuse it: wagers are made with chips by seated players"),
        FaultType("ph-paid-before-collected", PH, ORDER, "Winners paid before the losers were "
                  "collected", sections("668a.3(i)"), M, Kind.OUT_OF_ORDER,
                  Early(Do.PAY, before=(Do.COLLECT,)), "collect all losing wagers first"),
        FaultType("ph-wager-after-no-more-bets", PH, ORDER, "A wager taken after \"no more bets\"",
                  sections("668a.3(e)"), M, Kind.OUT_OF_ORDER, AfterNoMoreBets(),
                  "take every wager before calling \"no more bets\""),
    ]
    # Three Dice Football, 58 Pa. Code Chapter 577
    out += _money(TDF, ("577.8",), ("577.3",))
    out += [
        FaultType("tdf-full-game-collected-working", TDF, MONEY, "A full game wager collected "
                  "before the game ended", sections("577.6(f)"), C, Kind.EXTRA, CollectWorking(),
                  "leave a full game wager up until the game ends"),
        FaultType("tdf-settled-late", TDF, MONEY, "A wager settled only after the next throw",
                  sections("577.6"), C, Kind.LATE, SettleLate(Do.PAY, Do.COLLECT),
                  "settle the single play wagers before the next throw"),
        FaultType("tdf-wrong-call", TDF, CALLS, "The throw announced wrong", sections("577.5(e)"),
                  M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE), "announce the dice and the play"),
        FaultType("tdf-down-wrong", TDF, CALLS, "The down and distance announced wrong",
                  sections("577.6(d)"), M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE_DOWN),
                  "announce the down and the yard line"),
        FaultType("tdf-down-missed", TDF, CALLS, "The down and distance not announced",
                  sections("577.6(d)"), M, Kind.MISSING, Omit(Do.ANNOUNCE_DOWN),
                  "announce the down and the yard line"),
        FaultType("tdf-no-roll-missed", TDF, CALLS, "A no roll announced as a play",
                  sections("577.5"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=lambda r, i: not reason(*COCKED)(r, i)),
                  "call \"no roll\""),
        FaultType("tdf-no-roll-reason", TDF, CALLS, "A no roll called for the wrong reason",
                  sections("577.5"), M, Kind.WRONG_CALL, Revalue(Do.NO_ROLL),
                  "call the no roll for what happened"),
        FaultType("tdf-valid-throw-called-no-roll", TDF, CALLS, "A valid throw called a no roll",
                  sections("577.5(e)"), M, Kind.WRONG_CALL, Swap(Do.ANNOUNCE, Do.NO_ROLL),
                  "announce the dice and the play"),
        FaultType("tdf-extra-point-missed", TDF, CALLS, "The extra point roll not made",
                  sections("577.6(f)(1)"), M, Kind.MISSING, Omit(Do.EXTRA_POINT_ROLL),
                  "roll for the extra point while an Extra Point wager is up"),
        FaultType("tdf-yard-marker-wrong", TDF, RECORDS, "The Yard Marker on the wrong yard line",
                  sections("577.6(c)"), M, Kind.WRONG_RECORD, Revalue(Do.MOVE_MARKERS),
                  "move the Yard Marker to the yard line the play reached"),
        FaultType("tdf-markers-not-moved", TDF, RECORDS, "The Yard Marker and pucks not moved",
                  sections("577.6(c)"), M, Kind.MISSING, Omit(Do.MOVE_MARKERS),
                  "move the Yard Marker, the Down Puck and the Game Length Puck"),
        FaultType("tdf-markers-not-set", TDF, RECORDS, "The pucks and Yard Marker not set for the "
                  "game", sections("577.6(a)"), M, Kind.MISSING, Omit(Do.SET_MARKERS),
                  "set the Yard Marker and pucks before the first play"),
        FaultType("tdf-dice-to-wrong-player", TDF, RECORDS, "The dice offered to the wrong player",
                  sections("577.4", "577.7(a)"), M, Kind.WRONG_RECORD, Revalue(Do.OFFER_DICE),
                  "offer the dice to the Quarterback"),
        FaultType("tdf-lost-die-no-new-set", TDF, SECURITY, "Play went on after a lost die without "
                  "a new set of dice", sections("577.4(d)"), C, Kind.MISSING, Omit(Do.NEW_DICE),
                  "bring a new set of dice"),
        FaultType("tdf-cocked-die-called-valid", TDF, SECURITY, "A die cocked or on chips called a "
                  "valid play", sections("577.5(c)(3)", "577.5(f)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=reason(*COCKED)), "call \"no roll\""),
        FaultType("tdf-late-wager-accepted", TDF, SECURITY, "A single play wager accepted after "
                  "the Quarterback's throw", sections("577.3(e)"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT, when=refused(lambda o: o.late)),
                  "refuse it: single play wagers are placed before the throw"),
        FaultType("tdf-settled-out-of-order", TDF, ORDER, "The end of the game settled out of the "
                  "order the text sets", sections("577.6(f)(1)", "577.6(f)(2)"), M,
                  Kind.OUT_OF_ORDER, Early(Do.PAY, Do.COLLECT, before=(Do.PAY, Do.COLLECT)),
                  "settle in the order of § 577.6(f)"),
    ]
    # High Roll Dice, 58 Pa. Code Chapter 675a (ten dice, then the six-dice variation)
    out += _money(HRD, ("675a.5",), ("675a.2", "675a.4(h)"))
    out += [
        FaultType("hrd-paid-twice", HRD, MONEY, "A winning wager paid twice",
                  sections("675a.2", "675a.4(h)"), C, Kind.EXTRA, PayTwice(),
                  "pay each winning wager once"),
        FaultType("hrd-held-like-kind-collected", HRD, MONEY, "A Like Kind wager held for the "
                  "Extra Roll collected", sections("675a.4(f)(2)(ii)"), C, Kind.EXTRA,
                  CollectWorking(lambda bet: bet.startswith("like-kind-")),
                  "leave it in action until the extra roll decides it"),
        FaultType("hrd-extra-roll-not-collected", HRD, MONEY, "The Extra Roll wagers not collected "
                  "into the table inventory when locked out", sections("675a.4(a)"), C,
                  Kind.MISSING, Omit(Do.COLLECT, when=lambda r, i: not lost(r, i)),
                  "collect every Extra Roll wager into the table inventory"),
        FaultType("hrd-settled-late", HRD, MONEY, "A wager settled only after the dice were "
                  "thrown again", sections("675a.4"), C, Kind.LATE, SettleLate(Do.PAY, Do.COLLECT),
                  "settle each player's wagers after the throw"),
        FaultType("hrd-wrong-call", HRD, CALLS, "The dice announced wrong",
                  sections("675a.4(d)", "675a.4(h)"), M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE),
                  "announce the face that matched most and how many"),
        FaultType("hrd-no-more-bets-missed", HRD, CALLS, "\"No more bets\" not called",
                  sections("675a.4(a)"), M, Kind.MISSING, Omit(Do.NO_MORE_BETS),
                  "call \"no more bets\" before the shake"),
        FaultType("hrd-no-roll-missed", HRD, CALLS, "A no roll announced as a roll",
                  sections("675a.4(b)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=lambda r, i: not reason(*COCKED)(r, i)),
                  "call \"no roll\""),
        FaultType("hrd-valid-roll-called-no-roll", HRD, CALLS, "A valid roll called a no roll",
                  sections("675a.4(d)", "675a.4(h)"), M, Kind.WRONG_CALL,
                  Swap(Do.ANNOUNCE, Do.NO_ROLL),
                  "announce the face that matched most and how many"),
        FaultType("hrd-dice-not-boxed", HRD, RECORDS, "The matching dice not moved to their throw "
                  "box", sections("675a.4(e)"), M, Kind.MISSING, Omit(Do.MOVE_DICE),
                  "move the matching dice to the throw box of their face"),
        FaultType("hrd-dice-wrong-box", HRD, RECORDS, "The matching dice moved to the wrong throw "
                  "box", sections("675a.4(e)"), M, Kind.WRONG_RECORD, Revalue(Do.MOVE_DICE),
                  "move the matching dice to the throw box of their face"),
        FaultType("hrd-extra-roll-not-locked", HRD, RECORDS, "The Extra Roll wagers not locked out",
                  sections("675a.4(a)"), M, Kind.MISSING, Omit(Do.LOCK_OUT_EXTRA_ROLL),
                  "lock out the Extra Roll wagers at \"no more bets\""),
        FaultType("hrd-extra-roll-not-made", HRD, RECORDS, "The extra roll not made",
                  sections("675a.4(g)"), M, Kind.MISSING, Omit(Do.EXTRA_ROLL),
                  "gather, shake and throw the dice that did not match"),
        FaultType("hrd-cocked-die-called-valid", HRD, SECURITY, "A cocked die called a valid roll",
                  sections("675a.4(c)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=reason(*COCKED)), "call \"no roll\""),
        FaultType("hrd-improper-wager-accepted", HRD, SECURITY, "A wager the rules refuse accepted",
                  sections("675a.1", "675a.2"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT), "refuse the wager"),
        FaultType("hrd-settled-out-of-order", HRD, ORDER, "A player's wagers settled out of the "
                  "order the text sets", sections("675a.4(f)"), M, Kind.OUT_OF_ORDER,
                  Early(Do.PAY, Do.COLLECT, before=(Do.PAY, Do.COLLECT), same_seat=True),
                  "settle each player's Pip, then Like Kind, then Millionaire wagers"),
    ]
    out += _money(HRD6, ("675a.6",), ("675a.6(d)",))
    out += [
        FaultType("hrd6-paid-twice", HRD6, MONEY, "A winning wager paid twice", sections("675a.6"),
                  C, Kind.EXTRA, PayTwice(), "pay each winning wager once"),
        FaultType("hrd6-wrong-call", HRD6, CALLS, "The dice announced wrong", sections("675a.6(h)"),
                  M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE), "announce the face that matched most"),
        FaultType("hrd6-no-more-bets-missed", HRD6, CALLS, "\"No more bets\" not called",
                  sections("675a.6(g)"), M, Kind.MISSING, Omit(Do.NO_MORE_BETS),
                  "call \"no more bets\" before the shake"),
        FaultType("hrd6-no-roll-missed", HRD6, CALLS, "A no roll announced as a roll",
                  sections("675a.4(b)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=lambda r, i: not reason(*COCKED)(r, i)),
                  "call \"no roll\""),
        FaultType("hrd6-valid-roll-called-no-roll", HRD6, CALLS, "A valid roll called a no roll",
                  sections("675a.6(h)"), M, Kind.WRONG_CALL, Swap(Do.ANNOUNCE, Do.NO_ROLL),
                  "announce the face that matched most"),
        FaultType("hrd6-dice-not-boxed", HRD6, RECORDS, "The matching dice not moved to their "
                  "throw box", sections("675a.6(h)"), M, Kind.MISSING, Omit(Do.MOVE_DICE),
                  "move the matching dice to the throw box of their face"),
        FaultType("hrd6-dice-wrong-box", HRD6, RECORDS, "The matching dice moved to the wrong "
                  "throw box", sections("675a.6(h)"), M, Kind.WRONG_RECORD, Revalue(Do.MOVE_DICE),
                  "move the matching dice to the throw box of their face"),
        FaultType("hrd6-not-shaken", HRD6, RECORDS, "The dice not shaken and thrown",
                  sections("675a.4(b)"), M, Kind.MISSING, Omit(Do.SHAKE_AND_THROW),
                  "cover the shaker, shake it and throw the dice"),
        FaultType("hrd6-cocked-die-called-valid", HRD6, SECURITY, "A cocked die called a valid "
                  "roll", sections("675a.4(c)"), M, Kind.WRONG_CALL,
                  Swap(Do.NO_ROLL, Do.ANNOUNCE, when=reason(*COCKED)), "call \"no roll\""),
        FaultType("hrd6-improper-wager-accepted", HRD6, SECURITY, "A wager the rules refuse "
                  "accepted", sections("675a.1", "675a.2", "675a.6"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT), "refuse the wager"),
        FaultType("hrd6-wager-after-no-more-bets", HRD6, ORDER, "A wager taken after \"no more "
                  "bets\"", sections("675a.6(g)"), M, Kind.OUT_OF_ORDER, AfterNoMoreBets(),
                  "take every wager before calling \"no more bets\""),
    ]
    # Pai Gow Poker dice wagers, 58 Pa. Code Chapter 645c
    out += _money(PGD, ("645c.2(g)",), ("645c.2(e)",))
    out += [
        FaultType("pgd-paid-twice", PGD, MONEY, "A winning wager paid twice", sections("645c.2"),
                  C, Kind.EXTRA, PayTwice(), "pay each winning wager once"),
        FaultType("pgd-wrong-call", PGD, CALLS, "The dice announced wrong", sections("645c.2(g)"),
                  M, Kind.WRONG_CALL, Revalue(Do.ANNOUNCE), "announce the red die and the blue dice"),
        FaultType("pgd-no-more-bets-missed", PGD, CALLS, "\"No more bets\" not called",
                  sections("645c.2(f)"), M, Kind.MISSING, Omit(Do.NO_MORE_BETS),
                  "call \"no more bets\" before the shaker is used"),
        FaultType("pgd-valid-roll-called-no-roll", PGD, CALLS, "A valid roll called a no roll",
                  sections("645c.2(g)"), M, Kind.WRONG_CALL, Swap(Do.ANNOUNCE, Do.NO_ROLL),
                  "announce the red die and the blue dice"),
        FaultType("pgd-late-wager-accepted", PGD, SECURITY, "A wager accepted after the shaker was "
                  "used", sections("645c.2(f)"), C, Kind.ACCEPTED_IMPROPER,
                  Swap(Do.REFUSE, Do.ACCEPT, when=refused(lambda o: o.late)),
                  "refuse a wager placed after the shaker is used"),
        FaultType("pgd-wager-after-no-more-bets", PGD, ORDER, "A wager taken after \"no more "
                  "bets\"", sections("645c.2(f)"), M, Kind.OUT_OF_ORDER, AfterNoMoreBets(),
                  "take every wager before calling \"no more bets\""),
    ]
    return out

CATALOGUE: dict[str, FaultType] = {t.id: t for t in _catalogue()}


def of_game(game: str) -> list[FaultType]:
    """The fault types of one game, in the catalogue's order."""
    return [t for t in CATALOGUE.values() if t.game == game]
