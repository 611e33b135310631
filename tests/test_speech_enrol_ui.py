"""Teach it my voice (ui.speech.enrolling) in the real window: File › Settings…'s line and button,
the enrolment dialog read from WAV files through the microphone's path (ui.speech.audio's seam,
as --hear-from feeds it), the estimate off the GUI thread, the transform kept in the trainee's
folder for the microphone; Cancel keeps nothing; the keys drive it; the practice screen hears
a call with the trainee's voice, and with the model's own where the file is damaged, said once.

The first test is the whole chain with flite's voice in a room's noise and the real recogniser
and estimate (the estimate run once per run for those readings, tests/support/voice.py; skipped,
saying why, where flite or the recogniser is missing); the others hold the dialog's and the
screen's own logic with the stand-in listener of tests/support/speech_fake.py, which hears a
tone."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import voice
from tests.support.flite import needs_flite, padded, say, voices
from tests.support.library import bundled
from tests.support.practice_screen import calls_owed, play_aloud
from tests.support.reading_fake import readings
from tests.support.screens import rosa_window, settings_shown
from tests.support.speech_fake import Plan, install, tone_wav
from trainer.procedure import Automation
from trainer.speech import enrolment
from trainer.speech.enrolment import DIM, STREAMS, Transform

CALLED = "ph-no-roll-calls"  # Props & Hops with no rolls and calls: the trainee calls every throw
SILENCE = 0.4  # seconds of silence around each call read


@pytest.fixture
def window(qtbot, tmp_path):
    with rosa_window(qtbot, tmp_path) as w:
        yield w


def voice_file(tmp_path):
    """Where Rosa's voice is kept for the microphone in use (none on a test machine: "")."""
    return enrolment.kept_at(tmp_path / "data", 1, "")


def settings(qtbot, window):
    return settings_shown(qtbot, window).voice


def open_enrolment(qtbot, row, files, keys: bool = False):
    """The Teach it my voice… button clicked (or reached with the keys: focused, Space), the
    dialog's readings given `files`."""
    from ui.qt import Qt
    from ui.speech.audio import wav_inputs

    assert row.teach.isEnabled(), row.line.text()
    if keys:
        row.teach.setFocus()
        qtbot.keyClick(row.teach, Qt.Key.Key_Space)
    else:
        qtbot.mouseClick(row.teach, Qt.MouseButton.LeftButton)
    assert row.dialog is not None
    dialog = row.dialog
    dialog.inputs = wav_inputs(files)  # before the first reading starts (from the event loop)
    qtbot.waitExposed(dialog)
    return dialog


def read_one(qtbot, dialog) -> None:
    qtbot.waitUntil(lambda: dialog.next.isEnabled(), timeout=15000)


def test_a_voice_taught_from_wav_files_is_kept_and_the_settings_say_so(
        qtbot, monkeypatch, window, tmp_path, tmp_path_factory, hear_from):
    """flite's slt reads the 20 prompts in a room's noise (tests/support/voice.py's readings);
    each reading is heard through the dialog, which gives the estimate, off the GUI thread, the
    speech of each with its prompt's words; the transform it made is written where the engine
    keeps it, reads back as it, and the settings' line says it was taught; a call no prompt reads
    is then heard right with it. The estimate is the product's own, run once per run for these
    readings (voice.fitted: test_speech_enrolment's whole chain fits the same ones)."""
    from ui.qt import Qt

    files = voice.readings(tmp_path_factory)
    given = []

    def estimate(pairs, **settings):
        given.append(pairs)
        return voice.fitted(tmp_path_factory, pairs, **settings)

    monkeypatch.setattr(enrolment, "estimate", estimate)
    prompts = enrolment.prompts()
    row = settings(qtbot, window)
    assert row.line.text().startswith("Not taught your voice for The computer's default")
    dialog = open_enrolment(qtbot, row, files)
    for n in range(20):
        assert dialog.progress.text() == f"{n + 1} of 20"
        assert dialog.words.text().lower() == prompts[n].words
        read_one(qtbot, dialog)
        assert dialog.meter.line.text().startswith("Heard ")
        qtbot.mouseClick(dialog.next, Qt.MouseButton.LeftButton)
    assert not dialog.again.isEnabled() and dialog.busy.isVisible()
    qtbot.waitUntil(lambda: dialog.result is not None and dialog.result != "fitting",
                    timeout=60000)
    assert dialog.result == "kept", dialog.outcome.text()
    assert dialog.outcome.text().startswith("Your voice is kept (20 of 20 calls used)")
    assert given == [voice.pairs(files)]  # each reading's speech, as the listener finds it
    kept = voice_file(tmp_path)
    assert Transform.read(kept).text() == voice.fitted(tmp_path_factory, given[0]).transform.text()
    qtbot.mouseClick(dialog.cancel, Qt.MouseButton.LeftButton)  # now Close
    assert dialog.cancel.text() == "Close"
    qtbot.waitUntil(lambda: row.dialog is None)
    assert kept.exists()  # Close after success keeps it
    assert row.line.text().startswith("Taught your voice for The computer's default on ")
    # a call no prompt reads, in slt's voice, heard right with the voice kept
    from trainer.speech import hear

    call = tmp_path / "call.wav"
    padded(say("seven one six", voice.VOICE, voices(tmp_path_factory)), call, SILENCE)
    assert hear(call, "props-and-hops", "Seven, one-six", voice=kept).kind == "right"


