"""Working rounds in the real practice screen: clicking wagers and buttons, typing payouts."""

from __future__ import annotations

import pytest

from tests.support.library import bundled
from tests.support.practice_screen import answer, click_place, click_wager, do_next, work
from trainer.procedure import Automation, Do
from trainer.progress import Mode

LIBRARY = bundled()
#: one bundled scenario per game, worked to the end through the screen
PLAYED = ["ph-six-eight-shake-pays", "tdf-opening-drive", "hrd-extra-roll-partial", "hrd6-three-pairs",
          "pgd-beat-it-by-four",
          # the steps the regulation requires around a no roll: re-cover (§ 668a.3(g)-(h)), use
          # the shaker again (§ 645c.2(f)); the end of a game without a touchdown (§ 577.6(f)(2))
          "ph-no-roll-calls", "pgd-no-rolls", "tdf-goal-line-stand", "hrd-full-table"]


@pytest.fixture
def screen(practice_screen):
    return practice_screen


def click_area(qtbot, screen, seat, bet):
    from ui.qt import Qt

    view = screen.view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(view.area_pos(seat, bet)))


@pytest.mark.parametrize("scenario_id", PLAYED)
def test_a_bundled_scenario_worked_through_the_screen_scores_perfectly(qtbot, screen, scenario_id):
    scenario = LIBRARY.by_id(scenario_id)
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(scenario, automation=Automation.WHOLE_ROUND)
    work(qtbot, screen)
    [result] = results
    assert result.findings == [], [f.message for f in result.findings]
    assert result.score.procedure == 100 and result.score.payouts == 100
    assert "Round complete" in screen.feedback.toPlainText()


def test_a_wrong_payout_shows_the_finding_and_its_citation(qtbot, screen):
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("ph-first-shake"))
    e = screen.round.next_expected()
    assert e.do is Do.PAY and (e.seat, e.bet) == (2, "double-3-3")
    click_wager(qtbot, screen, 2, "double-3-3")
    qtbot.mouseClick(screen.actions.buttons[Do.PAY], Qt.MouseButton.LeftButton)
    answer(qtbot, screen, e, amount=14500)
    text = screen.feedback.toPlainText()
    assert "Not right" in text and "$150.00" in text and "30 to 1" in text
    assert "58 Pa. Code § 668a.4" in text and "58 Pa. Code § 668a.2(d)(3)" in text
    assert "Double Wager" in text and "Payout Odds" in text  # the paytable, quoted
    assert "Six the Hardway Bet" in text  # and the wager's own sentence


def test_a_whole_round_from_the_keyboard_alone(qtbot, screen):
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(LIBRARY.by_id("ph-no-roll-calls"), automation=Automation.WHOLE_ROUND)
    work(qtbot, screen, keyboard=True)
    [result] = results
    assert result.findings == [] and result.score.total >= 85


def test_an_action_without_a_selected_wager_asks_for_one(qtbot, screen):
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("ph-first-shake"))
    qtbot.mouseClick(screen.actions.buttons[Do.PAY], Qt.MouseButton.LeftButton)
    assert screen.dialog is None
    assert "select a wager first" in screen.feedback.toPlainText()


def test_the_payout_drill_opens_the_keypad_for_each_winner(qtbot, screen):
    from trainer.drills import payout_drill
    from ui.practice.dialogs import PayoutKeypad

    screen.start(payout_drill("props-and-hops", 11), mode=Mode.PAYOUT_DRILL)
    qtbot.waitUntil(lambda: screen.dialog is not None or screen.round.finished, timeout=2000)
    paid = 0
    while not screen.round.finished:
        assert isinstance(screen.dialog, PayoutKeypad)
        answer(qtbot, screen, screen.round.next_expected())
        paid += 1
        qtbot.waitUntil(lambda: screen.dialog is not None or screen.round.finished, timeout=2000)
    assert paid >= 3 and screen.round.finish().score.payouts == 100
    assert screen.timer_label.text().endswith(f"/ {screen.round.scenario.target_seconds} s")


@pytest.mark.parametrize("game", sorted({s.game for s in LIBRARY.scenarios}))
def test_the_action_bar_offers_every_step_of_the_games_rounds(screen, game):
    from trainer.procedure import build
    from trainer.procedure.model import TRAINEE_DOES

    scenarios = [s for s in LIBRARY.scenarios if s.game == game]
    screen.start(scenarios[0])
    offered = set(screen.actions.buttons)
    mine = TRAINEE_DOES[Automation.WHOLE_ROUND]
    due = {e.do for s in scenarios for _, e in build(s).actions() if e.do in mine}
    assert due <= offered, f"no button for {sorted(due - offered)}"
    if game == "high-roll-dice-6":  # § 675a.6: the 6-dice variation sells no Extra Roll
        assert not offered & {Do.LOCK_OUT_EXTRA_ROLL, Do.EXTRA_ROLL}


