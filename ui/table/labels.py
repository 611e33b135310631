"""Where each chip stack's label goes: its amount (and seat, in a box every seat shares, and mark),
set beside the stack where it covers no printed words, dice, chips or other label.

A label has forms, largest first: all its words, then the same words in smaller type, then
folded onto two lines (the mark's word is never dropped). Each form is tried at a few places around its
stack: under the stack's footprint, above its top, to the right, to the left, the corners, a row
further out, and each of these moved into the stack's box; where all of these cover something,
across the part of the box around the stack; and only where none of those is in the box, across
the whole box. Each place costs the area it covers: the printed words and dice and the labels
placed before it most, other stacks less, its own stack least (a label on its own chips still
reads). A place outside the stack's box costs more than any overlap inside it, and each place a
little for its distance from the stack. The first form with a place that covers nothing wins;
failing that, the cheapest place of any form.

Labels whose place still covers no more than when they were put there stay put, before any other
is placed (labels do not jump about when another stack changes, and a redraw places only the
labels that changed). The rest are placed top to bottom, left to right, so a table lays out the
same way every time. What is near is looked up in grids, so a table of hundreds of stacks places
its labels in time that grows with their number, not its square.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ui.qt import QPointF, QRectF, QSizeF

#: a place outside the stack's own box costs this much more than covering anything inside it
OUTSIDE = 1e9
GAP = 2.0
#: what each unit of distance from the stack costs: among places that cover the same, the nearest
NEAR = 0.01
#: how much covering each thing costs, per unit of area: the printed words and other labels most,
#: other stacks less, and the label's own stack least (the label on its own chips still reads)
WORDS, STACKS, OWN = 3.0, 1.0, 0.2

Box = tuple[float, float, float, float]  # left, top, right, bottom: plain numbers, for speed
Rect = tuple[float, float, float, float]  # left, top, width, height: a QRectF's numbers, as QRectF keeps them


@dataclass
class Wanted:
    """One label to place: the sizes of its forms (longest first), the stack it names (scene
    rectangle, footprint centre) and the box the stack sits in (the label stays in it if it can)."""

    sizes: tuple[QSizeF, ...]
    stack: QRectF
    anchor: QPointF
    room: QRectF


@dataclass(frozen=True)
class Placed:
    """Where a label went, in which form, and what that place covered when it was chosen."""

    rect: QRectF
    covers: float
    form: int = 0


class Grid:
    """Boxes indexed by where they are: asking for those near a region reads a few cells."""

    CELL = 120.0

    def __init__(self, boxes: Iterable[Box] = ()):
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            self.add(b)

    def add(self, b: Box) -> None:
        c, cells = self.CELL, self.cells
        rows = range(int(b[1] // c), int(b[3] // c) + 1)
        for i in range(int(b[0] // c), int(b[2] // c) + 1):
            for j in rows:
                if (key := (i, j)) in cells:
                    cells[key].append(b)
                else:
                    cells[key] = [b]

    def near(self, region: Box) -> list[Box]:
        """The boxes that reach into `region`, read from the cells it spans, column by column."""
        found: set[Box] = set()
        c, cells = self.CELL, self.cells
        rows = range(int(region[1] // c), int(region[3] // c) + 1)
        for i in range(int(region[0] // c), int(region[2] // c) + 1):
            for j in rows:
                if (key := (i, j)) in cells:
                    found.update(cells[key])
        return _near(found, region)

    def all(self) -> set[Box]:
        return {b for boxes in self.cells.values() for b in boxes}


class Printed(Grid):
    """The printed layout's words and dice (made once per table). What a place covers of them is
    kept: a label that stays is asked about the same place at every redraw."""

    def __init__(self, rects: Iterable[QRectF]):
        super().__init__(_box(r) for r in rects)
        self._covered: dict[Box, tuple[float, ...]] = {}

    def covered(self, place: Box) -> tuple[float, ...]:
        """What a place covers of each printed box it reaches, weighed (in `near`'s order)."""
        if (found := self._covered.get(place)) is None:
            found = self._covered[place] = tuple(_overlaps(place, [(b, WORDS) for b in self.near(place)]))
        return found


def _box(r: QRectF) -> Box:
    return r.getCoords()  # left, top, right, bottom, in one call


def _near(boxes: Iterable[Box], region: Box) -> list[Box]:
    """The boxes that reach into a region (all a label placed in it can cover)."""
    left, top, right, bottom = region
    return [b for b in boxes if b[0] < right and b[2] > left and b[1] < bottom and b[3] > top]


def _overlaps(place: Box, weighed: Iterable[tuple[Box, float]]) -> Iterator[float]:
    """What a place covers of each box it overlaps: the overlap's area, weighed (without min and
    max calls)."""
    left, top, right, bottom = place
    for (o0, o1, o2, o3), wt in weighed:
        iw = (right if right < o2 else o2) - (left if left > o0 else o0)
        if iw > 0:
            ih = (bottom if bottom < o3 else o3) - (top if top > o1 else o1)
            if ih > 0:
                yield wt * iw * ih


def candidates(want: Wanted, size: QSizeF) -> list[Rect]:
    """The places near a label's stack for one form of it, nearest first."""
    w, h = size.width(), size.height()
    sx, sy, sw, sh = want.stack.getRect()
    ax = want.anchor.x()
    top, bottom, left, right = sy, sy + sh, sx, sx + sw
    below = (ax - w / 2, bottom + GAP, w, h)
    above = (ax - w / 2, top - GAP - h, w, h)
    mid = (sy + sh / 2) - h / 2
    beside = [(right + GAP, mid, w, h), (left - GAP - w, mid, w, h)]
    corners = [(x, y, w, h) for y in (top - GAP - h, bottom + GAP) for x in (right + GAP, left - GAP - w)]
    near = [below, above, *beside, *corners]
    room = want.room.getRect()
    return [*near, (below[0], below[1] + (h + GAP), w, h), (above[0], above[1] + (-h - GAP), w, h),
            *(_inside(r, room) for r in near)]


def _scan(region: QRectF, w: float, h: float) -> list[Rect]:
    """Places across a region, for a label that finds nothing free beside its stack."""
    out = []
    rx, ry, rw, rh = region.getRect()
    y = ry + GAP
    while y + h <= (ry + rh) - GAP:
        x = rx + GAP
        while x + w <= (rx + rw) - GAP:
            out.append((x, y, w, h))
            x += max(6.0, w / 2)
        y += h * 0.75
    return out


def _inside(r: Rect, room: Rect) -> Rect:
    """`r` moved the least that puts it inside `room` (where it fits)."""
    (x, y, w, h), (rx, ry, rw, rh) = r, room
    dx = max(rx - x, 0.0) + min((rx + rw) - (x + w), 0.0)
    dy = max(ry - y, 0.0) + min((ry + rh) - (y + h), 0.0)
    return (x + dx, y + dy, w, h)


class Costs:
    """What each place of one label covers (0: nothing), and that plus a little for its distance
    from the stack: a batch of places at once, against only what is near the batch."""

    def __init__(self, weighed: list[tuple[Box, float]], room: Box, anchor: tuple[float, float]):
        self.weighed, self.room, self.anchor = weighed, room, anchor

    def __call__(self, places: list[Rect]) -> list[tuple[float, float]]:
        if not places:
            return []
        boxes = [(x, y, x + w, y + h) for x, y, w, h in places]
        span = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))
        near = _near_weighed(self.weighed, span)
        room, (ax, ay) = self.room, self.anchor
        out = []
        for left, top, right, bottom in boxes:
            covers = 0.0 if room[0] <= left and room[1] <= top and right <= room[2] and bottom <= room[3] \
                else OUTSIDE
            for (o0, o1, o2, o3), wt in near:  # _overlaps, written out: this loop is the hot one
                iw = (right if right < o2 else o2) - (left if left > o0 else o0)
                if iw > 0:
                    ih = (bottom if bottom < o3 else o3) - (top if top > o1 else o1)
                    if ih > 0:
                        covers += wt * iw * ih
            cx, cy = (left + right) / 2, (top + bottom) / 2
            out.append((covers, covers + NEAR * ((cx - ax) ** 2 + (cy - ay) ** 2) ** 0.5))
        return out


