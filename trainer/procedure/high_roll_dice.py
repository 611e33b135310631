"""The High Roll Dice round, § 675a.2–675a.4 (and § 675a.6 for 6 dice): no more bets and the
Extra Roll lock-out, the throw, the winning face, per-player settlement, the extra roll."""

from __future__ import annotations

from trainer.games.base import Throw
from trainer.games.high_roll_dice import FACE_KEY, Table, throw_box
from trainer.procedure.dealing import DEALT, Deal
from trainer.procedure.model import Do, Expected, Number, Place, Prompt, Skill, ThrowView, box_words
from trainer.procedure.steps import Context, GameSteps, settlement
from trainer.readings import HRD_RANK
from trainer.scenario import Event, Offer
from trainer.settlement import ThrowReport, Wager
from trainer.table_state import TableSnapshot


class HighRollDiceSteps(GameSteps[Table]):
    improper = ("675a.2(b)", "675a.2(c)", "675a.2(a)")
    late_reason = "wagers are made before the dice are shaken"
    accept = "675a.2(b)"

    def __init__(self, six: bool = False):
        self.six = six
        self.own_skills = () if six else (Skill.EXTRA_ROLL,)  # § 675a.6: no Extra Roll on 6 dice

    def before_throw(self, ctx: Context[Table], event: Event) -> None:
        table = ctx.table
        if event.type == "extra-roll" and not table.extra_roll:
            ctx.fail(event, "an extra roll, but no player bought one (or the first roll has not "
                            "been thrown)")
        if table.extra_roll:
            if event.type not in ("extra-roll", "no-roll"):
                ctx.fail(event, "the next throw is the extra roll: write it as type = \"extra-roll\"")
            # the first attempt is the settlement's "Extra roll" step; after a no roll (it is
            # thrown under § 675a.4(b)-(c) too) the dealer shakes and throws those dice again
            if not ctx.new_round:
                ctx.add(Do.SHAKE_AND_THROW, "675a.4(g)", Skill.SHAKER,
                        "cover, shake at least three times and throw the extra roll's dice again "
                        "(§ 675a.4(b))")
            return
        if ctx.new_round:
            nmb = "675a.6(g)" if self.six else "675a.4(a)"
            ctx.add(Do.NO_MORE_BETS, nmb, Skill.NO_MORE_BETS, "after all players have wagered")
            buyers = sorted((s, a) for (s, b), a in table.wagers.items() if b == "extra-roll")
            if buyers:
                ctx.add(Do.LOCK_OUT_EXTRA_ROLL, "675a.4(a)", Skill.EXTRA_ROLL,
                        "no Extra Roll may be bought after \"no more bets\"")
                ctx.proc.add(*(Expected(Do.COLLECT, ctx.cite("675a.4(a)"),
                                        Skill.EXTRA_ROLL, ctx.throw, s, "extra-roll", a,
                                        note="into the table inventory (§ 675a.4(a))")
                               for s, a in buyers))
        ctx.add(Do.SHAKE_AND_THROW, "675a.4(b)", Skill.SHAKER,
                "cover, shake at least three times, and throw all the dice at once")

    def after_throw(self, ctx: Context[Table], event: Event, report: ThrowReport) -> None:
        if not report.valid:
            ctx.add(Do.NO_ROLL, report.cite, Skill.NO_ROLL, "a no roll settles nothing",
                    value=report.no_roll)
            return
        if report.result.get("extra_roll"):
            ctx.add(Do.ANNOUNCE, "675a.4(h)", Skill.CALLS,
                    "the number of additional dice that match", value=report.call)
            settlement(ctx, report)
            return
        note = "which face occurs the most, ties to the higher rank (ace high)"
        if event.cocked is not None:
            note += "; a die cocked on chips reads the face opposite the side on the chips"
        ctx.add(Do.ANNOUNCE, "675a.6(h)" if self.six else "675a.4(d)", Skill.CALLS, note,
                value=report.call)
        face = report.result["face"]
        ctx.add(Do.MOVE_DICE, "675a.6(h)" if self.six else "675a.4(e)", Skill.CALLS,
                f"move the matching dice to the box labelled {face} and leave them exposed",
                value=str(face))
        # each player's groups in order, collecting and paying within a group in any order
        settlement(ctx, report, skip_inventory=True)

    def snapshot(self, ctx: Context[Table]) -> TableSnapshot:
        t = ctx.table
        return {"face": t.face, "count": t.count, "held": sorted(t.held),
                "extra_roll": t.extra_roll, "over": t.over}

    def finish(self, ctx: Context[Table]) -> None:
        if ctx.table.extra_roll:
            ctx.fail(ctx.last_event, "a player bought an Extra Roll: the scenario must end with the "
                                     "extra-roll event that settles the held Like Kind wagers")
        if not ctx.proc.throws or not any(r.valid for r in ctx.proc.throws):
            ctx.fail(ctx.last_event, "the round needs a valid throw")

    def deal(self, d: Deal) -> tuple[dict, list[Offer], list[Event]]:
        """One throw (and the extra roll it may bring): pip and Like Kind wagers at every seat,
        the Extra Roll bought and Millionaire Row played on 10 dice."""
        game, rng = d.game, d.rng
        ten = game.dice == 10
        circles = [b for b in DEALT[game.id] if b.startswith("like-kind-")]
        faces = [b for b in DEALT[game.id] if b.startswith("pip-")]
        buy = ten and (d.skill is Skill.EXTRA_ROLL or (d.difficulty >= 3 and rng.random() < 0.7))
        wagers = []
        for i, seat in enumerate(d.seats):
            a = d.amount()
            mine = [Offer(seat, f, a) for f in rng.sample(faces, k=1 + (d.difficulty >= 4))]
            mine += [Offer(seat, c, a) for c in rng.sample(circles, k=1 + (d.difficulty >= 2))]
            if buy and i % 2 == 0:
                mine.append(Offer(seat, "extra-roll", a))
            if ten and d.difficulty >= 2 and rng.random() < 0.3:
                mine.append(Offer(seat, f"millionaire-{rng.choice((9, 10))}", rng.choice((100, 50, 25))))
            if d.difficulty >= 3 and rng.random() < 0.15 * (d.difficulty - 2):
                k = rng.randrange(1, len(mine))  # an unequal amount the trainee must refuse
                mine[k] = Offer(seat, mine[k].bet, mine[k].amount + 500)
            wagers += mine
        table = game.new_table({})
        for w in wagers:
            table.offer(Wager(w.seat, w.bet, w.amount))
        table.no_more_bets()
        events = []
        if (e := d.no_roll(0)) is not None:
            events.append(e)
        first = d.dice.roll(game.dice)
        events.append(d.throw(len(events), {"dice": list(first)}))
        table.throw(Throw(dice=first))
        if not table.over:  # a player bought the Extra Roll, and it is still to come
            if d.difficulty >= 4:
                late = Offer(d.seats[-1], "extra-roll", d.amount())
                events.append(Event("wager", f"events[{len(events)}]", offer=late))
            events.append(Event("extra-roll", f"events[{len(events)}]",
                                {"dice": list(d.dice.roll(table.dice_count))}))
        return {}, wagers, events

    def prompt(self, do: Do, view: ThrowView, shown: TableSnapshot) -> Prompt | None:
        if do is Do.MOVE_DICE:  # the trainee finds the box (a wrong one is graded), valid or not
            return Place("Throw box", "Click the box of the face the matching dice go to.",
                         {throw_box(f): FACE_KEY[f] for f in HRD_RANK},
                         words={FACE_KEY[f]: f"the {box_words(FACE_KEY[f])} box" for f in HRD_RANK})
        if do is Do.EXTRA_ROLL:
            return Number("Extra roll", "How many dice go back in the shaker?", 1, 10, 5)
        return None


#: this game's steps, by game id (trainer.procedure.builder.GAME_STEPS)
STEPS = {"high-roll-dice": HighRollDiceSteps, "high-roll-dice-6": lambda: HighRollDiceSteps(six=True)}
