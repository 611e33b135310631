"""Keep my spoken calls in the real window: asked in File › Settings… (off by default, saying what
is kept, where, and that nothing is sent), each call heard in practice then kept as the sound the
listener was fed beside the call owed, in the trainee's folder of the data folder; none without
consent, none in an exam; the folder opened, and every call deleted. The sound comes through the
microphone's path from WAV files made here; the listener is the stand-in of
tests/support/speech_fake.py (it hears what the test plans), so that these tests hold the
window's own logic."""

from __future__ import annotations

import json
import wave

import pytest

from tests.support.library import bundled
from tests.support.practice_screen import calls_owed, play_aloud
from tests.support.screens import answer_with, rosa_window, settings_shown
from tests.support.speech_fake import Plan, install, tone_wav
from trainer.procedure import Automation
from trainer.speech import kept

CALLED = "ph-no-roll-calls"  # Props & Hops with no rolls and calls: the trainee calls every throw


@pytest.fixture
def window(qtbot, tmp_path):
    with rosa_window(qtbot, tmp_path) as w:
        yield w


@pytest.fixture
def tone(tmp_path):
    path = tmp_path / "call.wav"
    tone_wav(path, quiet=0.3, loud=0.6, after=0.5)
    return path


def frames(path) -> bytes:
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16_000)
        return w.readframes(w.getnframes())


def settings(qtbot, window):
    return settings_shown(qtbot, window).kept_calls


def play(qtbot, monkeypatch, window, tone, heard="right"):
    """A round of Props & Hops called aloud in the window's practice screen: each call the sound
    of `tone`, heard as `heard`. The calls owed."""
    from ui.speech.audio import wav_inputs

    plan = Plan(*[heard] * 40)
    install(monkeypatch, plan)
    screen = window.show_screen("practice").screen
    screen.spoken.inputs = wav_inputs([tone] * 40)
    screen.spoken.set_enabled(True)
    screen.start(bundled().by_id(CALLED), automation=Automation.CALLS)
    owed = calls_owed(screen.round)
    play_aloud(qtbot, screen)
    assert len(plan.made) == len(owed) > 0
    return screen, owed, plan


def test_kept_only_once_the_trainee_says_yes_in_the_settings(qtbot, monkeypatch, window, tone,
                                                              tmp_path):
    from ui.qt import Qt

    where = tmp_path / "data" / "spoken calls" / "trainee 1"
    row = settings(qtbot, window)
    assert not row.keep.isChecked()  # off until asked
    # the row whole, its note's lines uncut, below the dialog's lines that wrap (its intro)
    assert row.height() >= row.minimumSizeHint().height()
    assert row.note.height() >= row.note.minimumSizeHint().height()
    said = row.note.text()
    assert row.folder.text() == str(where) and row.folder.isVisible()
    assert "Nothing is sent anywhere." in said and "100 MiB" in said and "never in an exam" in said
    assert row.count.text() == "None kept" and not row.delete.isEnabled()
    play(qtbot, monkeypatch, window, tone)
    assert not where.exists()  # no consent: nothing kept

    qtbot.mouseClick(row.keep, Qt.MouseButton.LeftButton)
    assert row.keep.isChecked() and kept.consented(where)
    _screen, owed, plan = play(qtbot, monkeypatch, window, tone)
    records = sorted(where.glob("*.json"))
    records.remove(where / kept.CONSENT)
    assert len(records) == len(owed)
    tone_frames = frames(tone)
    for path in records:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert (record["game"], record["verdict"], record["trainee"]) == (
            "props-and-hops", "right", "Rosa Diaz")
        assert record["heard"] == record["expected"]
        # what the listener was fed: the file from its start to the verdict, the speech whole
        # (it ends 0.9 s in) and the quiet block after it that ended it
        sound = frames(path.with_suffix(".wav"))
        assert tone_frames.startswith(sound) and 0.9 < len(sound) / 32_000 < len(tone_frames) / 32_000
    # a call kept for each call the listeners were told was owed (file names order by the
    # second, so compared as a set of calls)
    assert sorted(json.loads(p.read_text(encoding="utf-8"))["expected"] for p in records) == \
        sorted(expected for _game, expected in plan.made)

    row = settings(qtbot, window)
    assert row.keep.isChecked() and row.count.text().startswith(f"{len(owed)} kept (")
    opened = []
    monkeypatch.setattr("ui.speech.keeping.QDesktopServices.openUrl", opened.append)
    qtbot.mouseClick(row.open, Qt.MouseButton.LeftButton)
    assert [u.toLocalFile() for u in opened] == [str(where)]
    asked = answer_with("&Yes")
    qtbot.mouseClick(row.delete, Qt.MouseButton.LeftButton)
    assert asked and f"Delete the {len(owed)} spoken calls kept for you" in asked[0]
    assert [p.name for p in where.iterdir()] == [kept.CONSENT]  # gone; the consent stays
    assert row.count.text() == "None kept" and row.keep.isChecked()

    qtbot.mouseClick(row.keep, Qt.MouseButton.LeftButton)  # no longer
    assert not kept.consented(where)
    play(qtbot, monkeypatch, window, tone)
    assert list(where.iterdir()) == []


