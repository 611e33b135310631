"""The Supervise screen through its real widgets: in each game a round is dealt from the bar, a
false alarm raised, one fault flagged (pointed at on the table or from the keyboard, named from
the choices), another missed, and the score and the debrief checked against the definitions of
the scoring (worked here: hits, misses, false alarms, the log-linear correction, the weights
critical 4, major 2, minor 1, a false alarm -1) and the grader's findings of each fault."""

from __future__ import annotations

from fractions import Fraction
from statistics import NormalDist

import pytest

from tests.support.screens import choose, press
from trainer import GAME_IDS, playback, readable
from trainer.policy import Severity
from trainer.supervise.scoring import WINDOW
from ui.qt import QApplication, QSettings, Qt
from ui.supervise.page import PACE_KEY, SupervisePage

WEIGHT = {Severity.CRITICAL: 4, Severity.MAJOR: 2, Severity.MINOR: 1}
DIFFICULTY = 2


def a_round_with_two_faults(game: str) -> tuple[int, object]:
    """The first seed whose round at DIFFICULTY has two faults or more, and that round, dealt by
    the engine (what the screen must deal too)."""
    for seed in range(1, 60):
        rnd = playback.deal(game, DIFFICULTY, seed)
        if len(rnd.faults) >= 2:
            return seed, rnd
    raise AssertionError(f"no {game} round with two faults")


def page_for(qtbot, settings=None) -> SupervisePage:
    page = SupervisePage(settings)
    qtbot.addWidget(page)
    page.resize(1366, 740)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()  # the keyboard's focus: the supervisor works from the keys
    qtbot.waitUntil(lambda: QApplication.activeWindow() is page)
    return page


def deal_from_the_bar(qtbot, page: SupervisePage, game: str, seed: int) -> None:
    page.game.setCurrentIndex(GAME_IDS.index(game))
    page.difficulty.setValue(DIFFICULTY)
    page.pace.setCurrentIndex(0)  # step by step
    page.seed = seed - 1  # the Deal button deals the next seed
    qtbot.mouseClick(page.deal_button, Qt.MouseButton.LeftButton)


