"""The table views: each game's layout has an area for every seat and bet, a click names the right
(seat, bet), chips show their amount, every irregular throw is drawn with its caption, redrawing
does not pile up items, and no animation outlives a view. How a table looks is checked against
golden images in tests/test_golden.py."""

from __future__ import annotations

import pytest

from tests.support.tables import GAMES, bets, busy, irregular_kinds, paint_items
from trainer.games import get as get_game
from trainer.readings import SEATS
from trainer.settlement import Wager as W
from trainer.table_state import TableState


@pytest.fixture
def make_view(qtbot):
    """A table view at 1600 x 900, closed after the test; `shown`: on the screen, painted.

    What a view draws (its areas, chips, labels, dice, captions, in scene units) is on its scene
    whether it is shown or not (only an irregular throw's pulse waits for the screen): a test of
    what is drawn where reads the scene, and a view not shown is never painted, which such a
    test would not look at.
    Shown are the views whose test needs the screen: a click at a point of the shown table, an
    irregular throw's pulse (it runs only while the view is shown, ui.table.dice), a sealed
    exam's view that must not pulse, and each picture of the view (`grab_of`). How a table looks
    is tests/test_golden.py's."""
    from ui.table import table_view

    views = []

    def make(game: str, options: dict | None = None, *, shown: bool = False):
        view = table_view(game, options)
        qtbot.addWidget(view)
        view.resize(1600, 900)
        if shown:
            view.show()
            qtbot.waitExposed(view)
        views.append(view)
        return view

    yield make
    for view in views:
        view.close()


@pytest.fixture(scope="module")
def busy_view(qapp):
    """Each game's view at 1600 x 900 with its busy state drawn, made once and shared by the
    tests that only read it (what is on its scene: areas, dice, labels); never shown. A test
    that sets a state or shows the view makes its own (`make_view`)."""
    from tests.support.qt import KEPT
    from ui.table import table_view

    made = {}

    def view_of(game: str):
        if game not in made:
            view = table_view(game)
            view.resize(1600, 900)
            view.set_state(busy(game))
            view.setProperty(KEPT, True)  # made in the module's first test of the game, kept for the rest
            made[game] = view
        return made[game]

    yield view_of
    for view in made.values():
        view.close()
        view.deleteLater()


def items_of(view, kind):
    """Items of a kind, whether printed (the cached layout) or live on the scene."""
    return [i for i in [*view.scene().items(), *view.layout_items()] if isinstance(i, kind)]


# --- drawing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_bet_has_an_area_at_every_seat(busy_view, game):
    view = busy_view(game)
    expected = {(s, b) for s in range(1, SEATS[game] + 1) for b in bets(game)}
    assert set(view.spots) == expected


@pytest.mark.parametrize("game", GAMES)
def test_set_state_twice_does_not_duplicate_items(make_view, game):
    view = make_view(game)
    state = busy(game, irregular=irregular_kinds(game)[0])
    view.set_state(state)
    once = len(view.scene().items())
    view.set_state(state)
    assert len(view.scene().items()) == once
    view.set_state(TableState(players={}))
    assert len(view.scene().items()) < once


@pytest.mark.parametrize("game", GAMES)
def test_an_action_redraws_only_the_wager_it_touched(make_view, game):
    from ui.table.items import ChipStackItem

    def stacks():
        return {i.key: i for i in view.scene().items() if isinstance(i, ChipStackItem)
                and i.toolTip().find("paid") < 0}

    view = make_view(game)
    state = busy(game, marks={}, payouts={})
    view.set_state(state)
    before = stacks()
    first, second = state.wagers[0], state.wagers[-1]
    touched = (first.seat, first.bet)
    view.set_state(busy(game, marks={touched: "collected"}, payouts={},
                        wagers=[w for w in state.wagers if w != second]))
    after = stacks()
    assert after[touched] is not before[touched]  # drawn again, faded
    assert after[touched].opacity() < 1
    assert (second.seat, second.bet) not in after  # gone with its wager
    kept = [k for k in before if k not in (touched, (second.seat, second.bet))]
    assert kept and all(after[k] is before[k] for k in kept)
    assert all(i.scene() is None for k, i in before.items() if k not in after)


