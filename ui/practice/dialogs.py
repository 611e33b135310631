"""The small dialogs a dealer action may need: the payout keypad, a choice, a number."""

from __future__ import annotations

from trainer import DENOMINATIONS, chips_text, fmt, fmt_dollars, read_payout
from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGuiApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPoint,
    QPushButton,
    QRect,
    QSizePolicy,
    QSpinBox,
    Qt,
    QVBoxLayout,
)
from ui.shell.theme import points

#: the window property that names the screen a window is drawn on when it is not the platform's
SCREEN_AREA = "screen_area"


def place_on_screen(dialog, where: QPoint) -> None:
    """Move a shown dialog's top left (its frame's) to `where`, or as near as keeps the whole
    dialog, frame and all, inside the available geometry of the screen `where` is on (the
    parent's, off every screen): no button, chip or typed digit past the screen's edge or under a
    task bar. A dialog larger than that area is made smaller first."""
    parent = dialog.parentWidget()
    screen = (QGuiApplication.screenAt(where) or (parent.screen() if parent is not None else None)
              or QGuiApplication.primaryScreen())
    # a window drawn for a picture (--screenshot) stands on a screen of its own size, whatever
    # screen the platform has: it says so (SCREEN_AREA)
    own = parent.window().property(SCREEN_AREA) if parent is not None else None
    area = own if isinstance(own, QRect) and own.isValid() else screen.availableGeometry()
    frame = dialog.frameGeometry()
    extra = frame.size() - dialog.size()  # the window manager's frame around the dialog
    if frame.width() > area.width() or frame.height() > area.height():
        dialog.resize(min(dialog.width(), area.width() - extra.width()),
                      min(dialog.height(), area.height() - extra.height()))
        frame = dialog.frameGeometry()
    x = max(area.left(), min(where.x(), area.left() + area.width() - frame.width()))
    y = max(area.top(), min(where.y(), area.top() + area.height() - frame.height()))
    dialog.move(x, y)


def chip_face(cents: int) -> str:
    """A chip's or coin's value as it is printed on it: "$1000", "$25", "50¢"."""
    return f"${cents // 100}" if cents >= 100 else f"{cents}¢"


class ChipButton(QPushButton):
    """One chip (or coin) of the bank: its colours, and its value printed on it."""

    def __init__(self, cents: int):
        from ui.table.items import chip_colours

        super().__init__(chip_face(cents))
        self.cents = cents
        body, stripe, ink = chip_colours(cents)
        size = 48 if cents >= 100 else 38
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setToolTip(f"Build the payout from chips: add a {fmt_dollars(cents)} "
                        f"{'chip' if cents >= 100 else 'coin'}")
        self.setAccessibleName(f"{fmt_dollars(cents)} {'chip' if cents >= 100 else 'coin'}")
        from ui.qt import QApplication
        from ui.shell.theme import LARGE_PRINT

        large = bool(QApplication.instance().property("large_print"))
        if large:  # the chips grow with the words, as in large print everywhere
            size = round(size * LARGE_PRINT)
        self.setFixedSize(size, size)
        self.setStyleSheet(f"QPushButton {{ background: {body}; color: {ink}; border: 4px dashed {stripe};"
                           f" border-radius: {size // 2}px; font-weight: 700; font-size: {points(9)};"
                           f" padding: 0; }}"
                           f"QPushButton:pressed {{ border-style: solid; }}")


