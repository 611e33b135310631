"""The call due favoured in the search (`speech_accuracy.py --favour W,...`; measured, README.md):
the app knows which call is due when it listens, so a grammar per call due in which that call's
path weighs W against 1 for every other call, the garbage branch as it is beside the others.

Built from the game's grammar (trainer.speech.grammar) as the recogniser holds it: every way out
of the start (a call's first word, the garbage branch's entry) scaled by 1/W, and beside the
tree a chain of its own for each word sequence of the call due, entered at 1. The decoder scores a
path by the product of its transitions, so that is the call due at W against the others at 1 and
the garbage branch at GARBAGE, each path's score only moved by the same 1/W, with no
probability over 1 given to pocketsphinx; the call due's words are also left in the tree, a path
the chain always beats (the best path is taken). The weight is at the first word, where the search
starts to prune, so that the call due is not pruned away before its last word.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections import defaultdict

from trainer.speech.calls import SpokenCall
from trainer.speech.grammar import FINAL, START, Grammar

#: favoured grammars loaded in the recogniser last asked, by (game, call due, W), the last used
#: last. A Three Dice Football grammar takes 11 MiB in the decoder: a few are kept, the oldest
#: removed from the decoder
_loaded: dict[tuple[str, str, float], Grammar] = {}
_owner: list = [None]  # that recogniser (held: no other is given its id while it is)
KEEP = 6
#: the CPU of each build and load, seconds, by (game, W)
loads: dict[tuple[str, float], list[float]] = defaultdict(list)


def favoured(base: Grammar, due: SpokenCall, weight: float, name: str) -> Grammar:
    """`base` (a game's grammar of every call) with `due` favoured by `weight` (module docstring)."""
    if weight < 1:
        raise ValueError(f"a weight under 1 favours nothing: {weight:g}")
    scaled = tuple((t[0], t[1], t[2] / weight, t[3]) if t[0] == START and len(t) == 4 else t
                   for t in base.transitions)
    state = 1 + max(max(t[0], t[1]) for t in base.transitions)
    chains: list[tuple] = []
    for text in due.said:
        at = START
        for word in text.split():
            chains.append((at, state, 1.0, word))
            at, state = state, state + 1
        chains.append((at, FINAL, 1.0))
    return dataclasses.replace(base, name=name, transitions=scaled + tuple(chains))


def grammar_for(recogniser, game: str, due: SpokenCall, weight: float) -> Grammar:
    """The recogniser's grammar of `game` with `due` favoured by `weight`, built and loaded once
    (its CPU kept in `loads`)."""
    global _made
    if _owner[0] is not recogniser:  # the grammars go with the decoder they were loaded in
        _loaded.clear()
        _owner[0] = recogniser
    key = (game, due.text, weight)
    if key in _loaded:
        _loaded[key] = _loaded.pop(key)
        return _loaded[key]
    base = recogniser.grammar(game)
    if len(_loaded) >= KEEP:
        gone = _loaded.pop(next(iter(_loaded)))
        decoder = recogniser._decoder
        # never the active search removed (pocketsphinx's current_search() crashes with none)
        decoder.activate_search(recogniser.grammar(gone.game).name)
        decoder.remove_search(gone.name)
    began = time.process_time()
    _made += 1
    made = favoured(base, due, weight, f"fav{_made}")
    made.load(recogniser._decoder)
    loads[(game, weight)].append(time.process_time() - began)
    _loaded[key] = made
    return made


_made = 0


def load_report() -> list[str]:
    """A line per game and W: the build and load's CPU, median and worst, and how many."""
    return [f"  favoured grammar build + load, {game} W={w:g}: median "
            f"{1000 * statistics.median(v):.0f} ms, worst {1000 * max(v):.0f} ms ({len(v)} built)"
            for (game, w), v in sorted(loads.items())]


def neighbour(words: str, calls: tuple[SpokenCall, ...]) -> tuple[SpokenCall, int]:
    """A call of the game nearest the words said, but not theirs (one word away where the game
    has one: "Six twos" of "Five twos"; in Props & Hops, where a die's change changes the total
    too, two), seeded by the words: the wrong call a trainee says instead; and how many words
    away it is."""
    away = {c: min(_distance(words.split(), s.split()) for s in c.said)
            for c in calls if words not in c.said}
    least = min(away.values())
    return random.Random(words).choice([c for c, d in away.items() if d == least]), least


def nearest(phrase: str, calls: tuple[SpokenCall, ...]) -> SpokenCall:
    """The game's call nearest the phrase in words (fewest words put in, left out or changed,
    over its word sequences; the first of the nearest): the call due that a phrase that is no
    call is likeliest to be heard as."""
    return min(calls, key=lambda c: min(_distance(phrase.split(), s.split()) for s in c.said))


def _distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]
