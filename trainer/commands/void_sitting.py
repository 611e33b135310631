"""`dealer-trainer void-sitting NONCE --reason TEXT --class URL`: void a sitting a genuine outage
spoiled (an instructor's address), with the reason, which the class keeps with it: its attempt
is given back, and no result of it is certified (trainer.exams.classledger, "A sitting voided").
A sitting certified already is not voided."""

from __future__ import annotations

from trainer.commands._shared import instructor_record_arguments

NAME = "void-sitting"
HELP = ("void a sitting (a genuine outage), with a reason the class keeps: its attempt is given "
        "back and no result of it is certified (an instructor's --class address)")


def add_arguments(parser) -> None:
    instructor_record_arguments(parser, "sitting", "NONCE", "the sitting's id")


def run(args) -> int:
    """Exit 0 with the sitting voided, 2 when the class refuses (in one line, why)."""
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.exams.classledger import void

    ledger = ClassLedger(args.class_address)
    void(ledger, args.sitting, args.reason)
    print(f"Sitting {args.sitting} voided in {ledger.address.database}: its attempt is given back, "
          "and no result of it is certified.")
    return 0
