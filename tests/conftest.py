"""Shared test setup: the shared spec folder, the installed command, and a clean Qt per test.
The fixtures of tests/support load here, once for the whole run (one class server for all)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

pytest_plugins = ["tests.support.class_server_fixtures"]

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"


def run_command(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python -m ui.main ARGS` (the dealer-trainer program) the way a user would."""
    return subprocess.run([sys.executable, "-m", "ui.main", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=120)


@pytest.fixture
def dealer_trainer() -> str:
    """The installed `dealer-trainer` entry point."""
    exe = shutil.which("dealer-trainer", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the dealer-trainer entry point is not installed in this environment")
    return exe


@pytest.fixture(autouse=True)
def _own_settings(request, tmp_path_factory):
    """Qt tests keep their QSettings (window size, theme, last screen) in a folder of their own."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    from ui.qt import QSettings

    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    yield


@pytest.fixture(autouse=True)
def _no_qt_leftovers(request):
    """Fail any Qt test that leaves windows open or timers running (napari's rule)."""
    yield
    if "qtbot" not in request.fixturenames:
        return
    from ui.qt import QApplication, QTimer

    app = QApplication.instance()
    if app is None:
        return
    app.processEvents()
    left = [w for w in app.topLevelWidgets() if w.isVisible()]
    timers = [t for w in app.allWidgets() for t in w.findChildren(QTimer) if t.isActive()]
    for w in left:
        w.close()
    assert not left, f"windows left open: {left}"
    assert not timers, "timers left running: " + ", ".join(
        f"{t.objectName() or 'QTimer'} in {type(t.parent()).__name__}" for t in timers)


def shown_alone(qtbot, widget, height: int):
    """Show a practice widget on its own at a workstation's size; stop and close it after."""
    qtbot.addWidget(widget)
    widget.resize(1400, height)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.stop()
    widget.close()


@pytest.fixture
def practice_screen(qtbot):
    """A practice screen on its own, shown at a workstation's size."""
    from ui.practice import PracticeScreen

    yield from shown_alone(qtbot, PracticeScreen(), 860)


@pytest.fixture
def practice_page(qtbot):
    """The practice page (deal bar and screen) on its own, shown at a workstation's size."""
    from ui.practice_page import PracticePage

    yield from shown_alone(qtbot, PracticePage(), 900)


def one_player_scenario(game: str, events: list[dict], *, difficulty: int = 1,
                        skills: str = '["payouts"]') -> str:
    """A scenario file's text: one seated player (seat 1) and these events, each a dict of its
    fields (a throw written as the settle contract writes it, e.g. from Game.throw_of)."""
    import json

    blocks = "".join("\n[[events]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in e.items())
                     for e in events)
    return (f'schema_version = 1\nid = "t"\ntitle = "t"\nbriefing = "t"\ngame = "{game}"\n'
            f"difficulty = {difficulty}\nskills = {skills}\ntarget_seconds = 30\n\n"
            f'[[players]]\nseat = 1\nname = "Ana"\n{blocks}')