def test_the_screen_redraws_once_per_change_from_one_snapshot(qtbot, screen, monkeypatch):
    """The round says when it changed; the screen draws its one snapshot of the table then,
    instead of building the table again for each thing it needs."""
    from trainer.practice import PracticeRound

    built = []
    real = PracticeRound._table_state
    monkeypatch.setattr(PracticeRound, "_table_state", lambda self: built.append(1) or real(self))
    screen.start(LIBRARY.by_id("ph-six-eight-shake-pays"), automation=Automation.WHOLE_ROUND)
    changes = []
    screen.round.subscribe(lambda r: changes.append(len(built)))
    before = len(built)
    work(qtbot, screen)
    assert changes, "the round reported its changes"
    assert len(built) - before == len(changes), "one snapshot per change, however it was drawn"


def test_each_action_asks_what_the_regulation_needs(screen):
    """The prompts come from the engine: the seats at the table, the game's no-roll reasons, the
    Yard Marker where the table shows it, the High Roll faces in rank order."""
    from trainer import games
    from trainer.procedure.model import Amount, Choice, Place

    screen.start(LIBRARY.by_id("ph-six-eight-shake-pays"))
    r = screen.round
    no_roll = r.prompt(Do.NO_ROLL)
    assert isinstance(no_roll, Choice) and no_roll.values == tuple(games.get("props-and-hops").no_rolls)
    shaker = r.prompt(Do.PASS_SHAKER)
    assert shaker.values == tuple(str(s) for s in sorted(r.scenario.players))
    wager = r.table_state().wagers[0]
    pay = r.prompt(Do.PAY, wager.seat, wager.bet)
    assert isinstance(pay, Amount) and f"seat {wager.seat}" in pay.title
    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    markers = screen.round.prompt(Do.MOVE_MARKERS)  # a yard line clicked on the field
    assert isinstance(markers, Place) and markers.targets["yard-13"] == "13"
    assert markers.targets["yard-0"] == "0"  # the end zone: a touchdown
    screen.start(LIBRARY.by_id("hrd-full-table"))
    box = screen.round.prompt(Do.MOVE_DICE)
    assert tuple(box.targets.values()) == ("ace", "6", "5", "4", "3", "2")  # "hrd-winning-face"


def test_switching_games_leaves_no_table_as_a_window_of_its_own(qtbot, screen):
    from ui.qt import QApplication

    screen.start(LIBRARY.by_id("ph-first-shake"))
    old = screen.view
    screen.start(LIBRARY.by_id("tdf-opening-drive"))
    QApplication.processEvents()
    assert screen.view is not old
    assert [w for w in QApplication.topLevelWidgets() if w.isVisible()] == [screen]


def test_a_round_on_another_paytable_gets_a_table_that_prints_it(qtbot, screen):
    """Two Pai Gow rounds, on paytables A and then C (Beat It on B): the second round's table
    prints C and B, the odds the trainee pays by, not the first round's; a round of the same
    game on the same paytables keeps the table it has."""
    from ui.table.items import TextItem

    def printed(view):
        return {t.text for t in view.layout_items() if isinstance(t, TextItem) and "PAYTABLE" in t.text}

    screen.start(LIBRARY.by_id("pgd-sum-a-sixteen"))
    first = screen.view
    assert printed(first) == {"SUM · PAYTABLE A", "BEAT IT · PAYTABLE A"}
    screen.start(LIBRARY.by_id("pgd-sum-c-pair"))
    assert screen.view is not first
    assert printed(screen.view) == {"SUM · PAYTABLE C", "BEAT IT · PAYTABLE B"}
    kept = screen.view
    screen.start(LIBRARY.by_id("pgd-sum-c-pair"))
    assert screen.view is kept


def test_the_no_roll_choices_are_read_whole_in_the_regulations_words(qtbot, screen):
    screen.start(LIBRARY.by_id("ph-no-roll-calls"))
    screen.act(Do.NO_ROLL)
    dialog = screen.dialog
    qtbot.waitExposed(dialog)
    assert "One die came to rest on top of the other" in dialog.options  # § 668a.3(h)
    assert not any("-" in o for o in dialog.options), "an internal id reached the trainee"
    assert not dialog.list.horizontalScrollBar().isVisible()
    dialog.reject()


