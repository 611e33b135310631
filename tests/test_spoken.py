"""Spoken calls, the round's half (trainer.spoken): the call owed now, its words, the action a
verdict makes, "say again" once, and the stickman's words. No Qt, no recogniser."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.support.library import bundled
from trainer import PracticeRound
from trainer.procedure import Automation, Do
from trainer.spoken import COMING_OUT, SPOKEN, Due, action_of, due, outcome, stickman_says, words

LIBRARY = bundled()


@pytest.mark.parametrize("automation", [Automation.CALLS, Automation.WHOLE_ROUND])
def test_every_call_owed_in_the_library_heard_in_its_words_is_graded_right(automation):
    """Each bundled round worked with its calls heard (the words `due` gives, mapped back by
    `action_of`) and every other step done right: every call the trainee makes is owed in turn,
    the next step whenever it is the next, and the grader finds each heard call right."""
    heard = 0
    for scenario in LIBRARY.scenarios:
        r = PracticeRound(scenario, automation)
        owed = [e for _, e in r.full if e.do in SPOKEN and e.do in r.mine]
        made = []
        for _ in range(400):
            if r.finished:
                break
            d = due(r)
            if d is None:  # the trainee's other steps, done right
                e = r.next_expected()
                assert e is not None and e.do not in SPOKEN, (scenario.id, e)
                r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
                continue
            e = r.full[d.index][1]
            assert (d.do, d.throw) == (e.do, e.throw)
            do, value = action_of(d.expected, d, scenario.game)
            feedback = r.perform(do, value=value)
            assert feedback.ok, (scenario.id, d.expected, feedback.message)
            made.append(e)
            heard += 1
        assert r.finished
        assert made == owed, scenario.id  # each call the trainee has, owed once, in order
    assert heard > 100


def test_the_words_of_the_calls():
    assert words(Do.ANNOUNCE, "Six, two-four", "props-and-hops") == "Six, two-four"
    assert words(Do.NO_MORE_BETS, None, "pai-gow-dice") == "No more bets"
    assert words(Do.NO_ROLL, "die-on-die", "props-and-hops") == (
        "No roll: one die came to rest on top of the other")
    assert words(Do.NO_ROLL, None, "props-and-hops") == "No roll"
    assert words(Do.ANNOUNCE_DOWN, "2nd Down on the 18", "three-dice-football") == "2nd Down on the 18"


def test_a_heard_call_is_the_action_its_words_are():
    owed = Due(Do.ANNOUNCE, 1, 3, "Six, two-four")
    assert action_of("No roll: a die went off the table", owed, "three-dice-football") == (
        Do.NO_ROLL, "die-off-table")
    assert action_of("no roll", owed, "props-and-hops") == (Do.NO_ROLL, None)  # its reason asked
    assert action_of("No more bets", owed, "props-and-hops") == (Do.NO_MORE_BETS, None)
    assert action_of(" Eight, four-four ", owed, "props-and-hops") == (Do.ANNOUNCE, "Eight, four-four")
    down = Due(Do.ANNOUNCE_DOWN, 2, 9, "2nd Down on the 18")
    assert action_of("3rd Down on the 18", down, "three-dice-football") == (
        Do.ANNOUNCE_DOWN, "3rd Down on the 18")


def verdict(kind, heard=None, expected="Six, two-four"):
    return SimpleNamespace(kind=kind, expected=expected, heard=heard, speech_start=0.1,
                           speech_end=0.9, decided=0.05)


def test_what_each_verdict_does():
    owed = Due(Do.ANNOUNCE, 1, 3, "Six, two-four")
    game = "props-and-hops"
    right = outcome(verdict("right", "Six, two-four"), owed, 0, game)
    assert right.action == (Do.ANNOUNCE, "Six, two-four") and not right.again
    assert outcome(verdict("right"), owed, 0, game).action == (Do.ANNOUNCE, "Six, two-four")
    wrong = outcome(verdict("wrong", "Eight, four-four"), owed, 0, game)
    assert wrong.action == (Do.ANNOUNCE, "Eight, four-four") and "Eight, four-four" in wrong.said
    first = outcome(verdict("unclear"), owed, 0, game)
    assert first.again and first.action is None and first.said.startswith("Say again")
    second = outcome(verdict("unclear"), owed, 1, game)
    assert not second.again and second.action is None and second.said.startswith("No call")
    mumbled = SimpleNamespace(**vars(verdict("unclear")), said="six two more")
    assert outcome(mumbled, owed, 0, game).said == (
        "Say again: the call was not clear (heard “six two more”).")
    silent = outcome(verdict("none"), owed, 0, game)
    assert not silent.again and silent.action is None and "not heard" in silent.said


def test_what_the_stickman_says():
    game = "props-and-hops"
    assert stickman_says(Do.ANNOUNCE, "Six, two-four", game) == "Six, two-four"
    assert stickman_says(Do.NO_ROLL, "not-flat", game) == (
        "No roll: the dice did not land flat in the shaker")
    assert stickman_says(Do.NO_MORE_BETS, None, game) == "No more bets"
    for do in (Do.OFFER_SHAKER, Do.PASS_SHAKER, Do.OFFER_DICE):
        assert stickman_says(do, "2", game) == COMING_OUT == "Coming out"
    for do in (Do.PAY, Do.COLLECT, Do.UNCOVER, Do.PLACE_POINTER):
        assert stickman_says(do, None, game) is None
