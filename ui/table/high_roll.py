"""The High Roll Dice table, § 675a.1(b), and its 6-dice variation, § 675a.6(b): at each betting
position the Pip Street dice (two-spot farthest left, one-spot farthest right), the Like Kind
Boulevard circles, Millionaire Row and the extra-roll sensor (10 dice only); the throw box labelled
Ace ... Six, where the dealer moves the winning face's dice after the first roll.
Geometry and words: resources/layouts/high-roll-dice.toml.
"""

from __future__ import annotations

from dataclasses import replace

from trainer import COCKED, Do, TableState, get_game
from ui.qt import QColor, QLinearGradient, QPainterPath, QPen, QPointF, QRectF, Qt
from ui.table.base import DieSpec, TableView, Z, ellipse, rect, rounded
from ui.table.items import DieItem, TagItem, pen

PIP_ORDER = (2, 3, 4, 5, 6, 1)  # § 675a.1(b)(2)(iii): the two-spot at the player's left


class HighRollView(TableView):
    layout_id = "high-roll-dice"
    die_size = 30.0
    showcase = (("high-roll-dice", "hrd-extra-roll-partial", 3),
                ("high-roll-dice-6", "hrd6-full-table-four-twos", 2))
    actions = (
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.NO_MORE_BETS, "N"), (Do.LOCK_OUT_EXTRA_ROLL, "L"),
        (Do.SHAKE_AND_THROW, "T"), (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"), (Do.MOVE_DICE, "B"),
        (Do.COLLECT, "C"), (Do.PAY, "P"), (Do.EXTRA_ROLL, "E"),
    )

    @classmethod
    def actions_for(cls, game_id: str) -> tuple[tuple[Do, str], ...]:
        """Without the Extra Roll's actions where the game sells none (the 6-dice variation)."""
        if "extra-roll" in get_game(game_id).events:
            return cls.actions
        return tuple((d, k) for d, k in cls.actions if d not in (Do.LOCK_OUT_EXTRA_ROLL, Do.EXTRA_ROLL))

    def build(self) -> None:
        g = self.geo
        self.variant = g[self.game_id]
        self.sensors: dict[int, QRectF] = {}
        self.felt = rect(g["felt"])
        self.draw_table(rounded(self.felt, g["felt_radius"]))
        self.text(g["dealer"], QRectF(0, 2, self.sceneRect().width(), 22), 16, "dim")
        self._throw_box()
        self._panels()
        self._positions()

    # --- the throw box and the signs ---------------------------------------------------------------

    def _throw_box(self) -> None:
        t = self.geo["throw_box"]
        r = rect(t["rect"])
        self.throw_rect = r
        g = QLinearGradient(0, r.top(), 0, r.bottom())
        g.setColorAt(0, QColor("#062f1e"))
        g.setColorAt(1, QColor("#0a4a2f"))
        self.path(rounded(r, 14), QPen(QColor("#2b1a10"), 7), g)
        self.path(rounded(r.adjusted(4, 4, -4, -4), 11), self.pen(2, alpha=160), None)
        n = len(t["boxes"])
        w = (r.width() - 16) / n
        self.face_boxes: dict[int, QRectF] = {}
        for i, (name, face) in enumerate(zip(t["boxes"], t["faces"], strict=True)):
            b = QRectF(r.left() + 8 + i * w + 3, r.top() + 10, w - 6, t["box_height"])
            self.face_boxes[int(face)] = b
            self.path(rounded(b, 8), self.pen(2.5), QColor(0, 0, 0, 45))
            self.add_place(self.game.throw_box(int(face)), rounded(b, 8),
                           f"The {name} box: the matching dice go here")
            self.text(name.upper(), QRectF(b.left(), b.top() + 2, b.width(), 24), 19, "accent")
        self.scatter = QRectF(r.left() + 24, r.top() + t["box_height"] + 22, r.width() - 48,
                              r.height() - t["box_height"] - 34)

    def _panels(self) -> None:
        w = self.geo["words"]
        r = self.throw_rect
        left = QRectF(self.felt.left() + 14, r.top(), r.left() - self.felt.left() - 28, r.height())
        right = QRectF(r.right() + 14, r.top(), self.felt.right() - r.right() - 28, r.height())
        pays = self.pays
        pip = [(f"{'Ace' if f == 1 else self.geo['throw_box']['boxes'][PIP_ORDER.index(f)]}",
                pays["pip-street"].line(self.game.face_keys[f]).text) for f in (1, 6, 5, 4, 3, 2)]
        like = [(self._kind_words(k), pays["like-kind"].line(k).text)
                for k in reversed(self.variant["like_kind"])]
        self.text(self.variant["title"], QRectF(right.left(), right.top(), right.width(), 30), 22, "accent",
                  shadow=True)
        self.text(self.geo["logo"], QRectF(right.left(), right.top() + 30, right.width(), 30), 20, serif=True)
        if self.variant["extra_roll"]:
            half = left.width() / 2
            self._sign(QRectF(left.left(), left.top(), half - 6, left.height()), w["pip_odds"], pip)
            second = QRectF(left.left() + half + 6, left.top(), half - 6, left.height())
            self._sign(second, w["like_kind_odds"], like)
            extra = [(self._kind_words(k), line.text)
                     for k, line in reversed(pays["like-kind-extra-roll"].lines.items())]
            mill = [(self._kind_words(k), "$" + line.text.split(" to ")[0])
                    for k, line in reversed(pays["millionaire-row"].lines.items())]
            low = QRectF(right.left(), right.top() + 68, right.width(), right.height() - 68)
            half = low.width() / 2
            self._sign(QRectF(low.left(), low.top(), half - 6, low.height()), w["extra_roll_odds"], extra)
            self._sign(QRectF(low.left() + half + 6, low.top(), half - 6, 96), w["millionaire_odds"], mill)
        else:
            self._sign(left, w["pip_odds"], pip)
            low = QRectF(right.left(), right.top() + 68, right.width(), right.height() - 68)
            self._sign(low, w["like_kind_odds"], like)

    def _kind_words(self, k: str) -> str:
        return self.geo["words"]["none"].title() if k == "none" else f"{k} of a kind"

    def _sign(self, r: QRectF, title: str, lines: list[tuple[str, str]]) -> None:
        self.path(rounded(r, 8), self.pen(1.5, alpha=150), QColor(0, 0, 0, 70))
        self.text(title, QRectF(r.left() + 4, r.top() + 4, r.width() - 8, 22), 15, "accent", condensed=True)
        h = min(24.0, (r.height() - 32) / max(1, len(lines)))
        for i, (what, odds) in enumerate(lines):
            y = r.top() + 28 + i * h
            paid = self.text(odds, QRectF(r.left() + r.width() * 0.45, y, r.width() * 0.55 - 8, h), 14,
                             condensed=True,
                             align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            # the words end where the odds begin ("10 of a kind" never runs into "$1,000,000")
            room = min(r.width() * 0.5, paid.ink_rect().left() - 4 - (r.left() + 8))
            self.text(what, QRectF(r.left() + 8, y, room, h), 14, bold=False, condensed=True,
                      align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

    # --- the betting positions -----------------------------------------------------------------------

    def _positions(self) -> None:
        s = self.geo["seats"]
        area = rect(s["area"])
        w = area.width() / self.game.seats
        for i in range(self.game.seats):
            seat = self.game.seats - i
            col = QRectF(area.left() + i * w, area.top(), w, area.height())
            if i:
                line = self._vline(col.left(), col.top() + 6, col.bottom() - 6)
                self.path(line, self.pen(1.5, alpha=90), None)
            self._position(seat, col, float(self.variant["pip_die"]))
            self.seat_plate(seat, QRectF(col.left() + 8, s["plates_y"], col.width() - 16, s["plate_height"]))

    @staticmethod
    def _vline(x: float, y0: float, y1: float) -> QPainterPath:
        p = QPainterPath(QPointF(x, y0))
        p.lineTo(x, y1)
        return p

    def _position(self, seat: int, col: QRectF, die: float) -> None:
        w = self.geo["words"]
        cx = col.center().x()
        ten = self.variant["extra_roll"]
        kinds = self.variant["like_kind"]
        rows = self.variant["like_kind_rows"]
        rad = float(self.variant["circle_radius"])
        gap = rad * 2 + 8
        needed = 110 + len(rows) * gap + (104 if self.variant["millionaire"] else 0) + (62 if ten else 0) + 46
        y = col.top() + max(0.0, (col.height() - needed) / 2)
        lift = QPointF(0, self.chip_r * 0.35)
        self.text(w["pip_street"], QRectF(col.left(), y + 4, col.width(), 22), 16, "dim")
        step = die + 4
        for i, face in enumerate(PIP_ORDER):
            c = QPointF(cx + (i - 2.5) * step, y + 52)
            item = DieItem(face, "white", die)
            item.setPos(c)
            self.add(item, Z.PRINT)
            box = QRectF(c.x() - step / 2, c.y() - step / 2 - 4, step, step + 8)
            bet = f"pip-{self.game.face_keys[face]}"
            self.add_spot(seat, bet, rounded(box, 6), c + lift, shared=False, room=col)
        self.text(w["like_kind"], QRectF(col.left(), y + 82, col.width(), 22), 16, "dim")
        k = 0
        for row, count in enumerate(rows):
            cy = y + 110 + rad + row * gap
            for j in range(count):
                c = QPointF(cx + (j - (count - 1) / 2) * gap, cy)
                key = kinds[k]
                k += 1
                self.path(ellipse(c, rad), self.pen(2.5), QColor(0, 0, 0, 40))
                if key == "none":
                    circle = QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad)
                    self.text(w["none"].replace(" ", "\n"), circle, 13, condensed=True)
                else:
                    self.text(key, QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad), rad)
                self.add_spot(seat, f"like-kind-{key}", ellipse(c, rad), c + lift, shared=False,
                              outline=ellipse(c, rad + 3), room=col)
        y += 110 + len(rows) * gap
        if self.variant["millionaire"]:
            gold = QColor("#f2c14e")
            self.text(w["millionaire"], QRectF(col.left(), y + 2, col.width(), 22), 16, "accent")
            for j, key in enumerate(self.variant["millionaire"]):
                c = QPointF(cx + (j - 0.5) * 76, y + 52)
                self.path(ellipse(c, 26), pen(gold, 3), QColor(0, 0, 0, 60))
                self.text(key, QRectF(c.x() - 26, c.y() - 26, 52, 52), 24, colour=gold)
                self.add_spot(seat, f"millionaire-{key}", ellipse(c, 26), c + lift, shared=False,
                              outline=ellipse(c, 29), room=col)
            self.text(w["first_roll"], QRectF(col.left(), y + 82, col.width(), 18), 14, "dim", condensed=True)
            y += 104
        if ten:
            sensor = QRectF(cx - 104, y + 4, 208, 50)
            self.sensors[seat] = sensor
            self.path(rounded(sensor, 10), self.pen(2.5), QColor(0, 0, 0, 80))
            self.text(w["extra_roll"], QRectF(sensor.left() + 36, sensor.top(), 110, sensor.height()), 18,
                      condensed=True)
            self.path(ellipse(QPointF(sensor.left() + 20, sensor.center().y()), 8), QPen(QColor("#111"), 1.5),
                      QColor("#30403a"))
            anchor = QPointF(sensor.right() - 30, sensor.center().y()) + lift
            self.add_spot(seat, "extra-roll", rounded(sensor, 10), anchor, shared=False,
                          outline=rounded(sensor.adjusted(-3, -3, 3, 3), 12), room=col)
            y += 62
        words = QRectF(col.left() + 10, y + 4, col.width() - 20, 40)
        self.text(self.variant["inscription"], words, 14, "dim", bold=False, italic=True)

    # --- the state -------------------------------------------------------------------------------

    def set_state(self, state: TableState) -> None:
        held = {tuple(k): "held" for k in state.state.get("held", [])}
        if held:
            state = replace(state, marks={**held, **state.marks})
        super().set_state(state)

    def wagers_drawn_by_game(self, state: TableState) -> tuple:
        """A seat's Extra Roll sensor is lit while it has the wager (`draw_state`)."""
        return tuple(sorted({w.seat for w in state.wagers if w.bet == "extra-roll"}))

    def dice_anchor(self) -> QRectF:
        return self.scatter

    def off_table_point(self) -> QPointF:
        return QPointF(self.throw_rect.center().x() + 120, 13)

    def caption_pos(self) -> QPointF:
        # just below the throw box: over printed words, never over a die the trainee must read
        return QPointF(self.throw_rect.center().x(), self.throw_rect.bottom() + 28)

    def draw_state(self, state: TableState) -> None:
        st = state.state
        face, count = int(st.get("face") or 0), int(st.get("count") or 0)
        if self.sensors:
            lit = {w.seat for w in state.wagers if w.bet == "extra-roll"}
            for seat in lit & set(self.sensors):
                s = self.sensors[seat]
                c = QPointF(s.left() + 20, s.center().y())
                self.path(ellipse(c, 11), None, QColor(80, 255, 120, 90), Z.PUCK, dynamic=True)
                self.path(ellipse(c, 7), None, QColor("#5dff86"), Z.PUCK, dynamic=True)
        if st.get("extra_roll"):
            tag = TagItem("EXTRA ROLL", 18, "#4fc3f7", "#061c27")
            tag.setPos(self.scatter.right() - 80, self.scatter.bottom() - 8)
            self.add(tag, Z.PUCK, dynamic=True)
        # an irregular first roll is drawn as thrown, before any die is moved; during the extra
        # roll the first roll's matching dice stay in their box
        moved = state.placed.get(Do.MOVE_DICE)
        if moved is not None:  # where the dealer put them, right or wrong: that face's dice
            face = {v: k for k, v in self.game.face_keys.items()}.get(moved, face)
            count = sum(1 for d in state.dice or () if d == face)
        # a die cocked on chips is a valid throw, read by the face opposite the chips
        # (§ 675a.4(c)): its matching dice are moved like any other's; a no roll's are not
        cocked = state.irregular == COCKED and not st.get("extra_roll")
        in_box = face in self.face_boxes and count and (not state.irregular or cocked
                                                        or st.get("extra_roll"))
        if in_box:
            self._moved(face, count)
        if not state.dice or not (state.dice_visible or state.irregular):
            return
        if not (in_box and cocked):
            rest = list(state.dice) if state.irregular or not in_box else [d for d in state.dice if d != face]
            self.draw_dice(self._scatter(rest), self.die_size, state)
            return
        left = [i for i, d in enumerate(state.dice) if d != face]  # the dice still where they lie
        die = state.cocked_die
        if die in left:  # the cocked die lies where it fell, still cocked
            self.draw_dice(self._scatter([state.dice[i] for i in left]), self.die_size,
                           replace(state, cocked_die=left.index(die)))
            return
        # the cocked die was read and moved with its matching dice: the throw is still named
        self.draw_dice(self._scatter([state.dice[i] for i in left]), self.die_size,
                       replace(state, irregular=None, cocked_die=None))
        if self.name_irregularities and state.named:
            self.alert(self.caption_text(COCKED, die), rounded(self.face_boxes[face], 8))

    def _moved(self, face: int, count: int) -> None:
        """§ 675a.4(e): the winning face's dice, moved into its box, left in plain view."""
        b = self.face_boxes[face]
        size = float(self.geo["throw_box"]["die"])
        per_row = 5
        for i in range(count):
            row, col = divmod(i, per_row)
            n = min(per_row, count - row * per_row)
            x = b.center().x() + (col - (n - 1) / 2) * (size + 3)
            y = b.top() + 44 + row * (size + 4)
            self.die(face, "white", QPointF(x, y), size, 0)

    def _scatter(self, dice: list[int]) -> list[DieSpec]:
        """The thrown dice at rest across the throw box, spread evenly with a little play."""
        r = self.scatter
        n = len(dice)
        per_row = max(1, (n + 1) // 2)
        specs = []
        for i, face in enumerate(dice):
            row, col = divmod(i, per_row)
            x = r.left() + r.width() * (col + 0.5) / per_row + ((i * 37) % 23 - 11) * 1.5
            y = r.top() + r.height() * (0.3 if row == 0 else 0.72) + ((i * 53) % 17 - 8)
            specs.append(DieSpec(face, "white", QPointF(x, y), float((i * 47) % 50 - 25)))
        return specs
