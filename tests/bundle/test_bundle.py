"""The desktop bundle `make bundle` built (dist/dealer-trainer, packaging/dealer-trainer.spec),
started as a school's PC would start it: headless, it renders every screen as the venv does,
runs the engine's commands, starts the class server's PostgreSQL, carries its licences,
desktop entry and icon, and installs and uninstalls with its install.sh. Outside `make test`
(pyproject.toml's norecursedirs), like the benchmarks: `make bundle && make test-bundle`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.bundle.support import APP, CLI, clean_env
from tests.support.class_server import free_port
from tests.support.paths import ROOT
from ui.shell.app import SCREENS


def render(program: list[str], out: Path, screen: str, home: Path, **env: str) -> None:
    """The screen's picture, reproducible (its clock stopped, its demonstration seeded)."""
    done = subprocess.run([*program, "--screenshot", str(out), "--screen", screen, "--size", "1366x768",
                           "--reproducible"],
                          env={**clean_env(home), **env}, capture_output=True, text=True, timeout=180,
                          cwd=home)
    assert done.returncode == 0 and out.is_file(), f"{program[0]} {screen}: {done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr


def pixels(path: Path) -> np.ndarray:
    from ui.qt import QImage

    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return data.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 4].copy()


@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_renders_as_in_the_venv(bundle, screen, tmp_path):
    """The same bytes: a clock, a demonstration key or a missing part of Qt would show."""
    (tmp_path / "home").mkdir()
    venv, built = tmp_path / "venv.png", tmp_path / "bundle.png"
    render([sys.executable, "-m", "ui"], venv, screen, tmp_path / "home", PYTHONPATH=str(ROOT))
    render([str(APP)], built, screen, tmp_path / "home")
    if venv.read_bytes() == built.read_bytes():
        return
    a, b = pixels(venv), pixels(built)
    assert a.shape == b.shape, f"{screen}: {a.shape} against {b.shape}"
    changed = np.any((a != b).reshape(a.shape[0], -1, 4), axis=2)
    pytest.fail(f"{screen}: the bundle's picture differs from the venv's in {changed.sum()} pixels "
                f"({changed.sum() / changed.size:.3%})")


def test_the_bundles_picture_is_the_app_not_a_blank_window(bundle, tmp_path):
    """Not a blank window: the practice screen's sidebar is the felt's green (#0b5d3b)."""
    (tmp_path / "home").mkdir()
    render([str(APP)], tmp_path / "p.png", "practice", tmp_path / "home")
    bgra = pixels(tmp_path / "p.png").reshape(768, -1, 4)  # RGB32: blue, green, red, then 0xff
    felt = np.all(bgra[:, :, :3] == (0x3B, 0x5D, 0x0B), axis=2)
    assert felt.sum() > 10_000


def test_the_bundle_runs_the_engine_commands(bundle, tmp_path):
    done = subprocess.run([str(CLI), "odds", "--game", "props-and-hops", "--json"], capture_output=True,
                          text=True, timeout=60, env=clean_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    ours = subprocess.run([sys.executable, "-m", "trainer", "odds", "--game", "props-and-hops", "--json"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert report == json.loads(ours.stdout)
    version = subprocess.run([str(CLI), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith("dealer-trainer ")


def test_the_bundle_starts_and_stops_the_class_servers_postgresql(bundle, open_folder):
    """PostgreSQL's programs find their libraries (pgserver.libs) in the bundle, and its
    migrations (SQL files read as package data) make the class; `class-server --stop`, from
    another window, stops it."""
    port = free_port()
    folder = open_folder / "class"
    with subprocess.Popen([str(CLI), "class-server", "--data", str(folder), "--port", str(port)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=clean_env(open_folder), cwd=open_folder) as proc:
        lines = []
        try:
            while not lines or not lines[-1].startswith("Stop the server"):
                line = proc.stdout.readline()
                assert line, f"the class server did not start: {proc.stderr.read()}"
                lines.append(line.strip())
            assert lines[0].startswith(f"Class server running on 127.0.0.1:{port}")
            stopped = subprocess.run([str(CLI), "class-server", "--stop", str(folder)], capture_output=True,
                                     text=True, timeout=120, env=clean_env(open_folder), cwd=open_folder)
            assert stopped.returncode == 0, stopped.stderr
            assert stopped.stdout.strip() == f"Class server in {folder} stopped."
            out, err = proc.communicate(timeout=60)  # the command saw the request, and ends itself
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip().endswith("Class server stopped.")


def test_the_bundle_carries_its_licences_desktop_entry_and_icon(bundle):
    assert (bundle / "LICENSE").read_text(encoding="utf-8") == (ROOT / "LICENSE").read_text(encoding="utf-8")
    notices = (bundle / "THIRD-PARTY-NOTICES").read_text(encoding="utf-8")
    for carried in ("PySide6_Essentials", "GNU LESSER GENERAL PUBLIC LICENSE",
                    "PostgreSQL Database Management", "pyqtgraph", "cryptography", "psycopg",
                    "Bitstream Vera", "PSF"):
        assert carried in notices, carried
    entry = (bundle / "dealer-trainer.desktop").read_text(encoding="utf-8").splitlines()
    assert entry[0] == "[Desktop Entry]"
    fields = dict(line.split("=", 1) for line in entry[1:] if "=" in line)
    assert fields["Exec"] == "dealer-trainer-app" and (bundle / fields["Exec"]).is_file()
    assert fields["Icon"] == "dealer-trainer" and fields["Terminal"] == "false"
    from ui.qt import QImage

    icon = QImage(str(bundle / "dealer-trainer.png"))
    assert (icon.width(), icon.height()) == (256, 256)
    fonts = bundle / "_internal" / "trainer" / "_data" / "resources" / "fonts"
    assert sorted(p.name for p in fonts.glob("*.ttf")) == sorted(
        p.name for p in (ROOT / "resources" / "fonts").glob("*.ttf"))


def test_install_sh_installs_for_one_user_and_uninstalls_leaving_the_data(bundle, tmp_path):
    """packaging/linux/install.sh --user: the program in ~/.local/opt, its two commands on the
    PATH's ~/.local/bin, the menu entry starting the installed app; --uninstall takes all of it
    away and leaves the user's progress file."""
    home = tmp_path / "home"
    data = home / ".local" / "share" / "Dealer Trainer" / "Dealer Trainer" / "progress.db"
    data.parent.mkdir(parents=True)
    data.write_bytes(b"a trainee's record")
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    done = subprocess.run(["sh", str(bundle / "install.sh"), "--user"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    installed = home / ".local" / "opt" / "dealer-trainer"
    version = subprocess.run([str(home / ".local" / "bin" / "dealer-trainer"), "--version"],
                             capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith("dealer-trainer "), version.stderr
    share = home / ".local" / "share"
    entry = (share / "applications" / "dealer-trainer.desktop").read_text(encoding="utf-8")
    assert f"Exec={installed / 'dealer-trainer-app'}" in entry.splitlines()
    assert (share / "icons" / "hicolor" / "256x256" / "apps" / "dealer-trainer.png").is_file()
    done = subprocess.run(["sh", str(installed / "install.sh"), "--user", "--uninstall"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not installed.exists() and not (home / ".local" / "bin" / "dealer-trainer").exists()
    assert not (share / "applications" / "dealer-trainer.desktop").exists()
    assert data.read_bytes() == b"a trainee's record"
