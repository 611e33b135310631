"""`dealer-trainer grade SCENARIO --log LOG.json [--automation A] [--json]`: grade a recorded
action log against a scenario's answer key (trainer.regrade)."""

from __future__ import annotations

import json
import sys

from trainer.commands._shared import find_scenario, loads
from trainer.errors import RequestError
from trainer.vocabulary import Automation

NAME = "grade"
HELP = "grade a recorded action log against a scenario's key"
#: the most a log file may hold: four times the 262,144 bytes the class server keeps of a log
MAX_LOG_BYTES = 1024 * 1024


def add_arguments(parser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="a scenario file, or a bundled scenario's id")
    parser.add_argument("--log", required=True, metavar="LOG.json",
                        help="the actions, as the app records them (a list, or an object with \"log\")")
    parser.add_argument("--automation", choices=[a.value for a in Automation],
                        help="what the trainee did (default: the log's, else the scenario's)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args) -> int:
    """Exit 0 when the log passes, 1 when it fails, 2 when a file cannot be read."""
    from trainer import files
    from trainer.regrade import read_log, regrade, render, result_json

    scenario = find_scenario(args.scenario)
    try:  # a log someone else made: a regular file only (no FIFO, no /dev/zero), and capped
        text = files.read_capped(args.log, MAX_LOG_BYTES).decode("utf-8")
    except files.FileRefused as e:
        raise RequestError(args.log, f"not read: {e}") from None
    except UnicodeDecodeError:
        raise RequestError(args.log, "not a log (it is not UTF-8 text)") from None
    except OSError as e:
        raise RequestError(args.log, f"cannot be read ({e.strerror or e})") from None
    try:
        log, settings = read_log(loads(text, unique_keys=True))
    except RequestError as e:
        raise RequestError(f"{args.log}: {e.field}", e.message) from None
    automation = Automation(args.automation) if args.automation else settings.get("automation")
    automation = automation or scenario.automation
    result = regrade(scenario, log, automation, settings.get("elapsed"))
    if args.json:
        sys.stdout.write(json.dumps(result_json(scenario, result, automation), indent=1,
                                    ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(scenario, result, automation) + "\n")
    return 0 if result.score.passed else 1
