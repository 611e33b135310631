"""View › Speak my calls and View › The stickman's voice in the real window: off by default,
remembered, and off with the reason (in the item's tooltip and the status line) where this
computer cannot do it: no recogniser, no Qt Multimedia, no microphone, no speech engine. The
recogniser is the stand-in of tests/support/speech_fake.py, which says why it is unavailable as
the test asks."""

from __future__ import annotations

import pytest

from tests.support.speech_fake import Plan, install


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


def make_window(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    w = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def microphone(monkeypatch):
    """One microphone on this computer, whatever it has."""
    import ui.speech.audio

    monkeypatch.setattr(ui.speech.audio, "multimedia", lambda: object())
    monkeypatch.setattr(ui.speech.audio, "microphones", lambda: [("mic-1", "Desk microphone")])


def reason_shown(window) -> str:
    window.speech.check()  # as the View menu does when it opens
    action = window.speech.calls
    assert not action.isEnabled() and not action.isChecked()
    assert action.toolTip() == action.statusTip()
    assert action.toolTip() in window.statusBar().currentMessage()
    return action.toolTip()


def test_no_recogniser_turns_the_option_off_saying_why(qtbot, monkeypatch, microphone):
    install(monkeypatch, Plan(), why="The recogniser's English model is missing.")
    window = make_window(qtbot)
    assert reason_shown(window) == "The recogniser's English model is missing."
    window.close()


def test_a_recogniser_that_cannot_be_imported_is_said(qtbot, monkeypatch, microphone):
    import trainer.spoken

    def missing():
        raise ImportError("No module named 'pocketsphinx'")

    monkeypatch.setattr(trainer.spoken, "engine", missing)
    window = make_window(qtbot)
    assert reason_shown(window) == ("The speech recogniser cannot be loaded (No module named "
                                    "'pocketsphinx').")
    window.close()


def test_no_microphone_and_no_qt_multimedia_are_said(qtbot, monkeypatch):
    import ui.speech.audio

    install(monkeypatch, Plan())
    monkeypatch.setattr(ui.speech.audio, "microphones", lambda: [])
    monkeypatch.setattr(ui.speech.audio, "multimedia", lambda: object())
    window = make_window(qtbot)
    assert reason_shown(window) == "No microphone is connected to this computer."
    window.close()

    def no_sound():
        raise ImportError("libpulse.so.0: cannot open shared object file")

    monkeypatch.setattr(ui.speech.audio, "multimedia", no_sound)
    window = make_window(qtbot)
    assert reason_shown(window) == ("The microphone cannot be used: Qt Multimedia cannot be loaded "
                                    "(libpulse.so.0: cannot open shared object file).")
    window.close()


def test_on_is_remembered_and_reaches_the_practice_screen(qtbot, monkeypatch, microphone):
    from ui.practice.screen import PracticeScreen

    install(monkeypatch, Plan())
    window = make_window(qtbot)
    window.speech.check()
    assert window.speech.calls.isEnabled() and not window.speech.calls.isChecked()  # off by default
    screen = window.show_screen("practice").screen  # built when first used
    assert isinstance(screen, PracticeScreen) and not screen.spoken.enabled
    window.speech.calls.trigger()
    assert screen.spoken.enabled
    window.close()
    again = make_window(qtbot)  # the next start: on, before the menu is ever opened
    assert again.speech.calls.isChecked()
    screen = again.show_screen("practice").screen
    assert screen.spoken.enabled
    again.speech.calls.trigger()
    assert not screen.spoken.enabled
    again.close()


def test_the_stickmans_voice_is_off_saying_why_without_a_speech_engine(qtbot, monkeypatch,
                                                                       microphone):
    import ui.speech.engine

    def no_addon():
        raise ImportError("No module named 'PySide6.QtTextToSpeech'")

    monkeypatch.setattr(ui.speech.engine, "texttospeech", no_addon)
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found())  # forget an earlier look
    install(monkeypatch, Plan())
    window = make_window(qtbot)
    window.speech.check()
    voice = window.speech.voice
    assert not voice.isEnabled()
    assert voice.toolTip() == ("Qt TextToSpeech cannot be loaded (No module named "
                               "'PySide6.QtTextToSpeech').")
    assert window.speech.calls.isEnabled()  # the one says nothing of the other
    window.close()


class Speaker:
    """A speech engine that keeps what it is asked to say."""

    def __init__(self):
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


