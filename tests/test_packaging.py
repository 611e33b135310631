"""A non-editable install carries the data: the wheel holds resources/ and scenarios/ inside
the trainer package, and the engine finds them there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest
from filelock import FileLock

from tests.support.paths import ROOT, run_folder


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    """The project's wheel, built once per run: in a parallel run, by the first worker to ask,
    in the folder all workers share (pytest's base folder's parent), under a lock."""
    pytest.importorskip("hatchling")
    shared = run_folder(tmp_path_factory)
    out = shared / "wheel"
    with FileLock(shared / "wheel.lock"):
        if not out.is_dir():
            out.mkdir()
            done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                                   "--quiet", "-w", str(out), str(ROOT)], capture_output=True, text=True,
                                  timeout=300)
            if done.returncode != 0:
                shutil.rmtree(out)  # no wheel, so each test that asks says why
            assert done.returncode == 0, done.stderr
    return next(out.glob("dealer_trainer-*.whl"))


def test_the_wheel_carries_the_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for toml in (ROOT / "resources").rglob("*.toml"):
        assert f"trainer/_data/resources/{toml.relative_to(ROOT / 'resources').as_posix()}" in names
    assert any(n.startswith("trainer/_data/scenarios/") for n in names)
    for kind in ("regulations", "theme", "exams", "fonts", "icon"):
        assert any(n.startswith(f"trainer/_data/resources/{kind}/") for n in names), kind
    assert not any("screenshots" in n for n in names), "the README's pictures stay out of the wheel"
    assert "ui/main.py" in names


def test_the_wheel_gives_the_app_a_program_without_a_console(wheel):
    """`dealer-trainer-app` is a GUI script: on Windows pip makes it an .exe that opens no console
    window beside the app (the desktop's shortcut); `dealer-trainer` stays a console script."""
    archive = zipfile.ZipFile(wheel)
    points = next(n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))
    text = archive.read(points).decode()
    gui = text.split("[gui_scripts]", 1)[1].split("[", 1)[0]
    console = text.split("[console_scripts]", 1)[1].split("[", 1)[0]
    assert "dealer-trainer-app = ui.main:main" in gui
    assert "dealer-trainer = ui.main:main" in console and "dealer-trainer-app" not in console
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in archive.namelist())


def test_an_unpacked_wheel_settles_with_its_own_data(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("import json, trainer.paths as p, trainer.odds as o;"
            "print(p.resources_dir());"
            "print(json.dumps(o.report('props-and-hops')['bets'][0]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert done.returncode == 0, done.stderr
    where = done.stdout.splitlines()[0]
    assert where == str(tmp_path / "trainer" / "_data" / "resources")


def test_an_unpacked_wheel_runs_the_class_servers_migrations_from_its_own_files(wheel, tmp_path):
    """The class server's migrations are SQL files in the package (trainer.classes.server.tables),
    carried by the wheel as they are in the repository."""
    from trainer.classes.server import tables

    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("import trainer.classes.server.tables as t;"
            "print(t.__file__);"
            "print(*(t.frozen_sql(n) for n in t.known()), sep='\\0', end='')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                          cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert done.returncode == 0, done.stderr
    where, texts = done.stdout.split("\n", 1)
    assert where == str(tmp_path / "trainer" / "classes" / "server" / "tables.py")
    assert texts.split("\0") == [tables.frozen_sql(n) for n in tables.known()]
