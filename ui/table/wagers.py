"""How every table view draws the wagers: each stack of chips with its mark (offered, refused,
collected, paid, held) and payout, kept while it stands unchanged; each stack's label (its amount,
its seat in a box every seat shares, and its mark) placed where it covers nothing printed
(ui.table.labels); and the selected wager."""

from __future__ import annotations

from trainer import Mark, TableState, fmt_dollars
from ui.qt import QColor, QGraphicsPathItem, QPainterPath, QPen, QPointF, QRectF, Qt
from ui.table.items import ChipStackItem, DieItem, TagItem, TextItem, chip_breakdown, chips_drawn, pen
from ui.table.labels import Printed, Wanted, place
from ui.table.shapes import Spot, Z

#: what each mark looks like: ring colour, label word, label fill, label ink
MARKS = {
    Mark.COLLECTED: ("#9aa3a0", "COLLECTED", "#3b403e", "#e9ece9"),
    Mark.PAID: ("#f2c14e", "PAID", "#f2c14e", "#241800"),
    Mark.HELD: ("#4fc3f7", "HELD", "#4fc3f7", "#061c27"),
    Mark.REFUSED: ("#ff5252", "REFUSED", "#d32f2f", "#ffffff"),
    Mark.OFFERED: ("#ffb74d", "OFFERED", "#ffb74d", "#2a1600"),
    Mark.ACCEPTED: ("", "", "", ""),
}
#: an unmarked stack's label: fill, ink
PLAIN = ("#0d1f16", "#f3ead2")
#: the smaller types a label falls back to where nothing else fits, every word kept: the mark's
#: word is what the trainee reads the table by
SMALLER = (0.8, 0.65)


def leader(label: QRectF, stack: QRectF):
    """A thin line from a label to its stack, where the label stands apart from it (else None)."""
    if label.adjusted(-6, -6, 6, 6).intersects(stack):
        return None
    a, b = label.center(), stack.center()
    def nearest(p: QPointF, r: QRectF) -> QPointF:
        return QPointF(min(max(p.x(), r.left()), r.right()), min(max(p.y(), r.top()), r.bottom()))

    start, end = nearest(b, label), nearest(a, stack)
    path = QPainterPath(start)
    path.lineTo(end)
    item = QGraphicsPathItem(path)
    item.setPen(QPen(QColor(243, 234, 210, 200), 1.5))
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    return item


def amount_text(cents: int) -> str:
    """A stack's value as its label prints it: "$5", "$3.35"."""
    return fmt_dollars(cents).removesuffix(".00")


def label_text(seat: int | None, cents: int | None, mark: str | None, payout: int | None = None,
               *, folded: bool = False) -> str:
    """A stack's label: its seat (in a shared box), its mark's word, its amount; a paid wager's
    says what it was paid first ("PAID $149 on $5"). `folded`: the amount on a second line, for
    a narrow box."""
    word = MARKS[mark][1] if mark in MARKS else ""
    amount = amount_text(cents) if cents else ""
    if word and mark == Mark.PAID and payout:
        word = f"{word} {amount_text(payout)}"
        amount = f"on {amount}" if amount else ""
    head = " ".join(p for p in (f"{seat} ·" if seat is not None else "", word) if p)
    return f"{head}{chr(10) if folded and head and amount else ' '}{amount}".strip()


