"""From a scenario to its expected procedure: the driver the four games share.

The driver plays the scenario's events through the game's own table (the rules engine), so the
procedure and the answer key can never disagree with `settle`. A game module adds what happens
around the throw (trainer.procedure.<game>); this module adds what every game shares: deciding
the wagers offered, and turning the engine's settlement steps into expected actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainer import games
from trainer.cite import CODE, cite
from trainer.errors import RequestError
from trainer.games.pai_gow_dice import RECONSTRUCTED
from trainer.procedure.model import Do, Expected, Procedure, RoundView, Skill
from trainer.scenario import Event, Offer, Scenario, ScenarioError
from trainer.settlement import Action, Refusal, ThrowReport, Wager

#: the sections behind refusing an improper offer, per game: cash, not seated, late
IMPROPER = {
    "props-and-hops": ("668a.2(b)", "668a.2(c)", "668a.2(a)"),
    "three-dice-football": ("577.3(a)", "577.3(a)", "577.3(e)"),
    "high-roll-dice": ("675a.2(b)", "675a.2(c)", "675a.2(a)"),
    "high-roll-dice-6": ("675a.2(b)", "675a.2(c)", "675a.2(a)"),
    "pai-gow-dice": ("645c.2(f)", "645c.2(f)", "645c.2(f)"),
}
#: why a late offer is refused, in each game's words
LATE = {
    "props-and-hops": "wagers are made before the dice are shaken",
    "three-dice-football": "wagers are placed before the Quarterback's throw",
    "high-roll-dice": "wagers are made before the dice are shaken",
    "high-roll-dice-6": "wagers are made before the dice are shaken",
    "pai-gow-dice": "wagers are placed before the shaker is used",
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
        where = section if section.startswith(CODE) else cite(section)
        if "645c.2" in where and not where.endswith(RECONSTRUCTED):
            where += RECONSTRUCTED  # § 645c.2(e)-(g) survive only as a paytable
        return where

    def expect(self, do: Do, section: str, skill: Skill, note: str = "", **fields) -> Expected:
        where = self.cite(section)
        return Expected(do, where, skill, self.round, note=note, order_cite=where, **fields)

    def fail(self, event: Event, message: str, field_: str | None = None):
        where = field_ or event.where
        raise ScenarioError(self.scenario.path, self.scenario.line_of(where), message)


def build(scenario: Scenario) -> Procedure:
    """The expected procedure of a scenario; ScenarioError if an event cannot happen."""
    from trainer.procedure import game_steps

    game = games.get(scenario.game)
    ctx = Context(scenario, game.new_table(scenario.options))
    steps = game_steps(scenario.game)
    steps.start(ctx)
    offers: list[Offer] = list(scenario.wagers)
    take_downs: list[Event] = []
    for event in scenario.events:
        ctx.last_event = event
        if event.type == "wager":
            offers.append(event.offer)
            continue
        if event.type == "take-down":
            if not ctx.table.take_down(event.seat, event.bet):
                ctx.fail(event, f"no {event.bet} wager from seat {event.seat} is on the layout to "
                                "take down")
            take_downs.append(event)
            continue
        if event.type == "reject-dice":
            steps.reject(ctx, event)
            continue
        if ctx.table.over:
            ctx.fail(event, "an extra roll, but no player bought one" if event.type == "extra-roll"
                     else "the round is already over; this throw cannot happen")
        ctx.round += 1
        for td in take_downs:
            steps.take_down(ctx, td)
        take_downs = []
        decided = decide(ctx, offers)
        offers = []
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
    if offers:
        ctx.fail(Event("wager", offers[0].where), "a wager is offered after the last throw")
    steps.finish(ctx)
    return ctx.proc


def decide(ctx: Context, offers: list[Offer]) -> tuple:
    """One stage: accept or refuse each wager offered before this throw; returns the offers
    with the reason each refused one is refused ("" when accepted)."""
    game_id = ctx.scenario.game
    cash, unseated, late = IMPROPER[game_id]
    decided: list[tuple[Offer, Wager | None, Refusal | None]] = []
    for o in offers:
        if o.cash:
            decided.append((o, None, Refusal(Wager(o.seat, o.bet, o.amount),
                                             "a verbal wager with cash may not be accepted",
                                             ctx.cite(cash))))
        elif not o.seated:
            decided.append((o, None, Refusal(Wager(o.seat, o.bet, o.amount),
                                             "only seated players may wager", ctx.cite(unseated))))
        elif o.late or (not ctx.new_round and game_id in ("props-and-hops", "pai-gow-dice")):
            decided.append((o, None, Refusal(Wager(o.seat, o.bet, o.amount),
                                             LATE[game_id],
                                             ctx.cite(late))))
        else:
            wager = Wager(o.seat, o.bet, o.amount)
            decided.append((o, wager, ctx.table.offer(wager)))
    later = {id(r.wager): r for r in ctx.table.no_more_bets()}
    actions, shown = [], []
    for o, wager, refusal in decided:
        refusal = refusal or (later.get(id(wager)) if wager is not None else None)
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


def settlement(ctx: Context, report: ThrowReport, skip_inventory: bool = False) -> None:
    """The engine's settlement steps of a throw, as stages of expected actions."""
    for step in report.steps:
        if step.action is Action.COLLECT or step.action is Action.PAY:
            if skip_inventory and step.detail.get("to") == "table inventory":
                continue
            do = Do.COLLECT if step.action is Action.COLLECT else Do.PAY
            ctx.proc.add(*(
                Expected(do, line.cite, skill_of(do, line.bet, step.cite), ctx.round, line.seat,
                         line.bet, line.amount if line.payout is None else line.payout,
                         note=(f"{line.odds} under {line.odds_cite}" if line.payout is not None
                               else "a losing wager"), order_cite=step.cite)
                for line in step.lines))
        elif step.action is Action.MOVE_LAMMER:
            ctx.proc.add(Expected(Do.MOVE_LAMMER, step.cite, Skill.SIX_EIGHT_SHAKE, ctx.round,
                                  value=str(step.detail["combination"]),
                                  note=f"lammer {step.detail['lammers_moved']} of 6"))
        elif step.action is Action.MOVE_MARKERS:
            down = step.detail["down"] or "game over"
            puck = (f"Game Length Puck to play {step.detail['play'] + 1}" if step.detail["down"]
                    else f"the game ended on play {step.detail['play']}")
            ctx.proc.add(Expected(Do.MOVE_MARKERS, step.cite, Skill.MARKERS, ctx.round,
                                  value=str(step.detail["yard_line"]),
                                  note=f"Yard Marker to the {step.detail['yard_line']}, {puck}, "
                                       f"Down Puck: {down}"))
        elif step.action is Action.EXTRA_POINT_ROLL:
            ctx.proc.add(Expected(Do.EXTRA_POINT_ROLL, step.cite, Skill.END_OF_GAME, ctx.round,
                                  note="an Extra Point wager stands after the touchdown"))
        elif step.action is Action.EXTRA_ROLL:
            ctx.proc.add(Expected(Do.EXTRA_ROLL, step.cite, Skill.EXTRA_ROLL, ctx.round,
                                  value=str(step.detail["dice"]),
                                  note=f"gather the {step.detail['dice']} dice that are not "
                                       f"{step.detail['face']}s, shake and throw them"))


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
    def take_down(self, ctx: Context, event: Event) -> None: ...
    def before_throw(self, ctx: Context, event: Event) -> None: ...
    def after_throw(self, ctx: Context, event: Event, report: ThrowReport) -> None: ...
    def finish(self, ctx: Context) -> None: ...
    def snapshot(self, ctx: Context) -> dict:
        return {}
