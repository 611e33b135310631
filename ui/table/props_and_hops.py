"""The Props & Hops table, § 668a.1(b): the 21 combination boxes with their hop regions, the Field,
1-6 and Under, 3-4 and Over, the Six Eight Shake circles at the top, the shaker circle to the
dealer's right, the lammers and the pointer. Geometry and words: resources/layouts/props-and-hops.toml.
"""

from __future__ import annotations

from trainer import Do, TableState
from ui.qt import QColor, QPainterPath, QPen, QPointF, QRectF
from ui.table.base import DieSpec, TableView, Z, ellipse, rect, rounded
from ui.table.items import DieItem, PointerItem, PuckItem, ShakerItem, TagItem, pen, stack_height

SHAKE = "six-eight-shake"
#: the wagers whose box depicts two dice (§ 668a.2(f)(6), (7)); any other box of the layout is
#: drawn with its label and odds alone
DICE_PICTURED = {"one-six-and-under": (1, 6), "three-four-and-over": (3, 4)}


class PropsAndHopsView(TableView):
    die_size = 36.0
    showcase = (("props-and-hops", "ph-busy-six-seats", 6),)
    actions = (
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.TAKE_DOWN, "Z"), (Do.NO_MORE_BETS, "N"),
        (Do.PLACE_SIX_EIGHT, "6"), (Do.PLACE_LAMMERS, "L"), (Do.OFFER_SHAKER, "O"),
        (Do.RECOVER_SHAKER, "V"), (Do.UNCOVER, "U"), (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"),
        (Do.PLACE_POINTER, "T"), (Do.COLLECT, "C"), (Do.MOVE_LAMMER, "M"), (Do.PAY, "P"),
        (Do.COVER_AND_SHAKE, "K"), (Do.PASS_SHAKER, "S"),
    )

    def raw_options(self, options: dict) -> dict:
        regions = options.get("hop_regions")
        if isinstance(regions, dict):  # already parsed: back to lists of combinations
            options = {**options, "hop_regions": {k: sorted(v) for k, v in regions.items()}}
        return options

    # --- the printed layout ---------------------------------------------------------------------

    def build(self) -> None:
        g = self.geo
        self.felt = rect(g["felt"])
        self.draw_table(rounded(self.felt, g["felt_radius"]))
        self.text(g["dealer"], QRectF(0, 2, self.sceneRect().width(), 22), 16, "dim")
        self._shaker_circle()
        self._six_eight_shake()
        self._grid()
        self._regions()
        self._bets()
        for seat, r in enumerate(g["seats"]["plates"], start=1):
            self.seat_plate(seat, rect(r))

    def _seats_left_to_right(self) -> list[int]:
        return list(range(self.game.seats, 0, -1))

    def _shaker_circle(self) -> None:
        s = self.geo["shaker"]
        self.shaker_centre = QPointF(*s["centre"])
        self.shaker_r = float(s["radius"])
        self.path(ellipse(self.shaker_centre, s["circle"]), self.pen(3), None)
        lbl = QRectF(self.shaker_centre.x() - 70, self.shaker_centre.y() + s["circle"] + 2, 140, 22)
        self.text(s["label"], lbl, 15, "dim")

    def _six_eight_shake(self) -> None:
        s = self.geo["six_eight_shake"]
        self.shake_r = float(s["radius"])
        self.shake_centres = [QPointF(x, s["y"]) for x in s["x"]]
        for c in self.shake_centres:
            self.path(ellipse(c, self.shake_r), self.pen(3), QColor(0, 0, 0, 40))
        panel = rect(s["panel"])
        self.text(s["title"], QRectF(panel.left(), panel.top(), panel.width(), 38), 30)
        self.text(self.odds("six-eight-shake"), QRectF(panel.left(), panel.top() + 38, panel.width(), 34),
                  28, "accent")
        self.text(s["rule"], QRectF(panel.left() + 4, panel.top() + 76, panel.width() - 8, 66), 17, "dim",
                  bold=False)
        # the certificate holder's name, § 668a.1(b)(1)
        logo = QRectF(panel.right() + 14, panel.top() + 6, self.felt.right() - panel.right() - 40, 58)
        self.text(self.geo["logo"], logo, 30, serif=True, shadow=True)
        self.text(self.geo["title"], QRectF(logo.left(), logo.bottom() + 4, logo.width(), 40), 26, "accent",
                  shadow=True)
        # shaker spots: circle i takes the i-th Six Eight Shake wager (reassigned in set_state)
        for seat in range(1, self.game.seats + 1):
            c = self.shake_centres[self.game.seats - seat]
            self.add_spot(seat, SHAKE, ellipse(c, self.shake_r), c + QPointF(0, self.chip_r * 0.6),
                          shared=True, outline=ellipse(c, self.shake_r + 4), room=self._shake_room(c))

    def _shake_room(self, c: QPointF) -> QRectF:
        """A Six Eight Shake wager's label stays in its circle or just under it, above the grid."""
        r = self.shake_r
        return QRectF(c.x() - r - 4, c.y() - r, 2 * r + 8, 2 * r + 30)

    def _grid(self) -> None:
        area = rect(self.geo["grid"]["rect"])
        rows = self.data["boxes"]
        h = area.height() / len(rows)
        self.cells: dict[str, QRectF] = {}
        self.places: dict[str, tuple[int, int]] = {}
        for i, row in enumerate(rows):
            w = area.width() / len(row)
            for j, combo in enumerate(row):
                cell = QRectF(area.left() + j * w, area.top() + i * h, w, h)
                self.cells[combo] = cell
                self.places[combo] = (i, j)
                a, b = (int(x) for x in combo.split("-"))
                double = a == b
                self.path(rounded(cell.adjusted(2, 2, -2, -2), 6), self.pen(2.5),
                          QColor(0, 0, 0, 55) if double else None)
                bet = f"double-{combo}" if double else f"any-{combo}"
                self.die_pair(a, b, QPointF(cell.center().x(), cell.top() + 31), 36)
                odds = self.odds("double" if double else "any-number")
                self.text(odds, QRectF(cell.left(), cell.top() + 51, cell.width(), 24), 19)
                # the chips stay inside the hop regions' outlines (drawn up to 11 in, 4 wide)
                self.shared_spots(bet, cell.adjusted(4, 0, -4, -2), self._seats_left_to_right(), inset=10)

    def die_pair(self, a: int, b: int, centre: QPointF, size: float) -> None:
        for dx, face in ((-size * 0.62, a), (size * 0.62, b)):
            item = DieItem(face, "white", size)
            item.setPos(centre + QPointF(dx, 0))
            self.add(item, Z.PRINT)

    def _region_outline(self, combos: frozenset[str], inset: float) -> QPainterPath:
        """One outline around a region's boxes: each box is inset only where the region ends."""
        where = {self.places[c] for c in combos}
        outline = QPainterPath()
        for combo in combos:
            i, j = self.places[combo]
            left, top, right, bottom = (-1.0 if (i + di, j + dj) in where else inset
                                        for di, dj in ((0, -1), (-1, 0), (0, 1), (1, 0)))
            piece = QPainterPath()
            piece.addRect(self.cells[combo].adjusted(left, top, -right, -bottom))
            outline = outline.united(piece)
        return outline.simplified()

    def _regions(self) -> None:
        regions = self.options["hop_regions"]
        styles = self.geo["regions"]
        self.region_colours = {}
        self.region_outlines: dict[str, QPainterPath] = {}
        for n, name in enumerate(self.game.hop_regions):
            style = styles[name]
            col = QColor(style["colour"])
            self.region_colours[name] = col
            outline = self._region_outline(regions[name], 6.0 if n == 0 else 11.0)
            self.region_outlines[name] = outline
            self.path(outline, pen(col, 4), None, Z.PRINT + 0.2)
            box = outline.boundingRect()
            tag = TagItem(f"{style['label']}  {self.odds(f'hop-{name}')}", 16, style["colour"], "#10130f")
            tag.setPos(box.center().x(), box.top() - 11 if style["tab"] == "above" else box.bottom() + 12)
            self.add(tag, Z.PRINT + 0.3)

    def _bets(self) -> None:
        seats = self._seats_left_to_right()
        for bet, spec in self.geo["bets"].items():
            r = rect(spec["rect"])
            label = spec["label"]
            if bet.startswith("hop-"):
                col = self.region_colours[bet[4:]]
                self.path(rounded(r, 8), pen(col, 4), QColor(0, 0, 0, 45))
                self.text(label, QRectF(r.left() + 4, r.top() + 6, r.width() - 8, 28), 22, colour=col,
                          condensed=True)
                self.text(self.odds(bet), QRectF(r.left(), r.top() + 33, r.width(), 24), 20)
            elif bet == "field":
                self._field(r, label)
            elif bet in DICE_PICTURED:
                self.box(r, 8)
                self.die_pair(*DICE_PICTURED[bet], QPointF(r.left() + 48, r.top() + 27), 30)
                self.text(label, QRectF(r.left() + 90, r.top() + 8, r.width() - 96, 38), 21, condensed=True)
                self.text(self.odds(bet), QRectF(r.left(), r.top() + 45, r.width(), 22), 18)
            else:
                self.box(r, 8)
                self.text(label, QRectF(r.left() + 4, r.top() + 8, r.width() - 8, 38), 21, condensed=True)
                self.text(self.odds(bet), QRectF(r.left(), r.top() + 45, r.width(), 22), 18)
            self.shared_spots(bet, r.adjusted(4, 0, -4, -2), seats)

    def _field(self, r: QRectF, label: str) -> None:
        self.box(r, 8)
        numbers = (2, 3, 4, 9, 10, 11, 12)
        left = r.left() + 88
        w = (r.right() - 8 - left) / len(numbers)
        y = r.top() + 30
        self.text(label, QRectF(r.left() + 4, r.top() + 10, 82, 40), 26, "accent", condensed=True)
        for i, n in enumerate(numbers):
            c = QPointF(left + w * (i + 0.5), y)
            if n in (2, 12):
                self.path(ellipse(c, 20), self.pen(2.5), None)
            self.text(str(n), QRectF(c.x() - w / 2, c.y() - 17, w, 34), 25, condensed=True)
        pays = self.pays["field"].lines
        words = "2 and 12 pay {} · all others {}".format(pays["2 or 12"].text, pays["3, 4, 9, 10 or 11"].text)
        self.text(words, QRectF(r.left() + 8, r.top() + 52, r.width() - 16, 20), 16, "dim", bold=False)

    # --- the state ------------------------------------------------------------------------------

    def set_state(self, state: TableState) -> None:
        self._assign_shake_circles(state)
        super().set_state(state)

    def _assign_shake_circles(self, state: TableState) -> None:
        """§ 668a.3(e): the wagers fill the circles from the one furthest to the dealer's right,
        starting with the player to the dealer's right (the highest seat)."""
        betting = {w.seat for w in state.wagers if w.bet == SHAKE} | {s for s, b in state.marks if b == SHAKE}
        seats = set(range(1, self.game.seats + 1))
        order = sorted(betting, reverse=True) + sorted(seats - betting, reverse=True)
        for i, seat in enumerate(order):
            spot = self.spots[(seat, SHAKE)]
            c = self.shake_centres[i]
            spot.anchor = c + QPointF(0, self.chip_r * 0.6)
            spot.outline = ellipse(c, self.shake_r + 4)
            spot.room = self._shake_room(c)
            spot.hit.set_path(ellipse(c, self.shake_r))
        self._shake_order = order

    def wagers_drawn_by_game(self, state: TableState) -> tuple:
        """A moved lammer stands on its circle's Six Eight Shake stack (`_lammers`)."""
        return (tuple(self._shake_order),
                tuple(sorted((w.seat, w.amount) for w in state.wagers if w.bet == SHAKE)))

    def dice_anchor(self) -> QRectF:
        c, r = self.shaker_centre, self.shaker_r * 0.8
        return QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)

    def fell_out_point(self, size: float) -> QPointF:
        return self.shaker_centre + QPointF(self.shaker_r + size * 0.9, self.shaker_r * 0.55)

    def off_table_point(self) -> QPointF:
        return QPointF(self.shaker_centre.x() + 30, 13)

    def caption_pos(self) -> QPointF:
        # under the Six Eight Shake circles, clear of a die fallen out of the shaker
        return QPointF(self.shake_centres[2].x() + 176, self.shaker_centre.y() + 75)

    def draw_state(self, state: TableState) -> None:
        st = state.state
        self._lammers(state, st.get("lammers_left", []), st.get("lammers_moved", []))
        show = state.dice_visible or state.irregular is not None
        covered = not show or (state.irregular == "lid-removed" and not state.dice_visible)
        shaker = ShakerItem(self.shaker_r, covered=covered, logo="DS")
        shaker.setPos(self.shaker_centre)
        self.add(shaker, Z.PUCK, dynamic=True)
        if not show or not state.dice:
            return
        dice = state.dice[:2]
        c = self.shaker_centre
        places = ((QPointF(-17, -11), -14.0), (QPointF(18, 13), 21.0))
        specs = [DieSpec(f, "white", c + off, rot) for f, (off, rot) in zip(dice, places, strict=False)]
        self.draw_dice(specs, self.die_size, state)
        pointer = state.placed.get(Do.PLACE_POINTER)
        if pointer in self.cells:  # where the dealer put it, right or wrong
            self._pointer(pointer)

    def _lammers(self, state: TableState, left: list[str], moved: list[str]) -> None:
        for combo in left:
            cell = self.cells[combo]
            self._lammer(QPointF(cell.right() - 24, cell.top() + 24))
        shake = {w.seat: w.amount for w in state.wagers if w.bet == SHAKE}
        for i, combo in enumerate(moved):
            if combo not in self.game.lammers or i >= len(self.shake_centres):
                raise ValueError(f"lammers_moved: {combo!r} cannot hold a lammer (or too many moved)")
            c = self.shake_centres[i]
            seat = self._shake_order[i]
            lift = stack_height(shake[seat], self.chip_r) - self.chip_r * 0.6 if seat in shake else 0
            self._lammer(c + QPointF(0, -lift), z=Z.CHIPS + 1)

    def _lammer(self, pos: QPointF, z: float = Z.PUCK) -> None:
        puck = PuckItem("", 13, "#d3212c", rim="#f3ead2")
        puck.setPos(pos)
        puck.setToolTip("Lammer")
        self.add(puck, z, dynamic=True)

    def _pointer(self, combo: str) -> None:
        cell = self.cells[combo]
        glow = QColor(255, 255, 255, 90)
        self.path(rounded(cell.adjusted(3, 3, -3, -3), 6), QPen(glow, 10), QColor(255, 255, 255, 28),
                  Z.PRINT + 0.5, dynamic=True)
        pointer = PointerItem(30)
        pointer.setPos(cell.left() + 30, cell.top() + 52)
        self.add(pointer, Z.PUCK, dynamic=True)
