"""The action bar: every dealer action of the current game, each with a button and a key."""

from __future__ import annotations

from trainer.procedure.model import LABELS, Do
from ui.qt import QHBoxLayout, QKeySequence, QPushButton, QShortcut, Qt, QWidget, Signal

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
        (Do.ACCEPT, "A"), (Do.REFUSE, "R"), (Do.NO_MORE_BETS, "N"), (Do.NO_ROLL, "X"),
        (Do.ANNOUNCE, "D"), (Do.COLLECT, "C"), (Do.PAY, "P"),
    ],
}
GAME_ACTIONS["high-roll-dice-6"] = [(d, k) for d, k in GAME_ACTIONS["high-roll-dice"]
                                    if d not in (Do.LOCK_OUT_EXTRA_ROLL, Do.EXTRA_ROLL)]

SHORT = {Do.PLACE_SIX_EIGHT: "Place 6-8 Shake", Do.RECOVER_SHAKER: "Re-cover",
         Do.COVER_AND_SHAKE: "Cover & shake", Do.LOCK_OUT_EXTRA_ROLL: "Lock out",
         Do.MOVE_DICE: "To throw box", Do.ANNOUNCE_DOWN: "Down & distance",
         Do.EXTRA_POINT_ROLL: "Extra point", Do.SET_MARKERS: "Set markers",
         Do.TAKE_DOWN: "Return wager", Do.SHAKE_AND_THROW: "Shake & throw"}


class ActionBar(QWidget):
    """Buttons for a game's actions; the keys work anywhere on the practice screen."""

    triggered = Signal(object)  # Do

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("actionBar")
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(6)
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
        for do, key in GAME_ACTIONS[game]:
            button = QPushButton(f"{SHORT.get(do, LABELS[do])}\n{key}")
            button.setToolTip(f"{LABELS[do]} — key {key}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAccessibleName(LABELS[do])
            button.clicked.connect(lambda _=False, d=do: self.triggered.emit(d))
            self.row.addWidget(button)
            self.buttons[do] = button
            shortcut = QShortcut(QKeySequence(key), scope)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=do: self.triggered.emit(d))
            self.shortcuts.append(shortcut)