def _near_weighed(weighed: list[tuple[Box, float]], region: Box) -> list[tuple[Box, float]]:
    """The weighed boxes that reach into a region."""
    left, top, right, bottom = region
    return [(b, wt) for b, wt in weighed if b[0] < right and b[2] > left and b[1] < bottom and b[3] > top]


def place(wanted: list[Wanted], printed: Printed,
          previous: list[Placed | None] | None = None) -> list[Placed]:
    """Each label's place, in the order `wanted` gives them (see the module docstring)."""
    previous = previous or [None] * len(wanted)
    stacks = Grid()
    boxes = [_box(w.stack) for w in wanted]
    for b in boxes:
        stacks.add(b)
    placed = Grid()
    out: dict[int, Placed] = {}

    def costs_for(k: int, where: QRectF | None = None) -> Callable[[list[QRectF]], list[tuple[float, float]]]:
        """The costs of places for label k, within `where` (else anywhere it may go)."""
        want = wanted[k]
        w = max(s.width() for s in want.sizes)
        h = max(s.height() for s in want.sizes)
        region = _box(where if where is not None else
                      want.stack.united(want.room).adjusted(-2 * w, -2 * h, 2 * w, 2 * h))
        own = boxes[k]
        others = [b for b in stacks.near(region) if b != own]
        weighed = ([(b, WORDS) for b in printed.near(region)] + [(b, WORDS) for b in placed.near(region)]
                   + [(b, STACKS) for b in others] + [(own, OWN)])
        return Costs(weighed, _box(want.room), (want.anchor.x(), want.anchor.y()))

    def stays(k: int, before: Placed) -> bool:
        """Whether label k's place covers no more than when it was chosen: what Costs adds up for
        it, in the same order, given up as soon as it is more."""
        here, room, limit = _box(before.rect), _box(wanted[k].room), before.covers + 1e-6
        covers = 0.0 if room[0] <= here[0] and room[1] <= here[1] and here[2] <= room[2] \
            and here[3] <= room[3] else OUTSIDE
        own = boxes[k]
        for weighed in (printed.covered(here), _overlaps(here, [(b, WORDS) for b in placed.near(here)]),
                        _overlaps(here, [(b, STACKS) for b in stacks.near(here) if b != own]),
                        _overlaps(here, [(own, OWN)])):
            for part in weighed:
                covers += part
                if covers > limit:
                    return False
        return covers <= limit

    for k, before in enumerate(previous):  # first, the labels that may stay where they are
        if before is None or before.form >= len(wanted[k].sizes):
            continue
        if before.rect.size() != wanted[k].sizes[before.form]:
            continue
        if stays(k, before):
            out[k] = before
            placed.add(_box(before.rect))
    order = sorted((k for k in range(len(wanted)) if k not in out),
                   key=lambda k: (wanted[k].anchor.y(), wanted[k].anchor.x()))
    for k in order:
        out[k] = _best(wanted[k], costs_for(k))
        placed.add(_box(out[k].rect))
    return [out[k] for k in range(len(wanted))]


