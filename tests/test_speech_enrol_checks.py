"""The enrolment's loose ends (trainer.speech.enrolment, ui.speech.enrolling): the prompts read
include "No more bets" and a no roll, each prompt saying why it is there, and every game has its
prompts."""

from __future__ import annotations

from trainer import games
from trainer.speech import enrolment
from trainer.vocabulary import Do

# -- the prompts --------------------------------------------------------------------------------

def test_the_prompts_read_no_more_bets_and_a_no_roll_and_say_why_each_is_there():
    prompts = enrolment.prompts()
    assert len(prompts) == enrolment.CALLS == len({p.words for p in prompts})
    first, second = prompts[:2]
    assert first.words == "no more bets" and first.call.do is Do.NO_MORE_BETS
    assert second.words.startswith("no roll ") and second.call.do is Do.NO_ROLL
    for p in prompts:
        assert p.why, p
    # each later prompt brings words the ones before it did not have, and says which
    for n, p in enumerate(prompts[2:], start=2):
        before = {w for q in prompts[:n] for w in q.words.split()}
        new = [w for w in p.words.split() if w not in before]
        assert p.why == "new words: " + ", ".join(dict.fromkeys(new)), p


def test_every_game_has_its_prompts():
    prompts = enrolment.prompts()
    by_game = {g: sum(p.game == g for p in prompts) for g in games.GAME_IDS}
    assert all(n >= 2 for n in by_game.values()), by_game
