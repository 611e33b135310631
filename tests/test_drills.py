"""Seeded random rounds: reproducible, valid for every game and difficulty, and aimed at a skill."""

from __future__ import annotations

import pytest

from trainer.drills import (
    DEALERS,
    deal_again_built,
    payout_drill,
    payout_drill_built,
    random_round,
    random_round_built,
)
from trainer.games import GAME_IDS
from trainer.grading import correct_log, grade
from trainer.procedure import Do, Skill, build
from trainer.vocabulary import BY_DIFFICULTY


def test_the_same_seed_deals_the_same_round():
    a, b = random_round("props-and-hops", 3, 42), random_round("props-and-hops", 3, 42)
    assert (a.wagers, a.events, a.players) == (b.wagers, b.events, b.players)
    c = random_round("props-and-hops", 3, 43)
    assert (a.wagers, a.events) != (c.wagers, c.events)


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("difficulty", [1, 2, 3, 4, 5])
def test_every_game_and_difficulty_deals_playable_rounds(game, difficulty):
    for seed in range(25):
        # the rules engine accepts every event: the deal builds the round's procedure (the one
        # its scenario builds: test_a_deal_hands_on_the_procedure_its_round_builds)
        s, proc = random_round_built(game, difficulty, seed)
        assert s.automation is BY_DIFFICULTY[difficulty]
        result = grade(proc, correct_log(proc, s.automation), automation=s.automation, game=game,
                       target_seconds=s.target_seconds, elapsed=s.target_seconds)
        assert result.findings == [] and result.score.total == 100, (seed, result.findings[:3])


def test_higher_difficulty_brings_odd_amounts_and_refusals():
    amounts, refusals = set(), 0
    for seed in range(40):
        s, proc = random_round_built("pai-gow-dice", 5, seed)
        amounts |= {w.amount for w in s.wagers}
        refusals += sum(1 for _, a in proc.actions() if a.do is Do.REFUSE)
    assert any(a % 100 for a in amounts), "difficulty 5 should use amounts where breakage matters"
    assert refusals > 0
    easy = {w.amount % 100 for seed in range(40) for w in random_round("pai-gow-dice", 1, seed).wagers}
    assert easy == {0}


@pytest.mark.parametrize(("skill", "game", "do"), [
    (Skill.NO_ROLL, "props-and-hops", Do.NO_ROLL),
    (Skill.SIX_EIGHT_SHAKE, "props-and-hops", Do.PLACE_LAMMERS),
    (Skill.EXTRA_ROLL, "high-roll-dice", Do.EXTRA_ROLL),
])
def test_a_drill_aimed_at_a_skill_brings_it_up(skill, game, do):
    built = [random_round_built(game, 3, seed, skill)[1] for seed in range(20)]
    hits = sum(any(a.do is do for _, a in proc.actions()) for proc in built)
    assert hits >= 10, f"{skill} came up in only {hits} of 20 drills"


SKILLS = list(Skill)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_deal_hands_on_the_procedure_its_round_builds(game):
    """What `random_round_built`, `payout_drill_built` and `deal_again_built` hand on (the
    practice screen's Deal, supervised rounds, the demonstration class, a re-grade) is the round
    `random_round` or `payout_drill` deals and the procedure `build` makes of that round alone,
    stage for stage and throw for throw: every difficulty, a drilled skill and both dealers,
    including the re-deals of a round with nothing for the trainee."""
    for dealer in DEALERS:
        for difficulty in range(1, 6):
            for seed in range(3):
                skill = SKILLS[difficulty % len(SKILLS)] if seed == 0 else None
                s, proc = random_round_built(game, difficulty, seed, skill, dealer)
                again = random_round(game, difficulty, seed, skill, dealer)
                assert (s.id, s.wagers, s.events, s.target_seconds) == (
                    again.id, again.wagers, again.events, again.target_seconds)
                assert same_procedure(proc, build(again)), s.id
                if seed == 0:  # and dealt again by its id (a re-grade), the same
                    by_id, its = deal_again_built(s.id)
                    assert (by_id.id, by_id.wagers, by_id.events) == (s.id, s.wagers, s.events)
                    assert same_procedure(its, proc), s.id
        for seed in range(3):  # and a payout drill's, shown at difficulty 1, 3 and 5
            s, proc = payout_drill_built(game, seed, dealer, difficulty=1 + seed * 2)
            again = payout_drill(game, seed, dealer, difficulty=1 + seed * 2)
            assert (s.id, s.wagers, s.events, s.target_seconds, s.difficulty) == (
                again.id, again.wagers, again.events, again.target_seconds, again.difficulty)
            assert same_procedure(proc, build(again)), s.id
            assert same_procedure(deal_again_built(s.id)[1], proc), s.id


def same_procedure(a, b) -> bool:
    """Stage for stage, what each waits for, and throw for throw."""
    return (a.stages, a.after, a.tail, a.throws) == (b.stages, b.after, b.tail, b.throws)


def test_a_difficulty_out_of_range_is_refused():
    with pytest.raises(ValueError, match="not 1 to 5"):
        random_round("props-and-hops", 6, 1)


@pytest.mark.parametrize("game", [g for g in GAME_IDS if g != "three-dice-football"])
def test_a_payout_drill_is_one_busy_throw_with_winners(game):
    from trainer.drills import payout_drill

    s = payout_drill(game, 5)
    assert s == payout_drill(game, 5) or s.wagers == payout_drill(game, 5).wagers
    assert len(s.events) == 1 and len({w.seat for w in s.wagers}) == 6
    proc = build(s)
    pays = [a for _, a in proc.actions() if a.do is Do.PAY]
    assert len(pays) >= 3
    assert s.automation.value == "payouts"


@pytest.mark.parametrize("game", ["high-roll-dice", "high-roll-dice-6", "props-and-hops", "pai-gow-dice"])
def test_a_no_roll_is_drawn_with_the_games_own_number_of_dice(game):
    """A High Roll no roll showed 2 dice: the placeholder dice now come from the game. (Three
    Dice Football's one-throw scenario is not a whole game; its no rolls drew 3 dice already.)"""
    from tests.support.scenario_text import one_player_scenario
    from trainer import games
    from trainer.practice import PracticeRound
    from trainer.scenario import parse

    g = games.get(game)
    reason = next(iter(r for r in g.no_rolls if r not in g.cannot_happen))
    throw = g.throw_of((1, 2, 3, 4, 5, 6, 1, 2, 3, 4)[:g.dice])
    text = one_player_scenario(game, [{"type": "no-roll", "reason": reason},
                                      {"type": "throw", **throw}], difficulty=4, skills='["no-roll"]')
    round_ = PracticeRound(parse(text, "t.toml"))
    for _ in range(50):  # work the round until the no roll is on the table
        state = round_.table_state()
        if state.irregular or (e := round_.next_expected()) is None:
            break
        round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
    assert state.irregular == reason and len(state.dice) == g.dice
