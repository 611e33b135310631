"""The Props & Hops round, § 668a.2–668a.3: the shake, the calls, the lammers."""

from __future__ import annotations

from trainer.games.props_and_hops import ALL_COMBINATIONS, Table, combination
from trainer.procedure.dealing import DEALT, Deal
from trainer.procedure.model import Do, Expected, Place, Prompt, Skill, ThrowView
from trainer.procedure.steps import Context, GameSteps, settlement
from trainer.scenario import Event, Offer
from trainer.settlement import ThrowReport
from trainer.table_state import TableSnapshot

NO_ROLL_NOTES = {
    "die-fell-out": "a die fell out when the shaker was uncovered",
    "die-on-die": "one die rests on top of the other",
    "not-flat": "a die is not flat on the bottom of the shaker",
}

#: the 21 combination boxes, by the bet of their area: what a pointer or lammer placed there logs
BOXES = {bet: c for c in ALL_COMBINATIONS
         for bet in (f"double-{c}" if c[0] == c[2] else f"any-{c}",)}

class PropsAndHopsSteps(GameSteps[Table]):
    improper = ("668a.2(b)", "668a.2(c)", "668a.2(a)")
    late_reason = "wagers are made before the dice are shaken"
    accept = "668a.2(b)"

    def start(self, ctx: Context[Table]) -> None:
        seats = sorted(ctx.scenario.players)
        self.shooter = ctx.scenario.shooter or seats[0]
        self.placed: set[int] = set()  # Six Eight Shake wagers already in the circles
        self.cycle = 0
        ctx.add(Do.COVER_AND_SHAKE, "668a.3(d)", Skill.SHAKER,
                "prior to the commencement of play the dealer shakes the covered shaker")

    def take_down(self, ctx: Context[Table], event: Event) -> list[Expected]:
        self.placed.discard(event.seat)
        return [ctx.expect(Do.TAKE_DOWN, "668a.2(f)(8)", Skill.SIX_EIGHT_SHAKE,
                           "a player may remove the wager at any time before a 7: return it",
                           seat=event.seat, bet=event.bet)]

    def before_throw(self, ctx: Context[Table], event: Event) -> None:
        table = ctx.table
        if ctx.new_round:
            ctx.add(Do.NO_MORE_BETS, "668a.3(e)", Skill.NO_MORE_BETS,
                    "after all players have placed their wagers")
            if table.cycles != self.cycle:  # a new cycle: its wagers and lammers go out afresh
                self.cycle, self.placed = table.cycles, set()
            # counter-clockwise from the dealer's right: the highest seat first (reading "seats")
            for seat in sorted(set(table.shake) - self.placed, reverse=True):
                ctx.add(Do.PLACE_SIX_EIGHT, "668a.3(e)", Skill.SIX_EIGHT_SHAKE,
                        "in the next Six Eight Shake circle, from the dealer's right", seat=seat,
                        bet="six-eight-shake")
            if table.shake and not self.placed:
                ctx.add(Do.PLACE_LAMMERS, "668a.3(e)", Skill.SIX_EIGHT_SHAKE,
                        "a red lammer on 1-5, 2-4, 3-3, 2-6, 3-5 and 4-4")
            self.placed |= set(table.shake)
        ctx.add(Do.OFFER_SHAKER, "668a.3(f)", Skill.SHAKER, "the shooter shakes at least three times",
                value=str(self.shooter))

    def after_throw(self, ctx: Context[Table], event: Event, report: ThrowReport) -> None:
        if (reason := report.no_roll) is not None:  # not a valid throw
            if reason == "lid-removed":
                ctx.add(Do.RECOVER_SHAKER, "668a.3(f)", Skill.SHAKER,
                        "the player removed the lid: re-cover the shaker and have it shaken again")
                return
            ctx.add(Do.UNCOVER, "668a.3(g)", Skill.SHAKER, "place the uncovered shaker in its circle")
            ctx.add(Do.NO_ROLL, report.cite, Skill.NO_ROLL,
                    f"{NO_ROLL_NOTES[reason]}; a no roll settles nothing", value=reason)
            ctx.add(Do.RECOVER_SHAKER, report.cite, Skill.SHAKER,
                    "the dice are shaken again under § 668a.3(f): cover the shaker to offer it")
            return
        ctx.add(Do.UNCOVER, "668a.3(g)", Skill.SHAKER, "place the uncovered shaker in its circle")
        ctx.proc.add(
            ctx.expect(Do.ANNOUNCE, "668a.3(h)", Skill.CALLS, "the skyward faces", value=report.call),
            ctx.expect(Do.PLACE_POINTER, "668a.3(h)", Skill.CALLS, "on the combination thrown",
                       value=_combo(report)),
        )
        settlement(ctx, report)
        ctx.add(Do.COVER_AND_SHAKE, "668a.3(j)", Skill.SHAKER, "after every wager is settled")
        if report.result["total"] == 7:
            seats = sorted(ctx.scenario.players)
            later = [s for s in seats if s > self.shooter]
            self.shooter = later[0] if later else seats[0]
            ctx.add(Do.PASS_SHAKER, "668a.3(k)", Skill.SHAKER,
                    "a 7: the shaker passes to the next player to the left", value=str(self.shooter))

    own_skills = (Skill.SIX_EIGHT_SHAKE,)

    def deal(self, d: Deal) -> tuple[dict, list[Offer], list[Event]]:
        """Throws with a wager offered between them; a Six Eight Shake cycle often from 3."""
        one_roll = [b for b in DEALT[d.game.id] if b != "six-eight-shake"]
        wagers = []
        shake = d.skill is Skill.SIX_EIGHT_SHAKE or (d.difficulty >= 3 and d.rng.random() < 0.5)
        for i, seat in enumerate(d.seats):
            bet = "six-eight-shake" if shake and i % 2 == 0 else d.rng.choice(one_roll)
            wagers.append(d.improper(seat, bet, d.amount(), f"wagers[{i}]")
                          or Offer(seat, bet, d.amount()))
        events: list[Event] = []
        for _ in range(1 + d.difficulty // 2 + (4 if shake else 0)):
            if (e := d.no_roll(len(events))) is not None:
                events.append(e)
            events.append(d.throw(len(events), {"dice": list(d.dice.roll(2))}))
            seat = d.rng.choice(d.seats)
            events.append(Event("wager", f"events[{len(events)}]",
                                offer=Offer(seat, d.rng.choice(one_roll), d.amount())))
        events.pop()  # no wager after the last throw
        return {}, wagers, events

    def prompt(self, do: Do, view: ThrowView, shown: TableSnapshot) -> Prompt | None:
        # the trainee finds the box on the layout; a wrong box is logged as picked, and graded.
        # Asked for on a no roll too, so that asking tells nothing about the throw
        if do is Do.PLACE_POINTER:
            return Place("Pointer", "Click the box on the layout that the dice show.", BOXES)
        if do is Do.MOVE_LAMMER:
            return Place("Move lammer", "Click the box whose lammer moves to the Six Eight Shake "
                         "circles.", BOXES)
        return None


    def snapshot(self, ctx: Context[Table]) -> TableSnapshot:
        t = ctx.table
        return {"shooter": self.shooter, "lammers_left": list(t.lammers),
                "lammers_moved": list(t.moved), "six_eight_shake": dict(t.shake)}


def _combo(report: ThrowReport) -> str:
    first, second = report.result["dice"]
    return combination((first, second))


#: this game's steps, by game id (trainer.procedure.builder.GAME_STEPS)
STEPS = {"props-and-hops": PropsAndHopsSteps}
