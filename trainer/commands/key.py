"""`dealer-trainer key SCENARIO [--json]`: a scenario's answer key, the expected procedure with
each step cited (trainer.answer_key)."""

from __future__ import annotations

import json
import sys

from trainer.commands._shared import find_scenario

NAME = "key"
HELP = "print a scenario's answer key: the expected procedure, cited"


def add_arguments(parser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="a scenario file, or a bundled scenario's id")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args) -> int:
    from trainer.answer_key import key_json, key_text

    scenario = find_scenario(args.scenario)
    if args.json:
        sys.stdout.write(json.dumps(key_json(scenario), indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(key_text(scenario) + "\n")
    return 0
