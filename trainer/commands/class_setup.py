"""`dealer-trainer class-setup --admin URL [--class NAME] [--logins FILE]`: make a class on a
PostgreSQL the school already runs (or bring it up to date), with an administrator that needs no
more than CREATEROLE and CREATEDB; print what a superuser must still do, if anything, and the
addresses to hand out (trainer.classes.server.setup); with --watch, keep running and watch the
class as class-server does (`watch_class`)."""

from __future__ import annotations

NAME = "class-setup"
HELP = ("make a class on an existing PostgreSQL 16 or newer (an administrator with CREATEROLE and "
        "CREATEDB is enough) and print the addresses to hand out; run again, it changes nothing")


def add_arguments(parser) -> None:
    parser.add_argument("--admin", required=True, metavar="URL",
                        help="the administrator's address: postgresql://ROLE:PASSWORD@HOST:PORT/postgres "
                             "(a role with CREATEROLE and CREATEDB, or a superuser)")
    parser.add_argument("--class", dest="name", default="dealer_class", metavar="NAME",
                        help="the class: its database and the first part of its logins' names "
                             "(NAME_instructor ...); lower-case letters, digits and _ (default dealer_class)")
    parser.add_argument("--logins", metavar="FILE",
                        help="where the class's passwords are kept, readable by you only, so that a "
                             "second run gives the same addresses (default NAME-logins.json here)")
    parser.add_argument("--watch", action="store_true",
                        help="then keep running, watching the class as class-server does (a session "
                             "that holds up the others is ended, a default a login gave itself is "
                             "reset), until Ctrl+C")


def run(args) -> int:
    """Exit 0 with the addresses printed; 2 with one line when the class cannot be made."""
    from pathlib import Path

    from trainer.classes.server.command import stop_on_signals
    from trainer.classes.server.setup import setup_class, watch_class
    from trainer.exams.forms import bundled_forms

    def say(line: str) -> None:
        print(line, flush=True)

    forms = [(f.uid, f.digest, f.name, f.attempts_allowed) for f in bundled_forms()]
    logins = Path(args.logins) if args.logins else None
    made = setup_class(args.admin, args.name, logins, forms, say)
    say(f"Class {made.database} is ready" + (f" ({len(made.applied)} migrations applied)."
                                              if made.applied else " (nothing to change)."))
    say(f"Its passwords are kept in {logins or Path(f'{args.name}-logins.json')} (yours only).")
    if made.for_the_dba:
        say("")
        say("Left to the server's administrator (a superuser), once, in the class's database "
            f"{made.database}: these take from every login what could fill or hold the server "
            "(large objects, advisory locks, NOTIFY), let the class end a revoked workstation's "
            "sessions, and let its watch (--watch) see and end a session that holds up the others. "
            "The class works without them, less guarded:")
        for line in made.for_the_dba.splitlines():
            say(f"    {line}")
        say("")
    say("Workstations join the class with:")
    say(f"  dealer-trainer --class {made.addresses['workstation']}")
    say(f"The instructor's address: {made.addresses['instructor']}")
    say(f"The supervisor's address: {made.addresses['supervisor']}")
    if args.watch:
        say("Watching the class as class-server does (Ctrl+C to stop).")
        watch_class(args.admin, stop_on_signals(), say)
        say("Stopped watching the class.")
    else:
        say("Keep it watched as class-server does (a session that holds up the others ended, a default "
            "a login gave itself reset): run this again with --watch, and leave it running.")
    return 0
