"""A round being worked: the trainee acts, the trainer does the steps the automation gives it,
and every action gets feedback at once. No Qt: the practice screen wraps this.

The trainer steps through the expected procedure stage by stage. In the lowest stage with work
left it does its own actions at once; when the trainee's actions remain there, it waits. A
trainee may act out of order (that is a finding), or skip the rest of a throw (what is skipped is
missing at the end).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from trainer import games
from trainer.calls import choices, dice_of
from trainer.grading import Finding, LiveGrade, Result, grade, taken_back
from trainer.money import fmt_dollars
from trainer.procedure import Automation, Do, Expected, Performed, build, game_steps
from trainer.procedure.model import LABELS, TRAINEE_DOES, Amount, Choice, Procedure, Prompt, ThrowView
from trainer.regulations import quote
from trainer.scenario import Scenario
from trainer.settlement import Wager
from trainer.table_state import COCKED, Mark, TableState
from trainer.vocabulary import TOLD_UP_TO, UNDO_TOLD

#: the most one round's log may hold, as the class server bounds an item's answer and a practice
#: attempt's log (s023, s034: it refuses more than 262,144 bytes, as the app writes the log's JSON,
#: or 2,000 actions). A round ends itself before its log reaches either (`PracticeRound.log_full`),
#: so that the app never sends a log the server refuses: one that it refuses was not the app's
LOG_BYTES = 262_144
LOG_ACTIONS = 2_000
#: the room a round keeps under LOG_BYTES and LOG_ACTIONS: more than the largest action and the
#: trainer's steps that may follow the last one before the round ends
LOG_ROOM_BYTES, LOG_ROOM_ACTIONS = 8_192, 10
#: actions after which a round's table shows its new state (lammers, markers, dice in the box)
STATE_CHANGES = (Do.MOVE_LAMMER, Do.MOVE_MARKERS, Do.MOVE_DICE, Do.EXTRA_ROLL)
#: throws whose dice no call reads (a no roll, a lost die): the table draws the game's dice as
#: they lie, with the irregularity
DICELESS = ("no-roll", "lost-die")
#: the actions done to the wager the trainee has selected on the layout
NEEDS_WAGER = (Do.ACCEPT, Do.REFUSE, Do.COLLECT, Do.PAY, Do.PLACE_SIX_EIGHT, Do.TAKE_DOWN)
#: after these the wager is dealt with, and nothing stays selected
CLEARS_SELECTION = (Do.COLLECT, Do.PAY, Do.ACCEPT, Do.REFUSE, Do.TAKE_DOWN)
#: the actions that put something on the layout where the trainee clicks (TableState.placed)
PLACEMENTS = (Do.PLACE_POINTER, Do.MOVE_DICE, Do.MOVE_MARKERS)
#: the actions that set the table up before a throw: the state they make shows once they are done
SETS_UP = (Do.PLACE_LAMMERS, Do.SET_MARKERS)
#: the actions that give the dice (or shaker) to a new shooter or Quarterback
SHOOTER_CHANGES = (Do.PASS_SHAKER, Do.OFFER_SHAKER, Do.OFFER_DICE)
#: the dealer's call of a throw, which reveals the dice: its result, a no roll, or (the lid
#: removed) the shaker re-covered. Not Automation.CALLS, the level at which the trainee calls too
THROW_CALLS = (Do.ANNOUNCE, Do.NO_ROLL, Do.RECOVER_SHAKER)
#: what Undo may take back (reading "undo"): what the dealer's hands put on or take off the
#: layout. A call has been heard by the players and the camera, and dice once handled are in play
UNDOABLE = (Do.ACCEPT, Do.REFUSE, Do.TAKE_DOWN, Do.COLLECT, Do.PAY, Do.PLACE_SIX_EIGHT,
            Do.PLACE_LAMMERS, Do.MOVE_LAMMER, Do.PLACE_POINTER, Do.SET_MARKERS, Do.MOVE_MARKERS,
            Do.MOVE_DICE)


@dataclass(frozen=True)
class Feedback:
    ok: bool
    action: Performed
    message: str
    cite: str
    quote: str | None
    expected: Expected | None  # what was due next when the trainee acted
    findings: tuple[Finding, ...] = ()


@dataclass
class Marks:
    """What the trainee and trainer have done to the wagers of the current round."""

    marks: dict[tuple[int, str], Mark] = field(default_factory=dict)
    payouts: dict[tuple[int, str], int] = field(default_factory=dict)


class PracticeRound:
    def __init__(self, scenario: Scenario, automation: Automation | None = None,
                 clock: Callable[[], float] = time.monotonic, *, procedure: Procedure | None = None):
        """`procedure`: the scenario's own, when the caller has it already (`random_round_built`
        builds it with the deal): it is not built again."""
        self.scenario = scenario
        self.procedure = procedure if procedure is not None else build(scenario)
        self.automation = automation or scenario.automation
        self.clock = clock
        self.started = clock()
        self.ended: float | None = None
        self.log: list[Performed] = []
        self.log_bytes = 0  # the log's size as the app writes it (json.dumps, ", " between actions)
        self.log_full = False  # the log reached LOG_BYTES or LOG_ACTIONS less their room: it ended
        self.mine = TRAINEE_DOES[self.automation]
        self.full = list(self.procedure.actions())  # (stage, Expected)
        self.done: set[int] = set()  # indexes into self.full that are closed
        self.skipped: set[int] = set()
        self.throw = 0
        self._snapshot: TableState | None = None
        self._listeners: list[Callable[[PracticeRound], None]] = []
        #: the calls made aloud: (throw, seconds from the dice at rest to the end of the call),
        #: kept with the attempt (trainer.progress.spoken_calls)
        self.call_speeds: list[tuple[int, float]] = []
        self.steps = game_steps(scenario.game)
        self._live = LiveGrade(self.procedure, automation=self.automation, game=scenario.game,
                               target_seconds=scenario.target_seconds)
        self._result = self._grade()
        self.advance()

    # --- state -------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def throws(self) -> int:
        return len(self.procedure.throws)

    @property
    def view(self) -> ThrowView | None:
        """The throw the table shows now (the first throw while the table is being set up)."""
        if not self.procedure.throws:
            return None
        return self.procedure.throws[max(self.throw, 1) - 1]

    @property
    def elapsed(self) -> float:
        return (self.ended or self.clock()) - self.started

    def next_expected(self) -> Expected | None:
        """The trainee's next step, for hints (never shown in an exam)."""
        for k, (_, e) in enumerate(self.full):
            if k not in self.done and e.do in self.mine:
                return e
        return None

    def _throw_actions(self, r: int) -> list[tuple[int, int, Expected]]:
        return [(k, s, e) for k, (s, e) in enumerate(self.full) if e.throw == r]

    def dice_visible(self) -> bool:
        """The dice show once every stage before the round's call is done."""
        if self.throw == 0:
            return False
        acts = self._throw_actions(self.throw)
        call_stage = next((s for _, s, e in acts if e.do in THROW_CALLS), None)
        if call_stage is None:
            return True
        before = self.procedure.ancestors(call_stage)
        return all(k in self.done for k, s, _ in acts if s in before)

    def table_state(self) -> TableState:
        """What the table shows now. Made once per change (`subscribe` hears of each)."""
        if self._snapshot is None:
            self._snapshot = self._table_state()
        return self._snapshot

    def subscribe(self, listener: Callable[[PracticeRound], None]) -> None:
        """Call `listener(round)` after every change: an action, a skipped throw, the end."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        self._snapshot = None
        for listener in list(self._listeners):
            listener(self)

    def _table_state(self) -> TableState:
        view = self.view
        if view is None:
            return TableState(players=dict(self.scenario.players))
        marks = self.marks()
        wagers = list(view.layout)
        for offer, reason in view.offers:
            key = (offer.seat, offer.bet)
            if reason or not any((w.seat, w.bet) == key for w in wagers):
                wagers.append(Wager(offer.seat, offer.bet, offer.amount))
            marks.marks.setdefault(key, Mark.REFUSED if reason else Mark.OFFERED)
        event = view.event
        irregular = None
        if event.type == "no-roll":
            irregular = event.throw["no_roll"]
        elif event.type == "lost-die":
            irregular = "lost-die"
        elif event.cocked is not None:
            irregular = COCKED
        dice = dice_of(self.scenario.game, event.throw) if event.type not in DICELESS else None
        if irregular and dice is None:  # a no roll or a lost die: the game's dice, as they lie
            dice = (3, 4, 2, 5, 5, 1, 6, 2, 3, 4)[:games.get(self.scenario.game).dice]
        acts = self._throw_actions(self.throw)
        changes = [k for k, _, e in acts if e.do in STATE_CHANGES]
        show_new = self.throw > 0 and (all(k in self.done for k in changes) if changes
                                        else self.dice_visible())
        # the table before this throw: as the last throw left it, and once the dealer has set it
        # up (the lammers placed, the markers set) as it stands when the dice are thrown
        set_up = all(k in self.done for k, _, e in acts if e.do in SETS_UP)
        previous = (view.before if self.throw > 0 and set_up
                    else self.procedure.throws[self.throw - 2].state if self.throw >= 2 else {})
        visible = self.dice_visible()
        called = any(k in self.done for k, _, e in acts if e.do in THROW_CALLS or e.do is Do.NEW_DICE)
        # the dealer's work changes the table when it is done, not when the dice land: the wagers
        # held for an extra roll once the throw is called, the shooter once the dice are passed
        for seat, bet in (view.state if called else previous).get("held", []):
            if marks.marks.get((seat, bet)) in (None, Mark.ACCEPTED):  # accepted, now held
                marks.marks[(seat, bet)] = Mark.HELD
        passed = all(k in self.done for k, _, e in acts if e.do in SHOOTER_CHANGES)
        shooter_state = view.state if self.throw > 0 and passed else previous
        return TableState(
            players=dict(self.scenario.players), wagers=wagers, marks=marks.marks,
            payouts=marks.payouts, dice=dice, dice_visible=visible,
            irregular=irregular if visible else None,
            cocked_die=event.cocked if irregular == COCKED and visible else None,
            named=bool(irregular) and visible and called and self.scenario.difficulty <= TOLD_UP_TO,
            placed={p.do.value: p.value for p in self.standing()  # nothing is placed on hidden dice
                    if visible and p.throw == self.throw and p.do in PLACEMENTS and p.value},
            shooter=(shooter_state.get("shooter") or shooter_state.get("quarterback")
                     or self.scenario.shooter),
            state=view.state if show_new else previous)

    def standing(self) -> list[Performed]:
        """The log without what an undo took back, and without the undos."""
        undone = taken_back(self.log)
        return [p for n, p in enumerate(self.log) if n not in undone and p.do is not Do.UNDO]

    def marks(self) -> Marks:
        out = Marks()
        for p in self.standing():
            if p.throw != self.throw or p.seat is None or p.bet is None:
                continue
            key = (p.seat, p.bet)
            if p.do is Do.COLLECT:
                out.marks[key] = Mark.COLLECTED
            elif p.do is Do.PAY:
                out.marks[key] = Mark.PAID
                out.payouts[key] = p.amount or 0
            elif p.do is Do.REFUSE:
                out.marks[key] = Mark.REFUSED
            elif p.do is Do.ACCEPT:
                out.marks[key] = Mark.ACCEPTED
        return out

    # --- acting ------------------------------------------------------------------------------

    def prompt(self, do: Do, seat: int | None = None, bet: str | None = None) -> Prompt | None:
        """What the action asks of the trainee before it is done (a payout, a call, a seat, a
        number), or None when it is done as it is (on the selected wager, if it needs one)."""
        view = self.view
        if do is Do.PAY:
            state = self.table_state()
            bets = games.get(self.scenario.game).catalogue(self.scenario.options)
            name = bets[bet].name if bet is not None and bet in bets else "the wager"
            amount = next((w.amount for w in state.wagers if (w.seat, w.bet) == (seat, bet)), 0)
            return Amount(f"Pay seat {seat}: {name} ({fmt_dollars(amount)} wager)")
        if do is Do.ANNOUNCE and view is not None:
            calls = tuple(choices(self.scenario.game, view))
            return Choice("Announce", "What do you call?", calls, calls)
        if do is Do.NO_ROLL:
            names = games.get(self.scenario.game).no_roll_names
            return Choice("No roll", "Why is it no roll?", tuple(names.values()), tuple(names))
        if do in (Do.OFFER_SHAKER, Do.PASS_SHAKER, Do.OFFER_DICE):
            seats = sorted(self.scenario.players.items())
            return Choice(LABELS[do], "To which seat?", tuple(f"Seat {s} — {n}" for s, n in seats),
                          tuple(str(s) for s, _ in seats))
        if view is None:
            return None
        return self.steps.prompt(do, view, self.table_state().state or {})

    def perform(self, do: Do, *, seat: int | None = None, bet: str | None = None,
                amount: int | None = None, value: str | None = None) -> Feedback:
        if self.finished:
            raise RuntimeError("the round is over")
        due = self.next_expected()
        action = Performed(do, max(self.throw, 0), seat, bet, amount, value, self.elapsed)
        self._log(action)
        self._result = self._grade()
        new = tuple(f for f in self._result.findings if f.actual is action)
        self._sync_done()
        self.advance()
        self._changed()
        if new:
            f = new[0]
            return Feedback(False, action, f.message, f.cite, quote(f.cite), due, new)
        matched = self._result.matched.get(len(self.log) - 1)
        e = self._trainee_expected()[matched] if matched is not None else due
        cite = e.cite if e else ""
        return Feedback(True, action, f"Right: {e.label if e else action.do.value}", cite,
                        quote(cite) if cite else None, due)

    def skip_throw(self) -> None:
        """Leave the rest of this throw undone (it is missing at the end) and go on."""
        if self.finished:
            return
        self._log(Performed(Do.SKIP_THROW, max(self.throw, 0), at=self.elapsed))
        for k, _, e in self._throw_actions(self.throw):
            if k not in self.done and e.do in self.mine:
                self.skipped.add(k)
                self.done.add(k)
        self.advance()
        self._changed()

    def undoable(self) -> Performed | str:
        """The action Undo would take back, or why there is none (reading "undo"): the
        trainee's last action of the throw being worked, nothing done after it, and a thing put
        on or taken off the layout, never a call."""
        if self.finished:
            return "the round is over and its answer is recorded"
        standing = [p for p in self.standing() if p.do is not Do.SKIP_THROW]
        last = standing[-1] if standing else None
        if last is None or last.throw != max(self.throw, 0) or (
                last.by_trainer and not any(not p.by_trainer and p.throw == last.throw
                                            for p in standing)):
            return "nothing of yours in this throw is left to take back"
        if last.by_trainer:
            return f"the trainer has gone on from your last action ({LABELS[last.do]})"
        if last.do not in UNDOABLE:
            return (f"{LABELS[last.do]} has been said or done at the table: a call or the dice "
                    "cannot be taken back")
        return last

    def undo(self, told: bool) -> Performed | str:
        """Take back the trainee's last action of this throw (`undoable`); `told`: the feedback
        showed its grade, which then stays (reading "undo"). The action taken back, or why
        nothing was."""
        last = self.undoable()
        if isinstance(last, str):
            return last
        self._log(Performed(Do.UNDO, last.throw, value=UNDO_TOLD if told else None, at=self.elapsed))
        self._result = self._grade()
        remaining = {id(e) for e in self._result.remaining}
        self.done = {k for k in self.done if self.full[k][1].do not in self.mine or k in self.skipped}
        self.done |= {k for k, (_, e) in enumerate(self.full)
                      if e.do in self.mine and id(e) not in remaining}
        self.advance()
        self._changed()
        return last

    def finish(self) -> Result:
        """End the round (or give it up) and grade it."""
        if self.ended is None:
            self.ended = self.clock()
        return grade(self.procedure, self.log, automation=self.automation, game=self.scenario.game,
                     target_seconds=self.scenario.target_seconds, elapsed=self.elapsed,
                     skipped={id(self.full[k][1]) for k in self.skipped})

    # --- inside --------------------------------------------------------------------------------

    def _log(self, action: Performed) -> None:
        """Log an action; the round ends once its log is full (LOG_BYTES or LOG_ACTIONS less
        their room), what is left undone missing, so that its answer is one the class keeps."""
        self.log.append(action)
        self.log_bytes += len(json.dumps(action.to_json(), ensure_ascii=False).encode()) + 2
        if (len(self.log) >= LOG_ACTIONS - LOG_ROOM_ACTIONS
                or self.log_bytes >= LOG_BYTES - LOG_ROOM_BYTES) and self.ended is None:
            self.ended = self.clock()
            self.log_full = True

    def _grade(self) -> Result:
        return self._live.grade(self.log, skipped={id(self.full[k][1]) for k in self.skipped})

    def _trainee_expected(self) -> list[Expected]:
        return [e for _, e in self.full if e.do in self.mine]

    def _sync_done(self) -> None:
        remaining = {id(e) for e in self._result.remaining}
        for k, (_, e) in enumerate(self.full):
            if e.do in self.mine and id(e) not in remaining:
                self.done.add(k)

    def advance(self) -> None:
        """Do the trainer's steps that are due (every stage before them done), up to the
        trainee's next one; note the current throw."""
        while self.ended is None:
            open_ = {s for k, (s, _) in enumerate(self.full) if k not in self.done}
            if not open_:
                if self.ended is None:
                    self.ended = self.clock()
                return
            due = {s for s in open_ if not self.procedure.ancestors(s) & open_}
            did = False
            for k, (s, e) in enumerate(self.full):
                if s in due and k not in self.done and e.do not in self.mine and self.ended is None:
                    self._log(Performed(e.do, e.throw, e.seat, e.bet, e.amount, e.value,
                                        self.elapsed, by_trainer=True))
                    self.done.add(k)
                    did = True
            first = min(open_)
            self.throw = next(e.throw for s, e in self.full if s == first)
            if not did:
                return
