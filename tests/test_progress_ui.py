"""The Progress and Class screens on a real store, and attempts recorded from the real screens."""

from __future__ import annotations

import pytest

from tests.support.screens import on_class_tab, window_for
from trainer.progress import Store
from trainer.progress.demo import seed_demo


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    """A progress file with three trainees' twelve days: seeded once, copied for each test."""
    path = tmp_path_factory.mktemp("demo") / "progress.db"
    with Store.open(path) as store:
        ids = seed_demo(store, trainees=("Ana Ruiz", "Ben Cole", "Cara Diaz"), days=12, seed=3)
    return path, ids


@pytest.fixture
def demo(tmp_path, demo_file):
    import shutil

    path, ids = demo_file
    shutil.copy(path, tmp_path / "progress.db")
    store = Store.open(tmp_path / "progress.db")
    yield store, dict(ids)
    store.close()


def not_blank(widget) -> bool:
    image = widget.grab().toImage()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 23) for y in range(0, image.height(), 23)}
    return len(colours) > 8


def test_the_progress_screen_charts_a_trainees_attempts(qtbot, demo):
    store, ids = demo
    w, _ = window_for(qtbot, store, store.trainee(ids["Cara Diaz"]))
    page = w.show_screen("progress")
    assert page.title.text() == "Progress — Cara Diaz"
    assert page.accuracy.plot.listDataItems(), "the accuracy chart is empty"
    assert page.speed.plot.listDataItems(), "the payout time chart is empty"
    assert page.skills.rowCount() >= 5
    tabs = [page.tabs.tabText(n) for n in range(page.tabs.count())]
    assert tabs == ["My progress", "My supervising"], "a trainee sees no Class tab"
    assert not_blank(page)
    image = w.grab()
    assert (image.width(), image.height()) == (1440, 900)
    w.close()


def test_drill_this_deals_a_round_aimed_at_the_skill(qtbot, demo):
    from ui.qt import QLabel, QPushButton, Qt

    store, ids = demo
    w, _ = window_for(qtbot, store, store.trainee(ids["Ben Cole"]))
    page = w.show_screen("progress")
    buttons = [b for b in page.findChildren(QPushButton)
               if b.text() == "Drill this" and not page.supervising.isAncestorOf(b)]
    assert buttons
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    practice = w.pages["practice"]
    assert w.stack.currentWidget() is practice
    scenario = practice.screen.round.scenario
    # the first "Drill this" is the weakest skill's (lowest recent accuracy), as its line says
    line = buttons[0].parentWidget().findChildren(QLabel)[0].text()
    assert scenario.skills and line.startswith(scenario.skills[0].title + " — ")
    w.close()


def test_an_instructor_sees_the_class(qtbot, demo):
    store, _ = demo
    tid = store.add_trainee("Lee", instructor=True, passphrase="correct horse")
    w, _ = window_for(qtbot, store, store.trainee(tid))
    page = w.show_screen("progress")
    assert [page.tabs.tabText(n) for n in range(page.tabs.count())] == [
        "My progress", "Class", "My supervising"]
    inner = [page.klass.views.tabText(n).replace("&", "") for n in range(page.klass.views.count())]
    labels = [page.tabs.tabText(n) for n in range(page.tabs.count())] + inner
    assert len(set(labels)) == len(labels), f"two tabs read alike on one screen: {labels}"
    page.tabs.setCurrentIndex(1)
    from ui.qt import Qt

    grid = page.klass.model  # the skills by trainee the table shows
    assert grid.rowCount() == 3
    assert {grid.headerData(r, Qt.Orientation.Vertical) for r in range(3)} == {"Ana Ruiz", "Ben Cole",
                                                                             "Cara Diaz"}
    headings = [grid.headerData(c, Qt.Orientation.Horizontal) for c in range(grid.columnCount())]
    assert "Accepting and\nrefusing wagers" in headings  # skills by their titles, not their ids
    from trainer import Skill

    assert not set(headings) & {s.value for s in Skill}
    assert "Who needs help" in page.klass.side.toPlainText()
    assert not_blank(page.klass)
    w.close()


