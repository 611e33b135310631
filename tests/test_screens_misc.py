"""Smaller screen behaviours: a broken scenario is skipped with a visible warning, the trainee is
picked at start, the window remembers its size, the rules screen switches paytables."""

from __future__ import annotations

import shutil

import pytest

from tests.support.paths import ROOT


def test_a_broken_scenario_is_skipped_with_a_visible_warning(qtbot, tmp_path):
    from trainer.library import load_library
    from ui.practice.scenarios import ScenariosPage

    shutil.copytree(ROOT / "scenarios" / "pai-gow-dice", tmp_path / "pai-gow-dice")
    (tmp_path / "pai-gow-dice" / "99-broken.toml").write_text('schema_version = 1\nid = "x"\nwagr = 1\n')
    library = load_library(tmp_path)
    page = ScenariosPage(library)
    qtbot.addWidget(page)
    page.show()
    assert page.warning.isVisible()
    assert "pai-gow-dice/99-broken.toml:3: unknown key" in page.warning.text()
    good = len(list((ROOT / "scenarios" / "pai-gow-dice").glob("*.toml")))
    assert page.table.rowCount() == good  # the good ones are all there


def test_the_briefing_shown_is_the_scenario_enter_starts_when_the_games_shown_change(qtbot):
    from tests.support.library import bundled
    from ui.practice.scenarios import ScenariosPage
    from ui.qt import Qt

    page = ScenariosPage(bundled())
    qtbot.addWidget(page)
    page.show()
    started = []
    page.start.connect(started.append)
    seen = []
    for _ in range(page.filter.count()):  # every game in turn, chosen with the keys
        page.filter.setFocus()
        qtbot.keyClick(page.filter, Qt.Key.Key_Down)
        shown = page.current()
        seen.append(shown.game)
        assert page.briefing.toPlainText().startswith(shown.title)
        page.table.setFocus()
        qtbot.keyClick(page.table, Qt.Key.Key_Return)
        assert started[-1] is shown
    assert len(set(seen)) == page.filter.count() - 1  # each game, not "All games" again


def test_the_trainee_is_picked_at_start(qtbot, tmp_path):
    from trainer.progress import Store
    from ui.qt import Qt
    from ui.shell.profiles import ProfileDialog

    store = Store.open(tmp_path / "p.db")
    store.add_trainee("Ana")
    ben = store.add_trainee("Ben")
    dialog = ProfileDialog(store)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.list.setCurrentRow(1)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Return)
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.chosen.id == ben and dialog.chosen.name == "Ben"
    store.close()


def test_a_name_longer_than_a_class_keeps_is_refused_in_one_line(qtbot, tmp_path, monkeypatch):
    """A class server keeps names of 200 characters at most (its s010); the app gives a trainee
    100 at most, so that what an import adds to a name taken already still fits."""
    from trainer.progress import Store
    from ui.qt import QInputDialog
    from ui.shell.profiles import ProfileDialog

    store = Store.open(tmp_path / "p.db")
    dialog = ProfileDialog(store)
    qtbot.addWidget(dialog)
    dialog.show()
    typed = iter(["A" * 50_000, "Ana Ruiz"])
    monkeypatch.setattr(QInputDialog, "getText", lambda *_args, **_kw: (next(typed), True))
    dialog.add_trainee()
    assert dialog.message.text() == ("Not added: a name of 100 characters at most, please (this one "
                                     "has 50,000).")
    assert store.trainees() == []
    dialog.add_trainee()
    assert [t.name for t in store.trainees()] == ["Ana Ruiz"]
    dialog.close()
    store.close()


def _new_trainee_typed(qtbot, dialog, typed: str, key) -> None:
    """New trainee… clicked on `dialog`; in the real name dialog it opens, `typed` typed and
    `key` pressed (Enter for OK, Escape for Cancel)."""
    from ui.qt import QApplication, QInputDialog, QLineEdit, QPushButton, Qt, QTimer

    asked = []

    def type_in():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QInputDialog):
            QTimer.singleShot(20, type_in)
            return
        line = box.findChild(QLineEdit)
        qtbot.keyClicks(line, typed)
        asked.append(box.textValue())
        qtbot.keyClick(line, key)

    [new] = [b for b in dialog.findChildren(QPushButton) if b.text() == "New trainee…"]
    QTimer.singleShot(20, type_in)
    qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
    assert asked == [typed]  # the name dialog was shown, typed in and closed


