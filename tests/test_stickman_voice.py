"""The stickman's voice (ui.speech.voice) and its engine found off the window's thread
(ui.speech.engine): with a fake slow engine (Qt's silent "mock" engine, set only once the test
lets it), and with a real one: speech-dispatcher and its espeak-ng, started by the test on its
own socket with ALSA's "null" device as its sound output (tests/support/speechd.py; no sound
card here: what is proven is that the engine is found, takes the words and goes from Speaking
back to Ready, not that anything is heard). Those tests skip, saying why, where
speech-dispatcher or Qt's plugin for it is missing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support import speechd as own_speechd
from tests.test_speech_options import Speaker, make_window


class Fake(Speaker):
    """A speech engine that keeps what it is asked to say (as the Supervise tests' one)."""


def test_a_call_is_given_to_the_engine_in_the_words_a_dealer_says(qtbot, monkeypatch):
    import ui.speech.engine
    from ui.speech.voice import Stickman

    fake = Fake()
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found(speaker=fake))
    stickman = Stickman()
    stickman.enabled = True
    for call in ("Green 1-2, red 3", "2nd & Goal on the 7", "Six, two-four", "No roll: die on die",
                 "Coming out"):
        stickman.say(call)
    # espeak-ng reads "1-2" as "one dash two" and "&" as "and" only by luck: the words are given
    assert fake.said == ["green one two red three", "second and goal on the seven",
                         "six two four", "no roll die on die", "coming out"]


def test_an_engine_that_stops_is_said_once_and_the_screen_goes_on(qtbot, monkeypatch):
    import ui.speech.engine
    from ui.speech.voice import Stickman, voice_problem

    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found(speaker=Fake()))
    window = make_window(qtbot)
    shown: list[str] = []
    monkeypatch.setattr(window.statusBar(), "showMessage", lambda text, *_: shown.append(text))
    from ui.speech.options import VOICE_KEY, on

    item = window.speech.voice
    item.setChecked(True)  # View › The stickman's voice, on
    assert item.isEnabled() and on(window.settings, VOICE_KEY)
    stickman = Stickman(window)
    stickman.enabled = True
    ui.speech.engine._stopped("speechd", "Text synthesizing failure.")
    ui.speech.engine._stopped("speechd", "Text synthesizing failure.")
    stickman.say("Six, two-four")  # no engine now: nothing said, nothing raised
    assert stickman.said == []
    assert shown == [voice_problem()] and "speechd" in shown[0] and "stopped" in shown[0]
    # the item says so too: off, unticked, why in its tip; the choice kept for the next start
    assert not item.isEnabled() and not item.isChecked() and item.toolTip() == voice_problem()
    assert on(window.settings, VOICE_KEY)
    window.close()


@pytest.fixture
def slow_engine(monkeypatch):
    """A fake slow engine, for whatever engines this computer has: the engines to try are those
    the test names (`gate.engines`: Qt's silent "mock" by default, which works), and each is set
    on the engine's thread only once the test opens the gate (`gate.set()`), as Qt's
    speech-dispatcher plugin takes its second listing espeak-ng's voices; the gate is opened at
    the end whatever happened, so that the thread ends with the run."""
    import ui.speech.engine
    from ui.qt import texttospeech

    if "mock" not in texttospeech().QTextToSpeech.availableEngines():
        pytest.skip("Qt's mock speech engine is not in this PySide6")
    gate = threading.Event()
    gate.engines = ["mock"]
    real = ui.speech.engine.setting

    def slow(tts, name: str) -> None:  # on the engine's thread; Python's lock let go while it waits
        gate.wait(60)
        real(tts, name)

    monkeypatch.setattr(ui.speech.engine, "engines", lambda: list(gate.engines))
    monkeypatch.setattr(ui.speech.engine, "setting", slow)
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found())
    try:
        yield gate
    finally:
        gate.set()


@pytest.fixture
def voice_remembered_on():
    """The stickman's voice remembered on in the run's own settings (tests/support/home.py), as a
    trainee left it; off again after the test."""
    from ui.shell.config import user_settings
    from ui.speech.options import VOICE_KEY

    settings = user_settings()
    settings.setValue(VOICE_KEY, True)
    try:
        yield
    finally:
        settings.remove(VOICE_KEY)
        settings.sync()


