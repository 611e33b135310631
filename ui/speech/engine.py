"""The stickman's speech engine (Qt TextToSpeech), found off the window's thread.

Setting Qt's speech-dispatcher engine lists every voice of espeak-ng (13,362 of them): about 1.0 s
of CPU, 1.3 s and more of wall, which held the window when a speech option was remembered on at
start, or when the View menu first opened. Now the engine is set on a QThread of its own, which
keeps it for the rest of the run, and the window goes on: View › The stickman's voice says it is
looking until the answer comes (ui.speech.options), and a call the stickman has to say meanwhile
is said once the engine is there (ui.speech.voice).

How, since Qt objects belong to a thread and PySide6 holds Python's lock for the whole of every
Qt call it makes (setEngine called from Python, on any thread, held the window's thread just the
same: a 10 ms timer there waited 1.06 s):
- the QTextToSpeech is made on the window's thread with no engine ("none": at once), moved to
  the engine's thread, and its engine set there by a queued call of its own `setEngine` slot:
  Qt's event loop of that thread calls it, no Python in between (the timer then waited 15-45 ms);
- a `_Settler` on that thread (queued after it, so it runs once the engine is set) checks it,
  gives it an English voice, tries the next engine where one fails, and sends its answer to
  `_Answers`, which lives on the window's thread and is never deleted (as ui.speech.hearing's
  relay: a thread never emits on an object a window may delete). The windows there are told
  by name (`speech.voice_answered`), and each Stickman hears `answered`;
- the words reach the engine as queued calls of its `say` slot, and its `errorOccurred` comes
  back to `_Answers` the same way (the engine stopped in the middle of the session);
- at the app's end (aboutToQuit, or the interpreter's exit) the thread is asked to end and
  waited for: while an engine is being set that is the rest of it (at most ENDING seconds, then
  the thread is stopped); the engine is deleted on its own thread as it ends, and nothing is
  given to it after.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass

from ui.qt import (
    Q_ARG,
    QApplication,
    QEventLoop,
    QLocale,
    QMetaObject,
    QObject,
    Qt,
    QThread,
    QTimer,
    Signal,
    Slot,
    alive,
    texttospeech,
)

#: Qt's engines that say nothing aloud
SILENT = ("mock",)
#: what View › The stickman's voice says while the engine is looked for
LOOKING = "looking for a speech engine…"
#: the most seconds the app's end waits for an engine being set
ENDING = 10
ENDED = "The app is ending: the speech engine is stopped."
NONE = "No speech engine is installed on this computer (on Linux: speech-dispatcher)."


@dataclass
class Found:
    """What is known of the engine in this run."""

    speaker: object | None = None  # what says the words, once found (`say(words)`)
    why: str | None = None  # why there is none, once answered
    looking: bool = False  # asked for, not yet answered
    lost: str | None = None  # why the engine stopped working in this session, once it has


_found = Found()
_answers: _Answers | None = None
_threads: list = []  # every engine thread started in this run, ended at its end


def engines() -> list[str]:
    """The engines to try, in Qt's order of preference."""
    return [e for e in texttospeech().QTextToSpeech.availableEngines() if e not in SILENT]


def setting(tts, name: str) -> None:
    """On the engine's thread: the engine `name` set on `tts` by a queued call of its own slot,
    which Qt makes there without Python (see the module's docstring)."""
    QMetaObject.invokeMethod(tts, "setEngine", Qt.ConnectionType.QueuedConnection, Q_ARG(str, name))


class _Speaker(QObject):
    """The QTextToSpeech on the engine's thread, as the window's thread speaks to it and hears
    its failures."""

    def __init__(self, tts, name: str, found: Found):
        super().__init__()
        self.tts, self.name, self.found = tts, name, found
        tts.errorOccurred.connect(self.failed)  # queued: the engine lives on its thread

    def say(self, words: str) -> None:
        QMetaObject.invokeMethod(self.tts, "say", Qt.ConnectionType.QueuedConnection,
                                 Q_ARG(str, words))

    def failed(self, _reason, message: str) -> None:
        if self.found is _found:  # not an engine the run has since forgotten (the tests')
            _stopped(self.name, message)


class _Settler(QObject):
    """On the engine's thread: each engine set in turn until one works, and the answer sent."""

    #: the Found it answers for, the QTextToSpeech (None: none works), its engine, or why not
    answer = Signal(object, object, str, str)

    def __init__(self, tts, names: list[str], found: Found):
        super().__init__()
        self.tts, self.names, self.why, self.found = tts, list(names), NONE, found

    @Slot()
    def next(self) -> None:
        setting(self.tts, self.names[0])
        QMetaObject.invokeMethod(self, "settle", Qt.ConnectionType.QueuedConnection)

    @Slot()
    def settle(self) -> None:
        tts, name = self.tts, self.names.pop(0)
        started = tts.state() != tts.State.Error  # the engine's own class: no import on this thread
        # an engine that has no voice for the computer's language fails to start on it (Qt's
        # speech-dispatcher plugin: "Failed to initialize default locale and voice."), and speaks
        # once given one of its English voices: the calls are English
        if _in_english(tts) or started:
            self.answer.emit(self.found, tts, name, "")
            return
        self.why = (f"No speech engine works on this computer: {name} does not start "
                    f"({tts.errorString()}); on Linux it needs speech-dispatcher.")
        if self.names:
            self.next()
        else:
            self.answer.emit(self.found, None, "", self.why)


