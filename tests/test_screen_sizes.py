"""The app on a real laptop (1366×768) and a projector (1920×1080), in normal and large print,
the window maximised: every dialog of the table lies inside the screen's available geometry and
shows what is typed; large print makes the table's words bigger, never the table smaller; the
Class tab shows every skill without scrolling sideways.

The run's own Qt has the offscreen platform's one small screen. These tests need the two real
sizes, so tests/test_two_screens.py runs this file again in a Qt whose offscreen platform has both
screens (`QT_QPA_PLATFORM=offscreen:configfile=…`, named "laptop" and "projector"); in any other
Qt they skip, saying so."""

from __future__ import annotations

import pytest

from tests.support.qt import delete_closed, windows
from tests.support.two_screens import SCREENS, SKIP
from trainer.progress import Mode

GAMES = ["props-and-hops", "three-dice-football", "high-roll-dice", "pai-gow-dice"]


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


def two_screens() -> bool:
    """Whether this Qt has the laptop's screen and the projector's, at their sizes."""
    from ui.qt import QApplication

    sizes = {s.name(): (s.size().width(), s.size().height()) for s in QApplication.instance().screens()}
    return all(sizes.get(name) == size for name, size in SCREENS.items())


@pytest.fixture(params=list(SCREENS))
def screen(request):
    from ui.qt import QApplication

    if not two_screens():
        pytest.skip(SKIP)
    return next(s for s in QApplication.instance().screens() if s.name() == request.param)


@pytest.fixture(scope="module", params=[False, True], ids=["normal-print", "large-print"])
def print_size(request, qapp):
    """The app's print for the windows of this module's tests (True: large print), set once for
    them all: pytest runs every test in normal print, then every test in large print, and the app
    restyles every widget once between them, not once per test. A window is made in the print the
    app is in, as the app starts in the print a user chose (ui.shell.app); switching the print of
    a window on screen is test_large_print_makes_the_printed_words_larger_and_never_the_table_smaller's
    part."""
    from ui.shell import theme

    if not two_screens():
        pytest.skip(SKIP)
    theme.apply(qapp, theme.current(), large=request.param)
    yield request.param
    if request.param:
        theme.apply(qapp, theme.current(), large=False)


@pytest.fixture
def window(qtbot, screen, print_size):
    """The main window maximised on the screen, in the print size of `print_size`."""
    from ui.qt import QApplication
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    before = windows()
    w = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(w)
    w.setScreen(screen)
    w.setGeometry(screen.availableGeometry().adjusted(40, 40, -40, -40))
    w.showMaximized()
    qtbot.waitExposed(w)
    w.set_large_print(print_size)  # the window's choice: the app is in that print already
    assert bool(QApplication.instance().property("large_print")) is print_size
    qtbot.waitUntil(lambda: w.frameGeometry() == screen.availableGeometry())
    yield w
    w.close()
    QApplication.instance().setProperty("table_zoom", None)
    print_again(before, print_size)


def print_again(before: set[int], large: bool) -> None:
    """The app back in `large` print after a test that switched it, once the windows the test made
    since `before` and closed are gone: restyling their widgets is work for nothing."""
    from ui.qt import QApplication
    from ui.shell import theme

    if bool(QApplication.instance().property("large_print")) is not large:
        delete_closed(before)
        theme.apply(QApplication.instance(), theme.current(), large=large)


def area(window):
    return window.screen().availableGeometry()


def deal(qtbot, window, game, mode=Mode.PRACTICE, difficulty=2):
    page = window.show_screen("practice")
    page.kind.setCurrentIndex(page.kind.findData(mode.value))
    page.difficulty.setValue(difficulty)
    page.deal(seed=5, game=game, confirm=False)
    qtbot.waitUntil(page.screen.view.isVisible)  # a widget added to a shown window is shown next
    return page.screen


def on_screen(widget):
    from ui.qt import QRect

    return QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())


def open_keypad(qtbot, window, game, mode):
    """The payout keypad open over a dealt round: a guided payout drill brings the first winner to
    it; in an exam the trainee selects a wager and presses P."""
    from trainer import Do

    screen = deal(qtbot, window, game, Mode.PAYOUT_DRILL)
    if mode is Mode.EXAM:
        qtbot.waitUntil(lambda: screen.dialog is not None)
        screen.dialog.reject()
        qtbot.waitUntil(lambda: screen.dialog is None)
        screen.start(screen.round.scenario, Mode.EXAM)
        screen.cycle(1)
        screen.act(Do.PAY)
    qtbot.waitUntil(lambda: screen.dialog is not None)
    return screen


