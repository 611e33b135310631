"""What the trainee is told before a round: from difficulty 3 only what a dealer at the table
knows (the game, the players, the bets up, the paytable), never the round's answers."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.support.library import bundled
from trainer import games
from trainer.drills import random_round
from trainer.money import fmt_dollars
from trainer.procedure import Do, build

LIBRARY = bundled()
QUIET = [s.id for s in LIBRARY.scenarios if s.difficulty >= 3]
DEALT = [(game, difficulty) for game in games.GAME_IDS for difficulty in (3, 4, 5)]


def answers(scenario) -> set[str]:
    """Every irregularity name, call and payout amount of the scenario's key, as people read them."""
    game = games.get(scenario.game)
    found: set[str] = set()
    for event in scenario.events:
        if event.type == "no-roll":
            reason = event.throw["no_roll"]
            found |= {reason, game.no_roll_names[reason], "no roll"}
        elif event.type == "lost-die":
            found |= {"lost", "missing die"}
        elif event.cocked is not None:
            found.add("cocked")
        elif event.type == "reject-dice":
            found.add("reject")
    for _, e in build(scenario).actions():
        if e.do is Do.ANNOUNCE and e.value:
            found.add(e.value)
        if e.do is Do.PAY and e.amount:
            found |= {fmt_dollars(e.amount), fmt_dollars(e.amount).removesuffix(".00")}
    return found


def leaks(text: str, scenario) -> list[str]:
    return sorted(a for a in answers(scenario)
                  if re.search(re.escape(a.lower()) + r"(?![\d,])", text.lower()))


@pytest.fixture(scope="module")
def one_screen():
    """One practice screen for the module's rounds, as the app deals every round on one: made in
    the module's first test that asks for it (in that test's own settings) and kept for the rest
    (KEPT); never shown, since what the trainee is told is the text of its labels."""
    from tests.support.qt import KEPT

    made = []

    def screen():
        if not made:
            from ui.practice.screen import PracticeScreen

            made.append(PracticeScreen())
            made[0].setProperty(KEPT, True)
        return made[0]

    yield screen
    for screen in made:
        screen.stop()
        screen.deleteLater()


@pytest.fixture
def practice_screen(qtbot, one_screen):
    """The module's practice screen, its round stopped after each test (no clock left running)."""
    screen = one_screen()
    yield screen
    screen.stop()


def shown(qtbot, screen, scenario) -> str:
    """All the screen says before the round: its heading, the throw count, the briefing."""
    screen.start(scenario)
    return "\n".join((screen.title.text(), screen.progress.text(), screen.briefing.text(),
                      screen.feedback.toPlainText()))


@pytest.mark.parametrize("scenario_id", QUIET)
def test_a_bundled_scenario_from_difficulty_3_is_briefed_without_its_answers(
        qtbot, practice_screen, scenario_id):
    scenario = LIBRARY.by_id(scenario_id)
    text = shown(qtbot, practice_screen, scenario)
    assert games.get(scenario.game).name in text
    assert all(name in text for name in scenario.players.values())
    assert leaks(text, scenario) == []
    assert scenario.title not in text  # a title such as "Three no rolls, then a hard ten"
    assert practice_screen.progress.text() == "Throw 1"  # not "of 4": how many no rolls come


@pytest.mark.parametrize(("game", "difficulty"), DEALT)
def test_a_dealt_round_from_difficulty_3_is_briefed_without_its_answers(
        qtbot, practice_screen, game, difficulty):
    for seed in range(3):
        scenario = random_round(game, difficulty, seed)
        assert leaks(shown(qtbot, practice_screen, scenario), scenario) == []


def test_the_library_shows_the_same_quiet_briefing(qtbot):
    from ui.practice.scenarios import ScenariosPage

    page = ScenariosPage(LIBRARY)
    qtbot.addWidget(page)
    for row in range(page.table.rowCount()):
        page.table.selectRow(row)
        scenario = page.current()
        if scenario.difficulty >= 3:  # (the title above it is the scenario's name)
            text = page.briefing.toPlainText().removeprefix(scenario.title)
            assert leaks(text, scenario) == [], scenario.id


def test_up_to_difficulty_2_the_scenarios_own_briefing_walks_through_the_round(qtbot, practice_screen):
    """The check above can fail: the same round at difficulty 2 is briefed with its answers."""
    scenario = replace(LIBRARY.by_id("ph-no-roll-calls"), difficulty=2)
    told = leaks(shown(qtbot, practice_screen, scenario), scenario)
    assert {"$150", "Ten, five-five"} <= set(told)
    assert practice_screen.title.text() == scenario.title
    assert re.fullmatch(r"Throw 1 of \d+", practice_screen.progress.text())