def test_a_finished_round_is_recorded_and_charted(qtbot, tmp_path):
    from trainer.library import load_library
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Rosa")
    w, services = window_for(qtbot, store, store.trainee(tid))
    practice = w.show_screen("practice")
    practice.start_scenario(load_library().by_id("ph-first-shake"))
    with qtbot.waitSignal(services.recorded):
        qtbot.mouseClick(practice.screen.end, Qt.MouseButton.LeftButton)
    [attempt] = store.attempts(tid)
    assert attempt.item_id == "ph-first-shake" and attempt.mode == "scenario"
    assert not attempt.passed  # nothing was paid
    assert w.show_screen("scenarios").best["ph-first-shake"] == attempt.total
    w.close()
    store.close()



@pytest.mark.parametrize("kind, mode", [("Payout drill", "payout-drill"), ("Procedure drill", "practice")])
def test_a_dealt_round_is_recorded_in_the_mode_the_trainee_chose(qtbot, tmp_path, kind, mode):
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Rosa")
    w, services = window_for(qtbot, store, store.trainee(tid))
    practice = w.show_screen("practice")
    practice.kind.setCurrentIndex(practice.kind.findText(kind))
    qtbot.mouseClick(practice.deal_button, Qt.MouseButton.LeftButton)
    assert practice.screen.round is not None
    if practice.screen.dialog is not None:  # the drill's keypad
        practice.screen.dialog.reject()
    with qtbot.waitSignal(services.recorded):
        qtbot.mouseClick(practice.screen.end, Qt.MouseButton.LeftButton)
    [attempt] = store.attempts(tid)
    assert attempt.mode == mode and attempt.seed == practice.screen.round.scenario.id
    w.close()
    store.close()

def test_results_exported_from_one_workstation_import_on_another(qtbot, tmp_path):
    from trainer.progress import Store

    first = Store.open(tmp_path / "a.db")
    ana = first.add_trainee("Ana")
    seed_demo(first, trainees=("Ben",), days=3, seed=9)
    from ui.shell.services import Services

    services = Services(first, first.trainee(ana))
    path = tmp_path / "results.json"
    assert "attempts written" in services.export("results", str(path), everyone=True)
    second = Store.open(tmp_path / "b.db")
    other = Services(second, None)
    first_time = other.import_results(str(path))
    again = other.import_results(str(path))
    n = len(first.attempts())
    assert first_time.startswith(f"{n} attempts added")
    assert again.startswith(f"0 attempts added, {n} already here")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    import pytest as _pytest

    from trainer.progress.errors import StoreError
    with _pytest.raises(StoreError):
        other.import_results(str(bad))
    first.close()
    second.close()


def test_the_scenarios_best_column_updates_as_soon_as_a_round_is_recorded(qtbot, tmp_path):
    from trainer import load_library
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Rosa")
    w, services = window_for(qtbot, store, store.trainee(tid))
    page = w.show_screen("scenarios")  # built before the round, as when the trainee looked first

    def best_cell():
        rows = [r for r in range(page.table.rowCount())
                if page.table.item(r, 0).data(Qt.ItemDataRole.UserRole) == "ph-first-shake"]
        return page.table.item(rows[0], page.table.columnCount() - 1).text()

    assert best_cell() == "—"
    practice = w.show_screen("practice")
    practice.start_scenario(load_library().by_id("ph-first-shake"))
    with qtbot.waitSignal(services.recorded):
        qtbot.mouseClick(practice.screen.end, Qt.MouseButton.LeftButton)
    [attempt] = store.attempts(tid)
    assert best_cell() == str(attempt.total)
    w.close()
    store.close()


