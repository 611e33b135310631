"""The action bar: every dealer action of the current game, each with a button and a key."""

from __future__ import annotations

from trainer.procedure.model import LABELS, Do
from ui.qt import QGridLayout, QKeySequence, QPushButton, QShortcut, Qt, QWidget, Signal

#: the actions of each game, in the order a round uses them, with their keys
GAME_ACTIONS: dict[str, list[tuple[Do, str]]] = {
    "props-and-hops": [
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.TAKE_DOWN, "Z"), (Do.NO_MORE_BETS, "N"),
        (Do.PLACE_SIX_EIGHT, "6"), (Do.PLACE_LAMMERS, "L"), (Do.OFFER_SHAKER, "O"),
        (Do.RECOVER_SHAKER, "V"), (Do.UNCOVER, "U"), (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"),
        (Do.PLACE_POINTER, "T"), (Do.COLLECT, "C"), (Do.MOVE_LAMMER, "M"), (Do.PAY, "P"),
        (Do.COVER_AND_SHAKE, "K"), (Do.PASS_SHAKER, "S"),
    ],
    "three-dice-football": [
        (Do.SET_MARKERS, "K"), (Do.OFFER_DICE, "O"), (Do.ACCEPT, "A"), (Do.REFUSE, "R"),
        (Do.NO_ROLL, "X"), (Do.NEW_DICE, "W"), (Do.ANNOUNCE, "D"), (Do.MOVE_MARKERS, "M"),
        (Do.COLLECT, "C"), (Do.PAY, "P"), (Do.ANNOUNCE_DOWN, "G"), (Do.EXTRA_POINT_ROLL, "E"),
    ],
    "high-roll-dice": [
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.NO_MORE_BETS, "N"), (Do.LOCK_OUT_EXTRA_ROLL, "L"),
        (Do.SHAKE_AND_THROW, "T"), (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"), (Do.MOVE_DICE, "B"),
        (Do.COLLECT, "C"), (Do.PAY, "P"), (Do.EXTRA_ROLL, "E"),
    ],
    "pai-gow-dice": [
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.NO_MORE_BETS, "N"), (Do.USE_SHAKER, "S"),
        (Do.NO_ROLL, "X"), (Do.ANNOUNCE, "D"), (Do.COLLECT, "C"), (Do.PAY, "P"),
    ],
}
GAME_ACTIONS["high-roll-dice-6"] = [(d, k) for d, k in GAME_ACTIONS["high-roll-dice"]
                                    if d not in (Do.LOCK_OUT_EXTRA_ROLL, Do.EXTRA_ROLL)]

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
        self.shortcuts_keys = [(do, QKeySequence(key)[0].key()) for do, key in GAME_ACTIONS[game]]
        actions = GAME_ACTIONS[game]
        per_row = len(actions) if len(actions) <= 9 else (len(actions) + 1) // 2
        for n, (do, key) in enumerate(actions):
            button = QPushButton(f"{SHORT[do]}\n{key}")
            button.setToolTip(f"{LABELS[do]} — key {key}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAccessibleName(LABELS[do])
            button.clicked.connect(lambda _=False, d=do: self.triggered.emit(d))
            self.grid.addWidget(button, n // per_row, n % per_row)
            self.buttons[do] = button
            shortcut = QShortcut(QKeySequence(key), scope)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=do: self.triggered.emit(d))
            self.shortcuts.append(shortcut)
