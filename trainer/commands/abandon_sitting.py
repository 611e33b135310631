"""`dealer-trainer abandon-sitting NONCE --reason TEXT --class URL`: record a sitting started on
the class server and never ended there as abandoned (an instructor's address), with the reason,
which the class keeps with it: it counts as a fail, and no result of it is certified
(trainer.exams.classledger, "A sitting that never ends"). `certify --class` lists the sittings
not ended, each with its id."""

from __future__ import annotations

from trainer.commands._shared import instructor_record_arguments

NAME = "abandon-sitting"
HELP = ("record a sitting started on the class server and never ended as abandoned, a fail, with a "
        "reason the class keeps (its id as certify --class lists it; an instructor's --class address)")


def add_arguments(parser) -> None:
    instructor_record_arguments(parser, "sitting", "NONCE", "the sitting's id")


def run(args) -> int:
    """Exit 0 with the sitting recorded abandoned, 2 when the class refuses (in one line, why)."""
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.exams.classledger import abandon

    ledger = ClassLedger(args.class_address)
    abandon(ledger, args.sitting, args.reason)
    print(f"Sitting {args.sitting} recorded abandoned in {ledger.address.database}: it counts as a fail, "
          "and no result of it is certified.")
    return 0