def test_a_trainee_with_no_attempts_is_not_listed_as_needing_help(qtbot, demo):
    """Who needs help is who has worked and struggled; a new trainee is named
    apart, as not started."""
    store, _ = demo
    store.add_trainee("Nova Reyes")  # no attempt yet
    tid = store.add_trainee("Lee", instructor=True, passphrase="correct horse")
    w, _ = window_for(qtbot, store, store.trainee(tid))
    page = on_class_tab(w)
    text = page.klass.side.toPlainText()
    help_part = text.split("Hardest items")[0]
    assert "Not started yet: Nova Reyes" in help_part
    assert "Nova Reyes —" not in help_part and " of 0 attempts" not in help_part
    w.close()


# --- the charts: a date axis, weekly bins, smoothing beside the raw points -------------------------

import itertools  # noqa: E402
import re  # noqa: E402

DAY = 86400.0
A_DATE = re.compile(r"^[A-Z][a-z]{2} \d{1,2}$")  # "Nov 17"


def progress_page(qtbot, store, trainee_id, dark=False):
    from ui.progress.page import ProgressPage
    from ui.shell.services import Services

    page = ProgressPage(Services(store, store.trainee(trainee_id)), dark)
    qtbot.addWidget(page)
    page.resize(1280, 800)
    page.show()
    qtbot.waitExposed(page)
    return page


def tick_strings(chart) -> list[str]:
    """The date axis' labels as drawn over the chart's range."""
    axis = chart.axis
    lo, hi = chart.plot.getViewBox().viewRange()[0]
    values = [v for _, level in axis.tickValues(lo, hi, axis.width()) for v in level]
    return axis.tickStrings(values, 1, DAY)


def record(store, tid, started, *, missed=False, game="props-and-hops", item="ph-first-shake"):
    from trainer.progress import AttemptRecord

    finding = {"kind": "missing", "severity": "major", "message": "Pay seat 1 Field was not done",
               "cite": "58 Pa. Code § 668a.2(f)(4)", "skill": "payouts"}
    return store.record_attempt(AttemptRecord(
        trainee_id=tid, item_id=item, game=game, mode="scenario", started=started,
        ended=started + 60, procedure=100, payouts=100, speed=100, total=50 if missed else 100,
        passed=not missed, critical=False, skills=("payouts",), findings=(finding,) if missed else ()))


def test_the_date_axis_reads_in_days_on_every_chart(qtbot, demo):
    store, ids = demo
    page = progress_page(qtbot, store, ids["Cara Diaz"])
    for chart in (page.accuracy, page.speed, page.days):
        strings = tick_strings(chart)
        assert len(strings) >= 2 and all(A_DATE.match(s) for s in strings), strings


def test_a_right_click_on_a_chart_opens_its_menu_made_when_first_asked_for(qtbot):
    """pyqtgraph's menu (View All, the axes, Mouse Mode, Plot Options, Export...) opens on a
    chart's right-click, as it did when every chart made it at once; a chart no one right-clicks
    makes none (ui.progress.charts.MenuOnAsk)."""
    from ui.progress.charts import Chart
    from ui.qt import QApplication, QMenu, Qt

    chart = Chart("Accuracy over time", "right (%)")
    qtbot.addWidget(chart)
    chart.resize(600, 400)
    chart.show()
    qtbot.waitExposed(chart)
    box = chart.plot.getViewBox()
    assert box.menu is None, "made before anyone asked for it"
    qtbot.mouseClick(chart.plot.viewport(), Qt.MouseButton.RightButton,
                     pos=chart.plot.mapFromScene(box.sceneBoundingRect().center()))
    [menu] = [m for m in QApplication.topLevelWidgets() if isinstance(m, QMenu) and m.isVisible()]
    words = [a.text() for a in menu.actions() if a.text()]
    assert words == ["View All", "X axis", "Y axis", "Mouse Mode", "Plot Options", "Export..."]
    menu.close()
    chart.close()


