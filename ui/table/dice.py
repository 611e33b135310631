"""How every table view draws the dice and the irregular throws: each die at rest, the one the
irregularity is about (fallen out, off the table, cocked on chips, lost, ...), its caption and
the pulse that draws the eye to it."""

from __future__ import annotations

from collections.abc import Mapping

from trainer import COCKED, TableState
from ui.qt import (
    QColor,
    QEasingCurve,
    QPainterPath,
    QPen,
    QPointF,
    QPropertyAnimation,
    QRectF,
    Qt,
)
from ui.table.items import CaptionItem, ChipStackItem, DieItem, LidItem, PulseItem
from ui.table.shapes import DieSpec, Z, ellipse, rounded

#: the caption of an irregular throw that is not a no-roll reason (those are the game's own words,
#: Game.no_roll_names)
CAPTIONS = {"lost-die": "A die is lost"}
#: what each irregular throw looks like, in words for a screen reader: only what the drawing
#: shows (draw_irregular_die), never the rule's name, so a trainee who cannot see the table has
#: to notice it as a sighted one does. "{die}" is the die the drawing is about.
SEEN = {
    "die-on-die": "{die} rests on top of another die, which cannot be read",
    "not-flat": "{die} leans, more than one side up",
    "cocked-multiple-sides": "{die} leans, more than one side up",
    COCKED: "{die} leans against a stack of chips",
    "die-fell-out": "{die} lies outside the shaker",
    "die-off-table": "{die} is off the felt",
    "on-rail": "{die} is off the felt",
    "lost-die": "{die} cannot be seen",
    "in-dice-cup": "{die} lies in the dice cup",
    "on-bank-chips": "{die} lies on the bank's chips",
    "lid-removed": "the shaker's lid is in the shooter's hand",
    "not-simultaneous": "{die} lies apart from the others, a dashed arc behind it",
    "cheating-device": "a small grey box lies beside {die}",
}
#: the throws whose drawing hides a face: the die drawn as missing (lost), or the one under the
#: die on top of it (die on die); by the die's place among the dice (-1: the last)
HIDDEN_FACE = {"lost-die": -1, "die-on-die": 0}


def caption(kind: str, die: int | None = None, names: Mapping[str, str] | None = None) -> str:
    """The short caption drawn for an irregular throw: a no-roll reason in the game's words
    (`names`), a lost die, or a die cocked on chips (`die`: its place)."""
    if kind == COCKED:
        return f"Die {(die or 0) + 1} is cocked on a chip stack"
    return (names or {}).get(kind) or CAPTIONS.get(kind) or kind.replace("-", " ").capitalize()


class DiceDrawn:
    """The dice half of TableView (a mixin: it draws with the view's `add`, `path`, `style`)."""

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
        if self.name_irregularities and state.named:
            self.alert(self.caption_text(kind, target), attention)

    def caption_text(self, kind: str, die: int | None = None) -> str:
        """The caption of an irregular throw on this table, naming a cocked die by its colour."""
        if kind == COCKED and die is not None and die < len(self.die_names):
            return f"The {self.die_names[die]} is cocked on a chip stack"
        return caption(kind, die, self.game.no_roll_names)

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