def wager_boxes(view):
    """Every wager box of the table, where it is on the screen."""
    from ui.qt import QRect

    return {key: QRect(view.mapToGlobal(view.mapFromScene(spot.outline.boundingRect()).boundingRect()
                                        .topLeft()),
                       view.mapFromScene(spot.outline.boundingRect()).boundingRect().size())
            for key, spot in view.spots.items()}


@pytest.mark.parametrize("mode", [Mode.PAYOUT_DRILL, Mode.EXAM], ids=["drill", "exam"])
@pytest.mark.parametrize("game", GAMES)
def test_the_payout_keypad_lies_on_the_screen_and_shows_what_is_typed(qtbot, window, game, mode):
    from ui.practice.dialogs import PayoutKeypad

    screen = open_keypad(qtbot, window, game, mode)
    keypad = screen.dialog
    assert isinstance(keypad, PayoutKeypad)
    qtbot.waitExposed(keypad)
    assert area(window).contains(keypad.frameGeometry()), (
        f"keypad {keypad.frameGeometry().getRect()} off the screen {area(window).getRect()}")
    for button in [*keypad.findChildren(type(keypad.ok)), *keypad.bank]:
        assert area(window).contains(on_screen(button)), f"{button.text()!r} is off the screen"
    # the table makes room: the keypad covers no part of the table, so no wager box
    qtbot.waitUntil(lambda: not on_screen(screen.view).intersects(keypad.frameGeometry()), timeout=2000)
    covered = [key for key, box in wager_boxes(screen.view).items()
               if box.intersects(keypad.frameGeometry())]
    assert not covered, f"the keypad covers {covered}"
    qtbot.keyClicks(keypad.field, "123456.78")
    field = keypad.field
    assert area(window).contains(on_screen(field))
    room = field.contentsRect().width() - field.textMargins().left() - field.textMargins().right()
    assert field.fontMetrics().horizontalAdvance(field.text()) < room, "the typed amount is cut"
    width = screen.view.width()
    keypad.reject()
    if mode is Mode.EXAM:  # the table takes its room back once the keypad closes (a guided drill
        # brings the next winner's keypad at once)
        qtbot.waitUntil(lambda: not screen.room.isVisible())
        qtbot.waitUntil(lambda: screen.view.width() > width)


def test_a_choice_lies_on_the_screen(qtbot, window):
    from trainer import load_library
    from trainer.procedure import Do
    from ui.practice.dialogs import ChoiceDialog

    screen = window.show_screen("practice").screen
    screen.start(load_library().by_id("ph-no-roll-calls"))
    screen.act(Do.NO_ROLL)
    dialog = screen.dialog
    assert isinstance(dialog, ChoiceDialog)
    qtbot.waitExposed(dialog)
    assert area(window).contains(dialog.frameGeometry()), (
        f"choice {dialog.frameGeometry().getRect()} off the screen {area(window).getRect()}")
    dialog.reject()


def shown_scale(view) -> float:
    """How many screen pixels a unit of the table's layout takes."""
    return view.transform().m11()


def printed_words_px(view) -> float:
    """How tall the table's printed words are on the screen, in the middle: half of them larger."""
    import statistics

    from ui.table.items import TextItem

    return statistics.median(t._font.pixelSize() * shown_scale(view) for t in view.layout_items()
                             if isinstance(t, TextItem))


def lies_whole(window, screen) -> None:
    """The practice screen in the print it is in: the title reads whole and clear of the throw,
    every action's button shows its words, the table and the actions lie on the screen."""
    title = screen.title
    assert title.height() >= title.heightForWidth(title.width()) > 0 or (
        title.fontMetrics().horizontalAdvance(title.text()) <= title.width()), "the title is cut"
    assert not title.geometry().intersects(screen.progress.geometry()), "the title runs under the throw"
    for b in [*screen.actions.buttons.values(), screen.skip, screen.end]:
        drawn = max(map(b.fontMetrics().horizontalAdvance, b.text().replace("&&", "&").split("\n")))
        assert drawn <= b.width(), f"{b.text()!r} is cut: {drawn} px of words in {b.width()}"
    assert area(window).contains(on_screen(screen.view)) and area(window).contains(on_screen(screen.actions))


