"""The one list of the spoken calls: every call a game's dealer makes aloud, made from the engine's
own calls (each game's `call_of`, its extra roll and extra point calls, the down and distance its
table reaches, its no rolls, "no more bets"), with the words said for each (trainer.speech.words).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, product

from trainer import games
from trainer.cite import cite
from trainer.procedure.model import LABELS
from trainer.speech import words
from trainer.vocabulary import Do


@dataclass(frozen=True, slots=True)
class SpokenCall:
    """One call a dealer says aloud."""

    text: str  # the engine's wording, dice of a pair lower first ("Green 2-3, red 4: gain of 1")
    said: tuple[str, ...]  # the word sequences heard as this call, the first as the engine words it
    do: Do  # the action the call is
    value: str | None  # the value the action is graded on: the call, a no-roll reason, or None
    cite: str  # the section that has the dealer say it
    also: tuple[str, ...] = ()  # the engine's other wordings of it (the dice in the order thrown)


#: the section that has the dealer announce "no more bets", by game (Three Dice Football has none)
NO_MORE_BETS = {"props-and-hops": "668a.3(e)", "high-roll-dice": "675a.4(a)",
                "high-roll-dice-6": "675a.6(g)", "pai-gow-dice": "645c.2(f)"}
#: the section of a game's announcement of the dice
ANNOUNCE = {"props-and-hops": "668a.3(h)", "three-dice-football": "577.5(e)",
            "high-roll-dice": "675a.4(d)", "high-roll-dice-6": "675a.6(h)",
            "pai-gow-dice": "645c.2(g)"}
#: no-roll reasons for which the dealer calls no "no roll": Props & Hops' lid removed is put right
#: by re-covering the shaker (§ 668a.3(f); trainer/procedure/props_and_hops.py expects no call)
NOT_CALLED = {"props-and-hops": frozenset({"lid-removed"})}


def spoken_calls(game: str) -> tuple[SpokenCall, ...]:
    """Every call the game's dealer says aloud, each once; a RequestError for an unknown game."""
    games.get(game, "--game")
    return _calls(game)


def find(game: str, text: str) -> SpokenCall | None:
    """The spoken call the engine words as `text` (any of its wordings, or a no-roll reason as the
    no-roll action's value), or None when the game has no such call."""
    return _index(game).get(text.strip())


@cache
def _index(game: str) -> dict[str, SpokenCall]:
    out: dict[str, SpokenCall] = {}
    for call in spoken_calls(game):
        for name in (call.text, *call.also):
            out.setdefault(name, call)
    return out


@cache
def _calls(game: str) -> tuple[SpokenCall, ...]:
    g = games.get(game)
    found: list[SpokenCall] = []
    if game in NO_MORE_BETS:
        text = LABELS[Do.NO_MORE_BETS]
        found.append(SpokenCall(text, (words.spoken(text),), Do.NO_MORE_BETS, None,
                                cite(NO_MORE_BETS[game])))
    called = {reason: section for reason, section in g.no_rolls.items()
              if reason not in NOT_CALLED.get(game, ())}
    if called:  # "no roll" alone: its reason is then asked as the No roll action asks it
        # (trainer.spoken.action_of)
        text = LABELS[Do.NO_ROLL]
        found.append(SpokenCall(text, (words.spoken(text),), Do.NO_ROLL, None,
                                _no_roll_cite(game, called.values())))
    for reason, section in called.items():
        text = f"{LABELS[Do.NO_ROLL]}: {g.no_roll_names[reason].lower()}"
        found.append(SpokenCall(text, (words.no_roll(reason),), Do.NO_ROLL, reason, cite(section),
                                also=(reason,)))
    section = cite(ANNOUNCE[game])
    found += _grouped(_throw_calls(game), Do.ANNOUNCE, section)
    if game == "three-dice-football":
        from trainer.games.three_dice_football import extra_point_call

        found += _grouped(((extra_point_call(d), extra_point_call(_pair_first(d)))
                           for d in product(range(1, 7), repeat=3)), Do.ANNOUNCE, section)
        found += [SpokenCall(t, (words.spoken(t),), Do.ANNOUNCE_DOWN, t, cite("577.6(d)"))
                  for t in _downs()]
    if game == "high-roll-dice":
        found += _grouped(((t, t) for t in _extra_roll_calls()), Do.ANNOUNCE, cite("675a.4(h)"))
    return tuple(found)


