"""The engine's commands: `dealer-trainer COMMAND ...`, also run as `python -m trainer COMMAND ...`.

Each command is a module of trainer.commands (its name, its help, its arguments and what it runs);
this module builds the parser, the list of commands and the dispatch from them, and turns what a
command raises into one line and an exit status: 2 for bad input, 70 for a bug.

`dealer-trainer` with no command opens the app (ui.main); these commands import no Qt, so they
start fast and run on machines with no display.
"""

from __future__ import annotations

import argparse
import os
import sys

from trainer import __version__, commands
from trainer.commands._shared import EXIT_BAD_INPUT, class_option
from trainer.errors import DataError, RequestError

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "EXIT_INTERNAL", "build_parser", "class_option", "main",
           "utf8_output"]

EXIT_INTERNAL = 70  # a bug (sysexits' EX_SOFTWARE): never mistaken for "failed" (1) or bad input (2)

#: the commands' names, in the order the help lists them (ui.main: is the first argument one?)
COMMANDS = tuple(c.NAME for c in commands.ALL)
_RUN = {c.NAME: c.run for c in commands.ALL}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line and exits 2, as every bad input does."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; or, when `argv` starts with a command's name, of that command
    alone, which parses `argv` as the whole one does (a command's words, usage, help and errors
    are its own) without building the others' (most of a command's start: 45 ms of 22 parsers)."""
    p = _Parser(prog="dealer-trainer", description="Dealer Trainer's engine commands.",
                epilog="Run dealer-trainer with no command to open the app.")
    p.add_argument("--version", action="version", version=f"dealer-trainer {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, required=True)
    named = argv[0] if argv and argv[0] in _RUN else None
    for command in commands.ALL:
        if named in (None, command.NAME):
            command.add_arguments(sub.add_parser(command.NAME, help=command.HELP))
    return p


def utf8_output() -> None:
    """Standard output and error in UTF-8 whatever the locale (piped on Windows they would be
    cp1252, and every § a byte no UTF-8 reader takes); a lone surrogate is escaped, not a crash."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


#: the errors that are bad input, each by its module and name: a command that never loaded the
#: module cannot have raised it, so it is looked up among the modules loaded, and a command that
#: reads no scenario does not import trainer.scenario for it (some 27 ms of a start's processor)
REFUSALS = (("trainer.scenario", "ScenarioError"), ("trainer.exams.errors", "ExamError"),
            ("trainer.progress.errors", "StoreError"))


def _refusal(e: Exception) -> bool:
    """Whether `e` is bad input, said in one line: not a bug."""
    return isinstance(e, (RequestError, DataError)) or any(
        isinstance(e, getattr(sys.modules[module], name, ())) for module, name in REFUSALS
        if module in sys.modules)


def main(argv: list[str] | None = None) -> int:
    utf8_output()
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    if hasattr(sys.stdin, "reconfigure"):  # JSON is UTF-8 whatever the locale; a byte that is not
        sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")  # is refused by loads()
    try:
        return _RUN[args.command](args)
    except BrokenPipeError:
        return 0
    except Exception as e:
        if _refusal(e):
            print(f"{e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        # a bug: say so in one line, never a traceback
        if os.environ.get("DEALER_TRAINER_DEBUG"):
            raise
        print(f"dealer-trainer: internal error ({type(e).__name__}: {e}); "
              "set DEALER_TRAINER_DEBUG=1 for details", file=sys.stderr)
        return EXIT_INTERNAL
