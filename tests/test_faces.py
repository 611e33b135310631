"""The UI reaches the engine through four faces only: `trainer`, `trainer.progress`,
`trainer.classes` and `trainer.exams`. Each face loads what it names when first used, so
importing one stays cheap, and every name it lists is really there."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.support.paths import ROOT

FACES = ("trainer", "trainer.progress", "trainer.classes", "trainer.exams")


def engine_imports(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("trainer"):
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("trainer"):
                    yield node.lineno, alias.name


def test_the_ui_imports_only_the_engines_faces():
    behind = [f"{p.relative_to(ROOT)}:{line} imports {module}"
              for p in sorted((ROOT / "ui").rglob("*.py"))
              for line, module in engine_imports(p) if module not in FACES]
    assert not behind, "the UI reaches behind a face:\n" + "\n".join(behind)


@pytest.mark.parametrize("face", FACES)
def test_every_name_a_face_lists_is_there(face):
    module = __import__(face, fromlist=["__all__"])
    missing = [n for n in module.__all__ if n != "__version__" and getattr(module, n, None) is None]
    assert not missing


def test_importing_a_face_loads_nothing_behind_it():
    code = ("import sys, trainer, trainer.progress, trainer.classes, trainer.exams; "
            "print(sorted(m for m in sys.modules if m.startswith('trainer')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sorted(["trainer", "trainer.faces", "trainer.progress",
                                             "trainer.classes",
                                             "trainer.exams"]))