def test_a_call_that_cannot_be_kept_is_said_once_and_the_round_goes_on(qtbot, monkeypatch,
                                                                       window, tone, tmp_path):
    """Past the cap: no call is kept, none deleted, the trainee is told once, and every call
    is graded as without keeping."""
    where = tmp_path / "data" / "spoken calls" / "trainee 1"
    kept.consent(where, True, "Rosa Diaz")
    monkeypatch.setattr(kept, "CAP", 0)
    screen, owed, _plan = play(qtbot, monkeypatch, window, tone)
    said = "".join(screen.feedback.entries)  # the panel's entries, the round's first to last
    assert said.count("The spoken calls kept for Rosa Diaz have reached 0 MiB: no more are kept "
                      "until some are deleted (File › Settings…).") == 1
    assert [p.name for p in where.iterdir()] == [kept.CONSENT]
    assert said.count("✔ Right") >= len(owed) and "✘" not in said


def test_nothing_is_kept_in_an_exam(qtbot, monkeypatch, window, tone, tmp_path):
    """An exam never listens (tests/test_speech_ui.py); were a call heard on its screen, it would
    not be kept either."""
    from trainer import spoken
    from trainer.progress import Mode
    from ui.speech.keeping import keep_heard

    where = tmp_path / "data" / "spoken calls" / "trainee 1"
    kept.consent(where, True, "Rosa Diaz")
    screen, _owed, _plan = play(qtbot, monkeypatch, window, tone)
    before = sorted(where.iterdir())
    screen.start(bundled().by_id(CALLED), automation=Automation.CALLS)
    owed = None
    for _ in range(40):
        if (owed := spoken.due(screen.round)) is not None:
            break
        from tests.support.practice_screen import do_next

        do_next(qtbot, screen)
    assert owed is not None
    from tests.support.speech_fake import Verdict

    heard = Verdict("right", owed.expected, owed.expected, 0.3, 0.9, 0.0)
    screen.mode = Mode.EXAM
    assert keep_heard(screen, owed, heard, frames(tone), screen.round.scenario.game) is None
    assert sorted(where.iterdir()) == before
    screen.mode = Mode.PRACTICE
    assert keep_heard(screen, owed, heard, frames(tone), screen.round.scenario.game) is None
    assert len(sorted(where.iterdir())) == len(before) + 2  # the same call, out of an exam


def test_without_a_progress_file_no_calls_can_be_kept_and_it_says_so(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    class Trainee:
        id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False

    window = MainWindow(Services(None, Trainee()))
    qtbot.addWidget(window)
    row = settings(qtbot, window)
    assert not row.keep.isEnabled() and not row.delete.isEnabled()
    assert row.note.text() == "No progress file is open, so no spoken calls can be kept."
    window.close()


def test_a_file_in_memory_has_no_data_folder_and_keeps_no_calls(qtbot):
    """A progress file in memory (a demonstration's) has no folder beside it: nothing is kept,
    least of all in the folder the app was started from."""
    from trainer.progress import Store
    from ui.shell.services import Services
    from ui.speech.keeping import kept_folder

    store = Store.open(":memory:")
    trainee = store.trainee(store.add_trainee("Rosa Diaz"))
    assert kept_folder(Services(store, trainee)) is None
    store.close()


def test_a_folder_that_cannot_be_read_is_said_in_the_settings(qtbot, monkeypatch, window):
    """The kept calls' folder cannot be listed (its permissions, a disk gone): the settings say so
    in a line and offer nothing on it, never a traceback."""
    def unreadable(where):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(kept, "count", unreadable)
    row = settings(qtbot, window)
    assert row.count.text() == "The folder cannot be read (Permission denied)."
    assert not row.open.isEnabled() and not row.delete.isEnabled()


@pytest.mark.parametrize("large", [False, True], ids=["print", "large-print"])
def test_the_spoken_calls_row_lines_up_with_the_other_fields_and_is_whole(qtbot, window, large):
    """File › Settings…'s Spoken calls row starts and ends where the fields above it do (it ended
    6 px past them, across the column of Follow the school buttons), and in large print the
    dialog is as wide as its rows ask (it stayed 720 px wide, cutting the row's buttons and its
    note: 910 px asked)."""
    from ui.qt import QApplication, QPoint
    from ui.shell import theme
    from ui.shell.settings import SettingsDialog

    app = QApplication.instance()
    theme.apply(app, "light", large=large)
    try:
        dialog = SettingsDialog(window)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)

        def edges(widget):
            left = widget.mapTo(dialog, QPoint(0, 0)).x()
            return left, left + widget.width()

        fields = {edges(w) for w in (dialog.klass, dialog.theme, dialog.microphone)}
        assert len(fields) == 1
        row = dialog.kept_calls
        assert edges(row) in fields and edges(row.folder) in fields
        assert edges(row.delete)[1] == edges(row)[1]
        assert dialog.width() >= dialog.layout().minimumSize().width()
        for button in (row.keep, row.open, row.delete):  # each whole, not cut to fit
            assert button.width() >= button.sizeHint().width(), button.text()
        dialog.close()
    finally:
        theme.apply(app, "light")
        app.setStyleSheet("")
