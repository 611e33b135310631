"""The Progress and Class screens on a real store, and attempts recorded from the real screens."""

from __future__ import annotations

import pytest

from trainer.progress import Store
from trainer.progress.demo import seed_demo


@pytest.fixture
def demo(tmp_path):
    store = Store.open(tmp_path / "progress.db")
    ids = seed_demo(store, trainees=("Ana Ruiz", "Ben Cole", "Cara Diaz"), days=12, seed=3)
    yield store, ids
    store.close()


def window_for(qtbot, store, trainee):
    from ui.services import Services
    from ui.window import MainWindow

    services = Services(store, trainee)
    w = MainWindow(services)
    services.window = w
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    return w, services


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
    assert page.tabs.count() == 1, "a trainee sees no Class tab"
    assert not_blank(page)
    image = w.grab()
    assert (image.width(), image.height()) == (1440, 900)
    w.close()


def test_drill_this_deals_a_round_aimed_at_the_skill(qtbot, demo):
    from ui.qt import QLabel, QPushButton, Qt

    store, ids = demo
    w, _ = window_for(qtbot, store, store.trainee(ids["Ben Cole"]))
    page = w.show_screen("progress")
    buttons = [b for b in page.findChildren(QPushButton) if b.text() == "Drill this"]
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
    assert page.tabs.count() == 2
    page.tabs.setCurrentIndex(1)
    table = page.klass.table
    assert table.rowCount() == 3
    assert {table.verticalHeaderItem(r).text() for r in range(3)} == {"Ana Ruiz", "Ben Cole", "Cara Diaz"}
    headings = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
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
    from ui.services import Services

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
    """Issue 13, item 13: who needs help is who has worked and struggled; a new trainee is named
    apart, as not started."""
    store, _ = demo
    store.add_trainee("Nova Reyes")  # no attempt yet
    tid = store.add_trainee("Lee", instructor=True, passphrase="correct horse")
    w, _ = window_for(qtbot, store, store.trainee(tid))
    page = w.show_screen("progress")
    page.tabs.setCurrentIndex(1)
    text = page.klass.side.toPlainText()
    help_part = text.split("Hardest items")[0]
    assert "Not started yet: Nova Reyes" in help_part
    assert "Nova Reyes —" not in help_part and " of 0 attempts" not in help_part
    w.close()
