"""Spoken calls, the round's half: which call the trainee owes now, the words the recogniser
(`trainer.speech`) is told to expect, and the action a verdict makes. No Qt, and no recogniser:
the practice screen feeds a `trainer.speech.Listener` and hands its verdict here, and the action
that comes out is performed as the call action's is (`PracticeRound.perform`), so that a spoken
call is graded by the one grader, with the same findings, severities and citations.

The calls a dealer makes aloud: "no more bets" (§ 668a.3(e), § 645c.2(f)), the dice (§ 668a.3(e),
§ 577.5(e), § 675a.4, § 645c.2(g)), "no roll" with its reason ("No roll: a die went off the
table", as the call action's answer key words it), and Three Dice Football's down and distance
(§ 577.6(d)). A bare "no roll" heard asks its reason as the call action does.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from trainer import games
from trainer.procedure.model import LABELS
from trainer.vocabulary import Do
from trainer.words import no_roll_words

if TYPE_CHECKING:
    from trainer.practice import PracticeRound

#: the dealer's actions that are said aloud
SPOKEN = (Do.NO_MORE_BETS, Do.ANNOUNCE, Do.NO_ROLL, Do.ANNOUNCE_DOWN)
#: the calls of a throw, timed from the dice at rest (call speed)
TIMED = (Do.ANNOUNCE, Do.NO_ROLL)
#: the words of the calls that carry no value
NO_ROLL_CALL = LABELS[Do.NO_ROLL]
NO_MORE_BETS_CALL = LABELS[Do.NO_MORE_BETS]
#: how many times an unclear call is asked again before it counts as no call
SAY_AGAIN = 1


def engine() -> ModuleType:
    """The recogniser, `trainer.speech`; ImportError where it or what it needs is not installed
    (it is looked up by name: an install without it still runs, with the keys)."""
    return import_module("trainer.speech")


def unavailable() -> str | None:
    """Why spoken calls cannot be heard here (one sentence), or None: the recogniser's own
    reason, or that it cannot be loaded at all. The microphone is the screen's to find."""
    try:
        speech = engine()
    except ImportError as e:
        return f"The speech recogniser cannot be loaded ({e})."
    return speech.unavailable()


@dataclass(frozen=True)
class Due:
    """A call the trainee owes now: the action, its throw, its place in the round's procedure
    (which tells two calls of one throw apart) and the call in the recogniser's words."""

    do: Do
    throw: int
    index: int
    expected: str

    @property
    def timed(self) -> bool:
        return self.do in TIMED


def words(do: Do, value: str | None, game: str) -> str:
    """A spoken call in the engine's words: the dice's call and the down and distance are their
    own value, a no roll is "No roll: " and its reason in the game's words, "No more bets" is
    itself."""
    if do is Do.NO_ROLL:
        return f"{NO_ROLL_CALL}: {no_roll_words(value, game).lower()}" if value else NO_ROLL_CALL
    if do is Do.NO_MORE_BETS:
        return NO_MORE_BETS_CALL
    return value or ""


def due(round_: PracticeRound) -> Due | None:
    """The call the trainee owes now, or None: a spoken action of the throw being worked that is
    the trainee's at this automation, not yet done, every stage before it done (for the throw's
    call: the dice at rest, as `PracticeRound.dice_visible` shows them)."""
    if round_.finished:
        return None
    acts = [(k, s, e) for k, (s, e) in enumerate(round_.full) if e.throw == max(round_.throw, 0)]
    for k, stage, e in acts:
        if k in round_.done or e.do not in SPOKEN or e.do not in round_.mine:
            continue
        before = round_.procedure.ancestors(stage)
        if all(j in round_.done for j, s, _ in acts if s in before):
            return Due(e.do, e.throw, k, words(e.do, e.value, round_.scenario.game))
    return None


def action_of(heard: str, owed: Due, game: str) -> tuple[Do, str | None]:
    """The call action a heard call makes: (the action, its value). A no roll heard with its
    reason is that reason's; a bare "No roll" asks its reason as the call action does (value
    None); a down and distance is heard where one is owed, any other call is the dice's."""
    said = heard.strip()
    reasons = {words(Do.NO_ROLL, r, game).casefold(): r for r in games.get(game).no_roll_names}
    if said.casefold() in reasons:
        return Do.NO_ROLL, reasons[said.casefold()]
    if said.casefold() == NO_ROLL_CALL.casefold():
        return Do.NO_ROLL, None
    if said.casefold() == NO_MORE_BETS_CALL.casefold():
        return Do.NO_MORE_BETS, None
    if owed.do is Do.ANNOUNCE_DOWN:
        return Do.ANNOUNCE_DOWN, said
    return Do.ANNOUNCE, said


@dataclass(frozen=True)
class Outcome:
    """What the screen does with a verdict: perform `action` (graded as the call action), ask
    again, or note that no call was made; `said` is the line the trainee reads."""

    action: tuple[Do, str | None] | None
    again: bool
    said: str


def outcome(verdict, owed: Due, asked_again: int, game: str) -> Outcome:
    """A verdict (`trainer.speech.Verdict`) for the call `owed`, `asked_again` times asked again
    already: right and wrong calls are performed (the grader says which); an unclear one is
    asked again `SAY_AGAIN` times, then counts as no call, as silence does."""
    heard = verdict.heard or (verdict.expected if verdict.kind == "right" else None)
    if verdict.kind in ("right", "wrong") and heard:
        return Outcome(action_of(heard, owed, game), False, f"Heard: “{heard}”")
    words_heard = getattr(verdict, "said", "")  # the recogniser's best words, where it gives them
    unclear = f"not clear (heard “{words_heard}”)" if words_heard else "not clear"
    if verdict.kind == "unclear" and asked_again < SAY_AGAIN:
        return Outcome(None, True, f"Say again: the call was {unclear}.")
    what = unclear if verdict.kind == "unclear" else "not heard"
    return Outcome(None, False, f"No call: the call was {what}. Make it from the action bar, or "
                                "go on (a call left unmade is missing).")


#: the stickman's cue when a new shooter has the dice. No regulation words it: it is the usual
#: call before a shooter's first throw, said when the dealer gives the dice or the shaker to the
#: shooter (Props & Hops: the shaker offered, § 668a.3(f), and passed on, § 668a.3(k); Three Dice
#: Football: the dice offered to the Quarterback, § 577.4(b), (c) and § 577.7(a))
COMING_OUT = "Coming out"
SHOOTER_CHANGES = (Do.OFFER_SHAKER, Do.PASS_SHAKER, Do.OFFER_DICE)


def stickman_says(do: Do, value: str | None, game: str) -> str | None:
    """What the stickman says aloud with this action, or None: a call in its words ("no more
    bets", the dice, "no roll", the down and distance), or the shooter's cue."""
    if do in SPOKEN:
        return words(do, value, game) or None
    if do in SHOOTER_CHANGES:
        return COMING_OUT
    return None
