"""The Pai Gow Poker dice wagers, § 645c.2(f)–(g): no more bets, the shaker, the announcement,
collect then pay. The lists after (f)'s "and:" are lost; reading "pgd-procedure" fills them."""

from __future__ import annotations

from trainer.cite import reading
from trainer.games.pai_gow_dice import BEAT_IT_PAYTABLES, SUM_PAYTABLES, Table
from trainer.procedure.dealing import Deal
from trainer.procedure.model import Do, Skill
from trainer.procedure.steps import Context, GameSteps, settlement
from trainer.scenario import Event, Offer
from trainer.settlement import ThrowReport


class PaiGowDiceSteps(GameSteps[Table]):
    improper = (reading("improper-offers"), reading("improper-offers"), "645c.2(f)")
    late_reason = "a wager must be placed before the shaker is used"
    accept = "645c.2(f)"

    def before_throw(self, ctx: Context[Table], event: Event) -> None:
        if ctx.new_round:
            ctx.add(Do.NO_MORE_BETS, "645c.2(f)", Skill.NO_MORE_BETS,
                    "after all wagers are placed, before the shaker is used")
        # § 645c.2(f) is cut off after "no more bets" and: the shaker is used (reading
        # "pgd-procedure"), and used again after a no roll
        ctx.add(Do.USE_SHAKER, reading("pgd-procedure"), Skill.SHAKER,
                "activate the shaker, or shake the manual shaker" if ctx.new_round
                else "a no roll: use the shaker again; \"no more bets\" still stands")

    def after_throw(self, ctx: Context[Table], event: Event, report: ThrowReport) -> None:
        if not report.valid:
            ctx.add(Do.NO_ROLL, report.cite, Skill.NO_ROLL, "a no roll settles nothing",
                    value=report.no_roll)
            return
        ctx.add(Do.ANNOUNCE, "645c.2(g)", Skill.CALLS, "the value of each die", value=report.call)
        settlement(ctx, report)

    def finish(self, ctx: Context[Table]) -> None:
        if not ctx.table.over:
            ctx.fail(ctx.last_event, "the round needs a valid throw to settle its wagers")

    def deal(self, d: Deal) -> tuple[dict, list[Offer], list[Event]]:
        """One throw; from difficulty 3 the property's paytables vary, and a seat plays two bets."""
        options = {}
        if d.difficulty >= 3:
            options = {"sum_paytable": d.rng.choice(SUM_PAYTABLES),
                       "beat_it_paytable": d.rng.choice(BEAT_IT_PAYTABLES)}
        bets = ["sum", "beat-it", *(f"match-{n}" for n in range(1, 7))]
        wagers = []
        for i, seat in enumerate(d.seats):
            for bet in d.rng.sample(bets, k=1 + (d.difficulty >= 3)):
                amount = d.amount()
                wagers.append(d.improper(seat, bet, amount, f"wagers[{i}]") or Offer(seat, bet, amount))
        events = []
        if (e := d.no_roll(0)) is not None:
            events.append(e)
        r, a, b = d.dice.roll(3)
        events.append(d.throw(len(events), {"red": r, "blue": [a, b]}))
        return options, wagers, events


#: this game's steps, by game id (trainer.procedure.builder.GAME_STEPS)
STEPS = {"pai-gow-dice": PaiGowDiceSteps}