def test_a_blank_name_is_refused_in_the_line_and_cancel_says_nothing(qtbot, tmp_path):
    """New trainee…, three spaces and OK closed the name dialog and added no one, without a word:
    the screen's line says why, as it does for every name it refuses. Cancel says nothing."""
    from trainer.progress import Store
    from ui.qt import Qt
    from ui.shell.profiles import ProfileDialog

    with Store.open(tmp_path / "p.db") as store:
        dialog = ProfileDialog(store)
        qtbot.addWidget(dialog)
        dialog.show()
        _new_trainee_typed(qtbot, dialog, "   ", Qt.Key.Key_Return)
        assert dialog.message.text() == "Not added: the name was blank; type one."
        assert dialog.message.objectName() == "wrong"  # in the colour of what went wrong
        assert store.trainees() == [] and dialog.isVisible()
        dialog.say("")
        _new_trainee_typed(qtbot, dialog, "   ", Qt.Key.Key_Escape)
        assert dialog.message.text() == "" and store.trainees() == []
        _new_trainee_typed(qtbot, dialog, "  Ana Ruiz ", Qt.Key.Key_Return)
        assert [t.name for t in store.trainees()] == ["Ana Ruiz"] and dialog.message.text() == ""
        dialog.close()


def test_an_empty_list_asks_for_a_trainee_first(qtbot, tmp_path):
    from trainer.progress import Store
    from ui.shell.profiles import ProfileDialog

    store = Store.open(tmp_path / "p.db")
    dialog = ProfileDialog(store)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.accept()
    assert dialog.chosen is None and "Add a trainee first" in dialog.message.text()
    dialog.close()
    store.close()


def test_the_window_remembers_its_size(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    first = MainWindow(Services(None))
    qtbot.addWidget(first)
    first.show()
    first.resize(1234, 777)
    first.close()
    second = MainWindow(Services(None))
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == (1234, 777)
    second.close()


def test_the_rules_screen_shows_the_chosen_pai_gow_paytable(qtbot):
    from ui.rules.page import RulesPage

    page = RulesPage()
    qtbot.addWidget(page)
    page.show()
    page.show_game("pai-gow-dice")
    assert page.banner.isVisible() and "Reconstructed" in page.banner.text()
    page.sum_table.setCurrentText("B")
    paytables = page.pay_view.toPlainText()
    assert "Sum (paytable B)" in paytables and "Sum (paytable A)" not in paytables
    assert "Sum (paytable B)" in page.edge_view.toPlainText()
    assert "4.63%" in page.edge_view.toPlainText()
    page.show_game("props-and-hops")
    assert not page.banner.isVisible()
    assert "5.56%" in page.edge_view.toPlainText()
    assert "§ 668a.3" in page.text.toPlainText()


def test_the_rules_screen_shows_the_grading_policy_and_each_games_orders(qtbot):
    """Rules › Grading: the pass rule, what is critical, major and minor, and the orders the
    regulation imposes for the game shown (trainer.policy; reading "settlement-orders")."""
    from ui.qt import Qt
    from ui.rules.page import RulesPage

    page = RulesPage()
    qtbot.addWidget(page)
    page.show()
    bar = page.tabs.tabBar()
    grading = next(i for i in range(page.tabs.count()) if page.tabs.tabText(i) == "Grading")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(grading).center())
    assert page.tabs.currentWidget() is page.grading_view and page.grading_view.isVisible()
    page.show_game("three-dice-football")
    text = " ".join(page.grading_view.toPlainText().split())
    assert "Pass rule 2" in text and "no critical and no major finding" in text
    assert "a winner left unpaid or collected" in text  # critical
    assert "the Yard Marker" in text and "Minor" in text
    assert "§ 577.6(f)(2)" in text and "first collect Touchdown and Extra Point and pay Defense" in text
    assert "house convention" in text and "Pass rule 1" in text  # the earlier rule, named
    assert "Reading a throw" not in text  # the game's orders only
    page.show_game("pai-gow-dice")
    assert "player by player" in " ".join(page.grading_view.toPlainText().split())


