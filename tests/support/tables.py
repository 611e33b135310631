"""A busy table state for each game (every seat taken, every kind of mark) and its irregular
throws, as the table views and the golden images draw them; and a table's items painted."""

from __future__ import annotations

from trainer.games import get as get_game
from trainer.readings import SEATS
from trainer.settlement import Wager as W
from trainer.table_state import TableState

GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6", "pai-gow-dice")
NAMES = ("Ana", "Ben", "Carmen", "Dmitri", "Eve", "Farouk", "Gus", "Hana", "Ivan", "Jo", "Kai", "Lena",
         "Mo", "Nia", "Oz", "Pia")
DICE = {"props-and-hops": (3, 3), "three-dice-football": (4, 5, 2),
        "high-roll-dice": (5, 5, 3, 5, 1, 6, 5, 2, 6, 4), "high-roll-dice-6": (5, 5, 3, 5, 1, 6),
        "pai-gow-dice": (6, 3, 3)}
GAME_STATE = {
    "props-and-hops": {"lammers_left": ["1-5", "2-4", "2-6", "3-5", "4-4"], "lammers_moved": ["3-3"]},
    "three-dice-football": {"yard_line": 13, "down": "2nd Down", "plays": 1, "touchdown": False,
                            "extra_point_roll": False, "over": False},
    "high-roll-dice": {"face": 5, "count": 4, "held": [(1, "like-kind-6")], "extra_roll": True},
    "high-roll-dice-6": {"face": 5, "count": 4, "held": [], "extra_roll": False},
    "pai-gow-dice": {},
}
AMOUNTS = (500, 2500, 100, 10000, 700, 123450, 300000, 1500)


def bets(game: str) -> list[str]:
    g = get_game(game)
    return list(g.catalogue(g.parse_options({})))


def busy(game: str, **kw) -> TableState:
    """Every seat taken, several wagers each, every kind of mark."""
    seats = SEATS[game]
    names = dict(zip(range(1, seats + 1), NAMES, strict=False))
    catalogue = [b for b in bets(game) if not b.startswith("millionaire-")]
    wagers = [W(s, catalogue[(s * 5 + k * 3) % len(catalogue)], AMOUNTS[(s + k) % len(AMOUNTS)])
              for s in range(1, seats + 1) for k in range(3)]
    keys = list(dict.fromkeys((w.seat, w.bet) for w in wagers))
    marks = dict(zip(keys, ("paid", "collected", "held", "refused", "offered", "accepted"), strict=False))
    fields = {"players": names, "wagers": wagers, "marks": marks, "payouts": {keys[0]: 250000},
              "dice": DICE[game], "dice_visible": True, "shooter": 2, "state": GAME_STATE[game],
              "selected": keys[-1]}
    return TableState(**{**fields, **kw})


def irregular_kinds(game: str) -> list[str]:
    return [*get_game(game).no_rolls, "lost-die", "cocked"]


def paint_items(view, painted: set | None = None) -> set:
    """Every item on the table painted by its own paint(), into an image a quarter of the table's
    size; given `painted` (the items of the state before, each painted then), only the items not
    among them, each with the scene around it: an item a state keeps is the same item, drawn
    from what it was made with, and was painted in the state that brought it. The items on the
    table now. The view's own painting (the printed layout behind the items, at full size) is
    another test's: a grab of the view, the golden images (tests/test_golden.py)."""
    from ui.qt import QImage, QPainter, QRectF

    scene = view.scene()
    items = set(scene.items())
    image = QImage(320, 200, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    if not painted:
        scene.render(painter, QRectF(0, 0, 320, 200), scene.sceneRect())
    else:
        whole = scene.sceneRect()
        k = min(320 / whole.width(), 200 / whole.height())  # as the whole table is rendered
        for item in items - painted:
            around = item.sceneBoundingRect()
            scene.render(painter, QRectF(around.x() * k, around.y() * k, around.width() * k,
                                         around.height() * k), around)
    assert painter.end()
    return items
