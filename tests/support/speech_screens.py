"""The spoken-call screens' tests' fixture of calls heard from WAV files instead of a
microphone (loaded for every test by tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def hear_from():
    """Calls heard from WAV files, not a microphone (the app's --hear-from): what makes spoken
    calls, and the enrolment, available on a machine with no microphone. The files themselves
    are given to each dialog's or screen's seam by the test."""
    from ui.qt import QApplication
    from ui.speech.options import HEAR_FROM

    app = QApplication.instance()
    app.setProperty(HEAR_FROM, ["unused.wav"])
    yield
    app.setProperty(HEAR_FROM, None)