# --- clicks -------------------------------------------------------------------------------------------

CLICKS = [
    ("props-and-hops", 3, "double-3-3"), ("props-and-hops", 1, "any-1-5"), ("props-and-hops", 2, "hop-top"),
    ("props-and-hops", 6, "field"), ("props-and-hops", 5, "three-four-and-over"),
    ("props-and-hops", 4, "six-eight-shake"),
    ("three-dice-football", 16, "touchdown"), ("three-dice-football", 1, "game-length-3"),
    ("three-dice-football", 9, "trips-td"), ("three-dice-football", 8, "under-four-yards"),
    ("high-roll-dice", 1, "pip-ace"), ("high-roll-dice", 6, "pip-2"), ("high-roll-dice", 2, "like-kind-8"),
    ("high-roll-dice", 6, "millionaire-9"), ("high-roll-dice", 3, "extra-roll"),
    ("high-roll-dice-6", 4, "like-kind-none"), ("high-roll-dice-6", 5, "like-kind-2"),
    ("pai-gow-dice", 2, "sum"), ("pai-gow-dice", 5, "match-4"), ("pai-gow-dice", 1, "beat-it"),
]


def click(qtbot, view, seat: int, bet: str) -> list:
    from ui.qt import Qt

    point = view.mapFromScene(view.area_pos(seat, bet))
    with qtbot.waitSignal(view.wager_clicked, timeout=1000) as blocker:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    return blocker.args


def clicks_of(game: str) -> list[tuple[int, str]]:
    """The (seat, bet) areas of CLICKS on one game's table."""
    return [(seat, bet) for g, seat, bet in CLICKS if g == game]


@pytest.mark.parametrize("game", GAMES)
def test_clicking_an_empty_area_names_its_seat_and_bet(qtbot, make_view, game):
    """Each area of CLICKS on the game's table, clicked in turn on one view (a click changes
    nothing on it), names its own seat and bet."""
    view = make_view(game, shown=True)
    for seat, bet in clicks_of(game):
        assert click(qtbot, view, seat, bet) == [seat, bet]
    view.close()  # shown for the clicks, not to be painted after them


@pytest.mark.parametrize("game", GAMES)
def test_clicking_the_chips_names_their_wager(qtbot, make_view, game):
    """Each wager of CLICKS alone on the table, in turn on one view (the one before it taken
    off by the state that puts it there), named by a click on its chips."""
    from ui.table.items import ChipStackItem

    view = make_view(game, shown=True)
    for seat, bet in clicks_of(game):
        view.set_state(TableState(players={seat: "Ana"}, wagers=[W(seat, bet, 2500)]))
        assert [i.key for i in view.scene().items() if isinstance(i, ChipStackItem)] == [(seat, bet)]
        assert click(qtbot, view, seat, bet) == [seat, bet]
    view.close()  # shown for the clicks, not to be painted after them


def test_six_eight_shake_wagers_fill_the_circles_from_the_dealers_right(make_view):
    view = make_view("props-and-hops")
    view.set_state(TableState(players={2: "Ben", 5: "Eve"},
                              wagers=[W(2, "six-eight-shake", 500), W(5, "six-eight-shake", 500)]))
    first, second = view.shake_centres[:2]
    assert view.spots[(5, "six-eight-shake")].anchor.x() == first.x()  # the player to the dealer's right
    assert view.spots[(2, "six-eight-shake")].anchor.x() == second.x()


# --- chips --------------------------------------------------------------------------------------------


def test_a_chip_stack_tooltip_names_the_amount(make_view):
    from ui.table.items import ChipStackItem

    view = make_view("props-and-hops")
    view.set_state(TableState(players={3: "Carmen"}, wagers=[W(3, "field", 123450)]))
    stacks = [s for s in items_of(view, ChipStackItem) if getattr(s, "key", None) == (3, "field")]
    assert len(stacks) == 1
    tip = stacks[0].toolTip()
    assert "$1,234.50" in tip and "Field" in tip and "1 × $1,000" in tip


