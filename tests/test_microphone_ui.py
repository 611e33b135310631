"""Spoken calls heard from a real microphone, through Qt Multimedia and the computer's sound server:
the app's own `MicrophoneInput`, nothing of it replaced. The microphones are PulseAudio's, fed by
the test as a headset feeds a computer (tests/support/pulse.py): silence, then a call said by a
synthetic voice (Debian's flite) when the screen listens. These tests need the sound server in the
environment before Qt Multimedia first looks for devices, so they skip in the suite's own program,
saying so, and tests/test_microphones.py runs them in a program of its own."""

from __future__ import annotations

import pytest

from tests.support import flite, pulse
from tests.support.library import bundled
from tests.support.practice_screen import do_next
from tests.support.screens import rosa_window, settings_shown
from trainer import spoken
from trainer.procedure import Automation
from trainer.spoken import SPOKEN, TIMED

SKIP = "needs a sound server with microphones: tests/test_microphones.py runs it"
VOICE = "slt"  # one of flite's 16 kHz voices
#: a Props & Hops round whose calls are the dice and a no roll
ROUND = "ph-lid-removed"


@pytest.fixture(scope="module")
def microphones():
    found = pulse.microphones()
    if found is None:
        pytest.skip(SKIP)
    yield found
    for m in found.values():
        m.switch_off()


@pytest.fixture
def voices(tmp_path_factory):
    return flite.voices(tmp_path_factory)  # skipped, saying why, without flite or the recogniser


@pytest.fixture
def window(qtbot, tmp_path, microphones):
    with rosa_window(qtbot, tmp_path) as w:
        yield w


def reading(voices, game: str, do, value) -> object:
    """flite's reading of the call (do, value) of `game`, in the words dealers say."""
    from trainer.speech import find

    return flite.say(find(game, spoken.words(do, value, game)).said[0], VOICE, voices)


def speak_my_calls(window) -> None:
    window.speech.check()  # as the View menu does when it opens
    assert window.speech.calls.isEnabled(), window.speech.calls.toolTip()
    window.speech.calls.trigger()
    assert window.speech.calls.isChecked()


def first_call(qtbot, window):
    """A round of ROUND started on the practice screen with Speak my calls on, worked to its
    first call, the screen listening: the screen and the call's expected entry."""
    screen = window.show_screen("practice").screen
    speak_my_calls(window)
    screen.start(bundled().by_id(ROUND), automation=Automation.CALLS)
    for _ in range(40):
        if screen.spoken.hearing is not None:
            break
        do_next(qtbot, screen)
    assert screen.spoken.hearing is not None
    return screen, screen.round.full[screen.spoken.owed.index][1]


def call_aloud(qtbot, screen, say, limit=400) -> list[float]:
    """Work the round: each call owed is said by `say(expected entry)` once its screen listens (the
    dice at rest), every other action done as a trainee does it; the loudest level each hearing's
    meter showed."""
    loudest = []
    for _ in range(limit):
        if screen.round.finished:
            return loudest
        hearing = screen.spoken.hearing
        if hearing is None:
            do_next(qtbot, screen)
            continue
        levels = []
        hearing.level.connect(levels.append)
        say(screen.round.full[screen.spoken.owed.index][1])
        qtbot.waitUntil(lambda h=hearing: screen.spoken.hearing is not h, timeout=20_000)
        loudest.append(max(levels, default=0.0))
    raise AssertionError("the round did not end")


def test_the_computers_microphones_are_offered_in_the_settings(qtbot, window, microphones):
    speak_my_calls(window)
    box = settings_shown(qtbot, window).microphone
    assert box.isEnabled(), box.toolTip()
    assert [box.itemText(i) for i in range(box.count())] == (
        ["The computer's default"] + [m.description for m in microphones.values()])


def test_a_round_called_into_the_microphone_is_heard_and_graded_right(qtbot, window, microphones,
                                                                      voices):
    screen = window.show_screen("practice").screen
    speak_my_calls(window)
    default = next(iter(microphones.values()))
    scenario = bundled().by_id(ROUND)
    game = scenario.game
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    screen.start(scenario, automation=Automation.CALLS)
    said = []

    def say(expected):
        said.append((expected.do, expected.value))
        default.say(reading(voices, game, expected.do, expected.value))

    loudest = call_aloud(qtbot, screen, say)
    [result] = results
    assert result.findings == [], [f.message for f in result.findings]
    assert said and {do for do, _ in said} <= set(SPOKEN)
    made = [(p.do, p.value) for p in screen.round.log if p.do in SPOKEN and not p.by_trainer]
    assert made == said  # every call heard from the microphone, none made with the keys
    assert len(screen.round.call_speeds) == len([do for do, _ in said if do in TIMED]) > 0
    # the meter moved with the voice: silence shows nothing, a call a good part of the bar
    assert all(level > 0.1 for level in loudest), loudest


