"""From a scenario to its expected procedure: the driver the four games share.

The driver plays the scenario's events through the game's own table (the rules engine), so the
procedure and the answer key can never disagree with `settle`. A game module adds what happens
around the throw (trainer.procedure.<game>, registered in `GAME_STEPS`); trainer.procedure.steps
holds what every game shares. This module decides the wagers offered and walks the events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trainer import games
from trainer.errors import RequestError
from trainer.games.base import Table
from trainer.procedure import high_roll_dice, pai_gow_dice, props_and_hops, three_dice_football
from trainer.procedure.model import Do, Expected, Procedure, Skill, ThrowView
from trainer.procedure.steps import Context, GameSteps
from trainer.scenario import Event, Offer, Scenario
from trainer.settlement import Refusal, Wager

#: each game's steps, by game id: the one registry of procedure modules. Each works on its own
#: game's table (`GameSteps[Table]` of trainer.games.<game>); the id pairs them, which no type says
GAME_STEPS: dict[str, Callable[[], GameSteps[Any]]] = {
    **props_and_hops.STEPS, **three_dice_football.STEPS, **high_roll_dice.STEPS, **pai_gow_dice.STEPS}


def game_steps(game_id: str) -> GameSteps[Any]:
    """The game's own steps around each throw."""
    return GAME_STEPS[game_id]()


def build(scenario: Scenario) -> Procedure:
    """The expected procedure of a scenario; ScenarioError if an event cannot happen.

    Events take effect in the order of the file: a wager offered before a take-down is judged
    before the take-down (so it can still be refused because a lammer has moved)."""
    game = games.get(scenario.game)
    ctx = Context(scenario, game.new_table(scenario.options))
    steps = game_steps(scenario.game)
    steps.start(ctx)
    pending: list[Offer | Event] = list(scenario.wagers)  # offers and take-downs, in file order
    for event in scenario.events:
        ctx.last_event = event
        if event.offer is not None:  # a wager event: the offer it carries
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
        ctx.throw += 1
        decided = decide(ctx, steps, pending)
        pending = []
        steps.before_throw(ctx, event)
        layout = tuple(ctx.table.open_wagers())
        before = steps.snapshot(ctx)
        try:
            throw = ctx.table.parse_throw(event.throw, event.where)
        except RequestError as e:
            ctx.fail(event, e.message, e.field)
        report = ctx.table.throw(throw)
        steps.after_throw(ctx, event, report)
        ctx.proc.throws.append(ThrowView(ctx.throw, decided, layout, event, report.valid,
                                         report.call, report.result.copy(), steps.snapshot(ctx),
                                         before))
        ctx.new_round = report.valid
    for item in pending:
        if isinstance(item, Event):
            ctx.fail(item, "a take-down after the last throw: the wager was already settled or "
                           "the round is over, so there is nothing to take down")
        ctx.fail(Event("wager", item.where), "a wager is offered after the last throw")
    steps.finish(ctx)
    return ctx.proc


def decide(ctx: Context[Table], steps: GameSteps[Any],
           pending: list[Offer | Event]) -> tuple[tuple[Offer, str], ...]:
    """One stage: the take-downs, and accepting or refusing each wager offered before this
    throw, applied to the table in the order they came. Returns the offers with the reason each
    refused one is refused ("" when accepted)."""
    cash, unseated, late = steps.improper
    decided: list[tuple[Offer, Wager | None, Refusal | None]] = []
    take_downs: list[Expected] = []
    for item in pending:
        if isinstance(item, Event):  # a take-down, which names both (trainer.scenario)
            assert item.seat is not None and item.bet is not None
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
            reason, section = steps.late(o) or (steps.late_reason, late)
            decided.append((o, None, Refusal(wager, reason, ctx.cite(section))))
        else:
            decided.append((o, wager, ctx.table.offer(wager)))
    # refusals at "no more bets" (High Roll Dice judges a seat's wagers whole): by seat and bet,
    # since chips on one bet are one wager
    later = {(r.wager.seat, r.wager.bet): r for r in ctx.table.no_more_bets()}
    actions, shown = list(take_downs), []
    for o, accepted, refusal in decided:
        if refusal is None and accepted is not None:
            refusal = later.get((o.seat, o.bet))
        shown.append((o, refusal.reason if refusal else ""))
        if refusal is not None:
            actions.append(ctx.expect(Do.REFUSE, refusal.cite, Skill.WAGERS, refusal.reason,
                                      seat=o.seat, bet=o.bet, amount=o.amount))
        else:
            actions.append(ctx.expect(Do.ACCEPT, steps.accept, Skill.WAGERS,
                                      "a proper wager from a seated player", seat=o.seat, bet=o.bet,
                                      amount=o.amount))
    if actions:
        ctx.proc.add(*actions)
    return tuple(shown)
