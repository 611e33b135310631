"""The app's icon: set on every window from resources/icon/dealer-trainer.svg, and drawn for the
installers by packaging/icons.py (PNGs, a Windows .ico and a macOS .icns), each read back here by
Qt's own readers of those formats."""

from __future__ import annotations

import struct
import subprocess
import sys

from tests.support.paths import ROOT


def test_the_window_icon_is_the_apps_drawing(qapp):
    from ui.shell.app import application

    icon = application().windowIcon()
    assert not icon.isNull()
    image = icon.pixmap(64, 64).toImage()
    assert (image.width(), image.height()) == (64, 64)
    assert image.pixelColor(32, 2).name() == "#c9a227"  # the brass rim at the top


def test_the_installers_icons_are_drawn_in_every_size(tmp_path):
    from ui.qt import QImageReader

    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "icons.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=120, env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    for size in (16, 32, 48, 256, 512, 1024):
        reader = QImageReader(str(tmp_path / f"dealer-trainer-{size}.png"))
        assert (reader.size().width(), reader.size().height()) == (size, size)
    ico = (tmp_path / "dealer-trainer.ico").read_bytes()
    assert struct.unpack("<HHH", ico[:6]) == (0, 1, 7)
    reader = QImageReader(str(tmp_path / "dealer-trainer.ico"))
    sizes = []
    for _ in range(reader.imageCount()):
        sizes.append(reader.read().width())
        reader.jumpToNextImage()
    assert sorted(sizes) == [16, 24, 32, 48, 64, 128, 256]
    icns = (tmp_path / "dealer-trainer.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    reader = QImageReader(str(tmp_path / "dealer-trainer.icns"))
    assert reader.imageCount() == 7 and reader.read().width() > 0


def test_the_linux_menu_entry_names_the_app_as_its_windows_call_themselves(qapp):
    """The menu entry (packaging/linux/dealer-trainer.desktop) starts the GUI script, shows the
    icon, and is the one the app's windows name (X11's window class, Wayland's app id), so a
    desktop puts the running app under its entry's icon."""
    import tomllib

    from ui.shell.app import application
    from ui.shell.icon import NAME

    path = ROOT / "packaging" / "linux" / "dealer-trainer.desktop"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[Desktop Entry]"
    entry = dict(line.split("=", 1) for line in lines[1:] if "=" in line)
    gui = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["gui-scripts"]
    assert entry["Exec"] in gui and entry["Type"] == "Application" and entry["Terminal"] == "false"
    assert entry["Icon"] == NAME
    app = application()
    assert entry["StartupWMClass"] == app.applicationName()
    assert path.stem == app.desktopFileName()
