"""Where each chip stack's label goes: its amount (and seat, in a box every seat shares, and mark),
set beside the stack where it covers no printed words, dice, chips or other label.

A label is tried at a few places around its stack: under the stack's footprint, above its top, to
the right, to the left, the corners, a row further out, and each of these moved into the stack's
box; where all of these cover something, across the part of the box around the stack; and only
where none of those is in the box, across the whole box. Each place costs the area it covers:
the printed words and dice and the labels placed before it most, other stacks less, its own stack
least (a label on its own chips still reads). A place outside the stack's box costs more than any
overlap inside it, and each place a little for its distance from the stack. The cheapest wins.

Labels are placed top to bottom, left to right, so a table lays out the same way every time; a
label stays where it was while that place covers no more than it did (labels do not jump about
when another stack changes, and a redraw re-places only the labels that changed).
"""

from __future__ import annotations

from dataclasses import dataclass

from ui.qt import QPointF, QRectF, QSizeF

#: a place outside the stack's own box costs this much more than covering anything inside it
OUTSIDE = 1e9
GAP = 2.0
#: what each unit of distance from the stack costs: among places that cover the same, the nearest
NEAR = 0.01


@dataclass
class Wanted:
    """One label to place: its size, the stack it names (scene rectangle, footprint centre)
    and the box the stack sits in (a label stays inside it where it can)."""

    size: QSizeF
    stack: QRectF
    anchor: QPointF
    room: QRectF


Box = tuple[float, float, float, float]  # left, top, right, bottom: plain numbers, for speed


def candidates(want: Wanted) -> list[QRectF]:
    """The places near a label's stack, nearest first."""
    w, h = want.size.width(), want.size.height()
    s, a = want.stack, want.anchor
    below = QRectF(a.x() - w / 2, s.bottom() + GAP, w, h)
    above = QRectF(a.x() - w / 2, s.top() - GAP - h, w, h)
    mid = s.center().y() - h / 2
    right = QRectF(s.right() + GAP, mid, w, h)
    left = QRectF(s.left() - GAP - w, mid, w, h)
    corners = [QRectF(x, y, w, h) for y in (s.top() - GAP - h, s.bottom() + GAP)
               for x in (s.right() + GAP, s.left() - GAP - w)]
    near = [below, above, right, left, *corners]
    return [*near, below.translated(0, h + GAP), above.translated(0, -h - GAP),
            *(_inside(r, want.room) for r in near)]


def _scan(room: QRectF, w: float, h: float) -> list[QRectF]:
    """Places across a region, for a label that finds nothing free beside its stack."""
    out = []
    y = room.top() + GAP
    while y + h <= room.bottom() - GAP:
        x = room.left() + GAP
        while x + w <= room.right() - GAP:
            out.append(QRectF(x, y, w, h))
            x += max(6.0, w / 2)
        y += h * 0.75
    return out


def _inside(r: QRectF, room: QRectF) -> QRectF:
    """`r` moved the least that puts it inside `room` (where it fits)."""
    dx = max(room.left() - r.left(), 0.0) + min(room.right() - r.right(), 0.0)
    dy = max(room.top() - r.top(), 0.0) + min(room.bottom() - r.bottom(), 0.0)
    return r.translated(dx, dy)


def _box(r: QRectF) -> Box:
    return r.left(), r.top(), r.right(), r.bottom()


def _near(boxes: list[Box], region: Box) -> list[Box]:
    """The boxes that reach into a region (all a label placed in it can cover)."""
    left, top, right, bottom = region
    return [b for b in boxes if b[0] < right and b[2] > left and b[1] < bottom and b[3] > top]


#: how much covering each thing costs, per unit of area: the printed words and other labels most,
#: other stacks less, and the label's own stack least (the label on its own chips still reads)
WORDS, STACKS, OWN = 3.0, 1.0, 0.2


