"""Each engine command is declared once, in a module of trainer.commands: the parser, the list of
commands and the dispatch are built from the package, and loading it loads nothing of the engine."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.support.paths import ROOT
from trainer import cli, commands

FOLDER = ROOT / "trainer" / "commands"


def test_every_module_of_the_package_is_a_listed_command():
    found = sorted(p.stem for p in FOLDER.glob("*.py") if not p.stem.startswith("_"))
    assert sorted(commands.MODULES) == found


@pytest.mark.parametrize("command", commands.ALL, ids=lambda c: c.NAME)
def test_a_command_module_says_everything_about_its_command(command):
    module = command.__name__.rpartition(".")[2]
    assert module.replace("_", "-") == command.NAME
    assert command.HELP and command.__doc__
    assert callable(command.add_arguments) and callable(command.run)


def test_the_parser_the_list_and_the_dispatch_come_from_the_package():
    names = [c.NAME for c in commands.ALL]
    assert list(cli.COMMANDS) == names
    assert "{" + ",".join(names) + "}" in cli.build_parser().format_usage()


@pytest.mark.parametrize("path", sorted(FOLDER.glob("[!_]*.py")), ids=lambda p: p.stem)
def test_a_command_imports_no_other_command(path):
    """What two commands share is in trainer.commands._shared, not taken from one another."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    others = {f"trainer.commands.{m}" for m in commands.MODULES} - {f"trainer.commands.{path.stem}"}
    assert not imported & others


def test_loading_the_commands_loads_nothing_they_run():
    """ui.main asks trainer.cli whether its first argument is a command before it opens the app:
    that, and building the parser, loads no command's engine. A command that reads no scenario
    (odds) runs without the scenario module, which trainer.cli once loaded for its error alone."""
    code = ("import sys, trainer.cli; trainer.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith('trainer') "
            "and not m.startswith('trainer.commands'))); "
            "status = trainer.cli.main(['odds', '--game', 'props-and-hops']); "
            "print(status, 'trainer.scenario' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.splitlines()[0] == str(sorted(["trainer", "trainer.cli", "trainer.errors",
                                                     "trainer.faces", "trainer.vocabulary"]))
    assert "House edge" in out.stdout
    assert out.stderr.strip() == "0 False"


def _parsed(parser, argv: list[str], capsys) -> tuple[object, str, str]:
    """What the parser makes of argv: its namespace or exit status, then stdout and stderr."""
    try:
        got = vars(parser.parse_args(argv))
    except SystemExit as e:
        got = e.code
    out, err = capsys.readouterr()
    return got, out, err


@pytest.fixture(scope="module")
def every_command():
    """The parser of every command, built once: parsing changes nothing of a parser."""
    return cli.build_parser()


@pytest.mark.parametrize("command", commands.ALL, ids=lambda c: c.NAME)
def test_a_command_parsed_alone_reads_as_it_does_among_all(command, capsys, every_command):
    """A command's run builds its own parser only (trainer.cli.build_parser(argv)): its help, a
    usage error and a good line read exactly as with every command's parser built."""
    alone = cli.build_parser([command.NAME])
    [choices] = [a.choices for a in alone._actions if a.dest == "command"]
    assert list(choices) == [command.NAME]
    for argv in ([command.NAME, "--help"], [command.NAME, "--no-such-option"], [command.NAME]):
        assert _parsed(alone, argv, capsys) == _parsed(every_command, argv, capsys)
    assert _parsed(cli.build_parser(["nonsense"]), ["nonsense"], capsys) == _parsed(
        every_command, ["nonsense"], capsys)
