"""The table view every game shares: a felt layout in fixed logical coordinates, drawn once from its
layout data, with the dynamic things (chips, dice, pucks, marks) redrawn on each `set_state`.

A game's view builds its static layout in `build()` and registers one clickable spot per
(seat, bet) with `add_spot`; chips, marks and the selection are then drawn here for every game.
The view is seen from the players' side, as a printed layout reads: the dealer at the top, the
players along the bottom, seat 1 (the dealer's far left) at the right.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from trainer.games import get as get_game
from trainer.paytables import layout, paytable
from trainer.procedure import Do
from trainer.table_state import COCKED, Mark, TableState
from ui.qt import (
    QAbstractAnimation,
    QColor,
    QEasingCurve,
    QFrame,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsView,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPointF,
    QPropertyAnimation,
    QRadialGradient,
    QRectF,
    Qt,
    QTransform,
    Signal,
)
from ui.table.items import (
    CREAM,
    CaptionItem,
    ChipStackItem,
    DieItem,
    HitItem,
    LidItem,
    PulseItem,
    TagItem,
    TextItem,
    colour,
    pen,
)

DEFAULT_STYLE = {
    "felt": "#0b5d3b",
    "felt_edge": "#063b25",
    "line": "#f3ead2",
    "text": "#f3ead2",
    "dim": "#9fc2ad",
    "rail": "#3a2417",
    "rail_edge": "#120904",
    "backdrop": "#0c100e",
    "accent": "#f2c14e",
    "selected": "#ffe14d",
}


class Z:
    FELT, PRINT, AREA, HIT, PUCK, CHIPS, PAYOUT, MARK, DICE, SELECT, ALERT = (
        0, 1, 2, 3, 6, 10, 11, 12, 20, 25, 40)


#: what each mark looks like: ring colour, tag text, tag fill, tag ink
MARKS = {
    Mark.COLLECTED: ("#9aa3a0", "COLLECTED", "#3b403e", "#e9ece9"),
    Mark.PAID: ("#f2c14e", "PAID", "#f2c14e", "#241800"),
    Mark.HELD: ("#4fc3f7", "HELD", "#4fc3f7", "#061c27"),
    Mark.REFUSED: ("#ff5252", "REFUSED", "#d32f2f", "#ffffff"),
    Mark.OFFERED: ("#ffb74d", "OFFERED", "#ffb74d", "#2a1600"),
    Mark.ACCEPTED: ("", "", "", ""),
}

#: the caption of each irregular throw; a cocked die and unknown reasons are worded in `caption`
CAPTIONS = {
    "die-fell-out": "A die fell out of the shaker",
    "die-on-die": "A die is resting on the other",
    "not-flat": "A die is not flat in the shaker",
    "lid-removed": "The player lifted the lid",
    "die-off-table": "A die went off the table",
    "lost-die": "A die is lost",
    "cocked-multiple-sides": "A die rests on more than one side",
    "not-simultaneous": "The dice were not thrown together",
    "missed-far-end": "The dice did not reach the far end",
    "on-bank-chips": "A die landed on the bank's chips",
    "in-dice-cup": "A die landed in the dice cup",
    "on-rail": "A die landed on the rail",
    "cheating-device": "A strange object among the dice",
    "improper": "An improper throw",
}


def caption(kind: str, die: int | None = None) -> str:
    """The short caption drawn for an irregular throw (`die`: the cocked die's place)."""
    if kind == COCKED:
        return f"Die {(die or 0) + 1} is cocked on a chip stack"
    return CAPTIONS.get(kind, kind.replace("-", " ").capitalize())


@dataclass
class Spot:
    """Where one seat's wager on one bet sits."""

    anchor: QPointF  # the centre of the chip stack's footprint
    outline: QPainterPath  # drawn when the wager is selected
    shared: bool  # a box every seat shares: the stack carries its seat number
    hit: HitItem


@dataclass
class DieSpec:
    """One die to draw at rest: face, colour, centre, rotation in degrees."""

    face: int
    colour: str
    pos: QPointF
    rotation: float = 0.0


def rect(values: Iterable[float]) -> QRectF:
    x, y, w, h = values
    return QRectF(x, y, w, h)


def rounded(r: QRectF, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(r, radius, radius)
    return path


def ellipse(centre: QPointF, rx: float, ry: float | None = None) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(centre, rx, rx if ry is None else ry)
    return path


class TableView(QGraphicsView):
    """The base of every game's table view (see the module docstring)."""

    wager_clicked = Signal(int, str)
    #: the layout file (resources/layouts/<layout_id>.toml); the game id unless a view says otherwise
    layout_id: str = ""
    #: the word on the marker of the player who throws
    shooter_word = "SHOOTER"
    #: what a die is called in a caption, by its place in TableState.dice (else "die N")
    die_names: tuple[str, ...] = ()
    #: caption and pulse an irregular throw; off in a sealed exam, where the trainee must notice
    #: it from the dice alone
    name_irregularities = True
    #: the game's dealer actions in the order a round uses them, each with its key (the action bar)
    actions: tuple[tuple[Do, str], ...] = ()
    #: (game id, the bundled scenario the table's screenshot deals, how many actions it works
    #: first) for each game the view draws (`dealer-trainer --screenshot F --screen table-<game>`)
    showcase: tuple[tuple[str, str, int], ...] = ()

    @classmethod
    def actions_for(cls, game_id: str) -> tuple[tuple[Do, str], ...]:
        """The actions of one game this view draws (a view may draw variants of a game)."""
        return cls.actions

    def __init__(self, game_id: str, options: dict | None = None, parent=None):
        super().__init__(parent)
        self.game_id = game_id
        self.game = get_game(game_id)
        self.options = self.game.parse_options(self.raw_options(dict(options or {})))
        self.catalogue = self.game.catalogue(self.options)
        self.pays = paytable(game_id)
        self.data = layout(self.layout_id or game_id)
        self.geo = self.data["view"]
        self.style = {k: colour(v) for k, v in {**DEFAULT_STYLE, **self.geo.get("style", {})}.items()}
        self.chip_r = float(self.geo["chip_radius"])
        w, h = self.geo["size"]
        self._scene = QGraphicsScene(0, 0, w, h, self)
        self._print = QGraphicsScene(0, 0, w, h, self)
        self.setScene(self._scene)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setBackgroundBrush(self.style["backdrop"])
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(320, 180)
        self.spots: dict[tuple[int, str], Spot] = {}
        self.seat_plates: dict[int, QRectF] = {}
        self._dynamic: list[QGraphicsItem] = []
        self._groups: dict[str, tuple[tuple, list[QGraphicsItem]]] = {}
        # each wager's stack and mark, by what it shows: an action redraws only the wagers it touched
        self._stacks: dict[tuple, list[QGraphicsItem]] = {}
        self._animations: list[QPropertyAnimation] = []
        self.state = TableState(players={})
        self.build()
        self.set_state(self.state)

    # --- what a game's view provides ---------------------------------------------------------------

    def raw_options(self, options: dict) -> dict:
        """The options as the game's parse_options reads them."""
        return options

    def build(self) -> None:
        """Draw the static layout and register every (seat, bet) spot."""
        raise NotImplementedError

    def draw_state(self, state: TableState) -> None:
        """Draw the game's own dynamic things: dice, pucks, markers."""

    def dice_anchor(self) -> QRectF:
        """Where the dice come to rest (the irregular-throw drawings start from it)."""
        raise NotImplementedError

    def off_table_point(self) -> QPointF:
        """Where a die that went off the table is drawn: on the rail, beyond the felt."""
        return QPointF(self.sceneRect().width() * 0.5, 12)

    # --- the Qt side ----------------------------------------------------------------------------

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.fit()
        for a in self._animations:
            if a.state() != QAbstractAnimation.State.Running:
                a.start()

    def fit(self) -> None:
        """Scale the whole layout into the view, keeping its aspect."""
        r = self.sceneRect()
        vw, vh = self.viewport().width(), self.viewport().height()
        if vw <= 0 or vh <= 0:
            return
        s = min(vw / r.width(), vh / r.height())
        self.setTransform(QTransform.fromScale(s, s))
        self.centerOn(r.center())


    def drawBackground(self, painter, rect) -> None:
        """The backdrop, then the printed layout. The view caches this (CacheBackground), so a
        redraw after an action repaints the chips and dice only."""
        super().drawBackground(painter, rect)
        self._print.render(painter, rect, rect)

    def layout_items(self) -> list:
        """Every item of the printed layout (it is drawn as the view's background)."""
        return self._print.items()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            key = self.key_at(event.position().toPoint())
            if key is not None:
                self.wager_clicked.emit(*key)
                event.accept()
                return
        super().mousePressEvent(event)

    def key_at(self, view_point) -> tuple[int, str] | None:
        """The (seat, bet) under a point of the viewport: a chip stack's, or an area's."""
        for item in self.items(view_point):
            while item is not None:
                key = getattr(item, "key", None)
                if key is not None:
                    return key
                item = item.parentItem()
        return None

    def closeEvent(self, event) -> None:
        self.stop_animations()
        super().closeEvent(event)

    def hideEvent(self, event) -> None:
        self.stop_animations()
        super().hideEvent(event)

    def stop_animations(self) -> None:
        """Stop every running animation (none may outlive the view)."""
        for a in self._animations:
            a.stop()

    def animations_running(self) -> bool:
        return any(a.state() == QAbstractAnimation.State.Running for a in self._animations)

    # --- building helpers ------------------------------------------------------------------------

    def add(self, item: QGraphicsItem, z: float = Z.PRINT, *, dynamic: bool = False) -> QGraphicsItem:
        item.setZValue(z)
        if dynamic or getattr(item, "key", None) is not None:
            self._scene.addItem(item)  # what changes, and what a click finds
        else:
            self._print.addItem(item)  # the printed layout: painted as the cached background
        if dynamic:
            self._dynamic.append(item)
        return item

    def pen(self, width: float = 3, colour_name: str = "line", alpha: int = 255) -> QPen:
        c = QColor(self.style[colour_name])
        c.setAlpha(alpha)
        p = QPen(c, width)
        p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        return p

    def text(self, text: str, r: QRectF, px: float, colour_name: str = "text", *, z: float = Z.PRINT,
             dynamic: bool = False, **kw) -> TextItem:
        c = kw.pop("colour", None) or self.style[colour_name]
        return self.add(TextItem(text, r, px, c, **kw), z, dynamic=dynamic)

    def path(self, path: QPainterPath, pen: QPen | None = None, brush=None, z: float = Z.PRINT, *,
             dynamic: bool = False) -> QGraphicsPathItem:
        item = QGraphicsPathItem(path)
        item.setPen(pen if pen is not None else Qt.PenStyle.NoPen)
        item.setBrush(brush if brush is not None else Qt.BrushStyle.NoBrush)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        return self.add(item, z, dynamic=dynamic)

    def box(self, r: QRectF, radius: float = 10, *, width: float = 3, fill=None,
            colour_name: str = "line") -> QGraphicsPathItem:
        return self.path(rounded(r, radius), self.pen(width, colour_name), fill)

    def draw_table(self, felt: QPainterPath, rail_width: float = 26) -> None:
        """The padded rail and the felt inside it."""
        r = self.sceneRect()
        outer = felt.boundingRect().adjusted(-rail_width, -rail_width, rail_width, rail_width)
        scale = QTransform()
        scale.translate(outer.center().x(), outer.center().y())
        inner = felt.boundingRect()
        scale.scale(outer.width() / inner.width(), outer.height() / inner.height())
        scale.translate(-felt.boundingRect().center().x(), -felt.boundingRect().center().y())
        rail = scale.map(felt)
        g = QLinearGradient(0, r.top(), 0, r.bottom())
        g.setColorAt(0, self.style["rail"].lighter(120))
        g.setColorAt(0.5, self.style["rail"])
        g.setColorAt(1, self.style["rail"].darker(130))
        self.path(rail, QPen(self.style["rail_edge"], 3), g, Z.FELT)
        self.path(felt, QPen(QColor(0, 0, 0, 150), 5), None, Z.FELT)
        c = felt.boundingRect().center()
        g2 = QRadialGradient(c, max(r.width(), r.height()) * 0.62)
        g2.setColorAt(0, self.style["felt"].lighter(112))
        g2.setColorAt(0.7, self.style["felt"])
        g2.setColorAt(1, self.style["felt_edge"])
        self.path(felt, QPen(QColor(255, 255, 255, 35), 1.5), g2, Z.FELT)

    def add_spot(self, seat: int, bet: str, area: QPainterPath, anchor: QPointF, *, shared: bool,
                 outline: QPainterPath | None = None) -> Spot:
        """Register where (seat, bet) sits: `area` is clickable, `anchor` takes the chips."""
        if bet not in self.catalogue:
            raise ValueError(f"{bet!r} is not a bet of {self.game_id}")
        tip = f"Seat {seat} · {self.catalogue[bet].name}"
        hit = HitItem(area, seat, bet, tip)
        self.add(hit, Z.HIT)
        spot = Spot(anchor, outline if outline is not None else area, shared, hit)
        self.spots[(seat, bet)] = spot
        return spot

    def shared_spots(self, bet: str, box: QRectF, seats: list[int]) -> None:
        """A box every seat shares: one slice per seat, `seats` from left to right; the chips sit
        along the bottom of the box, each stack tagged with its seat."""
        w = box.width() / len(seats)
        r = self.chip_r
        for i, seat in enumerate(seats):
            part = QRectF(box.left() + i * w, box.top(), w, box.height())
            anchor = QPointF(part.center().x(), box.bottom() - r * 1.55 - 4)
            ring = rounded(QRectF(anchor.x() - w / 2 + 2, anchor.y() - r * 2.6, w - 4, r * 4.1), 8)
            self.add_spot(seat, bet, rounded(part, 2), anchor, shared=True, outline=ring)

    def area_pos(self, seat: int, bet: str) -> QPointF:
        """The scene point of (seat, bet)'s area, where its chips sit."""
        return QPointF(self.spots[(seat, bet)].anchor)

    def seat_plate(self, seat: int, r: QRectF) -> None:
        """A seat's name plate on the rail; the name itself is drawn by `set_state`."""
        self.seat_plates[seat] = r
        self.path(rounded(r, r.height() * 0.3), QPen(QColor(0, 0, 0, 170), 1.5), QColor(10, 8, 6, 150),
                  Z.PRINT)
        badge = QRectF(r.left() + 6, r.top() + 6, r.height() - 12, r.height() - 12)
        self.path(ellipse(badge.center(), badge.width() / 2), self.pen(2), self.style["felt_edge"], Z.PRINT)
        self.text(str(seat), badge, badge.height() * 0.6, z=Z.PRINT)

    def odds(self, entry: str, key: str = "win") -> str:
        """The printed odds of a paytable line, from the paytable data."""
        return self.pays[entry].line(key).text

    # --- state ----------------------------------------------------------------------------------

    def set_state(self, state: TableState) -> None:
        """Redraw what changed (chips, marks, dice, markers); the layout stays.

        The dynamic items come in groups; a group whose part of the state is unchanged keeps its
        items, and within the wagers each stack keeps its items while its amount, mark and payout
        stand, so an action repaints only what it touched."""
        self.state = state
        groups = (
            ("seats", (tuple(sorted(state.players.items())), state.shooter),
             lambda: self._draw_seats(state)),
            ("wagers", (tuple(state.wagers), tuple(sorted(state.marks.items())),
                        tuple(sorted(state.payouts.items()))), lambda: self._sync_wagers(state)),
            ("game", (state.dice, state.dice_visible, state.irregular, state.cocked_die,
                      repr(sorted(state.state.items())), tuple(state.wagers),
                      tuple(sorted(state.marks.items()))),
             lambda: self.draw_state(state)),
            ("selected", (state.selected,), lambda: self._draw_selected(self.spots[state.selected])
             if state.selected is not None and state.selected in self.spots else None),
        )
        for name, signature, draw in groups:
            old = self._groups.get(name)
            if old is not None and old[0] == signature:
                continue
            if old is not None:
                self._remove(old[1])
            if name == "game":
                self._clear_animations()
            self._dynamic = []
            draw()
            self._groups[name] = (signature, self._dynamic)
        self._dynamic = []

    def _remove(self, items: list) -> None:
        for item in items:
            if item.scene() is self._scene:
                self._scene.removeItem(item)

    def _clear_animations(self) -> None:
        self.stop_animations()
        for a in self._animations:
            a.deleteLater()
        self._animations.clear()

    def _clear_dynamic(self) -> None:
        self._clear_animations()
        for _, items in self._groups.values():
            self._remove(items)
        self._groups.clear()
        for items in self._stacks.values():
            self._remove(items)
        self._stacks.clear()

    def _draw_seats(self, state: TableState) -> None:
        for seat, r in self.seat_plates.items():
            name = state.players.get(seat)
            inner = QRectF(r.left() + r.height(), r.top(), r.width() - r.height() * 2.1, r.height())
            if name:
                self.text(name, inner, r.height() * 0.46, dynamic=True, z=Z.PRINT + 0.5,
                          align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            else:
                self.text("open", inner, r.height() * 0.36, "dim", dynamic=True, z=Z.PRINT + 0.5,
                          bold=False, italic=True,
                          align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if state.shooter is not None and state.shooter in self.seat_plates:
            self.draw_shooter(state.shooter)

    def draw_shooter(self, seat: int) -> None:
        """The shooter's (or Quarterback's) marker at the seat's plate."""
        r = self.seat_plates[seat]
        tag = TagItem(self.shooter_word, r.height() * 0.3, "#c8232c", "#ffffff", outline="#f4f1ea")
        tag.setPos(r.right() - tag.boundingRect().width() / 2 - 8, r.center().y())
        tag.setToolTip(f"{self.shooter_word.title()}: seat {seat}")
        self.add(tag, Z.PUCK, dynamic=True)

    def _sync_wagers(self, state: TableState) -> None:
        """Each wager's stack (or a mark on an empty area) drawn once for what it shows; a stack
        whose amount, mark or payout changed is drawn again, one no longer on the table goes."""
        totals: dict[tuple[int, str], int] = {}
        for w in state.wagers:
            totals[(w.seat, w.bet)] = totals.get((w.seat, w.bet), 0) + w.amount
        for key in [*totals, *(k for k in state.marks if k not in totals)]:
            if key not in self.spots:
                raise ValueError(f"seat {key[0]} has no {key[1]!r} area on the {self.game_id} layout")
        wanted = {}
        for key, cents in totals.items():
            mark = state.marks.get(key)
            if mark is not None and mark not in MARKS:
                raise ValueError(f"unknown mark {mark!r} for {key}")
            payout = state.payouts.get(key)
            wanted[(key, cents, mark, payout)] = (
                lambda key=key, cents=cents, mark=mark, payout=payout:
                self.draw_stack(key, cents, mark, payout))
        for key, mark in state.marks.items():
            if key not in totals:
                wanted[(key, None, mark, None)] = (
                    lambda key=key, mark=mark: self._draw_mark(self.spot_anchor(key), mark, None))
        for shown in [s for s in self._stacks if s not in wanted]:
            self._remove(self._stacks.pop(shown))
        for shown, draw in wanted.items():
            if shown not in self._stacks:
                self._dynamic = []
                draw()
                self._stacks[shown] = self._dynamic
        self._dynamic = []

    def spot_anchor(self, key: tuple[int, str]) -> QPointF:
        return self.spots[key].anchor

    def draw_stack(self, key: tuple[int, str], cents: int, mark: str | None, payout: int | None) -> None:
        spot = self.spots[key]
        seat, bet = key
        anchor = self.spot_anchor(key)
        title = f"Seat {seat} · {self.catalogue[bet].name}"
        stack = ChipStackItem(cents, self.chip_r, seat_tag=seat if spot.shared else None,
                              faded=mark == Mark.COLLECTED, title=title)
        stack.key = key
        stack.setPos(anchor)
        self.add(stack, Z.CHIPS + anchor.y() / 10000, dynamic=True)
        if mark in (Mark.REFUSED, Mark.OFFERED):
            stack.setOpacity(0.75)
        if mark == Mark.COLLECTED:
            stack.setOpacity(0.55)
        if mark == Mark.PAID and payout:
            pay = ChipStackItem(payout, self.chip_r, title=f"{title} — paid")
            pay.key = key
            pay.setPos(anchor + QPointF(self.chip_r * 1.25, -self.chip_r * 0.35))
            self.add(pay, Z.PAYOUT + anchor.y() / 10000, dynamic=True)
        self._draw_mark(anchor, mark, stack)

    def _draw_mark(self, anchor: QPointF, mark: str | None, stack: ChipStackItem | None) -> None:
        if mark not in MARKS and mark is not None:
            raise ValueError(f"unknown mark {mark!r}")
        if mark in (None, Mark.ACCEPTED):  # an accepted wager simply stands
            return
        ring_t, tag_text, fill, ink = MARKS[mark]
        r = self.chip_r
        top = stack.height if stack is not None else r * 0.5
        if mark == Mark.COLLECTED:
            strike = QPainterPath()
            strike.moveTo(anchor + QPointF(-r * 1.1, r * 0.4))
            strike.lineTo(anchor + QPointF(r * 1.1, -top - r * 0.1))
            pen = QPen(QColor("#ff5252"), max(2.5, r * 0.2))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            self.path(strike, pen, None, Z.MARK, dynamic=True)
        elif mark == Mark.REFUSED:
            cross = QPainterPath()
            for a, b in (((-1, -1), (1, 1)), ((-1, 1), (1, -1))):
                cross.moveTo(anchor + QPointF(a[0] * r * 0.9, -top / 2 + a[1] * r * 0.9))
                cross.lineTo(anchor + QPointF(b[0] * r * 0.9, -top / 2 + b[1] * r * 0.9))
            pen = QPen(QColor("#ff5252"), max(2.5, r * 0.2))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            self.path(cross, pen, None, Z.MARK, dynamic=True)
        if mark in (Mark.HELD, Mark.OFFERED, Mark.REFUSED):
            ring = QPainterPath()
            ring.addRoundedRect(QRectF(anchor.x() - r * 1.25, anchor.y() - top - r * 0.3, r * 2.5,
                                       top + r * 0.9), r * 0.6, r * 0.6)
            pen = QPen(QColor(ring_t), max(2.0, r * 0.16))
            if mark == Mark.OFFERED:
                pen.setStyle(Qt.PenStyle.DashLine)
            self.path(ring, pen, None, Z.MARK, dynamic=True)
        if tag_text:
            tag = TagItem(tag_text, max(10.0, r * 0.7), fill, ink)
            tag.setPos(anchor + QPointF(0, -top - r * 0.75))
            self.add(tag, Z.MARK + 0.5, dynamic=True)

    def _draw_selected(self, spot: Spot) -> None:
        glow = QColor(self.style["selected"])
        glow.setAlpha(90)
        self.path(spot.outline, pen(glow, 12), None, Z.SELECT, dynamic=True)
        self.path(spot.outline, pen(self.style["selected"], 3.5), None,
                  Z.SELECT, dynamic=True)

    # --- dice and irregular throws ----------------------------------------------------------------

    def die(self, face: int | None, colour_name: str, pos: QPointF, size: float, rotation: float = 0, *,
            cocked: bool = False, z: float = Z.DICE) -> DieItem:
        item = DieItem(face, colour_name, size, cocked=cocked)
        item.setPos(pos)
        item.setRotation(rotation)
        return self.add(item, z, dynamic=True)

    def draw_dice(self, specs: list[DieSpec], size: float, state: TableState) -> None:
        """Draw dice at rest, changed as the state's irregular throw says, with its caption and a
        pulse."""
        kind = state.irregular
        if not kind:
            for d in specs:
                self.die(d.face, d.colour, d.pos, size, d.rotation)
            return
        target = len(specs) - 1
        if kind == COCKED:
            target = -1 if state.cocked_die is None else state.cocked_die
            if not 0 <= target < len(specs):
                raise ValueError(f"a cocked die: there is no die {state.cocked_die} among {len(specs)} dice")
        attention: QPainterPath | None = None
        zone = self.dice_anchor()
        for i, d in enumerate(specs):
            if i != target or not specs:
                self.die(d.face, d.colour, d.pos, size, d.rotation)
                continue
            attention = self.draw_irregular_die(kind, d, specs, size, zone)
        if attention is None:
            box = QRectF()
            for d in specs:
                box = box.united(QRectF(d.pos.x() - size, d.pos.y() - size, 2 * size, 2 * size))
            attention = rounded(box if specs else zone.adjusted(-8, -8, 8, 8), 18)
        if self.name_irregularities:
            self.alert(self.caption_text(kind, target), attention)

    def caption_text(self, kind: str, die: int | None = None) -> str:
        """The caption of an irregular throw on this table, naming a cocked die by its colour."""
        if kind == COCKED and die is not None and die < len(self.die_names):
            return f"The {self.die_names[die]} is cocked on a chip stack"
        return caption(kind, die)

    def draw_irregular_die(self, kind: str, d: DieSpec, specs: list[DieSpec], size: float,
                           zone: QRectF) -> QPainterPath | None:
        """Draw the die the irregular throw is about; returns the outline to pulse around."""
        if kind == "die-on-die" and len(specs) > 1:
            base = specs[0].pos
            pos = base + QPointF(size * 0.3, -size * 0.38)
            self.die(d.face, d.colour, pos, size * 1.12, specs[0].rotation + 22, z=Z.DICE + 2)
            return ellipse(base + QPointF(size * 0.15, -size * 0.2), size * 1.15)
        if kind in ("not-flat", "cocked-multiple-sides"):
            self.die(d.face, d.colour, d.pos, size, d.rotation + 35, cocked=True, z=Z.DICE + 1)
            return ellipse(d.pos, size * 0.95)
        if kind == COCKED:
            chips = ChipStackItem(2500 * 3, size * 0.5)
            chips.setPos(d.pos + QPointF(size * 0.55, size * 0.45))
            self.add(chips, Z.DICE - 1, dynamic=True)
            self.die(d.face, d.colour, d.pos + QPointF(size * 0.15, -size * 0.1), size, d.rotation + 28,
                     cocked=True, z=Z.DICE + 1)
            return ellipse(d.pos + QPointF(size * 0.3, 0), size * 1.05)
        if kind == "die-fell-out":
            pos = self.fell_out_point(size)
            self.die(d.face, d.colour, pos, size, d.rotation + 15)
            return ellipse(pos, size * 0.95)
        if kind in ("die-off-table", "on-rail"):
            pos = self.off_table_point()
            self._trajectory(zone.center(), pos)
            self.die(d.face, d.colour, pos, size * 0.95, 30, z=Z.ALERT - 1)
            return ellipse(pos, size * 0.95)
        if kind == "lost-die":
            self.die(None, d.colour, d.pos, size, d.rotation)
            return ellipse(d.pos, size * 0.95)
        if kind == "in-dice-cup":
            pos = self.cup_point()
            self.die(d.face, d.colour, pos, size * 0.85, 20, z=Z.DICE + 1)
            return ellipse(pos, size * 1.1)
        if kind == "on-bank-chips":
            pos = self.bank_point()
            self.die(d.face, d.colour, pos, size, 20, z=Z.ALERT - 1)
            return ellipse(pos, size * 0.95)
        if kind == "lid-removed":
            self.die(d.face, d.colour, d.pos, size, d.rotation)
            return self.draw_lid_in_hand()
        if kind == "not-simultaneous":
            pos = d.pos + QPointF(-size * 2.2, size * 0.6)
            self._trajectory(pos + QPointF(-size * 3, 0), pos)
            self.die(d.face, d.colour, pos, size, d.rotation)
            return ellipse(pos, size * 0.95)
        if kind == "cheating-device":
            self.die(d.face, d.colour, d.pos, size, d.rotation)
            magnet = QPainterPath()
            c = d.pos + QPointF(-size * 1.3, size * 0.4)
            box = QRectF(c.x() - size * 0.45, c.y() - size * 0.3, size * 0.9, size * 0.6)
            magnet.addRoundedRect(box, 4, 4)
            self.path(magnet, QPen(QColor("#222"), 2), QColor("#8d99a6"), Z.DICE, dynamic=True)
            return ellipse(c, size * 0.8)
        self.die(d.face, d.colour, d.pos, size, d.rotation)
        return None

    def fell_out_point(self, size: float) -> QPointF:
        zone = self.dice_anchor()
        return QPointF(zone.right() + size * 1.2, zone.bottom() + size * 0.3)

    def cup_point(self) -> QPointF:
        return self.off_table_point()

    def bank_point(self) -> QPointF:
        return self.off_table_point()

    def draw_lid_in_hand(self) -> QPainterPath:
        """The shaker's lid at the shooter's place (a lid lifted by the player)."""
        seat = self.state.shooter
        r = self.seat_plates.get(seat) if seat is not None else None
        pos = (QPointF(r.left() + r.width() * 0.62, r.top() - 6) if r is not None
               else self.dice_anchor().center() + QPointF(0, 120))
        lid = LidItem(30)
        lid.setPos(pos)
        lid.setRotation(-12)
        self.add(lid, Z.ALERT - 1, dynamic=True)
        return ellipse(pos, 48, 38)

    def _trajectory(self, start: QPointF, end: QPointF) -> None:
        path = QPainterPath(start)
        mid = (start + end) / 2 + QPointF(0, -60)
        path.quadTo(mid, end)
        pen = QPen(QColor(255, 194, 26, 200), 3, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.path(path, pen, None, Z.ALERT - 2, dynamic=True)

    def caption_pos(self) -> QPointF:
        """Where the irregular-throw caption goes (near the dice by default)."""
        zone = self.dice_anchor()
        return QPointF(zone.center().x(), zone.bottom() + 34)

    def alert(self, text: str, outline: QPainterPath) -> CaptionItem:
        """A caption banner plus a pulsing ring around `outline`."""
        ring = PulseItem(outline)
        self.add(ring, Z.ALERT, dynamic=True)
        self._pulse(ring)
        cap = CaptionItem(text)
        pos = self.caption_pos()
        half = cap.boundingRect().width() / 2
        x = min(max(pos.x(), half + 10), self.sceneRect().width() - half - 10)
        cap.setPos(x, pos.y())
        self.add(cap, Z.ALERT + 1, dynamic=True)
        return cap

    def _pulse(self, item) -> None:
        a = QPropertyAnimation(item, b"opacity", self)
        a.setDuration(900)
        a.setStartValue(1.0)
        a.setKeyValueAt(0.5, 0.25)
        a.setEndValue(1.0)
        a.setEasingCurve(QEasingCurve.Type.InOutSine)
        a.setLoopCount(-1)
        self._animations.append(a)
        if self.isVisible():
            a.start()



__all__ = ["CREAM", "DieSpec", "Spot", "TableView", "Z", "caption", "ellipse", "rect", "rounded"]