@pytest.mark.parametrize("difficulty, named", [(1, True), (2, True), (3, False), (5, False)])
def test_an_irregular_throw_is_named_only_after_the_call_and_only_at_low_difficulty(
        qtbot, screen, difficulty, named):
    """At difficulty 1–2 the caption comes after the trainee calls the no roll;
    from 3 the throw is only drawn, before and after, and noticing it is the trainee's work."""
    from tests.support.scenario_text import one_player_scenario
    from trainer.scenario import parse
    from ui.table.items import CaptionItem, PulseItem

    text = one_player_scenario("props-and-hops", [{"type": "no-roll", "reason": "die-on-die"},
                                                  {"type": "throw", "dice": [2, 5]}],
                               difficulty=difficulty, skills='["no-roll"]')
    screen.start(parse(text, "t.toml"), automation=Automation.WHOLE_ROUND)

    def shown(kind):
        return [i for i in screen.view.scene().items() if isinstance(i, kind)]

    while screen.round.next_expected().do is not Do.NO_ROLL:
        do_next(qtbot, screen)
    assert screen.round.table_state().irregular == "die-on-die", "the die on die is drawn"
    assert shown(CaptionItem) == [] and shown(PulseItem) == [], "nothing names it before the call"
    do_next(qtbot, screen)  # the trainee calls the no roll
    assert bool(shown(CaptionItem)) is named and bool(shown(PulseItem)) is named


