"""The pieces a table view draws: felt text, chips, dice, the shaker, pucks, markers and tags.

Every item paints itself in scene units (the layout's fixed logical coordinates), so the table
scales to any window and stays sharp on a projector or a high-DPI screen.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from trainer import chips, fmt_dollars
from ui.qt import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QGraphicsItem,
    QGraphicsObject,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPointF,
    QPolygonF,
    QRadialGradient,
    QRectF,
    QSizeF,
    Qt,
    QTransform,
)
from ui.shell import fonts

CREAM = QColor("#f3ead2")
INK = QColor("#15120c")
SHADOW = QColor(0, 0, 0, 95)

#: chip denominations in cents, largest first: (cents, label, body, stripes, label colour)
CHIPS = (
    (100_000, "1000", "#f2c12e", "#1b1b1b", "#1b1b1b"),
    (50_000, "500", "#6c2c93", "#f4f1ea", "#f4f1ea"),
    (10_000, "100", "#1d1d1f", "#f4f1ea", "#f4f1ea"),
    (2_500, "25", "#177a34", "#f4f1ea", "#f4f1ea"),
    (500, "5", "#c8232c", "#f4f1ea", "#f4f1ea"),
    (100, "1", "#f4f1ea", "#2a5db0", "#1b1b1b"),
)
COIN = (0, "¢", "#b9bcc2", "#7d8188", "#1b1b1b")  # whatever is left under a dollar
MAX_CHIPS_DRAWN = 8

#: dice colours: body, edge, pips
DICE = {
    "white": ("#f7f5ee", "#bdb7a6", "#151515"),
    "red": ("#c91f2b", "#7d0f17", "#fbf7ef"),
    "green": ("#15843f", "#0a4d24", "#fbf7ef"),
    "blue": ("#1d5fc2", "#0d3576", "#fbf7ef"),
}
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def colour(text: str) -> QColor:
    """A colour from layout data; a name Qt does not know is an error in the data."""
    c = QColor(text)
    if not c.isValid():
        raise ValueError(f"{text!r} is not a colour")
    return c


def pen(c, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    """A pen with round joins and caps, as every line of the layout is drawn."""
    p = QPen(QColor(c), width, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    return p


def font(px: float, *, bold: bool = True, condensed: bool = False, serif: bool = False,
         italic: bool = False) -> QFont:
    f = QFont(fonts.SERIF if serif else fonts.SANS)
    f.setPixelSize(max(1, round(px)))
    f.setWeight(QFont.Weight.Bold if bold else QFont.Weight.Normal)
    if condensed:
        f.setStretch(QFont.Stretch.Condensed)
    f.setItalic(italic)
    return f


def chip_breakdown(cents: int) -> list[int]:
    """The fewest chips that make `cents` (trainer.money.chips), largest first, as drawn: a
    remainder under $1 is one coin (0)."""
    return list(_breakdown(cents))


@functools.lru_cache(maxsize=4096)
def _breakdown(cents: int) -> tuple[int, ...]:
    """`chip_breakdown`, worked out once for each amount (a table shows the same few again and again)."""
    drawn = {value for value, *_ in CHIPS}
    made = chips(cents)
    out = [unit for unit, n in made if unit in drawn for _ in range(n)]
    return tuple(out + ([0] if any(unit not in drawn for unit, _ in made) else []))


def chips_drawn(chips: list[int], limit: int = MAX_CHIPS_DRAWN) -> list[int]:
    """At most `limit` chips (at least one) that show every denomination of the stack, largest
    first; where `limit` is fewer than its denominations, the largest of them."""
    limit = max(1, limit)
    if len(chips) <= limit:
        return chips
    counts: dict[int, int] = {}
    for c in chips:
        counts[c] = counts.get(c, 0) + 1
    if limit < len(counts):
        return list(counts)[:limit]
    take = dict.fromkeys(counts, 1)
    while sum(take.values()) < limit:
        d = max((d for d in counts if take[d] < counts[d]), key=lambda d: counts[d] - take[d])
        take[d] += 1
    return [d for d in counts for _ in range(take[d])]


def _chip_style(value: int) -> tuple[str, str, str, str]:
    for v, label, body, stripes, ink in (*CHIPS, COIN):
        if v == value:
            return label, body, stripes, ink
    raise ValueError(value)


def chip_colours(cents: int) -> tuple[str, str, str]:
    """A chip's colours by its value (body, edge spots, ink); any coin is drawn as the coin."""
    _, body, stripes, ink = _chip_style(cents if cents >= 100 else 0)
    return body, stripes, ink


