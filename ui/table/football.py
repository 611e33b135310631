"""The Three Dice Football table, § 577.2(b): the football field with its end zones, 10 and 20 yard
lines and yards 1-23; the Yard Marker, the Down Puck and the Game Length Puck; the full game and
single play wager areas on both sides of the table (seats 1-16); two green dice and one red.
Geometry and words: resources/layouts/three-dice-football.toml.
"""

from __future__ import annotations

from trainer import Do, TableState
from ui.qt import QColor, QLinearGradient, QPainterPath, QPen, QPointF, QRectF, Qt
from ui.table.base import DieSpec, TableView, Z, ellipse, rect, rounded
from ui.table.items import ChipStackItem, PuckItem, TagItem, TextItem, pen

#: where the dice rest in the landing area, as fractions of it, and their turn
DICE_PLACES = ((0.28, 0.38, -12.0), (0.68, 0.5, 16.0), (0.42, 0.76, -5.0))
DICE_COLOURS = ("green", "green", "red")


def current_play(st: dict) -> int:
    """The play the Game Length Puck marks: Play 1 once the markers are set, then the next play
    after each down (§ 577.6(a), (c)); when the game has ended, the play it ended on."""
    plays = int(st.get("plays", 0))
    ended = st.get("over") or st.get("touchdown") or st.get("extra_point_roll")
    return max(1, plays) if ended else min(plays + 1, 6)


