"""What more than one command uses: the exit status of bad input, reading a request's JSON, finding
a scenario, asking an instructor key's passphrase, and the `--class` option with the class it
joins. Like the commands, it imports what it uses inside each function, so that it stays cheap."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from decimal import Decimal

from trainer.errors import RequestError

EXIT_BAD_INPUT = 2


def loads(text: str, *, unique_keys: bool = False):
    """A request's JSON, its numbers read exactly (Decimal); RequestError when it is not JSON, or
    not UTF-8 (stdin is read with each byte that is not UTF-8 kept as a lone surrogate, trainer.cli,
    so that one bad line of `settle --jsonl` is refused by name and the others are answered), or
    (`unique_keys`: a file someone else made) when an object names a key twice."""
    from trainer import files

    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise RequestError("request", f"not UTF-8 text (at character {e.start + 1})") from None
    try:
        return json.loads(text, parse_float=Decimal,
                          object_pairs_hook=files.unique_keys if unique_keys else None)
    except files.DuplicateKey as e:
        raise RequestError("request", str(e)) from None
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}"
        raise RequestError("request", f"not valid JSON ({e.msg} at {where})") from None
    except RecursionError:
        raise RequestError("request", "JSON nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise RequestError("request", "a number too long to read (more than 4,300 digits)") from None


def find_scenario(arg: str):
    """A scenario file, or a bundled scenario found by file stem or id."""
    from pathlib import Path

    from trainer.paths import scenarios_dir
    from trainer.scenario import ScenarioError, load

    path = Path(arg)
    if not path.exists():
        by_id = [p for p in scenarios_dir().rglob("*.toml") if _scenario_id(p) == arg]
        found = by_id or [p for p in scenarios_dir().rglob("*.toml") if p.stem == arg]
        if not found:
            raise ScenarioError(arg, 1, "no such file, and no bundled scenario has this id")
        if len(found) > 1:
            names = ", ".join(sorted(f"{p.parent.name}/{p.stem}" for p in found))
            raise ScenarioError(arg, 1, f"more than one bundled scenario has this name ({names}); "
                                        "give its id or its file")
        path = found[0]
    return load(path)


def _scenario_id(path) -> str | None:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get("id")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def passphrase(args, *, new: bool = False) -> str:
    """The passphrase from --passphrase-env, or asked on the terminal (twice for a new key)."""
    import getpass

    if args.passphrase_env:
        value = os.environ.get(args.passphrase_env)
        if value is None:
            raise RequestError("--passphrase-env", f"the environment variable {args.passphrase_env} "
                                                   "is not set")
        return value
    if not sys.stdin.isatty():
        raise RequestError("--passphrase-env", "no terminal to ask the passphrase on: name an "
                                               "environment variable that holds it")
    first = getpass.getpass("Passphrase: ")
    if new and getpass.getpass("The same passphrase again: ") != first:
        raise RequestError("passphrase", "the two passphrases differ; nothing was written")
    return first


def _class_address(text: str):
    from trainer.classes.errors import ClassServerError
    from trainer.classes.workstation.address import class_address

    try:
        return class_address(text)
    except ClassServerError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def class_option(parser: argparse.ArgumentParser,
                 help: str = "join a class: its server's postgresql:// address, as the class server "
                             "printed it") -> None:
    """`--class URL`: the class server the command uses (its address checked here, without
    connecting; the parsed value is a trainer.classes.workstation.address.ClassAddress), `help`
    saying what for."""
    parser.add_argument("--class", dest="class_address", type=_class_address, metavar="URL", help=help)


def required_class_option(parser: argparse.ArgumentParser) -> None:
    """`--class URL`, required: the class server's address with the instructor's login."""
    parser.add_argument("--class", dest="class_address", type=_class_address, metavar="URL",
                        required=True, help="the class server's postgresql:// address with the "
                                            "instructor's login, as the class server printed it")


def instructor_record_arguments(parser: argparse.ArgumentParser, dest: str, metavar: str, help: str,
                                reason: str = "why, kept with it (500 characters at most)") -> None:
    """What an instructor's append-only record on the class server takes (retract, abandon-sitting,
    void-sitting): the row's id, `--reason TEXT` and the instructor's `--class URL`."""
    parser.add_argument(dest, metavar=metavar, help=help)
    parser.add_argument("--reason", required=True, metavar="TEXT", help=reason)
    required_class_option(parser)


@contextlib.contextmanager
def joined(args, ledger: str):
    """The class the command's `--class` names, as the app joins it (nothing pushed), or None."""
    if args.class_address is None:
        yield None
        return
    from trainer.classes.workstation.connection import ClassConnection

    classroom = ClassConnection(ledger, args.class_address)
    try:
        yield classroom
    finally:
        classroom.close()
