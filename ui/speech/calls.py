"""Speak my calls, on the practice screen: when the trainee owes a call (trainer.spoken.due: the
dice at rest, for the throw's call), the screen listens, shows the level, and hands the verdict
to the call action's own path (PracticeScreen.call), where it is graded as a call chosen from
the action bar is. An unclear call is asked again once, then counts as no call. The time from
the dice at rest to the end of the call is kept with the round (`PracticeRound.call_speeds`).
A trainee who taught it their voice (ui.speech.enrolling) is heard with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from trainer import RequestError, spoken
from trainer.progress import Mode
from ui.qt import (
    QApplication,
    QEvent,
    QHBoxLayout,
    QLabel,
    QObject,
    QProgressBar,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ui.speech.audio import AudioInput, MicrophoneInput, wav_inputs
from ui.speech.hearing import Hearing
from ui.speech.options import HEAR_FROM, LISTENS, MICROPHONE, NAME

if TYPE_CHECKING:
    from ui.practice.screen import PracticeScreen



#: the width of the practice screen's line of what it heard, in characters
LINE_CHARS = 32
#: calls left not clear (asked again, and still not clear) before the screen suggests teaching
#: it the trainee's voice: once for each trainee at each microphone while the window is open,
#: where none is taught for it (in a room's noise most calls are not clear to the recogniser's
#: own model; a trainee's voice lifts them: tests/benchmarks/speech_lab/README.md, "Enrolment in
#: the app's path")
UNCLEAR_BEFORE_TEACHING = 2
#: what it says then
TEACH_ME = ("Spoken calls: your calls are often not clear to the recogniser here. Teach it your "
            "voice at this microphone, in the room where you practise: File › Settings…, Teach it "
            "my voice… (20 calls read aloud); it then hears more of your calls through the noise.")


class CallMeter(QWidget):
    """What the screen hears: a line (listening, heard, say again) and the level of the sound.
    With `chars`, the meter keeps one width, the line that many of its font's characters, cut
    short with "…" (the whole line in its tooltip), and the level a thin bar under the line, its
    room kept while it is hidden: beside the practice screen's title, a long line (a no call's
    advice, which the feedback panel gives whole) squeezed the title onto four lines, and in
    large print the title took a second line each time the screen listened and gave it back
    after, the table shrinking and growing with every call. (The bar beside the line took the
    room of a title of a line: a laptop's "Props & Hops: practice round" took two.)"""

    def __init__(self, parent=None, chars: int | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self) if chars is None else QVBoxLayout(self)
        row.setContentsMargins(0, 0, 16, 0)  # apart from the throw's number beside it
        self.line = QLabel("")
        self.line.setObjectName("callHeard")
        self.line.installEventFilter(self)
        self.chars = chars
        self.said = ""  # the whole line, however it is shown
        self.brief = ""  # what is shown where the whole line does not fit, if not it cut short
        self.bar = QProgressBar()
        self.bar.setObjectName("callLevel")
        self.bar.setRange(0, 100)
        self.bar.setTextVisible(False)
        self.bar.setFixedWidth(120)
        self.bar.setAccessibleName("Loudness of the sound heard")
        if chars is None:
            row.addWidget(self.line)
            row.addWidget(self.bar)
        else:  # the bar under the line, the two together in the middle of the title's row
            row.setSpacing(2)
            self.bar.setFixedHeight(6)
            self.line.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            kept = self.bar.sizePolicy()
            kept.setRetainSizeWhenHidden(True)
            self.bar.setSizePolicy(kept)
            self.bar.hide()
            row.addStretch(1)
            row.addWidget(self.line)
            row.addWidget(self.bar)
            row.addStretch(1)
        self.hide()
        self._fit()

    def show_level(self, level: float) -> None:
        self.bar.setValue(round(100 * min(1.0, max(0.0, level))))

    def say(self, text: str, listening: bool, brief: str = "") -> None:
        """Show `text`; where it does not fit, `brief` (which should), else the text cut short."""
        self.said, self.brief = text, brief
        self._fit()
        self.bar.setVisible(listening)
        if not listening:
            self.bar.setValue(0)

    def _fit(self) -> None:
        if self.chars is None:
            self.line.setText(self.said)
            return
        metrics = self.line.fontMetrics()
        width = self.chars * metrics.averageCharWidth()
        for part in (self.line, self.bar):
            part.setFixedWidth(width + 2 * self.line.margin() + 4)
        shown = metrics.elidedText(self.said, Qt.TextElideMode.ElideRight, width)
        if shown != self.said and self.brief:
            shown = metrics.elidedText(self.brief, Qt.TextElideMode.ElideRight, width)
        self.line.setText(shown)
        self.line.setToolTip(self.said if shown != self.said else "")
        self.line.setAccessibleName(self.said)

    def eventFilter(self, watched, event) -> bool:
        if watched is self.line and event.type() in (QEvent.Type.FontChange,
                                                     QEvent.Type.StyleChange):  # large print
            self._fit()
        return False


class SpokenCalls(QObject):
    """The practice screen's ear. Off until `set_enabled(True)` (View › Speak my calls)."""

    _voice_refused = Signal(str)  # from the hearing's thread: the trainee's voice file refused

    def __init__(self, screen: PracticeScreen):
        super().__init__(screen)
        self.setObjectName(NAME)
        self.screen = screen
        self.meter = CallMeter(chars=LINE_CHARS)
        app = QApplication.instance()  # as View › Speak my calls left them (ui.speech.options)
        self.enabled = bool(app.property(LISTENS))
        self.microphone: str | None = app.property(MICROPHONE) or None  # None: the system's default
        #: where each call's sound comes from: the microphone, or the seam's WAV files (the
        #: tests', and --hear-from's: the whole app's, one call after another, at their pace)
        files = app.property(HEAR_FROM)
        self.inputs: Callable[[], AudioInput] = (
            wav_inputs(files, paced=True) if files else lambda: MicrophoneInput(self.microphone))
        self.hearing: Hearing | None = None
        self.owed: spoken.Due | None = None
        self._rest: dict[tuple[int, int], float] = {}  # a call's key: the round's time at rest
        self._started = 0.0  # the round's time when this hearing started
        self._closed: set[tuple[int, int]] = set()  # calls given up on (no call): not heard again
        self._asked = 0  # times this call was asked again
        self._round = None
        self._keep_problem: str | None = None  # why the last call could not be kept, said once
        self._stops = 0  # times stopped: a question closed by a stop is no call to listen for again
        self._voice_problem: str | None = None  # why the trainee's voice was not used, said once
        #: calls left not clear, for each trainee at each microphone (a school's computer is
        #: shared: File › Switch trainee keeps this screen)
        self._unclear: dict[tuple[int | None, str], int] = {}
        self._voice_refused.connect(self._refused)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if not on:
            self._stop()
            self.meter.hide()
        self.check()

    def stop(self) -> None:
        """Stop listening (leaving the screen, a new round); the next change listens again."""
        self._stops += 1
        self._stop()

    def check(self) -> None:
        """After every change of the round: listen for the call owed, or stop listening."""
        r = self.screen.round
        if r is not self._round:  # a new round: nothing of the last carries
            self._stop()
            self._round, self._rest, self._closed = r, {}, set()
        # an exam is sat with the keys alone
        active = self.enabled and r is not None and self.screen.mode is not Mode.EXAM
        owed = spoken.due(r) if active else None
        if owed is not None and self._key(owed) in self._closed:
            owed = None
        if owed is None:
            self._stop()
            self.meter.setVisible(active and not r.finished)
            if active and not self.meter.line.text():
                self.meter.say("Speak my calls: on", False)
            return
        if self.owed is not None and self._key(self.owed) == self._key(owed) and self.hearing:
            return
        if self.owed is None or self._key(self.owed) != self._key(owed):
            self._asked = 0
        self._stop()
        self._rest.setdefault(self._key(owed), r.elapsed)
        self._listen(owed)

    @staticmethod
    def _key(owed: spoken.Due) -> tuple[int, int]:
        return owed.throw, owed.index

    def _listen(self, owed: spoken.Due) -> None:
        r = self.screen.round
        game = r.scenario.game
        self.owed = owed
        self._started = r.elapsed
        self.hearing = Hearing(self._listener(game, owed.expected), self.inputs(), parent=self)
        self.hearing.level.connect(self.meter.show_level)
        self.hearing.verdict.connect(self._heard)
        self.hearing.failed.connect(self._failed)
        self.meter.show()
        self.meter.say("Listening for your call…" if not self._asked else "Say again…", True)
        self.hearing.start()

    def _listener(self, game: str, expected: str) -> Callable[[], object]:
        """What makes the call's listener, on the hearing's thread: with the trainee's voice for
        the microphone in use where there is one (ui.speech.enrolling), with the model's own
        where its file cannot be used (said once, on the window's thread: `_voice_refused`)."""
        from ui.speech.audio import microphone_in_use
        from ui.speech.keeping import data_folder, voice_for, voice_path

        services = getattr(self.screen.window(), "services", None)
        # Qt's to find, on this thread; none where no voice can be kept
        microphone = microphone_in_use(self.microphone) if data_folder(services) else ""

        def listen():
            voice, why = voice_for(voice_path(services, microphone))
            if why is None and voice is not None:
                try:
                    return spoken.engine().Listener(game, expected, voice=voice)
                except RequestError as e:  # changed since it was read: taught again, forgotten
                    why = (f"Your voice for this microphone cannot be used ({e}); your calls "
                           "are heard with the recogniser's own model.")
            if why is not None:
                self._voice_refused.emit(why)
            return spoken.engine().Listener(game, expected)

        return listen

    def _refused(self, why: str) -> None:
        if why != self._voice_problem:
            self._voice_problem = why
            self.screen.note(why)

    def _stop(self) -> None:
        if self.hearing is not None:
            self.hearing.stop()  # deleted once its thread has ended (Hearing._ended)
        self.hearing, self.owed = None, None

    def _failed(self, text: str) -> None:
        if self.sender() is not self.hearing:
            return  # a hearing stopped since: the call was made by hand
        if self.owed is not None:
            self._closed.add(self._key(self.owed))
        self._stop()
        self.meter.say(f"Not listening: {text}", False, brief="Not listening: see on the right")
        self.screen.note(f"Spoken calls: {text} Make the call from the action bar.")

    def _heard(self, verdict) -> None:
        owed, r = self.owed, self.screen.round
        if (owed is None or r is None or self.hearing is None or self.hearing.done
                or self.sender() is not self.hearing):
            return  # stopped meanwhile: the call was made by hand
        sound = self.hearing.sound
        self._stop()
        self._judge(owed, r, verdict)
        # kept once the verdict is said and graded: the disk's wait never holds them back
        self._keep(owed, verdict, sound, r.scenario.game)

    def _judge(self, owed: spoken.Due, r, verdict) -> None:
        out = spoken.outcome(verdict, owed, self._asked, r.scenario.game)
        self.meter.say(out.said, False)
        if out.again:
            self._asked += 1
            self.screen.note(out.said)
            self._listen(owed)
            return
        if out.action is None:
            self._closed.add(self._key(owed))
            self.screen.note(out.said)
            if verdict.kind == "unclear":
                self._left_unclear()
            return
        speed = None
        if owed.timed and verdict.speech_end is not None:
            seconds = self._started - self._rest[self._key(owed)] + verdict.speech_end
            speed = (owed.throw, round(max(0.0, seconds), 3))
        logged, asked, stops = len(r.log), self.screen.dialog, self._stops
        if asked is not None:  # a question of the screen's is open: the call cannot be made now
            self.screen.note(f"{out.said} while a question was open: answer it, then make the "
                             "call again.")
            asked.finished.connect(lambda _code: self._answered(owed, r, logged, None, stops))
            return
        self._closed.add(self._key(owed))
        self.screen.call(*out.action)
        if self.screen.dialog is not None:
            # its reason asked (a bare "no roll"): the speed is kept once the call is made; if
            # the question is cancelled, the call is still owed, and listened for again
            self.screen.dialog.finished.connect(
                lambda _code: self._answered(owed, r, logged, speed, stops))
        elif len(r.log) > logged and speed is not None:
            r.call_speeds.append(speed)

    def _left_unclear(self) -> None:
        """A call left not clear: the UNCLEAR_BEFORE_TEACHING-th of the trainee's at the
        microphone in use brings TEACH_ME, where a voice can be kept and none is taught for it
        (whether its file exists, no more: one that cannot be used is said by `_listener`)."""
        from ui.speech.audio import microphone_in_use
        from ui.speech.keeping import voice_path

        services = getattr(self.screen.window(), "services", None)
        microphone = microphone_in_use(self.microphone)
        key = (getattr(getattr(services, "trainee", None), "id", None), microphone)
        self._unclear[key] = self._unclear.get(key, 0) + 1
        if self._unclear[key] != UNCLEAR_BEFORE_TEACHING:
            return
        path = voice_path(services, microphone)
        try:
            untaught = path is not None and not path.exists()
        except OSError:  # a folder this account may not read: `_listener` says so
            untaught = False
        if untaught:
            self.screen.note(TEACH_ME)

    def _answered(self, owed: spoken.Due, r, logged: int, speed, stops: int) -> None:
        """A question open over a call heard was answered or cancelled: a call made is timed; a
        call not made is owed still, and listened for again, unless the screen stopped
        listening meanwhile (left, a new round: its questions close then too)."""
        if len(r.log) > logged and speed is not None:
            r.call_speeds.append(speed)
        if len(r.log) > logged or stops != self._stops:
            return
        self._closed.discard(self._key(owed))
        self.check()

    def _keep(self, owed: spoken.Due, verdict, sound: bytes, game: str) -> None:
        """The call kept, where the trainee agreed (ui.speech.keeping); a failure said once."""
        from ui.speech.keeping import keep_heard

        problem = keep_heard(self.screen, owed, verdict, sound, game)
        if problem is not None and problem != self._keep_problem:
            self._keep_problem = problem
            self.screen.note(problem)
