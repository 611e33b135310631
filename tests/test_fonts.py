"""The app brings its own fonts (resources/fonts, ui/shell/fonts.py): on a PC without DejaVu, as
Windows and macOS are, it still draws every word in DejaVu, as the screenshots show."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.paths import ROOT

#: a fontconfig that knows no font at all: the PC has no DejaVu, nor any other font Qt could use
NO_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""

PROBE = """
from ui.qt import QFont, QFontDatabase, QFontInfo, QFontMetrics
from ui.shell import fonts
from ui.shell.app import application

app = application()
print(QFontInfo(app.font()).family())
for family in (fonts.SANS, fonts.SERIF, fonts.MONO):
    print(QFontInfo(QFont(family)).family())
print(QFontInfo(fonts.mono()).family())
print(QFontMetrics(app.font()).inFontUcs4(ord("§")))
"""


def test_without_a_font_on_the_pc_the_app_draws_in_its_own_dejavu(tmp_path):
    conf = tmp_path / "fonts.conf"
    conf.write_text(NO_FONTS.format(cache=tmp_path / "cache"), encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(conf), "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": str(ROOT)}
    bare = subprocess.run([sys.executable, "-c", "from ui.qt import QApplication, QFontDatabase;"
                           "app = QApplication([]); print(*QFontDatabase.families(), sep='\\n')"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert bare.returncode == 0, bare.stderr
    # fontconfig's own names for its kinds of font, with no font behind them
    assert bare.stdout.split("\n")[:-1] == ["Monospace", "Sans Serif", "Serif"], "the PC has no font"
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:6] == ["DejaVu Sans", "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono",
                                           "DejaVu Sans Mono", "True"]


def test_a_font_file_that_cannot_be_read_is_one_line_and_the_others_load(qapp, tmp_path, monkeypatch, capsys):
    from ui.shell import fonts

    folder = tmp_path / "fonts"
    folder.mkdir()
    (folder / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00 not a font")
    good = fonts.resources_dir() / "fonts" / "DejaVuSerif.ttf"
    (folder / good.name).write_bytes(good.read_bytes())
    monkeypatch.setattr(fonts, "resources_dir", lambda: tmp_path)
    saved = qapp.property("fonts")
    qapp.setProperty("fonts", None)
    try:
        families = fonts.load(qapp)
    finally:
        qapp.setProperty("fonts", saved)
    assert families == ["DejaVu Serif"]
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == ["fonts: Broken.ttf could not be read; the system's font stands in"]
