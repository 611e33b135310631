"""Every bundled scenario, and random rounds of every game at every difficulty, played to the end
through the real table views: after each action the view draws the round's table state, as the
practice screen does. A state a view cannot draw (a lost die, a no roll's dice, a marker the
layout has no place for) fails here, not in front of a trainee."""

from __future__ import annotations

import pytest

from tests.support.tables import paint_items
from trainer import games
from trainer.drills import random_round
from trainer.paths import scenarios_dir
from trainer.practice import PracticeRound
from trainer.scenario import bundled, load

#: each game's random rounds, by number (seed `table-K`, difficulty 1 + K % 5): the first ten (two
#: turns of the five difficulties), and every later one that took a step of ui/ that the rounds
#: before it had not. A round that took no new step draws nothing the others do not: these take
#: every one of the 1,037 (Pai Gow Dice) to 1,287 (Three Dice Football) steps that all of the first
#: 55 (Props & Hops), 80 (High Roll Dice) and 125 (the other games) take, which the test played
#: until 2026-11-27, and the rounds of the first 200 that take a step none of those takes (Props &
#: Hops 143 and 174, High Roll Dice 128). Measured with tests/benchmarks/table_rounds_reach.py,
#: which says when a change to a view or a dealer moves them
FIRST_TEN = list(range(10))
ROUNDS = {"props-and-hops": [*FIRST_TEN, 13, 37, 38, 42, 143, 174],
          "three-dice-football": [*FIRST_TEN, 12, 17, 19, 44, 54, 121, 122],
          "high-roll-dice": [*FIRST_TEN, 12, 13, 14, 34, 38, 42, 43, 68, 128],
          "high-roll-dice-6": [*FIRST_TEN, 14, 19, 28, 33, 74, 116],
          "pai-gow-dice": [*FIRST_TEN, 14, 19, 124]}


def labels_clash(view) -> list[str]:
    """Where a stack's label covers another label or the printed words and dice (by more than a
    sliver of anti-aliasing: 20 square units)."""
    import numpy as np

    from ui.table.items import TagItem

    def areas(a, b):
        """What each box of `a` covers of each box of `b` (left, top, right, bottom), as a table:
        every pair at once, each worked as min(right) - max(left) by min(bottom) - max(top)."""
        a, b = (np.array(boxes, dtype=float).reshape(-1, 4)[:, None, :] for boxes in (a, b))
        b = b.transpose(1, 0, 2)
        w = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0])
        h = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1])
        return np.where((w > 0) & (h > 0), w * h, 0.0)

    labels = [t for t in view.scene().items() if isinstance(t, TagItem) and t.toolTip().startswith("Seat ")]
    names = [t.toolTip() for t in labels]
    rects = [t.sceneBoundingRect().adjusted(2, 2, -3, -3).getCoords() for t in labels]
    printed = list(view.printed_obstacles().all())
    # each pair of labels once (the first before the second, in the order they were listed), then
    # each label against each printed box
    out = [f"{names[i]} over {names[j]}" for i, j in np.argwhere(np.triu(areas(rects, rects) > 20, 1))]
    out += [f"{names[i]} over the printed words at {printed[j]}"
            for i, j in np.argwhere(areas(rects, printed) > 20)]
    return out


#: the views whose whole painting (the printed layout behind the items, at full size) was seen:
#: it is the same for every round a view draws, so each view is grabbed once
GRABBED: set[int] = set()


def play_through(view, scenario, *, paint_each: bool) -> int:
    """Deal the scenario, do every step the trainee is due, setting the table's state after each
    and painting it (after each, the items it brought; at the end, its items, and the whole view
    the first time a view ends a round); the number of states set. Painting each, no stack's
    label may cover another or the printed words."""
    round_ = PracticeRound(scenario)
    drawn = 0
    painted: set = set()  # the items of the state before, each painted (none at the deal)
    while True:
        view.set_state(round_.table_state())
        drawn += 1
        if paint_each:
            assert labels_clash(view) == [], f"{scenario.id}, state {drawn}"
            painted = paint_items(view, painted)
        elif round_.finished:
            paint_items(view)
        if round_.finished:
            if id(view) not in GRABBED:
                assert not view.grab().isNull()
                GRABBED.add(id(view))
            return drawn
        e = round_.next_expected()
        assert e is not None, f"{scenario.id}: not finished, yet nothing is due"
        round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)


@pytest.fixture(scope="module")
def views():
    """One view per game (and options), reused across the module's plays; never shown, so no
    window outlives a test (grab() paints it all the same)."""
    from tests.support.qt import KEPT
    from ui.table import table_view

    made = {}

    def view_for(scenario):
        key = (scenario.game, repr(sorted(scenario.options.items())))
        if key not in made:
            view = table_view(scenario.game, scenario.options)
            view.resize(1280, 800)
            view.setProperty(KEPT, True)  # made in the module's first play of the game, kept for the rest
            made[key] = view
        return made[key]

    yield view_for
    for view in made.values():
        GRABBED.discard(id(view))
        view.close()
        view.deleteLater()
        view.deleteLater()


@pytest.mark.parametrize("path", bundled(scenarios_dir()), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_bundled_scenario_plays_through_its_table(qtbot, views, path):
    scenario = load(path)
    drawn = play_through(views(scenario), scenario, paint_each=True)
    assert drawn > 1


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_random_rounds_play_through_their_table(qtbot, views, game):
    drawn = 0
    for k in ROUNDS[game]:
        scenario = random_round(game, 1 + k % 5, seed=f"table-{k}")
        view = views(scenario)
        drawn += play_through(view, scenario, paint_each=False)
    assert drawn > len(ROUNDS[game])


@pytest.mark.parametrize("scenario_id", ["ph-busy-six-seats", "tdf-full-house", "hrd-full-table"])
def test_in_large_print_no_label_covers_another(qtbot, scenario_id):
    """Large print makes the labels 30% larger: on the busiest tables they may have to cover
    printed words here and there, never each other."""
    from trainer.library import load_library
    from ui.qt import QApplication
    from ui.table import table_view

    app = QApplication.instance()
    app.setProperty("large_print", True)
    try:
        scenario = load_library(scenarios_dir()).by_id(scenario_id)
        view = table_view(scenario.game, scenario.options)
        view.resize(1280, 800)
        round_ = PracticeRound(scenario)
        while True:
            view.set_state(round_.table_state())
            assert [c for c in labels_clash(view) if "printed" not in c] == []
            if round_.finished:
                break
            e = round_.next_expected()
            round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
        view.close()
        view.deleteLater()
    finally:
        app.setProperty("large_print", None)