def test_one_day_of_attempts_stands_in_the_middle_of_the_axis_with_a_note(qtbot, tmp_path):
    """The axis spans the data: one day is not a dot at the right edge of two empty weeks."""
    import time

    from ui.qt import QLabel, pyqtgraph

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Solo")
    record(store, tid, time.time() - 60)
    page = progress_page(qtbot, store, tid)
    lo, hi = page.days.plot.getViewBox().viewRange()[0]
    assert hi - lo <= 4 * DAY, "not two weeks of empty grid"
    [bars, _passed] = sorted((i for i in page.days.plot.items()
                              if isinstance(i, pyqtgraph().BarGraphItem)), key=lambda b: -b.opts["width"])
    [x] = bars.opts["x"]
    assert lo + (hi - lo) / 3 < x < hi - (hi - lo) / 3, "the day stands in the middle, not at an edge"
    assert bars.opts["width"] < (hi - lo) / 2, "one narrow bar, not the whole chart"
    strings = tick_strings(page.days)
    assert strings and all(A_DATE.match(s) for s in strings), strings  # not "22:22:20"
    assert "One attempt so far" in page.accuracy.empty.text()
    assert isinstance(page.accuracy.empty, QLabel) and page.accuracy.empty.isVisible()
    store.close()


def test_a_sparse_history_is_charted_by_week(qtbot, tmp_path):
    import time

    from ui.qt import pyqtgraph

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Now-and-then")
    now = time.time()
    for days_ago in (60, 45, 45, 30, 12, 2):  # 5 practice days in 9 weeks, each in its own week
        record(store, tid, now - days_ago * DAY + len(store.attempts(tid)), missed=days_ago % 2 == 0)
    page = progress_page(qtbot, store, tid)
    bars = [i for i in page.days.plot.items() if isinstance(i, pyqtgraph().BarGraphItem)]
    attempts = max(bars, key=lambda b: b.opts["width"])  # the passed bar is the narrower one
    xs = sorted(attempts.opts["x"])
    assert len(xs) == 5 and sorted(attempts.opts["height"]) == [1, 1, 1, 1, 2]
    assert all(round((b - a) / DAY) % 7 == 0 for a, b in itertools.pairwise(xs))
    assert attempts.opts["width"] == pytest.approx(7 * DAY * 0.7)
    assert "week" in page.days.plot.getAxis("bottom").labelText
    assert "By week" in page.days.empty.text()
    assert all(A_DATE.match(s) for s in tick_strings(page.days))
    store.close()


def test_the_accuracy_chart_draws_a_rolling_line_over_faint_raw_points(qtbot, demo):
    from ui.qt import pyqtgraph

    pg = pyqtgraph()
    store, ids = demo
    page = progress_page(qtbot, store, ids["Cara Diaz"])
    plot = page.accuracy.plot
    scatters = [i for i in plot.listDataItems() if isinstance(i, pg.ScatterPlotItem)]
    lines = [i for i in plot.listDataItems() if isinstance(i, pg.PlotDataItem)]
    assert lines and len(scatters) == len(lines)  # one line over each series' points
    for scatter, line in zip(scatters, lines, strict=True):
        xs, _ = scatter.getData()
        lx, _ = line.getData()
        assert list(xs) == list(lx) and line.opts["pen"].widthF() == 2.5
        assert scatter.opts["brush"].color().alpha() < 255  # faint
    # the smoothed line is not the raw points joined up
    assert any(list(s.getData()[1]) != list(line.getData()[1])
               for s, line in zip(scatters, lines, strict=True))
    page.view.setCurrentIndex(page.view.findData("skill"))
    from ui.progress.charts import MOST_SKILLS

    lines = [i for i in plot.listDataItems() if isinstance(i, pg.PlotDataItem)]
    assert 0 < len(lines) <= MOST_SKILLS


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_charts_read_in_both_themes(qtbot, demo, dark):
    from ui.progress.charts import GAME_COLOURS, GAME_COLOURS_DARK
    from ui.qt import QColor

    store, ids = demo
    page = progress_page(qtbot, store, ids["Cara Diaz"], dark=dark)
    image = page.accuracy.plot.grab().toImage()
    ground = QColor(image.pixel(3, 3)).lightnessF()
    assert ground < 0.25 if dark else ground > 0.9
    lines = {QColor(c).rgb() & 0xFFFFFF for c in (GAME_COLOURS_DARK if dark else GAME_COLOURS).values()}
    seen = sum(1 for x in range(image.width()) for y in range(0, image.height(), 2)
               if image.pixel(x, y) & 0xFFFFFF in lines)
    assert seen > 40  # the lines are drawn in the theme's own colours
    ink = [QColor(image.pixel(x, y)).lightnessF() for x in range(image.width())
           for y in range(image.height() - 40, image.height())]  # the date labels and "day"
    contrast = max(ink) - ground if dark else ground - min(ink)
    assert contrast > 0.6


