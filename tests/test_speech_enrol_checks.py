"""The enrolment's loose ends (trainer.speech.enrolment, ui.speech.enrolling): the prompts read
include "No more bets" and a no roll, each prompt saying why it is there, and every game has its
prompts; two runs of the accuracy benchmark at once write their voices in folders of their
own."""

from __future__ import annotations

import threading

import numpy as np

from tests.support.flite import needs_flite, say
from trainer import games
from trainer.speech import enrolment
from trainer.speech.enrolment import DIM, STREAMS, Transform
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


# -- the benchmark's runs at once ----------------------------------------------------------------

def some_transform() -> Transform:
    rng = np.random.default_rng(3)
    A = np.eye(DIM)[None].repeat(STREAMS, 0) + rng.normal(0, 0.01, (STREAMS, DIM, DIM))
    return Transform(A, rng.normal(0, 0.1, (STREAMS, DIM)))


def test_two_benchmark_runs_at_once_write_their_voices_apart(tmp_path, monkeypatch):
    """Each run of speech_accuracy.py --enrol writes its voices' transforms in a folder of its
    own (two at once wrote one file's temporary name, and one crashed), removed at its end."""
    needs_flite()
    import tests.benchmarks.speech_accuracy as bench

    monkeypatch.setattr(bench, "CACHE", tmp_path)
    for p in enrolment.prompts(2):  # the voice's audio made first (flite's cache is the runs')
        say(p.words, "slt", tmp_path)
    both = threading.Barrier(2)

    def estimate(pairs, **_):
        both.wait(10)  # the two runs write at the same moment
        return enrolment.Estimate(some_transform(), 2000, (), 1.0)

    monkeypatch.setattr(enrolment, "estimate", estimate)
    written, failed = [], []

    def run():
        try:
            with bench.run_folder() as mine:
                path = bench.enrol("slt", 2, None, [], 0.1, 0.1, mine)
                written.append((mine, path, Transform.read(path)))
                both.wait(10)  # both written before either run ends
        except Exception as e:  # said by the assertion below
            failed.append(e)

    runs = [threading.Thread(target=run) for _ in range(2)]
    for t in runs:
        t.start()
    for t in runs:
        t.join(60)
    assert not failed, failed
    (a, path_a, _), (b, path_b, _) = written
    assert a != b and path_a.parent == a and path_b.parent == b
    assert not a.exists() and not b.exists()