class WagersDrawn:
    """The wager half of TableView (a mixin: it draws with the view's `add`, `path`, `spots`)."""

    #: how much larger than the chips' radius a label's words are
    label_scale = 0.78

    def _sync_wagers(self, state: TableState) -> None:
        """Each wager's stack (or a mark on an empty area) drawn once for what it shows; a stack
        whose amount, mark or payout changed is drawn again, one no longer on the table goes.
        The labels are placed anew, every one of them, since one stack's label moves another's."""
        totals: dict[tuple[int, str], int] = {}
        for w in state.wagers:
            totals[(w.seat, w.bet)] = totals.get((w.seat, w.bet), 0) + w.amount
        for key in [*totals, *(k for k in state.marks if k not in totals)]:
            if key not in self.spots:
                raise ValueError(f"seat {key[0]} has no {key[1]!r} area on the {self.game_id} layout")
        wanted = {}
        for key, cents in totals.items():
            mark = state.marks.get(key)
            if mark is not None and mark not in MARKS:
                raise ValueError(f"unknown mark {mark!r} for {key}")
            payout = state.payouts.get(key)
            wanted[(key, cents, mark, payout)] = (
                lambda key=key, cents=cents, mark=mark, payout=payout:
                self.draw_stack(key, cents, mark, payout))
        for key, mark in state.marks.items():
            if key not in totals:
                if mark not in MARKS:
                    raise ValueError(f"unknown mark {mark!r}")
                wanted[(key, None, mark, None)] = (
                    lambda key=key, mark=mark: self._draw_mark(self.spot_anchor(key), mark, None))
        for shown in [s for s in self._stacks if s not in wanted]:
            self._remove(self._stacks.pop(shown))
        for shown, draw in wanted.items():
            if shown not in self._stacks:
                self._dynamic = []
                draw()
                self._stacks[shown] = self._dynamic
        self._dynamic = []
        self._draw_labels(list(wanted))

    def spot_anchor(self, key: tuple[int, str]) -> QPointF:
        return self.spots[key].anchor

    def draw_stack(self, key: tuple[int, str], cents: int, mark: str | None, payout: int | None) -> None:
        seat, bet = key
        anchor = self.spot_anchor(key)
        title = f"Seat {seat} · {self.catalogue[bet].name}"
        stack = ChipStackItem(cents, self.chip_r, faded=mark == Mark.COLLECTED, title=title,
                              limit=self.chips_under_words(anchor, cents))
        stack.key = key
        stack.setPos(anchor)
        self.add(stack, Z.CHIPS + anchor.y() / 10000, dynamic=True)
        if mark in (Mark.REFUSED, Mark.OFFERED):
            stack.setOpacity(0.75)
        if mark == Mark.COLLECTED:
            stack.setOpacity(0.55)
        if mark == Mark.PAID and payout:
            at = anchor + QPointF(self.chip_r * 1.25, -self.chip_r * 0.35)
            if self.chips_under_words(at, payout) < 1:  # beside the wager, not above it: under the odds
                at = anchor + QPointF(self.chip_r * 1.25, 0)
            pay = ChipStackItem(payout, self.chip_r, title=f"{title} — paid",
                                limit=self.chips_under_words(at, payout))
            pay.key = key
            pay.setPos(at)
            self.add(pay, Z.PAYOUT + anchor.y() / 10000, dynamic=True)
        self._draw_mark(anchor, mark, stack)

    def chips_under_words(self, anchor: QPointF, cents: int) -> int:
        """How many chips a stack of `cents` at `anchor` may show and stay under the printed words
        above it (a box's odds, its name): all of them where they fit, else as many as fit with
        their count beside the top one."""
        r = self.chip_r
        chips = chip_breakdown(cents)
        whole = len(chips_drawn(chips))
        counted = whole < len(chips)  # drawn with its count beside the top chip already
        if not counted and whole * r * 0.27 + r * 0.52 + 2 <= self._room_above(anchor, anchor.x() + r + 2):
            return whole
        room = self._room_above(anchor, anchor.x() + r * 2.3 + 2)
        return whole if room == float("inf") else min(whole, ChipStackItem.fits(room, r))

    def _room_above(self, anchor: QPointF, right: float) -> float:
        """How far up from `anchor` the felt is clear of printed words, from the chips' left edge
        to `right` (worked out once for each place: the layout's words stay)."""
        key = (anchor.x(), anchor.y(), right)
        if (room := self._rooms.get(key)) is None:
            left, foot = anchor.x() - self.chip_r - 2, anchor.y() + self.chip_r * 0.52
            room = self._rooms[key] = min(
                (anchor.y() - words.bottom() for words in self.printed_words()
                 if words.left() < right and words.right() > left and words.bottom() <= foot),
                default=float("inf"))
        return room

    def printed_words(self) -> list[QRectF]:
        """Where the layout's words are printed (its odds, names and tabs)."""
        if self._words is None:
            self._words = [item.ink_rect() if isinstance(item, TextItem) else item.sceneBoundingRect()
                           for item in self.layout_items()
                           if (isinstance(item, TextItem) and item.text.strip()) or isinstance(item, TagItem)]
        return self._words

    def _draw_mark(self, anchor: QPointF, mark: str | None, stack: ChipStackItem | None) -> None:
        """The mark drawn on the stack itself: a strike, a cross, a ring (its word is in the label)."""
        if mark in (None, Mark.ACCEPTED):  # an accepted wager simply stands
            return
        ring_t = MARKS[mark][0]
        r = self.chip_r
        top = stack.height if stack is not None else r * 0.5
        if mark == Mark.COLLECTED:
            strike = QPainterPath()
            strike.moveTo(anchor + QPointF(-r * 1.1, r * 0.4))
            strike.lineTo(anchor + QPointF(r * 1.1, -top - r * 0.1))
            pen = QPen(QColor("#ff5252"), max(2.5, r * 0.2))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            self.path(strike, pen, None, Z.MARK, dynamic=True)
        elif mark == Mark.REFUSED:
            cross = QPainterPath()
            for a, b in (((-1, -1), (1, 1)), ((-1, 1), (1, -1))):
                cross.moveTo(anchor + QPointF(a[0] * r * 0.9, -top / 2 + a[1] * r * 0.9))
                cross.lineTo(anchor + QPointF(b[0] * r * 0.9, -top / 2 + b[1] * r * 0.9))
            pen = QPen(QColor("#ff5252"), max(2.5, r * 0.2))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            self.path(cross, pen, None, Z.MARK, dynamic=True)
        if mark in (Mark.HELD, Mark.OFFERED, Mark.REFUSED):
            ring = QPainterPath()
            ring.addRoundedRect(QRectF(anchor.x() - r * 1.25, anchor.y() - top - r * 0.3, r * 2.5,
                                       top + r * 0.9), r * 0.6, r * 0.6)
            pen = QPen(QColor(ring_t), max(2.0, r * 0.16))
            if mark == Mark.OFFERED:
                pen.setStyle(Qt.PenStyle.DashLine)
            self.path(ring, pen, None, Z.MARK, dynamic=True)

    # --- labels ---------------------------------------------------------------------------------

    def printed_obstacles(self) -> Printed:
        """What a label must not cover on the printed layout: its words, its dice, the seats'
        name plates."""
        if self._obstacles is None:
            rects = list(self.seat_plates.values())
            for item in self.layout_items():
                if isinstance(item, TextItem):
                    rects.append(item.ink_rect())
                elif isinstance(item, (TagItem, DieItem)):
                    rects.append(item.sceneBoundingRect())
            self._obstacles = Printed(rects)
        return self._obstacles

    def _draw_labels(self, shown: list[tuple]) -> None:
        """One label per stack (and per mark on an empty area), placed clear of everything else
        (ui.table.labels), in the largest of its forms that fits: all its words, then the same in
        smaller type, then folded onto two lines; at the last, a paid wager's without the wager it
        was paid on, any other's without its mark's word (drawn on the stack too). A label that
        stands apart from its stack has a thin line to it. A label that neither changed nor moved
        keeps its item."""
        px = max(10.0, self.chip_r * self.label_scale) * self.text_scale
        known = self._label_wants  # what a label asks for is worked out once while its stack stands
        asked = [known.get((one, px)) or self._wanted(one, px) for one in shown]
        self._label_wants = {(one, px): one_asked for one, one_asked in zip(shown, asked, strict=True)}
        wants, looks = [want for want, _ in asked], [look for _, look in asked]
        keys = [key for key, *_ in shown]  # a label stays put while its wager stands
        at = place(wants, self.printed_obstacles(), [self._label_at.get(key) for key in keys])
        self._label_at = dict(zip(keys, at, strict=True))
        old, self._label_items = self._label_items, {}
        for key, placed, (forms, mark, title, stack) in zip(keys, at, looks, strict=True):
            text, size = forms[placed.form]
            look = (text, size, mark, title, placed.rect.getRect())
            if key in old and old[key][0] == look:  # the same words in the same place: kept
                self._label_items[key] = old.pop(key)
                continue
            tag = self._label(text, mark, size)
            tag.setToolTip(title)
            tag.setPos(placed.rect.center())
            drawn = [self._show(tag, Z.MARK + 0.5)]
            if (line := leader(placed.rect, stack)) is not None:
                drawn.append(self._show(line, Z.MARK + 0.4))
            self._label_items[key] = (look, drawn)
        for _, drawn in old.values():
            self._remove(drawn)

    def _wanted(self, shown: tuple, px: float) -> tuple[Wanted, tuple]:
        """What one stack's label asks for (its forms' sizes, its stack, its box), and how each
        form looks (its words and type, its mark, its tooltip, its stack)."""
        key, cents, mark, payout = shown
        seat, bet = key
        spot = self.spots[key]
        full = label_text(seat if spot.shared else None, cents, mark, payout)
        folded = label_text(seat if spot.shared else None, cents, mark, payout, folded=True)
        forms = [(full, px), *((full, px * smaller) for smaller in SMALLER)]
        if folded != full:
            forms[2:] = [(folded, px * smaller) for smaller in SMALLER]
        if mark == Mark.PAID and payout:  # what was paid, without the wager it was paid on
            forms.append((label_text(seat if spot.shared else None, None, mark, payout), px * SMALLER[1]))
        if mark in MARKS and MARKS[mark][1] and cents:  # at the last, the amount alone: the mark
            # is drawn on the stack itself (a strike, a cross, a ring, the payout's chips)
            forms.append((label_text(seat if spot.shared else None, cents, None), px * SMALLER[1]))
        items = self._stacks[shown]
        rects = [i.sceneBoundingRect() for i in items if isinstance(i, ChipStackItem)]
        r = self.chip_r
        stack = rects[0] if rects else QRectF(spot.anchor.x() - r, spot.anchor.y() - r, 2 * r, 2 * r)
        for more in rects[1:]:
            stack = stack.united(more)
        title = f"Seat {seat} · {self.catalogue[bet].name}: {full}"
        sizes = tuple(TagItem.measure(text, size) for text, size in forms)
        return Wanted(sizes, stack, spot.anchor, spot.room or stack), (forms, mark, title, stack)

    def _show(self, item, z: float):
        """An item on the live scene that no group owns (a label, kept across redraws)."""
        item.setZValue(z)
        self._scene.addItem(item)
        return item

    @staticmethod
    def _label(text: str, mark: str | None, px: float) -> TagItem:
        _, _, fill, ink = MARKS[mark] if mark in MARKS and MARKS[mark][1] else ("", "", *PLAIN)
        return TagItem(text, px, fill, ink)

    def _draw_selected(self, spot: Spot) -> None:
        glow = QColor(self.style["selected"])
        glow.setAlpha(90)
        self.path(spot.outline, pen(glow, 12), None, Z.SELECT, dynamic=True)
        self.path(spot.outline, pen(self.style["selected"], 3.5), None,
                  Z.SELECT, dynamic=True)
