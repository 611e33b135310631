"""A game's grammar: a finite-state grammar of every word sequence said for one of its calls
(trainer.speech.calls), shared prefixes merged (a tree of words), so that the decoder follows one
path per beginning ("seven three ..." once for "seven three four"); and beside the calls, the
garbage branch: any sequence of the grammar's own words, each under a name of its own (`~seven`),
and of the numbers that are none of them (NUMBERS: "fourteen" in Props & Hops), so that what is no
call ("seven three five", "hello", another game's call, a number no call has) is decoded there and
heard as no call, "unclear". Without those numbers, the calls' words alone were the garbage's
nearest fit to a number that is none of them, and that fit can be a call ("fourteen" was heard as
"Four, two-two" in Props & Hops, in quiet and in noise).

Entering the garbage branch costs GARBAGE (a probability, against 1 for a call's first word): the
lower it is, the more a sequence must fit better than every call to be taken as no call. Its value
was chosen on the calibration voices of tests/benchmarks/speech_accuracy.py (awb and rms, Props &
Hops, in quiet and at 10 dB SNR, the speech found by trainer.speech.endpoint, the decoder's lattice
pass off): the lowest of 1e-12, 1e-14, 1e-16, 1e-18, 1e-20 and 1e-24 that heard no call as another
call and no phrase that is no call as a call there (1e-14 and lower heard "fourteen" as "Four,
two-two" in quiet; 1e-18 and 1e-20 "nine four six" as "Nine, four-five" in noise); its other
voices are held out. Decoding the branch costs little: it holds those words only (a loop
of the model's phones instead cost 0.3 to 0.7 of real time, against 0.01 for the calls alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.errors import DataError
from trainer.speech.calls import SpokenCall, spoken_calls

START, FINAL, GARBAGE_STATE = 0, 1, 2
#: the probability of entering the garbage branch (module docstring), and of each further word
GARBAGE = 1e-12
GARBAGE_LOOP = 0.5
#: the mark of a word of the garbage branch
MARK = "~"
#: the numbers said that the garbage branch holds where the grammar's calls do not: the nearest
#: words to the calls' own (zero to twenty, the tens)
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
           "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
           "eighty", "ninety")


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
                    edges[(state, word)] = 3 + len(edges)
                    transitions.append((state, edges[(state, word)], 1.0, word))
                state = edges[(state, word)]
            transitions.append((state, FINAL, 1.0))
        for word in sorted({w for text in said for w in text.split()} | set(NUMBERS)):
            transitions += [(START, GARBAGE_STATE, GARBAGE, MARK + word),
                            (GARBAGE_STATE, GARBAGE_STATE, GARBAGE_LOOP, MARK + word)]
        transitions.append((GARBAGE_STATE, FINAL, 1.0))
        return cls(name, game, said, tuple(transitions))

    @classmethod
    def alone(cls, name: str, said: str) -> Grammar:
        """The words `said` and nothing else, no garbage branch: the best the speech scores as
        those words, forced (trainer.speech.readings judges an enrolment's reading by it)."""
        words = said.split()
        transitions: list[tuple] = [(START, 3, 1.0, words[0])]
        transitions += [(2 + i, 3 + i, 1.0, w) for i, w in enumerate(words[1:], start=1)]
        transitions.append((2 + len(words), FINAL, 1.0))
        return cls(name, "", {}, tuple(transitions))

    @property
    def words(self) -> frozenset[str]:
        """The calls' words."""
        return frozenset(w for text in self.calls for w in text.split())

    @property
    def garbage(self) -> frozenset[str]:
        """The garbage branch's words, unmarked: the calls' and NUMBERS."""
        return self.words | frozenset(NUMBERS)

    def load(self, decoder) -> None:
        """Add this grammar to a pocketsphinx decoder as a search of its name; a DataError names a
        word the pronouncing dictionary does not have."""
        missing = sorted(w for w in self.garbage if decoder.lookup_word(w) is None)
        if missing:
            raise DataError(f"the speech model's dictionary has no {', '.join(missing)}")
        for word in sorted(self.garbage):
            if decoder.lookup_word(MARK + word) is None:
                decoder.add_word(MARK + word, decoder.lookup_word(word), False)
        fsg = decoder.create_fsg(self.name, START, FINAL, list(self.transitions))
        decoder.add_fsg(self.name, fsg)