def breakdown_text(cents: int) -> str:
    chips = chip_breakdown(cents)
    parts = []
    for value, *_ in CHIPS:
        if n := chips.count(value):
            parts.append(f"{n} × {fmt_dollars(value).removesuffix('.00')}")
    if 0 in chips:
        parts.append(f"{cents % 100}¢")
    return ", ".join(parts)


def stack_height(cents: int, radius: float) -> float:
    """How tall a chip stack of `cents` stands above its footprint's centre."""
    return radius * 0.27 * len(chips_drawn(chip_breakdown(cents))) + radius * 0.52


@functools.lru_cache(maxsize=8192)
def _words_box(text: str, width: float, height: float, flags: int, px: int, bold: bool, condensed: bool,
               serif: bool, italic: bool) -> tuple[float, float, float, float]:
    """Where `text` stands in a rectangle of `width` by `height` at its top left, in its type at
    `px` pixels (left, top, width, height): measured once for each words, rectangle and type. A
    table's printed words are the same each time its view is built (another game, large print,
    an exam part, a replay): a view built again measures none of them."""
    return QFontMetricsF(font(px, bold=bold, condensed=condensed, serif=serif, italic=italic)).boundingRect(
        QRectF(0, 0, width, height), flags, text).getRect()


class TextItem(QGraphicsItem):
    """Text centred (or aligned) in a rectangle, shrunk to fit it; optionally with a soft shadow."""

    def __init__(self, text: str, rect: QRectF, px: float, colour: QColor = CREAM, *,
                 bold: bool = True, condensed: bool = False, serif: bool = False,
                 italic: bool = False, align=Qt.AlignmentFlag.AlignCenter, shadow: bool = False,
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.text = text
        self._rect = QRectF(0, 0, rect.width(), rect.height())
        self._colour = QColor(colour)
        self._align = align
        self._shadow = shadow
        self._look = (bold, condensed, serif, italic)
        self._font = font(px, bold=bold, condensed=condensed, serif=serif, italic=italic)
        self._flags = align.value | Qt.TextFlag.TextWordWrap.value
        self._px = px
        self._fit()
        self.setPos(rect.topLeft())
        self.setTransformOriginPoint(self._rect.center())
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _fit(self) -> None:
        """The words at their size, or smaller until they fit the rectangle."""
        px = self._px
        while px > 6:
            _, _, w, h = self._need(px)
            if w <= self._rect.width() + 0.5 and h <= self._rect.height() + 0.5:
                break
            px *= 0.93
        self._font.setPixelSize(max(1, round(px)))
        self._px = px

    def _need(self, px: float) -> tuple[float, float, float, float]:
        """Where the words stand in the rectangle at `px` (left, top, width, height)."""
        return _words_box(self.text, self._rect.width(), self._rect.height(), self._flags,
                          max(1, round(px)), *self._look)

    def shrink(self, factor: float = 0.93) -> None:
        """Smaller words, in the same rectangle (to keep clear of words beside them)."""
        self.prepareGeometryChange()
        self._px = max(6.0, self._px * factor)
        self._fit()

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 3, 3)

    def ink_rect(self) -> QRectF:
        """Where the words themselves are drawn, in scene coordinates (the rectangle they are
        fitted into is often much wider)."""
        return self.mapRectToScene(QRectF(*self._need(self._px)))

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setFont(self._font)
        if self._shadow:
            p.setPen(QColor(0, 0, 0, 130))
            p.drawText(self._rect.translated(1.5, 2), self._flags, self.text)
        p.setPen(self._colour)
        p.drawText(self._rect, self._flags, self.text)


