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
    from ui.practice.dialogs import PayoutKeypad
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
    from ui.practice.dialogs import ChoiceDialog
    from ui.qt import Qt

    options = [f"reason {n}" for n in range(1, 11)]
    dialog = ChoiceDialog("No roll", "Why?", options)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.list.item(9).text().startswith("0. ")
    qtbot.keyClick(dialog, Qt.Key.Key_0)
    assert dialog.choice == "reason 10"


# --- a payout built from chips of real denominations -------------------------------------------


def chip(pad, cents):
    return next(c for c in pad.bank if c.cents == cents)


def test_the_bank_holds_every_chip_and_coin_each_showing_its_value(qtbot):
    from trainer.money import CHIPS, COINS
    from ui.practice.dialogs import PayoutKeypad

    pad = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(pad)
    assert [c.cents for c in pad.bank] == [*CHIPS, *COINS]
    faces = {c.cents: c.text() for c in pad.bank}
    assert faces[100_000] == "$1000" and faces[2_500] == "$25" and faces[100] == "$1"
    assert faces[50] == "50¢" and faces[1] == "1¢", "chips show their value, not colour alone"


def test_clicking_chips_builds_the_payout_and_pay_pays_their_sum(qtbot):
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import Qt

    pad = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(pad)
    pad.show()
    for cents in (10_000, 2_500, 2_500, 500, 25):
        qtbot.mouseClick(chip(pad, cents), Qt.MouseButton.LeftButton)
    assert pad.field.text() == "155.25" and pad.cents == 15_525
    assert pad.chips.text() == "Built from chips: 1 × $100.00, 2 × $25.00, 1 × $5.00, 1 × $0.25"
    qtbot.mouseClick(pad.take_back, Qt.MouseButton.LeftButton)
    assert pad.cents == 15_500 and pad.built == [10_000, 2_500, 2_500, 500]
    qtbot.mouseClick(pad.ok, Qt.MouseButton.LeftButton)
    assert pad.result() == pad.DialogCode.Accepted and pad.cents == 15_500


def test_a_digit_typed_after_chips_starts_the_amount_over(qtbot):
    """After chips the amount is selected, as on a calculator: a digit replaces it."""
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import Qt

    pad = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(pad)
    pad.show()
    qtbot.mouseClick(chip(pad, 2_500), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(chip(pad, 2_500), Qt.MouseButton.LeftButton)
    qtbot.keyClick(pad.field, Qt.Key.Key_7)
    assert pad.field.text() == "7" and pad.cents == 700, "the typed digit is the new amount"
    assert pad.built == [] and not pad.take_back.isEnabled()


def test_chips_after_typing_add_to_the_typed_amount(qtbot):
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import Qt

    pad = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(pad)
    pad.show()
    qtbot.keyClicks(pad.field, "5")
    qtbot.mouseClick(chip(pad, 2_500), Qt.MouseButton.LeftButton)
    assert pad.cents == 3_000, "$5 typed, then a $25 chip"
    assert pad.chips.text() == "Built from chips: $5.00 typed, then 1 × $25.00"
    qtbot.mouseClick(pad.take_back, Qt.MouseButton.LeftButton)
    assert pad.cents == 500, "taking the chip back leaves what was typed"
    qtbot.keyClick(pad.field, Qt.Key.Key_Return)
    assert pad.result() == pad.DialogCode.Accepted and pad.cents == 500


def test_a_payout_drill_paid_with_chips_alone_scores_in_full(qtbot, practice_screen):
    """The trainee pays every winner by clicking chips in the bank, the fewest chips or not."""
    from trainer.drills import payout_drill
    from trainer.money import DENOMINATIONS
    from trainer.progress import Mode
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import Qt

    screen = practice_screen
    screen.start(payout_drill("pai-gow-dice", 7), mode=Mode.PAYOUT_DRILL)
    qtbot.waitUntil(lambda: screen.dialog is not None or screen.round.finished, timeout=2000)
    paid = 0
    while not screen.round.finished:
        pad = screen.dialog
        assert isinstance(pad, PayoutKeypad)
        owed = screen.round.next_expected().amount
        for cents in DENOMINATIONS:  # largest first, as a dealer cuts a payout
            while owed >= cents:
                qtbot.mouseClick(chip(pad, cents), Qt.MouseButton.LeftButton)
                owed -= cents
        qtbot.mouseClick(pad.ok, Qt.MouseButton.LeftButton)
        paid += 1
        qtbot.waitUntil(lambda: screen.dialog is not None or screen.round.finished, timeout=2000)
    assert paid >= 1 and screen.round.finish().score.payouts == 100


def test_in_large_print_the_chips_grow_with_the_words(qtbot):
    from ui.practice.dialogs import PayoutKeypad
    from ui.qt import QApplication

    normal = PayoutKeypad("Pay seat 2")
    qtbot.addWidget(normal)
    app = QApplication.instance()
    app.setProperty("large_print", True)
    try:
        large = PayoutKeypad("Pay seat 2")
        qtbot.addWidget(large)
    finally:
        app.setProperty("large_print", None)
    assert chip(large, 2_500).width() > chip(normal, 2_500).width()
    assert "font-size: 11.7pt" in chip(large, 2_500).styleSheet()
    assert "font-size: 9.0pt" in chip(normal, 2_500).styleSheet()
    assert "font-size: 26.0pt" in large.field.styleSheet(), "the amount grows too (20 pt × 1.3)"