def test_chips_are_the_fewest_of_real_denominations():
    from ui.table.items import chip_breakdown, chips_drawn

    assert chip_breakdown(123450) == [100000, 10000, 10000, 2500, 500, 100, 100, 100, 100, 0]
    assert chip_breakdown(2500) == [2500]
    many = chip_breakdown(499900)  # 4 × 1000, 500, 4 × 100, 3 × 25, 4 × 5, 4 × 1 = 20 chips
    shown = chips_drawn(many)
    assert len(many) == 20 and len(shown) == 8
    assert set(shown) == set(many), "every denomination still shows"


def test_a_paid_wager_shows_its_payout_beside_it(make_view):
    from ui.table.items import ChipStackItem

    view = make_view("pai-gow-dice")
    view.set_state(TableState(players={1: "Ana"}, wagers=[W(1, "sum", 1000)], marks={(1, "sum"): "paid"},
                              payouts={(1, "sum"): 25000}))
    amounts = sorted(s.cents for s in items_of(view, ChipStackItem) if getattr(s, "key", None) == (1, "sum"))
    assert amounts == [1000, 25000]


@pytest.mark.parametrize("mark", ["held", "refused", "offered", "paid", "collected"])
def test_each_mark_is_labelled(make_view, mark):
    from ui.table.items import TagItem

    view = make_view("high-roll-dice")
    view.set_state(TableState(players={4: "Dmitri"}, wagers=[W(4, "like-kind-5", 500)],
                              marks={(4, "like-kind-5"): mark}, payouts={(4, "like-kind-5"): 2000}))
    labels = [t.text for t in items_of(view, TagItem)]
    words = [mark.upper(), "$20", "on", "$5"] if mark == "paid" else [mark.upper(), "$5"]  # paid $20
    assert any(t.split() == words for t in labels), labels


def test_held_like_kind_wagers_from_the_round_are_marked(make_view):
    from ui.table.items import TagItem

    view = make_view("high-roll-dice")
    round_state = {"face": 1, "count": 4, "held": [(4, "like-kind-7")], "extra_roll": True}
    view.set_state(TableState(players={4: "Dmitri"}, wagers=[W(4, "like-kind-7", 500)], state=round_state))
    assert "HELD $5" in {t.text for t in items_of(view, TagItem)}


def test_a_wager_with_no_area_or_an_unknown_mark_is_an_error(make_view):
    view = make_view("pai-gow-dice")
    with pytest.raises(ValueError, match="no 'field' area"):
        view.set_state(TableState(players={}, wagers=[W(1, "field", 500)]))
    with pytest.raises(ValueError, match="unknown mark"):
        view.set_state(TableState(players={}, wagers=[W(1, "sum", 500)], marks={(1, "sum"): "lost"}))


# --- markers and dice -----------------------------------------------------------------------------------


def test_props_and_hops_shows_lammers_and_the_pointer(make_view):
    from ui.table.items import PointerItem, PuckItem

    view = make_view("props-and-hops")
    view.set_state(busy("props-and-hops"))  # the dice show 3-3, and no pointer is placed yet
    lammers = [p for p in items_of(view, PuckItem) if p.toolTip() == "Lammer"]
    assert len(lammers) == 6
    assert items_of(view, PointerItem) == []
    view.set_state(busy("props-and-hops", placed={"place-pointer": "2-5"}))  # put there, though wrong
    pointers = items_of(view, PointerItem)
    assert len(pointers) == 1
    assert view.cells["2-5"].contains(pointers[0].pos())


