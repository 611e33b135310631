"""`dealer-trainer sitting --form FORM.json --trainee NAME --key KEY --ledger DB --out FILE`:
issue a signed, one-time sitting, the file a trainee's workstation opens to sit the exam."""

from __future__ import annotations

from trainer.commands._shared import class_option, joined, passphrase
from trainer.errors import RequestError

NAME = "sitting"
HELP = "issue a signed, one-time sitting: a file the trainee's workstation opens to sit the exam"


def add_arguments(parser) -> None:
    parser.add_argument("--form", required=True, metavar="FORM.json", help="an exam form file")
    parser.add_argument("--trainee", required=True, help="the trainee's name")
    parser.add_argument("--key", required=True, metavar="KEY", help="your instructor key file")
    parser.add_argument("--ledger", required=True, metavar="DB",
                        help="your progress file, which keeps the attempts issued")
    parser.add_argument("--out", required=True, metavar="FILE", help="the sitting file to write")
    parser.add_argument("--hours", type=float, default=4.0, help="how long it may be started (4)")
    parser.add_argument("--unsealed", action="store_true", help="leave the form readable in the file "
                        "(by default it is sealed under the start code; either way the sitting "
                        "starts only with the code); not with --class, where a sitting is always "
                        "sealed and opens only once the class server records its start")
    parser.add_argument("--after-uncertified", action="store_true", help="in a class, issue it even "
                        "though the trainee has a sitting of this form that ended and is not "
                        "certified (certify it first: certify --class)")
    parser.add_argument("--passphrase-env", metavar="VAR", help="the key's passphrase, from this "
                        "environment variable (else it is asked)")
    class_option(parser)  # joined: the class server counts the attempts and records the sitting


def run(args) -> int:
    from trainer.exams.certify import issue_sitting, sign_form, sitting_form
    from trainer.exams.forms import read_form
    from trainer.exams.keys import read_private_key
    from trainer.exams.submission import UNSEALED_IN_CLASS, write_sitting_file
    from trainer.progress.store import Store

    form = read_form(args.form)
    if not 0 < args.hours <= 24 * 30:
        raise RequestError("--hours", "must be more than 0 and at most 720")
    if args.unsealed and args.class_address is not None:
        raise RequestError("--unsealed", UNSEALED_IN_CLASS)
    key = read_private_key(args.key, passphrase(args))
    with Store.open(args.ledger) as store, joined(args, args.ledger) as classroom:
        token = issue_sitting(store, key, form, args.trainee, valid_for=args.hours * 3600,
                              classroom=classroom, after_uncertified=args.after_uncertified)
        shown = sitting_form(store, form, token)
    code = write_sitting_file(args.out, token, sign_form(shown, key), sealed=not args.unsealed,
                              key=key, pool=form)
    print(f"{args.out}: attempt {token['attempt']} of {form.attempts_allowed} at {form.name!r} for "
          f"{token['trainee']}, signed by {key.name} ({key.public.fingerprint})")
    if code:
        print(f"start code: {code}  (type it yourself on the trainee's workstation when the "
              "sitting starts; the result proves it was known)")
    return 0