def click_wager(qtbot, view, target: str) -> None:
    """A click on a wager's chips (or its area) on the table."""
    seat, _, bet = target.removeprefix("seat ").partition(" ")
    point = view.mapFromScene(view.area_pos(int(seat), bet))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_round_supervised_flagged_missed_and_debriefed(qtbot, game):
    seed, rnd = a_round_with_two_faults(game)
    caught, missed = rnd.faults[0], rnd.faults[1]
    page = page_for(qtbot)
    deal_from_the_bar(qtbot, page, game, seed)
    screen = page.screen
    assert [(f.type.id, f.step) for f in screen.round.faults] == [
        (f.type.id, f.step) for f in rnd.faults]
    # a false alarm at the first action: pointed at something no fault of the round is at
    faulty = {f.target for f in rnd.faults}
    frame0 = playback.frames(rnd)[0]
    innocent = next(t for t, _ in playback.targets(rnd, frame0) if t not in faulty)
    press(qtbot, screen, Qt.Key.Key_Space)
    panel = screen.flagging
    assert panel.isVisible() and panel.targets.hasFocus()
    choose(qtbot, panel.targets, innocent)
    press(qtbot, panel.targets, Qt.Key.Key_Return)
    assert panel.choices.hasFocus()
    press(qtbot, panel.choices, Qt.Key.Key_Return)
    assert not panel.isVisible() and screen.flag_list.count() == 1
    # on to where the first fault shows, and flag it
    press(qtbot, screen, Qt.Key.Key_N, caught.index)
    assert screen.pos == caught.index
    if playback.kind_of(caught.target) == playback.WAGER:
        click_wager(qtbot, screen.view, caught.target)
        assert panel.isVisible() and panel.target() == caught.target
        seat, _, bet = caught.target.removeprefix("seat ").partition(" ")
        assert screen.view.state.selected == (int(seat), bet)  # ringed on the table
    else:
        press(qtbot, screen, Qt.Key.Key_F)
        choose(qtbot, panel.targets, caught.target)
        press(qtbot, panel.targets, Qt.Key.Key_Right)
    choose(qtbot, panel.choices, caught.type.id)
    shown = [panel.choices.item(r).text() for r in range(panel.choices.count())]
    assert f"{caught.type.words} — {readable(caught.type.section)}" in shown
    qtbot.mouseClick(panel.flag_button, Qt.MouseButton.LeftButton)
    # the second fault is let go by: the round stepped to its end, then finished
    press(qtbot, screen, Qt.Key.Key_N, len(rnd.log) + 2)
    assert screen.pos == len(rnd.log)
    qtbot.keyClick(screen, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert screen.debrief.isVisible()

    # the score, worked from the definitions
    s = screen.score
    others = len(rnd.log) - sum(len(f.done) for f in rnd.faults)
    assert (s.hits, len(s.missed), len(s.false_alarms)) == (1, len(rnd.faults) - 1, 1)
    assert s.caught[0].fault.step == caught.step and missed.step in {f.step for f in s.missed}
    h = Fraction(3, 2) / (len(rnd.faults) + 1)
    f = Fraction(3, 2) / (others + 1)
    d = NormalDist().inv_cdf(float(h)) - NormalDist().inv_cdf(float(f))
    assert s.d_prime == pytest.approx(d, abs=1e-9)
    possible = sum(WEIGHT[x.type.severity] for x in rnd.faults)
    expected = max(Fraction(0), Fraction(WEIGHT[caught.type.severity] - 1, possible))
    assert s.score == expected
    assert s.mean_seconds == 0.0  # stepped: flagged at the action that showed it
    heading = screen.debrief.heading.text()
    assert f"score {round(expected * 100)}%" in heading
    assert f"d′ <b>{d:.2f}</b>" in heading
    assert f"Caught <b>1</b> of {len(rnd.faults)}" in heading

    # the debrief: each fault, what should have been done, the sections the grader cites
    lines = [screen.debrief.lines.item(r).text() for r in range(screen.debrief.lines.count())]
    assert len(lines) == len(rnd.faults) + 1
    for n, (fault, findings) in enumerate(rnd.debrief()):
        assert fault.type.words in lines[n]
        assert lines[n].startswith("✔ Caught" if fault.step == caught.step else "✘ Missed")
        assert findings, fault.type.id
        for x in findings:
            assert readable(x.cite) in lines[n]
        if fault.expected is not None:
            assert fault.expected.label in lines[n]
    assert lines[-1].startswith("✘ False alarm")
    # stepping back to the missed fault shows the table as it stood then
    row = [f.step for f in rnd.faults].index(missed.step)
    lst = screen.debrief.lines
    press(qtbot, lst, Qt.Key.Key_Home)
    press(qtbot, lst, Qt.Key.Key_Down, row)
    assert screen.pos == missed.index
    assert screen.view.state.marks == screen.frames[missed.index].table.marks
    page.stop()
    page.close()


def test_paced_the_dealer_goes_on_and_a_flag_pauses_it_and_is_timed(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    page = page_for(qtbot, settings)
    now = [100.0]
    page.game.setCurrentIndex(GAME_IDS.index("pai-gow-dice"))
    page.difficulty.setValue(3)
    assert not page.pace.model().item(0).isEnabled()  # no stepping from difficulty 3
    page.pace.setCurrentIndex(1)  # 4 s an action
    page.seed = 0
    qtbot.mouseClick(page.deal_button, Qt.MouseButton.LeftButton)
    screen = page.screen
    screen.clock = lambda: now[0]
    screen.start(screen.round, paced=True)
    assert screen.round.pace == 4.0 and screen.timer.isActive()
    assert screen.timer.interval() == 4000
    press(qtbot, screen, Qt.Key.Key_N)
    assert screen.pos == 0  # Next does nothing at a pace
    screen.timer.timeout.emit()
    screen.timer.timeout.emit()
    assert screen.pos == 2
    now[0] += 1.5
    press(qtbot, screen, Qt.Key.Key_F)
    assert not screen.timer.isActive()  # the dealer waits while the supervisor flags
    now[0] += 30  # however long the flag takes
    press(qtbot, screen.flagging.targets, Qt.Key.Key_Return)
    press(qtbot, screen.flagging.choices, Qt.Key.Key_Return)
    assert screen.flags[0].at == 2 * 4.0 + 1.5
    assert screen.timer.isActive() and screen.timer.interval() == 2500  # the rest of the action
    press(qtbot, screen, Qt.Key.Key_P)
    assert not screen.timer.isActive()
    # paused, a flag made and cancelled leaves the dealer paused
    press(qtbot, screen, Qt.Key.Key_F)
    press(qtbot, screen.flagging.targets, Qt.Key.Key_Escape)
    assert screen.side.currentIndex() == 0 and not screen.timer.isActive()
    press(qtbot, screen, Qt.Key.Key_P)
    assert screen.timer.isActive()
    screen.stop()
    # the pace is remembered
    again = page_for(qtbot, settings)
    assert again.pace.currentData() == 4.0
    assert settings.value(PACE_KEY) is not None
    for p in (page, again):
        p.stop()
        p.close()


def test_the_menu_and_its_key_reach_the_screen(qtbot):
    from ui.qt import QAction
    from ui.shell.services import Services
    from ui.shell.window import SCREENS, MainWindow
    from ui.supervise.screen import SuperviseScreen

    window = MainWindow(Services(None), settings=QSettings())
    qtbot.addWidget(window)
    key = f"Ctrl+{[n for n, _ in SCREENS].index('supervise') + 1}"
    go = next(a for a in window.findChildren(QAction) if a.shortcut().toString() == key)
    go.trigger()
    assert isinstance(window.stack.currentWidget(), SupervisePage)
    deal = next(a for a in window.findChildren(QAction) if a.shortcut().toString() == "Ctrl+Shift+S")
    deal.trigger()
    screen = window.stack.currentWidget().findChild(SuperviseScreen)
    assert screen is not None and screen.round is not None and len(screen.frames) > 1
    window.close()


def test_rounds_supervised_show_in_progress_and_drill_the_weakest_class(qtbot, tmp_path):
    """Two rounds supervised in the window with a progress file, every fault let go by but the
    first of the first: Progress › Supervising shows the catch rates (counted here from the
    rounds), and Drill this deals a round with a fault of the weakest class."""
    from trainer.progress import Store
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    store = Store.open(tmp_path / "p.db")
    ana = store.add_trainee("Ana")
    window = MainWindow(Services(store, store.trainee(ana)), settings=QSettings())
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    page = window.show_screen("supervise")
    page.difficulty.setValue(DIFFICULTY)
    page.pace.setCurrentIndex(0)
    watched = []
    for n, game in enumerate(("props-and-hops", "three-dice-football")):
        seed, rnd = a_round_with_two_faults(game)
        page.deal(seed=seed, game=game)
        screen = page.screen
        if n == 0:  # the first fault caught, at the action that shows it
            for _ in range(rnd.faults[0].index):
                screen.step()
            screen.begin_flag()
            assert screen.flagging.point_at(rnd.faults[0].target)
            choices = screen.flagging.choices
            choices.setCurrentRow([choices.item(r).data(Qt.ItemDataRole.UserRole)
                                   for r in range(choices.count())].index(rnd.faults[0].type.id))
            screen.flagging.flag()
        qtbot.mouseClick(screen.end_button, Qt.MouseButton.LeftButton)
        watched.append(rnd)
    counted: dict[str, list[int]] = {}
    for n, rnd in enumerate(watched):
        for k, f in enumerate(rnd.faults):
            pair = counted.setdefault(f.type.fault_class.value, [0, 0])
            pair[0] += n == 0 and k == 0
            pair[1] += 1
    progress = window.show_screen("progress")
    from ui.progress.supervising import CLASS_WORDS, SupervisingTab

    bar = progress.tabs.tabBar()
    chosen = [bar.tabText(i) for i in range(bar.count())].index("My supervising")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(chosen).center())
    [tab] = progress.tabs.currentWidget().findChildren(SupervisingTab)  # made as it is chosen
    assert tab is progress.supervising
    rows = {tab.by_class.item(r, 0).text(): (int(tab.by_class.item(r, 1).text()),
                                             int(tab.by_class.item(r, 2).text()))
            for r in range(tab.by_class.rowCount())}
    assert {c: rows[CLASS_WORDS[c]] for c in counted} == {c: tuple(v) for c, v in counted.items()}
    games = {tab.by_game.item(r, 0).text(): tab.by_game.item(r, 2).text()
             for r in range(tab.by_game.rowCount())}
    assert games["Props & Hops"] == str(len(watched[0].faults))
    seen = {c: Fraction(*v) for c, v in counted.items() if v[1] >= 3}
    assert seen, "the rounds chosen give no class three faults: nothing to drill"
    weakest = tab.rates.weakest
    assert seen[weakest] == min(seen.values())
    assert tab.drill_button.isVisible()
    qtbot.mouseClick(tab.drill_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is page
    drilled = page.screen.round
    assert drilled.scenario.game == tab.rates.weakest_game
    assert any(f.type.fault_class.value == weakest for f in drilled.faults)
    window.close()
    store.close()


@pytest.mark.parametrize("kept", ["abc", "nan", "inf", "-2", "7.5", ""])
def test_a_remembered_pace_that_is_none_of_the_paces_gives_the_dealers_pace(qtbot, tmp_path, kept):
    """The settings file is the user's to edit: a pace it holds that the screen does not offer
    is the dealer's own pace, never an error."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue(PACE_KEY, kept)
    page = page_for(qtbot, settings)
    assert page.pace.currentData() == 2.0
    page.close()


@pytest.mark.parametrize("width, large", [(1366, False), (1366, True), (1024, False)],
                         ids=["laptop", "laptop-large-print", "1024"])
def test_the_deal_bar_reads_whole(qtbot, width, large):
    """The bar above the table, in the theme (whose padding widens every box): on a laptop, in
    either print, each box shows its choice whole and Deal is whole on the window; on a 1024-pixel
    window Deal is still whole on the window (the boxes may narrow)."""
    from ui.qt import QApplication
    from ui.shell import theme
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    app = QApplication.instance()
    theme.apply(app, "light", large=large)
    window = MainWindow(Services(None), settings=QSettings())
    qtbot.addWidget(window)
    window.resize(width, 700)
    window.show()
    qtbot.waitExposed(window)
    try:
        window.show_screen("supervise")
        page = window.stack.currentWidget()
        for game in ("props-and-hops", "pai-gow-dice"):
            for pace in range(page.pace.count()):
                page.game.setCurrentIndex(page.game.findData(game))
                page.pace.setCurrentIndex(pace)
                qtbot.wait(10)
                assert window.width() <= width
                button = page.deal_button
                assert button.width() >= button.fontMetrics().horizontalAdvance(button.text()) + 12
                assert button.mapTo(window, button.rect().topRight()).x() < window.width()
                if width < 1366:
                    continue
                for box in (page.game, page.which, page.pace):
                    shown = box.width() - 28  # less the drop-down arrow
                    assert shown >= box.fontMetrics().horizontalAdvance(box.currentText()), \
                        f"{box.currentText()!r} does not read whole in a box {box.width()} wide"
        if width >= 1366:  # the flag's words beside the table read whole too
            from ui.qt import QLabel
            from ui.supervise.screen import SuperviseScreen

            qtbot.mouseClick(page.deal_button, Qt.MouseButton.LeftButton)
            screen = page.findChild(SuperviseScreen)
            qtbot.keyClick(screen, Qt.Key.Key_F)
            qtbot.waitUntil(lambda: screen.flagging.isVisible())
            for label in screen.flagging.findChildren(QLabel):
                needed = label.fontMetrics().horizontalAdvance(label.text())
                assert label.wordWrap() or label.width() >= needed, \
                    f"{label.text()!r} is cut in a label {label.width()} wide"
            screen.stop()
    finally:
        window.close()
        app.setStyleSheet("")
        app.setPalette(app.style().standardPalette())
        app.setProperty("theme", None)
        app.setProperty("large_print", None)


def test_flag_pressed_more_often_than_the_dealer_acts_still_finishes_with_a_debrief(qtbot):
    """The sixth cold review's #123: Flag pressed more times than the dealer made other actions
    made Finish do nothing (a traceback on stderr, the round lost). Now the round finishes: every
    false alarm counted and charged, the score 0, d′ finite."""
    game = GAME_IDS[0]
    seed, rnd = a_round_with_two_faults(game)
    others = len(rnd.log) - sum(len(f.done) for f in rnd.faults)
    page = page_for(qtbot)
    deal_from_the_bar(qtbot, page, game, seed)
    screen = page.screen
    faulty = {f.target for f in rnd.faults}
    innocent = next(t for t, _ in playback.targets(rnd, playback.frames(rnd)[0]) if t not in faulty)
    panel = screen.flagging
    for _ in range(others + 3):
        press(qtbot, screen, Qt.Key.Key_F)
        choose(qtbot, panel.targets, innocent)
        press(qtbot, panel.targets, Qt.Key.Key_Return)
        press(qtbot, panel.choices, Qt.Key.Key_Return)
    assert screen.flag_list.count() == others + 3
    qtbot.keyClick(screen, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert screen.debrief.isVisible()
    s = screen.score
    assert len(s.false_alarms) == others + 3 and s.false_alarm_rate == 1 and s.score == 0
    h, f = Fraction(1, 2) / (len(rnd.faults) + 1), Fraction(others * 2 + 1, 2) / (others + 1)
    assert s.d_prime == pytest.approx(NormalDist().inv_cdf(float(h)) - NormalDist().inv_cdf(float(f)))
    page.stop()
    page.close()


def a_fault_whose_wager_is_taken_down(game: str) -> tuple[int, object, object, int]:
    """The first seed at DIFFICULTY whose round has a fault on a wager that is off the table at a
    later frame still within the flag window: the seed, the round, the fault and that frame."""
    for seed in range(1, 200):
        rnd = playback.deal(game, DIFFICULTY, seed)
        shown = playback.frames(rnd)
        for fault in rnd.faults:
            for frame in shown[fault.index + 1:]:
                if frame.at - fault.at > WINDOW:
                    break
                if playback.kind_of(fault.target) == playback.WAGER and fault.target not in [
                        f"seat {s} {b}" for s, b in {(w.seat, w.bet) for w in frame.table.wagers}
                        | set(frame.table.marks)]:
                    return seed, rnd, fault, frame.index
    raise AssertionError(f"no {game} round with a wager taken down after its fault")


def test_a_wager_taken_down_after_its_fault_is_still_flagged_within_the_window(qtbot):
    """The seventh cold review's #141: the dealer collects a winner (or pays one and takes it
    down); at the next throw the wager left the Flag list, so a supervisor who reacted within the
    15 s the scoring gives could not point at it. Stepped on to a frame where the wager is off
    the table, F still lists it and the flag catches the fault."""
    game = "three-dice-football"
    seed, rnd, fault, index = a_fault_whose_wager_is_taken_down(game)
    page = page_for(qtbot)
    deal_from_the_bar(qtbot, page, game, seed)
    screen = page.screen
    press(qtbot, screen, Qt.Key.Key_N, index)
    assert screen.pos == index
    seat, _, bet = fault.target.removeprefix("seat ").partition(" ")
    assert (int(seat), bet) not in {(w.seat, w.bet) for w in screen.frames[index].table.wagers}
    press(qtbot, screen, Qt.Key.Key_F)
    panel = screen.flagging
    choose(qtbot, panel.targets, fault.target)
    press(qtbot, panel.targets, Qt.Key.Key_Right)
    choose(qtbot, panel.choices, fault.type.id)
    qtbot.mouseClick(panel.flag_button, Qt.MouseButton.LeftButton)
    press(qtbot, screen, Qt.Key.Key_N, len(rnd.log) + 2)
    qtbot.keyClick(screen, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert fault.step in {c.fault.step for c in screen.score.caught}
    page.stop()
    page.close()


def test_a_round_on_another_paytable_is_watched_on_a_table_that_prints_it(qtbot):
    """A Pai Gow round on paytable A, then one on C (Beat It on B), on one Supervise screen: the
    second is watched on a table that prints C and B, the odds its dealer is judged by."""
    from tests.support.library import bundled
    from trainer.supervise.rounds import supervise
    from ui.supervise.screen import SuperviseScreen
    from ui.table.items import TextItem

    def printed(view):
        return {t.text for t in view.layout_items() if isinstance(t, TextItem) and "PAYTABLE" in t.text}

    screen = SuperviseScreen()
    qtbot.addWidget(screen)
    screen.show()
    screen.start(supervise(bundled().by_id("pgd-sum-a-sixteen")), paced=False)
    assert printed(screen.view) == {"SUM · PAYTABLE A", "BEAT IT · PAYTABLE A"}
    first = screen.view
    screen.start(supervise(bundled().by_id("pgd-sum-c-pair")), paced=False)
    assert printed(screen.view) == {"SUM · PAYTABLE C", "BEAT IT · PAYTABLE B"}
    # the first table is gone from the screen at once, not drawn beside the second until deleted
    assert first.isHidden() and screen.table_layout.indexOf(first) == -1
    screen.stop()
