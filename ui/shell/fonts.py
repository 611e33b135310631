"""The app's own fonts: DejaVu Sans, Serif and Sans Mono, shipped in resources/fonts/ with their
licence, and loaded at every start, so that Windows and macOS draw the same letters as Linux and
the screenshots (Windows has no DejaVu, and its default is Segoe UI; macOS's is SF Pro)."""

from __future__ import annotations

import sys

from trainer import resources_dir
from ui.qt import QFont, QFontDatabase

SANS = "DejaVu Sans"
SERIF = "DejaVu Serif"
MONO = "DejaVu Sans Mono"
#: the app's font's size, in which what no widget writes is drawn (a chart's axes): Qt's default
#: on Linux, which the screenshots show (Windows' is 9 points too, macOS's 13); a widget's words
#: are the theme's size (ui.shell.theme.POINTS)
POINTS = 9


def load(app) -> list[str]:
    """Add every font in resources/fonts/ to the app and make DejaVu Sans its font; the families
    added. A font that cannot be read is said in one line, and the app goes on with the others.
    Once per application: each call would add the files again."""
    if app.property("fonts") is not None:
        return list(app.property("fonts"))
    families: set[str] = set()
    for path in sorted((resources_dir() / "fonts").glob("*.ttf")):
        loaded = QFontDatabase.addApplicationFont(str(path))
        if loaded == -1:
            print(f"fonts: {path.name} could not be read; the system's font stands in", file=sys.stderr)
            continue
        families.update(QFontDatabase.applicationFontFamilies(loaded))
    app.setFont(QFont(SANS, POINTS))
    app.setProperty("fonts", sorted(families))
    return sorted(families)


def mono() -> QFont:
    """The fixed-width font (passwords, addresses): DejaVu Sans Mono on every OS."""
    font = QFont(MONO, POINTS)
    font.setStyleHint(QFont.StyleHint.TypeWriter)
    return font
