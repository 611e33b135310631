"""From a scenario to its expected procedure: the driver the four games share.

The driver plays the scenario's events through the game's own table (the rules engine), so the
procedure and the answer key can never disagree with `settle`. A game module adds what happens
around the throw (trainer.procedure.<game>); this module adds what every game shares: deciding
the wagers offered, and turning the engine's settlement steps into expected actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainer import games
from trainer.cite import cite, reading
from trainer.errors import RequestError
from trainer.procedure.model import Do, Expected, Procedure, RoundView, Skill
from trainer.scenario import Event, Offer, Scenario, ScenarioError
from trainer.settlement import Action, Refusal, Step, ThrowReport, Wager

#: what refuses an improper offer, per game: cash, not seated, late (a section, or a reading
#: where the chapter has no text: reading "improper-offers")
IMPROPER = {
    "props-and-hops": ("668a.2(b)", "668a.2(c)", "668a.2(a)"),
    "three-dice-football": ("577.3(a)", reading("improper-offers"), "577.3(e)"),
    "high-roll-dice": ("675a.2(b)", "675a.2(c)", "675a.2(a)"),
    "high-roll-dice-6": ("675a.2(b)", "675a.2(c)", "675a.2(a)"),
    "pai-gow-dice": (reading("improper-offers"), reading("improper-offers"), "645c.2(f)"),
}
#: why a late offer is refused, in each game's words
LATE = {
    "props-and-hops": "wagers are made before the dice are shaken",
    "three-dice-football": "single play wagers are placed before the Quarterback's throw",
    "high-roll-dice": "wagers are made before the dice are shaken",
    "high-roll-dice-6": "wagers are made before the dice are shaken",
    "pai-gow-dice": "a wager must be placed before the shaker is used",
}
#: the section that authorises taking a proper wager
ACCEPT = {"props-and-hops": "668a.2(b)", "three-dice-football": "577.3(a)",
          "high-roll-dice": "675a.2(b)", "high-roll-dice-6": "675a.2(b)",
          "pai-gow-dice": "645c.2(f)"}


@dataclass
class Context:
    """What a game module sees while the driver walks the events."""

    scenario: Scenario
    table: object
    proc: Procedure = field(default_factory=Procedure)
    round: int = 0
    new_round: bool = True  # the next throw starts a new round (not a retry after a no roll)
    last_event: Event | None = None

    def add(self, do: Do, section: str, skill: Skill, note: str = "", **fields) -> None:
        self.proc.add(self.expect(do, section, skill, note, **fields))

    def cite(self, section: str) -> str:
        """A section such as "668a.3(e)" cited in full; a full citation or a reading as it is."""
        return section if " " in section else cite(section)

    def expect(self, do: Do, section: str, skill: Skill, note: str = "", **fields) -> Expected:
        where = self.cite(section)
        return Expected(do, where, skill, self.round, note=note, order_cite=where, **fields)

    def fail(self, event: Event, message: str, field_: str | None = None):
        where = field_ or event.where
        raise ScenarioError(self.scenario.path, self.scenario.line_of(where), message)


def build(scenario: Scenario) -> Procedure:
    """The expected procedure of a scenario; ScenarioError if an event cannot happen.

    Events take effect in the order of the file: a wager offered before a take-down is judged
    before the take-down (so it can still be refused because a lammer has moved)."""
    from trainer.procedure import game_steps

    game = games.get(scenario.game)
    ctx = Context(scenario, game.new_table(scenario.options))
    steps = game_steps(scenario.game)
    steps.start(ctx)
    pending: list[Offer | Event] = list(scenario.wagers)  # offers and take-downs, in file order
    for event in scenario.events:
        ctx.last_event = event
        if event.type == "wager":
            pending.append(event.offer)
            continue
        if event.type == "take-down":
            pending.append(event)
            continue
        if event.type == "reject-dice":
            steps.reject(ctx, event)
            continue
        if ctx.table.over:
            ctx.fail(event, "an extra roll, but no player bought one" if event.type == "extra-roll"
                     else "the round is already over; this throw cannot happen")
        ctx.round += 1
        decided = decide(ctx, steps, pending)
        pending = []
        steps.before_throw(ctx, event)
        layout = tuple(ctx.table.open_wagers())
        try:
            throw = ctx.table.parse_throw(event.throw, event.where)
        except RequestError as e:
            ctx.fail(event, e.message, e.field)
        report = ctx.table.throw(throw)
        steps.after_throw(ctx, event, report)
        ctx.proc.rounds.append(RoundView(ctx.round, decided, layout, event, report.valid,
                                         report.call, dict(report.result), steps.snapshot(ctx)))
        ctx.new_round = report.valid
    for item in pending:
        if isinstance(item, Event):
            ctx.fail(item, "a take-down after the last throw: the wager was already settled or "
                           "the round is over, so there is nothing to take down")
        ctx.fail(Event("wager", item.where), "a wager is offered after the last throw")
    steps.finish(ctx)
    return ctx.proc


def decide(ctx: Context, steps: GameSteps, pending: list) -> tuple:
    """One stage: the take-downs, and accepting or refusing each wager offered before this
    throw, applied to the table in the order they came. Returns the offers with the reason each
    refused one is refused ("" when accepted)."""
    game_id = ctx.scenario.game
    cash, unseated, late = IMPROPER[game_id]
    decided: list[tuple[Offer, Wager | None, Refusal | None]] = []
    take_downs: list[Expected] = []
    for item in pending:
        if isinstance(item, Event):
            if not ctx.table.take_down(item.seat, item.bet):
                ctx.fail(item, f"no {item.bet} wager from seat {item.seat} is on the layout to "
                               "take down")
            take_downs += steps.take_down(ctx, item)
            continue
        o, wager = item, Wager(item.seat, item.bet, item.amount)
        if o.cash:
            decided.append((o, None, Refusal(wager, "a verbal wager with cash may not be accepted",
                                             ctx.cite(cash))))
        elif not o.seated:
            decided.append((o, None, Refusal(wager, "only seated players may wager",
                                             ctx.cite(unseated))))
        elif o.late:
            reason, section = steps.late(o) or (LATE[game_id], late)
            decided.append((o, None, Refusal(wager, reason, ctx.cite(section))))
        else:
            decided.append((o, wager, ctx.table.offer(wager)))
    # refusals at "no more bets" (High Roll Dice judges a seat's wagers whole): by seat and bet,
    # since chips on one bet are one wager
    later = {(r.wager.seat, r.wager.bet): r for r in ctx.table.no_more_bets()}
    actions, shown = list(take_downs), []
    for o, wager, refusal in decided:
        if refusal is None and wager is not None:
            refusal = later.get((o.seat, o.bet))
        shown.append((o, refusal.reason if refusal else ""))
        if refusal is not None:
            actions.append(ctx.expect(Do.REFUSE, refusal.cite, Skill.WAGERS, refusal.reason,
                                      seat=o.seat, bet=o.bet, amount=o.amount))
        else:
            actions.append(ctx.expect(Do.ACCEPT, ACCEPT[game_id], Skill.WAGERS,
                                      "a proper wager from a seated player", seat=o.seat, bet=o.bet,
                                      amount=o.amount))
    ctx.proc.add(*actions)
    return tuple(shown)


def settlement(ctx: Context, report: ThrowReport, skip_inventory: bool = False,
               unordered: frozenset[str] = frozenset(), collect_first: bool = False,
               skip_markers: bool = False) -> None:
    """The engine's settlement steps of a throw, as stages of expected actions.

    The stages keep the steps' order, loosened only where the regulation allows (reading
    "settlement-orders"):
    - steps that name a seat are that player's own chain, and players are independent of each
      other (§ 675a.4(f) orders the wagers within one player);
    - a collect step and the pay step after it are one stage, in any order, when their
      citation is in `unordered` (§ 675a.4(f)(2)(ii));
    - a lammer move may come before or after the collections, and before the payments;
    - `collect_first`: the chapter's order, or, as a whole, every collection (in order) before
      every payment (in order): both are right (§ 577.6(f)); a mix of the two is not.
    """
    work = [s for s in report.steps
            if not (skip_inventory and s.detail.get("to") == "table inventory")
            and not (skip_markers and s.action is Action.MOVE_MARKERS)]
    proc, n = ctx.proc, 0
    while n < len(work):
        seated = work[n].detail.get("seat") is not None
        end = n
        while end < len(work) and (work[end].detail.get("seat") is not None) == seated:
            end += 1
        if not seated:
            _order(ctx, work[n:end], unordered, collect_first)
        else:
            lanes: dict[object, list[Step]] = {}
            for step in work[n:end]:
                lanes.setdefault(step.detail["seat"], []).append(step)
            base, ends = proc.tail, set()
            for chain in lanes.values():
                proc.tail = base
                _order(ctx, chain, unordered, collect_first)
                ends |= proc.tail
            proc.tail = frozenset(ends)
        n = end


def _order(ctx: Context, steps: list[Step], unordered: frozenset[str], collect_first: bool) -> None:
    """Stages for a run of steps in one chain (see settlement)."""
    proc = ctx.proc
    last_collect: tuple[int, frozenset[int]] | None = None  # (stage, what it waited for)
    held: list[Expected] = []
    run: list[tuple[int, Action | None]] = []  # the stages added, with their action
    for n, step in enumerate(steps):
        if step.action in (Action.COLLECT, Action.PAY):
            actions = held + [_line(ctx, step, line) for line in step.lines]
            held = []
            following = steps[n + 1] if n + 1 < len(steps) else None
            if (step.action is Action.COLLECT and step.cite in unordered and following
                    and following.action is Action.PAY and following.cite == step.cite):
                held = actions  # one stage with the payments after it
                continue
            if not actions:
                continue
            before = proc.tail
            stage = proc.add(*actions)
            collecting = step.action is Action.COLLECT and not any(a.do is Do.PAY for a in actions)
            run.append((stage, Action.COLLECT if collecting else Action.PAY))
            last_collect = (stage, before) if collecting else None
            continue
        expected = _other(ctx, step)
        if expected is None:
            continue
        if step.action is Action.MOVE_LAMMER and last_collect is not None:
            stage = proc.add(expected, after=last_collect[1])  # beside the collections
            proc.tail = frozenset({last_collect[0], stage})
        else:
            stage = proc.add(expected)
        run.append((stage, None))
        last_collect = None
    if collect_first:
        _collections_first(proc, run)


def _collections_first(proc: Procedure, run: list[tuple[int, Action | None]]) -> None:
    """The alternative order of a chain of stages: its collections, in order, before its
    payments, in order; what is neither keeps its place at either end (§ 577.6(f) with the
    reading "settlement-orders")."""
    settling = [i for i, (_, action) in enumerate(run) if action is not None]
    if not settling:
        return
    first, last = settling[0], settling[-1]
    block = run[first:last + 1]
    if any(action is None for _, action in block):
        return  # a step between the settlements: no second order
    reordered = ([s for s, a in block if a is Action.COLLECT]
                 + [s for s, a in block if a is Action.PAY])
    if reordered == [s for s, _ in block]:
        return
    proc.blocks.append(frozenset(reordered))
    chain = [s for s, _ in run[:first]] + reordered + [s for s, _ in run[last + 1:]]
    start = proc.after[run[0][0]]
    for k, stage in enumerate(chain):
        after = start if k == 0 else frozenset({chain[k - 1]})
        if after != proc.after[stage]:
            proc.alternative[stage] = after
    proc.tail = frozenset({run[-1][0], chain[-1]})  # the next stage waits for both ends


def _line(ctx: Context, step: Step, line) -> Expected:
    do = Do.COLLECT if line.payout is None else Do.PAY
    return Expected(do, line.cite, skill_of(do, line.bet, step.cite), ctx.round, line.seat,
                    line.bet, line.amount if line.payout is None else line.payout,
                    note=(f"{line.odds} under {line.odds_cite}" if line.payout is not None
                          else "a losing wager"), order_cite=step.cite,
                    pays_cite=line.odds_cite or "")


def _other(ctx: Context, step: Step) -> Expected | None:
    """The expected action of a step that is not a collection or a payment."""
    if step.action is Action.MOVE_LAMMER:
        return Expected(Do.MOVE_LAMMER, step.cite, Skill.SIX_EIGHT_SHAKE, ctx.round,
                        value=str(step.detail["combination"]),
                        note=f"lammer {step.detail['lammers_moved']} of 6")
    if step.action is Action.MOVE_MARKERS:
        down = step.detail["down"] or "game over"
        puck = (f"Game Length Puck to play {step.detail['play'] + 1}" if step.detail["down"]
                else f"the game ended on play {step.detail['play']}")
        return Expected(Do.MOVE_MARKERS, step.cite, Skill.MARKERS, ctx.round,
                        value=str(step.detail["yard_line"]),
                        note=f"Yard Marker to the {step.detail['yard_line']}, {puck}, "
                             f"Down Puck: {down}")
    if step.action is Action.EXTRA_POINT_ROLL:
        return Expected(Do.EXTRA_POINT_ROLL, step.cite, Skill.END_OF_GAME, ctx.round,
                        note="an Extra Point wager stands after the touchdown")
    if step.action is Action.EXTRA_ROLL:
        return Expected(Do.EXTRA_ROLL, step.cite, Skill.EXTRA_ROLL, ctx.round,
                        value=str(step.detail["dice"]),
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


class GameSteps:
    """What a game adds around each throw; the default adds nothing."""

    def start(self, ctx: Context) -> None: ...
    def reject(self, ctx: Context, event: Event) -> None:
        ctx.fail(event, "this game has no such event")
    def take_down(self, ctx: Context, event: Event) -> list[Expected]:
        return []  # the actions of a take-down, done with the wagers before the throw

    def late(self, offer: Offer) -> tuple[str, str] | None:
        """(reason, section) for an offer marked late, where the game's default does not fit."""
        return None
    def before_throw(self, ctx: Context, event: Event) -> None: ...
    def after_throw(self, ctx: Context, event: Event, report: ThrowReport) -> None: ...
    def finish(self, ctx: Context) -> None: ...
    def snapshot(self, ctx: Context) -> dict:
        return {}
