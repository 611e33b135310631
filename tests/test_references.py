"""What the comments, docstrings and documents name is there, and they point at nothing the
repository does not hold.

Read: the Python under trainer/, ui/ and tests/, and every Markdown file under docs/ with
README.md. In them:

- a path into the repository (`tests/test_faces.py`, `trainer/games/base.py`,
  `resources/layouts/props-and-hops.toml`, `docs/settle.md`) names a file or folder that exists; a
  pattern (`resources/paytables/*.toml`) matches one at least; a template (`ui/table/<game>.py`)
  is not checked;
- a test file named alone (`test_faces.py`) is one of tests/;
- a dotted name of the engine, the UI or the tests (`trainer.exams.certify`,
  `trainer.cite.reading`, `ui.classroom.live.LiveClass`) is a module, or a name a module defines;
- no text points at an issue by number or calls it "the issue": what the repository says about
  why it is so is said in its own words, since the issues are kept elsewhere.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from importlib import import_module
from pathlib import Path

import pytest

from tests.support.paths import ROOT

#: named in the documents but made only when the wheel is built (pyproject.toml)
BUILT = ("trainer/_data",)
PATH = re.compile(r"(?<![\w./-])((?:trainer|ui|tests|resources|scenarios|docs)/[\w./*<>{}-]*[\w*>}/])")
TEST_FILE = re.compile(r"(?<![\w/.-])(test_\w+\.py)\b")
DOTTED = re.compile(r"(?<![\w./-])((?:trainer|ui|tests)(?:\.\w+)+)")
#: "issue 14", "Issue 13, item 2", "(issue: ...)", 'issue "a pass ..."', "the exam issue" (but not
#: "the tests issue sittings")
ISSUE = re.compile(r"\b[Ii]ssues? *#?\d|\b[Ii]ssue:|\b[Ii]ssue \"|\b(?:the|this|that) [\w-]+ issue\b(?! \w)")
#: text that every match of a pattern holds (each of its alternatives spells it out): a line
#: without any of it is not searched (more than 19 lines in 20 of the sources)
NEEDS = {PATH: ("/",), TEST_FILE: ("test_",), DOTTED: ("trainer.", "ui.", "tests."), ISSUE: ("ssue",)}


def sources() -> list[Path]:
    """The files read: this one aside, whose names are examples."""
    python = [p for top in ("trainer", "ui", "tests", ".ci") for p in sorted((ROOT / top).rglob("*.py"))]
    here = Path(__file__).resolve()
    return [p for p in python if p != here] + [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md",
                                               ROOT / "Makefile", ROOT / ".ci" / "run"]


@cache
def prose(path: Path) -> tuple[tuple[int, str], ...]:
    """(line, text) of a file. Python is read whole, its code with its comments and strings: the
    code's own names are the modules it imports, which are there or it would not run."""
    return tuple(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))


def mentions(pattern: re.Pattern) -> list[tuple[str, str]]:
    """(where, what) for each match of `pattern` in what the sources say."""
    needs = NEEDS[pattern]
    return [(f"{path.relative_to(ROOT)}:{n}", m.group(1) if m.groups() else m.group(0))
            for path in sources() for n, line in prose(path) if any(s in line for s in needs)
            for m in pattern.finditer(line)]


def test_the_sources_are_read():
    # the checks below mean something only if they find what they check
    assert len(mentions(PATH)) > 100 and len(mentions(DOTTED)) > 100 and len(mentions(TEST_FILE)) > 10


def test_every_path_named_exists():
    missing = []
    for where, path in mentions(PATH):
        path = path.rstrip("/.")
        if any(c in path for c in "<{") or path.startswith(BUILT):
            continue
        found = list(ROOT.glob(path)) if "*" in path else [ROOT / path] if (ROOT / path).exists() else []
        if not found:
            missing.append(f"{where}: {path}")
    assert not missing, "paths named that are not in the repository:\n" + "\n".join(missing)


def test_every_test_file_named_exists():
    there = {p.name for p in (ROOT / "tests").rglob("test_*.py")}
    missing = [f"{where}: {name}" for where, name in mentions(TEST_FILE) if name not in there]
    assert not missing, "test files named that are not in tests/:\n" + "\n".join(missing)


@cache
def defined(module: str) -> frozenset[str] | None:
    """The names a module of the repository defines at its top level (read, not imported, so
    that the UI's need no Qt), or None when there is no such module."""
    base = ROOT.joinpath(*module.split("."))
    path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    if not path.is_file():
        return None
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    if base.is_dir():
        names |= {p.stem for p in base.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    return frozenset(names)


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        names = defined(".".join(parts[:cut]))
        if names is None:
            continue
        if cut == len(parts) or parts[cut] in names or parts[cut].startswith("__"):
            return True
        # an engine face names what it offers in a table, not at its top level
        return parts[0] == "trainer" and hasattr(import_module(".".join(parts[:cut])), parts[cut])
    return False


def test_every_module_named_exists():
    missing = sorted({f"{where}: {name}" for where, name in mentions(DOTTED) if not resolves(name)})
    assert not missing, "modules or names named that are not there:\n" + "\n".join(missing)


def test_no_text_points_at_an_issue():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sources() for n, line in prose(path)
             if NEEDS[ISSUE][0] in line and ISSUE.search(line)]
    assert not found, ("say what is meant instead of pointing at an issue the repository does not "
                       "hold:\n" + "\n".join(found))


@pytest.mark.parametrize("name, ok", [("trainer.cite.reading", True), ("trainer.cite.nothing", False),
                                      ("trainer.nothing", False), ("ui.qt", True),
                                      ("trainer.exams.issue_sitting", True)])
def test_resolving_a_dotted_name(name, ok):
    assert resolves(name) is ok
