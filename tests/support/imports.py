"""Import statements at Python's own speed, for a test that never touches Qt.

pytest-qt loads PySide6 in every test process (at `pytest_configure`), and PySide6 puts shiboken's
own `__import__` in front of every import statement run after it (for `from __feature__ import`):
3.3 µs more each, against 0.8 µs. Hypothesis runs an import statement in every draw, some 270,000
in tests/test_properties.py, so there it is a tenth of the module's CPU. The fixture `python_import`
puts Python's `__import__` back for one module and shiboken's after it; the modules that use it
import nothing of Qt (tests/test_faces.py holds the engine to that)."""

from __future__ import annotations

import builtins
from collections.abc import Iterator

import pytest

#: Python's own, as it is before pytest-qt loads Qt: this plugin is loaded with conftest.py
PYTHON_IMPORT = builtins.__import__


@pytest.fixture(scope="module")
def python_import() -> Iterator[None]:
    before = builtins.__import__
    builtins.__import__ = PYTHON_IMPORT
    try:
        yield
    finally:
        builtins.__import__ = before


@pytest.hookimpl(trylast=True)
def pytest_configure(config) -> None:
    """ui.qt loaded as soon as pytest-qt has loaded PySide6: it answers PySide's question of each
    module imported after it (ui.qt's `_cheap_feature_scan`) for the test modules collected next
    too, some 130 ms of processor in each test process."""
    import ui.qt  # noqa: F401
