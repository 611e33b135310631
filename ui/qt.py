"""Every Qt name the app uses comes through this one module, so Qt is imported in one place.

`from ui.qt import QLabel` looks the name up in QtCore, QtGui and QtWidgets when first asked
for; `pyqtgraph()` gives the charting library (with numpy, about 130 ms), the first time a chart
is drawn. PySide6 creates a class the first time it is touched, so naming only what a screen uses
keeps start-up fast (a hundred eager names cost about 70 ms).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

_MODULES = (QtCore, QtGui, QtWidgets)


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
