"""A table on a projector, and for a reader who needs help: the table zooms (Ctrl +/−, Ctrl+0
fits it, Ctrl+wheel at the pointer), large print makes every word bigger, the table's too, and
the dice are announced to a screen reader in words."""

from __future__ import annotations

import pytest

from tests.support.practice_screen import do_next
from tests.support.tables import busy
from trainer.procedure import Automation, Do


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


@pytest.fixture
def window(qtbot):
    from ui.qt import QApplication
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    w.show_screen("practice")
    deal(qtbot, w)
    yield w
    w.close()
    app = QApplication.instance()
    app.setProperty("table_zoom", None)
    if app.property("large_print"):
        w.set_large_print(False)


def deal(qtbot, window):
    from ui.qt import Qt

    qtbot.mouseClick(window.pages["practice"].deal_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(visible_tables(window)))


def visible_tables(window):
    from ui.table.base import TableView

    return [v for v in window.findChildren(TableView) if v.isVisible()]


def table_of(window):
    (view,) = visible_tables(window)
    return view


def shown_width(view, seat_bet) -> float:
    """How wide a wager's area is on the screen, in pixels."""
    spot = view.spots[seat_bet]
    return view.viewportTransform().mapRect(spot.hit.sceneBoundingRect()).width()


def key(qtbot, window, k, modifiers=None):
    from ui.qt import Qt

    qtbot.keyClick(window, k, modifiers if modifiers is not None else Qt.KeyboardModifier.ControlModifier)


def test_ctrl_plus_zooms_the_table_ctrl_minus_and_ctrl_0_bring_it_back(qtbot, window):
    from ui.qt import Qt

    view = table_of(window)
    some = next(iter(view.spots))
    whole = shown_width(view, some)
    assert not view.horizontalScrollBar().isVisible()
    key(qtbot, window, Qt.Key.Key_Plus)
    key(qtbot, window, Qt.Key.Key_Plus)
    assert shown_width(view, some) == pytest.approx(whole * 1.25 ** 2, rel=0.03)
    assert view.horizontalScrollBar().maximum() > 0, "a closer table scrolls"
    key(qtbot, window, Qt.Key.Key_Minus)
    assert shown_width(view, some) == pytest.approx(whole * 1.25, rel=0.03)
    key(qtbot, window, Qt.Key.Key_0)
    assert shown_width(view, some) == pytest.approx(whole, rel=0.01)
    assert view.horizontalScrollBar().maximum() == 0
    key(qtbot, window, Qt.Key.Key_Minus)  # never smaller than the whole table
    assert shown_width(view, some) == pytest.approx(whole, rel=0.01)


def test_the_zoom_holds_for_another_game(qtbot, window):
    from ui.qt import Qt

    key(qtbot, window, Qt.Key.Key_Plus)
    first = table_of(window)
    page = window.pages["practice"]
    page.game.setCurrentIndex((page.game.currentIndex() + 1) % page.game.count())
    deal(qtbot, window)
    second = table_of(window)
    assert second is not first and second.game_id != first.game_id
    assert second.zoom == pytest.approx(1.25)
    assert second.horizontalScrollBar().maximum() > 0


def test_ctrl_wheel_zooms_at_the_pointer(qtbot, window):
    """The point under the pointer stays under it, as in every zooming viewer."""
    from ui.qt import QApplication, QPoint, QPointF, Qt, QWheelEvent

    view = table_of(window)
    middle = view.sceneRect().center()
    target = min((s.anchor for s in view.spots.values()),
                 key=lambda p: (p.x() - middle.x()) ** 2 + (p.y() - middle.y()) ** 2)
    at = QPointF(view.mapFromScene(target))
    for _ in range(2):
        wheel = QWheelEvent(at, QPointF(view.viewport().mapToGlobal(at.toPoint())), QPoint(0, 0),
                            QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), wheel)
    assert view.zoom == pytest.approx(1.25 ** 2)
    now = view.mapFromScene(target)
    assert abs(now.x() - at.x()) <= 2 and abs(now.y() - at.y()) <= 2


