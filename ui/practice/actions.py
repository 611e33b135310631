"""The action bar: every dealer action of the current game, each with a button and a key."""

from __future__ import annotations

from trainer import LABELS, Do
from ui.qt import QHBoxLayout, QKeySequence, QPushButton, QShortcut, Qt, QVBoxLayout, QWidget, Signal
from ui.table import game_actions

#: the button captions: short, so a game's every action fits in two rows
SHORT = {
    Do.ACCEPT: "Accept", Do.REFUSE: "Refuse", Do.TAKE_DOWN: "Return", Do.NO_MORE_BETS: "No more bets",
    Do.PLACE_SIX_EIGHT: "Place 6-8", Do.PLACE_LAMMERS: "Lammers", Do.OFFER_SHAKER: "Offer shaker",
    Do.RECOVER_SHAKER: "Re-cover", Do.UNCOVER: "Uncover", Do.NO_ROLL: "No roll",
    Do.ANNOUNCE: "Announce", Do.PLACE_POINTER: "Pointer", Do.COLLECT: "Collect",
    Do.MOVE_LAMMER: "Move lammer", Do.PAY: "Pay", Do.COVER_AND_SHAKE: "Cover && shake",
    Do.PASS_SHAKER: "Pass shaker", Do.SET_MARKERS: "Set markers", Do.OFFER_DICE: "Offer dice",
    Do.NEW_DICE: "New dice", Do.MOVE_MARKERS: "Move markers", Do.ANNOUNCE_DOWN: "Down && distance",
    Do.EXTRA_POINT_ROLL: "Extra point", Do.LOCK_OUT_EXTRA_ROLL: "Lock out",
    Do.SHAKE_AND_THROW: "Shake && throw",
    Do.MOVE_DICE: "To throw box", Do.EXTRA_ROLL: "Extra roll", Do.USE_SHAKER: "Use shaker",
}


SPACING = 4  # between two buttons, and two rows
MARGIN = 7  # beside a button's words: its padding and border (the style sheet's, 6 px) and a pixel


def even_rows(widths: list[int], count: int) -> list[list[int]]:
    """`widths` (in order) cut into `count` rows whose widest is as narrow as it can be: the
    indexes in each row. The cuts are tried all (a bar has a score of buttons at most)."""
    n = len(widths)
    count = min(count, n)
    ends = [0]
    for w in widths:
        ends.append(ends[-1] + w)
    # best[k][i]: the narrowest widest row for the first i buttons in k rows, and where its last row starts
    best = [[(float("inf"), 0)] * (n + 1) for _ in range(count + 1)]
    best[0][0] = (0, 0)
    for k in range(1, count + 1):
        for i in range(k, n + 1):
            best[k][i] = min((max(best[k - 1][j][0], ends[i] - ends[j]), j) for j in range(k - 1, i))
    rows, i = [], n
    for k in range(count, 0, -1):
        j = best[k][i][1]
        rows.append(list(range(j, i)))
        i = j
    return rows[::-1]


def words(button: QPushButton) -> list[str]:
    """A button's lines as drawn (a doubled & is one)."""
    return button.text().replace("&&", "&").split("\n")


class ActionBar(QWidget):
    """Buttons for a game's actions; the keys work anywhere on the practice screen."""

    triggered = Signal(object)  # Do

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("actionBar")
        self.column = QVBoxLayout(self)  # a row of buttons under another, each as wide as it needs
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(SPACING)
        self._shape: list[int] = []
        self.buttons: dict[Do, QPushButton] = {}
        self.after: list[QPushButton] = []  # the round's own buttons (next throw, finish), last
        self.shortcuts: list[QShortcut] = []
        self.game = ""

    def add_after(self, button: QPushButton) -> None:
        """A button of the round's own, laid out after the game's actions, in the same rows."""
        self.after.append(button)
        self._arrange()

    def set_game(self, game: str, scope: QWidget) -> None:
        if game == self.game:
            return
        self.game = game
        for b in self.buttons.values():
            b.deleteLater()
        for s in self.shortcuts:
            s.setEnabled(False)
            s.deleteLater()
        self.buttons, self.shortcuts, self._shape = {}, [], []
        actions = game_actions(game)
        self.shortcuts_keys = [(do, QKeySequence(key)[0].key()) for do, key in actions]
        for do, key in actions:
            button = QPushButton(f"{SHORT[do]}\n{key}")
            button.setToolTip(f"{LABELS[do]} — key {key}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAccessibleName(LABELS[do])
            button.clicked.connect(lambda _=False, d=do: self.triggered.emit(d))
            self.buttons[do] = button
            shortcut = QShortcut(QKeySequence(key), scope)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=do: self.triggered.emit(d))
            self.shortcuts.append(shortcut)
        self._arrange()

    def rows(self) -> list[list[QPushButton]]:
        """The buttons in rows, in order: as few rows as hold every button whole in the bar's
        width, each button as wide as its own words (two rows when there are more than eleven),
        the rows as even in width as they can be."""
        buttons = [*self.buttons.values(), *self.after]
        if not buttons:
            return []
        for b in buttons:
            b.ensurePolished()  # the style sheet's font, not the default one
        need = [max(b.sizeHint().width(), max(map(b.fontMetrics().horizontalAdvance, words(b))) + MARGIN)
                + SPACING for b in buttons]  # the words, and a margin
        room = self.width() + SPACING if self.isVisible() and self.width() > 0 else None
        count = 1 if len(buttons) <= 11 else 2
        while True:
            rows = even_rows(need, count)
            if room is None or count >= len(buttons) or all(sum(need[i] for i in r) <= room for r in rows):
                return [[buttons[i] for i in r] for r in rows]
            count += 1

    def _arrange(self) -> None:
        rows = self.rows()
        shape = [len(r) for r in rows]
        if shape == self._shape:
            return
        self._shape = shape
        while (item := self.column.takeAt(0)) is not None:  # the old rows (their buttons stay)
            if item.layout() is not None:
                while item.layout().takeAt(0) is not None:
                    pass
                item.layout().deleteLater()
        for row in rows:
            line = QHBoxLayout()
            line.setSpacing(SPACING)
            for button in row:
                line.addWidget(button, 1)  # the room left shared out evenly
            self.column.addLayout(line)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.buttons:
            self._arrange()
