"""pocketsphinx and its English model, decoding one utterance at a time against a game's grammar.

The grammar (trainer.speech.grammar) holds the game's calls only. Its garbage branch is the
acoustic model's own best sound at every moment: pocketsphinx scores every frame against the
best-scoring state of the whole model, so the mean score per frame of the best call's path is how
far below free speech the call fits (0 when nothing fits better). A call that fits too far below
is not what was said: "unclear". (A loop of the model's phones inside the grammar does the same in
principle, but decoding it cost 0.3 to 0.7 of real time where the calls alone cost 0.01, and a
verdict is due within 300 ms of the end of speech.)

Nothing carries from one utterance to the next: each is decoded whole (`full_utt`), from the
model's initial cepstral mean and with the noise estimate reset (pocketsphinx keeps both from the
last utterance otherwise: the same audio then scored differently after another call;
tests/test_speech.py decodes the same audio after different calls and gets the same words and
score).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from trainer.speech.calls import SpokenCall
from trainer.speech.grammar import Grammar

SAMPLE_RATE = 16_000
#: the lowest mean log score per frame, below the model's best, of a call taken as said; found on
#: flite voices held apart from those of the accuracy benchmark's score (its docstring says which)
MIN_FIT = -2.3
#: the words of the grammar that are not the calls' own (silence and noise the decoder inserts)
_FILLERS = frozenset({"<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]", "(NULL)"})
#: decoder settings: the model's, the utterance decoded whole with no state kept between
_CONFIG = {"lm": None, "loglevel": "FATAL", "samprate": SAMPLE_RATE, "cmn": "batch",
           "remove_noise": False, "bestpath": True}


@dataclass(frozen=True, slots=True)
class Heard:
    """What the recogniser made of one utterance."""

    call: SpokenCall | None  # the call the best path says, None when it says no whole call
    words: str  # the best path's words, fillers left out
    fit: float  # the path's mean log score per frame below the model's best (0 at best)
    frames: int

    @property
    def clear(self) -> bool:
        return self.call is not None and self.fit >= MIN_FIT


class Recogniser:
    """One decoder (the acoustic model is loaded once per process) with a search per grammar; one
    utterance is decoded at a time (a lock), from the start each time."""

    def __init__(self) -> None:
        from pocketsphinx import Decoder

        self._decoder = Decoder(**_CONFIG)
        self._cmn = self._decoder.get_cmn(False)  # the model's initial cepstral mean
        self._grammars: dict[tuple[str, tuple[str, ...] | None], Grammar] = {}
        self._lock = threading.Lock()

    def grammar(self, game: str, allowed: Sequence[SpokenCall] | None = None) -> Grammar:
        """The game's grammar (of `allowed` calls only, where given), built once."""
        key = (game, None if allowed is None else tuple(sorted(c.text for c in allowed)))
        with self._lock:
            if key not in self._grammars:
                name = f"g{len(self._grammars)}"
                grammar = Grammar.build(name, game, allowed)
                grammar.load(self._decoder)
                self._grammars[key] = grammar
            return self._grammars[key]

    def decode(self, grammar: Grammar, pcm: bytes) -> Heard:
        """The best call of the grammar for this utterance (16 kHz mono 16-bit PCM)."""
        d = self._decoder
        with self._lock:
            d.activate_search(grammar.name)
            d.start_stream()  # no noise estimate kept from the last utterance
            d.set_cmn(self._cmn)  # nor its cepstral mean
            d.start_utt()
            d.process_raw(pcm, full_utt=True)
            d.end_utt()
            frames = d.n_frames()
            hyp = d.hyp()
            segments = list(d.seg()) if hyp is not None else []
        words = " ".join(s.word for s in segments if s.word not in _FILLERS)
        if hyp is None or not frames:
            return Heard(None, words, -math.inf, frames)
        score = sum(math.log(s.ascore) if s.ascore > 0 else -math.inf for s in segments)
        return Heard(grammar.calls.get(words), words, score / frames, frames)


@cache
def recogniser() -> Recogniser:
    """The process's recogniser."""
    return Recogniser()
