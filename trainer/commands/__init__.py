"""The engine's commands, `dealer-trainer COMMAND ...` (also `python -m trainer COMMAND ...`): a
module each, which says everything about its command:

    NAME               the command's name
    HELP               its line in `dealer-trainer --help`
    add_arguments(p)   adds its arguments to its argparse parser
    run(args) -> int   runs it and gives the exit status (2: bad input, as trainer.cli says)

trainer.cli builds the parser, the list of commands and the dispatch from ALL; a new command is a
new module, named in MODULES. What more than one command uses is in _shared.

A command's module imports at its top only what its parser needs; what it runs it imports in
run(), so that every command (and the app, which asks whether its first argument is one) starts
without loading the engine behind the others.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: the commands' modules, in the order `dealer-trainer --help` lists them
MODULES = ("settle", "check", "key", "grade", "odds", "instructor_key", "sitting", "certify",
           "verify_results", "class_server", "class_setup", "class_login", "class_workstation",
           "give_form", "export_results", "retract", "merge_trainees", "settle_claim", "abandon_sitting",
           "void_sitting", "give_back_attempt", "supervise", "hear")

ALL: tuple[ModuleType, ...] = tuple(import_module(f"{__name__}.{m}") for m in MODULES)