def tones(tmp_path, n: int) -> list:
    path = tmp_path / "tone.wav"
    tone_wav(path, quiet=0.3, loud=0.6, after=0.5)
    return [path] * n


def test_the_keys_read_again_go_on_and_cancel_keeping_nothing(qtbot, monkeypatch, window,
                                                             tmp_path, hear_from):
    from ui.qt import Qt

    plan = Plan(*["right"] * 10)
    readings(install(monkeypatch, plan))
    row = settings(qtbot, window)
    dialog = open_enrolment(qtbot, row, tones(tmp_path, 10), keys=True)
    read_one(qtbot, dialog)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Next, the default button
    assert dialog.progress.text() == "2 of 20"
    read_one(qtbot, dialog)
    first, second = enrolment.prompts()[:2]
    qtbot.keyClick(dialog, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)  # Again
    qtbot.waitUntil(lambda: len(plan.made) == 3)
    read_one(qtbot, dialog)
    # each reading heard as a call of its own game, the second twice
    assert plan.made == [(first.game, first.call.text)] + [(second.game, second.call.text)] * 2
    assert dialog.progress.text() == "2 of 20"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # Cancel
    qtbot.waitUntil(lambda: row.dialog is None)
    assert not (tmp_path / "data" / "spoken calls").exists()
    assert row.line.text().startswith("Not taught your voice")


def read_all(qtbot, dialog) -> None:
    from ui.qt import Qt

    for _ in range(20):
        read_one(qtbot, dialog)
        qtbot.keyClick(dialog, Qt.Key.Key_Return)


def test_cancel_while_the_voice_is_fitted_keeps_nothing(qtbot, monkeypatch, window, tmp_path,
                                                        hear_from):
    import threading

    from ui.qt import Qt

    readings(install(monkeypatch, Plan(*["right"] * 20)))
    release, started = threading.Event(), threading.Event()

    def slow_estimate(pairs, **_):
        started.set()
        release.wait(10)
        return enrolment.Estimate(Transform(np.tile(np.eye(DIM), (STREAMS, 1, 1)),
                                            np.zeros((STREAMS, DIM))), 2000, (), 1.0)

    monkeypatch.setattr(enrolment, "estimate", slow_estimate)
    row = settings(qtbot, window)
    dialog = open_enrolment(qtbot, row, tones(tmp_path, 20))
    read_all(qtbot, dialog)
    qtbot.waitUntil(started.is_set)
    assert dialog.progress.text().startswith("Fitting the recogniser to your voice")
    qtbot.mouseClick(dialog.cancel, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: row.dialog is None)
    release.set()
    qtbot.wait(400)  # the estimate's answer, dropped
    dialog._fitted(slow_estimate([]), None)  # and an answer that reaches the dialog all the same
    assert not voice_file(tmp_path).exists()
    assert row.line.text().startswith("Not taught your voice")


