"""An enrolment's reading checked before it is kept (trainer.speech.enrolment: each prompt is read
aloud, and the voice is fitted from the readings kept). A reading is refused, and the prompt asked
for again, where it cannot be the prompt's words:

- **no speech**: nothing was found over the room's floor (trainer.speech.endpoint), or speech ran
  past the longest a call is listened for;
- **too short or too long** for its words: under SHORTEST or over LONGEST seconds a syllable (the
  vowels of the words in the model's dictionary), LEEWAY seconds given on top of the longest for
  a pause: a cough, the dice, a word or two of the call, or the call and a sentence after it;
- **not its words**: the speech decoded against the prompt's words alone (a grammar of those
  words and nothing else, forced) scores worse than its best path in the game's grammar (the
  calls and the garbage branch of their words: what the listener decodes anyway): its `gap`, the
  natural log of the ratio of the two scores a second of the speech decoded, is over GAP (0), or
  no path through the words reaches their end. pocketsphinx scores each frame against the best
  of the states it is searching, and the game's grammar searches many more than the words alone:
  so a reading of its words scores better against them alone than the game's best path does (on
  flite's voices, by 0.03 to 0.26 a second), and only speech that fits other words far better
  than its own gives a gap over 0. The reading is judged against itself, so a room's noise or a
  voice the model hears badly moves both scores: no other reading is needed to judge the first.
  It costs one decode of the speech against a grammar of a few words, on the listening thread
  (a reading's CPU, heard and checked, median 142 ms against 118 ms heard only, on a loaded
  machine). Measured and not taken: the best path of a loop of every game's words instead of
  the game's grammar refused a few more readings of another call's words (in quiet 100 of 100
  against 96, at 10 dB 88 of 100 against 83) for a decode of five times the check's CPU.

SHORTEST, LONGEST and LEEWAY were chosen, and GAP checked, on flite's five voices reading the
prompts in quiet and in a room at 10 dB (tests/benchmarks/speech_readings.py, which counts the
good readings refused and the bad ones kept: silence, a cough of noise, another prompt's words).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.speech.audio import SAMPLE_RATE
from trainer.speech.listener import Listener, Verdict

#: the fewest and most seconds of speech a syllable of the words, and the leeway on the most
SHORTEST = 0.08
LONGEST = 0.6
LEEWAY = 1.0
#: the most the game's best path may beat the words alone by (natural log of the scores' ratio,
#: a second of the speech decoded)
GAP = 0.0


@dataclass(frozen=True)
class Check:
    """What was judged of a reading, and the verdict: `refused`, why (a sentence for the trainee),
    or None where it is kept."""

    refused: str | None
    seconds: float | None  # of speech found
    syllables: int
    gap: float | None  # the best path's score over the words alone's, a second (None: undecoded)


@dataclass(frozen=True)
class Read(Verdict):
    """A reading's verdict as a call's, with its check."""

    check: Check | None = None


class Reading(Listener):
    """One reading of a prompt (trainer.speech.enrolment.Prompt): heard as a call of its game is
    (the game's grammar, the model's own voice), then checked; its verdict a `Read`."""

    def __init__(self, prompt) -> None:
        super().__init__(prompt.game, prompt.call.text)
        self.words = prompt.words
        self.syllables = self._recogniser.syllables(prompt.words)

    def _set(self, verdict: Verdict) -> Verdict:
        fields = {f: getattr(verdict, f) for f in Verdict.__dataclass_fields__}
        return super()._set(Read(**fields, check=self._check(verdict)))

    def _check(self, verdict: Verdict) -> Check:
        n = self.syllables
        if verdict.speech_end is None or verdict.speech_start is None:
            why = ("it went on too long" if verdict.speech_start is not None else
                   "no speech was heard")
            return Check(f"Not kept: {why}. Read the call aloud, once.", None, n, None)
        seconds = verdict.speech_end - verdict.speech_start
        if seconds < SHORTEST * n:
            return Check(f"Not kept: {seconds:.1f} s of sound is too short for these words. "
                         "Read the whole call.", seconds, n, None)
        if seconds > LONGEST * n + LEEWAY:
            return Check(f"Not kept: {seconds:.1f} s of speech is too long for these words. "
                         "Read the call alone, as you would call it.", seconds, n, None)
        speech = self._endpointer.speech()
        forced = self._recogniser.decode(self._recogniser.alone(self.words), speech)
        best = self.heard.score if self.heard is not None else 0.0
        gap = None
        if forced.words == self.words and forced.score > 0:  # a path through the words ended
            gap = (math.log(best) - math.log(forced.score) if best > 0 else -math.inf) / (
                len(speech) / 2 / SAMPLE_RATE)
        if gap is None or gap > GAP:
            return Check("Not kept: what was heard does not sound like these words. Read them "
                         "as shown.", seconds, n, gap)
        return Check(None, seconds, n, gap)
