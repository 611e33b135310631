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
