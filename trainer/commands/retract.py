"""`dealer-trainer retract ATTEMPT_UID --reason TEXT --class URL`: hide an attempt or a supervised
round of the class from the exports and the class view (an instructor's address), with the reason,
which the class keeps with it (trainer.classes.server.retractions): nothing is removed, and no
retraction is ever changed or taken back."""

from __future__ import annotations

from trainer.commands._shared import instructor_record_arguments

NAME = "retract"
HELP = ("hide an attempt or a supervised round of the class (its id, as the transcript's \"Attempt id\" "
        "shows it) from the exports and the class view, with a reason the class keeps (an "
        "instructor's --class address)")


def add_arguments(parser) -> None:
    instructor_record_arguments(parser, "attempt", "ATTEMPT_UID", "the attempt's id",
                                "why it is hidden, kept with it (500 characters at most)")


def run(args) -> int:
    """Exit 0 with the attempt or supervised round retracted, 2 when the class refuses (in one
    line, why)."""
    from trainer.classes.workstation.connection import ClassLedger

    ledger = ClassLedger(args.class_address)
    what = ledger.retract(args.attempt, args.reason)
    print(f"{what.capitalize()} {args.attempt} retracted in {ledger.address.database}: it is left out of the "
          "exports and the class view from now on.")
    return 0
