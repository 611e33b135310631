"""Speak my calls on the real practice screen: the sound of each call fed from a WAV file made
here, through the microphone's path (ui.speech.audio's seam) to a listener on its own thread, its
verdict graded as the call action's. The listener is a stand-in with the recogniser's interface
(tests/support/speech_fake.py): it hears what the test plans, once the sound has had speech, so
that these tests hold the screens' own logic; tests/test_speech_round.py plays a round with the
real recogniser and synthetic voices."""

from __future__ import annotations

import pytest

from tests.support.library import bundled
from tests.support.practice_screen import calls_owed, do_next, play_aloud, to_first_call
from tests.support.speech_fake import Plan, install, tone_wav
from trainer.procedure import Automation, Do
from trainer.spoken import SPOKEN, TIMED

LIBRARY = bundled()
#: Props & Hops with no rolls and calls: the trainee calls every throw
CALLED = "ph-no-roll-calls"


@pytest.fixture
def tone(tmp_path):
    """A WAV file: 0.3 s of silence, 0.6 s of "speech" (a tone), 0.5 s of silence; the speech
    ends 0.9 s into it."""
    path = tmp_path / "call.wav"
    tone_wav(path, quiet=0.3, loud=0.6, after=0.5)
    return path


def listen(screen, files) -> None:
    from ui.speech.audio import wav_inputs

    screen.spoken.inputs = wav_inputs(files)
    screen.spoken.set_enabled(True)


def test_a_round_called_aloud_is_graded_right_and_its_call_speeds_kept(qtbot, practice_screen,
                                                                       monkeypatch, tone):
    screen = practice_screen
    plan = Plan()
    install(monkeypatch, plan)
    scenario = LIBRARY.by_id(CALLED)
    results = []
    screen.finished.connect(lambda result, _round: results.append(result))
    listen(screen, [tone] * 40)
    plan.heard = ["right"] * 40
    screen.start(scenario, automation=Automation.CALLS)
    owed = calls_owed(screen.round)
    assert {e.do for e in owed} >= {Do.ANNOUNCE, Do.NO_ROLL}
    play_aloud(qtbot, screen)
    [result] = results
    assert result.findings == [], [f.message for f in result.findings]
    # every call was heard, none made from the action bar: a listener for each, told the call
    assert len(plan.made) == len(owed)
    calls = [p for p in screen.round.log if p.do in SPOKEN and not p.by_trainer]
    assert [(p.do, p.value) for p in calls] == [(e.do, e.value) for e in owed]
    # the speech ends 0.9 s into each file, which starts as the dice come to rest
    timed = [e for e in owed if e.do in TIMED]
    assert screen.round.call_speeds == [(e.throw, pytest.approx(0.9, abs=0.01)) for e in timed]
    assert "✔ Right" in screen.feedback.toPlainText()


def test_a_wrong_call_heard_gets_the_call_actions_own_findings(qtbot, monkeypatch, tone):
    """The same wrong call, heard and chosen from the Announce dialog: the same findings, with
    the same severities and sections."""
    from tests.support.qt import shown_alone
    from ui.practice.screen import PracticeScreen

    scenario = LIBRARY.by_id(CALLED)
    found = []
    for aloud in (True, False):
        screen = next(shown_alone(qtbot, PracticeScreen(), 860))
        plan = Plan()
        install(monkeypatch, plan)
        screen.start(scenario, automation=Automation.CALLS)
        wrong = None
        for _ in range(40):
            e = screen.round.next_expected()
            if e.do is Do.ANNOUNCE:
                options = screen.round.prompt(Do.ANNOUNCE).options
                wrong = next(o for o in options if o != e.value)
                break
            do_next(qtbot, screen)
        assert wrong is not None
        if aloud:
            plan.heard = [wrong]
            listen(screen, [tone])
            qtbot.waitUntil(lambda s=screen, w=wrong: s.spoken.hearing is None
                            and any(p.value == w for p in s.round.log), timeout=5000)
        else:
            screen.act(Do.ANNOUNCE)
            dialog = screen.dialog
            dialog._pick(dialog.options.index(wrong))
        entry = screen.round._result.findings
        found.append([(f.kind, f.severity, f.cite, f.message) for f in entry])
        assert "Not right" in screen.feedback.toPlainText()
        screen.stop()
        screen.close()
    assert found[0] == found[1] and found[0]