class ChipStackItem(QGraphicsItem):
    """A stack of real chips, largest at the bottom, at most eight drawn plus a count.

    Its position is the centre of the bottom chip's footprint; the stack grows upward.
    """

    def __init__(self, cents: int, radius: float, *, faded: bool = False, title: str = "",
                 limit: int = MAX_CHIPS_DRAWN, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.cents = cents
        self.chips = chip_breakdown(cents)
        self.drawn = chips_drawn(self.chips, limit)  # largest at the bottom
        self.r = radius
        self.ry = radius * 0.52
        self.t = radius * 0.27
        self.faded = faded
        tip = f"{fmt_dollars(cents)}  ({breakdown_text(cents)})"
        self.setToolTip(f"{title}\n{tip}" if title else tip)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    @property
    def height(self) -> float:
        return self.t * len(self.drawn) + self.ry

    @staticmethod
    def fits(room: float, radius: float) -> int:
        """How many chips stand in `room` above the footprint's centre, with the count beside the
        top chip that a shortened stack carries."""
        return int((room - radius * 0.52 - max(2.0, radius * 0.55)) // (radius * 0.27))

    def top_point(self) -> QPointF:
        return QPointF(0, -self.t * len(self.drawn) - self.ry)

    def boundingRect(self) -> QRectF:
        r, top = self.r, self.t * len(self.drawn) + self.ry
        bottom = self.ry
        return QRectF(-r - 2, -top - 2, 2 * r + 4 + (r * 1.3 if len(self.chips) > len(self.drawn) else 0),
                      top + bottom + 4)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for call, args in _stack_drawing(tuple(self.drawn), self.r, self.faded,
                                         len(self.chips) if len(self.chips) > len(self.drawn) else 0):
            call(p, *args)


def _faded(text: str, faded: bool) -> QColor:
    """A colour of the chips, in grey on a stack that was collected."""
    c = QColor(text)
    if faded:
        g = round(c.red() * 0.3 + c.green() * 0.59 + c.blue() * 0.11)
        c = QColor(g, g, g)
    return c


@functools.lru_cache(maxsize=512)
def _stack_drawing(drawn: tuple[int, ...], r: float, faded: bool,
                   count: int) -> tuple[tuple[Callable, tuple], ...]:
    """How a chip stack is painted: the painter's calls, in order, each with its arguments, made
    once for each look (its chips, radius, fading and the count a shortened stack carries) and
    played again at every repaint. A table repaints the same few stacks again and again, and
    making the paths, pens and gradients was a third of the time a repaint took."""
    ry, t = r * 0.52, r * 0.27
    out: list[tuple[Callable, tuple]] = []

    def do(name: str, *args) -> None:
        out.append((getattr(QPainter, name), args))

    # the shadow the stack throws on the felt
    do("setPen", Qt.PenStyle.NoPen)
    do("setBrush", SHADOW)
    do("drawEllipse", QRectF(-r * 0.95 + r * 0.12, -ry + r * 0.14, 2 * r, 2 * ry))
    for k, value in enumerate(drawn):
        _, body_t, stripe_t, _ = _chip_style(value)
        body, stripe = _faded(body_t, faded), _faded(stripe_t, faded)
        y = -k * t
        side = QPainterPath()
        side.addRect(QRectF(-r, y - t, 2 * r, t))
        side.addEllipse(QRectF(-r, y - ry, 2 * r, 2 * ry))
        grad = QLinearGradient(-r, 0, r, 0)
        grad.setColorAt(0, body.darker(150))
        grad.setColorAt(0.45, body.darker(105))
        grad.setColorAt(1, body.darker(170))
        do("setPen", QPen(body.darker(260), 0.7))
        do("setBrush", QBrush(grad))
        do("drawPath", side.simplified())
        # edge spots
        do("setPen", Qt.PenStyle.NoPen)
        do("setBrush", stripe)
        for s in (-0.8, -0.3, 0.25, 0.75):
            x = r * s
            dy = ry * (1 - s * s) ** 0.5
            w = r * 0.2 * (1 - s * s) ** 0.5 + 0.6
            do("drawRect", QRectF(x - w / 2, y - t + dy - 0.2, w, t * 0.92))
        top = QRectF(-r, y - t - ry, 2 * r, 2 * ry)
        do("setPen", QPen(body.darker(200), 0.7))
        do("setBrush", body)
        do("drawEllipse", top)
    if not drawn:
        return tuple(out)
    # the top face: inserts on the rim, an inlay and the value
    value = drawn[-1]
    label, body_t, stripe_t, ink_t = _chip_style(value)
    body, stripe, ink = _faded(body_t, faded), _faded(stripe_t, faded), _faded(ink_t, faded)
    cy = -len(drawn) * t
    rim = QPen(stripe, ry * 0.28)
    rim.setCapStyle(Qt.PenCapStyle.FlatCap)
    rim.setDashPattern([1.6, 2.1])
    do("setPen", rim)
    do("setBrush", Qt.BrushStyle.NoBrush)
    do("drawEllipse", QPointF(0, cy), r * 0.83, ry * 0.83)
    inlay = QRadialGradient(QPointF(-r * 0.15, cy - ry * 0.2), r * 0.7)
    inlay.setColorAt(0, body.lighter(125))
    inlay.setColorAt(1, body)
    do("setPen", QPen(stripe, 0.9))
    do("setBrush", QBrush(inlay))
    do("drawEllipse", QPointF(0, cy), r * 0.6, ry * 0.6)
    if r >= 12:
        do("save")
        do("translate", 0, cy)
        do("scale", 1, ry / r * 1.25)
        do("setPen", ink)
        px = r * (0.62 if len(label) <= 2 else 0.5 if len(label) == 3 else 0.42)
        do("setFont", font(px, condensed=True))
        do("drawText", QRectF(-r * 0.6, -r * 0.6, r * 1.2, r * 1.2), Qt.AlignmentFlag.AlignCenter, label)
        do("restore")
    if count:
        badge = QRectF(r * 0.55, cy - ry - r * 0.55, r * 1.5, r * 0.85)
        do("setPen", QPen(CREAM, 1))
        do("setBrush", QColor(10, 20, 14, 225))
        do("drawRoundedRect", badge, r * 0.4, r * 0.4)
        do("setPen", CREAM)
        do("setFont", font(r * 0.58, condensed=True))
        do("drawText", badge, Qt.AlignmentFlag.AlignCenter, f"×{count}")
    return tuple(out)


class DieItem(QGraphicsItem):
    """One die seen from above, centred on its position; `cocked` leans it on an edge so that more
    than one side shows; `face=None` is a die that is not there (lost), drawn as a dashed ghost."""

    def __init__(self, face: int | None, colour_name: str = "white", size: float = 40, *,
                 cocked: bool = False, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        if colour_name not in DICE:
            raise ValueError(f"{colour_name!r} is not a dice colour ({', '.join(DICE)})")
        if face is not None and face not in PIPS:
            raise ValueError(f"{face!r} is not a die face")
        self.face = face
        self.colour_name = colour_name
        self.s = size
        self.cocked = cocked
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        s = self.s
        return QRectF(-s * 0.75, -s * 0.75, s * 1.6, s * 1.7)

    def paint(self, p: QPainter, option, widget=None) -> None:
        s = self.s
        rect = QRectF(-s / 2, -s / 2, s, s)
        rad = s * 0.17
        body_t, edge_t, pip_t = DICE[self.colour_name]
        body, edge, pip = QColor(body_t), QColor(edge_t), QColor(pip_t)
        if self.face is None:
            pen = QPen(CREAM, s * 0.05, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(QColor(0, 0, 0, 60))
            p.drawRoundedRect(rect, rad, rad)
            p.setFont(font(s * 0.6))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, "?")
            return
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SHADOW)
        p.drawRoundedRect(rect.translated(s * 0.08, s * 0.11), rad, rad)
        if self.cocked:
            # the die leans on an edge: a squashed, sheared top face above a visible side face
            top = QTransform().translate(0, -s * 0.12).shear(-0.28, 0).scale(1, 0.72)
            face_poly = top.map(QPolygonF(rect))
            side = QPolygonF([face_poly[3], face_poly[2], face_poly[2] + QPointF(s * 0.05, s * 0.42),
                              face_poly[3] + QPointF(s * 0.05, s * 0.42)])
            p.setPen(QPen(edge.darker(130), s * 0.03))
            p.setBrush(body.darker(135))
            p.drawPolygon(side)
            p.save()
            p.setTransform(top, True)
        grad = QLinearGradient(rect.topLeft(), rect.bottomRight())
        grad.setColorAt(0, body.lighter(118))
        grad.setColorAt(0.6, body)
        grad.setColorAt(1, body.darker(118))
        p.setPen(QPen(edge, s * 0.035))
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(rect, rad, rad)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pip)
        d, pr = s * 0.26, s * 0.095
        for x, y in PIPS[self.face]:
            p.drawEllipse(QPointF(x * d, y * d), pr, pr)
        if self.cocked:
            p.restore()


class ShakerItem(QGraphicsItem):
    """The dice shaker seen from above: a steel cup, covered by its lid or open."""

    def __init__(self, radius: float, *, covered: bool, logo: str = "",
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.r = radius
        self.covered = covered
        self.logo = logo
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        r = self.r * 1.15
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r = self.r
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SHADOW)
        p.drawEllipse(QPointF(r * 0.08, r * 0.1), r, r)
        steel = QRadialGradient(QPointF(-r * 0.3, -r * 0.35), r * 1.3)
        steel.setColorAt(0, QColor("#e8ecef"))
        steel.setColorAt(0.55, QColor("#8f979d"))
        steel.setColorAt(1, QColor("#3d4347"))
        p.setPen(QPen(QColor("#202426"), 1.2))
        p.setBrush(QBrush(steel))
        p.drawEllipse(QPointF(0, 0), r, r)
        if self.covered:
            lid = QRadialGradient(QPointF(-r * 0.25, -r * 0.3), r)
            lid.setColorAt(0, QColor("#3a3f44"))
            lid.setColorAt(1, QColor("#111315"))
            p.setBrush(QBrush(lid))
            p.drawEllipse(QPointF(0, 0), r * 0.84, r * 0.84)
            p.setPen(QPen(QColor("#c9a64a"), r * 0.04))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(0, 0), r * 0.68, r * 0.68)
            p.setPen(QColor("#d9b95c"))
            p.setFont(font(r * 0.24, serif=True))
            p.drawText(QRectF(-r * 0.6, -r * 0.3, r * 1.2, r * 0.6), Qt.AlignmentFlag.AlignCenter,
                       self.logo)
        else:
            well = QRadialGradient(QPointF(0, 0), r * 0.86)
            well.setColorAt(0, QColor("#1d4d36"))
            well.setColorAt(1, QColor("#0a2318"))
            p.setBrush(QBrush(well))
            p.drawEllipse(QPointF(0, 0), r * 0.86, r * 0.86)