def test_the_trainee_puts_the_pointer_on_the_box_and_a_wrong_box_is_a_finding(qtbot, screen):
    """The pointer is not on the layout when the dice show; the trainee puts it
    there by clicking a box, and the table shows it where it was put, right or wrong."""
    from ui.qt import QApplication, Qt
    from ui.table.items import PointerItem

    def pointers():
        return [i for i in screen.view.scene().items() if isinstance(i, PointerItem)]

    screen.start(LIBRARY.by_id("ph-first-shake"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.PLACE_POINTER:
        do_next(qtbot, screen)
    assert screen.round.table_state().dice_visible and pointers() == [], "the dice show, no pointer"
    right = screen.round.next_expected().value
    wrong = next(c for c in ("1-1", "6-6") if c != right)
    qtbot.keyClick(screen, Qt.Key.Key_T)  # Pointer
    assert screen.placing is not None
    click_area(qtbot, screen, 1, "field")  # not a combination box: nothing is placed
    assert screen.placing is not None and "not one of the boxes" in screen.feedback.toPlainText()
    qtbot.keyClick(screen, Qt.Key.Key_Escape)
    assert screen.placing is None
    qtbot.keyClick(screen, Qt.Key.Key_T)
    click_area(qtbot, screen, 1, f"double-{wrong}")
    QApplication.processEvents()
    assert screen.round.table_state().placed["place-pointer"] == wrong and len(pointers()) == 1
    [finding] = [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.PLACE_POINTER]
    assert "668a.3(h)" in finding.cite


def test_the_trainee_moves_high_rolls_matching_dice_to_the_box_they_click(qtbot, screen):
    """The matching dice go where the trainee clicks; a wrong box is drawn as
    picked, and is a finding citing § 675a.4(e)."""
    from ui.qt import QApplication, Qt
    from ui.table.items import DieItem

    screen.start(LIBRARY.by_id("hrd-full-table"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_DICE:
        do_next(qtbot, screen)
    right = screen.round.next_expected().value
    wrong_face = next(f for f in (2, 3) if screen.view.game.face_keys[f] != right)
    box = screen.view.face_boxes[wrong_face]
    assert not [d for d in screen.view.scene().items() if isinstance(d, DieItem)
                and box.contains(d.pos())], "nothing in the box before the dice are moved"
    qtbot.keyClick(screen, Qt.Key.Key_B)  # To throw box
    click_place(qtbot, screen, screen.view.game.throw_box(wrong_face))
    QApplication.processEvents()
    moved = [d for d in screen.view.scene().items() if isinstance(d, DieItem) and box.contains(d.pos())]
    shown = sum(1 for d in screen.round.table_state().dice if d == wrong_face)
    assert len(moved) == shown, "the dice of the face picked, in the box picked"
    [finding] = [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.MOVE_DICE]
    assert "675a.4(e)" in finding.cite


def test_the_trainee_moves_the_yard_marker_to_the_yard_line_they_click(qtbot, screen):
    """The Yard Marker goes where the trainee clicks on the field; a wrong
    yard line is drawn as put, and is a finding citing § 577.6."""
    from trainer.games.three_dice_football import read_markers
    from ui.qt import QApplication, Qt
    from ui.table.items import TagItem

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    right, down, play = read_markers(screen.round.next_expected().value)
    qtbot.keyClick(screen, Qt.Key.Key_M)  # Move markers
    click_place(qtbot, screen, screen.view.game.yard_place(right + 2))
    click_place(qtbot, screen, screen.view.game.down_place(down))
    click_place(qtbot, screen, screen.view.game.play_place(play))
    QApplication.processEvents()
    marker = [t.toolTip() for t in screen.view.scene().items() if isinstance(t, TagItem)
              and t.toolTip().startswith("Yard Marker")]
    assert marker == [f"Yard Marker: the {right + 2}"]
    [finding] = [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.MOVE_MARKERS]
    assert "577.6" in finding.cite


def pucks(screen) -> dict[str, str]:
    from ui.table.items import PuckItem

    return {t.toolTip().split(":")[0]: t.toolTip().split(": ")[1] for t in screen.view.scene().items()
            if isinstance(t, PuckItem) and ":" in t.toolTip()}


@pytest.mark.parametrize("wrong", ["down", "play"])
def test_the_trainee_puts_each_puck_by_hand_and_a_wrong_puck_is_a_finding(qtbot, screen, wrong):
    """After the Yard Marker the trainee puts the Down Puck on a down and the
    Game Length Puck on a play, by clicking the layout (§ 577.6(c)); nothing moves by itself, each
    puck is drawn where it was put, and a wrong one is a finding."""
    from trainer.games.three_dice_football import DOWNS, read_markers
    from ui.qt import QApplication, Qt

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    before = pucks(screen)
    yard, down, play = read_markers(screen.round.next_expected().value)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    click_place(qtbot, screen, screen.view.game.yard_place(yard))
    assert screen.placing is not None and screen.placing[1].title == "Down Puck"
    assert pucks(screen) == before, "the pucks wait for the trainee"
    put_down = next(d for d in DOWNS if d != down) if wrong == "down" else down
    click_place(qtbot, screen, screen.view.game.down_place(put_down))
    assert screen.placing[1].title == "Game Length Puck"
    put_play = (play % 6) + 1 if wrong == "play" else play
    click_place(qtbot, screen, screen.view.game.play_place(put_play))
    assert screen.placing is None
    QApplication.processEvents()
    shown = pucks(screen)
    assert shown["Down Puck"] == put_down and shown["Game Length Puck"] == f"play {put_play}"
    [finding] = [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.MOVE_MARKERS]
    assert "577.6" in finding.cite
    assert f"Down Puck on {down}, Game Length Puck on play {play}" in finding.message


def test_the_pucks_are_placed_from_the_keyboard_too(qtbot, screen):
    from trainer.games.three_dice_football import read_markers
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    e = screen.round.next_expected()
    qtbot.keyClick(screen, Qt.Key.Key_M)
    answer(qtbot, screen, e, keyboard=True)
    assert read_markers(screen.round.log[-1].value) == read_markers(e.value)
    assert not [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.MOVE_MARKERS]


def test_escape_while_placing_a_puck_places_nothing(qtbot, screen):
    from trainer.games.three_dice_football import read_markers
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    logged = len(screen.round.log)
    yard, _, _ = read_markers(screen.round.next_expected().value)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    click_place(qtbot, screen, screen.view.game.yard_place(yard))
    qtbot.keyClick(screen, Qt.Key.Key_Escape)
    assert screen.placing is None and len(screen.round.log) == logged, "half a move is not logged"
    qtbot.keyClick(screen, Qt.Key.Key_M)
    assert screen.placing[1].title == "Move markers", "a new move starts with the Yard Marker"


def test_after_a_round_retry_works_it_again_and_next_moves_on(qtbot, practice_page):
    """After the summary, Retry and Next (Ctrl+R, Ctrl+Shift+N)."""
    from ui.qt import Qt

    page = practice_page
    first = LIBRARY.by_id("ph-first-shake")
    page.start_scenario(first)
    assert not page.retry_button.isEnabled() and not page.next_button.isEnabled()
    qtbot.mouseClick(page.screen.end, Qt.MouseButton.LeftButton)  # the summary shows
    assert page.retry_button.isEnabled() and page.next_button.isEnabled()
    qtbot.mouseClick(page.retry_button, Qt.MouseButton.LeftButton)
    assert page.screen.round.scenario.id == first.id and not page.screen.round.finished
    qtbot.mouseClick(page.screen.end, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.next_button, Qt.MouseButton.LeftButton)
    ids = [s.id for s in LIBRARY.scenarios if s.game == first.game]
    assert page.screen.round.scenario.id == ids[ids.index(first.id) + 1]
    page.deal(seed=11, confirm=False)  # a dealt round: Retry deals the same one again
    dealt = page.screen.round.scenario
    qtbot.mouseClick(page.screen.end, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.retry_button, Qt.MouseButton.LeftButton)
    assert page.screen.round.scenario == dealt and page.screen.round is not None


@pytest.mark.parametrize("game", ["props-and-hops", "three-dice-football"])
def test_at_1024_by_680_every_button_reads_whole(qtbot, game):
    """A small screen wraps the action bar into more rows rather than clip."""
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None))
    qtbot.addWidget(w)
    w.resize(1024, 680)
    w.show()
    qtbot.waitExposed(w)
    page = w.show_screen("practice")
    page.deal(seed=3, game=game, confirm=False)
    qtbot.wait(50)
    for button in [*page.screen.actions.buttons.values(), page.retry_button, page.next_button,
                   page.deal_button]:
        lines = button.text().replace("&&", "&").split("\n")
        needed = max(button.fontMetrics().horizontalAdvance(line) for line in lines)
        assert button.width() >= needed, f"{lines[0]!r} is clipped"
        assert button.height() >= len(lines) * button.fontMetrics().height(), f"{lines[0]!r} is squashed"
    page.stop()
    w.close()


@pytest.mark.parametrize("scenario_id", ["ph-no-roll-calls", "tdf-opening-drive", "hrd-full-table"])
def test_a_round_with_places_is_worked_from_the_keyboard_alone(qtbot, screen, scenario_id,
                                                               monkeypatch):
    """The pointer, the lammer, the Yard Marker and High Roll's dice are put with ← → Enter too:
    no mouse at all."""
    import tests.test_practice_ui as here

    def no_mouse(*_args, **_kw):
        raise AssertionError("needed the mouse")

    monkeypatch.setattr(here, "click_place", no_mouse)
    monkeypatch.setattr(here, "click_wager", no_mouse)
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(LIBRARY.by_id(scenario_id), automation=Automation.WHOLE_ROUND)
    work(qtbot, screen, keyboard=True)
    assert results and results[0].findings == [], [f.message for f in results[0].findings]


def test_next_throw_ends_a_placement_left_open(qtbot, screen):
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("ph-six-eight-shake-pays"), automation=Automation.WHOLE_ROUND)
    qtbot.keyClick(screen, Qt.Key.Key_T)  # Pointer, then the trainee moves on
    assert screen.placing is not None
    qtbot.mouseClick(screen.skip, Qt.MouseButton.LeftButton)
    assert screen.placing is None


def test_asking_where_to_put_something_tells_nothing_about_the_throw(qtbot, screen):
    """The box is asked for on a no roll as on a valid throw, and nothing is drawn on dice that
    are still hidden."""
    from ui.qt import QApplication, Qt
    from ui.table.items import DieItem

    for scenario_id in ("ph-no-roll-calls", "ph-first-shake"):  # where the trainee puts it
        screen.start(LIBRARY.by_id(scenario_id), mode=Mode.EXAM, automation=Automation.WHOLE_ROUND)
        qtbot.keyClick(screen, Qt.Key.Key_T)
        assert screen.placing is not None, scenario_id
        qtbot.keyClick(screen, Qt.Key.Key_Escape)
    screen.start(LIBRARY.by_id("hrd-full-table"), mode=Mode.EXAM)
    assert not screen.round.table_state().dice_visible
    for face in range(1, 7):
        qtbot.keyClick(screen, Qt.Key.Key_B)
        click_place(qtbot, screen, screen.view.game.throw_box(face))
    QApplication.processEvents()
    assert screen.round.table_state().placed == {}
    assert not [d for d in screen.view.scene().items() if isinstance(d, DieItem)
                and any(b.contains(d.pos()) for b in screen.view.face_boxes.values())]


def test_escape_still_closes_a_dialog(qtbot, screen):
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("ph-no-roll-calls"))
    screen.act(Do.NO_ROLL)
    dialog = screen.dialog
    qtbot.waitExposed(dialog)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Escape)
    assert screen.dialog is None


