"""`dealer-trainer check PATH...`: validate scenario files, a `file:line: message` line on stderr
for each problem (a scenario's [[fault]] entries checked against its round, as `supervise` reads
them)."""

from __future__ import annotations

import sys

from trainer.commands._shared import EXIT_BAD_INPUT

NAME = "check"
HELP = "validate scenario files (file:line: message on a problem)"


def add_arguments(parser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")


def run(args) -> int:
    from pathlib import Path

    from trainer.procedure import build
    from trainer.scenario import ScenarioError, load
    from trainer.supervise.rounds import scripted, setting

    files: list[Path] = []
    missing = 0  # paths that do not exist, each reported at once
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(path.rglob("*.toml"))
        elif path.exists():
            files.append(path)
        else:
            print(f"{raw}:1: no such file or folder", file=sys.stderr)
            missing += 1
    bad = missing
    for path in files:
        try:
            scenario = load(path)
            if scenario.faults:
                scripted(setting(scenario))  # which builds the procedure too
            else:
                build(scenario)
        except ScenarioError as e:
            print(str(e), file=sys.stderr)
            bad += 1
        except Exception as e:  # one bad file must not stop the check of the others
            print(f"{path}:1: cannot be checked ({type(e).__name__}: {e})", file=sys.stderr)
            bad += 1
    total = len(files) + missing
    print(f"{total - bad} of {total} scenario files are good", file=sys.stdout)
    return EXIT_BAD_INPUT if bad else 0
