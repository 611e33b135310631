"""The practice screen from the keyboard and against misclicks: Undo (Ctrl+Z, Edit › Undo, the
Undo button), Tab to the feedback panel, the place chosen with ← → ringed on the table, and the
trainer's own steps refused without a dialog."""

from __future__ import annotations

import pytest

from tests.support.library import bundled
from tests.support.practice_screen import answer, click_wager, do_next
from trainer.grading import grade
from trainer.procedure import Automation, Do
from trainer.progress import Mode

LIBRARY = bundled()


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


@pytest.fixture
def window(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def practice(window, scenario_id, automation=None):
    page = window.show_screen("practice")
    page.start_scenario(LIBRARY.by_id(scenario_id))
    if automation is not None:
        page.screen.start(LIBRARY.by_id(scenario_id), automation=automation)
    return page.screen


def pay(qtbot, screen, cents):
    """Pay the winner due next, through the Pay button and the keypad."""
    from ui.qt import Qt

    e = screen.round.next_expected()
    assert e.do is Do.PAY
    click_wager(qtbot, screen, e.seat, e.bet)
    qtbot.mouseClick(screen.actions.buttons[Do.PAY], Qt.MouseButton.LeftButton)
    answer(qtbot, screen, e, amount=cents)
    return e


def ctrl_z(qtbot, window):
    from ui.qt import Qt

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


# --- undo ----------------------------------------------------------------------------------------


def test_ctrl_z_takes_back_a_payout_and_the_chips_go_back(qtbot, window):
    screen = practice(window, "ph-first-shake")
    e = pay(qtbot, screen, 14500)
    assert screen.round.table_state().payouts[(e.seat, e.bet)] == 14500
    ctrl_z(qtbot, window)
    assert (e.seat, e.bet) not in screen.round.table_state().payouts, "the payout is off the table"
    assert screen.round.next_expected() == e, "the payout is due again"
    assert "Taken back" in screen.feedback.toPlainText()
    assert [p.do for p in screen.round.log if not p.by_trainer] == [Do.PAY, Do.UNDO], \
        "the log keeps the payout and its undo"


def test_a_wrong_payout_taken_back_in_practice_still_counts(qtbot, window):
    """Practice told the grade at once ("Not right", the payout expected): what was told
    stays a finding (reading "undo"); the payout made right afterwards is right."""
    screen = practice(window, "ph-first-shake")
    e = pay(qtbot, screen, 14500)
    ctrl_z(qtbot, window)
    pay(qtbot, screen, e.amount)
    result = screen.round.finish()
    wrong = [f for f in result.findings if f.actual is not None and f.actual.do is Do.PAY]
    assert [f.actual.amount for f in wrong] == [14500], "the $145 told wrong stays; the $150 is right"
    assert "668a.4" in wrong[0].cite


def test_in_an_exam_a_misclick_taken_back_before_the_answer_is_recorded_is_not_graded(
        qtbot, practice_screen):
    """Nothing was told in an exam: the payout taken back is out of the grade, and the
    undo's own button does it."""
    from ui.qt import Qt

    screen = practice_screen
    scenario = LIBRARY.by_id("ph-first-shake")
    screen.start(scenario, Mode.EXAM, automation=Automation.PAYOUTS)
    e = pay(qtbot, screen, 14500)
    qtbot.mouseClick(screen.undo_button, Qt.MouseButton.LeftButton)
    pay(qtbot, screen, e.amount)
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    while not screen.round.finished:
        do_next(qtbot, screen)
    [result] = results
    assert not [f for f in result.findings if f.actual is not None], [f.message for f in result.findings]
    # once the part is over its answer is recorded: nothing is taken back
    log = list(screen.round.log)
    qtbot.mouseClick(screen.undo_button, Qt.MouseButton.LeftButton)
    screen.undo()
    assert screen.round.log == log
    assert "answer is recorded" in screen.feedback.toPlainText()


def test_a_call_cannot_be_taken_back_and_the_status_bar_says_why(qtbot, window):
    screen = practice(window, "ph-first-shake", Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.NO_MORE_BETS:
        do_next(qtbot, screen)
    do_next(qtbot, screen)  # "no more bets", called
    log = list(screen.round.log)
    ctrl_z(qtbot, window)
    assert screen.round.log == log, "nothing was taken back"
    said = window.statusBar().currentMessage()
    assert said.startswith("Cannot undo") and "call" in said, said


def test_edit_undo_with_nothing_of_the_trainees_says_so(qtbot, window):
    screen = practice(window, "ph-first-shake")
    edit = next(a for a in window.menuBar().actions() if a.text() == "&Edit").menu()
    [undo] = [a for a in edit.actions() if a.text() == "Undo"]
    assert undo.shortcut().toString() == "Ctrl+Z"
    log = list(screen.round.log)
    undo.trigger()
    assert screen.round.log == log
    assert "nothing of yours" in window.statusBar().currentMessage()


def test_a_step_of_a_throw_already_over_is_not_taken_back(qtbot, window):
    """Once the last payout of a throw closes it and the next throw is under way, the
    payout belongs to a throw that is over."""
    screen = practice(window, "tdf-opening-drive", Automation.SETTLEMENT)
    r = screen.round
    first = r.throw
    while not r.finished and r.throw == first:
        do_next(qtbot, screen)
    assert not r.finished and any(not p.by_trainer and p.throw == first for p in r.log)
    ctrl_z(qtbot, window)
    assert r.log[-1].do is not Do.UNDO
    assert window.statusBar().currentMessage().startswith("Cannot undo")


def test_the_grader_leaves_out_what_was_taken_back_untold_and_keeps_what_was_told():
    """The log alone decides (a re-grade, a certificate): an undo's value says whether the
    grade had been told. Worked from the policy: an untold misclick is no finding; a told one
    is the critical wrong payment it was."""
    from trainer.practice import PracticeRound
    from trainer.procedure.model import Performed
    from trainer.vocabulary import UNDO_TOLD

    r = PracticeRound(LIBRARY.by_id("ph-first-shake"))
    e = r.next_expected()
    base = list(r.log)
    wrong = Performed(Do.PAY, e.throw, e.seat, e.bet, 14500)
    right = Performed(Do.PAY, e.throw, e.seat, e.bet, e.amount)

    def findings(log):
        result = grade(r.procedure, log, automation=r.automation, game="props-and-hops",
                       target_seconds=600, final=False)
        return [f for f in result.findings if f.actual is not None]

    untold = findings([*base, wrong, Performed(Do.UNDO, e.throw), right])
    told = findings([*base, wrong, Performed(Do.UNDO, e.throw, value=UNDO_TOLD), right])
    assert untold == []
    assert [(f.actual.amount, f.severity.value) for f in told] == [(14500, "critical")]
    # an undo with nothing of the trainee's before it in its throw takes back nothing
    assert findings([*base, Performed(Do.UNDO, e.throw), wrong]) == findings([*base, wrong])
    # nor does one a log says the trainer did (the trainer takes nothing back), nor one of
    # another throw
    assert findings([*base, wrong, Performed(Do.UNDO, e.throw, by_trainer=True)]) == findings([*base, wrong])
    assert findings([*base, wrong, Performed(Do.UNDO, e.throw + 1)]) == findings([*base, wrong])


# --- the keyboard --------------------------------------------------------------------------------


def test_tab_reaches_the_feedback_panel_and_arrows_still_choose_wagers(qtbot, window):
    from ui.qt import QApplication, Qt

    screen = practice(window, "ph-first-shake")
    screen.setFocus()
    reached = set()
    for _ in range(6):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        reached.add(QApplication.focusWidget())
    assert screen.feedback in reached, "Tab moves the focus to the feedback panel"
    assert screen.selected is None, "Tab selects no wager"
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_Right)
    assert screen.selected is not None, "→ still selects a wager"


def test_the_place_chosen_with_the_arrows_is_ringed_on_the_table(qtbot, window):
    from ui.qt import QColor, QGraphicsPathItem, Qt
    from ui.table.shapes import Z

    screen = practice(window, "ph-first-shake", Automation.WHOLE_ROUND)
    while screen.round.next_expected().do is not Do.PLACE_POINTER:
        do_next(qtbot, screen)
    view = screen.view
    selected = QColor(view.style["selected"])

    def rings():
        return [i.sceneBoundingRect() for i in view.scene().items()
                if isinstance(i, QGraphicsPathItem) and i.zValue() == Z.SELECT
                and i.pen().color() == selected]

    qtbot.keyClick(screen, Qt.Key.Key_T)  # Pointer: the next place is chosen
    assert rings() == []
    qtbot.keyClick(screen, Qt.Key.Key_Right)
    first = screen._place
    area = view.place_area(first)
    [ring] = rings()
    assert ring.contains(area), f"a ring round {first}"
    qtbot.keyClick(screen, Qt.Key.Key_Right)
    [ring] = rings()
    assert ring.contains(view.place_area(screen._place)) and not ring.contains(area), "it moves"
    qtbot.keyClick(screen, Qt.Key.Key_Escape)
    assert rings() == [], "stopping placing takes the ring away"


def test_a_step_the_trainer_does_opens_no_dialog_and_says_so(qtbot, window):
    """At difficulty 1 the trainer announces the dice; pressing Announce is not the trainee's
    call to make."""
    from ui.qt import Qt

    screen = practice(window, "ph-first-shake")
    assert screen.round.scenario.difficulty == 1 and Do.ANNOUNCE not in screen.round.mine
    log = list(screen.round.log)
    qtbot.mouseClick(screen.actions.buttons[Do.ANNOUNCE], Qt.MouseButton.LeftButton)
    assert screen.dialog is None
    assert screen.round.log == log
    assert "the trainer does this" in screen.feedback.toPlainText()


def test_a_log_of_many_undos_is_graded_once_per_undo_not_once_per_subset(monkeypatch):
    """Each told undo grades the log up to the action it took back; that grade leaves out the
    undos before it, so the grades grow with the undos, never as 2 ** undos."""
    import trainer.grading as grading
    from trainer.practice import PracticeRound

    r = PracticeRound(LIBRARY.by_id("tdf-opening-drive"), Automation.WHOLE_ROUND)
    undos = 0
    while not r.finished and undos < 12:
        e = r.next_expected()
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
        if not r.finished and not isinstance(r.undoable(), str):
            r.undo(told=True)
            undos += 1
            r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
    assert undos == 12
    calls = []
    real = grading.grade
    monkeypatch.setattr(grading, "grade", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    grading.grade(r.procedure, r.log, automation=r.automation, game=r.scenario.game,
                  target_seconds=600)
    assert len(calls) == 1 + undos


def test_a_replay_shows_the_undo_and_the_table_as_it_was(tmp_path):
    """The log keeps the payout and its undo; the replay shows both steps, and after the undo
    the table without the payout taken back."""
    from trainer.practice import PracticeRound
    from trainer.progress import Store, attempt_of, replay

    store = Store.open(tmp_path / "p.db")
    try:
        t = store.add_trainee("Rae")
        clock = iter(float(k) for k in range(1000))
        r = PracticeRound(LIBRARY.by_id("ph-first-shake"), clock=lambda: next(clock))
        e = r.next_expected()
        r.perform(Do.PAY, seat=e.seat, bet=e.bet, amount=14500)
        r.undo(told=True)
        while (x := r.next_expected()) is not None:
            r.perform(x.do, seat=x.seat, bet=x.bet, amount=x.amount, value=x.value)
        attempt = store.record_attempt(attempt_of(r, r.finish(), trainee_id=t, ended=1_700_000_600.0))
        rp = replay(store, attempt)
        assert rp.exact, rp.notes
        texts = [s.text for s in rp.steps if not s.by_trainer]
        undo = texts.index("Take back the last action")
        assert texts[undo - 1] == "Pay seat 2 Six the Hardway (3-3) $145.00"
        mine = [s for s in rp.steps if not s.by_trainer]
        assert (e.seat, e.bet) in mine[undo - 1].table.payouts
        assert (e.seat, e.bet) not in mine[undo].table.payouts, "the table as it was"
        assert [f["kind"] for f in mine[undo - 1].findings] == ["wrong amount"], "told: it counts"
    finally:
        store.close()
