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


@pytest.mark.parametrize("game", ["props-and-hops", "pai-gow-dice"])
def test_the_cut_short_lever_ends_every_proper_beginning_that_is_no_call(game):
    """The benchmark's `--prefix` (speech_lab/prefix.py): a way out to the end from each state of
    the calls' tree whose words are a proper beginning of a call and no call ("no more" of "no
    more bets"), and from none other (no whole call, no state of the garbage branch)."""
    from tests.benchmarks.speech_lab.prefix import ways_out
    from trainer.speech.grammar import FINAL, MARK, START, Grammar

    made = Grammar.build("g", game)
    words_to = {START: ()}  # each state of the calls' tree, by the words that lead to it
    for t in made.transitions:  # a tree's edges come after the edge into their state
        if len(t) == 4 and not t[3].startswith(MARK):
            words_to[t[1]] = (*words_to[t[0]], t[3])
    said = {s for call in spoken_calls(game) for s in call.said}
    beginnings = {" ".join(s.split()[:n]) for s in said for n in range(1, len(s.split()))}
    out = ways_out(made, 1e-4)
    assert {(" ".join(words_to[s]), to, p) for s, to, p in out} == {
        (b, FINAL, 1e-4) for b in beginnings - said}
    assert "no more" in {" ".join(words_to[s]) for s, _, _ in out}
