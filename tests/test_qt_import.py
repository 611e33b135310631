"""PySide6's question of every module imported after it, whether its source names PySide6 (for
`from __feature__ import`), answered from the file's bytes by ui.qt: the same answers as PySide's
own reading of the source (`inspect.getsource`), for a fraction of its processor."""

from __future__ import annotations

import inspect
import sys

import pytest

#: each test here asks about modules of its own, imported in this process
pytestmark = pytest.mark.qt


def pyside_rule(module) -> bool:
    """PySide's own rule (`_mod_uses_pyside` in shiboken's feature support), as PySide6 6.11
    words it: "PySide6" in the source `inspect.getsource` gives, False where it gives none."""
    try:
        return "PySide6" in inspect.getsource(module)
    except (TypeError, OSError, SyntaxError):
        return False


def test_the_answers_are_pysides_for_every_module_of_the_app_and_its_libraries():
    import ui.qt
    import ui.shell.window  # the app's window, its libraries with it

    checked = [m for name, m in list(sys.modules.items())
               if name.split(".")[0] in {"ui", "trainer", "PySide6", "shiboken6", "pyqtgraph",
                                         "json", "sqlite3", "tomllib", "encodings"}]
    assert len(checked) > 100
    differ = [m.__name__ for m in checked if ui.qt._uses_pyside(m) != pyside_rule(m)]
    assert differ == []
    assert ui.qt._uses_pyside(ui.qt) and not ui.qt._uses_pyside(sys.modules["trainer.money"])
    assert not ui.qt._uses_pyside(sys)  # built in: no source


def test_a_module_imported_after_qt_is_told_apart_by_its_source(tmp_path, monkeypatch):
    """Through PySide's own import hook: a module whose text names PySide6 (here in a comment)
    is one that may switch features (0), one that does not is left out of switching (-1)."""
    import ui.qt

    feature = sys.modules["shibokensupport.feature"]
    assert feature._mod_uses_pyside is ui.qt._uses_pyside
    (tmp_path / "names_pyside.py").write_text("# drawn with PySide6\nX = 1\n")
    (tmp_path / "names_nothing.py").write_text("X = 2\n")
    monkeypatch.syspath_prepend(tmp_path)
    for name in ("names_pyside", "names_nothing"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.delitem(feature.pyside_feature_dict, name, raising=False)
    try:
        exec("import names_pyside, names_nothing", {})  # an import statement: PySide's hook
        assert feature.pyside_feature_dict["names_pyside"] == 0
        assert feature.pyside_feature_dict["names_nothing"] == -1
    finally:
        for name in ("names_pyside", "names_nothing"):
            sys.modules.pop(name, None)
            feature.pyside_feature_dict.pop(name, None)


def test_a_module_without_a_spec_is_read_from_its_file(tmp_path):
    """A script run as `__main__` has no spec, only its `__file__`: read from there, as
    `inspect.getsource` reads it."""
    import types

    import ui.qt

    for text, names in (("# drawn with PySide6\nX = 1\n", True), ("X = 2\n", False)):
        path = tmp_path / f"script_{names}.py"
        path.write_text(text)
        module = types.ModuleType(f"script_{names}")
        module.__spec__, module.__file__ = None, str(path)
        assert ui.qt._uses_pyside(module) is names is pyside_rule(module)
