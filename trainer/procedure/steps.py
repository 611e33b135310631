"""What every game's procedure module builds on: the context the driver walks the events with,
the game's steps around each throw (`GameSteps`, with its wager rules), and the engine's
settlement steps turned into expected actions (`settlement`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, NoReturn, TypeVar

from trainer.cite import cite, reading
from trainer.games.base import Table
from trainer.games.three_dice_football import GAME_ENDED, markers_value
from trainer.procedure.dealing import Deal
from trainer.procedure.model import Do, Expected, Procedure, Prompt, Skill, ThrowView
from trainer.scenario import Event, Offer, Scenario, ScenarioError
from trainer.settlement import Line, Step, ThrowReport
from trainer.table_state import TableSnapshot

#: a game's own table (trainer.games.<game>.Table): what its steps see of the rules engine
TableT = TypeVar("TableT", bound=Table)


@dataclass
class Context(Generic[TableT]):
    """What a game module sees while the driver walks the events."""

    scenario: Scenario
    table: TableT
    proc: Procedure = field(default_factory=Procedure)
    throw: int = 0
    new_round: bool = True  # the next throw starts a new round (not a retry after a no roll)
    last_event: Event | None = None

    def add(self, do: Do, section: str, skill: Skill, note: str = "", *, seat: int | None = None,
            bet: str | None = None, amount: int | None = None, value: str | None = None) -> None:
        self.proc.add(self.expect(do, section, skill, note, seat=seat, bet=bet, amount=amount,
                                  value=value))

    def cite(self, section: str) -> str:
        """A section such as "668a.3(e)" cited in full; a full citation or a reading as it is."""
        return section if " " in section else cite(section)

    def expect(self, do: Do, section: str, skill: Skill, note: str = "", *, seat: int | None = None,
               bet: str | None = None, amount: int | None = None,
               value: str | None = None) -> Expected:
        where = self.cite(section)
        return Expected(do, where, skill, self.throw, seat, bet, amount, value, note, where)

    def fail(self, event: Event | None, message: str, field_: str | None = None) -> NoReturn:
        """A ScenarioError at the event's line (the events' when there is none)."""
        where = field_ or (event.where if event is not None else "events")
        raise ScenarioError(self.scenario.path, self.scenario.line_of(where), message)


def settlement(ctx: Context[TableT], report: ThrowReport, skip_inventory: bool = False,
               skip_markers: bool = False) -> None:
    """The engine's settlement steps of a throw, as stages of expected actions.

    The stages keep the steps' order, loosened only where the regulation allows (reading
    "settlement-orders"):
    - steps that name a seat are that player's own chain, and players are independent of each
      other (§ 675a.4(f) orders the wagers within one player);
    - a step `with_previous` is one stage with the step before it: the text joins them with
      "and", so they come in any order (collecting and paying § 645c.2(g), § 675a.4(f)(1),
      § 577.6(d); single play and full game wagers, § 577.6(f));
    - a lammer move may come before, between or after the collections and payments; the Six
      Eight Shake is paid after the sixth lammer moves (§ 668a.3(i)).
    """
    work = [s for s in report.steps
            if not (skip_inventory and s.detail.get("to") == "table inventory")
            and not (skip_markers and s.action is Do.MOVE_MARKERS)]
    proc, n = ctx.proc, 0
    while n < len(work):
        seated = work[n].detail.get("seat") is not None
        end = n
        while end < len(work) and (work[end].detail.get("seat") is not None) == seated:
            end += 1
        if not seated:
            _order(ctx, work[n:end])
        else:
            lanes: dict[object, list[Step]] = {}
            for step in work[n:end]:
                lanes.setdefault(step.detail["seat"], []).append(step)
            base, ends = proc.tail, set[int]()
            for chain in lanes.values():
                proc.tail = base
                _order(ctx, chain)
                ends |= proc.tail
            proc.tail = frozenset(ends)
        n = end


def _order(ctx: Context[TableT], steps: list[Step]) -> None:
    """Stages for a run of steps in one chain (see settlement)."""
    proc = ctx.proc
    last_collect: tuple[int, frozenset[int]] | None = None  # (stage, what it waited for)
    lammer: int | None = None  # a lammer move's stage, beside the collections and payments
    group: list[Expected] = []  # the collections and payments of one stage, still to add

    def close_group() -> None:
        nonlocal group, last_collect, lammer
        if group and lammer is not None:
            _pay_beside_lammer(proc, group, lammer)
            last_collect = lammer = None
        elif group:
            before = proc.tail
            stage = proc.add(*group)
            last_collect = (stage, before) if all(a.do is Do.COLLECT for a in group) else None
        group = []

    for step in steps:
        if step.action in (Do.COLLECT, Do.PAY):
            if not step.with_previous:
                close_group()
            group += [_line(ctx, step, line) for line in step.lines]
            continue
        close_group()
        expected = _other(ctx, step)
        if expected is None:
            continue
        if step.action is Do.MOVE_LAMMER:  # § 668a.3(i) "provided that": no order of its own
            waits = last_collect[1] if last_collect is not None else proc.tail
            lammer = proc.add(expected, after=waits)
            proc.tail = frozenset({lammer} | ({last_collect[0]} if last_collect else waits))
        else:
            proc.add(expected)
        last_collect = None
    close_group()


def _pay_beside_lammer(proc: Procedure, pays: list[Expected], lammer: int) -> None:
    """The payments after a lammer move: they wait for the collections only, except the Six
    Eight Shake's, which § 668a.3(i) pays once all six lammers are in the circles."""
    base = proc.tail - {lammer}
    ends = {lammer}
    for part, after in (([a for a in pays if a.bet != "six-eight-shake"], base),
                        ([a for a in pays if a.bet == "six-eight-shake"], base | {lammer})):
        if part:
            ends.add(proc.add(*part, after=after))
    proc.tail = frozenset(ends)