def test_football_pucks_and_marker_follow_the_state(make_view):
    from ui.table.items import PuckItem, TagItem

    def tips():
        return {p.toolTip() for p in items_of(view, PuckItem)}

    view = make_view("three-dice-football")
    view.set_state(busy("three-dice-football", state={}))  # before the markers are set
    assert tips() == {"Game Length Puck: not set"}
    assert not [t for t in items_of(view, TagItem) if t.toolTip().startswith("Yard Marker")]
    view.set_state(busy("three-dice-football", state={"yard_line": 20, "down": "1st Down",
                                                      "plays": 0}))
    assert {"Down Puck: 1st Down", "Game Length Puck: play 1"} <= tips()  # § 577.6(a)
    view.set_state(busy("three-dice-football"))  # after play 1: 2nd Down, and play 2 next
    assert {"Down Puck: 2nd Down", "Game Length Puck: play 2"} <= tips()  # § 577.6(c)(1)
    assert "Yard Marker: the 13" in {t.toolTip() for t in items_of(view, TagItem)}
    view.set_state(busy("three-dice-football", state={"yard_line": 0, "down": None, "plays": 2,
                                                      "touchdown": True, "extra_point_roll": True}))
    assert {"Down Puck: Extra Point", "Game Length Puck: play 2"} <= tips()  # ended on play 2


def test_high_roll_moves_the_winning_dice_into_their_box(busy_view):
    from ui.table.items import DieItem

    view = busy_view("high-roll-dice")
    box = view.face_boxes[5]
    moved = [d for d in items_of(view, DieItem) if box.contains(d.pos())]
    assert len(moved) == 4 and all(d.face == 5 for d in moved)
    assert view.face_boxes[1].left() > view.face_boxes[2].left(), "Ace at the dealer's left, Two at the right"


@pytest.mark.parametrize("game", GAMES)
def test_the_dice_show_their_colours(busy_view, game):
    from ui.table.items import DieItem

    view = busy_view(game)
    thrown = [d for d in items_of(view, DieItem) if d.zValue() >= 20]
    colours = sorted(d.colour_name for d in thrown)
    expected = {"three-dice-football": ["green", "green", "red"], "pai-gow-dice": ["blue", "blue", "red"]}
    if game in expected:
        assert colours == expected[game]
    else:
        assert set(colours) == {"white"}


# --- irregular throws and animations ------------------------------------------------------------------


@pytest.mark.parametrize(("game", "kind"), [(g, k) for g in GAMES for k in irregular_kinds(g)])
def test_every_irregular_throw_is_drawn_with_its_caption(make_view, game, kind):
    """Each irregular throw is named by one caption in the game's words, which pulses; the caption
    stands beside the dice, not over a die the trainee must read."""
    from ui.table.base import caption
    from ui.table.items import CaptionItem, DieItem

    view = make_view(game, shown=True)
    view.set_state(busy(game, irregular=kind, cocked_die=1 if kind == "cocked" else None, named=True))
    captions = [c.text for c in items_of(view, CaptionItem)]
    if kind == "cocked":  # the second die, by its colour where the game's dice have colours
        assert captions == [view.caption_text(kind, 1)]
    else:  # a no roll in the game's own words, or the lost die
        assert captions == [get_game(game).no_roll_names.get(kind) or caption(kind)]
        assert "-" not in captions[0], "an internal id reached the trainee"
    [shown] = items_of(view, CaptionItem)
    box = shown.sceneBoundingRect()
    thrown = [i for i in view.scene().items() if isinstance(i, DieItem)]  # not the printed ones
    covered = [d for d in thrown if box.intersects(d.sceneBoundingRect())]
    assert not covered, f"{kind}: the caption covers {len(covered)} dice"
    assert view.animations_running(), "the irregular throw pulses so that it is noticed"
    view.stop_animations()
    assert not view.animations_running()
    paint_items(view)  # each item of the throw painted by its own paint()
    view.close()  # not painted again at full size: the golden images show how a throw looks


def test_closing_a_view_leaves_no_timer_or_animation(make_view):
    from ui.qt import QTimer

    view = make_view("props-and-hops", shown=True)
    view.set_state(busy("props-and-hops", irregular="die-on-die", named=True))
    assert view.animations_running()
    view.close()
    assert not view.animations_running()
    assert not [t for t in view.findChildren(QTimer) if t.isActive()]