def test_readings_that_are_not_the_calls_keep_nothing_and_say_why(qtbot, monkeypatch, window,
                                                                 tmp_path, hear_from):
    """A tone for each call: heard as speech, but none aligns to its words in the real estimate
    (TooLittle): one line, and nothing kept."""
    needs_flite()
    readings(install(monkeypatch, Plan(*["right"] * 20)))  # each tone kept as a reading
    row = settings(qtbot, window)
    dialog = open_enrolment(qtbot, row, tones(tmp_path, 20))
    read_all(qtbot, dialog)
    qtbot.waitUntil(lambda: dialog.result not in (None, "fitting"), timeout=60000)
    said = dialog.outcome.text()
    assert said.startswith("Nothing was kept: 0 of 20 calls were heard as their words"), said
    from ui.qt import Qt

    qtbot.mouseClick(dialog.cancel, Qt.MouseButton.LeftButton)  # Close
    qtbot.waitUntil(lambda: row.dialog is None)
    assert not voice_file(tmp_path).exists()
    assert row.line.text().startswith("Not taught your voice")


def some_transform() -> Transform:
    rng = np.random.default_rng(3)
    A = np.eye(DIM)[None].repeat(STREAMS, 0) + rng.normal(0, 0.01, (STREAMS, DIM, DIM))
    return Transform(A, rng.normal(0, 0.1, (STREAMS, DIM)))


def play(qtbot, monkeypatch, window, tmp_path, heard="right"):
    from ui.speech.audio import wav_inputs

    plan = Plan(*[heard] * 80)  # a call not clear is heard twice
    install(monkeypatch, plan)
    screen = window.show_screen("practice").screen
    screen.spoken.inputs = wav_inputs(tones(tmp_path, 80))
    screen.spoken.set_enabled(True)
    screen.start(bundled().by_id(CALLED), automation=Automation.CALLS)
    owed = calls_owed(screen.round)
    play_aloud(qtbot, screen)
    return screen, owed, plan


def test_a_call_is_heard_with_the_trainee_s_voice(qtbot, monkeypatch, window, tmp_path):
    kept = voice_file(tmp_path)
    some_transform().write(kept)
    _screen, owed, plan = play(qtbot, monkeypatch, window, tmp_path)
    assert plan.voices == [kept] * len(owed) and owed


def teach_me_said(screen) -> list[int]:
    return [i for i, e in enumerate(screen.feedback.entries)
            if "Teach it your voice at this microphone" in e]


@pytest.mark.parametrize("taught", [False, True])
def test_calls_left_not_clear_suggest_teaching_the_voice_once(qtbot, monkeypatch, window, tmp_path,
                                                              taught):
    """In a room's noise most calls are not clear to the recogniser's own model, and a trainee's
    voice lifts them: after two calls left not clear, the feedback says so once, and how to
    teach it; not where a voice is taught for the microphone in use."""
    from ui.speech.calls import TEACH_ME, UNCLEAR_BEFORE_TEACHING

    if taught:
        some_transform().write(voice_file(tmp_path))
    screen, owed, plan = play(qtbot, monkeypatch, window, tmp_path, heard="unclear")
    assert len(owed) > UNCLEAR_BEFORE_TEACHING
    left = [i for i, e in enumerate(screen.feedback.entries)
            if "No call: the call was not clear" in e]
    assert len(left) == len(owed)
    asked = teach_me_said(screen)
    if taught:
        assert asked == [] and set(plan.voices) == {voice_file(tmp_path)}
    else:
        # the feedback's newest entry first: said once, with the second call left not clear
        assert len(asked) == 1 and left[-2] > asked[0] > left[-3]
        assert "File › Settings…, Teach it my voice…" in TEACH_ME


def test_the_next_trainee_at_a_shared_computer_is_told_too(qtbot, monkeypatch, window, tmp_path):
    """File › Switch trainee keeps the practice screen: each trainee is told once, at their own
    second call left not clear."""
    services = window.services
    play(qtbot, monkeypatch, window, tmp_path, heard="unclear")
    services.trainee = services.store.trainee(services.store.add_trainee("Sam Lee"))
    screen, _owed, _plan = play(qtbot, monkeypatch, window, tmp_path, heard="unclear")
    assert len(teach_me_said(screen)) == 1  # the round's feedback: Sam's


