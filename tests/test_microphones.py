"""The tests that need microphones (tests/test_microphone_ui.py), run in a program of their own
whose Qt Multimedia finds a sound server of the test's own with two microphones on it
(tests/support/pulse.py): the run's own program has none, where those tests skip, saying so.
Skipped, saying why, where PulseAudio, flite or the recogniser is missing; never passed."""

from __future__ import annotations

import pytest

from tests.support import flite, pulse
from tests.support.rerun import rerun
from ui.speech.audio import PULSE_PIECES

NAME, PIECES = PULSE_PIECES

#: PulseAudio's name for each microphone, and what the computer calls it; the first the default
MICROPHONES = {"trainee_headset": "Trainee headset", "desk_microphone": "Desk microphone"}
CASES = 11  # every test of tests/test_microphone_ui.py


@pytest.mark.qt  # the app's widgets, in a pytest of its own
def test_spoken_calls_heard_from_real_microphones(tmp_path):
    if pulse.MISSING or flite.missing():
        pytest.skip(pulse.MISSING or flite.missing())
    server = pulse.SoundServer(tmp_path / "sound", MICROPHONES).start()
    try:
        # the program's environment as the app makes its own before Qt starts (tests/test_app.py)
        passed = rerun({"test_microphone_ui.py": ""}, {**server.environment(), NAME: PIECES})
    finally:
        server.stop()
    assert passed["test_microphone_ui.py"] == CASES