class LidItem(QGraphicsItem):
    """The shaker's lid, lifted off: seen tilted, in a player's hand."""

    def __init__(self, radius: float, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.r = radius

    def boundingRect(self) -> QRectF:
        r = self.r
        return QRectF(-r * 1.1, -r, r * 2.2, r * 2)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r = self.r
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SHADOW)
        p.drawEllipse(QRectF(-r + r * 0.1, -r * 0.45 + r * 0.25, 2 * r, r))
        lid = QLinearGradient(-r, 0, r, 0)
        lid.setColorAt(0, QColor("#111315"))
        lid.setColorAt(0.4, QColor("#4a5056"))
        lid.setColorAt(1, QColor("#111315"))
        p.setPen(QPen(QColor("#c9a64a"), r * 0.06))
        p.setBrush(QBrush(lid))
        p.drawRect(QRectF(-r, -r * 0.15, 2 * r, r * 0.3))
        p.drawEllipse(QRectF(-r, -r * 0.6, 2 * r, r * 0.9))


class PuckItem(QGraphicsItem):
    """A round marker puck (Down Puck, Game Length Puck, shooter's puck, a lammer)."""

    def __init__(self, text: str, radius: float, fill: str = "#f4f1ea", ink: str = "#15120c", *,
                 rim: str = "#15120c", parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.text, self.r = text, radius
        self.fill, self.ink, self.rim = QColor(fill), QColor(ink), QColor(rim)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        r = self.r * 1.2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r = self.r
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SHADOW)
        p.drawEllipse(QPointF(r * 0.1, r * 0.14), r, r)
        g = QRadialGradient(QPointF(-r * 0.3, -r * 0.35), r * 1.3)
        g.setColorAt(0, self.fill.lighter(115))
        g.setColorAt(1, self.fill.darker(125))
        p.setPen(QPen(self.rim, r * 0.1))
        p.setBrush(QBrush(g))
        p.drawEllipse(QPointF(0, 0), r, r)
        p.setPen(QPen(self.rim, r * 0.04))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(0, 0), r * 0.78, r * 0.78)
        if self.text:
            p.setPen(self.ink)
            f = font(r * (0.8 if len(self.text) <= 2 else 0.5 if len(self.text) <= 4 else 0.34),
                     condensed=True)
            p.setFont(f)
            p.drawText(QRectF(-r * 0.8, -r * 0.8, r * 1.6, r * 1.6), Qt.AlignmentFlag.AlignCenter,
                       self.text)