@pytest.mark.parametrize("damage", ["cut short", "a stream of 100000"])
def test_a_damaged_voice_is_said_once_and_the_calls_are_heard_without_it(
        qtbot, monkeypatch, window, tmp_path, damage, hear_from):
    kept = voice_file(tmp_path)
    some_transform().write(kept)
    text = kept.read_text(encoding="ascii")
    kept.write_text(text[: len(text) // 2] if damage == "cut short"
                    else "1\n3\n100000\n" + " 0" * 587, encoding="ascii")
    screen, owed, plan = play(qtbot, monkeypatch, window, tmp_path)
    assert plan.voices == [None] * len(owed) and owed
    said = "".join(screen.feedback.entries)
    assert said.count("Your voice for this microphone cannot be used (") == 1
    assert kept.name in said
    assert said.count("✔ Right") >= len(owed) and "✘" not in said
    row = settings(qtbot, window)
    assert row.line.text().startswith("Your voice for The computer's default cannot be used")
    assert row.line.toolTip().startswith("Your voice for this microphone cannot be used (")


def test_without_a_way_to_hear_calls_the_button_is_off_saying_why(qtbot, window):
    """No microphone on a test machine, and no --hear-from: the line says why."""
    from ui.speech.options import calls_problem

    problem = calls_problem()
    if problem is None:
        pytest.skip("this machine can hear calls (a microphone and the recogniser)")
    row = settings(qtbot, window)
    assert not row.teach.isEnabled()
    assert row.line.text() == f"Your voice cannot be taught here: {problem}"


def test_forget_my_voice_deletes_it_after_a_question(qtbot, window, tmp_path, hear_from):
    """The voice is made from the trainee's own: Forget my voice deletes it (No keeps it), and the
    line and the button say so."""
    from tests.support.screens import answer_with
    from ui.qt import Qt

    kept = voice_file(tmp_path)
    some_transform().write(kept)
    row = settings(qtbot, window)
    assert row.forget.isEnabled() and row.line.text().startswith("Taught your voice for")
    asked = answer_with("&No")
    qtbot.mouseClick(row.forget, Qt.MouseButton.LeftButton)
    assert asked and "Delete your voice for The computer's default?" in asked[0]
    assert kept.exists()
    answer_with("&Yes")
    qtbot.mouseClick(row.forget, Qt.MouseButton.LeftButton)
    assert not kept.exists() and not row.forget.isEnabled()
    assert row.line.text().startswith("Not taught your voice for The computer's default")


def test_a_voice_gone_between_its_check_and_its_reading_is_said_and_calls_are_heard(
        qtbot, monkeypatch, window, tmp_path):
    """Forgotten (or taught again) in the moment between the check of the file and the
    recogniser's reading of it: the call is heard with the model's own, said once."""
    import ui.speech.keeping

    kept = voice_file(tmp_path)
    some_transform().write(kept)
    checked = ui.speech.keeping.voice_for

    def then_forgotten(path):
        out = checked(path)
        kept.unlink(missing_ok=True)
        return out

    monkeypatch.setattr(ui.speech.keeping, "voice_for", then_forgotten)
    screen, owed, plan = play(qtbot, monkeypatch, window, tmp_path)
    assert plan.voices == [None] * len(owed) and owed
    said = "".join(screen.feedback.entries)
    assert said.count("Your voice for this microphone cannot be used (") == 1
    assert said.count("✔ Right") >= len(owed) and "✘" not in said


def test_a_trainee_folder_that_cannot_be_read_is_said_not_a_traceback(qtbot, monkeypatch, window,
                                                                     tmp_path, hear_from):
    """Path.exists raises where a folder may not be read (a school's share, another account's
    folder): the settings open and say so, and the calls are heard with the model's own."""
    import pathlib

    folder = voice_file(tmp_path).parent
    exists = pathlib.Path.exists

    def denied(self, *args, **kwargs):
        if self.parent == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return exists(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "exists", denied)
    row = settings(qtbot, window)
    assert row.line.text().startswith("Your voice for The computer's default cannot be used")
    assert "Permission denied" in row.line.toolTip()
    screen, owed, plan = play(qtbot, monkeypatch, window, tmp_path)
    assert plan.voices == [None] * len(owed) and owed
    assert "".join(screen.feedback.entries).count("cannot be read: Permission denied") == 1
