"""The stickman's voice: Qt TextToSpeech says the dealer's calls aloud in the replay and on the
Supervise screen, and the shooter's "coming out" (trainer.spoken.stickman_says), where this
computer has a speech engine (on Linux, speech-dispatcher; Windows and macOS have their own).
Qt's "mock" engine, which says nothing, is no engine. It says a call in the words a dealer says
(trainer.speech.words: "Green 1-2, red 3" is "green one two red three", never "one dash two"), in
an English voice whatever the computer's language; where the engine stops in the middle of a
session, the window says so once and the screens go on without it."""

from __future__ import annotations

from ui.qt import QApplication, QLocale, QObject, texttospeech
from ui.speech.options import SPEAKER, SPEAKS

#: Qt's engines that say nothing aloud
SILENT = ("mock",)

_speaker = None  # the one QTextToSpeech that works here, once found
_lost: str | None = None  # why the engine stopped working in this session, once it has


def _working():
    """A QTextToSpeech that is not in error, or (None, why none is)."""
    global _speaker
    if _lost is not None:
        return None, _lost
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
            _in_english(speaker)
            from trainer import call_words  # noqa: F401 (loaded now, not in the window's first call)
            speaker.errorOccurred.connect(lambda _reason, message, e=name: _stopped(e, message))
            return speaker, None
        why = (f"No speech engine works on this computer: {name} does not start "
               f"({speaker.errorString()}); on Linux it needs speech-dispatcher.")
        speaker.deleteLater()
    return None, why


def _in_english(speaker) -> None:
    """The calls are English: where the computer's language is another (or none, "C"), the engine
    would read them in its first voice, which speech-dispatcher's espeak-ng makes Bishnupriya
    Manipuri."""
    if speaker.locale().language() == QLocale.Language.English:
        return
    english = [loc for loc in speaker.availableLocales() if loc.language() == QLocale.Language.English]
    if english:
        us = [loc for loc in english if loc.territory() == QLocale.Country.UnitedStates]
        speaker.setLocale((us or english)[0])


def _stopped(engine: str, message: str) -> None:
    """The engine failed in the middle of the session (speech-dispatcher ended): the voice is off
    from now on, the open windows say so once, and their View item is off and unticked."""
    global _speaker, _lost
    if _lost is not None:
        return
    _lost = (f"The stickman's voice is off: the speech engine ({engine}) stopped working "
             f"({message.rstrip('.') or 'no reason given'}). Restart the app to hear it again.")
    _speaker = None
    for window in QApplication.topLevelWidgets():
        if hasattr(window, "speech") and hasattr(window.speech, "voice_lost"):
            window.speech.voice_lost(_lost)  # View › The stickman's voice: off, saying why
        if window.isVisible() and hasattr(window, "statusBar"):
            window.statusBar().showMessage(_lost, 15000)


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
        """Say the engine's wording of a call (or the shooter's cue) in the words a dealer says."""
        if not self.enabled or not text:
            return
        speaker, _ = _working()
        if speaker is not None:
            from trainer import call_words

            words = call_words.spoken(text)
            speaker.say(words)
            self.said.append(words)
