"""Spoken calls, the engine half (trainer.speech): the list of spoken calls holds every call a
game's procedure asks the dealer to make, in words the recogniser can say; the interface the app
builds on; nothing carries from one call to the next."""

from __future__ import annotations

import inspect
import random
import struct
from functools import cache
from itertools import product

import pytest

from tests.support.flite import needs_flite, say, voices
from trainer import games, speech
from trainer.cite import cite, is_citation
from trainer.drills import random_round
from trainer.errors import RequestError
from trainer.procedure import build
from trainer.regulations import quote
from trainer.speech import words
from trainer.speech.calls import find, spoken_calls
from trainer.vocabulary import Do

CALLS = (Do.ANNOUNCE, Do.ANNOUNCE_DOWN, Do.NO_ROLL, Do.NO_MORE_BETS)


def dealt_calls(game: str, rounds: int = 12) -> set[tuple[Do, str | None]]:
    """The calls the engine's procedures expect in rounds its dealer deals (every difficulty)."""
    found = set()
    for difficulty, seed in product(range(1, 6), range(rounds // 5 + 1)):
        proc = build(random_round(game, difficulty, f"speech-{seed}"))
        found |= {(a.do, a.value) for _, a in proc.actions() if a.do in CALLS}
    return found


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_every_call_a_dealt_round_asks_for_is_a_spoken_call_of_its_game(game):
    dealt = dealt_calls(game)
    held = {Do.ANNOUNCE} | ({Do.ANNOUNCE_DOWN} if game == "three-dice-football" else set())
    assert {do for do, _ in dealt} >= held  # the rounds held calls to check
    for do, value in dealt:
        call = find(game, value if value is not None else "No more bets")
        assert call is not None, (do, value)
        assert call.do == do
        assert call.value == value or value in call.also


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_every_throw_of_the_dice_and_every_no_roll_has_its_spoken_call(game):
    g = games.get(game)
    rng = random.Random(game)  # every throw of three dice; thousands of throws of more
    throws = product(range(1, 7), repeat=g.dice) if g.dice <= 3 else (
        tuple(rng.randint(1, 6) for _ in range(g.dice)) for _ in range(3000))
    for dice in throws:
        call = find(game, g.call_of(dice))
        assert call is not None and call.do is Do.ANNOUNCE, dice
    reasons = set(g.no_rolls) - ({"lid-removed"} if game == "props-and-hops" else set())
    for reason in reasons:
        call = find(game, reason)
        assert call is not None and call.value == reason and call.cite.endswith(g.no_rolls[reason])
    assert (find(game, "No more bets") is None) == (game == "three-dice-football")
    # "no roll" alone: cited to the text that words the call where there is one (§ 668a.3(g),
    # (h); § 577.5(c)), else to what makes each of its reasons' throws invalid
    bare = find(game, "No roll")
    assert bare is not None and bare.do is Do.NO_ROLL and bare.value is None
    assert bare.said == ("no roll",) and is_citation(bare.cite)
    cited = bare.cite.split("; ")
    assert len(cited) == len(set(cited))
    worded = {"props-and-hops": [cite("668a.3(g)"), cite("668a.3(h)")],
              "three-dice-football": [cite("577.5(c)")]}
    if game in worded:
        assert cited == worded[game]
        assert all("no roll" in quote(c).lower() for c in cited)
    else:
        for reason in reasons:
            section = g.no_rolls[reason]
            assert any(cite(section).startswith(c) for c in cited), (section, cited)


def test_the_calls_said_as_dealers_say_them():
    # each worked by hand from the engine's wording and the readings in trainer.speech.words
    assert words.spoken("Green 2-3, red 4: gain of 1") == "green two three red four gain of one"
    assert words.spoken("Green 3-3, red 3: Trips TD!") == "green three three red three trips touchdown"
    assert words.spoken("2nd & Goal on the 7") == "second and goal on the seven"
    assert words.spoken("3rd Down on the 22") == "third down on the twenty two"
    assert words.spoken("Extra point roll 1-1-1: a triple of 1s") == \
        "extra point roll one one one a triple of ones"
    assert words.spoken("1 more six: 4 of a kind") == "one more six four of a kind"
    assert words.spoken("Seven, three-four") == "seven three four"
    tdf = find("three-dice-football", "Green 4-2, red 1: gain of 5")
    assert tdf is not None and tdf.text == "Green 2-4, red 1: gain of 5"
    assert set(tdf.said) == {"green two four red one gain of five", "green four two red one gain of five"}
    pai_gow = find("pai-gow-dice", "Red six, blue five and one")
    assert pai_gow is not None and "red six blue five and one" in pai_gow.said


@cache
def dictionary() -> frozenset[str]:
    """The words of the English model's pronouncing dictionary, read from its file."""
    import pocketsphinx

    path = f"{pocketsphinx.get_model_path()}/en-us/cmudict-en-us.dict"
    with open(path, encoding="utf-8") as f:
        return frozenset(line.split(" ", 1)[0] for line in f)


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_every_word_said_is_in_the_recognisers_dictionary(game):
    needs_flite()
    said = {w for c in spoken_calls(game) for s in c.said for w in s.split()}
    assert said and not said - dictionary()


def test_the_interface_the_app_builds_on():
    assert speech.SAMPLE_RATE == 16_000
    assert list(inspect.signature(speech.Listener).parameters) == ["game", "expected", "allowed",
                                                                   "voice"]
    for name in ("allowed", "voice"):
        assert inspect.signature(speech.Listener).parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
    assert [f for f in speech.Verdict.__dataclass_fields__][:6] == [
        "kind", "expected", "heard", "speech_start", "speech_end", "decided"]
    assert list(inspect.signature(speech.hear).parameters) == ["path", "game", "expected", "voice"]
    with pytest.raises(RequestError, match="unknown game 'craps'"):
        speech.Listener("craps", "Seven, three-four")
    with pytest.raises(RequestError, match="not a call of Props & Hops"):
        speech.Listener("props-and-hops", "Red one, blue one and one")
    with pytest.raises(RequestError, match="not among the allowed calls"):
        speech.Listener("props-and-hops", "Seven, three-four", allowed=["Seven, two-five"])


def test_silence_is_no_call_and_the_meter_follows_the_loudness():
    needs_flite()
    listener = speech.Listener("props-and-hops", "Seven, three-four")
    assert listener.feed(bytes(speech.SAMPLE_RATE * 2)) is None  # a second of silence
    assert listener.level == 0.0
    loud = struct.pack("<2h", 30000, -30000) * 800
    listener.feed(loud)
    assert listener.level > 0.95
    verdict = listener.finish()
    assert (verdict.kind, verdict.heard, verdict.speech_start) == ("none", None, None)


def test_a_call_is_heard_the_same_whatever_was_heard_before(tmp_path_factory):
    """One recogniser hears the call first, then after another utterance, then after the call
    and a third: the same words and score each time (its state after any utterance is that of a
    new one)."""
    from trainer.speech.audio import read_wav
    from trainer.speech.recogniser import Recogniser

    folder = voices(tmp_path_factory)
    call = read_wav(say("eight three five", "kal16", folder))
    before = [read_wav(say(t, "awb", folder)) for t in ("hello everybody", "twelve six six")]
    r = Recogniser()
    grammar = r.grammar("props-and-hops")
    heard = []
    for earlier in ([], before[:1], before[1:]):  # nothing, then hello, then the call and twelve
        for pcm in earlier:
            r.decode(grammar, pcm)
        h = r.decode(grammar, call)
        heard.append((h.words, h.score))
    assert heard[0][0] == "eight three five"
    assert heard[1:] == heard[:1] * 2