def test_an_unclear_call_is_asked_again_once_then_counts_as_no_call(qtbot, practice_screen,
                                                                   monkeypatch, tone):
    screen = practice_screen
    plan = Plan("unclear", "unclear", "right")
    install(monkeypatch, plan)
    listen(screen, [tone] * 3)
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    qtbot.waitUntil(lambda: len(plan.made) == 2, timeout=5000)
    assert "Say again" in screen.feedback.toPlainText()
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=5000)
    assert len(plan.made) == 2  # asked again once, not twice
    assert "No call" in screen.spoken.meter.line.text()
    assert not [p for p in screen.round.log if p.do in SPOKEN and not p.by_trainer]
    assert screen.round.call_speeds == []
    # the keys stay: the call is made from the action bar, graded as ever
    do_next(qtbot, screen)
    assert [p.do for p in screen.round.log if not p.by_trainer][-1] in SPOKEN


def test_an_unclear_call_said_again_clearly_is_graded(qtbot, practice_screen, monkeypatch, tone):
    screen = practice_screen
    plan = Plan("unclear", "right")
    install(monkeypatch, plan)
    listen(screen, [tone] * 2)
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    qtbot.waitUntil(lambda: any(p.do in SPOKEN and not p.by_trainer for p in screen.round.log),
                    timeout=5000)
    assert plan.made[0] == plan.made[1]  # the same call, asked again
    assert "✔ Right" in screen.feedback.toPlainText()
    # from the dice at rest: the first file (1.4 s, at its pace of a block a tick) and 0.9 s of
    # the second; the first file's time is the round's clock, so only a floor can be said
    [(_, seconds)] = screen.round.call_speeds
    assert seconds >= 0.9


def test_silence_is_no_call_and_a_call_made_by_hand_stops_the_listening(qtbot, practice_screen,
                                                                       monkeypatch, tmp_path):
    from tests.support.speech_fake import tone_wav

    screen = practice_screen
    quiet = tmp_path / "quiet.wav"
    tone_wav(quiet, quiet=1.0, loud=0.0, after=0.0)
    plan = Plan("right", "right")
    install(monkeypatch, plan)
    listen(screen, [quiet])
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=5000)
    assert screen.spoken.meter.line.text().startswith("No call: ")
    assert "not heard" in screen.spoken.meter.said
    assert not [p for p in screen.round.log if p.do in SPOKEN and not p.by_trainer]
    # the advice is the feedback panel's; beside the title the line is cut short, whole in its
    # tooltip, and the title keeps its one line on a laptop (the window less the sidebar)
    meter = screen.spoken.meter
    assert meter.said.startswith("No call: the call was not heard. Make it from the action bar")
    assert meter.said in screen.feedback.toPlainText()
    assert meter.line.text().endswith("…") and meter.line.toolTip() == meter.said
    from ui.qt import QApplication
    from ui.shell import theme

    theme.apply(QApplication.instance(), "light")  # the title's large print, as the app has it
    screen.resize(1366 - 190, screen.height())
    qtbot.waitUntil(lambda: screen.title.height() < 2 * screen.title.fontMetrics().lineSpacing())


def test_a_laptops_dealt_round_keeps_its_title_on_one_line_as_calls_are_heard(
        qtbot, practice_page, monkeypatch):
    """At 1366 px less the sidebar, a dealt round's title ("Props & Hops: practice round") beside
    its throw count took two lines once Speak my calls was on: the level's bar beside the meter's
    line took its room. The bar is under the line now, and the meter still keeps one width."""
    from ui.qt import QApplication
    from ui.shell import theme

    theme.apply(QApplication.instance(), "light")
    page = practice_page
    page.resize(1366 - 190, 700)
    install(monkeypatch, Plan())
    page.screen.spoken.set_enabled(True)
    page.deal(seed=1, game="props-and-hops", confirm=False)
    screen, meter = page.screen, page.screen.spoken.meter
    assert screen.title.text() == "Props & Hops: practice round" and meter.isVisible()
    line = screen.title.fontMetrics().lineSpacing()
    widths = set()
    for said, listening in (("Speak my calls: on", False), ("Listening for your call…", True),
                            ("Heard: “Ten, five-five”", False)):
        meter.say(said, listening)
        qtbot.wait(20)  # the layout's turn
        assert screen.title.height() < 2 * line, (said, screen.title.height(), line)
        widths.add(meter.width())
    assert len(widths) == 1, widths
    assert meter.bar.geometry().top() >= meter.line.geometry().bottom()  # under the line


