"""Before Qt opens the app's window on Linux under X11: the system libraries Qt's X11 plugin
(xcb) needs, named with the packages that have them where one is missing. Qt itself says only
'Could not load the Qt platform plugin "xcb" … Reinstalling the application may fix this
problem.' and aborts, which a fresh Debian or Ubuntu desktop without them (seen on Debian 12)
meets at the first `make run`. The bundle carries its own copies, which this finds as Qt does
(its folder comes first on the library path). Only a library that cannot be found stops the
start: any other failure to load is Qt's to meet, as before."""

from __future__ import annotations

import ctypes
import os
import re
import sys
from pathlib import Path

#: the X11 libraries Qt's xcb plugin loads that a desktop may lack, and their Debian and Ubuntu
#: packages: each tried by name, so that all of them are said at once (loading the plugin names
#: only the first it lacks)
PACKAGES = {"libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
            "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-image.so.0": "libxcb-image0",
            "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-shape.so.0": "libxcb-shape0",
            "libxcb-xkb.so.1": "libxcb-xkb1", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0"}
_MISSING = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")


def uses_x11(env=os.environ) -> bool:
    """Whether Qt will open its window with its X11 plugin here."""
    if not sys.platform.startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "")
    if chosen:  # "xcb", "xcb:option=…", or the first of "xcb;wayland"
        return chosen.split(";")[0].split(":")[0] == "xcb"
    wayland = env.get("XDG_SESSION_TYPE") == "wayland" or env.get("WAYLAND_DISPLAY")
    return bool(env.get("DISPLAY")) and not wayland


def _load(name: str) -> None:
    ctypes.CDLL(name, mode=os.RTLD_LAZY)  # as Qt loads a plugin: a symbol is found when used


def missing(load=_load) -> list[str]:
    """The libraries that cannot be found, each once: those of PACKAGES tried by name, and, where
    all of them are there, the X11 plugin itself, whose failure names what it lacks."""
    from ui.qt import QLibraryInfo

    lacking = []
    for name in PACKAGES:
        try:
            load(name)
        except OSError as e:
            if _MISSING.search(str(e)):
                lacking.append(name)
    plugin = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath), "platforms", "libqxcb.so")
    if plugin.exists() and not lacking:
        try:
            load(str(plugin))
        except OSError as e:
            if found := _MISSING.search(str(e)):
                lacking.append(found.group(1))
    return lacking


def problem(env=os.environ, load=_load) -> str | None:
    """Why Qt cannot open the app's window here (a paragraph), or None."""
    if not uses_x11(env):
        return None
    lacking = missing(load)
    if not lacking:
        return None
    packages = [PACKAGES[name] for name in lacking if name in PACKAGES]
    install = (f"\nOn Debian or Ubuntu: sudo apt install {' '.join(packages)}" if packages else "")
    return ("Dealer Trainer cannot open its window: Qt's X11 plugin needs "
            f"{', '.join(lacking)}, which this computer lacks.{install}")
