"""Every Qt name the app uses comes through this one module, so Qt is imported in one place.

`from ui.qt import QLabel` looks the name up in QtCore, QtGui and QtWidgets when first asked
for; `pyqtgraph()` gives the charting library (with numpy, about 130 ms), the first time a chart
is drawn. PySide6 creates a class the first time it is touched, so naming only what a screen uses
keeps start-up fast (a hundred eager names cost about 70 ms).
"""

from __future__ import annotations

import sys

from PySide6 import QtCore, QtGui, QtWidgets

_MODULES = (QtCore, QtGui, QtWidgets)


def _uses_pyside(module) -> bool:
    """Whether a module's source names PySide6: PySide's own answer (`_mod_uses_pyside` of its
    `__feature__` support, which reads the source by `inspect.getsource`), from the file's bytes:
    its spec's, or, for a module without a spec (a script run as `__main__`), its `__file__`."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) if spec is not None else getattr(module, "__file__", None)
    if not (isinstance(origin, str) and origin.endswith(".py")):
        return False  # built in, compiled, or without a file: PySide's own finds no source either
    get_data = getattr(getattr(spec, "loader", None), "get_data", None)
    try:
        if get_data is not None:
            return b"PySide6" in get_data(origin)
        if spec is not None:
            return False  # a loader that cannot give its source: none to find
        with open(origin, "rb") as file:
            return b"PySide6" in file.read()
    except OSError:
        return False


def _cheap_feature_scan() -> None:
    """PySide6 asks of every module imported after it whether its source names PySide6 (for
    `from __feature__ import snake_case`, which the app never uses), by `inspect.getsource`,
    which looks the module up among all those loaded: 120 ms of processor for the 660 modules a
    start to the Class tab imports, against 28 ms reading each file's bytes for the same answers
    (tests/test_qt_import.py). Where PySide6 has no such function, nothing is changed."""
    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_pyside


_cheap_feature_scan()


def pyqtgraph():
    """pyqtgraph, imported when the first chart is made rather than at every start."""
    import pyqtgraph as pg

    return pg


def multimedia():
    """Qt Multimedia (the microphone: QMediaDevices, QAudioSource, QAudioFormat), imported when
    spoken calls are first looked at; ImportError where the add-on or the system's sound library
    it needs is missing."""
    from PySide6 import QtMultimedia

    return QtMultimedia


def texttospeech():
    """Qt TextToSpeech (the stickman's voice), imported when first asked for; ImportError where
    the add-on is missing."""
    from PySide6 import QtTextToSpeech

    return QtTextToSpeech


def alive(obj) -> bool:
    """Whether the Qt object behind a Python wrapper still exists (not deleted on its thread)."""
    from shiboken6 import isValid

    return isValid(obj)


def __getattr__(name: str):
    for module in _MODULES:
        value = getattr(module, name, None)
        if value is not None:
            globals()[name] = value
            return value
    raise AttributeError(f"module 'ui.qt' has no attribute {name!r} (not in QtCore, QtGui or QtWidgets)")