def test_the_hop_regions_follow_the_options(make_view):
    default = make_view("props-and-hops")
    assert not default.region_outlines["top"].contains(default.cells["6-6"].center())
    top = ["6-6", "1-2", "1-3", "1-4", "1-5", "1-6", "2-3", "2-4"]
    view = make_view("props-and-hops", {"hop_regions": {"top": top}})
    assert view.region_outlines["top"].contains(view.cells["6-6"].center())
    assert view.region_outlines["left"].contains(view.cells["1-1"].center())


def test_pai_gow_prints_the_paytable_in_use_and_says_it_is_reconstructed(make_view):
    from ui.table.items import TextItem

    view = make_view("pai-gow-dice", {"sum_paytable": "B", "beat_it_paytable": "C"})
    words = {t.text for t in items_of(view, TextItem)}
    assert "SUM · PAYTABLE B" in words and "BEAT IT · PAYTABLE C" in words
    assert any("Reconstructed" in w and "Rules Submission" in w for w in words)


@pytest.mark.parametrize("game", GAMES)
def test_a_sealed_exam_draws_the_irregular_throw_but_never_names_it(make_view, game):
    from ui.table.items import CaptionItem, PulseItem

    kind = irregular_kinds(game)[0]
    view = make_view(game, shown=True)
    view.name_irregularities = False  # what the practice screen sets in exam mode
    view.set_state(busy(game, irregular=kind, named=True))
    assert items_of(view, CaptionItem) == [] and items_of(view, PulseItem) == []
    assert not view.animations_running()
    view.close()  # not painted at full size: its dice are the golden image's (tests/test_golden.py)


# --- labels: every stack shows its value, and no label covers another or the printed words ------------


def labels_of(view):
    from ui.table.items import TagItem

    return [t for t in view.scene().items() if isinstance(t, TagItem) and t.toolTip().startswith("Seat ")]


@pytest.mark.parametrize("game", GAMES)
def test_every_stack_shows_its_value_in_words(busy_view, game):
    """Chips show their value, not colour alone: each stack's label prints its amount, and in a
    box every seat shares, its seat."""
    view = busy_view(game)
    state = busy(game)
    totals: dict = {}
    for w in state.wagers:
        totals[(w.seat, w.bet)] = totals.get((w.seat, w.bet), 0) + w.amount
    shown = {t.toolTip().split(":")[0]: t.text for t in labels_of(view)}
    for (seat, bet), cents in totals.items():
        text = shown[f"Seat {seat} · {view.catalogue[bet].name}"]
        dollars = f"${cents // 100:,}" + (f".{cents % 100:02d}" if cents % 100 else "")
        assert dollars in text.split(), (dollars, text)
        if view.spots[(seat, bet)].shared:
            assert text.startswith(f"{seat} ·")


@pytest.mark.parametrize("game", GAMES)
def test_no_label_covers_another_or_the_printed_words(busy_view, game):
    """OFFERED/PAID/COLLECTED once covered the odds and each other."""
    from ui.qt import QRectF

    view = busy_view(game)
    state = busy(game)
    rects = [t.sceneBoundingRect().adjusted(2, 2, -3, -3) for t in labels_of(view)]
    # High Roll marks the held wagers from its round state too: the view's state has every mark
    assert len(rects) == len({(w.seat, w.bet) for w in state.wagers} | set(view.state.marks))
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.intersects(b), (a, b)
    printed = [b for boxes in view.printed_obstacles().cells.values() for b in boxes]
    for left, top, right, bottom in printed:
        ink = QRectF(left, top, right - left, bottom - top)
        for a in rects:
            assert not a.intersects(ink), (a, ink)