def test_a_screenshot_leaves_the_users_settings_alone(qtbot, tmp_path):
    """--screenshot rendered the window and saved its size and screen over the user's."""
    from ui.qt import QSettings, QSize
    from ui.shell.app import save_screenshot

    mine = QSettings()
    mine.setValue("window/size", QSize(1111, 777))
    mine.setValue("window/screen", "rules")
    mine.setValue("view/theme", "dark")
    mine.sync()
    assert save_screenshot(tmp_path / "shot.png", "scenarios") == 0
    assert (tmp_path / "shot.png").stat().st_size > 10_000
    again = QSettings()
    assert again.value("window/size") == QSize(1111, 777)
    assert again.value("window/screen") == "rules" and again.value("view/theme") == "dark"


def test_after_new_trainee_enter_starts_the_new_trainee(qtbot, tmp_path, monkeypatch):
    """The button clicked last was the default: Enter opened New trainee again. Start is the
    default, and the trainee just added is the one chosen."""
    from trainer.progress import Store
    from ui.qt import QApplication, QInputDialog, Qt
    from ui.shell.profiles import ProfileDialog

    store = Store.open(tmp_path / "p.db")
    store.add_trainee("Ana")
    dialog = ProfileDialog(store)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    asked = []
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *_args, **_kw: (asked.append(1), ("Ben Cole", True))[1])
    [add] = [b for b in dialog.findChildren(type(dialog.start)) if b.text() == "New trainee…"]
    add.setFocus()
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    qtbot.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return)
    assert len(asked) == 1, "Enter asked for a new trainee again"
    assert dialog.result() == dialog.DialogCode.Accepted and dialog.chosen.name == "Ben Cole"
    dialog.close()
    store.close()


@pytest.mark.parametrize("name", ["light", "dark"])
def test_spin_boxes_draw_their_arrows_in_both_themes(qtbot, name):
    """The themes' frame on a spin box left Fusion's arrows out: each button has its arrow, in
    the theme's ink."""
    from ui.qt import QApplication, QColor, QPalette, QSpinBox
    from ui.shell import theme

    app = QApplication.instance()
    before = (app.styleSheet(), QPalette(app.palette()), app.property("theme"), app.property("large_print"))
    theme.apply(app, name)
    try:
        spin = QSpinBox()
        spin.setRange(1, 5)
        spin.setValue(3)  # both ways open
        qtbot.addWidget(spin)
        spin.resize(160, 34)
        spin.show()
        qtbot.waitExposed(spin)
        image = spin.grab().toImage()
        ground = QColor(theme.DARK[QPalette.ColorRole.Base] if name == "dark" else "#ffffff")

        def inked(top: int, bottom: int) -> int:  # pixels far from the ground, in the buttons' column
            n = 0
            for x in range(image.width() - 18, image.width() - 4):
                for y in range(top, bottom):
                    c = QColor(image.pixel(x, y))
                    if abs(c.lightness() - ground.lightness()) > 120:
                        n += 1
            return n

        half = image.height() // 2
        assert inked(3, half - 1) >= 12, "no up arrow"
        assert inked(half + 1, image.height() - 3) >= 12, "no down arrow"
    finally:  # the application as it was, for the tests after this one
        app.setStyleSheet(before[0])
        app.setPalette(before[1])
        app.setProperty("theme", before[2])
        app.setProperty("large_print", before[3])


