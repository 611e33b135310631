"""The dealer's procedure as data: what must be done, in what order, by whom.

A round's expected procedure is a list of stages. Every action of a stage must be done before
any action of a later stage; within a stage the actions may come in any order. That is the
partial order the regulations give: "collect all losing wagers before paying out winning
wagers" (§ 668a.3(i)) is two stages, and the collections inside the first are unordered.

Each expected action has a stable id, a plain label, the citation behind it and the skill it
trains. The trainee's actions are `Performed` records, appended to a log (PokerKit's operations,
Anki's revlog); grading compares the two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from trainer.frozen import quick_init
from trainer.games import bet_name
from trainer.games.high_roll_dice import FACE_VALUE, FACE_WORDS
from trainer.games.three_dice_football import read_markers
from trainer.money import fmt_dollars
from trainer.scenario import Event, Offer
from trainer.settlement import ThrowResult, Wager
from trainer.table_state import TableSnapshot
from trainer.vocabulary import Automation, Do, Skill
from trainer.words import no_roll_words

LABELS = {
    Do.ACCEPT: "Accept wager", Do.REFUSE: "Refuse wager", Do.NO_MORE_BETS: "No more bets",
    Do.PLACE_SIX_EIGHT: "Place Six Eight Shake wager", Do.PLACE_LAMMERS: "Place lammers",
    Do.OFFER_SHAKER: "Offer shaker", Do.RECOVER_SHAKER: "Re-cover shaker, shake again",
    Do.UNCOVER: "Uncover shaker", Do.NO_ROLL: "No roll", Do.ANNOUNCE: "Announce",
    Do.PLACE_POINTER: "Place pointer", Do.COLLECT: "Collect", Do.MOVE_LAMMER: "Move lammer",
    Do.PAY: "Pay", Do.COVER_AND_SHAKE: "Cover and shake", Do.PASS_SHAKER: "Pass shaker",
    Do.SET_MARKERS: "Set pucks and marker", Do.OFFER_DICE: "Offer dice", Do.NEW_DICE: "New dice",
    Do.MOVE_MARKERS: "Move markers", Do.ANNOUNCE_DOWN: "Announce down and distance",
    Do.EXTRA_POINT_ROLL: "Extra point roll", Do.LOCK_OUT_EXTRA_ROLL: "Lock out Extra Roll",
    Do.SHAKE_AND_THROW: "Shake and throw", Do.MOVE_DICE: "Move dice to throw box",
    Do.EXTRA_ROLL: "Extra roll", Do.TAKE_DOWN: "Return wager taken down",
    Do.USE_SHAKER: "Use the shaker", Do.SKIP_THROW: "Skip the rest of the throw",
    Do.UNDO: "Take back the last action",
}


#: which actions the trainee does at each automation level
TRAINEE_DOES: dict[Automation, frozenset[Do]] = {}
_SETTLE = frozenset({Do.PAY, Do.COLLECT, Do.MOVE_LAMMER, Do.TAKE_DOWN, Do.MOVE_MARKERS, Do.EXTRA_POINT_ROLL,
                     Do.EXTRA_ROLL, Do.MOVE_DICE})
TRAINEE_DOES[Automation.PAYOUTS] = frozenset({Do.PAY})
TRAINEE_DOES[Automation.SETTLEMENT] = _SETTLE
TRAINEE_DOES[Automation.CALLS] = _SETTLE | {Do.NO_ROLL, Do.ANNOUNCE, Do.PLACE_POINTER, Do.ANNOUNCE_DOWN,
                                            Do.NEW_DICE}
TRAINEE_DOES[Automation.WHOLE_ROUND] = frozenset(Do)
@quick_init
@dataclass(frozen=True, slots=True)
class Expected:
    """One action the procedure requires."""

    do: Do
    cite: str
    skill: Skill
    throw: int  # the throw attempt it belongs to (0 before the first throw)
    seat: int | None = None
    bet: str | None = None
    amount: int | None = None  # collect: the wager; pay: the payout
    value: str | None = None  # announce: the call; no-roll: the reason; offer: the seat ...
    note: str = ""  # why, in a sentence, for the answer key and feedback
    order_cite: str = ""  # the section that puts this stage after the ones before it
    pays_cite: str = ""  # pay: the paytable that sets the payout (§ 668a.4, § 577.8, ...)

    @property
    def key(self) -> tuple:
        """What identifies the action within its round (the amount is graded, not matched)."""
        return (self.do, self.seat, self.bet, self.value)

    @property
    def id(self) -> str:
        parts = [f"r{self.throw}", self.do.value]
        if self.seat is not None:
            parts.append(f"seat{self.seat}")
        if self.bet:
            parts.append(self.bet)
        if self.value:
            parts.append(str(self.value))
        return ":".join(parts)

    @property
    def label(self) -> str:
        return describe(self.do, self.seat, self.bet, self.amount, self.value)


def yard_words(yard: int) -> str:
    """A yard line the Yard Marker goes to, as the dealer says it: "the 13", "the end zone"."""
    return "the end zone" if yard == 0 else f"the {yard}"


def box_words(value: str | None) -> str:
    """A High Roll Dice throw box, by its face, in words: "aces", "sixes" (never a digit beside
    a word)."""
    face = FACE_VALUE.get(value or "")
    return FACE_WORDS[face][1] if face is not None else str(value)


def describe(do: Do, seat: int | None, bet: str | None, amount: int | None, value: str | None) -> str:
    """A dealer action in words: "Pay seat 2 Six the Hardway (3-3) $150.00", "Offer shaker to
    seat 1". A bet is named as the layout prints it, never by its id."""
    money = fmt_dollars(amount) if amount is not None else ""
    bet = bet_name(bet) if bet is not None else bet
    if do is Do.PAY:
        return f"Pay seat {seat} {bet} {money}".rstrip()
    if do is Do.COLLECT:
        return f"Collect seat {seat} {bet}" + (f" ({money})" if money else "")
    if do in (Do.ACCEPT, Do.REFUSE, Do.TAKE_DOWN):
        return f"{LABELS[do]}: seat {seat} {bet}" + (f" {money}" if money else "")
    if do in (Do.OFFER_SHAKER, Do.PASS_SHAKER, Do.OFFER_DICE):
        return f"{LABELS[do]} to seat {value}"
    if do is Do.PLACE_SIX_EIGHT:
        return f"{LABELS[do]} of seat {seat}"
    if do in (Do.PLACE_POINTER, Do.MOVE_LAMMER):
        return f"{LABELS[do]} on {value}" if do is Do.PLACE_POINTER else f"{LABELS[do]} from {value}"
    if do is Do.MOVE_MARKERS and value:
        try:
            yard, down, play = read_markers(value)
        except ValueError:  # not a move of the markers: said as it was logged
            return f"{LABELS[do]}: {value}"
        pucks = f", Down Puck on {down}, Game Length Puck on play {play}" if down else ""
        return f"{LABELS[do]}: Yard Marker to {yard_words(yard)}{pucks}"
    if do is Do.EXTRA_ROLL:
        return f"{LABELS[do]} of {value} dice"
    if do is Do.MOVE_DICE:
        return f"{LABELS[do]} of the {box_words(value)}" if value else LABELS[do]
    if do is Do.NO_ROLL and value:
        return f"{LABELS[do]}: {no_roll_words(value).lower()}"
    if do is Do.UNDO:  # its value says only whether the grade had been told
        return LABELS[do]
    if value:
        return f"{LABELS[do]}: {value}"
    return LABELS[do]


