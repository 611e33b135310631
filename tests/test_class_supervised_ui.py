"""The instructor's Class tab shows the class's supervised rounds live (ui.classroom.catching), on a
real PostgreSQL: each trainee's catch rate per fault class and per game, and the class's weakest
fault class named, redrawn as another workstation's rounds arrive; drawn in both themes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.class_server import progress_file
from tests.support.live_class import FAST, WITHIN, fast_pushes, instructor_window  # noqa: F401 (a fixture)
from tests.test_class_supervised import expected_rates, faulty, supervise
from trainer.classes import ClassConnection
from ui.progress.supervising import CLASS_WORDS
from ui.qt import QApplication, Qt
from ui.shell import theme

pytestmark = pytest.mark.usefixtures("fast_pushes")


def cell(view, name: str, heading: str) -> str:
    model = view.catching.model
    row = next(n for n, r in enumerate(model.rows) if r.name == name)
    column = next(c for c in range(model.columnCount())
                  if model.headerData(c, Qt.Orientation.Horizontal).replace("\n", " ") == heading)
    return model.data(model.index(row, column))


def test_the_class_tab_shows_catch_rates_live_and_the_weakest_class(qtbot, tmp_path, klass):
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: page.live.refreshes >= 1, timeout=WITHIN)
    bar = view.views.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert view.views.currentWidget() is view.catching
    assert "No supervised rounds in the class yet" in view.catching.weakest.text()
    other = progress_file(tmp_path / "other.db", {"Bo": 1})
    plays = [("props-and-hops", 1), ("pai-gow-dice", 9), ("high-roll-dice", 3)]
    for n, (game, seed) in enumerate(plays[:2]):
        supervise(other, "Bo", game, seed, 1_780_000_000.0 + n)
    pusher = ClassConnection(str(other), klass.address(), **FAST)
    pusher.start()
    try:
        qtbot.waitUntil(lambda: [r.name for r in view.catching.model.rows] == ["Bo"], timeout=WITHIN)
        # a read of the rounds announced so far may hold the first alone: both, once read
        qtbot.waitUntil(lambda: cell(view, "Bo", "Rounds") == "2", timeout=WITHIN)
        rounds = [faulty(g, s) for g, s in plays[:2]]
        assert cell(view, "Bo", "Pai Gow Poker dice wagers") == f"{round(100 / len(rounds[1].faults))}%"
        supervise(other, "Bo", *plays[2], 1_780_000_100.0)  # one more, while the tab is open
        pusher.wake()
        qtbot.waitUntil(lambda: cell(view, "Bo", "Rounds") == "3", timeout=WITHIN)
        rates = expected_rates([faulty(g, s) for g, s in plays])
        for c, (caught, seen) in rates.items():
            heading = CLASS_WORDS[c].split(":")[0].removesuffix(" the regulation imposes")
            assert cell(view, "Bo", heading) == f"{round(100 * caught / seen)}%"
        named = [c for c, p in rates.items() if p[1] >= 3]
        lowest = min(rates[c][0] / rates[c][1] for c in named)
        assert any(CLASS_WORDS[c] in view.catching.weakest.text()
                   for c in named if rates[c][0] / rates[c][1] == lowest)
        shots = Path(os.environ.get("DEALER_TRAINER_SHOTS", tmp_path))
        app = QApplication.instance()
        for name in ("light", "dark"):
            theme.apply(app, name)
            theme.retheme(w)
            w.resize(1366, 768)
            assert not w.grab().isNull()
            w.grab().save(str(shots / f"class-supervising-{name}.png"))
        theme.apply(app, "light")
    finally:
        pusher.close()
    w.close()
    store.close()