def test_props_and_hops_chips_stay_inside_the_hop_region_outlines(make_view):
    """A chip straddled the Hop Center/Hop Right border: each stack in the grid now sits inside
    every region outline of its box, at every seat."""
    from trainer import TableState

    view = make_view("props-and-hops")
    regions = view.options["hop_regions"]
    for combo in view.cells:
        bet = f"double-{combo}" if combo[0] == combo[2] else f"any-{combo}"
        for seat in range(1, 7):
            view.set_state(TableState(players={seat: "A"}, wagers=[W(seat, bet, 500)]))
            (stack,) = [i for i in view.scene().items() if getattr(i, "cents", None) == 500]
            footprint = stack.sceneBoundingRect()
            count_badge = view.chip_r * 1.3 if stack.chips != stack.drawn else 0  # "×10" to the right
            left, right = footprint.left() + 2, footprint.right() - 2 - count_badge
            for name, combos in regions.items():
                if combo in combos:
                    inner = view.region_outlines[name].boundingRect().adjusted(2, 2, -2, -2)
                    assert inner.left() <= left and right <= inner.right(), (combo, seat, name)


@pytest.mark.parametrize("game", GAMES)
def test_a_paid_wager_is_labelled_with_what_it_was_paid(make_view, game):
    """"PAID $5" on a hard ten paid $149 showed the wager: the label says the payment too."""
    view = make_view(game)
    state = busy(game)
    paid = next(k for k, m in state.marks.items() if m == "paid")
    view.set_state(busy(game, payouts={paid: 14_900}))
    [label] = [t for t in labels_of(view)
               if t.toolTip().startswith(f"Seat {paid[0]} · {view.catalogue[paid[1]].name}:")]
    words = label.text.split()
    assert "PAID" in words and words[words.index("PAID") + 1] == "$149", label.text


@pytest.mark.parametrize("game", GAMES)
def test_the_selection_ring_never_covers_a_label(make_view, game):
    """The selected box's ring was drawn over the chips' labels on its edge."""
    from ui.qt import QGraphicsPathItem

    view = make_view(game)
    state = busy(game)
    for key in list(state.marks)[:4]:
        view.set_state(busy(game, selected=key))
        outline = view.spots[key].outline
        rings = [i for i in view.scene().items() if isinstance(i, QGraphicsPathItem) and i.path() == outline]
        assert rings, key
        for label in labels_of(view):
            for ring in rings:
                if ring.shape().intersects(label.sceneBoundingRect()):
                    assert label.zValue() > ring.zValue(), (key, label.text)


@pytest.mark.parametrize("large", [False, True], ids=["normal-print", "large-print"])
@pytest.mark.parametrize("game", GAMES)
def test_the_printed_words_never_run_into_each_other(make_view, game, large):
    """In large print "$1,000,000" ran into "10 of a kind", and a box's odds into its name."""
    from ui.qt import QApplication
    from ui.table.items import TextItem

    app = QApplication.instance()
    app.setProperty("large_print", large)
    try:
        view = make_view(game)
        words = [t for t in view.layout_items() if isinstance(t, TextItem) and t.text.strip()]
        inks = [(t.text, t.ink_rect().adjusted(1, 1, -1, -1)) for t in words]
    finally:
        app.setProperty("large_print", None)
    assert len(inks) > 20
    crossed = [(a, b) for i, (a, ra) in enumerate(inks) for b, rb in inks[i + 1:] if ra.intersects(rb)]
    assert not crossed, f"words run into each other: {crossed[:5]}"


#: the printed odds and payouts of a layout: "15 to 1", "8:1", "$1,000,000"
PRINTED_ODDS = r"\d+ to \d+|\d+:\d+|\$[\d,]+"


def one_in_every_box(view, cents: int) -> TableState:
    """A wager of `cents` in every box of the table, the seats taken in turn, with every mark
    (a paid wager's payout stack beside it)."""
    marks = ("paid", "collected", "held", "refused", "offered", "accepted", None)
    boxes = sorted({bet for seat, bet in view.spots if seat})
    seats = sorted({seat for seat, _ in view.spots if seat})
    wagers = [W(seats[i % len(seats)], bet, cents) for i, bet in enumerate(boxes)]
    marked = {(w.seat, w.bet): m for w, m in zip(wagers, marks * len(wagers), strict=False) if m}
    return TableState(players={}, wagers=wagers, marks=marked,
                      payouts={k: 250_000 for k, m in marked.items() if m == "paid"})