@pytest.mark.parametrize("game", GAMES)
def test_large_print_makes_the_printed_words_larger_and_never_the_table_smaller(qtbot, window, game):
    """Large print makes the words bigger: on the laptop and on the projector alike, the words
    printed on the layout (the odds, the boxes' names, the paytables) grow by at least a fifth,
    not only the app's; the table keeps its size, the title reads whole and every action's button
    shows its words, in both prints. A round dealt in one print, switched to the other: each case
    lays the screen out in the print it was dealt in, in the one it was switched to and in the
    first again once switched back, so the two cases see each print both dealt and switched to."""
    from ui.qt import QApplication

    screen = deal(qtbot, window, game)
    lies_whole(window, screen)
    large = bool(QApplication.instance().property("large_print"))
    scale, words = shown_scale(screen.view), printed_words_px(screen.view)
    window.set_large_print(not large)
    qtbot.wait(50)
    other_scale, other_words = shown_scale(screen.view), printed_words_px(screen.view)
    normal, big = (other_scale, scale) if large else (scale, other_scale)
    assert big >= normal * 0.99, f"large print shrinks the table from {normal:.3f} to {big:.3f}"
    normal, big = (other_words, words) if large else (words, other_words)
    assert big >= normal * 1.2, f"large print: the printed words {normal:.1f} px -> {big:.1f} px"
    lies_whole(window, screen)
    window.set_large_print(large)  # and back: the print it was dealt in, as it was
    qtbot.wait(50)
    assert printed_words_px(screen.view) == pytest.approx(words)
    assert shown_scale(screen.view) == pytest.approx(scale)
    lies_whole(window, screen)


@pytest.fixture(scope="module")
def demo_class(tmp_path_factory):
    """A progress file with a class of three and their instructor, Lee: made once, copied for each
    test that opens it."""
    from trainer.progress import Store
    from trainer.progress.demo import seed_demo

    path = tmp_path_factory.mktemp("demo-class") / "progress.db"
    store = Store.open(path)
    seed_demo(store, trainees=("Ana Ruiz", "Ben Cole", "Cara Diaz"), days=12, seed=3)
    store.add_trainee("Lee", instructor=True, passphrase="correct horse")
    store.close()
    return path


@pytest.fixture
def class_tab(qtbot, screen, print_size, demo_class, tmp_path):
    """An instructor's Class tab, the window maximised on the screen, a class of three."""
    import shutil

    from trainer.progress import Store
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    shutil.copy(demo_class, tmp_path / "progress.db")
    store = Store.open(tmp_path / "progress.db")
    lee = next(t for t in store.trainees() if t.name == "Lee")
    w = MainWindow(Services(store, lee))
    qtbot.addWidget(w)
    w.setScreen(screen)
    w.setGeometry(screen.availableGeometry().adjusted(40, 40, -40, -40))
    w.showMaximized()
    qtbot.waitExposed(w)
    w.set_large_print(print_size)  # the window's choice: the app is in that print already
    qtbot.waitUntil(lambda: w.frameGeometry() == screen.availableGeometry())
    page = w.show_screen("progress")
    page.tabs.setCurrentIndex(1)
    qtbot.wait(50)
    yield page.klass
    w.close()
    store.close()


def test_the_class_tab_shows_every_skill_and_keeps_its_colours_when_selected(qtbot, class_tab):
    from trainer import Skill
    from ui.qt import QColor, QPoint, Qt

    table, grid = class_tab.table, class_tab.model
    assert grid.columnCount() == len(Skill) + 1
    assert table.horizontalScrollBar().maximum() == 0, "the skills scroll sideways"
    shown = table.viewport().rect()
    for c in range(grid.columnCount()):
        assert shown.contains(table.visualRect(grid.index(0, c))), f"column {c} is cut"
    coded = [r for r in range(grid.rowCount()) if grid.index(r, 0).data(Qt.ItemDataRole.BackgroundRole)]
    row = coded[0]
    names = table.verticalHeader()  # the trainee's name: the row is selected, the pointer off it
    qtbot.mouseClick(names.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(names.width() // 2, table.visualRect(grid.index(row, 0)).center().y()))
    assert table.currentRow() == row and table.selectionModel().isSelected(grid.index(row, 0))
    image = table.viewport().grab().toImage()
    for c in range(len(Skill)):
        want = grid.index(row, c).data(Qt.ItemDataRole.BackgroundRole)
        if want is None:
            continue
        cell = table.visualRect(grid.index(row, c))
        seen = QColor(image.pixel(cell.left() + 6, cell.center().y()))
        assert max(abs(seen.red() - want.red()), abs(seen.green() - want.green()),
                   abs(seen.blue() - want.blue())) <= 8, (
            f"the selected row hides {grid.index(row, c).data()}'s colour: {seen.name()} for {want.name()}")
