"""`dealer-trainer class-workstation add NAME... | list | revoke NAME... | attach NAME --trainee ID... |
reset-quota NAME|--shared --reason TEXT | close-shared | open-shared --class URL`: workstations
with a login of their own in a class (an instructor's address; `list` a supervisor's too), their
quotas given back, and the shared workstation login closed once they all are, or opened again.

Each workstation enrolled joins the class with its own address (printed once, with a new
password): a trainee who changes that login's password or settings stops that workstation only,
where with the shared workstation login they stop every workstation that uses it. A workstation
enrolled again gets a new password (the old one stops working); one revoked loses every right at
once and connects no more. A workstation's login sends the results of the trainees it registered
(the first to send them) only: `attach` lets an enrolled workstation send those of trainees
registered elsewhere (a trainee moved to it, or registered by the shared login before it was
enrolled), by their trainee ids as the class lists them (trainer.classes.server.logins, "Whose
rows").

`reset-quota` gives a workstation's login (or, `--shared`, the shared workstation login) its whole
quota again, the reason kept by the class: what it had the class keep until then no longer
counts. Enrolling a workstation again keeps its quota as it was (and its trainees and results).
An exam's answers count against no quota (trainer.classes.server.logins, "Limits").

`close-shared` closes the shared workstation login once every workstation is enrolled: it connects
no more, a session of it still open sends nothing, and no start of the class server opens it
again; `open-shared` opens it. Each says what it does and asks first (`--yes` answers for a
script, or where nobody can be asked)."""

from __future__ import annotations

import sys
import time

from trainer.commands._shared import required_class_option
from trainer.errors import RequestError

NAME = "class-workstation"
HELP = ("enrol workstations in a class with logins of their own (an instructor's --class address), "
        "list them, or revoke one: a trainee's mischief with one workstation's login stays there")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_arguments(parser) -> None:
    actions = parser.add_subparsers(dest="action", required=True,
                                    metavar="{add,list,revoke,attach,reset-quota,close-shared,open-shared}")
    add = actions.add_parser("add", help="enrol workstations (or give them new passwords): each "
                                         "one's own address, printed once")
    add.add_argument("names", nargs="+", metavar="NAME", help="a name for the workstation, e.g. 'Table 3'")
    required_class_option(add)
    listed = actions.add_parser("list", help="the workstations enrolled, and those revoked")
    required_class_option(listed)
    revoke = actions.add_parser("revoke", help="a workstation's login stops working, at once")
    revoke.add_argument("names", nargs="+", metavar="NAME", help="the workstation's name, as enrolled")
    required_class_option(revoke)
    attach = actions.add_parser("attach", help="let an enrolled workstation send the results of "
                                               "trainees another login registered")
    attach.add_argument("name", metavar="NAME", help="the workstation's name, as enrolled")
    attach.add_argument("--trainee", nargs="+", required=True, metavar="ID", dest="trainees",
                        help="the trainee's id in the class (32 hex digits)")
    required_class_option(attach)
    reset = actions.add_parser("reset-quota", help="give a workstation's login (or the shared one) "
                                                   "its whole storage quota again")
    which = reset.add_mutually_exclusive_group(required=True)
    which.add_argument("name", nargs="?", metavar="NAME", help="the workstation's name, as enrolled")
    which.add_argument("--shared", action="store_true", help="the shared workstation login's quota")
    reset.add_argument("--reason", required=True, help="why, kept by the class (at most 500 characters)")
    required_class_option(reset)
    for name, text in (("close-shared", "close the shared workstation login once every workstation is "
                                        "enrolled: only the enrolled workstations join"),
                       ("open-shared", "open the shared workstation login again: workstations not "
                                       "enrolled join with it")):
        shared = actions.add_parser(name, help=text)
        shared.add_argument("--yes", action="store_true", help="do it without asking")
        required_class_option(shared)


def run(args) -> int:
    """Exit 0 having done it (and printed what), 2 when the class refuses."""
    from trainer.classes.workstation.connection import ClassLedger

    ledger = ClassLedger(args.class_address)
    if args.action == "list":
        return _list(ledger)
    if args.action in ("close-shared", "open-shared"):
        return _shared(ledger, close=args.action == "close-shared", yes=args.yes)
    from trainer.progress.records import clean_name

    if args.action == "attach":
        return _attach(ledger, clean_name(args.name), args.trainees)
    if args.action == "reset-quota":
        return _reset_quota(ledger, None if args.shared else clean_name(args.name), args.reason)
    names = [clean_name(n) for n in args.names]
    if not all(names):
        raise RequestError("NAME", "a workstation's name cannot be empty")
    return _add(ledger, names) if args.action == "add" else _revoke(ledger, names)


