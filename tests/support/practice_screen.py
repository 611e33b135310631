"""Working a round in the practice screen as a trainee does: clicking wagers and places,
pressing the actions, answering their dialogs."""

from __future__ import annotations

from trainer.money import fmt
from trainer.practice import NEEDS_WAGER
from trainer.spoken import SPOKEN


def click_place(qtbot, screen, area):
    """Click a place on the layout: a place's own area, or a bet's (any seat's)."""
    from ui.qt import Qt

    view = screen.view
    point = (view.places[area] if area in view.places
             else view.area_pos(next(s for s, b in view.spots if b == area), area))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(point))


def click_wager(qtbot, screen, seat, bet):
    from ui.qt import Qt

    view = screen.view
    point = view.mapFromScene(view.area_pos(seat, bet))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert screen.selected == (seat, bet), f"clicking seat {seat} {bet} did not select it"


def answer(qtbot, screen, expected, amount=None, *, keyboard=False):
    """Fill whatever dialog the action opened, as a trainee would."""
    from ui.practice.dialogs import ChoiceDialog, NumberDialog, PayoutKeypad
    from ui.qt import Qt

    if screen.placing is not None:  # click the box on the layout, or choose it with the keys
        _, prompt = screen.placing
        value = expected.value if amount is None else amount
        # a move of several markers is one value, a place for each: click them in turn
        values = value.split(prompt.join) if prompt.join else [value]
        for part in values:
            _, stage = screen.placing
            area = next(a for a, v in stage.targets.items() if v == part)
            if keyboard:
                for _ in range(len(stage.targets) + 1):
                    if screen._place == area:
                        break
                    qtbot.keyClick(screen, Qt.Key.Key_Right)
                qtbot.keyClick(screen, Qt.Key.Key_Return)
            else:
                click_place(qtbot, screen, area)
        assert screen.placing is None
        return
    dialog = screen.dialog
    if dialog is None:
        return
    if isinstance(dialog, PayoutKeypad):
        qtbot.keyClicks(dialog.field, fmt(expected.amount if amount is None else amount))
        qtbot.keyClick(dialog.field, Qt.Key.Key_Return)
    elif isinstance(dialog, ChoiceDialog):  # the option (as shown) that logs the expected value
        prompt = screen.round.prompt(expected.do, expected.seat, expected.bet)
        assert list(dialog.options) == list(prompt.options)
        index = prompt.values.index(expected.value)
        qtbot.keyClick(dialog, Qt.Key(Qt.Key.Key_1 + index))
    elif isinstance(dialog, NumberDialog):
        dialog.spin.selectAll()
        qtbot.keyClicks(dialog.spin, expected.value)
        qtbot.keyClick(dialog.spin, Qt.Key.Key_Return)
    assert screen.dialog is None


def do_next(qtbot, screen, *, keyboard=False) -> None:
    """Do the trainee's next step as a trainee would: select the wager, press the action's
    button (or key), answer its dialog."""
    from ui.qt import Qt

    e = screen.round.next_expected()
    if e.do in NEEDS_WAGER:
        if keyboard:
            for _ in range(60):
                if screen.selected == (e.seat, e.bet):
                    break
                qtbot.keyClick(screen, Qt.Key.Key_Right)
        else:
            click_wager(qtbot, screen, e.seat, e.bet)
    if keyboard:
        key = dict((d, k) for d, k in screen.actions.shortcuts_keys)[e.do]
        qtbot.keyClick(screen, key)
    else:
        qtbot.mouseClick(screen.actions.buttons[e.do], Qt.MouseButton.LeftButton)
    answer(qtbot, screen, e, keyboard=keyboard)


def work(qtbot, screen, *, keyboard=False, limit=400):
    for _ in range(limit):
        if screen.round.finished:
            return
        do_next(qtbot, screen, keyboard=keyboard)
    raise AssertionError("the round did not end")


# ---------------------------------------------------------------- spoken calls (View › Speak my calls)
def calls_owed(round_) -> list:
    """The calls the trainee owes aloud in this round, in order."""
    return [e for _, e in round_.full if e.do in SPOKEN and e.do in round_.mine]


def to_first_call(qtbot, screen, limit=40) -> None:
    """Work the round as a trainee does until the screen listens for the first call owed."""
    for _ in range(limit):
        if screen.spoken.hearing is not None:
            return
        do_next(qtbot, screen)
    raise AssertionError("no call was listened for")


def play_aloud(qtbot, screen, *, limit=400, timeout=5000) -> None:
    """Work the round: each call owed is spoken (the screen listens and decides within `timeout`
    ms), every other action done as a trainee does it."""
    for _ in range(limit):
        if screen.round.finished:
            return
        if screen.spoken.hearing is not None:
            qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=timeout)
            continue
        do_next(qtbot, screen)
    raise AssertionError("the round did not end")
