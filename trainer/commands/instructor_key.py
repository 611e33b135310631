"""`dealer-trainer instructor-key NAME --out PATH`: make an instructor's key pair, the private key
sealed under a passphrase and PATH.pub to give to workstations and auditors (trainer.exams.keys)."""

from __future__ import annotations

from trainer.commands._shared import passphrase
from trainer.errors import RequestError

NAME = "instructor-key"
HELP = ("make an instructor's key pair (private key sealed under a passphrase, and PATH.pub to give "
        "to workstations and auditors)")


def add_arguments(parser) -> None:
    parser.add_argument("name", help="the instructor's name, as certificates will show it")
    parser.add_argument("--out", required=True, metavar="PATH", help="the private key file to write")
    parser.add_argument("--passphrase-env", metavar="VAR",
                        help="read the passphrase from this environment variable (else it is asked)")


def run(args) -> int:
    from pathlib import Path

    from trainer.exams.keys import InstructorKey, write_private_key, write_public_key
    from trainer.progress.records import clean_name

    name = clean_name(args.name)
    if not name:
        raise RequestError("name", "an instructor key needs the instructor's name")
    key = InstructorKey.generate(name)
    out = Path(args.out)
    public = out.with_name(out.name + ".pub")
    for existing in (out, public):  # refused before the passphrase is asked
        if existing.exists():
            raise RequestError(str(existing), "already exists; a key file is never overwritten")
    write_private_key(out, key, passphrase(args, new=True))
    write_public_key(public, key.public)
    print(f"{out}: the private key of {name}, sealed under the passphrase: keep it on your machine")
    print(f"{public}: the public key to give to workstations and auditors")
    print(f"fingerprint: {key.public.fingerprint}")
    return 0