class FootballView(TableView):
    shooter_word = "QB"
    die_names = ("green die", "green die", "red die")
    die_size = 40.0
    showcase = (("three-dice-football", "tdf-full-house", 4),)
    actions = (
        (Do.SET_MARKERS, "K"), (Do.OFFER_DICE, "O"), (Do.ACCEPT, "A"), (Do.REFUSE, "R"),
        (Do.NO_ROLL, "X"), (Do.NEW_DICE, "W"), (Do.ANNOUNCE, "D"), (Do.MOVE_MARKERS, "M"),
        (Do.COLLECT, "C"), (Do.PAY, "P"), (Do.ANNOUNCE_DOWN, "G"), (Do.EXTRA_POINT_ROLL, "E"),
    )

    def build(self) -> None:
        g = self.geo
        self.felt = rect(g["felt"])
        self.draw_table(rounded(self.felt, g["felt_radius"]), rail_width=24)
        rows = g["rows"]
        for side in g["sides"].values():
            self._side(side, rows)
        self._downs()
        self._field()
        self._game_length()
        self._dice_area()

    # --- wager areas ------------------------------------------------------------------------------

    def _side(self, side: dict, rows: dict) -> None:
        seats = side["seats"]
        n = len(seats)
        w = rows["width"] / n
        for i, seat in enumerate(seats):
            plate = QRectF(rows["x"] + i * w + 8, side["plates_y"], w - 16, rows["plate_height"])
            self.seat_plate(seat, plate)
        for key in ("full_game", "single_play"):
            self._row(rows[key], rows, side[f"{key}_y"], seats)

    def _row(self, boxes: list[dict], rows: dict, y: float, seats: list[int]) -> None:
        total = sum(b["weight"] for b in boxes)
        gap = 6.0
        unit = (rows["width"] - gap * (len(boxes) - 1)) / total
        x = rows["x"]
        for b in boxes:
            r = QRectF(x, y, unit * b["weight"], rows["height"])
            x += r.width() + gap
            self._box(b["bet"], b["label"], r, seats)

    def _box(self, bet: str, label: str, r: QRectF, seats: list[int]) -> None:
        full = bet in ("touchdown", "defense", "extra-point", "quick-strike", "game-changer") or \
            bet.startswith("game-length-")
        self.path(rounded(r, 8), self.pen(2.5), QColor(0, 0, 0, 50) if full else None)
        head = QRectF(r.left() + 4, r.top() + 3, r.width() - 8, 21)
        named = self.text(label, head, 17, "text" if full else "accent", condensed=True)
        odds = self._odds_text(bet)
        two = "·" in odds
        odds_r = QRectF(r.left() + 4, r.top() + 22, r.width() - 8, 30 if two else 17)
        px = 13 if two else 14
        # under the name's words, never into them (large print fills the name's rectangle)
        below = named.ink_rect().bottom()
        if TextItem(odds, odds_r, px * self.text_scale, condensed=True).ink_rect().top() < below - 2:
            odds_r.setTop(below)
        printed = self.text(odds, odds_r, px, "dim", condensed=True)
        # eight seats in four columns of two, in the order they sit; the upper row's chips, one
        # at the least, under the odds (two lines of them reach lower)
        upper = max(62.0, printed.ink_rect().bottom() - r.top()
                    + self.chip_r * 0.27 + self.chip_r * 0.52 + max(2.0, self.chip_r * 0.55))
        cols = 4
        w = r.width() / cols
        for i, seat in enumerate(seats):
            c, row = divmod(i, 2)
            anchor = QPointF(r.left() + w * (c + 0.5), r.top() + (upper if row == 0 else 90))
            area = QRectF(r.left() + w * c, r.top() + (0 if row == 0 else 75), w, 75 if row == 0 else 35)
            ring = rounded(QRectF(anchor.x() - w / 2 + 2, anchor.y() - 22, w - 4, 36), 6)
            self.add_spot(seat, bet, rounded(area, 2), anchor, shared=True, outline=ring, room=r)

    def _odds_text(self, bet: str) -> str:
        lines = self.pays[self.catalogue[bet].pays].lines
        if list(lines) == ["win"]:
            return lines["win"].text
        short = self.geo["short"]
        return " · ".join(f"{short.get(k, k)} {line.text.replace(' to ', ':')}" for k, line in lines.items())

    # --- the field and its markers ------------------------------------------------------------------

    def _downs(self) -> None:
        d = self.geo["downs"]
        r = rect(d["rect"])
        n = len(d["areas"])
        w = r.width() / n
        self.down_areas: dict[str, QRectF] = {}
        for i, name in enumerate(d["areas"]):
            a = QRectF(r.left() + i * w + 3, r.top(), w - 6, r.height())
            self.down_areas[name] = a
            if name != "Extra Point":  # where the trainee puts the Down Puck (a click or ← → Enter)
                self.add_place(self.game.down_place(name), rounded(a, a.height() / 2), name)
            goal = "Goal" in name or name == "Extra Point"
            self.path(rounded(a, a.height() / 2), self.pen(2), QColor(0, 0, 0, 60) if goal else None)
            self.text(name.upper(), a.adjusted(10, 0, -40, 0), 17, "accent" if goal else "text",
                      condensed=True)

    def _field(self) -> None:
        f = self.geo["field"]
        r = rect(f["rect"])
        self.field_rect = r
        ez = float(f["end_zone"])
        half = int(f["half"])
        gl, gr = r.left() + ez, r.right() - ez
        self.goal_right = gr
        self.ppy = (gr - gl) / (2 * half)
        self.path(rounded(r.adjusted(-4, -4, 4, 4), 6), pen(QColor("#f3ead2"), 3), QColor(f["turf"]))
        for k in range(0, 2 * half, 5):  # the mowing stripes
            if (k // 5) % 2:
                x = gl + k * self.ppy
                self.path(self._rect_path(QRectF(x, r.top(), min(5, 2 * half - k) * self.ppy, r.height())),
                          None, QColor(f["turf_alt"]))
        for x0 in (r.left(), gr):  # the end zones
            zone = QRectF(x0, r.top(), ez, r.height())
            self.path(self._rect_path(zone), None, QColor(f["end_zone_colour"]))
            words = QRectF(zone.center().x() - r.height() / 2, zone.center().y() - ez / 2, r.height(), ez)
            t = self.text(f["end_zone_label"], words, 30, shadow=True)
            t.setRotation(-90 if x0 == r.left() else 90)
        white = QColor("#f7f4ea")
        for k in range(0, 2 * half + 1):
            x = gl + k * self.ppy
            yard = min(k, 2 * half - k)
            major = yard in (0, 10, 20) or k == half
            if major or yard % 5 == 0:  # a full line, broken where the yard numbers run
                mid = r.center().y()
                for y0, y1 in ((r.top(), mid - 14), (mid + 14, r.bottom())):
                    self.path(self._line(x, y0, y1), pen(white, 4 if major else 1.6), None, Z.PRINT + 0.1)
            else:
                for y0 in (r.top(), r.top() + r.height() * 0.38, r.bottom() - r.height() * 0.38 - 10,
                           r.bottom() - 10):
                    self.path(self._line(x, y0, y0 + 10), pen(white, 1.4), None, Z.PRINT + 0.1)
            if 1 <= yard <= half:
                self.text(str(yard), QRectF(x - 14, r.center().y() - 13, 28, 26), 17, colour=white,
                          condensed=True, z=Z.PRINT + 0.2)
            if yard in (10, 20):
                for y in (r.top() + 34, r.bottom() - 34):
                    self.text(str(yard), QRectF(x - 40, y - 20, 80, 40), 32, colour=white, z=Z.PRINT + 0.2,
                              shadow=True)
        # each yard line is a place the trainee clicks to move the Yard Marker to it
        self.add_place(self.game.yard_place(0), self._rect_path(QRectF(gr, r.top(), ez, r.height())),
                       "The end zone: a touchdown")
        for yard in range(1, 2 * half):
            x = gr - yard * self.ppy
            strip = QRectF(x - self.ppy / 2, r.top(), self.ppy, r.height())
            self.add_place(self.game.yard_place(yard), self._rect_path(strip), f"The {yard} yard line")
        arrow = QRectF(gr - 230, r.bottom() - 62, 170, 24)
        self.text("OFFENSE  ▶", arrow, 16, colour=QColor(255, 255, 255, 170), condensed=True)

    @staticmethod
    def _rect_path(r: QRectF) -> QPainterPath:
        p = QPainterPath()
        p.addRect(r)
        return p

    @staticmethod
    def _line(x: float, y0: float, y1: float) -> QPainterPath:
        p = QPainterPath(QPointF(x, y0))
        p.lineTo(x, y1)
        return p

    def _game_length(self) -> None:
        g = self.geo["game_length"]
        r = rect(g["rect"])
        lw = float(g["label_width"])
        self.length_off = QRectF(r.left(), r.top(), lw, r.height())
        self.path(rounded(self.length_off, r.height() / 2), self.pen(2), QColor(0, 0, 0, 60))
        self.text(g["label"], self.length_off.adjusted(12, 0, -40, 0), 18, "accent", condensed=True)
        w = (r.width() - lw - 6) / 6
        self.length_areas: dict[int, QRectF] = {}
        for n in range(1, 7):
            a = QRectF(r.left() + lw + 6 + (n - 1) * w + 3, r.top(), w - 6, r.height())
            self.length_areas[n] = a
            self.add_place(self.game.play_place(n), rounded(a, a.height() / 2), f"Play {n}")
            self.path(rounded(a, a.height() / 2), self.pen(2), None)
            self.text(str(n), a.adjusted(0, 0, -30, 0), 26)

    def _dice_area(self) -> None:
        d = self.geo["dice"]
        self.dice_rect = rect(d["rect"])
        self.path(rounded(self.dice_rect, 14), pen(QColor(243, 234, 210, 150), 2, Qt.PenStyle.DashLine), None)
        d_r = self.dice_rect
        self.text("DICE", QRectF(d_r.left(), d_r.bottom() - 26, d_r.width(), 22), 15, "dim")
        self.cup = QPointF(*d["cup"])
        cup = QLinearGradient(self.cup + QPointF(-26, 0), self.cup + QPointF(26, 0))
        cup.setColorAt(0, QColor("#5a3a1e"))
        cup.setColorAt(0.5, QColor("#9c6a3c"))
        cup.setColorAt(1, QColor("#4a2e16"))
        self.path(ellipse(self.cup, 26), QPen(QColor("#24160a"), 2), cup, Z.PRINT + 0.3)
        self.path(ellipse(self.cup, 19), QPen(QColor("#24160a"), 1.5), QColor("#2a1a0c"), Z.PRINT + 0.3)
        self.bank = rect(d["bank"])
        self.path(rounded(self.bank, 8), QPen(QColor("#111"), 2), QColor("#2b2f33"), Z.PRINT)
        self.text("BANK", QRectF(self.bank.left(), self.bank.top() - 2, self.bank.width(), 18), 13, "dim")
        cols = (100_000, 50_000, 10_000, 2500, 500, 100)
        w = (self.bank.width() - 16) / len(cols)
        for i, value in enumerate(cols):
            stack = ChipStackItem(value * 6, w * 0.42)
            stack.setToolTip("The bank")
            stack.setPos(self.bank.left() + 8 + w * (i + 0.5), self.bank.bottom() - 14)
            stack.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.add(stack, Z.PRINT + 0.4)

    # --- the state -------------------------------------------------------------------------------

    def dice_anchor(self) -> QRectF:
        return self.dice_rect.adjusted(20, 20, -20, -40)

    def off_table_point(self) -> QPointF:
        return QPointF(self.sceneRect().right() - 12, self.dice_rect.center().y() - 30)

    def cup_point(self) -> QPointF:
        return self.cup

    def bank_point(self) -> QPointF:
        return QPointF(self.bank.center().x() - 20, self.bank.top() + 20)

    def fell_out_point(self, size: float) -> QPointF:
        return QPointF(self.dice_rect.left() - size, self.dice_rect.center().y())

    def caption_pos(self) -> QPointF:
        return QPointF(self.field_rect.left() + self.field_rect.width() * 0.3, self.field_rect.top() + 44)

    def draw_state(self, state: TableState) -> None:
        st = state.state
        if "yard_line" not in st:  # the markers are not set yet: the pucks wait beside the layout
            self._length_puck(0)
        else:
            placed = state.placed.get(Do.MOVE_MARKERS)  # where the dealer put them, right or wrong
            yard, down, play = (self.game.read_markers(placed) if placed is not None
                                else (st["yard_line"], None, None))
            self._yard_marker(yard, bool(st.get("touchdown")) and yard == 0)
            # where the dealer put it wins: on the extra point roll too, a wrong down shows wrong
            self._down_puck(down or ("Extra Point" if st.get("extra_point_roll") else st.get("down")))
            self._length_puck(play or current_play(st))
        if state.dice and (state.dice_visible or state.irregular):
            self._dice(state)

    def _yard_marker(self, yard: int, touchdown: bool) -> None:
        f = self.geo["field"]
        r = self.field_rect
        if touchdown:
            zone = QRectF(self.goal_right, r.top(), r.right() - self.goal_right, r.height())
            self.path(self._rect_path(zone), pen(QColor("#ffe14d"), 6), QColor(255, 225, 77, 70), Z.PUCK,
                      dynamic=True)
        x = self.goal_right - max(0, yard) * self.ppy
        x = max(r.left() + 4, x)
        col = QColor(f["marker_colour"])
        glow = QColor(col)
        glow.setAlpha(90)
        self.path(self._line(x, r.top() - 2, r.bottom() + 2), pen(glow, 12), None, Z.PUCK, dynamic=True)
        self.path(self._line(x, r.top() - 2, r.bottom() + 2), pen(col, 4.5), None, Z.PUCK, dynamic=True)
        tag = TagItem(f"▼ {yard}" if yard else "TD", 16, f["marker_colour"], "#1a0f00", outline="#1a0f00")
        tag.setPos(x, r.top() + 14)
        tag.setToolTip(f"Yard Marker: the {yard}")
        self.add(tag, Z.PUCK + 0.5, dynamic=True)

    def _down_puck(self, down: str | None) -> None:
        if down is None:
            return
        if down not in self.down_areas:
            raise ValueError(f"{down!r} is not an area of the Down Puck")
        a = self.down_areas[down]
        self.path(rounded(a, a.height() / 2), pen(QColor("#ffe14d"), 3), QColor(255, 225, 77, 45), Z.PUCK,
                  dynamic=True)
        puck = PuckItem("DOWN", 19)
        puck.setPos(a.right() - 22, a.center().y())
        puck.setToolTip(f"Down Puck: {down}")
        self.add(puck, Z.PUCK + 1, dynamic=True)

    def _length_puck(self, play: int) -> None:
        """The Game Length Puck on the area of `play` (1–6), or beside them (0: not set yet)."""
        if play < 0 or play > 6:
            raise ValueError(f"play {play}: the Game Length Puck has areas 1 to 6")
        a = self.length_areas[play] if play else self.length_off
        if play:
            self.path(rounded(a, a.height() / 2), pen(QColor("#ffe14d"), 3), QColor(255, 225, 77, 45), Z.PUCK,
                      dynamic=True)
        puck = PuckItem("PLAYS", 19, "#1d1d1f", "#f4f1ea", rim="#f4f1ea")
        puck.setPos(a.right() - 22, a.center().y())
        puck.setToolTip(f"Game Length Puck: play {play}" if play else "Game Length Puck: not set")
        self.add(puck, Z.PUCK + 1, dynamic=True)

    def _dice(self, state: TableState) -> None:
        zone = self.dice_anchor()
        specs = []
        for i, face in enumerate(state.dice[:3]):
            fx, fy, rot = DICE_PLACES[i]
            pos = QPointF(zone.left() + zone.width() * fx, zone.top() + zone.height() * fy)
            if state.irregular == "missed-far-end":
                pos -= QPointF(self.dice_rect.width() * 0.45, 0)
            specs.append(DieSpec(face, DICE_COLOURS[i], pos, rot))
        self.draw_dice(specs, self.die_size, state)
