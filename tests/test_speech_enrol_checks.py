"""The enrolment's loose ends (trainer.speech.enrolment, trainer.speech.readings,
trainer.speech.voices, ui.speech.enrolling):

- the prompts read include "No more bets" and a no roll, each prompt saying why it is there, and
  every game has its prompts;
- a reading that cannot be its prompt's words (no speech, a cough, another prompt's words) is
  refused by the check, and the dialog says so and asks for that prompt again before Next;
  nothing of a refused reading reaches the fit; a good reading is kept;
- every voice the trainee keeps is listed in File › Settings… with its microphone and date, and
  Forget my voice… deletes the one selected, that of a microphone no longer plugged in too;
- two runs of the accuracy benchmark at once write their voices in folders of their own.

The check's tests hear flite's voice with the real recogniser (skipped, saying why, where either
is missing); the dialog's own logic is held with the stand-in recogniser of
tests/support/speech_fake.py and the planned checks of tests/support/reading_fake.py."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.support.flite import needs_flite, padded, say
from tests.support.reading_fake import readings
from tests.support.screens import answer_with, rosa_window, settings_shown
from tests.support.speech_fake import Plan, install, tone_wav
from trainer import games
from trainer.speech import SAMPLE_RATE, enrolment, voices
from trainer.speech.enrolment import DIM, STREAMS, Transform
from trainer.vocabulary import Do

SILENCE = 0.4  # seconds of silence around each reading


# -- the prompts --------------------------------------------------------------------------------

def test_the_prompts_read_no_more_bets_and_a_no_roll_and_say_why_each_is_there():
    prompts = enrolment.prompts()
    assert len(prompts) == enrolment.CALLS == len({p.words for p in prompts})
    first, second = prompts[:2]
    assert first.words == "no more bets" and first.call.do is Do.NO_MORE_BETS
    assert second.words.startswith("no roll ") and second.call.do is Do.NO_ROLL
    for p in prompts:
        assert p.why, p
    # each later prompt brings words the ones before it did not have, and says which
    for n, p in enumerate(prompts[2:], start=2):
        before = {w for q in prompts[:n] for w in q.words.split()}
        new = [w for w in p.words.split() if w not in before]
        assert p.why == "new words: " + ", ".join(dict.fromkeys(new)), p


def test_every_game_has_its_prompts():
    prompts = enrolment.prompts()
    by_game = {g: sum(p.game == g for p in prompts) for g in games.GAME_IDS}
    assert all(n >= 2 for n in by_game.values()), by_game


# -- the check of a reading, with the real recogniser --------------------------------------------

def prompt_of(words: str) -> enrolment.Prompt:
    return next(p for p in enrolment.prompts() if p.words == words)


def reading_of(prompt, pcm: bytes):
    """A reading fed as a microphone gives it (0.1 s blocks), and its verdict."""
    from trainer.speech import Reading

    reading = Reading(prompt)
    step = SAMPLE_RATE // 10 * 2
    for at in range(0, len(pcm), step):
        if (verdict := reading.feed(pcm[at:at + step])) is not None:
            return verdict
    return reading.finish()


def padded_pcm(words: str, folder) -> bytes:
    from trainer.speech.audio import read_wav

    out = folder / f"{words}.wav"
    padded(say(words, "slt", folder), out, SILENCE)
    return read_wav(out)


def cough_pcm() -> bytes:
    """0.35 s of noise with a cough's quick rise and slower fall, in silence."""
    n = int(0.35 * SAMPLE_RATE)
    t = np.arange(n) / n
    x = np.random.default_rng(5).standard_normal(n) * np.minimum(t / 0.1, 1) * np.exp(-3 * t)
    x = np.concatenate([np.zeros(int(SILENCE * SAMPLE_RATE)), 0.3 * x / np.abs(x).max(),
                        np.zeros(int(SILENCE * SAMPLE_RATE))])
    return (x * 32767).round().astype("<i2").tobytes()


@pytest.mark.parametrize(("prompt", "read"), [
    ("no more bets", "no more bets"),
    ("third down on the twenty one", "third down on the twenty one"),
    ("no more bets", "no roll die off the table"),  # another prompt's words
    ("no match ace high", "third down on the twenty one"),
    ("no more bets", "a cough"),
    ("no more bets", "silence"),
])
def test_a_reading_is_kept_only_where_it_can_be_its_prompt_s_words(tmp_path, prompt, read):
    needs_flite()
    pcm = {"a cough": cough_pcm, "silence": lambda: bytes(2 * SAMPLE_RATE)}.get(
        read, lambda: padded_pcm(read, tmp_path))()
    verdict = reading_of(prompt_of(prompt), pcm)
    if read == prompt:
        assert verdict.check.refused is None, verdict.check
        return
    refused = verdict.check.refused
    assert refused is not None and refused.startswith("Not kept: "), verdict.check
    if read == "silence":
        assert "no speech was heard" in refused
    elif read != "a cough":  # (a cough may be too short, or not sound like the words)
        assert "does not sound like these words" in refused