@pytest.mark.parametrize("large", [False, True], ids=["normal-print", "large-print"])
@pytest.mark.parametrize("name", ["light", "dark"])
def test_combo_boxes_draw_their_arrow_whole_in_both_themes(qtbot, name, large, tmp_path):
    """The combo boxes' arrows looked clipped: Fusion's drop-down squeezed against the styled
    frame's edge. Each combo box has its button and its whole arrow, in the theme's ink, clear
    of the frame."""
    from ui.qt import QApplication, QColor, QComboBox, QPalette
    from ui.shell import theme

    app = QApplication.instance()
    before = (app.styleSheet(), QPalette(app.palette()), app.property("theme"), app.property("large_print"))
    theme.apply(app, name, large=large)
    try:
        combo = QComboBox()
        combo.addItems(["Props & Hops", "Three Dice Football"])
        qtbot.addWidget(combo)
        combo.show()
        qtbot.waitExposed(combo)
        image = combo.grab().toImage()
        image.save(str(tmp_path / f"combo-{name}.png"))  # to look at
        ground = QColor(theme.DARK[QPalette.ColorRole.Base] if name == "dark" else "#ffffff")
        ink = [(x, y) for x in range(image.width() - 28, image.width()) for y in range(image.height())
               if abs(QColor(image.pixel(x, y)).lightness() - ground.lightness()) > 120]
        arrow = [(x, y) for x, y in ink if 4 <= y <= image.height() - 5 and x <= image.width() - 5]
        assert len(arrow) >= 12, "no arrow"
        left, right = min(x for x, _ in arrow), max(x for x, _ in arrow)
        top, bottom = min(y for _, y in arrow), max(y for _, y in arrow)
        size = f"{right - left + 1}x{bottom - top + 1}"
        assert right - left >= 6 and bottom - top >= 3, f"the arrow is {size} px"
        assert right <= image.width() - 6, f"the arrow runs to the edge: x {right} of {image.width()}"
    finally:  # the application as it was, for the tests after this one
        app.setStyleSheet(before[0])
        app.setPalette(before[1])
        app.setProperty("theme", before[2])
        app.setProperty("large_print", before[3])


@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_deal_bars_choices_read_whole_at_1024_in_both_themes(qtbot, name):
    """The combo boxes' own button made each wider, and at 1024 px the deal bar squeezed them:
    "Props & Ho", "Procedure dri". The deal bar's choices, as a trainee first sees them, read whole."""
    from ui.qt import QApplication, QPalette, QStyle, QStyleOptionComboBox
    from ui.shell import theme
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    app = QApplication.instance()
    before = (app.styleSheet(), QPalette(app.palette()), app.property("theme"), app.property("large_print"))
    theme.apply(app, name)
    try:
        w = MainWindow(Services(None))
        qtbot.addWidget(w)
        w.resize(1024, 680)
        w.show()
        qtbot.waitExposed(w)
        page = w.show_screen("practice")
        for combo in (page.game, page.kind):
            option = QStyleOptionComboBox()
            combo.initStyleOption(option)
            field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                                 QStyle.SubControl.SC_ComboBoxEditField, combo)
            shown = combo.currentText()
            assert field.width() >= combo.fontMetrics().horizontalAdvance(shown), \
                f"{shown!r} is clipped: {field.width()} px for it"
        w.close()
    finally:  # the application as it was, for the tests after this one
        app.setStyleSheet(before[0])
        app.setPalette(before[1])
        app.setProperty("theme", before[2])
        app.setProperty("large_print", before[3])


def test_every_menu_shortcut_is_in_the_keyboard_help(qtbot):
    """F1's help names every key the menus answer to (a key nobody is told of is a key nobody uses)."""
    import re

    from ui.qt import QAction
    from ui.shell.window import KEYS_HELP, SCREENS, MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    said = re.sub(r"<[^>]+>", "", KEYS_HELP).replace("−", "-")
    last = len(SCREENS)
    said += (" " + " ".join(f"Ctrl+{n}" for n in range(1, last + 1))
             if f"Ctrl+1 … Ctrl+{last}" in said else "")
    keys = {a.shortcut().toString() for a in window.findChildren(QAction)} - {""}
    assert len(keys) > 10
    assert sorted(k for k in keys if k not in said) == []