@quick_init
@dataclass(frozen=True, slots=True)
class Performed:
    """One action the trainee did (or the trainer did for them), as logged."""

    do: Do
    throw: int
    seat: int | None = None
    bet: str | None = None
    amount: int | None = None
    value: str | None = None
    at: float = 0.0  # seconds since the round started
    by_trainer: bool = False

    @property
    def key(self) -> tuple:
        return (self.do, self.seat, self.bet, self.value)

    def to_json(self) -> dict:
        out = {"do": self.do.value, "round": self.throw, "at": round(self.at, 3)}
        for name in ("seat", "bet", "amount", "value"):
            if (v := getattr(self, name)) is not None:
                out[name] = v
        if self.by_trainer:
            out["by_trainer"] = True
        return out

    @classmethod
    def from_json(cls, data: dict) -> Performed:
        return cls(Do(data["do"]), int(data["round"]), data.get("seat"), data.get("bet"),
                   data.get("amount"), data.get("value"), float(data.get("at", 0.0)),
                   bool(data.get("by_trainer", False)))


@quick_init
@dataclass(frozen=True, slots=True)
class ThrowView:
    """What the table shows in one round (throw attempt), for drawing it."""

    throw: int
    offers: tuple[tuple[Offer, str], ...]  # each wager offered before the throw, and why it is
    # refused ("" when it is accepted)
    layout: tuple[Wager, ...]  # the wagers standing when the dice are thrown
    event: Event  # the scenario's event of the throw
    valid: bool
    call: str
    result: ThrowResult
    state: TableSnapshot  # the table after the throw (lammers, markers, winning face, ...)
    before: TableSnapshot = field(default_factory=lambda: TableSnapshot())  # as the dice are thrown