def test_a_grammar_of_a_prompt_s_words_alone_hears_those_words_only(tmp_path):
    """The check's forced decode: the words themselves end the grammar; other words do not."""
    needs_flite()
    from trainer.speech.recogniser import recogniser

    r = recogniser()
    grammar = r.alone("no more bets")
    assert r.decode(grammar, padded_pcm("no more bets", tmp_path)).words == "no more bets"
    assert r.syllables("no more bets") == 3 and r.syllables("no roll die off the table") == 7


# -- the dialog, asking for a refused reading again ----------------------------------------------


@pytest.fixture
def window(qtbot, tmp_path):
    with rosa_window(qtbot, tmp_path) as w:
        yield w


def open_enrolment(qtbot, window, files):
    from ui.qt import Qt
    from ui.speech.audio import wav_inputs

    row = settings_shown(qtbot, window).voice
    assert row.teach.isEnabled(), row.line.text()
    qtbot.mouseClick(row.teach, Qt.MouseButton.LeftButton)
    dialog = row.dialog
    dialog.inputs = wav_inputs(files)  # before the first reading starts (from the event loop)
    qtbot.waitExposed(dialog)
    return row, dialog


def test_a_refused_reading_is_said_and_asked_for_again_and_never_fitted(
        qtbot, monkeypatch, window, tmp_path, hear_from):
    """The first reading refused (by plan): the line says why and asks for it again; Next stays
    off and Enter does nothing; Again reads it again, and once kept Next goes on. The fit gets the
    reading kept, never the refused one, and the voice is kept with its microphone's name."""
    from ui.qt import Qt

    why = "Not kept: 0.3 s of sound is too short for these words. Read the whole call."
    readings(install(monkeypatch, Plan(*["right"] * 21)), why)
    short, long_ = tmp_path / "short.wav", tmp_path / "long.wav"
    tone_wav(short, quiet=0.3, loud=0.3, after=0.5)
    tone_wav(long_, quiet=0.3, loud=0.9, after=0.5)
    fitted = []

    def estimate(pairs, **_):
        fitted.extend(pairs)
        return enrolment.Estimate(Transform(np.tile(np.eye(DIM), (STREAMS, 1, 1)),
                                            np.zeros((STREAMS, DIM))), 2000, (), 1.0)

    monkeypatch.setattr(enrolment, "estimate", estimate)
    row, dialog = open_enrolment(qtbot, window, [short] + [long_] * 20)
    qtbot.waitUntil(lambda: dialog.meter.line.text().startswith("Not kept"), timeout=15000)
    assert dialog.meter.line.text() == f"{why} Press Again to read it again."
    assert not dialog.next.isEnabled() and dialog.takes[0] is None
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert dialog.progress.text() == "1 of 20"
    qtbot.keyClick(dialog, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)  # Again
    for _ in range(20):
        qtbot.waitUntil(dialog.next.isEnabled, timeout=15000)
        qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.result not in (None, "fitting"), timeout=15000)
    assert dialog.result == "kept", dialog.outcome.text()
    # every reading fitted is the 0.9 s tone's speech (with the endpointer's margins), none the
    # 0.3 s one's
    assert len(fitted) == 20
    assert all(len(pcm) / 2 / SAMPLE_RATE > 0.9 for pcm, _ in fitted), [
        len(pcm) / 2 / SAMPLE_RATE for pcm, _ in fitted]
    kept = voices.kept_voices(enrolment.kept_at(tmp_path / "data", 1, "").parent)
    assert [v.microphone for v in kept] == ["The computer's default"]
    qtbot.mouseClick(dialog.cancel, Qt.MouseButton.LeftButton)  # Close
    qtbot.waitUntil(lambda: row.dialog is None)