def _add(ledger, names: list[str]) -> int:
    from trainer.classes.server.logins import new_password
    from trainer.classes.workstation.connection import with_login

    for n, name in enumerate(names):
        password = new_password()
        login = ledger.enrol_workstation(name, password)  # a refusal stops here, said in one line
        if n == 0:
            print(f"Workstations enrolled in {ledger.address.database} (join each with its own "
                  "address, File › Join class…, and keep it from the trainees):")
        print(f"  {name}: {with_login(ledger.address, login, password).url}", flush=True)
    print("A workstation enrolled again keeps its trainees, its results and what counts against its "
          "quota (dealer-trainer class-workstation reset-quota NAME gives the quota back).")
    if ledger.address.host in LOOPBACK:
        print(f"These addresses reach the server as this machine does ({ledger.address.host}): on a "
              "workstation, put the instructor machine's name or address in its place.")
    return 0


def shared_state(state) -> str:
    """The shared login's state in one line (trainer.classes.server.logins.SharedLogin)."""
    if state.closed:
        return f"closed since {_when(state.since)} (by {state.by}): only the enrolled workstations join"
    since = f" since {_when(state.since)} (by {state.by})" if state.since is not None else ""
    return f"open{since}: workstations not enrolled join with it"


def _shared(ledger, *, close: bool, yes: bool) -> int:
    from trainer.classes.errors import ClassServerError

    state = ledger.shared_login()
    if state.closed == close:
        raise ClassServerError(f"the shared workstation login is {'closed' if close else 'open'} already")
    enrolled = [w.name for w in ledger.workstations() if w.revoked is None]
    print(f"The shared workstation login of {ledger.address.database} is {shared_state(state)}.")
    from trainer.classes.server.logins import CLOSE_SHARED_SAYS, OPEN_SHARED_SAYS

    print(CLOSE_SHARED_SAYS if close else OPEN_SHARED_SAYS)
    if close:
        print(f"Workstations enrolled ({len(enrolled)}): {', '.join(enrolled) or 'none'}.")
    if not yes and not _confirmed(f"{'Close' if close else 'Open'} the shared workstation login? [y/N] "):
        print("Nothing was changed.")
        return 1
    if close:
        n = ledger.close_shared_login()
        print(f"The shared workstation login is closed: the {n} enrolled workstation"
              f"{'s' if n != 1 else ''} go on, no other joins.")
    else:
        ledger.open_shared_login()
        print("The shared workstation login is open: workstations not enrolled join with it.")
    return 0


def _confirmed(question: str) -> bool:
    """The answer typed at a terminal; no terminal (a script, a pipe) is no answer: --yes says it."""
    if not sys.stdin.isatty():
        print("Not asked: no terminal to answer at (add --yes to do it).")
        return False
    return input(question).strip().lower() in ("y", "yes")


def _list(ledger) -> int:
    found = ledger.workstations()
    shared = ledger.shared_login()
    if not found:
        print(f"No workstation is enrolled in {ledger.address.database}"
              + (", and the shared workstation login is closed: no workstation joins." if shared.closed
                 else ": every workstation joins with the shared workstation login."))
        return 0
    width = max(len(w.name) for w in found)
    print(f"Workstations of {ledger.address.database}:")
    for w in found:
        state = (f"revoked {_when(w.revoked)}" if w.revoked is not None
                 else f"enrolled {_when(w.enrolled)}")
        print(f"  {w.name:<{width}}  {state}  (login {w.login})")
    print(f"The shared workstation login is {shared_state(shared)}.")
    return 0


def _revoke(ledger, names: list[str]) -> int:
    for name in names:
        login = ledger.revoke_workstation(name)
        print(f"  {name}: revoked (login {login}); its connections lose their rights now", flush=True)
    return 0


def _attach(ledger, name: str, trainees: list[str]) -> int:
    if not name:
        raise RequestError("NAME", "a workstation's name cannot be empty")
    for uid in trainees:
        login = ledger.attach_trainee(uid, name)
        print(f"  trainee {uid}: attached to {name} (login {login}), which sends their results now",
              flush=True)
    return 0


def _reset_quota(ledger, name: str | None, reason: str) -> int:
    if name == "":
        raise RequestError("NAME", "a workstation's name cannot be empty")
    login, rows, size = ledger.reset_quota(name, reason)
    who = f"{name} (login {login})" if name is not None else f"the shared workstation login ({login})"
    print(f"The quota of {who} is whole again: {rows:,} rows ({size:,} bytes) it had the class keep "
          "no longer count. What the class keeps is unchanged.")
    return 0


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))