def test_a_payout_drill_from_difficulty_3_leaves_finding_the_winners_to_the_trainee(
        qtbot, practice_page):
    """The drill honours the difficulty. (Where the keypad opens, on a real screen's size:
    tests/test_screen_sizes.py.)"""
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import Qt

    page = practice_page
    page.kind.setCurrentIndex(page.kind.findText("Payout drill"))
    page.difficulty.setValue(3)
    page.deal(seed=5, game="props-and-hops", confirm=False)
    screen = page.screen
    qtbot.wait(50)
    assert screen.dialog is None, "nothing is brought to the keypad: the trainee finds the winner"
    e = screen.round.next_expected()
    click_wager(qtbot, screen, e.seat, e.bet)
    qtbot.mouseClick(screen.actions.buttons[Do.PAY], Qt.MouseButton.LeftButton)
    keypad = screen.dialog
    assert isinstance(keypad, PayoutKeypad)
    keypad.reject()
    page.difficulty.setValue(2)  # guided: each winner is brought to the keypad
    page.deal(seed=5, game="props-and-hops", confirm=False)
    qtbot.waitUntil(lambda: isinstance(screen.dialog, PayoutKeypad), timeout=2000)
    screen.dialog.reject()


def test_feedback_names_bets_as_the_layout_prints_them(qtbot, screen):
    """No bet id reaches the trainee ("seat 1 field", "double-3-3")."""
    from trainer import games

    screen.start(LIBRARY.by_id("ph-first-shake"), automation=Automation.WHOLE_ROUND)
    screen._do(Do.PAY, seat=1, bet="field", amount=100)  # paying a losing Field
    text = screen.feedback.toPlainText()
    assert "paid seat 1 Field" in text
    ids = [b for b in games.get("props-and-hops").catalogue(screen.round.scenario.options) if "-" in b]
    assert not [b for b in ids if b in text]


