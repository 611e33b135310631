"""Spoken calls heard in quiet: flite's voice says every call of Props & Hops, phrases that are no
call, and wrong calls, made at test time and fed through trainer.speech.hear as a microphone's
audio would be. (Accuracy in noise, over every game and more voices, is measured by
tests/benchmarks/speech_accuracy.py.)"""

from __future__ import annotations

import pytest

from tests.support.flite import say, voices
from trainer.speech import hear, spoken_calls

GAME = "props-and-hops"
#: a voice the garbage branch's cost was chosen on (trainer/speech/grammar.py); the benchmark
#: measures the voices held out, and in noise
VOICE = "rms"
#: both voices it was chosen on ("fourteen" was heard as "Four, two-two" in awb's voice at a
#: lower cost)
CALIBRATION = ("rms", "awb")
#: greetings, other games' calls, and numbers that are not calls of Props & Hops
NOT_CALLS = ("good evening everyone", "hello there", "red four blue two and six",
             "green two three red four gain of one", "three sixes", "seven three five",
             "nine four six", "twelve", "fourteen", "first down on the fifteen", "no more")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return voices(tmp_path_factory)


def test_every_call_of_a_game_said_is_heard_right_and_never_right_as_another(folder):
    calls = spoken_calls(GAME)
    wrong_right = []
    missed = []
    for i, call in enumerate(calls):
        audio = say(call.said[0], VOICE, folder)
        verdict = hear(audio, GAME, call.text)
        if verdict.kind != "right":
            missed.append((call.text, verdict.kind, verdict.said))
        assert verdict.speech_end is not None and verdict.decided >= 0
        # another call due: what was said is wrong for it (but "no roll" alone, right for every
        # no roll: test_no_roll_as_the_text_words_it_...; these pairs are never two no rolls)
        other = calls[(i + 7) % len(calls)]
        if hear(audio, GAME, other.text).kind == "right":
            wrong_right.append((call.text, other.text))
    assert not missed
    assert not wrong_right


@pytest.mark.parametrize("voice", CALIBRATION)
def test_no_roll_as_the_text_words_it_is_right_for_every_no_roll_and_wrong_for_the_dice(folder,
                                                                                      voice):
    """"The dealer shall call a 'no roll'" (§ 668a.3(g), (h)): the call, without its reason, is
    right wherever a no roll is due (its reason is then asked, as the No roll action asks it), and
    wrong where the dice are to be called."""
    audio = say("no roll", voice, folder)
    no_rolls = [c for c in spoken_calls(GAME) if c.do.value == "no-roll" and c.value]
    assert no_rolls
    for call in no_rolls:
        verdict = hear(audio, GAME, call.text)
        assert (verdict.kind, verdict.heard) == ("right", "No roll"), (call.text, verdict)
    verdict = hear(audio, GAME, "Seven, three-four")
    assert (verdict.kind, verdict.heard) == ("wrong", "No roll")


@pytest.mark.parametrize("voice", CALIBRATION)
@pytest.mark.parametrize("phrase", NOT_CALLS)
def test_a_phrase_that_is_no_call_is_unclear_never_a_call(folder, phrase, voice):
    verdict = hear(say(phrase, voice, folder), GAME, "Seven, three-four")
    assert verdict.kind == "unclear", verdict
    assert verdict.heard is None


@pytest.mark.parametrize("voice", ("kal16", "kal"))
def test_a_number_no_call_has_is_unclear_not_the_call_of_its_nearest_words(folder, voice):
    """"fourteen" is no call of Props & Hops; with only the calls' words in the garbage branch it
    was heard in these voices as "Four, two-two" (graded right were that call due). Not the
    voices the garbage cost was chosen on: the numbers in the garbage branch were not chosen by
    any voice."""
    verdict = hear(say("fourteen", voice, folder), GAME, "Four, two-two")
    assert verdict.kind == "unclear", verdict
    assert verdict.heard is None


def test_a_listener_for_some_calls_only_hears_those(folder):
    from trainer.speech import Listener
    from trainer.speech.audio import read_wav

    def verdict(said: str, expected: str, allowed: list[str]):
        listener = Listener(GAME, expected, allowed=allowed)
        listener.feed(read_wav(say(said, VOICE, folder)))
        return listener.finish()

    allowed = ["Seven, three-four", "Seven, two-five", "No more bets"]
    assert verdict("seven three four", "Seven, three-four", allowed).kind == "right"
    assert verdict("seven two five", "Seven, three-four", allowed).heard == "Seven, two-five"
    outside = verdict("eleven five six", "Seven, three-four", allowed)  # a call not allowed
    assert outside.kind == "unclear" and outside.heard is None