def test_the_engine_is_found_off_the_windows_thread_the_item_saying_it_looks(
        qtbot, slow_engine, voice_remembered_on):
    """The window is made, shown and answers while the engine is still being set (the gate
    shut: if the window's thread waited for the engine, it would never be shown); its item says
    it is looking, and the stickman's call of that time is said once the engine is there."""
    import ui.speech.engine
    from ui.speech.options import VOICE
    from ui.speech.voice import Stickman

    window = make_window(qtbot)  # shown, the engine not found
    item = window.speech.voice
    assert item.text() == "The stickman's voice (looking for a speech engine…)"
    assert not item.isEnabled() and item.isChecked()  # on as remembered, nothing to choose yet
    stickman = Stickman(window)
    assert stickman.enabled
    stickman.say("Coming out")
    stickman.say("Green 1-2, red 3")
    qtbot.wait(50)  # the window's thread runs its events meanwhile
    assert stickman.said == [] and ui.speech.engine.looking()
    slow_engine.set()
    qtbot.waitUntil(lambda: item.text() == VOICE, timeout=20000)
    assert item.isEnabled() and item.isChecked() and ui.speech.engine.problem() is None
    assert ui.speech.engine._found.speaker.name == "mock"
    # the last call asked for, said once (the engine cuts one call short with the next anyway)
    assert stickman.said == ["green one two red three"]
    stickman.say("Six, two-four")
    assert stickman.said == ["green one two red three", "six two four"]
    window.close()


def test_nothing_is_given_to_the_engine_once_the_app_has_ended_it(qtbot, slow_engine):
    """At the app's end the engine goes with its thread: a call asked for after that is not
    said (it raised on the deleted engine), and the reason is the app's end."""
    import ui.speech.engine as engine

    slow_engine.set()
    assert engine.wait(20) is None and engine.speak("coming out")
    engine.end()
    assert not engine.speak("coming out")
    assert engine.problem() == engine.ENDED


def test_an_engine_that_does_not_start_turns_the_item_off_once_looked_for(qtbot, slow_engine):
    """The menu opened (nothing remembered): the item looks, then is off with the engine's
    reason; a call asked for meanwhile is dropped, not kept for later."""
    from ui.speech.options import VOICE
    from ui.speech.voice import Stickman

    slow_engine.engines = ["no-such-engine"]
    window = make_window(qtbot)
    item = window.speech.voice
    assert item.text() == VOICE and item.isEnabled()  # not asked for yet: the menu never opened
    window.speech.check()  # as the View menu does when it first opens
    assert item.text().endswith("(looking for a speech engine…)") and not item.isEnabled()
    stickman = Stickman(window)
    stickman.set_enabled(True)
    stickman.say("Coming out")
    slow_engine.set()
    qtbot.waitUntil(lambda: item.text() == VOICE, timeout=20000)
    assert not item.isEnabled() and not item.isChecked()
    assert item.toolTip().startswith("No speech engine works on this computer: no-such-engine "
                                     "does not start (")
    assert stickman.said == [] and stickman.waiting is None
    window.close()


CLOSED_WHILE_LOOKING = r"""
import sys
from ui.qt import QApplication, QSettings, QTimer
app = QApplication(sys.argv[:1])
settings = QSettings(sys.argv[1], QSettings.Format.IniFormat)
settings.setValue("speech/voice", True)
from ui.shell.services import Services
from ui.shell.window import MainWindow
from ui.speech import engine

class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False

window = MainWindow(Services(None, Trainee()), settings=settings)
window.show()
def close():
    print("closed while looking:", engine.looking(), window.speech.voice.text(), flush=True)
    window.close()
QTimer.singleShot(0, close)
sys.exit(app.exec())
"""