def test_on_a_touchdown_the_down_puck_is_drawn_where_it_was_put(qtbot, screen):
    """The extra point roll marks the Extra Point area, but a Down Puck the trainee put wrong
    after the touchdown shows where it was put (reading "tdf-pucks": it stays on the down played)."""
    from trainer.games.three_dice_football import DOWNS, GOAL_DOWNS, read_markers
    from ui.qt import QApplication, Qt

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    for _ in range(400):
        e = screen.round.next_expected()
        if e.do is Do.MOVE_MARKERS and read_markers(e.value)[0] == 0:
            break
        do_next(qtbot, screen)
    else:
        pytest.skip("the drive has no touchdown")
    yard, down, play = read_markers(e.value)
    wrong = next(d for d in (*DOWNS, *GOAL_DOWNS) if d != down)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    click_place(qtbot, screen, screen.view.game.yard_place(yard))
    click_place(qtbot, screen, screen.view.game.down_place(wrong))
    click_place(qtbot, screen, screen.view.game.play_place(play))
    QApplication.processEvents()
    assert pucks(screen)["Down Puck"] == wrong


def test_a_round_with_a_wrong_puck_ends_not_passed_saying_why_and_under_which_rule(qtbot, screen):
    """The one pass rule (trainer.policy): a Down Puck on the wrong down is a major finding, so a
    round that would score above the pass mark ends "not passed", the summary says why, and
    names the rule it was graded under."""
    from trainer.games.three_dice_football import DOWNS, read_markers
    from ui.qt import Qt

    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    yard, down, play = read_markers(screen.round.next_expected().value)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    click_place(qtbot, screen, screen.view.game.yard_place(yard))
    click_place(qtbot, screen, screen.view.game.down_place(next(d for d in DOWNS if d != down)))
    click_place(qtbot, screen, screen.view.game.play_place(play))
    work(qtbot, screen)
    [result] = results
    assert result.score.total >= 80 and not result.score.passed
    text = " ".join(screen.feedback.toPlainText().split())
    assert "NOT PASSED" in text and "1 major finding" in text
    assert "Graded under Pass rule 2" in text


def recorded_title(round_, result) -> str:
    """What the progress file and the class view call the attempt."""
    from trainer.progress.classroom import item_title
    from trainer.progress.records import attempt_of

    record = attempt_of(round_, result, trainee_id=1, ended=1.8e9)
    return item_title(record.item_id, record.mode.value)


