"""The speech benchmark's phrases that are no call (tests/benchmarks/speech_accuracy.py): each
game is given only those that are none of its calls, so that a call of the game heard right is
never counted as a phrase heard as a call."""

from __future__ import annotations

import pytest

from tests.benchmarks.speech_accuracy import NOT_CALLS, not_calls
from trainer import games
from trainer.speech import spoken_calls


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_no_phrase_given_a_game_is_one_of_its_calls(game):
    said = {s for call in spoken_calls(game) for s in call.said}
    assert not said & set(not_calls(game))
    assert set(not_calls(game)) == set(NOT_CALLS) - said  # nothing else left out


def test_another_games_call_that_is_this_games_is_left_out():
    assert "three sixes" in NOT_CALLS  # a call of the High Roll Dice games, said in the others'
    assert "three sixes" not in not_calls("high-roll-dice")
    assert "three sixes" in not_calls("props-and-hops")


def test_say_again_counts_the_second_try_only_after_an_unclear_first():
    """The benchmark's count with the one "say again": a call is right if its first try was, or
    its second after an unclear first; a wrong call on either try is wrong; a phrase heard as a
    call on either try is counted."""
    from tests.benchmarks.speech_accuracy import again_counts

    def call(kind, kind2=None):
        case = {"in": True, "kind": kind, "heard": None}
        return case if kind2 is None else {**case, "kind2": kind2, "heard2": None}

    def phrase(heard=None, heard2=None):
        case = {"in": False, "kind": "unclear" if heard is None else "wrong", "heard": heard}
        return case if heard is not None else {**case, "kind2": "unclear" if heard2 is None
                                               else "wrong", "heard2": heard2}

    cases = [call("right"), call("wrong"), call("unclear", "right"), call("unclear", "wrong"),
             call("unclear", "unclear"), call("none"), phrase(), phrase("Two, one-one"),
             phrase(None, "Four, two-two")]
    assert again_counts(cases) == (
        "1/6 right first, 2/6 (33.3%) after a say again, 2 wrong, 1 unclear twice; "
        "phrases unclear twice 1/3, heard as a call on either try 2")
