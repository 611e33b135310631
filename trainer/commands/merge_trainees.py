"""`dealer-trainer merge-trainees UID OTHER_UID --class URL [--part]`: an instructor records that
two trainees of the class (their ids, as the transcript's "Trainee id" shows them) are one person,
who practised at two workstations: the class view, the exports and their xAPI actor show one
trainee from then on (trainer.classes.server.people). `--part` undoes a merge by recording that
they are two again; nothing recorded is ever changed or removed."""

from __future__ import annotations

from trainer.commands._shared import required_class_option

NAME = "merge-trainees"
HELP = ("record that two trainees of the class (their ids) are one person, or with --part that they "
        "are two again (an instructor's --class address)")


def add_arguments(parser) -> None:
    parser.add_argument("trainee", metavar="UID", help="a trainee's id")
    parser.add_argument("other", metavar="OTHER_UID", help="the other trainee's id")
    parser.add_argument("--part", action="store_true", help="undo their merge: they are two people again")
    required_class_option(parser)


def run(args) -> int:
    """Exit 0 with the merge (or parting) recorded, 2 when the class refuses (in one line, why)."""
    from trainer.classes.workstation.connection import ClassLedger

    ledger = ClassLedger(args.class_address)
    if args.part:
        ledger.part_trainees(args.trainee, args.other)
        print(f"Trainees {args.trainee} and {args.other} parted in {ledger.address.database}: "
              "two people again in the class view and the exports (the merge stays recorded).")
    else:
        ledger.merge_trainees(args.trainee, args.other)
        print(f"Trainees {args.trainee} and {args.other} merged in {ledger.address.database}: one "
              "person in the class view and the exports from now on.")
    return 0