@pytest.mark.parametrize("game", ["props-and-hops", "three-dice-football"])
def test_a_payout_drill_is_shown_headed_and_recorded_at_the_difficulty_chosen(qtbot, practice_page, game):
    from ui.qt import Qt

    page = practice_page
    page.game.setCurrentIndex(page.game.findData(game))
    page.kind.setCurrentIndex(page.kind.findData(Mode.PAYOUT_DRILL))
    page.difficulty.setValue(2)
    done = []
    page.finished.connect(lambda result, round_: done.append((round_, result)))
    qtbot.mouseClick(page.deal_button, Qt.MouseButton.LeftButton)
    screen = page.screen
    assert "Payout drill" in screen.briefing.text() and "difficulty 2" in screen.briefing.text()
    assert screen.title.text().endswith("payout drill"), screen.title.text()
    assert page.difficulty.value() == 2
    qtbot.waitUntil(lambda: screen.dialog is not None or screen.round.finished, timeout=2000)
    if screen.dialog is not None:
        screen.dialog.reject()
    qtbot.mouseClick(screen.end, Qt.MouseButton.LeftButton)
    [(round_, result)] = done
    assert recorded_title(round_, result).endswith("payout drill, difficulty 2")


def test_the_deal_bar_shows_the_difficulty_of_the_round_on_the_screen(qtbot, practice_page):
    page = practice_page
    page.kind.setCurrentIndex(page.kind.findData(Mode.PAYOUT_DRILL))
    page.difficulty.setValue(4)
    easy = next(s for s in LIBRARY.scenarios if s.difficulty == 1)
    page.start_scenario(easy)
    assert page.difficulty.value() == 1 and page.kind.currentData() == Mode.PRACTICE
    assert "difficulty 1" in page.screen.briefing.text()
    page.deal(seed=3, confirm=False)  # dealt as the bar now says: a practice round at 1
    assert page.screen.round.scenario.difficulty == 1
    assert page.screen.round.scenario.title.endswith("practice round")


def test_a_wrong_yard_marker_is_put_right_with_a_word_and_the_end_zone_is_named(qtbot, screen):
    """A Yard Marker put wrong is a wrong record (not a call), and the screen says that the next
    play starts from where it belongs; the touchdown's yard line is the end zone, in words."""
    from trainer.games.three_dice_football import read_markers
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_MARKERS:
        do_next(qtbot, screen)
    right, down, play = read_markers(screen.round.next_expected().value)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    for place in (screen.view.game.yard_place(right + 2), screen.view.game.down_place(down),
                  screen.view.game.play_place(play)):
        click_place(qtbot, screen, place)
    text = screen.feedback.toPlainText()
    assert f"goes on as it should be: Move markers: Yard Marker to the {right}," in text
    [finding] = [f for f in screen.round.finish().findings if f.actual and f.actual.do is Do.MOVE_MARKERS]
    assert finding.kind.value == "wrong record"
    screen.start(LIBRARY.by_id("tdf-opening-drive"), automation=Automation.WHOLE_ROUND)
    while not (screen.round.next_expected().do is Do.MOVE_MARKERS
               and read_markers(screen.round.next_expected().value)[0] == 0):
        do_next(qtbot, screen)
    assert "Yard Marker to the end zone" in screen.round.next_expected().label
    qtbot.keyClick(screen, Qt.Key.Key_M)
    click_place(qtbot, screen, screen.view.game.yard_place(0))
    text = screen.feedback.toPlainText()
    assert "Move markers: the end zone." in text and "Move markers: 0" not in text


