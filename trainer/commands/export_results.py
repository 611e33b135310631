"""`dealer-trainer export-results FILE|--class URL --format xapi|csv [--trainee NAME] [--out PATH]
[--home-page URL] [--activity-base IRI] [--public-key KEY ...]`: the results for the employer,
xAPI statements for a learning record store or a CSV transcript for the personnel file
(trainer.progress.handoff): the practice attempts, and each exam's certificate that verifies with
an instructor's public key (trainer.exams.employer). Exam attempts themselves are never written."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from trainer.commands._shared import EXIT_BAD_INPUT, class_option

NAME = "export-results"
HELP = ("write the results for the employer: xAPI statements for a learning record store, or a CSV "
        "transcript for the personnel file")
WHERE = f"dealer-trainer {NAME}"


def add_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="a progress file (or give --class)")
    class_option(parser, help="export the whole class instead of a file: the class server's postgresql:// "
                              "address with the instructor's or the supervisor's login (not a "
                              "workstation's, which may not read the class)")
    parser.add_argument("--format", required=True, choices=("xapi", "csv"),
                        help="xapi: a JSON list of xAPI statements; csv: a transcript, a row per attempt")
    parser.add_argument("--trainee", metavar="NAME", help="one trainee's results (default: everyone's)")
    parser.add_argument("--out", metavar="PATH", help="the file to write (default: standard output)")
    parser.add_argument("--home-page", type=_home_page, metavar="URL",
                        help="the address of the system the trainees' accounts are on, as xAPI "
                             "names them (default: the trainer's own)")
    parser.add_argument("--activity-base", type=_activity_base, metavar="IRI",
                        help="the school's or casino's IRI the activity ids are made under, e.g. "
                             "https://lms.example-casino.com/dealer-trainer/ (default: a placeholder)")
    parser.add_argument("--replaces-base", type=_activity_base, metavar="IRI",
                        help="xapi: the activity base of statements sent before with another base "
                             "(the placeholder's, if none was given): they are voided first")
    parser.add_argument("--replaces-home-page", type=_home_page, metavar="URL",
                        help="xapi: the home page of statements sent before with another: they are "
                             "voided first")
    parser.add_argument("--public-key", action="append", default=[], metavar="KEY",
                        help="an instructor's public key file: the exam certificates (the file's, or "
                             "the class's) that verify with it are exported (may be given more than once)")


def _home_page(text: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a web address (http:// or https://...)")
    return text


def _activity_base(text: str) -> str:
    from trainer.progress.handoff import activity_base

    try:
        return activity_base(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def run(args) -> int:
    """Exit 0 with the results written (whole, or no file at all; the class's attempts retracted
    or unreadable left out, each named on stderr), 2 when a file, a key or the class cannot be
    read or the file cannot be written."""
    import io
    from pathlib import Path

    from trainer.paths import atomic_text
    from trainer.progress import handoff
    from trainer.progress.records import Mode, clean_name

    left_out: list[str] = []  # the class's attempts not written (retracted, or unreadable), and why
    accounts: dict[str, str] = {}  # the class's names and their people's uids
    refused_names: set[str] = set()  # names sent under a trainee id that carries two names
    practising: list = []  # the trainees whose practice attempts are written, known before they are
    formerly = handoff.Formerly()  # the actors of before a claim was settled the claimant's
    rounds: list = []  # the supervised rounds, practice (trainer.progress.handoff_supervised)
    if (args.file is None) == (args.class_address is None):
        print(f"{WHERE}: give a progress FILE or --class URL (one of them)", file=sys.stderr)
        return EXIT_BAD_INPUT
    keys = _keys(args.public_key)
    if args.file is not None:
        if not Path(args.file).is_file():
            print(f"{WHERE}: {args.file}: no such progress file", file=sys.stderr)
            return EXIT_BAD_INPUT
        lines, kept = _from_file(args.file, args.trainee, rounds)
        practising.extend(line.trainee for line in handoff.practice_only(lines))  # a file's: a list
    else:
        lines, kept = _from_class(args.class_address, args.trainee, asked=bool(keys), left_out=left_out,
                                  accounts=accounts, refused_names=refused_names, practising=practising,
                                  formerly=formerly, rounds=rounds)
    refused: list[str] = []  # certificates and accounts refused before anything is written, and why
    certified: list = []
    if keys:
        from trainer.exams.employer import certified as check

        certified, bad = check(kept, keys, args.trainee)
        disputed = [c for c in certified if clean_name(c.trainee) in refused_names]
        if disputed:
            certified = [c for c in certified if c not in disputed]
            refused.append(f"{len(disputed)} certificate{'s' if len(disputed) != 1 else ''} left out, "
                           "sent under a trainee id that carries two names: "
                           + "; ".join(f"{c.trainee}, {c.form} ({c.result})" for c in disputed))
    elif kept:
        many = len(kept) != 1
        bad = [f"{len(kept)} exam certificate{'s' if many else ''} not written: give the "
               f"instructor's --public-key KEY to check and export {'them' if many else 'it'}"]
    else:
        bad = []
    # checked from the trainees alone, before the first line is read: the lines stay streamed
    lines, certified, shared = handoff.one_person_each(lines, certified, practising, accounts)
    refused.extend(shared)  # an account that would carry two names: refused, named
    home_page, base = args.home_page or handoff.HOME_PAGE, args.activity_base or handoff.IRI
    replaces = None
    if args.replaces_base is not None or args.replaces_home_page is not None:
        if args.format != "xapi":
            print(f"{WHERE}: --replaces-base and --replaces-home-page void xAPI statements: give "
                  "--format xapi", file=sys.stderr)
            return EXIT_BAD_INPUT
        replaces = (args.replaces_home_page or home_page, args.replaces_base or base)
    counted = {"attempts": 0, "exams": 0}  # as the lines go by: the class's are never held at once

    def count(lines):
        for line in lines:
            counted["exams" if line.attempt.mode is Mode.EXAM else "attempts"] += 1
            yield line

    def written(out) -> int:
        return handoff.write(count(lines), out, args.format, certified=certified, home_page=home_page,
                             activity_base=base, bom=args.out is not None, replaces=replaces,
                             accounts=accounts, formerly=formerly, supervised=rounds)

    if args.out is not None:
        try:
            with atomic_text(args.out, private=True) as out:  # trainees' results: the owner's only
                n = written(out)
        except OSError as e:
            print(f"{WHERE}: {args.out}: cannot be written ({e.strerror or e})", file=sys.stderr)
            return EXIT_BAD_INPUT
    else:
        text = io.StringIO()  # standard output is written whole, or not at all
        written(text)
    notes = [why for why in left_out if why.startswith("trainee id ")]  # whole people
    notes.extend(formerly.settled)  # the claims the instructor settled, each named
    attempts_left = [why for why in left_out if not why.startswith(("trainee id ", "supervised round "))]
    if attempts_left:
        notes.append(f"{len(attempts_left)} attempt{'s' if len(attempts_left) != 1 else ''} of the class "
                     "left out: " + "; ".join(attempts_left))
    rounds_left = [why for why in left_out if why.startswith("supervised round ")]  # retracted, unreadable
    if rounds_left:
        notes.append(f"{len(rounds_left)} supervised round{'s' if len(rounds_left) != 1 else ''} of the "
                     "class left out: " + "; ".join(rounds_left))
    notes.extend(bad)  # after the class's attempts left out: every row not written is named
    notes.extend(refused)
    if counted["exams"]:
        notes.append(handoff.EXAMS_NOTE.format(n=counted["exams"], s="s" if counted["exams"] != 1 else ""))
    if args.format == "xapi" and args.activity_base is None:  # said once, when written
        notes.append(handoff.PLACEHOLDER_NOTE)
    if args.out is not None:
        attempts = counted["attempts"]
        made = (sum(max(1, len(r.by_class())) for r in rounds) if args.format == "xapi"
                else len(rounds))  # the rounds' statements, or rows
        voided = n - attempts - len(certified) - made
        print(f"{args.out}: {attempts} attempt{'s' if attempts != 1 else ''}"
              + (f" and {len(certified)} certificate{'s' if len(certified) != 1 else ''}" if keys else "")
              + (f", {len(rounds)} supervised round{'s' if len(rounds) != 1 else ''} (practice)"
                 if rounds else "")
              + f" as {'xAPI statements' if args.format == 'xapi' else 'a CSV transcript'}"
              + (f", after {voided} voiding the statement{'s' if voided != 1 else ''} they replace"
                 if voided else ""))
    else:
        sys.stdout.write(text.getvalue())
    for note in notes:
        print(note if note.startswith("note:") else f"note: {note}", file=sys.stderr)
    return 0


def _from_file(path: str, trainee: str | None, rounds: list) -> tuple[Iterable, list]:
    """The file's attempts (one trainee's, or everyone's) and the certificates it keeps (an
    instructor's file keeps those it signed, of trainees it may hold no attempt of); its
    supervised rounds put in `rounds`."""
    from trainer.exams.certify import certificates
    from trainer.progress import handoff
    from trainer.progress.errors import UnknownTraineeError
    from trainer.progress.handoff_supervised import file_rounds
    from trainer.progress.store import Store

    with Store.open(path, allow_unavailable=True) as store:
        kept = certificates(store)
        try:
            lines = handoff.file_lines(store, trainee)
            unread: list[str] = []
            rounds.extend(file_rounds(store, store.find_trainee(trainee) if trainee is not None else None,
                                      unread))
            for why in unread:  # a round that cannot be read: named, the rest written
                print(f"{WHERE}: {why}", file=sys.stderr)
        except UnknownTraineeError:
            if not _certified_as(kept, trainee or ""):
                raise
            lines = []  # a trainee the file knows by their certificates only
        for left_out in store.unreadable.values():  # damaged rows: named, the rest written
            print(f"{WHERE}: {left_out}", file=sys.stderr)
    return lines, kept


def _from_class(address, trainee: str | None, *, asked: bool, left_out: list[str],
                accounts: dict[str, str], refused_names: set[str], practising: list, formerly,
                rounds: list) -> tuple[Iterable, list]:
    """The class's attempts (read as they are written) and the certificates it keeps (an
    instructor's or supervisor's login reads them; a trainee's reads none, which stops the export
    only when they were asked for);
    the attempts left out (retracted, or unreadable) named in `left_out`; each name's person's
    uid in `accounts`, the names sent under a trainee id that carries two names in
    `refused_names`, the trainees whose practice attempts are read in `practising`, the actors
    of before a claim was settled in `formerly` and the supervised rounds in `rounds`
    (trainer.classes.workstation.results.server_lines)."""
    from trainer.classes.errors import ClassServerError
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.classes.workstation.results import class_lines
    from trainer.progress.errors import UnknownTraineeError

    lines: Iterable | None
    try:
        lines = class_lines(address, trainee, left_out=left_out, accounts=accounts,
                            refused_names=refused_names, practising=practising, formerly=formerly,
                            rounds=rounds)
    except UnknownTraineeError as e:
        if not str(e).startswith("the class has no trainee named"):
            raise  # two people of one name: ambiguous
        lines = None
    try:
        kept = ClassLedger(address).certificates()
    except ClassServerError:
        if asked:
            raise
        kept = []
    if lines is None:  # a trainee the class knows by their certificates only
        if not _certified_as(kept, trainee or ""):
            raise UnknownTraineeError(f"the class has no trainee named {trainee!r}, and keeps no "
                                      "certificate of that name")
        lines = []
    return lines, kept


def _certified_as(kept: list, trainee: str) -> bool:
    """Whether a certificate kept names the trainee (by their name as the app cleans it)."""
    from trainer.progress.records import clean_name

    return any(isinstance(c, dict) and isinstance(c.get("trainee"), str)
               and clean_name(c["trainee"]) == clean_name(trainee) for c in kept)


def _keys(paths: list[str]) -> list:
    """The instructors' public keys named; a key that cannot be read stops the export (KeyFileError,
    one line, exit 2)."""
    if not paths:
        return []
    from trainer.exams.keys import read_public_key

    return [read_public_key(p) for p in paths]
