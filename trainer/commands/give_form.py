"""`dealer-trainer give-form FORM... --class URL`: give exam forms to a class (an instructor's
address); exams with no sitting start at a form given to the class only."""

from __future__ import annotations

from trainer.commands._shared import required_class_option

NAME = "give-form"
HELP = ("give exam forms to a class (an instructor's --class address): exams with no sitting start "
        "at a form given to the class only")


def add_arguments(parser) -> None:
    parser.add_argument("forms", nargs="+", metavar="FORM", help="an exam form file (.json)")
    required_class_option(parser)


def run(args) -> int:
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.exams.classledger import give_to_class
    from trainer.exams.forms import read_form

    ledger = ClassLedger(args.class_address)
    for path in args.forms:
        form = read_form(path)
        given = give_to_class(ledger, form)
        print(f"{form.name!r}: {'given to' if given else 'already given to'} the class, "
              f"{form.attempts_allowed} attempt{'s' if form.attempts_allowed != 1 else ''} each")
    return 0
