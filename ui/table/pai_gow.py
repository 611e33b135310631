"""The Pai Gow Poker dice wagers, § 645c.2 — RECONSTRUCTED (see the readings): at each of the six
betting positions the Sum, Match (1-6) and Beat It areas; the paytables in use printed on the
layout; one red and two blue dice in the shaker. Geometry and words: resources/layouts/pai-gow-dice.toml.
"""

from __future__ import annotations

import math

from trainer import Do, TableState
from ui.qt import QColor, QPainterPath, QPointF, QRectF, Qt, QTransform
from ui.table.base import DieSpec, TableView, Z, ellipse, rect, rounded
from ui.table.items import DieItem, ShakerItem, TextItem

DICE_COLOURS = ("red", "blue", "blue")  # TableState.dice: (red, blue, blue)
DICE_PLACES = ((-20.0, -16.0, -14.0), (22.0, -6.0, 18.0), (-6.0, 24.0, 6.0))


class PaiGowView(TableView):
    die_size = 32.0
    die_names = ("red die", "blue die", "blue die")
    showcase = (("pai-gow-dice", "pgd-busy-six-seats", 2),)
    actions = (
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.NO_MORE_BETS, "N"), (Do.USE_SHAKER, "S"),
        (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"), (Do.COLLECT, "C"), (Do.PAY, "P"),
    )

    def build(self) -> None:
        g = self.geo
        t = g["table"]
        c, (rx, ry) = QPointF(*t["centre"]), t["radius"]
        felt = QPainterPath(QPointF(c.x() + rx, c.y()))
        felt.arcTo(QRectF(c.x() - rx, c.y() - ry, 2 * rx, 2 * ry), 0, -180)
        felt.closeSubpath()
        self.draw_table(felt, rail_width=28)
        self.text(g["dealer"], QRectF(0, 0, self.sceneRect().width(), 28), 16, "dim")
        self._shaker()
        self._sign()
        s = g["seats"]
        for seat, angle in enumerate(s["angles"], start=1):
            a = math.radians(angle)
            centre = QPointF(c.x() + s["arc"][0] * math.cos(a), c.y() + s["arc"][1] * math.sin(a))
            turn = (angle - 90) * s["turn"]
            self._position(seat, centre, turn)
            w, h = s["plate"]
            down = s["group"][1] / 2 + s["plate_gap"]
            p = centre + QPointF(-down * math.sin(math.radians(turn)), down * math.cos(math.radians(turn)))
            self.seat_plate(seat, QRectF(p.x() - w / 2, p.y() - h / 2, w, h))

    def _shaker(self) -> None:
        s = self.geo["shaker"]
        self.shaker_centre = QPointF(*s["centre"])
        self.shaker_r = float(s["radius"])
        self.path(ellipse(self.shaker_centre, s["circle"]), self.pen(3), None)
        c = self.shaker_centre
        self.text(s["label"], QRectF(c.x() - 70, c.y() + s["circle"] + 2, 140, 22), 15, "dim")

    def _sign(self) -> None:
        w = self.geo["words"]
        r = rect(self.geo["sign"]["rect"])
        self.sign_rect = r
        self.path(rounded(r, 12), self.pen(2, alpha=170), QColor(0, 0, 0, 70))
        self.text(self.geo["title"], QRectF(r.left(), r.top() + 6, r.width(), 30), 24, "accent", shadow=True)
        s, b = self.options["sum_paytable"], self.options["beat_it_paytable"]
        cols = [
            (f"{w['sum']} · {w['paytable']} {s}", "", self.pays[f"sum-{s}"].lines),
            (w["match"], w["match_rule"], self.pays["match"].lines),
            (f"{w['beat_it']} · {w['paytable']} {b}", w["any_die"] if b == "C" else w["red_vs_blue"],
             self.pays[f"beat-it-{b}"].lines),
        ]
        cw = (r.width() - 24) / 3
        for i, (title, sub, lines) in enumerate(cols):
            c = QRectF(r.left() + 12 + i * cw, r.top() + 44, cw - 12, r.height() - 56)
            if i:
                line = self._vline(c.left() - 6, c.top() + 4, c.bottom() - 4)
                self.path(line, self.pen(1.2, alpha=90), None)
            self.text(title, QRectF(c.left(), c.top(), c.width(), 24), 18)
            top = c.top() + 26
            if sub:
                self.text(sub, QRectF(c.left(), top, c.width(), 34), 13, "dim", bold=False, italic=True)
            top = c.top() + 62
            h = min(30.0, (c.bottom() - top) / max(1, len(lines)))
            for j, (key, line) in enumerate(lines.items()):
                y = top + j * h
                what = QRectF(c.left() + 4, y, c.width() * 0.6, h)
                self.text(key[0].upper() + key[1:], what, 16, bold=False,
                          condensed=True, align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                self.text(line.text, QRectF(c.left() + c.width() * 0.55, y, c.width() * 0.45 - 4, h), 17,
                          "accent", condensed=True,
                          align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.text(self.geo["note"], QRectF(r.left(), r.bottom() + 4, r.width(), 20), 13, "dim", bold=False,
                  italic=True)
        logo = QRectF(r.right() + 20, r.top() + 40, self.sceneRect().width() - r.right() - 70, 80)
        self.text(self.geo["logo"], logo, 26, serif=True, shadow=True)

    @staticmethod
    def _vline(x: float, y0: float, y1: float) -> QPainterPath:
        p = QPainterPath(QPointF(x, y0))
        p.lineTo(x, y1)
        return p

    # --- one betting position, drawn in its own turned frame -------------------------------------------

    def _position(self, seat: int, centre: QPointF, turn: float) -> None:
        gw, gh = self.geo["seats"]["group"]
        w = self.geo["words"]
        t = QTransform()
        t.translate(centre.x(), centre.y())
        t.rotate(turn)

        def text(words: str, r: QRectF, px: float, colour_name: str = "text", **kw) -> None:
            item = TextItem(words, r, px * self.text_scale, self.style[colour_name], **kw)
            item.setPos(t.map(r.center()) - QPointF(r.width() / 2, r.height() / 2))
            item.setRotation(turn)
            self.add(item, Z.PRINT)

        def area(bet: str, shape: QPainterPath, anchor: QPointF, fill=None) -> None:
            mapped = t.map(shape)
            self.path(mapped, self.pen(2.5), fill)
            self.add_spot(seat, bet, mapped, t.map(anchor), shared=False,
                          outline=t.map(self._grown(shape)), room=group)

        half_w, half_h = gw / 2, gh / 2
        group = t.mapRect(QRectF(-half_w, -half_h, gw, gh))  # a label stays near its position
        box_w = (gw - 12) / 2
        top = -half_h
        for i, (bet, label) in enumerate((("sum", w["sum"]), ("beat-it", w["beat_it"]))):
            r = QRectF(-half_w + i * (box_w + 12), top, box_w, gh * 0.52)
            area(bet, rounded(r, 12), QPointF(r.center().x(), r.bottom() - 26), QColor(0, 0, 0, 45))
            head = QRectF(r.left(), r.top() + 6, r.width(), 28)
            text(label, head, 22, "accent" if bet == "sum" else "text")
            if bet == "beat-it":  # a red die against two blue: the Beat It wager at a glance
                for k, (face, col) in enumerate(((6, "red"), (2, "blue"), (1, "blue"))):
                    d = DieItem(face, col, 16)
                    d.setPos(t.map(QPointF(r.left() + 22 + k * 24 + (8 if k else 0), r.top() + 46)))
                    d.setRotation(turn)
                    self.add(d, Z.PRINT)
        match_y = top + gh * 0.52 + 40
        step = gw / 6
        for n in range(1, 7):
            c = QPointF(-half_w + step * (n - 0.5), match_y)
            area(f"match-{n}", ellipse(c, step / 2 - 3), c + QPointF(0, self.chip_r * 0.35))
            d = DieItem(n, "white", 22)
            d.setPos(t.map(c))
            d.setRotation(turn)
            self.add(d, Z.PRINT)
        text(w["match"], QRectF(-half_w, match_y + step / 2, gw, 24), 17, "dim")

    @staticmethod
    def _grown(shape: QPainterPath) -> QPainterPath:
        r = shape.boundingRect()
        s = QTransform()
        s.translate(r.center().x(), r.center().y())
        s.scale((r.width() + 8) / r.width(), (r.height() + 8) / r.height())
        s.translate(-r.center().x(), -r.center().y())
        return s.map(shape)

    # --- the state -------------------------------------------------------------------------------

    def dice_anchor(self) -> QRectF:
        c, r = self.shaker_centre, self.shaker_r * 0.8
        return QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)

    def fell_out_point(self, size: float) -> QPointF:
        return self.shaker_centre + QPointF(self.shaker_r + size, self.shaker_r * 0.5)

    def off_table_point(self) -> QPointF:
        return QPointF(self.shaker_centre.x() - 40, 14)

    def caption_pos(self) -> QPointF:
        return QPointF(self.sign_rect.center().x(), self.sign_rect.bottom() + 56)

    def draw_state(self, state: TableState) -> None:
        show = bool(state.dice) and (state.dice_visible or state.irregular is not None)
        shaker = ShakerItem(self.shaker_r, covered=not show, logo="DS")
        shaker.setPos(self.shaker_centre)
        self.add(shaker, Z.PUCK, dynamic=True)
        if not show:
            return
        c = self.shaker_centre
        specs = [DieSpec(face, DICE_COLOURS[i], c + QPointF(x, y), rot)
                 for i, (face, (x, y, rot)) in enumerate(zip(state.dice[:3], DICE_PLACES, strict=False))]
        self.draw_dice(specs, self.die_size, state)
