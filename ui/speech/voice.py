"""The stickman's voice: Qt TextToSpeech says the dealer's calls aloud in the replay and on the
Supervise screen, and the shooter's "coming out" (trainer.spoken.stickman_says), where this
computer has a speech engine (on Linux, speech-dispatcher; Windows and macOS have their own).
Qt's "mock" engine, which says nothing, is no engine. It says a call in the words a dealer says
(trainer.speech.words: "Green 1-2, red 3" is "green one two red three", never "one dash two"), in
an English voice whatever the computer's language; where the engine stops in the middle of a
session, the window says so once and the screens go on without it. The engine is found off the
window's thread (ui.speech.engine): a call asked for while it is looked for is said once it is
there."""

from __future__ import annotations

from ui.qt import QApplication, QObject
from ui.speech import engine
from ui.speech.options import SPEAKER, SPEAKS


def voice_problem() -> str | None:
    """Why the stickman cannot speak here (one sentence), or None; waits for the engine's answer
    (`dealer-trainer speech-check`: the window asks without waiting, ui.speech.options)."""
    return engine.wait()


class Stickman(QObject):
    """A screen's voice: off until `set_enabled(True)` (View › The stickman's voice)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName(SPEAKER)
        self.enabled = bool(QApplication.instance().property(SPEAKS))
        self.said: list[str] = []  # what it said, in order (what the tests read)
        self.waiting: str | None = None  # the last call asked for while the engine is looked for
        engine.answers().answered.connect(self._answered)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on and engine.problem() is None
        if not self.enabled:
            self.waiting = None

    def action(self, do, value, game: str) -> None:
        """Say what the dealer says with this action, if anything."""
        from trainer import spoken

        text = spoken.stickman_says(do, value, game)
        if text:
            self.say(text)

    def say(self, text: str | None) -> None:
        """Say the engine's wording of a call (or the shooter's cue) in the words a dealer says."""
        if not self.enabled or not text:
            return
        from trainer import call_words

        words = call_words.spoken(text)
        if engine.speak(words):
            self.said.append(words)
        elif engine.looking():  # said once the engine is there (only the last: say() cuts short)
            self.waiting = words

    def _answered(self) -> None:
        """The engine was found (or there is none): the call that waited for it, said."""
        words, self.waiting = self.waiting, None
        if words is not None and self.enabled and engine.speak(words):
            self.said.append(words)