# --- the class view: columns that do not clip, a trainee's attempts, a round replayed --------------


def class_view(qtbot, store, size=(1280, 800)):
    from ui.qt import QApplication

    lee = store.find_trainee("Lee")
    tid = lee.id if lee else store.add_trainee("Lee", instructor=True, passphrase="correct horse")
    w, _ = window_for(qtbot, store, store.trainee(tid))
    w.resize(*size)
    page = on_class_tab(w)
    QApplication.processEvents()
    return w, page.klass


@pytest.mark.parametrize("size", [(1280, 800), (1024, 680)], ids=["1280x800", "1024x680"])
def test_no_class_column_clips_its_heading_or_its_values(qtbot, demo, size):
    from trainer import Skill
    from ui.qt import QStyle

    store, _ = demo
    w, klass = class_view(qtbot, store, size)
    from ui.qt import Qt

    table, header, grid = klass.table, klass.table.horizontalHeader(), klass.model
    margin = 2 * table.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    metrics, cells = header.fontMetrics(), table.fontMetrics()
    titles = [s.title for s in Skill]
    for c in range(grid.columnCount()):
        heading = grid.headerData(c, Qt.Orientation.Horizontal)
        lines = heading.split("\n")
        # written upwards: the lines side by side across the column, each whole up the header
        assert header.sectionSize(c) >= len(lines) * metrics.height() + margin, heading
        assert header.height() >= max(metrics.horizontalAdvance(t) for t in lines) + margin, heading
        if c < len(titles):  # the full title, on one line
            assert grid.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == titles[c]
        for r in range(grid.rowCount()):
            assert header.sectionSize(c) >= cells.horizontalAdvance(grid.index(r, c).data()) + 6
    names = table.verticalHeader()
    for r in range(grid.rowCount()):
        assert names.width() >= metrics.horizontalAdvance(grid.headerData(r, Qt.Orientation.Vertical))
    # the trainees stay in place while the skills scroll sideways
    left = names.mapTo(w, names.rect().topLeft())
    table.horizontalScrollBar().setValue(table.horizontalScrollBar().maximum())
    assert names.mapTo(w, names.rect().topLeft()) == left and names.isVisible()
    w.close()


def test_a_trainee_opens_on_double_click_on_enter_and_from_the_button(qtbot, demo):
    from ui.qt import Qt

    store, ids = demo
    w, klass = class_view(qtbot, store)
    table = klass.table
    rows = [klass.model.headerData(r, Qt.Orientation.Vertical) for r in range(klass.model.rowCount())]
    cell = table.visualRect(klass.model.index(rows.index("Ben Cole"), 2)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)  # a double-click is
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)  # a press, then this
    dialog = klass.dialog
    assert dialog.isVisible() and dialog.windowTitle() == "Ben Cole — attempts"
    assert dialog.table.rowCount() == len(store.attempts(ids["Ben Cole"]))
    # an attempt with findings: each shown with its regulation section
    row = next(r for r, a in enumerate(dialog.attempts) if a.findings)
    dialog.table.scrollToItem(dialog.table.item(row, 0))
    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton,
                     pos=dialog.table.visualItemRect(dialog.table.item(row, 0)).center())
    text = dialog.findings.toPlainText()
    for f in dialog.attempts[row].findings:
        assert f["message"] in text and f["cite"] in text and f["cite"].startswith("58 Pa. Code § ")
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    table.setFocus()
    table.setCurrentIndex(klass.model.index(rows.index("Cara Diaz"), 0))
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert klass.dialog.isVisible() and klass.dialog.windowTitle() == "Cara Diaz — attempts"
    qtbot.keyClick(klass.dialog, Qt.Key.Key_Escape)
    table.setCurrentIndex(klass.model.index(rows.index("Ana Ruiz"), 0))
    qtbot.mouseClick(klass.open_button, Qt.MouseButton.LeftButton)
    assert klass.dialog.isVisible() and klass.dialog.windowTitle() == "Ana Ruiz — attempts"
    qtbot.keyClick(klass.dialog, Qt.Key.Key_Escape)
    assert not klass.dialog.isVisible()
    w.close()