def test_the_app_closed_while_it_looks_for_the_engine_ends_cleanly(tmp_path, speechd_every_language):
    """The real engine (speech-dispatcher, which takes a second to list espeak-ng's voices of
    every language), the window
    closed as soon as it is shown: the app ends, exit 0, no crash and no Qt complaint of a
    thread destroyed while running (the engine's thread is waited for, and ends)."""
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", CLOSED_WHILE_LOOKING, str(tmp_path / "s.ini")],
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root),
                                         "QT_QPA_PLATFORM": "offscreen"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "closed while looking: True The stickman's voice (looking" in done.stdout
    assert "QThread" not in done.stderr and "Traceback" not in done.stderr


def own_speechd_for(tmp_path: Path, monkeypatch, every_language: bool = False,
                    voices: tuple[str, ...] = own_speechd.ENGLISH):
    """A speech-dispatcher of this test's own (its process), which the app's engine is found on,
    ended after the test; the test skips, saying why, where none can be started."""
    if (why := own_speechd.missing()) is not None:
        pytest.skip(why)
    try:
        proc, address = own_speechd.start(tmp_path, every_language=every_language, voices=voices)
    except RuntimeError as e:
        pytest.skip(str(e))
    try:
        monkeypatch.setenv("SPEECHD_ADDRESS", address)
        import ui.speech.engine

        monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found())  # found anew, here
        yield proc
    finally:
        own_speechd.stop(proc)


@pytest.fixture
def speechd(request, tmp_path, monkeypatch):
    """A speech-dispatcher of the test's own, with espeak-ng's English voices (the patterns of
    tests/support/speechd.py a test gives as its parameter, ENGLISH where it gives none)."""
    yield from own_speechd_for(tmp_path, monkeypatch, voices=getattr(request, "param", own_speechd.ENGLISH))


@pytest.fixture
def speechd_every_language(tmp_path, monkeypatch):
    """A speech-dispatcher of the test's own, with espeak-ng's voices of every language, as a
    computer with espeak-ng has them."""
    yield from own_speechd_for(tmp_path, monkeypatch, every_language=True)


#: English among other languages, and English alone: with no voice for the computer's language
#: where it is C (as here), Qt's plugin fails to start on it, and the app gives it English
@pytest.mark.parametrize("speechd", [own_speechd.ENGLISH, own_speechd.ENGLISH_ALONE], indirect=True,
                         ids=["english-among-others", "english-alone"])
def test_speech_dispatcher_is_found_and_says_a_call_without_holding_the_window(qtbot, speechd):
    import ui.speech.engine
    from ui.qt import QLocale, texttospeech
    from ui.speech.voice import Stickman, voice_problem

    assert voice_problem() is None
    speaker = ui.speech.engine._found.speaker.tts  # on the engine's thread, idle now
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
    import ui.speech.engine
    from ui.qt import texttospeech
    from ui.speech.voice import Stickman, voice_problem

    window = make_window(qtbot)
    shown: list[str] = []
    monkeypatch.setattr(window.statusBar(), "showMessage", lambda text, *_: shown.append(text))
    stickman = Stickman(window)
    stickman.enabled = True
    assert voice_problem() is None
    speaker = ui.speech.engine._found.speaker.tts
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


def test_an_engine_without_a_voice_for_the_computers_language_speaks_english(tmp_path):
    """A speech-dispatcher with English voices alone, on a computer whose language is C: Qt's
    plugin fails to start on that language ("Failed to initialize default locale and voice."),
    which the app took for no engine at all; the calls are English, and it has English voices.
    `dealer-trainer speech-check` says the stickman's voice can be turned on."""
    if (why := own_speechd.missing()) is not None:
        pytest.skip(why)
    try:
        proc, address = own_speechd.start(tmp_path, voices=own_speechd.ENGLISH_ALONE)
    except RuntimeError as e:
        pytest.skip(str(e))
    try:
        root = Path(__file__).resolve().parents[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
        env.update(LANG="C.UTF-8", SPEECHD_ADDRESS=address, PYTHONPATH=str(root),
                   QT_QPA_PLATFORM="offscreen")
        done = subprocess.run([sys.executable, "-m", "ui", "speech-check"], cwd=root, env=env,
                              capture_output=True, text=True, timeout=120)
    finally:
        own_speechd.stop(proc)
    assert "The stickman's voice: can be turned on (View menu)" in done.stdout.splitlines(), done.stdout
