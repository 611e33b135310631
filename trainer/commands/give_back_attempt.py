"""`dealer-trainer give-back-attempt [ATTEMPT] --reason TEXT --class URL`: give back an attempt at
an exam started with no sitting (an instructor's address), with the reason, which the class keeps
with it: it no longer counts against the form's attempts (trainer.exams.classledger, "An attempt
given back"). Without ATTEMPT, the attempts started with no sitting are listed, with their ids."""

from __future__ import annotations

from trainer.commands._shared import required_class_option

NAME = "give-back-attempt"
HELP = ("give back an attempt at an exam started with no sitting (a classmate spent it), with a "
        "reason the class keeps; without an id, list them (an instructor's --class address)")


def add_arguments(parser) -> None:
    parser.add_argument("attempt", metavar="ATTEMPT", nargs="?",
                        help="the attempt's id (listed without it)")
    parser.add_argument("--reason", metavar="TEXT", help="why, kept with it (500 characters at most)")
    required_class_option(parser)


def run(args) -> int:
    """Exit 0 with the attempt given back (or the list written), 2 when the class refuses (in one
    line, why)."""
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.errors import RequestError
    from trainer.exams.classledger import give_back, start_line, starts_spent

    ledger = ClassLedger(args.class_address)
    if args.attempt is None:
        spent = starts_spent(ledger)
        for s in spent:
            print(start_line(s))
        print(f"{len(spent)} attempt{'s' if len(spent) != 1 else ''} started with no sitting")
        return 0
    if not args.reason:
        raise RequestError("--reason", "giving an attempt back needs a reason (it is kept with it)")
    print(give_back(ledger, args.attempt, args.reason))
    return 0