def test_a_call_said_while_the_window_is_busy_is_heard_whole(qtbot, window, microphones, voices):
    """The window's thread busy for most of a second while the call is said (a screen drawn
    again, a slow disk): the microphone is read on a thread of its own, none of the sound is lost,
    and the call is right. Read on the window's thread, Qt kept a quarter of a second of it."""
    import time

    default = next(iter(microphones.values()))
    screen, expected = first_call(qtbot, window)
    hearing = screen.spoken.hearing
    lasts = default.say(reading(voices, screen.round.scenario.game, expected.do, expected.value))
    time.sleep(0.8)  # this is the window's thread: nothing of it runs meanwhile
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=20_000)
    heard = [p for p in screen.round.log if p.do is expected.do and not p.by_trainer]
    assert [p.value for p in heard] == [expected.value], screen.spoken.meter.said
    assert len(hearing.sound) >= 2 * 16_000 * lasts  # every block of what was said


def test_the_microphone_chosen_in_the_settings_is_the_one_heard(qtbot, window, microphones, voices):
    """The default microphone hears the table's wrong call, the one chosen the trainee's right one:
    graded right only if the chosen one is heard."""
    from ui.qt import Qt

    default, chosen = list(microphones.values())[:2]
    dialog = settings_shown(qtbot, window)
    box = dialog.microphone
    box.setFocus()
    index = box.findText(chosen.description)
    assert index > 0
    while box.currentIndex() != index:  # as a trainee picks it with the keys
        qtbot.keyClick(box, Qt.Key.Key_Down)
    dialog.accept()
    screen, expected = first_call(qtbot, window)
    assert screen.spoken.microphone == chosen.name
    game = screen.round.scenario.game
    wrong = next(o for o in screen.round.prompt(expected.do).options if o != expected.value)
    default.say(reading(voices, game, expected.do, wrong))
    chosen.say(reading(voices, game, expected.do, expected.value))
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=20_000)
    heard = [p for p in screen.round.log if p.do is expected.do and not p.by_trainer]
    assert len(heard) == 1, screen.spoken.meter.said
    assert heard[0].value == expected.value
    assert "✔ Right" in screen.feedback.toPlainText()


def test_a_microphone_deleted_while_it_records_ends_its_thread(qtbot, microphones):
    """Its screen closed in the middle of a call: the microphone's input goes unstopped with it,
    and its recording's thread ends then, not when the app quits (a thread still running then
    ends the app with an abort)."""
    from ui.speech.audio import MicrophoneInput

    mic = MicrophoneInput(None)
    got = []
    mic.blocks.connect(got.append)
    mic.start()
    qtbot.waitUntil(lambda: len(got) > 2, timeout=5000)  # it records: silence, as it comes
    [(thread, _)] = mic._recording
    assert thread.isRunning()
    with qtbot.waitSignal(mic.destroyed, timeout=5000):
        mic.deleteLater()
    assert thread.isFinished()


def test_the_voice_line_names_the_microphone_recorded_from(qtbot, window, microphones):
    """A voice is taught for the microphone recorded from: with the computer's default chosen,
    File › Settings… names that microphone, not "The computer's default" (which may be another
    microphone tomorrow); with another chosen, that one."""
    from ui.qt import Qt

    default, other = list(microphones.values())[:2]
    dialog = settings_shown(qtbot, window)
    row = dialog.voice
    assert row.line.text().startswith(f"Not taught your voice for {default.description}:")
    box = dialog.microphone
    box.setFocus()
    while box.currentText() != other.description:
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert row.line.text().startswith(f"Not taught your voice for {other.description}:")
    dialog.close()