def test_the_dialog_refuses_a_cough_and_keeps_the_call_read_again(qtbot, window, tmp_path,
                                                                 hear_from):
    """The whole chain, with the real recogniser: a cough for "No more bets" is refused, saying
    why; read again by flite's slt it is kept and Next goes on."""
    needs_flite()
    import wave

    from ui.qt import Qt

    cough = tmp_path / "cough.wav"
    with wave.open(str(cough), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(cough_pcm())
    good = tmp_path / "good.wav"
    padded(say("no more bets", "slt", tmp_path), good, SILENCE)
    row, dialog = open_enrolment(qtbot, window, [cough, good])
    assert dialog.words.text() == "No more bets"
    qtbot.waitUntil(lambda: dialog.meter.line.text().startswith("Not kept"), timeout=15000)
    assert dialog.meter.line.text().endswith(" Press Again to read it again.")
    assert not dialog.next.isEnabled()
    qtbot.mouseClick(dialog.again, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(dialog.next.isEnabled, timeout=15000)
    assert dialog.meter.line.text().startswith("Heard ")
    qtbot.mouseClick(dialog.next, Qt.MouseButton.LeftButton)
    assert dialog.progress.text() == "2 of 20"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: row.dialog is None)
    assert not (tmp_path / "data" / "spoken calls").exists()


# -- every voice kept, listed and forgotten ------------------------------------------------------

def some_transform() -> Transform:
    rng = np.random.default_rng(3)
    A = np.eye(DIM)[None].repeat(STREAMS, 0) + rng.normal(0, 0.01, (STREAMS, DIM, DIM))
    return Transform(A, rng.normal(0, 0.1, (STREAMS, DIM)))


def test_each_voice_kept_is_listed_with_its_microphone_and_forgotten_alone(tmp_path):
    import os

    folder = tmp_path / "trainee 1"
    yeti = enrolment.path(folder, "alsa_input.usb-Yeti-00.analog-stereo")
    old = enrolment.path(folder, "{0.0.1.00000000}.{4f2c}")
    voices.keep(some_transform(), yeti, "Yeti Stereo Microphone")
    voices.keep(some_transform(), old, "Old USB Mic")
    os.utime(old, (1_700_000_000, 1_700_000_000))
    bare = enrolment.path(folder, "hw:1,0")  # kept before names were: the file's name
    some_transform().write(bare)
    os.utime(bare, (1_600_000_000, 1_600_000_000))
    kept = voices.kept_voices(folder)
    assert [(v.path, v.microphone) for v in kept] == [
        (yeti, "Yeti Stereo Microphone"), (old, "Old USB Mic"), (bare, "hw_1_0")]
    voices.forget(old)
    assert [v.path for v in voices.kept_voices(folder)] == [yeti, bare]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [yeti.name, yeti.with_suffix(".microphone").name, bare.name])
    assert voices.kept_voices(tmp_path / "nobody") == []


def test_a_microphone_s_name_that_is_not_one_is_never_shown_as_it_is(tmp_path):
    """The name beside a voice is the trainee's own file: a first line only, printable, capped;
    past the cap (or not a file), the voice is named by its file."""
    folder = tmp_path / "trainee 1"
    a = enrolment.path(folder, "a")
    voices.keep(some_transform(), a, "Desk mic\x1b[31m\nrm -rf /")
    assert voices.named(a) == "Desk mic[31m"
    a.with_suffix(".microphone").write_bytes(b"x" * (voices.NAME_CAP + 1))
    assert voices.named(a) == "a"
    a.with_suffix(".microphone").unlink()
    a.with_suffix(".microphone").mkdir()
    assert voices.named(a) == "a"


def test_settings_list_every_voice_and_forget_one_of_a_microphone_not_plugged_in(
        qtbot, window, tmp_path, hear_from):
    from ui.qt import Qt

    chosen = enrolment.kept_at(tmp_path / "data", 1, "")  # the test machine's: no microphone
    gone = enrolment.kept_at(tmp_path / "data", 1, "usb-old-mic")
    voices.keep(some_transform(), chosen, "The computer's default")
    voices.keep(some_transform(), gone, "Old USB Mic")
    row = settings_shown(qtbot, window).voice
    lines = [row.voices.itemText(n) for n in range(row.voices.count())]
    assert len(lines) == 2 and row.voices.isVisible()
    assert any(t.startswith("The computer's default, taught on ") and
               t.endswith(" (the microphone chosen)") for t in lines), lines
    assert any(t.startswith("Old USB Mic, taught on ") for t in lines), lines
    assert row.voices.currentText().endswith("(the microphone chosen)")
    old = next(n for n, t in enumerate(lines) if t.startswith("Old USB Mic"))
    row.voices.setCurrentIndex(old)
    asked = answer_with("&Yes")
    qtbot.mouseClick(row.forget, Qt.MouseButton.LeftButton)
    assert asked and "Delete your voice for Old USB Mic?" in asked[0]
    assert not gone.exists() and not gone.with_suffix(".microphone").exists()
    assert chosen.exists()
    assert row.voices.count() == 1 and row.line.text().startswith("Taught your voice for")
    # the chosen one, shown again, forgotten too: the list goes, and Forget is off
    answer_with("&Yes")
    qtbot.mouseClick(row.forget, Qt.MouseButton.LeftButton)
    assert not chosen.exists() and row.voices.count() == 0
    assert not row.voices.isVisible() and not row.forget.isEnabled()