@pytest.mark.parametrize("large", [False, True], ids=["normal-print", "large-print"])
@pytest.mark.parametrize("game", GAMES)
def test_no_chips_or_label_on_the_printed_odds(make_view, game, large):
    """Chips sat on the printed odds: a tall stack in a short box reached up over them. A stack
    stands under the words above it (drawn shorter, counted), and no label covers them either."""
    import re

    from ui.qt import QApplication
    from ui.table.items import ChipStackItem, TagItem, TextItem

    app = QApplication.instance()
    app.setProperty("large_print", large)
    try:
        view = make_view(game)
        odds = [(t.text, t.ink_rect().adjusted(1, 1, -1, -1)) for t in view.layout_items()
                if isinstance(t, TextItem) and re.search(PRINTED_ODDS, t.text)]
        odds += [(t.text, t.sceneBoundingRect().adjusted(2, 2, -3, -3)) for t in view.layout_items()
                 if isinstance(t, TagItem)]  # a region's tab: "HOP THE TOP 3 to 2"
        assert len(odds) >= 5
        for state in (busy(game), one_in_every_box(view, 500), one_in_every_box(view, 123_450)):
            view.set_state(state)
            stacks = [i for i in view.scene().items() if isinstance(i, ChipStackItem)]
            assert stacks
            on = sorted({(s.toolTip().split("\n")[0], text) for s in stacks for text, r in odds
                         if s.sceneBoundingRect().adjusted(2, 2, -2, -2).intersects(r)})
            assert not on, f"chips on the printed odds: {on[:4]}"
            covered = [(label.text, text) for label in labels_of(view) for text, r in odds
                       if label.sceneBoundingRect().adjusted(2, 2, -3, -3).intersects(r)]
            assert not covered, f"labels on the printed odds: {covered[:4]}"
    finally:
        app.setProperty("large_print", None)


def grab_of(make_view, game: str):
    """A new view of `game`, at the busy state, as the screen shows it."""
    view = make_view(game, shown=True)
    view.set_state(busy(game))
    return view.grab().toImage()


@pytest.mark.parametrize("game", ["props-and-hops", "three-dice-football"])
def test_a_view_built_again_paints_the_printed_layout_as_a_new_one_would(make_view, game):
    """Views of the table at one size: the first paints its printed layout itself, the second
    into a painting kept (ui.table.backdrop), the third copies that; each paints what the first
    painted, and so does one painted with nothing kept or asked for."""
    from ui.table import backdrop

    backdrop._painted.clear()
    backdrop._asked.clear()
    first = grab_of(make_view, game)
    assert not backdrop._painted, "a painting asked for once is not kept"
    second = grab_of(make_view, game)
    kept = dict(backdrop._painted)
    assert len(kept) == 1, "a painting asked for again is kept"
    third = grab_of(make_view, game)
    assert dict(backdrop._painted).keys() == kept.keys(), "the third view painted nothing new"
    assert second == first
    assert third == first
    backdrop._painted.clear()
    backdrop._asked.clear()
    assert grab_of(make_view, game) == first


def test_a_view_in_large_print_is_never_painted_from_one_in_normal_print(make_view):
    """The printed layout in large print is another painting: a view in large print built after
    one in normal print paints its own, the same as one with nothing kept."""
    from ui.qt import QApplication
    from ui.table import backdrop

    game = "high-roll-dice"
    backdrop._painted.clear()
    backdrop._asked.clear()
    normal = grab_of(make_view, game)
    assert grab_of(make_view, game) == normal  # and now kept
    app = QApplication.instance()
    app.setProperty("large_print", True)
    try:
        large = grab_of(make_view, game)
        backdrop._painted.clear()
        backdrop._asked.clear()
        large_alone = grab_of(make_view, game)
    finally:
        app.setProperty("large_print", None)
    assert large != normal
    assert large == large_alone