def _no_roll_cite(game: str, sections: Iterable[str]) -> str:
    """The citation of "no roll" said alone: the subsections of its reasons whose text words the
    call (Props & Hops' § 668a.3(g) and (h): "the dealer shall call a 'no roll'"; Three Dice
    Football's § 577.5(c), the six reasons of (c)(1)-(6) in one); where the game's text words
    none, the subsections that make the throw invalid, and the game's own reading of no rolls,
    where it has one (the Pai Gow dice wagers: our copy of § 645c.2 has no text on them)."""
    from trainer.cite import reading
    from trainer.readings import for_game
    from trainer.regulations import quote

    subsections = list(dict.fromkeys(_subsection(s) for s in sections))
    worded = [s for s in subsections if "no roll" in (quote(cite(s)) or "").lower()]
    if worded:
        return "; ".join(cite(s) for s in worded)
    own = [reading(r.id) for r in for_game(game) if r.game == game and r.title == "No roll"]
    return "; ".join([cite(s) for s in subsections] + own)


def _subsection(section: str) -> str:
    """"577.5(c)(1)" -> "577.5(c)"; a section with no subsection is itself."""
    return re.sub(r"(\([^)]*\)).*", r"\1", section)


def _pair_first(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Three Dice Football's green pair, lower first (the red die last)."""
    return (min(dice[:2]), max(dice[:2]), dice[2])


def _throw_calls(game: str) -> Iterator[tuple[str, str]]:
    """(the engine's call of a throw, its call with the pair lower first) for every throw."""
    g = games.get(game)
    if game == "three-dice-football":
        for d in product(range(1, 7), repeat=3):
            yield g.call_of(d), g.call_of(_pair_first(d))
    elif game == "pai-gow-dice":  # red, blue, blue
        for d in product(range(1, 7), repeat=3):
            yield g.call_of(d), g.call_of((d[0], *sorted(d[1:])))
    else:  # the engine's call names no die's place: every multiset of the dice is enough
        for d in combinations_with_replacement(range(1, 7), g.dice):
            yield g.call_of(d), g.call_of(d)


def _grouped(pairs: Iterable[tuple[str, str]], do: Do, section: str) -> list[SpokenCall]:
    """Calls from (wording, canonical wording) pairs: one call per canonical wording, said in the
    words of each of its wordings."""
    groups: dict[str, list[str]] = {}
    for text, canonical in pairs:
        names = groups.setdefault(canonical, [canonical])
        if text not in names:
            names.append(text)
    return [SpokenCall(c, tuple(dict.fromkeys(words.spoken(t) for t in names)), do, c, section,
                       also=tuple(names[1:]))
            for c, names in groups.items()]


def _extra_roll_calls() -> list[str]:
    """High Roll Dice's extra roll calls (§ 675a.4(h)): after a first roll whose face shows on
    `held` of the ten dice, any number of the other dice may match it."""
    from trainer.games.high_roll_dice import TEN, extra_roll_call, winning_face

    out: dict[str, None] = {}
    for d in combinations_with_replacement(range(1, 7), TEN.dice):
        face, held = winning_face(d)
        for matched in range(0, TEN.dice - held + 1):
            if held < TEN.dice:
                out[extra_roll_call(face, matched, held + matched)] = None
    return list(out)


def _downs() -> list[str]:
    """Every down and distance a Three Dice Football drive reaches, as the engine words the
    announcement after a play (trainer/procedure/three_dice_football.py): the engine's own table
    driven, from every position it reaches, through a throw of each play the dice can make (the
    play, not its dice, moves the markers)."""
    from trainer.games.base import Throw
    from trainer.games.three_dice_football import Table, read_play

    plays = {read_play((g1, g2), red): (g1, g2, red) for g1, g2, red in product(range(1, 7), repeat=3)}
    seen: set[tuple] = set()
    out: dict[str, None] = {}
    todo = [Table()]
    while todo:
        table = todo.pop()
        for dice in plays.values():
            after = copy.copy(table)  # no wagers: its books stay empty, shared
            result = after.throw(Throw(dice=dice)).result
            if after.over or not result.get("next_down"):
                continue
            out[f"{result['next_down']} on the {result['yard_line']}"] = None
            key = (after.yard_line, after.goal, after.down, after.plays)
            if key not in seen:
                seen.add(key)
                todo.append(after)
    return sorted(out)