def test_the_stickman_says_the_dealers_calls_and_coming_out_on_the_supervise_screen(qtbot,
                                                                                    monkeypatch):
    import ui.speech.engine
    from trainer import Do, playback
    from trainer.speech.words import spoken
    from ui.qt import QApplication
    from ui.speech.options import SPEAKS
    from ui.supervise.screen import SuperviseScreen

    speaker = Speaker()
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found(speaker=speaker))
    QApplication.instance().setProperty(SPEAKS, True)
    try:
        screen = SuperviseScreen()
        qtbot.addWidget(screen)
    finally:
        QApplication.instance().setProperty(SPEAKS, False)
    rnd = playback.deal("props-and-hops", 2, "voice")
    screen.start(rnd, paced=False)
    for _ in range(len(screen.frames)):
        screen.step()
    actions = [f.action for f in screen.frames if f.action is not None]
    calls = [spoken(a.value) for a in actions if a.do is Do.ANNOUNCE]  # in the words said
    assert calls and [s for s in speaker.said if s in calls] == calls
    assert "no more bets" in speaker.said
    shooters = [a for a in actions if a.do in (Do.OFFER_SHAKER, Do.PASS_SHAKER)]
    assert speaker.said.count("coming out") == len(shooters) > 0
    screen.stop()


def test_the_microphone_is_chosen_in_the_settings_and_remembered(qtbot, monkeypatch, microphone):
    from ui.shell.settings import SettingsDialog

    install(monkeypatch, Plan())
    window = make_window(qtbot)
    dialog = SettingsDialog(window)
    qtbot.addWidget(dialog)
    box = dialog.microphone
    assert box.isEnabled()
    assert [box.itemText(i) for i in range(box.count())] == ["The computer's default",
                                                              "Desk microphone"]
    box.setCurrentIndex(1)
    box.activated.emit(1)
    screen = window.show_screen("practice").screen
    assert screen.spoken.microphone == "mic-1"
    window.close()
    again = make_window(qtbot)
    assert again.speech.microphone == "mic-1"
    assert again.show_screen("practice").screen.spoken.microphone == "mic-1"
    again.close()


def test_no_microphone_is_said_in_the_settings(qtbot, monkeypatch):
    import ui.speech.audio
    from ui.shell.settings import SettingsDialog

    monkeypatch.setattr(ui.speech.audio, "multimedia", lambda: object())
    monkeypatch.setattr(ui.speech.audio, "microphones", lambda: [])
    window = make_window(qtbot)
    dialog = SettingsDialog(window)
    qtbot.addWidget(dialog)
    assert not dialog.microphone.isEnabled()
    assert dialog.microphone_note.text() == "No microphone is connected to this computer."
    assert dialog.microphone.toolTip() == dialog.microphone_note.text()
    window.close()


def test_the_stickman_says_the_calls_of_a_replay_as_each_step_is_shown(qtbot, monkeypatch,
                                                                      tmp_path):
    import ui.speech.engine
    from tests.support.library import bundled
    from trainer import Automation, Do, PracticeRound
    from trainer.progress import Store, replay
    from trainer.speech.words import spoken
    from ui.classroom.replay import ReplayDialog
    from ui.qt import QApplication
    from ui.shell.services import Services
    from ui.speech.options import SPEAKS

    round_ = PracticeRound(bundled().by_id("ph-no-roll-calls"), Automation.PAYOUTS)
    with Store.open(tmp_path / "p.db") as store:
        store.add_trainee("Ana")
        attempt = Services(store, store.find_trainee("Ana")).record(round_.finish(), round_)
        data = replay(store, attempt)
    speaker = Speaker()
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found(speaker=speaker))
    QApplication.instance().setProperty(SPEAKS, True)
    try:
        dialog = ReplayDialog(data)
        qtbot.addWidget(dialog)
    finally:
        QApplication.instance().setProperty(SPEAKS, False)
    log = round_.log
    for row in range(1, len(log) + 1):
        dialog.steps.setCurrentRow(row)
    # the trainer worked the whole round: each call it made, in order, and "no more bets"
    calls = [spoken(p.value) for p in log if p.do is Do.ANNOUNCE]  # in the words said
    assert calls and [s for s in speaker.said if s in calls] == calls
    no_rolls = [p for p in log if p.do is Do.NO_ROLL]
    assert len([s for s in speaker.said if s.startswith("no roll ")]) == len(no_rolls) > 0
    assert speaker.said.count("coming out") == len([p for p in log if p.do is Do.OFFER_SHAKER
                                                    or p.do is Do.PASS_SHAKER])
    dialog.close()