class Printed:
    """The printed layout's words and dice, indexed by where they are (a label asks only for those
    near it): made once per table."""

    CELL = 120.0

    def __init__(self, rects: list[QRectF]):
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for r in rects:
            b = _box(r)
            for key in self._keys(b):
                self.cells.setdefault(key, []).append(b)

    def _keys(self, b: Box):
        c = self.CELL
        for i in range(int(b[0] // c), int(b[2] // c) + 1):
            for j in range(int(b[1] // c), int(b[3] // c) + 1):
                yield i, j

    def near(self, region: Box) -> list[Box]:
        found = {b for key in self._keys(region) for b in self.cells.get(key, ())}
        return _near(list(found), region)


Placed = tuple[QRectF, float]  # a label's place and what it covered when placed there


def place(wanted: list[Wanted], printed: Printed,
          previous: list[Placed | None] | None = None) -> list[Placed]:
    """Each label's place and what it covers, in the order `wanted` gives them. A label whose
    `previous` place covers no more than when it was placed stays there: labels do not jump
    about when another stack changes, and are not placed anew each time."""
    order = sorted(range(len(wanted)), key=lambda k: (wanted[k].anchor.y(), wanted[k].anchor.x()))
    previous = previous or [None] * len(wanted)
    stacks = [_box(w.stack) for w in wanted]
    placed: dict[int, Box] = {}
    out: dict[int, Placed] = {}
    for k in order:
        want = wanted[k]
        w, h = want.size.width(), want.size.height()
        region = _box(want.stack.united(want.room).adjusted(-2 * w, -2 * h, 2 * w, 2 * h))
        weighed = ([(b, WORDS) for b in printed.near(region)]
                   + [(b, WORDS) for b in _near(list(placed.values()), region)]
                   + [(s, STACKS) for s in _near([s for j, s in enumerate(stacks) if j != k], region)]
                   + [(stacks[k], OWN)])
        costs = Costs(weighed, _box(want.room), (want.anchor.x(), want.anchor.y()))
        before = previous[k]
        still = before is not None and before[0].size() == want.size
        if still and costs([before[0]])[0][0] <= before[1] + 1e-6:
            out[k] = before
        else:
            out[k] = _best(want, costs)
        placed[k] = _box(out[k][0])
    return [out[k] for k in range(len(wanted))]


class Costs:
    """What each place of one label covers (0: nothing), and that plus a little for its distance
    from the stack: a batch of places at once, against only what is near the batch."""

    def __init__(self, weighed: list[tuple[Box, float]], room: Box, anchor: tuple[float, float]):
        self.weighed, self.room, self.anchor = weighed, room, anchor

    def __call__(self, places: list[QRectF]) -> list[tuple[float, float]]:
        boxes = [_box(r) for r in places]
        if not boxes:
            return []
        span = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))
        near = [(o, wt) for o, wt in self.weighed
                if o[0] < span[2] and o[2] > span[0] and o[1] < span[3] and o[3] > span[1]]
        room, (ax, ay) = self.room, self.anchor
        out = []
        for b in boxes:
            covers = 0.0 if room[0] <= b[0] and room[1] <= b[1] and b[2] <= room[2] and b[3] <= room[3] \
                else OUTSIDE
            for o, wt in near:
                iw = min(b[2], o[2]) - max(b[0], o[0])
                if iw > 0:
                    ih = min(b[3], o[3]) - max(b[1], o[1])
                    if ih > 0:
                        covers += wt * iw * ih
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            out.append((covers, covers + NEAR * ((cx - ax) ** 2 + (cy - ay) ** 2) ** 0.5))
        return out


def _best(want: Wanted, costs: Costs) -> Placed:
    """The cheapest place: beside the stack; else around it, in its box; and only where nothing
    around it is in its box, across the box (a label far from its stack is hard to match)."""
    w, h = want.size.width(), want.size.height()
    tried = candidates(want)
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
    return tried[best], cost[best][0]