def _best(want: Wanted, costs) -> Placed:
    """The first form with a free place; failing that, the cheapest place of any form."""
    best: Placed | None = None
    best_total = None
    for form, size in enumerate(want.sizes):
        rect, covers, total = _best_of_form(want, size, costs)
        if covers == 0.0:
            return Placed(rect, covers, form)
        if best_total is None or total < best_total:
            best, best_total = Placed(rect, covers, form), total
    return best


def _best_of_form(want: Wanted, size: QSizeF, costs) -> tuple[QRectF, float, float]:
    """One form's cheapest place: beside the stack; else around it, in its box; and only where
    nothing around it is in its box, across the box (a label far from its stack is hard to match)."""
    w, h = size.width(), size.height()
    tried = candidates(want, size)
    cost = costs(tried)
    best = min(range(len(tried)), key=lambda i: cost[i][1])
    around = want.stack.adjusted(-1.5 * w, -3 * h, 1.5 * w, 3 * h).intersected(want.room)
    for region, enough in ((around, 0.0), (want.room, OUTSIDE - 1)):
        if cost[best][0] <= enough:  # covers nothing; or, across the box, is inside it at all
            break
        wide = _scan(region, w, h)
        wide_cost = costs(wide)
        if wide_cost and min(c[1] for c in wide_cost) < cost[best][1]:
            tried, cost = wide, wide_cost
            best = min(range(len(tried)), key=lambda i: cost[i][1])
    return QRectF(*tried[best]), cost[best][0], cost[best][1]