# -- the benchmark's runs at once ----------------------------------------------------------------

def test_two_benchmark_runs_at_once_write_their_voices_apart(tmp_path, monkeypatch):
    """Each run of speech_accuracy.py --enrol writes its voices' transforms in a folder of its
    own (two at once wrote one file's temporary name, and one crashed), removed at its end."""
    needs_flite()
    import tests.benchmarks.speech_accuracy as bench

    monkeypatch.setattr(bench, "CACHE", tmp_path)
    for p in enrolment.prompts(2):  # the voice's audio made first (flite's cache is the runs')
        say(p.words, "slt", tmp_path)
    both = threading.Barrier(2)

    def estimate(pairs, **_):
        both.wait(10)  # the two runs write at the same moment
        return enrolment.Estimate(some_transform(), 2000, (), 1.0)

    monkeypatch.setattr(enrolment, "estimate", estimate)
    written, failed = [], []

    def run():
        try:
            with bench.run_folder() as mine:
                path = bench.enrol("slt", 2, None, [], 0.1, 0.1, mine)
                written.append((mine, path, Transform.read(path)))
                both.wait(10)  # both written before either run ends
        except Exception as e:  # said by the assertion below
            failed.append(e)

    runs = [threading.Thread(target=run) for _ in range(2)]
    for t in runs:
        t.start()
    for t in runs:
        t.join(60)
    assert not failed, failed
    (a, path_a, _), (b, path_b, _) = written
    assert a != b and path_a.parent == a and path_b.parent == b
    assert not a.exists() and not b.exists()


# -- kept voices: what a reviewer found -----------------------------------------------------------

def test_a_folder_that_cannot_be_listed_is_said_not_taken_for_one_without_voices(tmp_path,
                                                                                  monkeypatch):
    """kept_voices raises where the folder cannot be listed (the settings say the voices cannot be
    listed), where a glob said nothing and the list was merely empty."""
    import os

    folder = tmp_path / "trainee 1"
    voices.keep(some_transform(), enrolment.path(folder, "a"), "Desk mic")
    listing = os.scandir

    def refused(path="."):
        if os.fspath(path) == os.fspath(folder):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listing(path)

    monkeypatch.setattr(os, "scandir", refused)
    with pytest.raises(PermissionError):
        voices.kept_voices(folder)


def test_a_voice_that_cannot_be_written_leaves_no_name_behind(tmp_path, monkeypatch):
    """The microphone's name is written first: a transform whose writing fails takes it away
    (never listed, it could never be forgotten), but not a name kept from before."""
    folder = tmp_path / "trainee 1"
    a = enrolment.path(folder, "a")

    def full(self, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Transform, "write", full)
    with pytest.raises(OSError):
        voices.keep(some_transform(), a, "Desk mic")
    assert not folder.exists() or list(folder.iterdir()) == []
    monkeypatch.undo()
    voices.keep(some_transform(), a, "Desk mic")
    monkeypatch.setattr(Transform, "write", full)
    with pytest.raises(OSError):
        voices.keep(some_transform(), a, "Desk mic, renamed")
    assert a.with_suffix(".microphone").exists()


def test_forget_starts_on_no_voice_when_the_chosen_microphone_has_none_and_names_it_plainly(
        qtbot, window, tmp_path, hear_from):
    """Only another microphone's voice kept: the list shows it, but Forget waits until the
    trainee picks it; its question shows the microphone's name as the text it is, never as
    markup (the name is the trainee's own file)."""
    from ui.qt import Qt

    gone = enrolment.kept_at(tmp_path / "data", 1, "usb-old-mic")
    voices.keep(some_transform(), gone, "<b>Old</b> USB Mic")
    row = settings_shown(qtbot, window).voice
    assert row.voices.isVisible() and row.voices.count() == 1
    assert row.voices.currentIndex() == -1 and not row.forget.isEnabled()
    assert row.voices.placeholderText() == "One kept for another microphone: choose it"
    row.voices.setCurrentIndex(0)
    assert row.forget.isEnabled()
    seen = answer_with("&No", lambda box: (box.text(), box.textFormat()))
    qtbot.mouseClick(row.forget, Qt.MouseButton.LeftButton)
    assert seen and seen[0][0].startswith("Delete your voice for <b>Old</b> USB Mic?")
    assert seen[0][1] == Qt.TextFormat.PlainText
    assert gone.exists()
