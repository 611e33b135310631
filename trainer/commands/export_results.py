"""`dealer-trainer export-results FILE|--class URL --format xapi|csv [--trainee NAME] [--out PATH]
[--home-page URL] [--activity-base IRI]`: the results for the employer, xAPI statements for a
learning record store or a CSV transcript for the personnel file (trainer.progress.handoff)."""

from __future__ import annotations

import argparse
import sys

from trainer.commands._shared import EXIT_BAD_INPUT, class_option

NAME = "export-results"
HELP = ("write the results for the employer: xAPI statements for a learning record store, or a CSV "
        "transcript for the personnel file")
WHERE = f"dealer-trainer {NAME}"


def add_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="a progress file (or give --class)")
    class_option(parser)
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
    """Exit 0 with the results written (whole, or no file at all), 2 when a file or the class
    cannot be read or the file cannot be written."""
    import io
    from pathlib import Path

    from trainer.paths import atomic_text
    from trainer.progress import handoff
    from trainer.progress.store import Store

    if (args.file is None) == (args.class_address is None):
        print(f"{WHERE}: give a progress FILE or --class URL (one of them)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.file is not None:
        if not Path(args.file).is_file():
            print(f"{WHERE}: {args.file}: no such progress file", file=sys.stderr)
            return EXIT_BAD_INPUT
        with Store.open(args.file, allow_unavailable=True) as store:
            lines = handoff.file_lines(store, args.trainee)
            for left_out in store.unreadable.values():  # damaged rows: named, the rest written
                print(f"{WHERE}: {left_out}", file=sys.stderr)
    else:
        from trainer.classes.workstation.results import class_lines

        lines = class_lines(args.class_address, args.trainee)
    text = io.StringIO()
    n = handoff.write(lines, text, args.format, home_page=args.home_page or handoff.HOME_PAGE,
                      activity_base=args.activity_base or handoff.IRI)
    placeholder = args.format == "xapi" and args.activity_base is None  # said once, when written
    if args.out is None:
        sys.stdout.write(text.getvalue())
        if placeholder:
            print(handoff.PLACEHOLDER_NOTE, file=sys.stderr)
        return 0
    try:
        with atomic_text(args.out) as out:
            out.write(text.getvalue())
    except OSError as e:
        print(f"{WHERE}: {args.out}: cannot be written ({e.strerror or e})", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.out}: {n} attempt{'s' if n != 1 else ''} as "
          f"{'xAPI statements' if args.format == 'xapi' else 'a CSV transcript'}")
    if placeholder:
        print(handoff.PLACEHOLDER_NOTE, file=sys.stderr)
    return 0
