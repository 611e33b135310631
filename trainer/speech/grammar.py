"""A game's grammar: a finite-state grammar of every word sequence said for one of its calls
(trainer.speech.calls), shared prefixes merged (a tree of words), so that the decoder follows one
path per beginning ("seven three ..." once for "seven three four").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.errors import DataError
from trainer.speech.calls import SpokenCall, spoken_calls

START, FINAL = 0, 1


@dataclass(frozen=True)
class Grammar:
    name: str  # the decoder's name of its search
    game: str
    calls: dict[str, SpokenCall]  # the words said -> the call they are
    transitions: tuple[tuple, ...]  # (from state, to state, probability[, word])

    @classmethod
    def build(cls, name: str, game: str, allowed: Sequence[SpokenCall] | None = None) -> Grammar:
        chosen = spoken_calls(game) if allowed is None else allowed
        said = {s: c for c in chosen for s in c.said}
        edges: dict[tuple[int, str], int] = {}
        transitions: list[tuple] = []
        for text in said:
            state = START
            for word in text.split():
                if (state, word) not in edges:
                    edges[(state, word)] = 2 + len(edges)
                    transitions.append((state, edges[(state, word)], 1.0, word))
                state = edges[(state, word)]
            transitions.append((state, FINAL, 1.0))
        return cls(name, game, said, tuple(transitions))

    @property
    def words(self) -> frozenset[str]:
        return frozenset(w for text in self.calls for w in text.split())

    def load(self, decoder) -> None:
        """Add this grammar to a pocketsphinx decoder as a search of its name; a DataError names a
        word the pronouncing dictionary does not have."""
        missing = sorted(w for w in self.words if decoder.lookup_word(w) is None)
        if missing:
            raise DataError(f"the speech model's dictionary has no {', '.join(missing)}")
        fsg = decoder.create_fsg(self.name, START, FINAL, list(self.transitions))
        decoder.add_fsg(self.name, fsg)