def _line(ctx: Context[TableT], step: Step, line: Line) -> Expected:
    do = Do.COLLECT if line.payout is None else Do.PAY
    return Expected(do, line.cite, skill_of(do, line.bet, step.cite), ctx.throw, line.seat,
                    line.bet, line.amount if line.payout is None else line.payout,
                    note=(f"{line.odds} under {line.odds_cite}" if line.payout is not None
                          else "a losing wager"), order_cite=step.cite,
                    pays_cite=line.odds_cite or "")


def _other(ctx: Context[TableT], step: Step) -> Expected | None:
    """The expected action of a step that is not a collection or a payment."""
    if step.action is Do.MOVE_LAMMER:
        return Expected(Do.MOVE_LAMMER, step.cite, Skill.SIX_EIGHT_SHAKE, ctx.throw,
                        value=str(step.detail["combination"]), order_cite=step.cite,
                        note=f"lammer {step.detail['lammers_moved']} of 6")
    if step.action is Do.MOVE_MARKERS:
        d = step.detail
        note = ("the Yard Marker to the yard line the play reached, the Down Puck to the next down, "
                "the Game Length Puck to the next play" if d["down"] else
                f"{GAME_ENDED} {d['play']}: the Yard Marker moves, the pucks stay "
                f"({reading('tdf-pucks')})")
        return Expected(Do.MOVE_MARKERS, step.cite, Skill.MARKERS, ctx.throw,
                        value=markers_value(d["yard_line"], d["down_puck"], d["game_length_puck"]),
                        note=note, order_cite=step.cite)
    if step.action is Do.EXTRA_POINT_ROLL:
        return Expected(Do.EXTRA_POINT_ROLL, step.cite, Skill.END_OF_GAME, ctx.throw,
                        note="an Extra Point wager stands after the touchdown", order_cite=step.cite)
    if step.action is Do.EXTRA_ROLL:
        return Expected(Do.EXTRA_ROLL, step.cite, Skill.EXTRA_ROLL, ctx.throw,
                        value=str(step.detail["dice"]), order_cite=step.cite,
                        note=f"gather the {step.detail['dice']} dice that are not "
                             f"{step.detail['face']}s; cover, shake at least three times and "
                             "throw them (§ 675a.4(b))")
    return None


def skill_of(do: Do, bet: str, step_cite: str) -> Skill:
    if bet == "six-eight-shake":
        return Skill.SIX_EIGHT_SHAKE
    if "577.6(f)" in step_cite:
        return Skill.END_OF_GAME
    if "675a.4(f)(2)(ii)" in step_cite or "675a.4(h)" in step_cite:
        return Skill.EXTRA_ROLL
    return Skill.COLLECTING if do is Do.COLLECT else Skill.PAYOUTS


class GameSteps(Generic[TableT]):
    """What a game adds around each throw; the default adds nothing. Its wager rules:
    `improper` (what refuses a cash offer, an unseated player's and a late one: a section, or a
    reading where the chapter has no text), `late_reason` (why a late offer is refused, in the
    game's words) and `accept` (the section that authorises taking a proper wager)."""

    improper: tuple[str, str, str] = ("", "", "")
    late_reason: str = ""
    accept: str = ""

    #: skills only this game's rounds have: a drill of one, with no game chosen, deals this game
    own_skills: tuple[Skill, ...] = ()

    def deal(self, d: Deal) -> tuple[dict, list[Offer], list[Event]]:
        """A random round's options, opening wagers and events (trainer.procedure.dealing)."""
        raise NotImplementedError(f"{type(self).__name__} deals no random rounds")

    def prompt(self, do: Do, view: ThrowView, shown: TableSnapshot) -> Prompt | None:
        """What one of this game's own actions asks of the trainee, on the throw `view`, with the
        table showing `shown` (its state before the action); None for nothing."""
        return None

    def start(self, ctx: Context[TableT]) -> None: ...
    def reject(self, ctx: Context[TableT], event: Event) -> None:
        ctx.fail(event, "this game has no such event")
    def take_down(self, ctx: Context[TableT], event: Event) -> list[Expected]:
        return []  # the actions of a take-down, done with the wagers before the throw

    def late(self, offer: Offer) -> tuple[str, str] | None:
        """(reason, section) for an offer marked late, where the game's default does not fit."""
        return None
    def before_throw(self, ctx: Context[TableT], event: Event) -> None: ...
    def after_throw(self, ctx: Context[TableT], event: Event, report: ThrowReport) -> None: ...
    def finish(self, ctx: Context[TableT]) -> None: ...
    def snapshot(self, ctx: Context[TableT]) -> TableSnapshot:
        return {}
