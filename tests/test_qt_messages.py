"""Qt's messages (ui.shell.messages): the sound libraries' lines about what this computer lacks go
to Python's logging, not the terminal, where the app says it in its own line; every other message of
Qt's reaches the terminal as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: each runs Qt in a program of its own, whose code the markers cannot read (tests/support/markers.py)
pytestmark = pytest.mark.qt
ROOT = Path(__file__).resolve().parents[1]
#: what Qt Multimedia, FFmpeg and Qt TextToSpeech wrote to speech-check's terminal on the
#: development machine (no sound device, no speech-dispatcher), each line's start
LIBRARY_LINES = ("qt.multimedia.", "PulseAudioService:", "Error loading text-to-speech plug-in")

#: a program that routes Qt's messages as the app does, then has Qt write one of each kind; the
#: log is set up to print what reaches it, so that where each line went can be seen
EMITTER = """
import logging, sys
logging.basicConfig(stream=sys.stdout, level=logging.DEBUG, format="LOG %(name)s %(levelname)s %(message)s")
from ui.shell.messages import route_library_messages
route_library_messages()
from PySide6.QtCore import QLoggingCategory, qCCritical, qCInfo, qCWarning, qCritical, qWarning
sound = QLoggingCategory("qt.multimedia.symbolsresolver")
qCWarning(sound, "Couldn't load pipewire-0.3 library")
qCInfo(QLoggingCategory("qt.multimedia.ffmpeg"), "Using Qt multimedia with FFmpeg version 7")
qWarning("PulseAudioService: pa_context_connect() failed")
qCritical('Error loading text-to-speech plug-in "speechd"')
qCCritical(sound, "a critical line of Qt Multimedia's")
qWarning("a warning of another part of Qt")
qCWarning(QLoggingCategory("qt.qpa.plugin"), "a categorised warning of another part of Qt")
"""


def environment(home: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_LOGGING_RULES", "QT_MESSAGE_PATTERN")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", **more)
    return env


def test_speech_check_says_its_lines_without_the_sound_libraries_lines(tmp_path):
    """On a computer without a sound device or speech engine (this one: before the routing, its
    stderr held the ten symbolsresolver lines, FFmpeg's version, PulseAudio's and speechd's), the
    terminal gets the two lines of speech-check and nothing of the libraries'."""
    done = subprocess.run([sys.executable, "-m", "ui", "speech-check"], capture_output=True,
                          text=True, env=environment(tmp_path), cwd=ROOT, timeout=120)
    assert [line.split(":", 1)[0] for line in done.stdout.splitlines()] == [
        "Speak my calls", "The stickman's voice"]
    assert "Traceback" not in done.stderr
    left = [line for line in done.stderr.splitlines() if line.startswith(LIBRARY_LINES)]
    assert left == [], done.stderr


def test_the_libraries_lines_go_to_the_log_and_every_other_line_to_the_terminal(tmp_path):
    """Proves the routing on any computer, with or without sound: Qt is made to write each kind of
    line, and each is found where it belongs."""
    done = subprocess.run([sys.executable, "-c", EMITTER], capture_output=True, text=True,
                          env=environment(tmp_path), cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "qt.multimedia.symbolsresolver: a critical line of Qt Multimedia's",
        "a warning of another part of Qt",
        "qt.qpa.plugin: a categorised warning of another part of Qt"]
    assert done.stdout.splitlines() == [
        "LOG dealer_trainer.qt DEBUG qt.multimedia.symbolsresolver: Couldn't load pipewire-0.3 library",
        "LOG dealer_trainer.qt DEBUG qt.multimedia.ffmpeg: Using Qt multimedia with FFmpeg version 7",
        "LOG dealer_trainer.qt DEBUG default: PulseAudioService: pa_context_connect() failed",
        'LOG dealer_trainer.qt DEBUG default: Error loading text-to-speech plug-in "speechd"']


def test_qt_logging_rules_leave_every_line_to_qt(tmp_path):
    """A developer who sets QT_LOGGING_RULES sees Qt's lines as Qt writes them."""
    done = subprocess.run([sys.executable, "-c", EMITTER], capture_output=True, text=True,
                          env=environment(tmp_path, QT_LOGGING_RULES="qt.qpa.*=true"), cwd=ROOT,
                          timeout=120)
    assert done.stdout == ""
    assert "PulseAudioService: pa_context_connect() failed" in done.stderr.splitlines()
    assert "qt.multimedia.symbolsresolver: Couldn't load pipewire-0.3 library" in done.stderr.splitlines()


#: a program with no terminal (as the Windows app started without a console: sys.stderr None),
#: in which a slot makes Qt warn and then goes on; its last line, written past Python's streams,
#: says whether the slot ran to its end
NO_TERMINAL = """
import os, sys
from ui.shell.messages import route_library_messages
route_library_messages()
from PySide6.QtCore import QCoreApplication, QFile, QIODevice, QTimer, qWarning
app = QCoreApplication([])
sys.stderr = None
def slot():
    qWarning("a warning of another part of Qt")
    QFile("/nonexistent/x").open(QIODevice.OpenModeFlag.NotOpen)  # Qt's own C++ warning
    os.write(1, b"the slot ran to its end\\n")
    app.quit()
QTimer.singleShot(0, slot)
sys.exit(app.exec())
"""


def test_without_a_terminal_a_warning_of_qt_is_dropped_and_the_app_goes_on(tmp_path):
    """Where there is no sys.stderr, writing Qt's line there raised inside the handler, the
    error stopped the slot whose Qt call warned, and the app waited for ever."""
    done = subprocess.run([sys.executable, "-c", NO_TERMINAL], capture_output=True, text=True,
                          env=environment(tmp_path), cwd=ROOT, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the slot ran to its end\n"