class PointerItem(QGraphicsItem):
    """The pointer marker the dealer sets on the thrown combination: a white arrow, tip at (0, 0)."""

    def __init__(self, size: float = 34, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.s = size
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        s = self.s
        return QRectF(-s * 0.7, -s * 1.4, s * 1.5, s * 1.6)

    def _shape(self) -> QPolygonF:
        s = self.s
        return QPolygonF([QPointF(0, 0), QPointF(-s * 0.55, -s * 0.6), QPointF(-s * 0.55, -s * 1.3),
                          QPointF(s * 0.55, -s * 1.3), QPointF(s * 0.55, -s * 0.6)])

    def paint(self, p: QPainter, option, widget=None) -> None:
        s = self.s
        poly = self._shape()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(SHADOW)
        p.drawPolygon(poly.translated(s * 0.08, s * 0.1))
        p.setPen(pen(INK, s * 0.07))
        p.setBrush(QColor("#fbf8f0"))
        p.drawPolygon(poly)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#c8232c"))
        p.drawEllipse(QPointF(0, -s * 0.85), s * 0.2, s * 0.2)


class TagItem(QGraphicsItem):
    """A small pill of text (HELD, REFUSED, a seat's puck label), centred on its position."""

    def __init__(self, text: str, px: float, fill: str, ink: str = "#15120c", *,
                 outline: str | None = None, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.text = text
        self._font = QFont(self._tag_font(px))
        w, h = self._size(text, px)
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.fill, self.ink = QColor(fill), QColor(ink)
        self.outline = QColor(outline) if outline else self.fill.darker(160)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @staticmethod
    def _pill(f: QFont, text: str, px: float) -> tuple[float, float]:
        """Its width and height: a line of text, or a few (a label folded to fit a narrow box)."""
        lines = text.split("\n")
        metrics = QFontMetricsF(f)
        return (max(metrics.horizontalAdvance(line) for line in lines) + px * 0.9,
                px * 1.45 + (len(lines) - 1) * metrics.lineSpacing())

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def _tag_font(px: float) -> QFont:
        """A tag's type at `px` (each tag takes its own copy)."""
        return font(px, condensed=True)

    @staticmethod
    @functools.lru_cache(maxsize=4096)
    def _size(text: str, px: float) -> tuple[float, float]:
        """`_pill` in a tag's type, measured once for each words and size."""
        return TagItem._pill(TagItem._tag_font(px), text, px)

    @staticmethod
    @functools.lru_cache(maxsize=4096)
    def measure(text: str, px: float) -> QSizeF:
        """The size of the pill `text` makes at `px` (its bounding rectangle's), without making it."""
        w, h = TagItem._size(text, px)
        return QSizeF(w + 5, h + 5)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 3, 3)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(QPen(self.outline, 1.2))
        p.setBrush(self.fill)
        r = min(self._rect.height(), self._rect.width()) / 2
        p.drawRoundedRect(self._rect, r, r)
        p.setPen(self.ink)
        p.setFont(self._font)
        p.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class CaptionItem(QGraphicsItem):
    """The banner that names an irregular throw, so that the trainee cannot miss it."""

    def __init__(self, text: str, px: float = 26, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.text = text
        self._font = font(px)
        w = QFontMetricsF(self._font).horizontalAdvance(text) + px * 2.6
        h = px * 1.9
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.px = px
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-4, -4, 8, 8)

    def paint(self, p: QPainter, option, widget=None) -> None:
        r, px = self._rect, self.px
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 110))
        p.drawRoundedRect(r.translated(3, 4), px * 0.45, px * 0.45)
        p.setPen(QPen(QColor("#3a2600"), 2))
        p.setBrush(QColor("#ffc21a"))
        p.drawRoundedRect(r, px * 0.45, px * 0.45)
        icon = QPointF(r.left() + px * 0.95, 0)
        p.setBrush(QColor("#3a2600"))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawEllipse(icon, px * 0.55, px * 0.55)
        p.setPen(QColor("#ffc21a"))
        p.setFont(self._font)
        p.drawText(QRectF(icon.x() - px * 0.5, -px * 0.6, px, px * 1.2), Qt.AlignmentFlag.AlignCenter, "!")
        p.setPen(QColor("#241800"))
        p.drawText(r.adjusted(px * 1.75, 0, -px * 0.5, 0), Qt.AlignmentFlag.AlignVCenter, self.text)


