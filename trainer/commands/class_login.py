"""`dealer-trainer class-login NAME... --class URL`: give trainees logins of their own in a class
(an instructor's address); a new password for a name that has a login."""

from __future__ import annotations

from trainer.commands._shared import required_class_option
from trainer.errors import RequestError

NAME = "class-login"
HELP = ("give trainees logins of their own in a class (an instructor's --class address): exams with "
        "no sitting start for each only with their password; a new password for a name that has a "
        "login")


def add_arguments(parser) -> None:
    parser.add_argument("names", nargs="+", metavar="NAME", help="a trainee's name, as on their workstation")
    required_class_option(parser)


def run(args) -> int:
    """Exit 0 with each trainee's login and password printed, 2 when the class refuses."""
    from trainer.classes.server.logins import new_password
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.progress.records import clean_name

    names = [clean_name(n) for n in args.names]
    if not all(names):
        raise RequestError("NAME", "a trainee's name cannot be empty")
    ledger = ClassLedger(args.class_address)
    for n, name in enumerate(names):
        password = new_password()
        login = ledger.class_login(name, password)  # a refusal stops here, said in one line
        if n == 0:
            print(f"Logins in {ledger.address.database} (give each trainee their own line):")
        print(f"  {name}: password {password}  (login {login})", flush=True)
    return 0