def test_a_recording_whose_thread_ends_late_or_never_stopped_never_aborts_the_app(qtbot,
                                                                                  microphones,
                                                                                  monkeypatch):
    """A recording's thread that has not ended when its stop stops waiting is kept until it has
    (Qt aborts the app when a QThread is deleted while its thread runs); and a program that ends
    with a microphone still recording ends cleanly."""
    import subprocess
    import sys
    import time

    import ui.speech.audio as audio
    from tests.support.paths import ROOT

    slow = audio._Recorder.stop
    monkeypatch.setattr(audio._Recorder, "stop", lambda self: (time.sleep(0.5), slow(self)))
    monkeypatch.setattr(audio, "STOP_SECONDS", 0.05)
    mic = audio.MicrophoneInput(None)
    got = []
    mic.blocks.connect(got.append)
    mic.start()
    qtbot.waitUntil(lambda: len(got) > 2, timeout=5000)
    mic.stop()  # waits 0.05 s of the 0.5 its recorder takes
    [(thread, _)] = audio._late
    qtbot.waitUntil(thread.isFinished, timeout=5000)
    mic.deleteLater()
    program = ("import time\n"
               "from ui.qt import QApplication\n"
               "from ui.speech.audio import MicrophoneInput\n"
               "app = QApplication([])\n"
               "mic = MicrophoneInput(None)\n"
               "got = []\n"
               "mic.blocks.connect(got.append)\n"
               "mic.start()\n"
               "end = time.monotonic() + 5\n"
               "while len(got) < 3 and time.monotonic() < end:\n"
               "    app.processEvents()\n"
               "print('recording' if got else 'silent', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (0, "recording\n"), done.stderr[-2000:]


def test_a_microphone_that_stops_giving_sound_while_listening_is_said_gone(qtbot, window,
                                                                          microphones):
    """A headset pulled out while the screen listens: Qt's recording goes on, empty, and says
    nothing. The screen stops listening within seconds and says so, and the call is left to the
    action bar, not graded as a call not made aloud."""
    default = next(iter(microphones.values()))
    screen, expected = first_call(qtbot, window)
    default.switch_off()  # no sound from it any more, as from a microphone unplugged
    try:
        qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=6000)
        said = screen.spoken.meter.said
        assert said == (f"Not listening: The microphone {default.description} gives no sound: "
                        "was it unplugged?"), said
        assert "Make the call from the action bar" in screen.feedback.toPlainText()
        assert not [p for p in screen.round.log if p.do is expected.do]
        assert screen.spoken.hearing is None
    finally:
        default.switch_on()


def test_a_microphone_slow_to_give_its_first_sound_is_waited_for(qtbot, microphones):
    """A headset may take seconds to switch to its microphone once recording starts: its first
    sound after 3 s is heard, and nothing is said gone (after the first, 2 s of none is)."""
    import time

    from ui.speech.audio import MicrophoneInput

    default = next(iter(microphones.values()))
    default.switch_off()
    mic = MicrophoneInput(None)
    got, failed = [], []
    mic.blocks.connect(got.append)
    mic.failed.connect(failed.append)
    try:
        mic.start()
        began = time.monotonic()
        qtbot.wait(3000)
        assert got == [] and failed == []
        default.switch_on()
        qtbot.waitUntil(lambda: len(got) > 2, timeout=5000)
        assert failed == [], failed
        # past the 2 s of silence that would say a microphone gone after its first sound (a wait
        # of 3 s may end a few ms early)
        assert time.monotonic() - began > 2.5, time.monotonic() - began
    finally:
        default.switch_on()
        mic.stop()


def test_a_sound_server_that_gives_100_ms_at_a_time_loses_none_of_the_call(qtbot, window,
                                                                            microphones, voices):
    """Some servers hand a microphone's sound over 100 ms at a time. Qt 6.11 lets PulseAudio hold
    at most 64 ms for the app, so two thirds of each piece were lost and a call was heard from a
    third of it; the recording asks for 20 ms pieces and is given every block."""
    default = next(iter(microphones.values()))
    default.frame = 3200  # 100 ms at a time
    try:
        screen, expected = first_call(qtbot, window)
        hearing = screen.spoken.hearing
        lasts = default.say(reading(voices, screen.round.scenario.game, expected.do,
                                    expected.value))
        qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=20_000)
        heard = [p for p in screen.round.log if p.do is expected.do and not p.by_trainer]
        assert [p.value for p in heard] == [expected.value], screen.spoken.meter.said
        assert len(hearing.sound) >= 2 * 16_000 * lasts  # every block of what was said
    finally:
        default.frame = pulse.FRAME


def test_a_microphone_whose_sound_mostly_never_reaches_the_app_is_said(qtbot, window, microphones,
                                                                       monkeypatch):
    """Sound lost on its way to the app (here as Qt 6.11 loses it when the recording does not ask
    for small pieces and the server gives 100 ms at a time: about two thirds): a call heard from a
    third is noise. The screen says so within seconds, rather than grade what it could not hear."""
    from ui.speech.audio import PULSE_PIECES

    monkeypatch.delenv(PULSE_PIECES[0])  # libpulse reads it as each recording connects
    default = next(iter(microphones.values()))
    default.frame = 3200  # 100 ms at a time
    try:
        screen, _ = first_call(qtbot, window)
        qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=6000)
        said = screen.spoken.meter.said
        assert said.startswith(f"Not listening: The microphone {default.description} gives the "
                               "app only "), said
        share = int(said.split("only ")[1].split("%")[0])
        assert share < 60, said
        assert said.endswith("% of its sound (the rest is lost on its way): calls cannot be "
                             "heard from it."), said
    finally:
        default.frame = pulse.FRAME
