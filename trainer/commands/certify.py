"""`dealer-trainer certify SUBMISSION.json --key KEY --ledger DB --out CERTIFICATES.json`: re-grade
a workstation's exam submission and sign a certificate for each result."""

from __future__ import annotations

from trainer.commands._shared import class_option, joined, passphrase

NAME = "certify"
HELP = "re-grade a workstation's exam submission and sign a certificate for each result"


def add_arguments(parser) -> None:
    parser.add_argument("submission", metavar="SUBMISSION.json")
    parser.add_argument("--key", required=True, metavar="KEY", help="your instructor key file")
    parser.add_argument("--ledger", required=True, metavar="DB", help="the progress file that issued "
                        "the sittings")
    parser.add_argument("--out", required=True, metavar="CERTIFICATES.json")
    parser.add_argument("--passphrase-env", metavar="VAR", help="the key's passphrase, from this "
                        "environment variable (else it is asked)")
    parser.add_argument("--grace-hours", type=float, metavar="N", help="certify results of sittings "
                        "that expired up to N hours ago (default 12; at most 720)")
    class_option(parser)  # joined: the class server is asked first and keeps the certificates


def run(args) -> int:
    """Exit 0 when every result was certified, 1 when some were refused (each named)."""
    from trainer.errors import RequestError
    from trainer.exams.certify import CERTIFY_WITHIN
    from trainer.exams.keys import read_private_key
    from trainer.exams.submission import certify_submission, write_certificates
    from trainer.progress.store import Store

    grace = CERTIFY_WITHIN if args.grace_hours is None else args.grace_hours * 3600
    if not 0 <= grace <= 720 * 3600:
        raise RequestError("--grace-hours", "must be from 0 to 720")
    key = read_private_key(args.key, passphrase(args))
    with Store.open(args.ledger) as store, joined(args, args.ledger) as classroom:
        summary = certify_submission(store, key, args.submission, classroom=classroom, within=grace)
    write_certificates(args.out, summary.certificates)
    for c in summary.certificates:
        verdict = "passed" if c["passed"] else "did not pass"
        print(f"certified: {c['trainee']}, {c['form']['name']}, attempt {c['attempt']}: {verdict} "
              f"({c['total']})")
        if c.get("late"):
            print(f"  not in time: {c['late']['why']}")
    for line in summary.refused:
        print(f"refused: {line}")
    print(f"{args.out}: {len(summary.certificates)} certificate"
          f"{'s' if len(summary.certificates) != 1 else ''}; {len(summary.refused)} refused")
    return 1 if summary.refused else 0