class PayoutKeypad(QDialog):
    """Type a payout (keys or the on-screen pad), or build it from chips of real denominations
    (the bank: each click puts one more chip in the payout); see its chips; Enter pays."""

    def __init__(self, what: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Pay")
        self.setObjectName("keypad")
        self.cents: int | None = None
        layout = QVBoxLayout(self)
        heading = QLabel(what)
        heading.setWordWrap(True)  # a long wager's name wraps: it never widens the keypad
        heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        heading.setStyleSheet(f"font-size: {points(13)}; font-weight: 600;")
        layout.addWidget(heading)
        self.field = QLineEdit()
        self.field.setPlaceholderText("0.00")
        self.field.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.field.setStyleSheet(f"font-size: {points(20)}; padding: 6px;")
        self.field.setAccessibleName("payout amount")
        layout.addWidget(self.field)
        self.error = QLabel("")
        self.error.setObjectName("wrong")
        self.chips = QLabel("")
        for label in (self.error, self.chips):  # a long message wraps too
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.error)
        layout.addWidget(self.chips)
        grid = QGridLayout()
        for i, key in enumerate(["7", "8", "9", "4", "5", "6", "1", "2", "3", "0", "00", "."]):
            button = QPushButton(key)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setMinimumSize(64, 40)
            button.clicked.connect(lambda _=False, k=key: self.field.insert(k))
            grid.addWidget(button, i // 3, i % 3)
        back, clear = QPushButton("⌫"), QPushButton("Clear")
        for b in (back, clear):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        back.clicked.connect(self.field.backspace)
        clear.clicked.connect(self.field.clear)
        grid.addWidget(back, 4, 0)
        grid.addWidget(clear, 4, 1)
        self.change = QPushButton("Make change")
        self.change.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.change.setToolTip("Break the payout into the fewest standard chips")
        self.change.clicked.connect(self._make_change)
        grid.addWidget(self.change, 4, 2)
        layout.addLayout(grid)
        bank = QGridLayout()
        bank.setVerticalSpacing(4)
        self.bank = [ChipButton(cents) for cents in DENOMINATIONS]
        for i, chip in enumerate(self.bank):
            chip.clicked.connect(lambda _=False, c=chip.cents: self.add_chip(c))
            bank.addWidget(chip, i // 5, i % 5, Qt.AlignmentFlag.AlignCenter)
        layout.addLayout(bank)
        self.take_back = QPushButton("Take back")
        self.take_back.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.take_back.setToolTip("Take the last chip back off the payout")
        self.take_back.clicked.connect(self.remove_chip)
        self.built: list[int] = []  # the chips put in, in order, while the payout is built from them
        self._typed = 0  # the amount typed before them (cents), which the chips add to
        self._building = False
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Pay")
        buttons.addButton(self.take_back, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.field.textChanged.connect(self._check)
        self._check("")

    def add_chip(self, cents: int) -> None:
        """One more chip on the payout: the amount is what was typed (if anything) and the chips
        put on it since."""
        self._set_chips([*self.built, cents])

    def remove_chip(self) -> None:
        if self.built:
            self._set_chips(self.built[:-1])

    def _set_chips(self, built: list[int]) -> None:
        total = self._typed + sum(built)
        self._building = True  # the amount written from the chips: not typing, which clears them
        try:
            self.field.setText(fmt(total) if total or built else "")
        finally:
            self._building = False
        self.field.selectAll()  # a key typed next replaces the amount, as on a calculator
        self.built = built
        self.take_back.setEnabled(bool(built))
        if built:
            counts = {c: built.count(c) for c in DENOMINATIONS if c in built}
            on = f"{fmt_dollars(self._typed)} typed, then " if self._typed else ""
            self.chips.setText(f"Built from chips: {on}" + ", ".join(f"{n} × {fmt_dollars(c)}"
                                                                       for c, n in counts.items()))

    def _check(self, text: str) -> None:
        cents, problem = read_payout(text)
        self.error.setText(problem if text.strip() else "")
        self.ok.setEnabled(cents is not None)
        self.chips.setText(f"In chips: {chips_text(cents)}" if cents else "")
        self.cents = cents
        if not self._building:  # typed: the chips start again from what is typed now
            self.built = []
            self._typed = cents or 0
            self.take_back.setEnabled(False)

    def _make_change(self) -> None:
        if self.cents:
            self.chips.setText(f"Fewest chips for {fmt_dollars(self.cents)}: {chips_text(self.cents)}")

    def accept(self) -> None:
        if self.cents is None:
            self.error.setText(read_payout(self.field.text())[1])
            return
        super().accept()


#: the keys that pick the options of a choice, in order: ten options each have one
CHOICE_KEYS = "1234567890"


def choice_key(text: str, count: int) -> int | None:
    """The option a typed key picks among `count`, or None."""
    i = CHOICE_KEYS.find(text) if len(text) == 1 else -1
    return i if 0 <= i < count else None


class _Choices(QListWidget):
    """A list in which keys 1–9 and 0 pick an entry (before the list's type-to-search sees them)."""

    def __init__(self, pick):
        super().__init__()
        self.pick = pick

    def keyPressEvent(self, event) -> None:
        if (i := choice_key(event.text(), self.count())) is not None:
            self.pick(i)
            return
        super().keyPressEvent(event)


class ChoiceDialog(QDialog):
    """Pick one of a few options; keys 1–9 and 0 (the tenth) pick and close."""

    def __init__(self, title: str, prompt: str, options: list[str], parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.options = options
        self.choice: str | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(prompt))
        self.list = _Choices(self._pick)
        for n, option in enumerate(options, start=1):
            self.list.addItem(f"{CHOICE_KEYS[n - 1]}. {option}" if n <= len(CHOICE_KEYS) else option)
        self.list.setCurrentRow(0)
        self.list.itemActivated.connect(lambda _item: self.accept())
        # wide enough for the longest option: a choice is read whole, never scrolled sideways
        self.list.setMinimumWidth(min(900, self.list.sizeHintForColumn(0) + 2 * self.list.frameWidth()
                                      + 24))
        layout.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def keyPressEvent(self, event) -> None:
        if (i := choice_key(event.text(), len(self.options))) is not None:
            self._pick(i)
            return
        super().keyPressEvent(event)

    def _pick(self, row: int) -> None:
        self.list.setCurrentRow(row)
        self.accept()

    def accept(self) -> None:
        row = self.list.currentRow()
        if row < 0:
            return
        self.choice = self.options[row]
        super().accept()


class NumberDialog(QDialog):
    """Enter a whole number, such as the yard line the marker moves to."""

    def __init__(self, title: str, prompt: str, low: int, high: int, start: int, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(prompt))
        row = QHBoxLayout()
        self.spin = QSpinBox()
        self.spin.setRange(low, high)
        self.spin.setValue(start)
        self.spin.setStyleSheet(f"font-size: {points(18)};")
        row.addWidget(self.spin)
        layout.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.spin.selectAll()

    @property
    def value(self) -> int:
        return self.spin.value()
