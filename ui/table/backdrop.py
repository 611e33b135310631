"""The printed layout as a view paints it (its backdrop, felt, boxes, odds and dice), shared by the
views of one table at one size.

A view keeps its own painting of the printed layout (Qt's CacheBackground) and repaints only its
chips and dice over it; but each view built paints it once, which is most of the time a new view
takes to show (a third of a view's build and first paint at 1600 x 900). A view built again for the
same table at the same size (a new exam, a replay, a round watched, a window of the same size)
paints it from here: the same painting, copied. A painting is kept once it is asked for a second
time: the first time it is painted straight into the view, as before (a window resized paints
each size once, and keeps none of them).

What is kept is known by all that makes it: the view's kind, game, options, layout data and type
size (large print), paytable, the number of printed items, the painted device's size and pixel
ratio, the painter's transform and hints, and the part of the table painted. Those used last are kept, up
to 32 MiB of pixels (five paintings of a table at 1600 x 900, one at 4K)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from ui.qt import QPainter, QPixmap, QPointF, QRectF

#: how many bytes of paintings are kept, those used last (at least the one painted now)
KEPT_BYTES = 32 * 1024 * 1024
_painted: OrderedDict[tuple, QPixmap] = OrderedDict()
#: the paintings asked for once, the latest (a painting asked for again is kept)
_asked: OrderedDict[tuple, None] = OrderedDict()
ASKED = 64


def paint(view, painter: QPainter, exposed: QRectF, draw: Callable[[QPainter, QRectF], None]) -> None:
    """Paint `exposed` of the view's printed layout with `painter`: copied from a painting kept
    for the same view, size and painter; else drawn with `draw`, the second time it is asked for
    into a painting kept, then copied. A painter on anything but a pixmap (a print, an image) is
    drawn on directly."""
    device = painter.device()
    if not isinstance(device, QPixmap):
        draw(painter, exposed)
        return
    t = painter.worldTransform()
    key = (view.printed_as(), device.width(), device.height(), device.devicePixelRatio(),
           (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()), painter.renderHints(), exposed.getRect())
    pixmap = _painted.get(key)
    if pixmap is None and key not in _asked:
        _asked[key] = None
        while len(_asked) > ASKED:
            _asked.popitem(last=False)
        draw(painter, exposed)
        return
    if pixmap is None:
        del _asked[key]
        pixmap = QPixmap(device.size())
        pixmap.setDevicePixelRatio(device.devicePixelRatio())
        pixmap.fill(view.backgroundBrush().color())
        into = QPainter(pixmap)
        into.setRenderHints(painter.renderHints())
        into.setWorldTransform(t)
        draw(into, exposed)  # unclipped: the copy is clipped as the painter is
        into.end()
        _painted[key] = pixmap
        while len(_painted) > 1 and sum(_bytes(p) for p in _painted.values()) > KEPT_BYTES:
            _painted.popitem(last=False)
    _painted.move_to_end(key)
    painter.save()
    painter.resetTransform()
    painter.drawPixmap(QPointF(0, 0), pixmap)
    painter.restore()


def _bytes(pixmap: QPixmap) -> int:
    return pixmap.width() * pixmap.height() * max(4, pixmap.depth() // 8)
