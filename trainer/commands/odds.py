"""`dealer-trainer odds [--game G] [--option KEY=VALUE] [--json]`: the exact house edge of every
wager of a game (trainer.odds)."""

from __future__ import annotations

import json
import sys

from trainer.errors import RequestError

NAME = "odds"
HELP = "exact house edge of every wager of a game"


def add_arguments(parser) -> None:
    parser.add_argument("--game", help="the game (default: every game and every paytable)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a property option, such as sum_paytable=B")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args) -> int:
    from trainer import odds

    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RequestError(f"--option {item}", "expected KEY=VALUE, such as sum_paytable=B")
        options[key] = value
    if args.game is None:
        if options:
            raise RequestError("--option", "give --game with an option")
        reports = odds.every_report()
    else:
        reports = [odds.report(args.game, options, where="--game")]
    if args.json:
        payload = reports[0] if len(reports) == 1 else reports
        sys.stdout.write(json.dumps(payload, indent=1) + "\n")
    else:
        sys.stdout.write("\n\n".join(odds.render(r) for r in reports) + "\n")
    return 0