class PulseItem(QGraphicsObject):
    """A bright ring around something the trainee must notice; the view animates its opacity."""

    def __init__(self, path: QPainterPath, colour: str = "#ffc21a", width: float = 5,
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self._path = path
        self._colour = QColor(colour)
        self._width = width
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        w = self._width * 3
        return self._path.boundingRect().adjusted(-w, -w, w, w)

    def paint(self, p: QPainter, option, widget=None) -> None:
        glow = QColor(self._colour)
        glow.setAlpha(80)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(pen(glow, self._width * 2.6))
        p.drawPath(self._path)
        p.setPen(pen(self._colour, self._width))
        p.drawPath(self._path)


class HitItem(QGraphicsItem):
    """The clickable area of one (seat, bet): invisible, it carries the wager key and a tooltip."""

    def __init__(self, path: QPainterPath, seat: int, bet: str, tooltip: str = "",
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self._path = path
        self._bounds = path.boundingRect()  # asked for at every repaint: worked out once
        self.key = (seat, bet)
        # it paints nothing: a repaint passes it by (a click and a tooltip still find it)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        if tooltip:
            self.setToolTip(tooltip)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_path(self, path: QPainterPath) -> None:
        self.prepareGeometryChange()
        self._path = path
        self._bounds = path.boundingRect()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._path

    def paint(self, p: QPainter, option, widget=None) -> None:
        pass