def test_large_print_makes_the_words_and_the_table_bigger_and_is_remembered(qtbot, window):
    from ui.qt import QApplication, QLabel, QSettings, Qt
    from ui.table.items import TagItem, TextItem

    def odds_px(view):
        return max(t._font.pixelSize() for t in view.layout_items()
                   if isinstance(t, TextItem) and t.text in ("15 to 1", "30 to 1", "1 to 1"))

    def label_height(view):
        """The chip labels' type: the largest a label is drawn in (a crowded label may fold onto
        two lines, so the pill's height alone says little)."""
        view.set_state(busy(view.game_id))
        return max(t._font.pixelSize() for t in view.scene().items()
                   if isinstance(t, TagItem) and t.toolTip().startswith("Seat "))

    def words_pt():
        """The size of plain words in the window: a label's, which no rule of the theme names."""
        label = QLabel("words", window)
        label.ensurePolished()
        size = label.font().pointSizeF()
        label.deleteLater()
        return size

    view = table_of(window)
    before_px, before_label = odds_px(view), label_height(view)
    key(qtbot, window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    app = QApplication.instance()
    assert app.property("large_print") is True
    assert words_pt() == pytest.approx(14.3), "the 11 pt body text is 30% larger"
    assert QSettings().value("view/large_print", type=bool) is True
    assert odds_px(view) > before_px, "the printed odds are redrawn larger"
    assert label_height(view) > before_label * 1.2
    key(qtbot, window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert words_pt() == 11 and odds_px(view) == before_px


def test_large_print_keeps_the_table_working(qtbot, window):
    """Redrawing the layout larger keeps every wager's area clickable and the state drawn."""
    from ui.qt import Qt

    view = table_of(window)
    state = busy(view.game_id)
    view.set_state(state)
    window.set_large_print(True)
    assert len(view.spots) > 0 and view.state == state
    seat, bet = next(iter(view.spots))
    hits = []
    view.wager_clicked.connect(lambda s, b: hits.append((s, b)))
    point = view.mapFromScene(view.area_pos(seat, bet))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert hits[-1] == (seat, bet)


# --- the dice in words -----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "dice", "words"), [
    ("props-and-hops", [2, 5], "The dice: 2, 5."),
    ("pai-gow-dice", [6, 3, 1], "The dice: red die 6, blue die 3, blue die 1."),
    ("three-dice-football", [4, 5, 2], "The dice: green die 4, green die 5, red die 2."),
    ("high-roll-dice", [5, 5, 5, 2, 2, 6, 1, 5, 3, 4], "The dice: 4 × 5, 2 × 2, 1 × 1, 1 × 3, 1 × 4, 1 × 6."),
])
def test_the_dice_are_announced_in_words_when_they_show(qtbot, game, dice, words):
    from trainer import TableState
    from ui.table import table_view

    view = table_view(game)
    qtbot.addWidget(view)
    said = []
    view.announced.connect(said.append)
    view.set_state(TableState(players={1: "Ana"}, dice=tuple(dice), dice_visible=False))
    assert said == [], "covered dice are not announced"
    view.set_state(TableState(players={1: "Ana"}, dice=tuple(dice), dice_visible=True))
    assert said == [words]
    assert view.accessibleDescription() == words
    view.set_state(TableState(players={1: "Ana", 2: "Ben"}, dice=tuple(dice), dice_visible=True))
    assert said == [words], "the same dice are said once while they lie"
    view.set_state(TableState(players={1: "Ana"}, dice=tuple(dice), dice_visible=False))
    view.set_state(TableState(players={1: "Ana"}, dice=tuple(dice), dice_visible=True))
    assert said == [words, words], "the same faces thrown again are said again"


@pytest.mark.parametrize(("kind", "words"), [
    ("lost-die", "The dice: red die 6, blue die 3, blue die not seen. The blue die cannot be seen."),
    ("die-on-die", "The dice: red die not seen, blue die 3, blue die 1. The blue die rests on top "
                   "of another die, which cannot be read."),
    ("die-off-table", "The dice: red die 6, blue die 3, blue die 1. The blue die is off the felt."),
])
def test_words_say_what_the_drawing_shows_and_no_face_it_hides(qtbot, kind, words):
    """A face the drawing hides (the lost die, the die under another) is not said; where a die
    lies oddly is said as it is drawn, never by the rule's name (from difficulty 3 and in exams
    the trainee must notice it, by ear as by eye)."""
    from trainer import TableState
    from ui.table import table_view

    view = table_view("pai-gow-dice")
    qtbot.addWidget(view)
    view.name_irregularities = False
    view.set_state(TableState(players={1: "Ana"}, dice=(6, 3, 1), dice_visible=True, irregular=kind,
                              named=True))
    assert view.accessibleDescription() == words
    names = view.game.no_roll_names.values()
    assert not [n for n in names if n.lower() in words.lower()], "the rule's name is not said"


@pytest.mark.parametrize(("difficulty", "named"), [(1, True), (3, False)])
def test_the_irregular_throw_is_said_only_where_it_is_named(qtbot, practice_screen, difficulty, named):
    """The words follow the drawing: the caption's words after the call at difficulty 1–2, and
    never from difficulty 3 (the trainee must notice it)."""
    from tests.support.scenario_text import one_player_scenario
    from trainer.scenario import parse

    screen = practice_screen
    text = one_player_scenario("props-and-hops", [{"type": "no-roll", "reason": "die-on-die"},
                                                  {"type": "throw", "dice": [2, 5]}],
                               difficulty=difficulty, skills='["no-roll"]')
    screen.start(parse(text, "t.toml"), automation=Automation.WHOLE_ROUND)
    said = []
    screen.view.announced.connect(said.append)
    while screen.round.next_expected().do is not Do.NO_ROLL:
        do_next(qtbot, screen)
    assert said and all("top of the other" not in s.lower() for s in said), said
    do_next(qtbot, screen)  # the trainee calls the no roll
    assert ("top of the other" in screen.view.accessibleDescription().lower()) is named