def test_a_replay_shows_the_rounds_table_and_the_steps_in_order(qtbot, tmp_path):
    from tests.support.progress import played_round
    from trainer.procedure.model import describe
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    rae = store.add_trainee("Rae")
    r, _, _ = played_round(store, rae)
    w, klass = class_view(qtbot, store)
    klass.table.setFocus()
    qtbot.keyClick(klass.table, Qt.Key.Key_Return)
    dialog = klass.dialog
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)  # the newest (only) attempt
    replay = dialog.replay_dialog
    assert replay.isVisible() and replay.view is not None
    steps = [replay.steps.item(k).text() for k in range(replay.steps.count())]
    assert steps[0] == "As dealt" and len(steps) == len(r.log) + 1
    for text, p in zip(steps[1:], r.log, strict=True):  # in the order they were done
        assert describe(p.do, p.seat, p.bet, p.amount, p.value) in text.split("\n")[0]
    [wrong] = [t for t in steps if "✗" in t.split("\n")[0]]
    assert "58 Pa. Code § " in wrong  # the finding, with its section, under its step
    assert "The answer key" in replay.notes.toPlainText()
    dealt = replay.view.grab().toImage()
    replay.steps.setFocus()
    qtbot.keyClick(replay.steps, Qt.Key.Key_End)
    assert replay.steps.currentRow() == len(r.log)
    assert replay.view.grab().toImage() != dealt  # the table as the round ended: paid, collected
    qtbot.keyClick(replay, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert replay.view.zoom == 1.25, "the View menu's zoom keys work in the replay too"
    qtbot.keyClick(replay, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert replay.view.zoom == 1.0
    qtbot.keyClick(replay.steps, Qt.Key.Key_Escape)
    assert not replay.isVisible() and dialog.isVisible()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    w.close()
    store.close()


def test_an_attempt_graded_under_rule_1_says_so_and_keeps_its_verdict(qtbot, tmp_path):
    """Grading policy: a result recorded under the earlier rule (an unpaid winner was major and
    could pass) keeps its verdict as recorded, and the trainee's history says which rule it was."""
    from trainer import policy
    from trainer.progress import AttemptRecord
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    rae = store.add_trainee("Rae")
    unpaid = {"kind": "missing", "severity": "major", "message": "Pay seat 1 Field $5.00 was not done",
              "cite": "58 Pa. Code § 668a.2(f)(4)", "skill": "payouts"}
    for n, rule in enumerate((None, policy.RULE)):  # None: recorded before rules were kept
        store.record_attempt(AttemptRecord(
            trainee_id=rae, item_id="ph-first-shake", game="props-and-hops", mode="scenario",
            started=1_700_000_000 + 100 * n, ended=1_700_000_060 + 100 * n, procedure=100, payouts=90,
            speed=100, total=96, passed=rule is None, critical=False, skills=("payouts",),
            findings=(unpaid,), rule=rule))
    w, klass = class_view(qtbot, store)
    klass.table.setFocus()
    qtbot.keyClick(klass.table, Qt.Key.Key_Return)
    dialog = klass.dialog
    results = [dialog.table.item(r, 4).text() for r in range(dialog.table.rowCount())]
    assert results == ["not passed", "passed (rule 1)"]  # newest first
    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton,
                     pos=dialog.table.visualItemRect(dialog.table.item(1, 0)).center())
    text = " ".join(dialog.findings.toPlainText().split())
    assert "Graded under Pass rule 1" in text and "kept as recorded" in text
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up)
    assert "Graded under Pass rule 2" in " ".join(dialog.findings.toPlainText().split())
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    w.close()
    store.close()


