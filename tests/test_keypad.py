"""The payout keypad refuses text, negatives and sub-cent amounts at the field, and breaks a
payout into chips."""

from __future__ import annotations

import pytest

from trainer.money import chips, chips_text, read_payout


@pytest.mark.parametrize(("text", "cents"), [("150", 15000), ("150.00", 15000), ("5.02", 502),
                                             ("$1,250.50", 125050), ("0.5", 50), ("0", 0)])
def test_good_amounts(text, cents):
    assert read_payout(text) == (cents, "")


@pytest.mark.parametrize(("text", "words"), [("", "Enter the payout"), ("abc", "is not an amount"),
                                             ("-5", "never negative"), ("1.005", "whole cents"),
                                             ("1e3", "is not an amount"), ("5..0", "is not an amount"),
                                             ("99999999999", "more than any payout")])
def test_bad_amounts_say_what_is_wrong(text, words):
    cents, problem = read_payout(text)
    assert cents is None and words in problem


def test_fewest_chips():
    assert chips(15000) == [(10_000, 1), (2_500, 2)]
    assert chips(502) == [(500, 1), (1, 2)]
    assert chips(12_675) == [(10_000, 1), (2_500, 1), (100, 1), (50, 1), (25, 1)]
    assert chips_text(3700) == "1 × $25.00, 2 × $5.00, 2 × $1.00"


def test_the_keypad_field_refuses_text_and_enables_pay(qtbot):
    from ui.dialogs import PayoutKeypad
    from ui.qt import Qt

    pad = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(pad)
    pad.show()
    qtbot.keyClicks(pad.field, "12x")
    assert not pad.ok.isEnabled() and "not an amount" in pad.error.text()
    pad.field.clear()
    qtbot.keyClicks(pad.field, "-4")
    assert not pad.ok.isEnabled() and "negative" in pad.error.text()
    pad.field.clear()
    qtbot.keyClicks(pad.field, "37.005")
    assert not pad.ok.isEnabled() and "whole cents" in pad.error.text()
    pad.field.clear()
    qtbot.keyClicks(pad.field, "37")
    assert pad.ok.isEnabled() and pad.cents == 3700
    assert "1 × $25.00" in pad.chips.text()
    qtbot.mouseClick(pad.change, Qt.MouseButton.LeftButton)
    assert "Fewest chips" in pad.chips.text()
    with qtbot.waitSignal(pad.accepted):
        qtbot.keyClick(pad.field, Qt.Key.Key_Return)
    pad.close()


def test_ten_choices_each_have_a_key(qtbot):
    """Three Dice Football has ten no-roll reasons: the tenth is picked with 0."""
    from ui.dialogs import ChoiceDialog
    from ui.qt import Qt

    options = [f"reason {n}" for n in range(1, 11)]
    dialog = ChoiceDialog("No roll", "Why?", options)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.list.item(9).text().startswith("0. ")
    qtbot.keyClick(dialog, Qt.Key.Key_0)
    assert dialog.choice == "reason 10"
