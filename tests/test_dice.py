"""Dice come from an injected source: seeded for practice, scripted for tests and scenarios."""

from __future__ import annotations

import pytest

from trainer.dice import ScriptedDice, SeededDice, throw
from trainer.games import get


def test_the_same_seed_gives_the_same_throws():
    a, b = SeededDice(1234), SeededDice(1234)
    assert [a.roll(10) for _ in range(5)] == [b.roll(10) for _ in range(5)]
    assert all(1 <= d <= 6 for d in SeededDice(7).roll(1000))


def test_a_seeded_source_uses_every_face():
    faces = set(SeededDice(0).roll(600))
    assert faces == {1, 2, 3, 4, 5, 6}


def test_scripted_dice_drive_a_game_and_the_extra_roll_count():
    game = get("high-roll-dice")
    table = game.new_table({})
    from trainer.settlement import Wager

    for w in (Wager(1, "pip-6", 500), Wager(1, "like-kind-5", 500), Wager(1, "extra-roll", 500)):
        table.offer(w)
    assert table.no_more_bets() == []
    dice = ScriptedDice([(6, 6, 6, 1, 2, 3, 4, 5, 2, 3), (6, 6, 1, 1, 1, 1, 1)])
    first = table.throw(throw(table, dice))
    assert first.result["count"] == 3 and table.dice_count == 7
    second = table.throw(throw(table, dice))
    assert second.result["count"] == 5 and table.over


def test_scripted_dice_refuse_a_throw_of_the_wrong_size():
    with pytest.raises(ValueError, match="2 dice"):
        ScriptedDice([(1, 2, 3)]).roll(2)
    with pytest.raises(LookupError):
        ScriptedDice([]).roll(2)
