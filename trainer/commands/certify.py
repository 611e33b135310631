"""`dealer-trainer certify [SUBMISSION.json] --key KEY --ledger DB --out CERTIFICATES.json [--class
URL]`: re-grade a workstation's exam submission and sign a certificate for each result; in a class,
also every sitting that ended on the class server and is not certified, from the server's record
(nothing need be handed in: a pass and a fail alike, an abandoned sitting as abandoned)."""

from __future__ import annotations

from trainer.commands._shared import class_option, joined, passphrase

NAME = "certify"
HELP = "re-grade a workstation's exam submission and sign a certificate for each result"


def add_arguments(parser) -> None:
    parser.add_argument("submission", metavar="SUBMISSION.json", nargs="?",
                        help="a workstation's submission (with --class it may be left out: every "
                        "sitting that ended on the class server is certified from its record)")
    parser.add_argument("--key", required=True, metavar="KEY", help="your instructor key file")
    parser.add_argument("--ledger", required=True, metavar="DB", help="the progress file that issued "
                        "the sittings")
    parser.add_argument("--out", required=True, metavar="CERTIFICATES.json")
    parser.add_argument("--passphrase-env", metavar="VAR", help="the key's passphrase, from this "
                        "environment variable (else it is asked)")
    parser.add_argument("--grace-hours", type=float, metavar="N", help="certify results of sittings "
                        "that expired up to N hours ago (default 12; at most 720)")
    parser.add_argument("--certify-held", action="store_true", help="with --class: certify as "
                        "recorded the sittings held because the class server refused an answer "
                        "(those items not answered); without it they are named, not certified")
    class_option(parser)  # joined: the class server is asked first and keeps the certificates


def run(args) -> int:
    """Exit 0 when every result was certified, 1 when some were refused (each named)."""
    from trainer.errors import RequestError
    from trainer.exams.certify import CERTIFY_WITHIN
    from trainer.exams.classledger import unended_lines
    from trainer.exams.formstore import list_forms
    from trainer.exams.keys import read_private_key
    from trainer.exams.submission import (
        CertifySummary,
        certificate_notes,
        certify_class,
        certify_submission,
        write_certificates,
    )
    from trainer.progress.store import Store

    grace = CERTIFY_WITHIN if args.grace_hours is None else args.grace_hours * 3600
    if not 0 <= grace <= 720 * 3600:
        raise RequestError("--grace-hours", "must be from 0 to 720")
    if args.submission is None and args.class_address is None:
        raise RequestError("SUBMISSION.json", "give a submission, or --class URL to certify the "
                           "sittings that ended on the class server")
    key = read_private_key(args.key, passphrase(args))
    with Store.open(args.ledger) as store, joined(args, args.ledger) as classroom:
        summary = CertifySummary() if args.submission is None else \
            certify_submission(store, key, args.submission, classroom=classroom, within=grace)
        if classroom is not None:  # in a class the server's record is the result: nothing need be handed in
            certify_class(store, key, classroom, summary=summary, held_too=args.certify_held)
        names = {f.uid: f.name for f in list_forms(store, archived=True)}
        unended = [] if classroom is None else unended_lines(classroom, names=names)
    write_certificates(args.out, summary.certificates)
    for c in summary.certificates:
        verdict = "passed" if c["passed"] else "did not pass"
        print(f"certified: {c['trainee']}, {c['form']['name']}, attempt {c['attempt']}: {verdict} "
              f"({c['total']})" + (", abandoned" if c["status"] == "abandoned" else "")
              + (", from the class server's record" if c.get("recorded") else ""))
        for note in certificate_notes(c):
            print(f"  {note}")
    for line in summary.refused:
        print(f"refused: {line}")
    for line in unended:  # a withheld fail is not invisible: the instructor decides about it
        print(f"not ended: {line}")
    print(f"{args.out}: {len(summary.certificates)} certificate"
          f"{'s' if len(summary.certificates) != 1 else ''}; {len(summary.refused)} refused")
    return 1 if summary.refused else 0
