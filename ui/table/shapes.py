"""The shapes and layers every table view draws with: the stacking order (Z), a wager's spot, a
die at rest, and rectangles, rounded boxes and ellipses from layout numbers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ui.qt import QPainterPath, QPointF, QRectF
from ui.table.items import HitItem


class Z:
    """What is drawn over what: the selected box's ring lies under the chips and their labels,
    which it would otherwise hide."""

    FELT, PRINT, AREA, HIT, PUCK, SELECT, CHIPS, PAYOUT, MARK, DICE, ALERT = (
        0, 1, 2, 3, 6, 8, 10, 11, 12, 20, 40)


@dataclass
class Spot:
    """Where one seat's wager on one bet sits."""

    anchor: QPointF  # the centre of the chip stack's footprint
    outline: QPainterPath  # drawn when the wager is selected
    shared: bool  # a box every seat shares: the stack's label carries its seat number
    hit: HitItem
    room: QRectF | None = None  # the box the wager sits in: its chips' label stays inside it


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
