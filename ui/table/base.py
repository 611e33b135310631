"""The table view every game shares: a felt layout in fixed logical coordinates, drawn once from its
layout data, with the dynamic things (chips, dice, pucks, marks) redrawn on each `set_state`.

A game's view builds its static layout in `build()` and registers one clickable spot per
(seat, bet) with `add_spot`; chips, marks and the selection are then drawn here for every game.
The view is seen from the players' side, as a printed layout reads: the dealer at the top, the
players along the bottom, seat 1 (the dealer's far left) at the right.

Its parts: the wagers and their marks (ui.table.wagers), the dice and irregular throws
(ui.table.dice), the shapes and layers they share (ui.table.shapes), the items (ui.table.items).
"""

from __future__ import annotations

from trainer import COCKED, Do, TableState, get_game, layout, paytable
from ui.qt import (
    QAbstractAnimation,
    QAccessible,
    QAccessibleAnnouncementEvent,
    QApplication,
    QColor,
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
from ui.shell.theme import LARGE_PRINT, ZOOM_STEP, clamp_zoom
from ui.table import backdrop
from ui.table.dice import CAPTIONS, HIDDEN_FACE, SEEN, DiceDrawn, caption
from ui.table.items import (
    HitItem,
    TagItem,
    TextItem,
    colour,
)
from ui.table.shapes import DieSpec, Spot, Z, ellipse, rect, rounded
from ui.table.wagers import MARKS, WagersDrawn

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



#: the seat a click on a place (not a wager's area) reports, with the place's name as its bet
PLACE = 0


def app_setting(name: str, default):
    """A view setting the window keeps on the application (the table zoom, large print), so every
    table view, a new one too, draws the same way."""
    app = QApplication.instance()
    value = app.property(name) if app is not None else None
    return default if value is None else value


class TableView(WagersDrawn, DiceDrawn, QGraphicsView):
    """The base of every game's table view (see the module docstring)."""

    wager_clicked = Signal(int, str)
    #: what a screen reader is told when the dice come to rest (also the view's accessible
    #: description): the faces, and the caption where the throw is named
    announced = Signal(str)
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
        self.options = self.parsed_options(options)
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
        self.zoom = float(app_setting("table_zoom", 1.0))  # 1 = the whole table fits the view
        self.text_scale = LARGE_PRINT if app_setting("large_print", False) else 1.0
        self.spots: dict[tuple[int, str], Spot] = {}
        self.places: dict[str, QPointF] = {}  # the layout's places that are not wagers
        self.seat_plates: dict[int, QRectF] = {}
        self._dynamic: list[QGraphicsItem] = []
        self._groups: dict[str, tuple[tuple, list[QGraphicsItem]]] = {}
        # each wager's stack and mark, by what it shows: an action redraws only the wagers it touched
        self._stacks: dict[tuple, list[QGraphicsItem]] = {}
        self._animations: list[QPropertyAnimation] = []
        self._label_at: dict = {}  # where each stack's label stands, and its cost (ui.table.labels)
        self._label_items: dict = {}  # each stack's label as drawn: (its look, its items), kept
        self._label_wants: dict = {}  # what each stack's label asks for, by what it shows (and its type)
        self._obstacles = None  # the printed words and dice that labels keep clear of
        self._printed_as: tuple | None = None  # what the printed layout is made from (printed_as)
        self._words: list | None = None  # the printed words that stacks stand under
        self._rooms: dict = {}  # the room under them above each place a stack stands (ui.table.wagers)
        self.state = TableState(players={})
        self.build()
        self._keep_words_apart()
        self.set_state(self.state)

    # --- what a game's view provides ---------------------------------------------------------------

    def raw_options(self, options: dict) -> dict:
        """The options as the game's parse_options reads them."""
        return options

    def parsed_options(self, options) -> dict:
        """`options` (as given, or a round's, already parsed) as the game reads them."""
        return self.game.parse_options(self.raw_options(dict(options or {})))

    def draws(self, game_id: str, options=None) -> bool:
        """Whether this view draws the table of `game_id` with `options` (a round's): a round of
        the same game on another paytable or with other hop regions needs a view of its own, whose
        printed odds and areas are that round's."""
        return game_id == self.game_id and self.parsed_options(options) == self.options

    def retire(self, layout) -> None:
        """Taken off the screen for good, for a view of another table: its animations stopped,
        hidden and out of `layout` at once (never drawn beside the view that replaces it, never a
        window of its own), deleted as a child when the event loop comes round."""
        self.stop_animations()
        self.hide()
        layout.removeWidget(self)
        self.deleteLater()

    def build(self) -> None:
        """Draw the static layout and register every (seat, bet) spot."""
        raise NotImplementedError

    def draw_state(self, state: TableState) -> None:
        """Draw the game's own dynamic things: dice, pucks, markers."""

    def wagers_drawn_by_game(self, state: TableState) -> tuple:
        """What `draw_state` draws from the wagers and their marks (a lammer on a stack, a lit
        sensor): its things are drawn again only when this, the dice or the game's state change,
        not each time a wager is paid or collected. None by default."""
        return ()

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

    def fit(self, keep: tuple[QPointF, QPointF] | None = None) -> None:
        """Scale the layout into the view, keeping its aspect: all of it at zoom 1, and `zoom`
        times closer beyond, with scroll bars. `keep`: a scene point and the viewport point it
        stays under (zooming at the pointer); else the view stays centred where it looked."""
        r = self.sceneRect()
        full = self.maximumViewportSize()  # without scroll bars: a zoom step is the same each time
        vw, vh = full.width(), full.height()
        if vw <= 0 or vh <= 0:
            return
        centre = self.mapToScene(self.viewport().rect().center()) if self.zoom > 1 else r.center()
        policy = (Qt.ScrollBarPolicy.ScrollBarAsNeeded if self.zoom > 1
                  else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(policy)
        self.setVerticalScrollBarPolicy(policy)
        s = min(vw / r.width(), vh / r.height()) * self.zoom
        self.setTransform(QTransform.fromScale(s, s))
        self.centerOn(centre)
        if keep is not None and self.zoom > 1:
            scene_point, view_point = keep
            moved = self.mapFromScene(scene_point) - view_point.toPoint()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + moved.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + moved.y())

    def set_zoom(self, zoom: float, keep: tuple[QPointF, QPointF] | None = None) -> float:
        """Zoom to `zoom` (1 fits the whole table; at most theme.ZOOM_MAX); see `fit` for `keep`."""
        self.zoom = clamp_zoom(zoom)
        self.fit(keep)
        return self.zoom

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:  # Ctrl+wheel zooms at the pointer
            at = event.position()
            zoom = self.set_zoom(self.zoom * ZOOM_STEP ** (event.angleDelta().y() / 120),
                                 (self.mapToScene(at.toPoint()), at))
            QApplication.instance().setProperty("table_zoom", zoom)
            event.accept()
            return
        super().wheelEvent(event)

    def rebuild(self) -> None:
        """Draw the printed layout again (large print turned on or off), then the state."""
        self._clear_animations()
        self._groups.clear()
        self._stacks.clear()
        self._label_at, self._label_items, self._label_wants, self._obstacles = {}, {}, {}, None
        self._printed_as = None
        self._words, self._rooms = None, {}
        self.spots, self.places, self.seat_plates = {}, {}, {}
        self._scene.clear()
        self._print.clear()
        self.text_scale = LARGE_PRINT if app_setting("large_print", False) else 1.0
        self.resetCachedContent()
        self.build()
        self._keep_words_apart()
        self.set_state(self.state)
        self.viewport().update()


    def _keep_words_apart(self) -> None:
        """In large print each printed line stands a little taller than its place (`text`): where
        two lines' words would then run into each other, both are made smaller, step by step,
        until they stand apart."""
        if self.text_scale <= 1:
            return
        words = [t for t in self._print.items() if isinstance(t, TextItem) and t.text.strip()]
        ink = {t: t.ink_rect().adjusted(1, 1, -1, -1) for t in words}  # measured again only when shrunk
        for _ in range(20):
            inks = sorted(((ink[t], t) for t in words), key=lambda it: it[0].top())
            crossed = set()
            for i, (a, first) in enumerate(inks):  # each against those that start above its foot
                for b, second in inks[i + 1:]:
                    if b.top() >= a.bottom():
                        break
                    if a.intersects(b):
                        crossed |= {first, second}
            if not crossed:
                return
            for t in crossed:
                t.shrink()
                ink[t] = t.ink_rect().adjusted(1, 1, -1, -1)

    def drawBackground(self, painter, exposed) -> None:
        """The backdrop, then the printed layout. The view caches this (CacheBackground), so a
        redraw after an action repaints the chips and dice only; and views of one table at one
        size share it (ui.table.backdrop), so a view built again paints it as a copy."""
        backdrop.paint(self, painter, exposed, self._paint_printed)

    def _paint_printed(self, painter, exposed) -> None:
        super().drawBackground(painter, exposed)
        self._print.render(painter, exposed, exposed)

    def printed_as(self) -> tuple:
        """All that the printed layout is made from: two views that give the same print the same
        (ui.table.backdrop)."""
        if self._printed_as is None:
            self._printed_as = (type(self).__qualname__, self.game_id, repr(self.options), repr(self.data),
                                repr(self.pays), self.text_scale)
        return (*self._printed_as, len(self._print.items()))

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
        if self.text_scale > 1:  # large print: the line is as much taller as its words, about its middle
            grow = r.height() * (self.text_scale - 1) / 2
            r = r.adjusted(0, -grow, 0, grow)
        return self.add(TextItem(text, r, px * self.text_scale, c, **kw), z, dynamic=dynamic)

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
                 outline: QPainterPath | None = None, room: QRectF | None = None) -> Spot:
        """Register where (seat, bet) sits: `area` is clickable, `anchor` takes the chips, and the
        chips' label stays in `room` where it can (the area's own bounds unless given)."""
        if bet not in self.catalogue:
            raise ValueError(f"{bet!r} is not a bet of {self.game_id}")
        tip = f"Seat {seat} · {self.catalogue[bet].name}"
        hit = HitItem(area, seat, bet, tip)
        self.add(hit, Z.HIT)
        spot = Spot(anchor, outline if outline is not None else area, shared, hit,
                    room if room is not None else area.boundingRect().adjusted(-6, -6, 6, 6))
        self.spots[(seat, bet)] = spot
        return spot

    def add_place(self, name: str, area: QPainterPath, tooltip: str) -> None:
        """Register a place on the layout that is not a wager's (a box dice are moved to): a click
        on it emits wager_clicked(PLACE, name)."""
        self.add(HitItem(area, PLACE, name, tooltip), Z.HIT)
        self.places[name] = area.boundingRect().center()

    def shared_spots(self, bet: str, box: QRectF, seats: list[int], inset: float = 0.0) -> None:
        """A box every seat shares: one slice per seat, `seats` from left to right; the chips sit
        along the bottom of the box, inside it, each stack's label naming its seat. `inset` keeps
        the chips clear of lines drawn inside the box (a hop region's outline)."""
        w = box.width() / len(seats)
        r = self.chip_r
        inner = box.adjusted(inset + r, 0, -inset - r, 0)
        step = inner.width() / max(1, len(seats) - 1)
        for i, seat in enumerate(seats):
            part = QRectF(box.left() + i * w, box.top(), w, box.height())
            x = inner.left() + i * step if len(seats) > 1 else box.center().x()
            anchor = QPointF(x, box.bottom() - r * 1.55 - 4)
            ring = rounded(QRectF(x - w / 2 + 2, anchor.y() - r * 2.6, w - 4, r * 4.1), 8)
            self.add_spot(seat, bet, rounded(part, 2), anchor, shared=True, outline=ring, room=box)

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
            ("game", (state.dice, state.dice_visible, state.irregular, state.cocked_die, state.named,
                      tuple(sorted(state.placed.items())),
                      repr(sorted(state.state.items())), self.wagers_drawn_by_game(state)),
             lambda: self.draw_state(state)),
            ("selected", (state.selected,), lambda: self._draw_selected(self.spots[state.selected])
             if state.selected is not None and state.selected in self.spots else None),
            ("highlighted", (state.highlighted,), lambda: self._draw_highlighted(state.highlighted)),
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
        self._announce(self.dice_words(state))

    def place_area(self, name: str) -> QRectF | None:
        """Where a place of the layout (or a bet's box, every seat's part of it) lies."""
        hits = [item for item in self._scene.items()
                if isinstance(item, HitItem) and item.key[1] == name]
        if not hits:
            return None
        area = hits[0].sceneBoundingRect()
        for item in hits[1:]:
            area = area.united(item.sceneBoundingRect())
        return area

    def _draw_highlighted(self, name: str | None) -> None:
        """A ring round the place chosen with ← →, in the selection's colour, so the eye finds
        what Enter would put where."""
        area = self.place_area(name) if name is not None else None
        if area is None:
            return
        ring = rounded(area.adjusted(-4, -4, 4, 4), 8)
        shade = QColor(0, 0, 0, 150)  # a dark edge, so the ring stands off lines of its colour
        self.path(ring, QPen(shade, 11), None, Z.SELECT, dynamic=True)
        self.path(ring, QPen(QColor(self.style["selected"]), 5), None, Z.SELECT, dynamic=True)

    def dice_words(self, state: TableState) -> str:
        """The dice in words, as a screen reader says them: each die by its colour where the game
        tells them apart, else the faces (counted, for many dice), a face the drawing hides
        said as not seen; where a die lies when it lies oddly, in the words of what is drawn
        (ui.table.dice.SEEN); and the irregular throw's name only where the table names it
        (never in a sealed exam or from difficulty 3)."""
        shown = state.dice_visible or state.irregular is not None
        if not shown or not state.dice:
            return ""
        faces: list[int | None] = list(state.dice)
        kind = state.irregular
        if kind in HIDDEN_FACE:
            faces[HIDDEN_FACE[kind]] = None
        if self.die_names and len(self.die_names) >= len(faces):
            parts = [f"{name} {face if face is not None else 'not seen'}"
                     for name, face in zip(self.die_names, faces, strict=False)]
        else:
            seen = [f for f in faces if f is not None]
            order = sorted(set(seen), key=lambda f: (-seen.count(f), f))
            parts = ([f"{seen.count(f)} × {f}" for f in order] if len(faces) > 3 else [str(f) for f in seen])
            parts += ["one die not seen"] * (len(faces) - len(seen))
        words = "The dice: " + ", ".join(parts) + "."
        if kind in SEEN:
            target = (state.cocked_die if kind == COCKED and state.cocked_die is not None
                      else len(faces) - 1)
            die = (f"the {self.die_names[target]}" if target < len(self.die_names) else "one die")
            words += " " + SEEN[kind].format(die=die).capitalize() + "."
        if self.name_irregularities and state.named and kind:
            words += " " + self.caption_text(kind, state.cocked_die) + "."
        return words

    def _announce(self, words: str) -> None:
        """Tell a screen reader the dice when they come to rest (once per throw: the words are
        forgotten when the dice are covered, so the same faces thrown again are said again)."""
        if words == self.accessibleDescription():
            return
        self.setAccessibleDescription(words)
        if words:
            QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self, words))
            self.announced.emit(words)

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
        for _, items in self._label_items.values():
            self._remove(items)
        self._label_items.clear()
        self._label_wants.clear()

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


__all__ = ["CAPTIONS", "MARKS", "PLACE", "DieSpec", "Spot", "TableView", "Z", "caption", "ellipse", "rect",
           "rounded"]
