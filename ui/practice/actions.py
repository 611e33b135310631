"""The action bar: every dealer action of the current game, each with a button and a key."""

from __future__ import annotations

from trainer import LABELS, Do
from ui.qt import QGridLayout, QKeySequence, QPushButton, QShortcut, Qt, QWidget, Signal
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


class ActionBar(QWidget):
    """Buttons for a game's actions; the keys work anywhere on the practice screen."""

    triggered = Signal(object)  # Do

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("actionBar")
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.buttons: dict[Do, QPushButton] = {}
        self.shortcuts: list[QShortcut] = []
        self.game = ""

    def set_game(self, game: str, scope: QWidget) -> None:
        if game == self.game:
            return
        self.game = game
        for b in self.buttons.values():
            b.deleteLater()
        for s in self.shortcuts:
            s.setEnabled(False)
            s.deleteLater()
        self.buttons, self.shortcuts = {}, []
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

    def per_row(self) -> int:
        """As many buttons to a row as fit whole in the bar's width (two rows when they can),
        the rows as even as they can be."""
        buttons = list(self.buttons.values())
        if not buttons:
            return 1
        for b in buttons:
            b.ensurePolished()  # the style sheet's font, not the default one
        widest = max(max(b.fontMetrics().horizontalAdvance(line)
                         for line in b.text().replace("&&", "&").split("\n"))
                     for b in buttons) + 12 + self.grid.spacing()  # the words, and a margin
        if not self.isVisible() or self.width() <= 0:  # not laid out yet: two rows, until it is
            fit = len(buttons)
        else:
            fit = max(1, (self.width() + self.grid.spacing()) // widest)
        rows = max(1 if len(buttons) <= 9 else 2, -(-len(buttons) // fit))
        return -(-len(buttons) // rows)

    def _arrange(self) -> None:
        self._per_row = self.per_row()
        for n, button in enumerate(self.buttons.values()):
            self.grid.addWidget(button, n // self._per_row, n % self._per_row)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.buttons and self.per_row() != getattr(self, "_per_row", None):
            self._arrange()
