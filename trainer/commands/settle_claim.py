"""`dealer-trainer settle-claim UID --to claimant|row --reason TEXT --class URL [--login LOGIN]`:
an instructor settles whose a trainee id is that a trainee's own login claimed while the class held
it under another name (the exports leave such an id out until then). `--to claimant`: the id is
the claimant's, and its results are her login's person's from then on (`--login` names her login
when more than one claims it); `--to row`: the claim is rejected, the id is the row's as before.
Both the claim and its settling are kept, with the reason; nothing recorded is changed or removed
(trainer.classes.server.people, "Claims settled"). A claim of an id the class does not hold,
which her login did not make (s039), is settled the same way: `--to claimant` lets her login send
under it. `--list` lists the claims and how each stands."""

from __future__ import annotations

import sys

from trainer.commands._shared import required_class_option

NAME = "settle-claim"
HELP = ("settle whose a trainee id a trainee's login claimed is: the claimant's or the row's, with a "
        "reason (an instructor's --class address); --list lists the claims")
WHERE = "dealer-trainer settle-claim"


def add_arguments(parser) -> None:
    parser.add_argument("trainee", metavar="UID", nargs="?", help="the claimed trainee id")
    parser.add_argument("--to", choices=("claimant", "row"),
                        help="whose the id is: the claimant login's, or the row's (the claim rejected)")
    parser.add_argument("--login", help="the claimant's login, when more than one login claims the id")
    parser.add_argument("--reason", help="why, kept with the settling (1 to 500 characters)")
    parser.add_argument("--list", action="store_true",
                        help="list the claims of the class and how each stands")
    required_class_option(parser)


def run(args) -> int:
    """Exit 0 with the claims settled (or listed), 2 when the arguments are short or the class
    refuses (in one line, why)."""
    from trainer.classes.errors import ClassServerError
    from trainer.classes.server.people import settled_line
    from trainer.classes.workstation.connection import ClassLedger

    ledger = ClassLedger(args.class_address)
    if args.list:
        for c in ledger.claims():
            row = c.row_name if c.row_name is not None else "(no row in the class yet)"
            print(f"{c.uid}\t{row}\tclaimed by {c.name} (login {c.login})\t{c.standing()}")
        return 0
    if args.trainee is None or args.to is None or not (args.reason or "").strip():
        print(f"{WHERE}: give the trainee id, --to claimant or --to row, and --reason (or --list)",
              file=sys.stderr)
        return 2
    login = args.login
    if args.to == "claimant" and login is None:
        claimants = {c.login for c in ledger.claims() if c.uid == args.trainee and c.settled is None}
        if len(claimants) != 1:
            who = "no login has an open claim of" if not claimants else "more than one login claims"
            print(f"{WHERE}: {who} trainee id {args.trainee[:64]}"
                  + (f": name the one with --login ({', '.join(sorted(claimants))})" if claimants else ""),
                  file=sys.stderr)
            return 2
        (login,) = claimants
    elif args.to == "row" and login is not None:
        print(f"{WHERE}: --login names the claimant given the id: not with --to row", file=sys.stderr)
        return 2
    try:
        n = ledger.settle_claim(args.trainee, login, args.reason.strip())
    except ClassServerError as e:
        print(f"{WHERE}: {e}", file=sys.stderr)
        return 2
    print(settled_line(args.trainee, login if args.to == "claimant" else None, ledger.address.database, n))
    return 0