def test_a_class_drawn_again_redraws_only_the_row_that_changed_and_keeps_the_choice(qtbot, demo):
    """A live class is read again every few seconds: a new result redraws its trainee's row only
    (no reset, no re-measuring every cell), the instructor's chosen row stays chosen, and a new
    trainee makes the grid anew."""
    import time

    from trainer.progress import class_overview
    from ui.qt import Qt

    store, ids = demo
    w, klass = class_view(qtbot, store)
    grid, table = klass.model, klass.table
    names = [grid.headerData(r, Qt.Orientation.Vertical) for r in range(grid.rowCount())]
    ben, cara = names.index("Ben Cole"), names.index("Cara Diaz")
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(grid.index(ben, 0)).center())
    changed, resets = [], []
    grid.dataChanged.connect(lambda first, last: changed.extend(range(first.row(), last.row() + 1)))
    grid.modelReset.connect(lambda: resets.append(True))
    before = [grid.index(cara, c).data() for c in range(grid.columnCount())]
    for k in range(6):  # Cara misses the first shake six times: her payouts column falls
        record(store, ids["Cara Diaz"], time.time() - 60 * (k + 1), missed=True)
    overview = class_overview(store)
    klass.show_overview(overview)
    assert changed == [cara] and not resets
    after = [grid.index(cara, c).data() for c in range(grid.columnCount())]
    assert after != before
    skills = overview.skills
    shown = [overview.cells[ids["Cara Diaz"], s].accuracy for s in skills]
    assert after[:len(skills)] == [f"{a:.0%}" if a is not None else "—" for a in shown]
    assert table.currentRow() == ben and table.selectionModel().isSelected(grid.index(ben, 0))
    klass.show_overview(class_overview(store))  # nothing new: nothing drawn again
    assert changed == [cara] and not resets
    store.add_trainee("Dee Long")  # a trainee more: the grid is made anew
    klass.show_overview(class_overview(store))
    names = [grid.headerData(r, Qt.Orientation.Vertical) for r in range(grid.rowCount())]
    assert resets and "Dee Long" in names
    w.close()


def test_bad_data_shows_a_message_not_a_traceback(qtbot, tmp_path):
    from ui.qt import Qt

    store = Store.open(tmp_path / "p.db")
    w, klass = class_view(qtbot, store)  # an empty class
    assert klass.model.rowCount() == 0 and "No trainees yet" in klass.side.toPlainText()
    assert not klass.open_button.isEnabled()
    w.close()
    zed = store.add_trainee("Zed")  # no attempt yet
    gone = store.add_trainee("Gone")
    record(store, gone, 1_700_000_000.0, missed=True, item="a-scenario-since-removed")
    w, klass = class_view(qtbot, store)
    names = [klass.model.headerData(r, Qt.Orientation.Vertical) for r in range(klass.model.rowCount())]
    klass.open_trainee(names.index("Zed"))
    assert "not started yet" in klass.dialog.findChildren(type(klass.hint))[0].text()
    assert not klass.dialog.replay_button.isEnabled()
    qtbot.keyClick(klass.dialog.table, Qt.Key.Key_Escape)
    klass.open_trainee(names.index("Gone"))
    qtbot.keyClick(klass.dialog.table, Qt.Key.Key_Return)
    replay = klass.dialog.replay_dialog
    assert replay.view is None and "cannot deal" in replay.notes.toPlainText()
    assert "58 Pa. Code § 668a.2(f)(4)" in replay.notes.toPlainText()  # its finding, on no step
    qtbot.keyClick(replay.steps, Qt.Key.Key_Escape)
    qtbot.keyClick(klass.dialog.table, Qt.Key.Key_Escape)
    assert zed
    w.close()
    store.close()


