"""Teach it my voice: the trainee reads the enrolment's calls (trainer.speech.enrolment), one at a
time, each heard through the same path as a call (ui.speech.audio's input, ui.speech.hearing's
listener on its own thread, ui.speech.calls's level meter) and checked there (a reading that
cannot be its call's words is said and asked for again, never fitted: trainer.speech.readings);
from the readings kept the recogniser is fitted to their voice off the GUI thread, and the
transform kept in their folder for the microphone in use, written whole or not at all. File ›
Settings…'s line says whether the trainee has a voice for the chosen microphone, and when it was
taught; the practice screen hears their calls with it (`voice_for`), and with the model's own
where the file cannot be used, said in a line."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from trainer import GAME_NAMES, kept_voices, spoken, voice_enrolment
from ui.qt import (
    QApplication,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from ui.shell.theme import points
from ui.shell.working import in_background
from ui.speech.audio import MicrophoneInput, microphone_in_use, microphones, wav_inputs
from ui.speech.calls import CallMeter
from ui.speech.hearing import Hearing
from ui.speech.keeping import data_folder, kept_folder, voice_for, voice_path
from ui.speech.options import HEAR_FROM, calls_problem

#: the longest one reading is listened for (seconds)
TAKE_SECONDS = 10.0
#: what the dialog says while the recogniser is fitted
FITTING = "Fitting the recogniser to your voice (a few seconds)…"


def taught_on(path: Path) -> str:
    try:
        made = datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:  # gone or unreadable since it was read
        return "a day it no longer says"
    return f"{made:%d %b %Y} at {made:%H:%M}"


def _exists(path: Path) -> bool:
    """Whether there is a file at `path`; True where its folder cannot be read (there may be,
    and Forget my voice then says why it cannot delete it)."""
    try:
        return path.exists()
    except OSError:
        return True


class VoiceRow(QWidget):
    """File › Settings…'s line of the trainee's voice: whether there is one for the microphone
    chosen (`microphone()`: its id or None, and its name), when it was taught, and the button
    that teaches it; off, saying why, where calls cannot be heard or kept. Beside the buttons,
    every voice the trainee has kept, for any microphone, plugged in now or not (its name and
    when it was taught: a list that takes no line of its own, the dialog being as tall as a
    screen of 768 in large print), and Forget my voice… deletes the one chosen there (the
    chosen microphone's, at first)."""

    def __init__(self, window, microphone, parent=None):
        super().__init__(parent)
        self.microphone = microphone
        self.services = getattr(window, "services", None)
        self.dialog: EnrolDialog | None = None
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.line = QLabel()
        self.line.setWordWrap(True)
        self.line.setAccessibleName("Your voice")
        self.voices = QComboBox()
        self.voices.setAccessibleName("Your voices kept")
        self.voices.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.voices.setMinimumContentsLength(16)  # a long name is cut here, whole in its list
        self.voices.currentIndexChanged.connect(lambda *_: self._choosable())
        self.teach = QPushButton("Teach &it my voice…")
        self.teach.clicked.connect(self.open_dialog)
        self.forget = QPushButton("Forget m&y voice…")
        self.forget.setToolTip("Delete the voice shown beside it (it is made from your voice and "
                               "kept only on this computer)")
        self.forget.clicked.connect(self.forget_voice)
        row = QHBoxLayout()
        row.addWidget(self.teach)
        row.addWidget(self.voices, 1)
        row.addWidget(self.forget)
        column.addWidget(self.line)
        column.addLayout(row)
        self.refresh()

    def refresh(self) -> None:
        problem = calls_problem()
        if problem is None and data_folder(self.services) is None:
            problem = "No progress file is open, so no voice can be kept."
        used, name = self._in_use() if problem is None else ("", self.microphone()[1])
        path = None if problem else voice_path(self.services, used)
        self._list(path, name)
        self.teach.setEnabled(problem is None)
        self.teach.setToolTip(problem or "Read 20 calls aloud: your calls are then heard with "
                                         "the recogniser fitted to your voice")
        if problem is not None:
            self.line.setText(f"Your voice cannot be taught here: {problem}")
            return
        usable, why = voice_for(path)
        self.line.setToolTip(why or "")  # the file and its problem, whole
        if why is not None:
            self.line.setText(f"Your voice for {name} cannot be used (its file is damaged or "
                              "cannot be read): your calls are heard with the recogniser's own "
                              "model. Teach it again.")
        elif usable is None:
            self.line.setText(f"Not taught your voice for {name}: your calls are heard with the "
                              "recogniser's own model.")
        else:
            self.line.setText(f"Taught your voice for {name} on {taught_on(path)}: your calls "
                              "are heard with it.")

    def _in_use(self) -> tuple[str, str]:
        """The microphone recorded from: its id, and its name (the default's own, where the
        computer's default is chosen; the choice's words where none is connected)."""
        used = microphone_in_use(self.microphone()[0])
        return used, dict(microphones()).get(used) or self.microphone()[1]

    def _list(self, chosen: Path | None, name: str) -> None:
        """Every voice kept for the trainee, the chosen microphone's (`chosen`, named `name`)
        shown."""
        self.voices.clear()
        self.voices.setToolTip("Each voice kept for you on this computer, by microphone: Forget "
                               "my voice… deletes the one shown")
        folder = kept_folder(self.services)
        try:
            kept = kept_voices.kept_voices(folder) if folder is not None else []
        except OSError as e:  # the folder cannot be read: the line above says so for the chosen
            kept = []
            self.voices.setToolTip(f"Your voices cannot be listed ({e.strerror or e}).")
        if chosen is not None and not any(v.path == chosen for v in kept) and _exists(chosen):
            kept.insert(0, kept_voices.KeptVoice(chosen, "", 0.0))  # there, though unreadable
        for voice in kept:
            this = voice.path == chosen
            called = name if this or not voice.microphone else voice.microphone
            when = taught_on(voice.path)
            self.voices.addItem(f"{called}, taught on {when}" + (" (the microphone chosen)"
                                                                 if this else ""),
                                (voice.path, called))
            if this:
                self.voices.setCurrentIndex(self.voices.count() - 1)
        if chosen is None or not any(v.path == chosen for v in kept):
            self.voices.setCurrentIndex(-1)  # none for this microphone: another is chosen by hand
            self.voices.setPlaceholderText(
                f"{len(kept)} kept for another microphone: choose one" if len(kept) != 1 else
                "One kept for another microphone: choose it")
        self.voices.setVisible(self.voices.count() > 0)
        self._choosable()

    def _choosable(self) -> None:
        self.forget.setEnabled(self.voices.currentIndex() >= 0)

    def forget_voice(self) -> None:
        """Delete the voice selected (the chosen microphone's, or any other kept), after a
        question."""
        if self.voices.currentIndex() < 0:
            return
        path, name = self.voices.currentData()
        no, yes = QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes
        box = QMessageBox(QMessageBox.Icon.Question, "Forget your voice",
                          f"Delete your voice for {name}? Your calls at that microphone are then "
                          "heard with the recogniser's own model until it is taught again.",
                          yes | no, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a microphone's name is never markup
        box.setDefaultButton(no)
        if box.exec() == yes:
            try:
                kept_voices.forget(path)
            except OSError as e:
                self.refresh()
                self.line.setText(f"Your voice was not deleted: {e.strerror or e} ({path}).")
                return
        self.refresh()

    def open_dialog(self) -> None:
        """The enrolment, over the settings (window-modal); the line again once it closes."""
        used, name = self._in_use()
        path = voice_path(self.services, used)
        self.dialog = EnrolDialog(self.window(), path, self.microphone()[0],
                                  self.services.trainee.name, microphone_name=name)
        self.dialog.finished.connect(self._closed)
        self.dialog.open()

    def _closed(self) -> None:
        self.dialog.deleteLater()
        self.dialog = None
        self.refresh()


class EnrolDialog(QDialog):
    """The enrolment's calls read one at a time, then the estimate; `path`, where the transform
    is kept. Each reading comes from `inputs()` (the microphone chosen, or --hear-from's files);
    Cancel, at any point, keeps nothing."""

    def __init__(self, parent, path: Path, microphone: str | None, trainee: str,
                 microphone_name: str = ""):
        super().__init__(parent)
        self.path = path
        self.microphone_name = microphone_name
        self.setWindowTitle(f"Teach it my voice: {trainee}")
        self.prompts = voice_enrolment.prompts()
        self.takes: list[bytes | None] = [None] * len(self.prompts)
        self.at = 0
        self.hearing: Hearing | None = None
        self.cancelled = False
        self.result: str | None = None  # "kept", or the line that said why not
        files = QApplication.instance().property(HEAR_FROM)
        self.inputs = wav_inputs(files, paced=True) if files else (
            lambda: MicrophoneInput(microphone))

        column = QVBoxLayout(self)
        intro = QLabel("Read each call aloud as you would call it at the table, where you "
                       "practise. Your voice is kept on this computer, for this microphone only; "
                       "nothing is sent anywhere.")
        intro.setWordWrap(True)
        self.progress = QLabel()
        self.progress.setAccessibleName("Progress")
        self.words = QLabel()
        self.words.setObjectName("enrolPrompt")
        self.words.setWordWrap(True)
        self.words.setStyleSheet(f"font-size: {points(22)}; font-weight: 600;")
        self.words.setAccessibleName("Read aloud")
        self.words.ensurePolished()  # its style sheet's font, measured: room for two lines
        self.words.setMinimumHeight(2 * self.words.fontMetrics().lineSpacing() + 8)
        self.call = QLabel()  # the call, as the engine words it, and its game
        self.meter = CallMeter()
        self.meter.line.setWordWrap(True)  # why a reading was not kept takes two lines
        self.meter.show()
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.outcome = QLabel()  # what the fitting came to
        self.outcome.setWordWrap(True)
        self.outcome.hide()
        self.again = QPushButton("&Again")
        self.again.setToolTip("Read this call again (Alt+A)")
        self.again.clicked.connect(self.listen)
        self.next = QPushButton("&Next")
        self.next.setToolTip("Keep this reading and go on (Enter)")
        self.next.setDefault(True)
        self.next.clicked.connect(self.go_on)
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Stop and keep nothing (Esc)")
        self.cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.again, self.next, self.cancel):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        self.next.setDefault(True)
        for w in (intro, self.progress, self.words, self.call, self.meter, self.busy,
                  self.outcome):
            column.addWidget(w)
        column.addStretch(1)
        column.addLayout(buttons)
        self.setMinimumWidth(720)
        self.show_prompt()

    def showEvent(self, event) -> None:
        """Listening starts once the dialog is up (from the event loop: `inputs` may be set
        before it, as a test sets the seam's files)."""
        super().showEvent(event)
        if self.hearing is None and self.result is None and self.takes[self.at] is None:
            QTimer.singleShot(0, self, self._first)

    def _first(self) -> None:
        if self.hearing is None and self.result is None and not self.cancelled:
            self.listen()

    def show_prompt(self) -> None:
        p = self.prompts[self.at]
        self.progress.setText(f"{self.at + 1} of {len(self.prompts)}")
        self.words.setText(p.words[:1].upper() + p.words[1:])
        self.call.setText(f"{GAME_NAMES[p.game]}: {p.call.text}")
        self.next.setText("&Finish" if self.at == len(self.prompts) - 1 else "&Next")
        self.next.setEnabled(False)
        self._fit_height()

    def _fit_height(self) -> None:
        """Tall enough for the prompt's wrapped lines (a dialog's least height counts one)."""
        needed = self.layout().heightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)

    def listen(self) -> None:
        """Listen for the call shown (again, from the start)."""
        self._stop()
        p = self.prompts[self.at]
        self.takes[self.at] = None
        self.next.setEnabled(False)
        self.hearing = Hearing(lambda: spoken.engine().Reading(p), self.inputs(),
                               seconds=TAKE_SECONDS, parent=self)
        self.hearing.level.connect(self.meter.show_level)
        self.hearing.verdict.connect(self._heard)
        self.hearing.failed.connect(self._failed)
        self.meter.say("Listening: read the call aloud…", True)
        self.hearing.start()

    def _stop(self) -> None:
        if self.hearing is not None:
            self.hearing.stop()  # deleted once its thread has ended
        self.hearing = None

    def _heard(self, verdict) -> None:
        if self.hearing is None or self.sender() is not self.hearing:
            return  # a reading stopped since (Again, Cancel)
        sound = self.hearing.sound
        self.hearing = None
        if verdict.check.refused is not None:  # asked for again: nothing of it is kept
            self.meter.say(f"{verdict.check.refused} Press Again to read it again.", False)
            self._fit_height()
            self.again.setFocus()
            return
        self.takes[self.at] = sound
        seconds = verdict.speech_end - (verdict.speech_start or 0.0)
        self.meter.say(f"Heard {seconds:.1f} s of speech: Next, or Again to read it again.", False)
        self.next.setEnabled(True)
        self.next.setFocus()

    def _failed(self, text: str) -> None:
        if self.sender() is not self.hearing:
            return
        self.hearing = None
        self.meter.say(f"Not listening: {text}", False)

    def go_on(self) -> None:
        """Keep this reading: the next call, or after the last the estimate."""
        if self.takes[self.at] is None or self.result is not None:
            return
        if self.at + 1 < len(self.prompts):
            self.at += 1
            self.show_prompt()
            self.listen()
            return
        self.fit()

    def fit(self) -> None:
        """The transform estimated from the readings, off the GUI thread."""
        self.result = "fitting"
        self.again.setEnabled(False)
        self.next.setEnabled(False)
        self.meter.hide()
        self.busy.show()
        self.progress.setText(FITTING)
        pairs = [(take, p.words) for take, p in zip(self.takes, self.prompts, strict=True)]

        def work():
            return voice_enrolment.estimate(
                [(voice_enrolment.speech_of(pcm), words) for pcm, words in pairs])

        in_background(self, work, self._fitted)

    def _fitted(self, found, error: BaseException | None) -> None:
        if self.cancelled:
            return  # Cancel: nothing kept
        self.busy.hide()
        if isinstance(error, voice_enrolment.TooLittle):
            said = (f"Nothing was kept: {error}. Read them again, closer to the microphone or "
                    "where it is quieter.")
        elif error is not None:
            said = (f"Nothing was kept: the recogniser could not be fitted to your voice "
                    f"({type(error).__name__}: {error}).")
        else:
            try:
                kept_voices.keep(found.transform, self.path, self.microphone_name)
            except OSError as e:
                said = f"Nothing was kept: {self.path} cannot be written ({e.strerror or e})."
            else:
                used = len(self.prompts) - len(found.left_out)
                said = (f"Your voice is kept ({used} of {len(self.prompts)} calls used): your "
                        "calls at this microphone are now heard with it.")
                self.result = "kept"
        if self.result != "kept":
            self.result = said
        self.outcome.setObjectName("ok" if self.result == "kept" else "wrong")
        self.outcome.setText(said)
        self.outcome.style().polish(self.outcome)  # its colour, by its name
        self.outcome.show()
        self._fit_height()
        for w in (self.progress, self.words, self.call, self.again, self.next):
            w.hide()
        self.cancel.setText("Close")
        self.cancel.setToolTip("")
        self.cancel.setFocus()

    def reject(self) -> None:
        """Cancel (or Close once done): a reading or a fitting under way is dropped, nothing
        kept."""
        if self.result != "kept":
            self.cancelled = True
        self._stop()
        super().reject()
