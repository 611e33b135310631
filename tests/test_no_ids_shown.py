"""Ids stay in files and logs: no screen shows a no-roll reason, a reading, an automation or a
paytable entry by its id (trainer.words holds the words each is shown in)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.support.library import bundled
from tests.support.practice_screen import answer, do_next
from trainer import games, paytable
from trainer.procedure import Automation, Do
from trainer.readings import BY_ID
from trainer.vocabulary import Automation as Automations

LIBRARY = bundled()


def ids() -> set[str]:
    """Every id of more than one word: those read as nothing but ids."""
    found = {r for g in games.GAME_IDS for r in games.get(g).no_roll_names}
    found |= set(BY_ID) | {a.value for a in Automations}
    found |= {entry for g in games.GAME_IDS for entry in paytable(g)}
    return {i for i in found if "-" in i}


IDS = ids()


def shown_ids(text: str) -> list[str]:
    return sorted(i for i in IDS if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text))


def test_the_check_finds_an_id():
    assert shown_ids("No roll: die-fell-out (Dealer Trainer reading 'pgd-no-roll')") == [
        "die-fell-out", "pgd-no-roll"]


@pytest.mark.parametrize("scenario_id", ["ph-no-roll-calls", "pgd-no-rolls", "hrd-no-rolls-cocked",
                                         "tdf-no-roll-drill-throws"])
def test_a_round_with_no_rolls_worked_wrong_shows_no_id(qtbot, practice_screen, scenario_id):
    """The briefing line, every hint, the feedback on a wrong no-roll reason and a wrong call,
    and the summary with its findings."""
    from ui.qt import Qt

    screen = practice_screen
    scenario = LIBRARY.by_id(scenario_id)
    assert scenario is not None, scenario_id
    screen.start(scenario, automation=Automation.WHOLE_ROUND)
    texts = [screen.briefing.text()]
    wrong_reason = wrong_call = False
    for _ in range(200):
        if screen.round.finished:
            break
        e = screen.round.next_expected()
        qtbot.keyClick(screen, Qt.Key.Key_H)
        texts.append(screen.hint.text())
        if e.do is Do.NO_ROLL and not wrong_reason:  # the wrong reason: a finding
            names = list(games.get(scenario.game).no_roll_names)
            qtbot.mouseClick(screen.actions.buttons[Do.NO_ROLL], Qt.MouseButton.LeftButton)
            answer(qtbot, screen, replace(e, value=next(n for n in names if n != e.value)))
            wrong_reason = True
        elif e.do is Do.ANNOUNCE and not wrong_call:  # a no roll called on a valid throw
            qtbot.mouseClick(screen.actions.buttons[Do.NO_ROLL], Qt.MouseButton.LeftButton)
            answer(qtbot, screen, replace(e, do=Do.NO_ROLL,
                                          value=next(iter(games.get(scenario.game).no_roll_names))))
            wrong_call = True
        else:
            do_next(qtbot, screen)
        texts.append(screen.feedback.toPlainText())
    qtbot.mouseClick(screen.end, Qt.MouseButton.LeftButton)
    texts.append(screen.feedback.toPlainText())
    assert wrong_reason and "Not right" in "\n".join(texts)
    assert shown_ids("\n".join(texts)) == []


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_the_rules_screen_shows_no_id_and_renders_the_regulation(qtbot, game):
    from ui.rules.page import RulesPage

    page = RulesPage()
    qtbot.addWidget(page)
    page.show_game(game)
    texts = [page.tabs.widget(i).toPlainText() for i in range(page.tabs.count())]
    assert shown_ids("\n".join(texts)) == []
    regulation = page.text.toPlainText()
    assert "####" not in regulation and "\\$" not in regulation and "chapter" in regulation.lower()
    # the authority line cites the Act's sections, never a dollar amount ("4 Pa.C.S. § 1202(b)(30)")
    assert "$ 1202" not in regulation
    if "1202(b)(30)" in regulation:
        assert re.search(r"Pa\.C\.S\. §§? 1202\(b\)\(30\)", regulation)


def test_the_scenarios_screen_says_what_the_trainee_does_in_words(qtbot):
    from ui.practice.scenarios import ScenariosPage

    page = ScenariosPage(LIBRARY)
    qtbot.addWidget(page)
    for row in range(page.table.rowCount()):
        page.table.selectRow(row)
        assert shown_ids(page.briefing.toPlainText()) == [], page.current().id
