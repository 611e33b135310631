"""A call cut short heard as no call (`speech_accuracy.py --prefix P`; measured, and left out of
the product: README.md): beside each call's end, a way out of every state of the grammar's tree
of calls that is a proper beginning of a call and no call itself ("no more" of "no more bets",
"seven three" of "seven three four"), to the end at probability P, so that the words said up to
there are the best path's and match no call: "unclear". A whole call still wins where its last
word fits better than the way out.
"""

from __future__ import annotations

import dataclasses

from trainer.speech import grammar
from trainer.speech.grammar import FINAL, MARK, Grammar


def cut_short(probability: float) -> None:
    """Every grammar built from now on with the way out (module docstring) at `probability`."""
    build = Grammar.build.__func__  # type: ignore[attr-defined]

    def with_prefixes(cls, name, game, allowed=None):
        made = build(cls, name, game, allowed)
        return dataclasses.replace(made, transitions=made.transitions + ways_out(made, probability))

    grammar.Grammar.build = classmethod(with_prefixes)  # type: ignore[method-assign]


def ways_out(made: Grammar, probability: float) -> tuple[tuple, ...]:
    """The states a call's word leads to (the calls' tree, not the garbage branch) that end no
    call, each to the end at `probability`."""
    inner = {t[1] for t in made.transitions if len(t) == 4 and not t[3].startswith(MARK)}
    ends = {t[0] for t in made.transitions if len(t) == 3 and t[1] == FINAL}
    return tuple((state, FINAL, probability) for state in sorted(inner - ends))