# --- what an action asks of the trainee -----------------------------------------------------------
# The screen shows each kind as it likes (a keypad, a list, a spin box); which action asks what,
# and with which options, is the engine's (trainer.practice.PracticeRound.prompt).


@dataclass(frozen=True, slots=True)
class Amount:
    """A payout, in cents."""

    title: str


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few options; `values[i]` is what is logged for `options[i]`."""

    title: str
    question: str
    options: tuple[str, ...]
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number from `low` to `high`, starting at `start`."""

    title: str
    question: str
    low: int
    high: int
    start: int


@dataclass(frozen=True, slots=True)
class Place:
    """A place the trainee picks on the layout itself: `targets` maps each bet area that may be
    clicked to what is logged for it (the combination box a Props & Hops pointer goes on). `then`:
    the places picked after it for the same action (the Down Puck and Game Length Puck after the
    Yard Marker), every pick logged as one value, joined by `join`."""

    title: str
    question: str
    targets: Mapping[str, str]
    then: tuple[Place, ...] = ()
    join: str = ""
    words: Mapping[str, str] = field(default_factory=dict)  # a logged value, as people read it

    def said(self, value: str) -> str:
        """What is logged for a place, in words ("the end zone" for the yard line 0)."""
        return self.words.get(value, value)


Prompt = Amount | Choice | Number | Place


@dataclass
class Procedure:
    """The expected actions of a scenario, stage by stage, and what each round shows.

    The stages form a partial order: `after[i]` holds the stages that must be finished before
    stage i begins (by default the stage added just before it). Stages are kept in an order that
    respects it, so walking them by index is always one allowed order. Where the regulation
    allows more than one order (each player's wagers in High Roll Dice, the lammer beside the
    collections), a stage names the stages it waits for instead (`add(..., after=...)`); where it
    sets no order at all among some actions, they are one stage.
    """

    stages: list[tuple[Expected, ...]] = field(default_factory=list)
    throws: list[ThrowView] = field(default_factory=list)
    after: list[frozenset[int]] = field(default_factory=list)
    tail: frozenset[int] = frozenset()  # the stages a new stage waits for by default

    def add(self, first: Expected, *more: Expected, after: Iterable[int] | None = None) -> int:
        """Add a stage of one action or more; returns its index."""
        self.stages.append((first, *more))
        self.after.append(frozenset(self.tail if after is None else after))
        self.tail = frozenset({len(self.stages) - 1})
        return len(self.stages) - 1

    def ancestors(self, stage: int) -> frozenset[int]:
        """Every stage that must be finished before `stage` may begin."""
        known: list[frozenset[int]] = self.__dict__.setdefault("_ancestors", [])
        for i in range(len(known), len(self.stages)):  # a stage waits only for earlier ones
            known.append(self.after[i].union(*(known[j] for j in self.after[i])))
        return known[stage]

    def settled_throws(self) -> frozenset[int]:
        """The throws a collection or a payment settles (kept while no stage is added: grading
        asks at every action)."""
        kept = self.__dict__.setdefault("_settled_throws", {})
        if (throws := kept.get(len(self.stages))) is None:
            throws = kept[len(self.stages)] = frozenset(
                a.throw for _, a in self.actions() if a.do is Do.PAY or a.do is Do.COLLECT)
        return throws

    def no_rolls(self) -> Mapping[int, Expected]:
        """{throw: its no roll}, to read, not to change (kept while no stage is added, as
        `settled_throws`)."""
        kept = self.__dict__.setdefault("_no_rolls", {})
        if (found := kept.get(len(self.stages))) is None:
            found = kept[len(self.stages)] = {a.throw: a for _, a in self.actions() if a.do is Do.NO_ROLL}
        return found

    def actions(self):
        for i, stage in enumerate(self.stages):
            for action in stage:
                yield i, action

    def for_trainee(self, automation: Automation) -> Procedure:
        """The trainee's part: the same stages and order, holding only the trainee's actions.
        Made once per automation (and kept while no stage is added): grading asks for it at
        every action."""
        made: dict[tuple[Automation, int], Procedure] = self.__dict__.setdefault("_for_trainee", {})
        if (part := made.get((automation, len(self.stages)))) is None:
            mine = TRAINEE_DOES[automation]
            part = made[(automation, len(self.stages))] = Procedure(
                [tuple(a for a in stage if a.do in mine) for stage in self.stages],
                self.throws, list(self.after), self.tail)
        return part

    def performed_by_trainer(self, automation: Automation, throw: int) -> list[Expected]:
        """The actions of a round the trainer does itself at this automation level."""
        mine = TRAINEE_DOES[automation]
        return [a for _, a in self.actions() if a.throw == throw and a.do not in mine]
