"""The code runs alike on Windows, macOS and Linux, and installs without what only the class server
needs: each test simulates what the other OS, or the missing package, does."""

from __future__ import annotations

import os
import zipfile

import pytest

from tests.support.command import run_command
from tests.test_packaging import wheel  # noqa: F401  (the fixture: the project's wheel, built once)
from trainer.classes.server.postgres import NOT_INSTALLED


@pytest.fixture
def without_pgserver(tmp_path) -> dict:
    """An environment in which `import pgserver` fails, as where the extra is not installed."""
    blocker = tmp_path / "blocked" / "pgserver"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ImportError("pgserver is not installed here")\n')
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(blocker.parent), os.environ.get("PYTHONPATH")])),
            "QT_QPA_PLATFORM": "offscreen"}


def test_class_server_without_pgserver_says_in_one_line_how_to_get_it(without_pgserver, tmp_path):
    data = tmp_path / "class data"
    done = run_command("class-server", "--data", str(data), env=without_pgserver)
    assert done.returncode == 2
    assert done.stderr == NOT_INSTALLED + "\n" and done.stdout == ""
    assert "pip install 'dealer-trainer[class-server]'" in done.stderr
    assert not data.exists(), "nothing is made in the folder before the server can run"
    done = run_command("class-server", "--stop", str(data), env=without_pgserver)
    assert (done.returncode, done.stderr) == (2, NOT_INSTALLED + "\n")


@pytest.mark.parametrize("screen", ["practice", "class", "exam"])
def test_the_apps_screens_render_without_pgserver(without_pgserver, tmp_path, screen):
    out = tmp_path / f"{screen}.png"
    done = run_command("--screenshot", str(out), "--screen", screen, "--db", str(tmp_path / "p.db"),
                       env=without_pgserver)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG")


def test_pgserver_is_an_optional_extra_of_the_wheel(wheel):  # noqa: F811
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    requires = [line.split(":", 1)[1].strip() for line in meta.splitlines()
                if line.startswith("Requires-Dist:")]
    pg = [r.replace("'", '"') for r in requires if r.startswith("pgserver")]
    assert 'pgserver>=0.1.4; extra == "class-server"' in pg, requires
    assert all("; extra ==" in r for r in pg), f"pgserver must be an extra, never a dependency: {pg}"
    assert "Provides-Extra: class-server" in meta
