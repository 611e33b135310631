"""The stickman's voice (ui.speech.voice) with a real speech engine: speech-dispatcher and its
espeak-ng, started by the test on its own socket with ALSA's "null" device as its sound output
(no sound card here: what is proven is that the engine is found, takes the words and goes from
Speaking back to Ready, not that anything is heard). Those tests skip, saying why, where
speech-dispatcher or Qt's plugin for it is missing. The first two need no engine."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_speech_options import Speaker, make_window

PLUGIN = "libqtexttospeech_speechd"


class Fake(Speaker):
    """A speech engine that keeps what it is asked to say (as the Supervise tests' one)."""


def test_a_call_is_given_to_the_engine_in_the_words_a_dealer_says(qtbot, monkeypatch):
    import ui.speech.voice
    from ui.speech.voice import Stickman

    fake = Fake()
    monkeypatch.setattr(ui.speech.voice, "_speaker", fake)
    stickman = Stickman()
    stickman.enabled = True
    for call in ("Green 1-2, red 3", "2nd & Goal on the 7", "Six, two-four", "No roll: die on die",
                 "Coming out"):
        stickman.say(call)
    # espeak-ng reads "1-2" as "one dash two" and "&" as "and" only by luck: the words are given
    assert fake.said == ["green one two red three", "second and goal on the seven",
                         "six two four", "no roll die on die", "coming out"]


def test_an_engine_that_stops_is_said_once_and_the_screen_goes_on(qtbot, monkeypatch):
    import ui.speech.voice
    from ui.speech.voice import Stickman, voice_problem

    monkeypatch.setattr(ui.speech.voice, "_speaker", Fake())
    monkeypatch.setattr(ui.speech.voice, "_lost", None, raising=False)
    window = make_window(qtbot)
    shown: list[str] = []
    monkeypatch.setattr(window.statusBar(), "showMessage", lambda text, *_: shown.append(text))
    from ui.speech.options import VOICE_KEY, on

    item = window.speech.voice
    item.setChecked(True)  # View › The stickman's voice, on
    assert item.isEnabled() and on(window.settings, VOICE_KEY)
    stickman = Stickman(window)
    stickman.enabled = True
    ui.speech.voice._stopped("speechd", "Text synthesizing failure.")
    ui.speech.voice._stopped("speechd", "Text synthesizing failure.")
    stickman.say("Six, two-four")  # no engine now: nothing said, nothing raised
    assert stickman.said == []
    assert shown == [voice_problem()] and "speechd" in shown[0] and "stopped" in shown[0]
    # the item says so too: off, unticked, why in its tip; the choice kept for the next start
    assert not item.isEnabled() and not item.isChecked() and item.toolTip() == voice_problem()
    assert on(window.settings, VOICE_KEY)
    window.close()


def _plugin_here() -> bool:
    from PySide6.QtCore import QLibraryInfo

    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "texttospeech"
    return any(p.name.startswith(PLUGIN) for p in folder.glob("*"))


@pytest.fixture
def speechd(tmp_path, monkeypatch):
    """A speech-dispatcher of this test's own, with ALSA's null device for sound; its pid."""
    binary = shutil.which("speech-dispatcher")
    if binary is None or not Path("/etc/speech-dispatcher/speechd.conf").exists():
        pytest.skip("speech-dispatcher is not installed (apt-get install speech-dispatcher espeak-ng)")
    if not _plugin_here():
        pytest.skip(f"Qt's speech-dispatcher plugin ({PLUGIN}) is not in this PySide6")
    conf = tmp_path / "conf"
    shutil.copytree("/etc/speech-dispatcher", conf)
    with open(conf / "speechd.conf", "a") as f:
        f.write('\nAudioOutputMethod "alsa"\nAudioALSADevice "null"\n')
    sock, pid = tmp_path / "speechd.sock", tmp_path / "speechd.pid"
    proc = subprocess.Popen([binary, "-s", "-t", "0", "-c", "unix_socket", "-S", str(sock), "-P", str(pid),
                             "-C", str(conf), "-L", str(tmp_path / "log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if sock.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        if not sock.exists():
            pytest.skip(f"speech-dispatcher did not start (exit {proc.poll()})")
        monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{sock}")
        import ui.speech.voice

        monkeypatch.setattr(ui.speech.voice, "_speaker", None)  # found anew, on this socket
        monkeypatch.setattr(ui.speech.voice, "_lost", None, raising=False)
        yield proc
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def test_speech_dispatcher_is_found_and_says_a_call_without_holding_the_window(qtbot, speechd):
    import ui.speech.voice
    from ui.qt import QLocale, texttospeech
    from ui.speech.voice import Stickman, voice_problem

    assert voice_problem() is None
    speaker = ui.speech.voice._speaker
    assert speaker.engine() == "speechd"
    assert speaker.locale().language() == QLocale.Language.English  # whatever LANG is
    assert "English" in speaker.voice().name()
    states = []
    State = texttospeech().QTextToSpeech.State
    speaker.stateChanged.connect(states.append)
    stickman = Stickman()
    stickman.enabled = True
    stickman.say("Green 1-2, red 3")
    at_return = list(states)
    qtbot.waitUntil(lambda: states[-1:] == [State.Ready] and State.Speaking in states, timeout=10000)
    assert State.Ready not in at_return  # say() gave the words and came back before they were said
    assert speaker.state() == State.Ready
    assert stickman.said == ["green one two red three"]


def test_speech_dispatcher_stopped_mid_session_is_said_once(qtbot, speechd, monkeypatch):
    import ui.speech.voice
    from ui.qt import texttospeech
    from ui.speech.voice import Stickman, voice_problem

    window = make_window(qtbot)
    shown: list[str] = []
    monkeypatch.setattr(window.statusBar(), "showMessage", lambda text, *_: shown.append(text))
    stickman = Stickman(window)
    stickman.enabled = True
    assert voice_problem() is None
    speaker = ui.speech.voice._speaker
    State = texttospeech().QTextToSpeech.State
    stickman.say("No more bets")
    qtbot.waitUntil(lambda: speaker.state() == State.Ready and bool(stickman.said), timeout=10000)
    os.kill(speechd.pid, signal.SIGKILL)  # as it ends on a crash (on SIGTERM it may take seconds)
    speechd.wait(10)
    stickman.say("Six, two-four")
    qtbot.waitUntil(lambda: bool(shown), timeout=10000)
    for call in ("Coming out", "Green 1-2, red 3"):
        stickman.say(call)
        qtbot.wait(100)
    assert shown == [voice_problem()] and "stopped working (" in shown[0] and ".)." not in shown[0]
    assert stickman.said == ["no more bets", "six two four"]  # tried once more, then no more
    window.close()