def test_a_wrong_throw_box_is_said_in_words_never_a_digit_beside_a_word(qtbot, screen):
    import re

    from ui.qt import Qt

    screen.start(LIBRARY.by_id("hrd-full-table"), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_DICE:
        do_next(qtbot, screen)
    right = screen.round.next_expected().value
    wrong_face = next(f for f in (2, 3) if screen.view.game.face_keys[f] != right)
    qtbot.keyClick(screen, Qt.Key.Key_B)
    click_place(qtbot, screen, screen.view.game.throw_box(wrong_face))
    said = screen.feedback.toPlainText()
    assert ("twos", "threes")[wrong_face - 2] in said
    assert not re.search(r"throw box (\d|ace)", said), said


@pytest.mark.parametrize(("scenario_id", "picked"), [
    ("hrd-no-rolls-cocked", 6), ("hrd-no-rolls-cocked", 5), ("hrd6-five-sixes", 6), ("hrd6-five-sixes", 3)])
def test_a_valid_throw_with_a_die_cocked_on_chips_moves_the_dice_to_the_box_picked(
        qtbot, screen, scenario_id, picked):
    """§ 675a.4(c): a die cocked on chips by one edge is read, the throw is valid, and its
    matching dice go to the box the trainee picks (right or wrong), the cocked die with them when
    it shows that face; the others lie where they fell, the cocked one still cocked."""
    from ui.qt import QApplication, Qt
    from ui.table.items import DieItem

    screen.start(LIBRARY.by_id(scenario_id), automation=Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.MOVE_DICE:
        do_next(qtbot, screen)
    state = screen.round.table_state()
    assert state.irregular == "cocked" and state.cocked_die is not None
    qtbot.keyClick(screen, Qt.Key.Key_B)
    click_place(qtbot, screen, screen.view.game.throw_box(picked))
    QApplication.processEvents()
    dice = [d for d in screen.view.scene().items() if isinstance(d, DieItem)]
    box = screen.view.face_boxes[picked]
    assert sum(1 for d in dice if box.contains(d.pos())) == state.dice.count(picked) > 0
    assert len(dice) == len(state.dice), "every die drawn once"
    cocked_face = state.dice[state.cocked_die]
    assert sum(1 for d in dice if d.cocked) == (0 if cocked_face == picked else 1)


def test_after_the_round_the_action_buttons_are_off_until_the_next(qtbot, screen):
    """The buttons stayed enabled after the round and did nothing; they are off once it is
    over, and on again for the next round."""
    from ui.qt import Qt

    screen.start(LIBRARY.by_id("ph-first-shake"))
    assert all(b.isEnabled() for b in screen.actions.buttons.values())
    qtbot.mouseClick(screen.end, Qt.MouseButton.LeftButton)
    assert "Round complete" in screen.feedback.toPlainText()
    assert not any(b.isEnabled() for b in screen.actions.buttons.values())
    screen.start(LIBRARY.by_id("ph-first-shake"))
    assert all(b.isEnabled() for b in screen.actions.buttons.values())


def test_props_and_hops_actions_with_undo_fit_two_rows_in_a_1024_window(qtbot):
    """The Undo button made Props & Hops' action bar three rows in a window 1024 px wide: its
    seventeen actions and the round's three buttons fit in two, each showing its words."""
    from ui.practice.actions import words
    from ui.qt import QApplication, QPalette
    from ui.shell import theme
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    class Trainee:
        id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False

    app = QApplication.instance()
    before = (app.styleSheet(), QPalette(app.palette()), app.property("theme"))
    theme.apply(app, "light")  # the theme's buttons, as the app draws them
    window = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    screen = window.show_screen("practice").screen
    screen.start(LIBRARY.by_id("ph-no-roll-calls"))
    qtbot.waitUntil(lambda: screen.actions.isVisible())
    bar = screen.actions
    assert screen.undo_button in bar.after and len(bar.buttons) == 17
    assert len(bar.rows()) == 2, [len(r) for r in bar.rows()]
    qtbot.waitUntil(lambda: all(b.width() > 0 for b in [*bar.buttons.values(), *bar.after]))
    for b in [*bar.buttons.values(), *bar.after]:
        drawn = max(map(b.fontMetrics().horizontalAdvance, words(b)))
        assert drawn <= b.width() - 6, f"{b.text()!r} is cut: {drawn} px of words in {b.width()}"
    window.close()
    app.setStyleSheet(before[0])
    app.setPalette(before[1])
    app.setProperty("theme", before[2])


def test_a_round_whose_log_is_full_ends_and_says_so(qtbot, screen, monkeypatch):
    """A trainee who keeps acting sees the round end before its log outgrows what the class
    server keeps of an answer (trainer.practice.LOG_ACTIONS, made small here: 40 less its room)."""
    from ui.qt import Qt

    monkeypatch.setattr("trainer.practice.LOG_ACTIONS", 40)
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(LIBRARY.by_id("ph-first-shake"), automation=Automation.WHOLE_ROUND)
    for _ in range(100):
        if results:
            break
        click_wager(qtbot, screen, 2, "double-3-3")
        qtbot.mouseClick(screen.actions.buttons[Do.COLLECT], Qt.MouseButton.LeftButton)
    assert len(results) == 1 and screen.round.log_full and len(screen.round.log) == 30
    assert "This round ended after 30 actions, the most one round's record holds" in \
        screen.feedback.toPlainText()