@pytest.mark.parametrize("by", ["game", "skill"])
def test_the_legend_stands_under_the_chart_and_names_every_line(qtbot, demo, by):
    """The legend sat over the lines: it is now a key under the chart, one entry per line in the
    line's colour, and nothing but the data is drawn on the plot."""
    import html

    from ui.qt import pyqtgraph

    pg = pyqtgraph()
    store, ids = demo
    page = progress_page(qtbot, store, ids["Cara Diaz"])
    page.view.setCurrentIndex(page.view.findData(by))
    for chart in (page.accuracy, page.speed):
        lines = [i for i in chart.plot.listDataItems() if isinstance(i, pg.PlotDataItem)]
        assert lines and len(chart.entries) == len(lines)
        for (colour, name), line in zip(chart.entries, lines, strict=True):
            assert line.opts["pen"].color().name() == pg.mkColor(colour).name()
            assert line.name() == name and html.escape(name).replace(" ", "&nbsp;") in chart.legend.text()
        assert chart.legend.isVisible()
        assert chart.legend.geometry().top() >= chart.plot.geometry().bottom(), "under the plot"
        plot_items = chart.plot.getPlotItem().items
        assert not [i for i in plot_items if isinstance(i, pg.LegendItem)]


def test_a_month_of_accuracy_reads_one_game_at_a_time_with_a_chooser(qtbot, tmp_path):
    """Five games' lines crossed on one chart; by game the chart draws one game's line, the
    one chosen among the games practised."""
    from trainer import GAME_NAMES
    from ui.progress.charts import GAME_COLOURS
    from ui.qt import pyqtgraph

    pg = pyqtgraph()
    store = Store.open(tmp_path / "progress.db")
    ids = seed_demo(store, trainees=("Ana Ruiz",), days=30, seed=5)
    page = progress_page(qtbot, store, ids["Ana Ruiz"])
    page.view.setCurrentIndex(page.view.findData("game"))
    practised = [page.game.itemData(i) for i in range(page.game.count())]
    assert len(practised) >= 3 and page.game.isVisible(), practised

    def lines():
        return [i for i in page.accuracy.plot.listDataItems() if isinstance(i, pg.PlotDataItem)]

    for game in practised:
        page.game.setCurrentIndex(page.game.findData(game))
        [line] = lines()
        assert line.name() == GAME_NAMES[game]
        assert line.opts["pen"].color().name() == pg.mkColor(GAME_COLOURS[game]).name()
        assert GAME_NAMES[game] in page.accuracy.title
    page.view.setCurrentIndex(page.view.findData("skill"))
    assert not page.game.isVisible(), "by skill, no game to choose"
    store.close()


def test_a_chart_redrawn_while_never_shown_keeps_one_drawing_and_shows_the_last(qtbot, tmp_path):
    """A chart's plot is made when it is first shown; what is drawn before waits. A Progress
    screen kept behind another (refreshed at every attempt) held every drawing since the start,
    and drew them all at its first showing: now each drawing drops the one before."""
    import time

    from ui.progress.charts import draw_attempts

    store = Store.open(tmp_path / "p.db")
    tid = store.add_trainee("Solo")
    record(store, tid, time.time() - 60)
    page = progress_page(qtbot, store, tid)  # drawn once, shown
    shown = sorted(type(i).__name__ for i in page.days.plot.items())
    from trainer.progress import progress_report
    from ui.progress.charts import Chart

    report = progress_report(store, tid)
    hidden = Chart("Attempts per day", "attempts")
    qtbot.addWidget(hidden)
    for _ in range(50):
        draw_attempts(hidden, report)
    assert len(hidden._waiting) <= 2  # one drawing (its days, then its bars), not fifty
    hidden.show()
    qtbot.waitExposed(hidden)
    assert sorted(type(i).__name__ for i in hidden.plot.items()) == shown
    assert hidden.plot.plotItem.titleLabel.text == "Attempts per day"
    hidden.close()
    store.close()
