"""pocketsphinx and its English model, decoding one utterance at a time against a game's grammar.

The grammar (trainer.speech.grammar) holds the game's calls and a garbage branch: the best path
is a call (right or wrong), or no call (unclear).

A recogniser may be made with a trainee's voice transform (trainer.speech.enrolment): the decoder
moves the model's means once, when it is made, and decodes as fast as without.

Nothing carries from one utterance to the next: each is decoded whole (`full_utt`), from the
model's initial cepstral mean and with the noise estimate reset (pocketsphinx keeps both from the
last utterance otherwise: the same audio then scored differently after another call;
tests/test_speech.py decodes the same audio after different calls and gets the same words and
score).
"""

from __future__ import annotations

import tempfile
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from trainer.speech.audio import SAMPLE_RATE
from trainer.speech.calls import SpokenCall
from trainer.speech.grammar import Grammar

if TYPE_CHECKING:  # numpy's, loaded only for a trainee's voice
    from trainer.speech.enrolment import Transform

#: the words of the grammar that are not the calls' own (silence and noise the decoder inserts)
_FILLERS = frozenset({"<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]", "(NULL)"})
#: decoder settings: the model's, the utterance decoded whole with no state kept between, and the
#: first pass's best path taken (`bestpath` off): the lattice pass after it took most of the time
#: after the end of speech in noise (seconds for a call of Three Dice Football)
_CONFIG = {"lm": None, "loglevel": "FATAL", "samprate": SAMPLE_RATE, "cmn": "batch",
           "remove_noise": False, "bestpath": False}


#: the vowels of the model's phones: a syllable each
_VOWELS = frozenset({"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY",
                     "UH", "UW"})


@dataclass(frozen=True, slots=True)
class Heard:
    """What the recogniser made of one utterance."""

    call: SpokenCall | None  # the call the best path says; None: no call (the garbage branch)
    words: str  # the best path's words, fillers left out
    score: float  # the best path's score, as pocketsphinx gives it (the same audio, the same score)


def settings() -> dict:
    """The decoder's settings (a copy): what the enrolment's alignment must see as well."""
    return dict(_CONFIG)


def fresh_stream(decoder) -> None:
    """Before an utterance: the noise estimate of the last one forgotten (module docstring)."""
    with warnings.catch_warnings():  # "deprecated and unnecessary", says pocketsphinx 5; without
        warnings.simplefilter("ignore", DeprecationWarning)  # it, the last estimate is kept
        decoder.start_stream()


class Recogniser:
    """One decoder (the acoustic model is loaded once per recogniser) with a search per grammar;
    one utterance is decoded at a time (a lock), from the start each time. With `voice`, the
    model's means moved by that trainee's transform."""

    def __init__(self, voice: Transform | None = None) -> None:
        from pocketsphinx import Decoder

        if voice is None:
            self._decoder = Decoder(**_CONFIG)
        else:  # pocketsphinx reads a transform from a file only: its own text, never the user's
            with tempfile.TemporaryDirectory(prefix="dealer-trainer-voice-") as folder:
                path = Path(folder) / "voice.mllr"
                path.write_text(voice.text(), encoding="ascii")
                self._decoder = Decoder(**_CONFIG, mllr=str(path))
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

    def alone(self, said: str) -> Grammar:
        """The grammar of the words `said` alone (Grammar.alone), built once."""
        key = (said, ("",))
        with self._lock:
            if key not in self._grammars:
                grammar = Grammar.alone(f"g{len(self._grammars)}", said)
                grammar.load(self._decoder)
                self._grammars[key] = grammar
            return self._grammars[key]

    def syllables(self, said: str) -> int:
        """The syllables of the words (their vowels, in the model's pronouncing dictionary)."""
        with self._lock:
            phones = " ".join(self._decoder.lookup_word(w) or "" for w in said.split()).split()
        return sum(p in _VOWELS for p in phones)

    def decode(self, grammar: Grammar, pcm: bytes) -> Heard:
        """The best call of the grammar for this utterance (16 kHz mono 16-bit PCM)."""
        d = self._decoder
        with self._lock:
            d.activate_search(grammar.name)
            fresh_stream(d)
            d.set_cmn(self._cmn)  # nor its cepstral mean
            d.start_utt()
            d.process_raw(pcm, full_utt=True)
            d.end_utt()
            hyp = d.hyp()
            segments = list(d.seg()) if hyp is not None else []
        said = [s for s in segments if s.word not in _FILLERS]
        words = " ".join(s.word.split("(")[0] for s in said)  # "on(2)": a second pronunciation
        return Heard(grammar.calls.get(words), words, hyp.score if hyp is not None else 0.0)


def recogniser(voice: Path | None = None) -> Recogniser:
    """The process's recogniser, or with `voice` (a trainee's transform file) one made with it;
    a RuntimeError saying why where none can be had, a RequestError naming a file that is no
    transform (trainer.speech.enrolment.Transform.read). One is held at a time (each holds the
    model: two would take twice the memory), made again when another voice is asked for."""
    if (why := unavailable()) is not None:
        raise RuntimeError(why)
    text = None
    if voice is not None:
        from trainer.speech.enrolment import Transform

        text = Transform.read(Path(voice)).text()
    with _holding:
        if text not in _held:
            _held.clear()
            _held[text] = Recogniser(_transform(text))
        return _held[text]


def _transform(text: str | None) -> Transform | None:
    if text is None:  # numpy and the enrolment are not loaded for the model as it is
        return None
    from trainer.speech.enrolment import Transform

    return Transform.parse(text)


#: the recogniser held, by the text of its transform (None: the model as it is)
_held: dict[str | None, Recogniser] = {}
_holding = threading.Lock()


def unavailable() -> str | None:
    """Why spoken calls cannot be heard on this machine, as one sentence for the user (the
    recogniser or its English model is missing), or None when they can."""
    try:
        import pocketsphinx
    except ImportError:
        return ("Spoken calls need the speech recogniser pocketsphinx, which is not installed "
                "(pip install pocketsphinx).")
    except Exception as e:  # a broken install: its own library fails to load
        return f"The speech recogniser pocketsphinx cannot be loaded ({type(e).__name__}: {e})."
    try:
        model = Path(pocketsphinx.get_model_path()) / "en-us"
    except Exception:  # no model folder at all: pocketsphinx's own lookup of it fails
        return ("The speech recogniser's English model is missing (pocketsphinx finds no model "
                "folder beside it).")
    needed = (model / "en-us" / "mdef", model / "cmudict-en-us.dict")
    if not all(p.is_file() for p in needed):
        return f"The speech recogniser's English model is missing (looked in {model})."
    return None