def test_hear_from_refuses_a_file_the_recogniser_cannot_take_in_one_line(tmp_path):
    import wave

    from tests.support.flite import wav_header
    from tests.test_app import refused_here

    loud = tmp_path / "loud.wav"
    with wave.open(str(loud), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(b"\0\0" * 441)
    code, err = refused_here("--hear-from", str(loud))
    assert code == 2 and (f"{loud}: 1 channel(s), 16-bit, 44100 Hz; calls are heard from mono "
                          "16-bit sound at 16000 Hz") in err
    code, err = refused_here("--hear-from", str(tmp_path / "gone.wav"))
    assert code == 2 and f"{tmp_path / 'gone.wav'}: no such file" in err
    lying = wav_header(tmp_path / "lying.wav", 2_000_000_000)  # refused by its header, not read
    code, err = refused_here("--hear-from", str(lying))
    assert code == 2 and f"{lying}: its header says 62,500.0 seconds of sound" in err
    ok = tmp_path / "ok.wav"
    with wave.open(str(ok), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    code, err = refused_here("--hear-from", str(ok), "--screenshot", str(tmp_path / "x.png"))
    assert code == 2 and "--hear-from goes with the app" in err


def test_hear_from_feeds_every_practice_screen_from_the_files_no_microphone_needed(
        qtbot, monkeypatch, tmp_path):
    import ui.speech.audio
    from ui.practice.screen import PracticeScreen
    from ui.qt import QApplication
    from ui.speech.audio import Silence, WavInput
    from ui.speech.options import HEAR_FROM

    install(monkeypatch, Plan())
    monkeypatch.setattr(ui.speech.audio, "microphones", lambda: [])
    files = [str(tmp_path / "one.wav"), str(tmp_path / "two.wav")]
    QApplication.instance().setProperty(HEAR_FROM, files)
    try:
        window = make_window(qtbot)
        window.speech.check()
        assert window.speech.calls.isEnabled()  # no microphone: the files are heard
        screen = PracticeScreen()
        qtbot.addWidget(screen)
    finally:
        QApplication.instance().setProperty(HEAR_FROM, None)
    made = [screen.spoken.inputs() for _ in range(3)]
    assert [str(i.path) for i in made[:2]] == files and all(isinstance(i, WavInput) for i in made[:2])
    assert isinstance(made[2], Silence)
    window.close()


def test_the_microphone_input_says_why_it_cannot_start_where_there_is_none(qtbot):
    """Qt Multimedia itself, asked for the default microphone on a computer with none (or without
    the sound library Qt Multimedia needs): the input fails with one line, and gives no sound."""
    from ui.speech.audio import MicrophoneInput, microphones

    if microphones():
        pytest.skip("this computer has a microphone: the input would listen to it")
    mic = MicrophoneInput("no-such-device")
    said, heard = [], []
    mic.failed.connect(said.append)
    mic.blocks.connect(heard.append)
    mic.start()
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    assert said[0] in ("No microphone is connected.",) or said[0].startswith(
        "Qt Multimedia cannot be loaded (")
    assert heard == []
    mic.stop()


def test_speech_check_prints_what_the_view_menu_says(qtbot, monkeypatch, capsys):
    """`dealer-trainer speech-check` (how the bundle's test asks the bundled app): each item's
    line is the tooltip the View menu gives it on the same computer, and exit 1 when one is off;
    here no microphone and no Qt TextToSpeech."""
    import ui.speech.audio
    import ui.speech.engine
    from ui.main import main

    def no_addon():
        raise ImportError("No module named 'PySide6.QtTextToSpeech'")

    monkeypatch.setattr(ui.speech.audio, "multimedia", lambda: object())
    monkeypatch.setattr(ui.speech.audio, "microphones", lambda: [])
    monkeypatch.setattr(ui.speech.engine, "texttospeech", no_addon)
    monkeypatch.setattr(ui.speech.engine, "_found", ui.speech.engine.Found())  # forget an earlier look
    install(monkeypatch, Plan())
    assert main(["speech-check"]) == 1
    window = make_window(qtbot)
    window.speech.check()
    assert capsys.readouterr().out.splitlines() == [
        f"Speak my calls: off: {window.speech.calls.toolTip()}",
        f"The stickman's voice: off: {window.speech.voice.toolTip()}"]
    assert window.speech.calls.toolTip() == "No microphone is connected to this computer."
    window.close()


def test_speech_check_says_an_item_can_be_turned_on(qtbot, monkeypatch, microphone, capsys):
    import ui.speech.engine
    from ui.main import main

    works = ui.speech.engine.Found(speaker=object())  # a speech engine that works
    monkeypatch.setattr(ui.speech.engine, "_found", works)
    install(monkeypatch, Plan())
    assert main(["speech-check"]) == 0
    assert capsys.readouterr().out == ("Speak my calls: can be turned on (View menu)\n"
                                       "The stickman's voice: can be turned on (View menu)\n")