def _in_english(speaker) -> bool:
    """The calls are English: where the computer's language is another (or none, "C"), the engine
    would read them in its first voice, which speech-dispatcher's espeak-ng makes Bishnupriya
    Manipuri. Whether it speaks English now (False: it has no English voice)."""
    def english_now() -> bool:
        return speaker.locale().language() == QLocale.Language.English and bool(speaker.voice().name())

    if english_now():
        return True
    english = [loc for loc in speaker.availableLocales() if loc.language() == QLocale.Language.English]
    if not english:
        return False
    us = [loc for loc in english if loc.territory() == QLocale.Country.UnitedStates]
    speaker.setLocale((us or english)[0])
    return english_now()


class _Answers(QObject):
    """On the window's thread, for the whole run: the engine's answer and its failures, given to
    the windows and the stickmen there."""

    answered = Signal()  # the engine was found, or there is none: `problem()` says which

    @Slot(object, object, str, str)
    def take(self, found: Found, tts, name: str, why: str) -> None:
        found.looking = False
        if tts is None:
            found.why = why
        elif not alive(tts):  # its thread ended meanwhile (the app's end), and the engine with it
            found.why = ENDED
        else:
            found.speaker = _Speaker(tts, name, found)
            from trainer import call_words  # noqa: F401 (loaded now, not in the stickman's first call)
        if found is _found:  # not an answer to a look the run has since forgotten (the tests')
            self._tell()

    def _tell(self) -> None:
        for window in QApplication.topLevelWidgets():
            if hasattr(window, "speech") and hasattr(window.speech, "voice_answered"):
                window.speech.voice_answered()  # View › The stickman's voice: what it is
        self.answered.emit()


def answers() -> _Answers:
    """The run's one `_Answers` (made on the window's thread when first asked for)."""
    global _answers
    if _answers is None:
        _answers = _Answers()
    return _answers


def look() -> None:
    """Ask for the engine, once: at once where Qt TextToSpeech or every engine is missing, else
    on the engine's thread, the answer given by `answers().answered`."""
    if _found.looking or _found.speaker is not None or _found.why is not None or _found.lost:
        return
    try:
        names = engines()
    except ImportError as e:
        _found.why = f"Qt TextToSpeech cannot be loaded ({e})."
        return
    if not names:
        _found.why = NONE
        return
    tts_class = texttospeech().QTextToSpeech
    thread = QThread()
    thread.setObjectName("speech-engine")
    tts = tts_class("none")  # no engine yet: made at once
    settler = _Settler(tts, names, _found)
    tts.moveToThread(thread)
    settler.moveToThread(thread)
    settler.answer.connect(answers().take)  # queued: answers lives on the window's thread
    thread.finished.connect(tts.deleteLater)  # each on its own thread, as the thread ends
    thread.finished.connect(settler.deleteLater)
    if not _threads:
        QApplication.instance().aboutToQuit.connect(end)
        atexit.register(end)
    _threads.append((thread, tts, settler))
    _found.looking = True
    thread.start()
    QMetaObject.invokeMethod(settler, "next", Qt.ConnectionType.QueuedConnection)


def looking() -> bool:
    """Asked for and not answered yet."""
    return _found.looking


def problem() -> str | None:
    """Why the stickman cannot speak here (one sentence); None where it can, or while not known
    (`looking()`)."""
    return _found.lost or (None if _found.speaker is not None else _found.why)


def speak(words: str) -> bool:
    """The words given to the engine; False where there is none (yet)."""
    speaker = _found.speaker
    if _found.lost is not None or speaker is None:
        return False
    speaker.say(words)  # type: ignore[attr-defined]
    return True


def wait(seconds: float = 30.0) -> str | None:
    """Look, and wait for the answer (`dealer-trainer speech-check`, which has no window to
    hold): `problem()` then, or the time given run out where no answer came."""
    look()
    if _found.looking:
        loop = QEventLoop()
        answers().answered.connect(loop.quit)
        QTimer.singleShot(round(seconds * 1000), loop.quit)
        if _found.looking:
            loop.exec()
    if _found.looking:
        return f"The speech engine did not answer within {seconds:g} s."
    return problem()


def end() -> None:
    """The engine threads asked to end and waited for (the app's end): the rest of an engine's
    setting where one is under way (a second or two). One that has not ended in ENDING seconds
    (an engine that never answers) is stopped, since Qt aborts the whole app where a thread is
    still running when the interpreter deletes it. The stickman says nothing after: its engine
    goes with its thread."""
    if _threads:
        _found.speaker, _found.looking, _found.why = None, False, ENDED
    while _threads:
        thread, _tts, _settler = _threads.pop()
        thread.quit()
        if not thread.wait(ENDING * 1000):
            thread.terminate()
            thread.wait(ENDING * 1000)


def _stopped(engine: str, message: str) -> None:
    """The engine failed in the middle of the session (speech-dispatcher ended): the voice is off
    from now on, the open windows say so once, and their View item is off and unticked."""
    if _found.lost is not None:
        return
    _found.lost = (f"The stickman's voice is off: the speech engine ({engine}) stopped working "
                   f"({message.rstrip('.') or 'no reason given'}). Restart the app to hear it again.")
    _found.speaker = None
    for window in QApplication.topLevelWidgets():
        if hasattr(window, "speech") and hasattr(window.speech, "voice_lost"):
            window.speech.voice_lost(_found.lost)  # View › The stickman's voice: off, saying why
        if window.isVisible() and hasattr(window, "statusBar"):
            window.statusBar().showMessage(_found.lost, 15000)
