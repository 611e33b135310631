"""A round graded as it grows (trainer.grading.LiveGrade, what the practice screen asks after every
action) gets `grade`'s verdict on the same log, finding for finding, after every action: on
perfect logs and on logs spoiled the ways a trainee spoils them (a wrong payout, a step left out,
two steps swapped, an action done twice, an undo, a throw skipped, the markers moved as logs
read before the pucks were placed apart)."""

from __future__ import annotations

import random

import pytest

from tests.support.paths import ROOT
from trainer.drills import random_round
from trainer.games.three_dice_football import MARKERS_JOIN
from trainer.grading import LiveGrade, correct_log, grade
from trainer.procedure import Automation, Do, Performed, build
from trainer.scenario import load
from trainer.vocabulary import UNDO_TOLD

SCENARIOS = sorted((ROOT / "scenarios").glob("*/*.toml"))
DEALT = [("props-and-hops", 5, 3), ("three-dice-football", 5, 7), ("high-roll-dice", 5, 2),
         ("pai-gow-dice", 4, 11)]


def spoiled(log: list[Performed], rng: random.Random) -> list[Performed]:
    """The log with a few of a trainee's mistakes in it, chosen by `rng`."""
    out = list(log)
    for _ in range(rng.randint(1, 4)):
        if not out:
            break
        n = rng.randrange(len(out))
        p = out[n]
        way = rng.choice(("amount", "drop", "swap", "twice", "undo", "undo-told", "skip", "old-markers"))
        if way == "amount" and p.do is Do.PAY:
            out[n] = Performed(p.do, p.throw, p.seat, p.bet, (p.amount or 0) + 100, p.value, p.at)
        elif way == "drop":
            del out[n]
        elif way == "swap" and n + 1 < len(out):
            out[n], out[n + 1] = out[n + 1], out[n]
        elif way == "twice":
            out.insert(n + 1, Performed(p.do, p.throw, p.seat, p.bet, p.amount, p.value, p.at))
        elif way in ("undo", "undo-told"):
            out.insert(n + 1, Performed(Do.UNDO, p.throw, value=UNDO_TOLD if way == "undo-told" else None))
        elif way == "skip":
            out.insert(n, Performed(Do.SKIP_THROW, p.throw))
        elif way == "old-markers" and p.do is Do.MOVE_MARKERS and p.value:
            out[n] = Performed(p.do, p.throw, p.seat, p.bet, p.amount, p.value.split(MARKERS_JOIN)[0], p.at)
    return out


def rounds():
    for path in SCENARIOS:
        yield path.parent.name + "/" + path.stem, load(path)
    for game, difficulty, seed in DEALT:
        yield f"dealt-{game}", random_round(game, difficulty, seed)


@pytest.mark.parametrize("name, scenario", list(rounds()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_log_graded_as_it_grows_gets_the_verdict_of_the_whole_log(name, scenario):
    proc = build(scenario)
    rng = random.Random(name)
    for automation, spoils in ((Automation.WHOLE_ROUND, 3), (Automation.PAYOUTS, 1)):
        perfect = correct_log(proc, automation)
        for log in (perfect, *(spoiled(perfect, rng) for _ in range(spoils))):
            live = LiveGrade(proc, automation=automation, game=scenario.game,
                             target_seconds=scenario.target_seconds)
            for n in range(1, len(log) + 1):
                grown = log[:n]
                whole = grade(proc, grown, automation=automation, game=scenario.game,
                              target_seconds=scenario.target_seconds, final=False)
                assert live.grade(grown) == whole, f"{name}: after action {n} of {log}"
            end = dict(elapsed=30.0, final=True)
            assert live.grade(log, **end) == grade(
                proc, log, automation=automation, game=scenario.game,
                target_seconds=scenario.target_seconds, **end), name


def test_a_log_that_is_not_the_one_grown_is_graded_afresh():
    """An action taken off the end and another put in its place: the walk of the first is not
    reused for the second."""
    s = load(SCENARIOS[0])
    proc = build(s)
    log = correct_log(proc, Automation.WHOLE_ROUND)
    live = LiveGrade(proc, automation=Automation.WHOLE_ROUND, game=s.game, target_seconds=60)
    pays = [n for n, p in enumerate(log) if p.do is Do.PAY]
    assert pays, "the first scenario pays a winner"
    n = pays[0]
    live.grade(log[:n + 1])
    p = log[n]
    other = [*log[:n], Performed(p.do, p.throw, p.seat, p.bet, (p.amount or 0) + 1, p.value, p.at)]
    got = live.grade(other)
    assert got == grade(proc, other, automation=Automation.WHOLE_ROUND, game=s.game,
                        target_seconds=60, final=False)
    assert any(f.actual is other[-1] for f in got.findings), "the wrong payout is found"


def test_steps_left_after_the_walk_began_are_graded_as_left():
    """The trainee leaves a step (the practice screen's Skip): the log grows, and the steps left
    change, so the verdict is the one with that step left from the first action on."""
    s = load(SCENARIOS[0])
    proc = build(s)
    log = correct_log(proc, Automation.WHOLE_ROUND)
    mine = [e for _, e in proc.for_trainee(Automation.WHOLE_ROUND).actions()]
    live = LiveGrade(proc, automation=Automation.WHOLE_ROUND, game=s.game, target_seconds=60)
    half = len(log) // 2
    live.grade(log[:half])
    left = {id(mine[half])}
    rest = log[:half] + log[half + 1:]
    assert live.grade(rest, skipped=left) == grade(
        proc, rest, automation=Automation.WHOLE_ROUND, game=s.game, target_seconds=60, final=False,
        skipped=left)
