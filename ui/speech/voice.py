"""The stickman's voice: Qt TextToSpeech says the dealer's calls aloud in the replay and on the
Supervise screen, and the shooter's "coming out" (trainer.spoken.stickman_says), where this
computer has a speech engine (on Linux, speech-dispatcher; Windows and macOS have their own).
Qt's "mock" engine, which says nothing, is no engine."""

from __future__ import annotations

from ui.qt import QApplication, QObject, texttospeech
from ui.speech.options import SPEAKER, SPEAKS

#: Qt's engines that say nothing aloud
SILENT = ("mock",)

_speaker = None  # the one QTextToSpeech that works here, once found


def _working():
    """A QTextToSpeech that is not in error, or (None, why none is)."""
    global _speaker
    if _speaker is not None:
        return _speaker, None
    try:
        tts = texttospeech().QTextToSpeech
    except ImportError as e:
        return None, f"Qt TextToSpeech cannot be loaded ({e})."
    engines = [e for e in tts.availableEngines() if e not in SILENT]
    why = "No speech engine is installed on this computer (on Linux: speech-dispatcher)."
    for name in engines:
        speaker = tts(name)
        if speaker.state() != tts.State.Error:
            _speaker = speaker
            return speaker, None
        why = (f"No speech engine works on this computer: {name} does not start "
               f"({speaker.errorString()}); on Linux it needs speech-dispatcher.")
        speaker.deleteLater()
    return None, why


def voice_problem() -> str | None:
    """Why the stickman cannot speak here (one sentence), or None."""
    return _working()[1]


class Stickman(QObject):
    """A screen's voice: off until `set_enabled(True)` (View › The stickman's voice)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName(SPEAKER)
        self.enabled = bool(QApplication.instance().property(SPEAKS))
        self.said: list[str] = []  # what it said, in order (what the tests read)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on and voice_problem() is None

    def action(self, do, value, game: str) -> None:
        """Say what the dealer says with this action, if anything."""
        from trainer import spoken

        text = spoken.stickman_says(do, value, game)
        if text:
            self.say(text)

    def say(self, text: str | None) -> None:
        if not self.enabled or not text:
            return
        speaker, _ = _working()
        if speaker is not None:
            speaker.say(text)
            self.said.append(text)
