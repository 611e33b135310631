"""The Three Dice Football game, § 577.4–577.7: pucks and marker, the Quarterback, the calls,
single play settlement after each down, and the end-of-game order."""

from __future__ import annotations

import random

from trainer.cite import reading
from trainer.games.base import Throw, WagerKind
from trainer.games.three_dice_football import (
    CATALOGUE,
    DOWNS,
    GOAL_DOWNS,
    MARKERS_JOIN,
    Table,
    down_place,
    play_place,
    yard_place,
)
from trainer.procedure.dealing import DEALT, Deal
from trainer.procedure.model import Choice, Do, Place, Prompt, Skill, ThrowView, yard_words
from trainer.procedure.steps import Context, GameSteps, settlement
from trainer.readings import MAX_PLAYS
from trainer.scenario import Event, Offer
from trainer.settlement import ThrowReport, Wager
from trainer.table_state import TableSnapshot


class ThreeDiceFootballSteps(GameSteps[Table]):
    improper = ("577.3(a)", reading("improper-offers"), "577.3(e)")
    late_reason = "single play wagers are placed before the Quarterback's throw"
    accept = "577.3(a)"

    def start(self, ctx: Context[Table]) -> None:
        ctx.add(Do.SET_MARKERS, "577.6(a)", Skill.MARKERS,
                "Down Puck on 1st Down, Yard Marker on the 20, Game Length Puck on play 1")
        self.seats = sorted(ctx.scenario.players)
        self.candidate = self.seats[0]
        self.quarterback: int | None = None

    def _next_seat(self, seat: int) -> int:
        later = [s for s in self.seats if s > seat]
        return later[0] if later else self.seats[0]

    def late(self, offer: Offer) -> tuple[str, str] | None:
        if CATALOGUE[offer.bet].kind is WagerKind.FULL_GAME:
            return "full game wagers are placed before the first throw of the game", "577.3(c)"
        return None

    def reject(self, ctx: Context[Table], event: Event) -> None:
        if self.quarterback is not None:
            ctx.fail(event, f"seat {self.quarterback} already has the dice")
        if event.seat != self.candidate:
            ctx.fail(event, f"the dice are being offered to seat {self.candidate}, not seat "
                            f"{event.seat}", f"{event.where}.seat")
        ctx.add(Do.OFFER_DICE, "577.4(b)", Skill.SHAKER, "the player rejects the dice",
                value=str(self.candidate))
        self.candidate = self._next_seat(self.candidate)

    def before_throw(self, ctx: Context[Table], event: Event) -> None:
        if self.quarterback is None:
            self.quarterback = self.candidate
            ctx.add(Do.OFFER_DICE, "577.4(c)", Skill.SHAKER,
                    "the first player to accept becomes the Quarterback and selects two green "
                    "dice and one red", value=str(self.quarterback))

    def after_throw(self, ctx: Context[Table], event: Event, report: ThrowReport) -> None:
        if not report.valid:
            if event.type == "lost-die":
                ctx.add(Do.NO_ROLL, report.cite, Skill.NO_ROLL, "a die went off the table",
                        value=report.no_roll)
                ctx.add(Do.NEW_DICE, "577.4(d)", Skill.SHAKER, "the die is lost: a new set of dice")
            else:
                ctx.add(Do.NO_ROLL, report.cite, Skill.NO_ROLL, "a no roll settles nothing",
                        value=report.no_roll)
            return
        note = "the skyward faces"
        if event.cocked is not None:
            note = "a die cocked on chips reads the face opposite the side on the chips (§ 577.5(f))"
        ctx.add(Do.ANNOUNCE, "577.5(e)", Skill.CALLS, note, value=report.call)
        # a turnover is announced and ends the game; no marker moves (§ 577.6(c)(4))
        settlement(ctx, report, skip_markers=report.result.get("kind") == "turnover")
        if report.result.get("next_down"):
            ctx.add(Do.ANNOUNCE_DOWN, "577.6(d)", Skill.MARKERS, "the down and the distance",
                    value=f"{report.result['next_down']} on the {report.result['yard_line']}")

    def snapshot(self, ctx: Context[Table]) -> TableSnapshot:
        t = ctx.table
        return {"yard_line": t.yard_line, "down": None if t.over else t.down_name,
                "plays": t.plays, "quarterback": self.quarterback, "touchdown": t.touchdown,
                "extra_point_roll": t.extra_point_roll, "over": t.over}

    def finish(self, ctx: Context[Table]) -> None:
        table = ctx.table
        if not table.over or self.quarterback is None:
            ctx.fail(ctx.last_event, "the game is not over: add throws until it ends, so every "
                                     "full game wager is settled")
        if table.touchdown:
            ctx.add(Do.OFFER_DICE, "577.7(a)", Skill.SHAKER,
                    "after a touchdown the Quarterback keeps the dice", value=str(self.quarterback))
        else:
            ctx.add(Do.OFFER_DICE, "577.7(a)", Skill.SHAKER,
                    "the defense won: offer the dice to the player at the Quarterback's left",
                    value=str(self._next_seat(self.quarterback)))

    own_skills = (Skill.MARKERS, Skill.END_OF_GAME)

    def deal(self, d: Deal) -> tuple[dict, list[Offer], list[Event]]:
        """A whole game: full game and single play wagers, single play wagers before downs."""
        full = [b for b in DEALT[d.game.id] if CATALOGUE[b].kind is WagerKind.FULL_GAME]
        single = [b for b in DEALT[d.game.id] if CATALOGUE[b].kind is WagerKind.SINGLE_PLAY]
        wagers = [Offer(s, d.rng.choice(full if i % 2 == 0 else single), d.amount())
                  for i, s in enumerate(d.seats)]
        table = Table()
        for w in wagers:
            table.offer(Wager(w.seat, w.bet, w.amount))
        events: list[Event] = []
        while not table.over:
            if (e := d.no_roll(len(events))) is not None:
                events.append(e)
            if d.difficulty >= 2 and d.rng.random() < 0.4:
                offer = Offer(d.rng.choice(d.seats), d.rng.choice(single), d.amount())
                events.append(Event("wager", f"events[{len(events)}]", offer=offer))
                table.offer(Wager(offer.seat, offer.bet, offer.amount))
            g1, g2, r = d.dice.roll(3)
            table.throw(Throw(dice=(g1, g2, r)))
            events.append(d.throw(len(events), {"green": [g1, g2], "red": r}))
        return {}, wagers, events

    def prompt(self, do: Do, view: ThrowView, shown: TableSnapshot) -> Prompt | None:
        if do is Do.MOVE_MARKERS:  # the trainee puts each marker by hand; a wrong place is graded
            downs = (*DOWNS, *GOAL_DOWNS)
            return Place("Move markers", "Click the yard line the Yard Marker moves to (the end "
                         "zone for a touchdown).", {yard_place(y): str(y) for y in range(0, 100)},
                         words={str(y): yard_words(y) for y in range(0, 100)},
                         then=(Place("Down Puck", "Click the down the Down Puck goes on.",
                                     {down_place(d): d for d in downs}),
                               Place("Game Length Puck", "Click the play the Game Length Puck "
                                     "goes on.", {play_place(n): f"play {n}"
                                                  for n in range(1, MAX_PLAYS + 1)})),
                         join=MARKERS_JOIN)
        if do is Do.ANNOUNCE_DOWN and view.result.get("next_down"):
            calls = tuple(down_choices(view))
            return Choice("Down and distance", "Announce:", calls, calls)
        return None


#: this game's steps, by game id (trainer.procedure.builder.GAME_STEPS)
STEPS = {"three-dice-football": ThreeDiceFootballSteps}


def down_choices(view: ThrowView, seed: int = 0) -> list[str]:
    """The right down-and-distance call after a play, among plausible wrong ones."""
    right = f"{view.result['next_down']} on the {view.result['yard_line']}"
    rng = random.Random(f"down:{view.throw}:{seed}")
    yard = view.result["yard_line"]
    pool = [f"{d} on the {y}" for d in (*DOWNS, *GOAL_DOWNS) for y in (yard - 1, yard, yard + 1)
            if y > 0]
    wrong = [c for c in pool if c != right]
    rng.shuffle(wrong)
    out = [right, *wrong[:3]]
    rng.shuffle(out)
    return out