def test_the_table_keeps_its_size_while_the_screen_listens_in_large_print(qtbot, practice_screen,
                                                                          monkeypatch):
    """On a laptop in large print, the title beside the meter keeps its lines, and the table its
    room, whatever the meter shows: listening (the level shown), a call heard, a no call's
    advice. They moved with every call."""
    from ui.qt import QApplication
    from ui.shell import theme

    theme.apply(QApplication.instance(), "light", large=True)
    screen = practice_screen
    screen.resize(1366 - 190, 700)
    install(monkeypatch, Plan())
    screen.spoken.set_enabled(True)
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    meter = screen.spoken.meter
    seen = set()
    for line, listening in (("Listening for your call…", True), ("Heard: “Ten, five-five”", False),
                            ("Say again: the call was not clear (heard “~no ~roll”).", True),
                            ("No call: the call was not heard. Make it from the action bar, or "
                             "go on (a call left unmade is missing).", False)):
        meter.say(line, listening)
        qtbot.wait(20)  # the layout's turn
        seen.add((screen.title.height(), screen.table_host.geometry().getRect()))
    assert meter.isVisible() and len(seen) == 1, seen


def test_a_call_heard_while_a_question_is_open_is_said_and_listened_for_again(
        qtbot, practice_screen, monkeypatch, tmp_path):
    """The trainee opened the Announce question with its key while the screen listened, and the
    call heard then cannot be made over it: it is said so, not lost, and once the question is
    cancelled the screen listens for the call again, and hears it."""
    from tests.support.speech_fake import tone_wav
    from ui.practice.dialogs import ChoiceDialog
    from ui.qt import Qt
    from ui.speech.audio import WavInput

    screen = practice_screen
    call = tmp_path / "call.wav"
    tone_wav(call, quiet=0.5, loud=0.4, after=0.3)
    install(monkeypatch, Plan("right", "right"))
    screen.spoken.inputs = lambda: WavInput(call, paced=True)
    screen.spoken.set_enabled(True)
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    owed = screen.round.next_expected()
    first = screen.spoken.hearing
    qtbot.keyClick(screen, Qt.Key.Key_D)  # Announce: its question opens over the listening
    assert isinstance(screen.dialog, ChoiceDialog)
    qtbot.waitUntil(lambda: screen.spoken.hearing is not first, timeout=5000)
    assert "while a question was open: answer it, then make the call again." in \
        screen.feedback.toPlainText()
    assert not [p for p in screen.round.log if p.do in SPOKEN and not p.by_trainer]
    qtbot.keyClick(screen.dialog.list, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: any(p.do is owed.do and not p.by_trainer for p in screen.round.log),
                    timeout=5000)
    assert "✔ Right" in screen.feedback.toPlainText()


def test_a_file_that_is_not_the_recognisers_kind_is_named(qtbot, practice_screen, monkeypatch,
                                                          tmp_path):
    """The sound cannot be had (a WAV file in stereo, as a school's check might feed): the screen
    stops listening and the feedback says why, whole; the line beside the title, too short for
    it, says where to read it (it showed "Not listening: The microphone T…")."""
    import wave

    screen = practice_screen
    stereo = tmp_path / "stereo.wav"
    with wave.open(str(stereo), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(b"\0\0" * 2 * 4410)
    install(monkeypatch, Plan("right"))
    listen(screen, [stereo])
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=5000)
    said = screen.feedback.toPlainText()
    assert "stereo.wav: 2 channel(s), 16-bit, 44100 Hz" in said and "16000 Hz" in said
    meter = screen.spoken.meter
    why = meter.said.removeprefix("Not listening: ")
    assert "stereo.wav: 2 channel(s)" in why and f"Spoken calls: {why}" in said
    assert meter.line.text() == "Not listening: see on the right"  # the feedback panel
    assert meter.line.toolTip() == meter.said == meter.line.accessibleName()


def test_an_exam_is_sat_with_the_keys_alone(qtbot, practice_screen, monkeypatch, tone):
    from trainer.progress import Mode

    screen = practice_screen
    plan = Plan("right")
    install(monkeypatch, plan)
    listen(screen, [tone])
    screen.start(LIBRARY.by_id(CALLED), mode=Mode.EXAM, automation=Automation.CALLS)
    for _ in range(40):
        if screen.round.next_expected().do in SPOKEN:
            break
        do_next(qtbot, screen)
    assert screen.spoken.hearing is None and plan.made == []
    assert not screen.spoken.meter.isVisible()


def test_a_listener_that_cannot_start_is_said_and_the_keys_go_on(qtbot, practice_screen,
                                                                 monkeypatch, tone):
    screen = practice_screen
    install(monkeypatch, Plan("refuse"))
    listen(screen, [tone])
    screen.start(LIBRARY.by_id(CALLED), automation=Automation.CALLS)
    to_first_call(qtbot, screen)
    qtbot.waitUntil(lambda: screen.spoken.hearing is None, timeout=5000)
    said = screen.feedback.toPlainText()
    assert "Cannot listen: expected:" in said and "is not a call of this game" in said
    assert "Make the call from the action bar" in said
    do_next(qtbot, screen)  # the call, made from the action bar
    assert [p.do for p in screen.round.log if not p.by_trainer][-1] in SPOKEN
