"""The View menu's speech options: Speak my calls (the practice screens listen for the trainee's
calls) and The stickman's voice (the replay and the Supervise screen speak the dealer's calls),
each remembered in the user's settings, off by default, and off with its reason (in its tooltip
and the status line) where this computer cannot do it. The microphone chosen in File › Settings…
is kept here too."""

from __future__ import annotations

from ui.qt import QAction, QApplication, QObject, QSettings
from ui.speech.audio import microphone_problem

#: the application's properties the items set, which a screen built later starts with: Speak my
#: calls, the microphone chosen, The stickman's voice
LISTENS, MICROPHONE, SPEAKS = "speak_calls", "microphone", "stickman_voice"
#: the object names of a practice screen's ear (ui.speech.calls) and a screen's voice
#: (ui.speech.voice), by which the items find them: their modules load with the screens
NAME, SPEAKER = "spokenCalls", "stickman"
#: the application's property that lists the WAV files calls are heard from (--hear-from)
HEAR_FROM = "hear_from"
CALLS_KEY = "speech/calls"
#: the View menu's item for the stickman's voice, as it reads once the engine is known
VOICE = "The stickman's voice"
VOICE_KEY = "speech/voice"
MICROPHONE_KEY = "speech/microphone"


def calls_problem() -> str | None:
    """Why spoken calls cannot be heard here (one sentence), or None; the microphone is not
    needed where the calls come from files (--hear-from). (The engine's half loads here, not
    with the window: the window opens as fast as before.)"""
    from trainer import spoken

    files = QApplication.instance().property(HEAR_FROM)
    return spoken.unavailable() or (None if files else microphone_problem())


def on(settings: QSettings, key: str) -> bool:
    return str(settings.value(key, "false")).lower() in ("true", "1")


class SpeechOptions:
    """The two View menu items of a window, and what they turn on."""

    def __init__(self, window, menu):
        self.window, self.settings = window, window.settings
        self.calls = QAction("Speak my calls", window, checkable=True)
        self.calls.setStatusTip("Call the dice aloud when you have to call: the app listens and "
                                "grades the call as the Announce action's; the keys stay. A trial: "
                                "use it in a quiet room (in noise many calls come back unclear)")
        self.voice = QAction(VOICE, window, checkable=True)
        self.voice.setStatusTip("The dealer's calls spoken aloud in the replay and on the Supervise "
                                "screen, and the shooter's “coming out”")
        menu.setToolTipsVisible(True)
        menu.addAction(self.calls)
        menu.addAction(self.voice)
        self.checked = False
        menu.aboutToShow.connect(self.check)
        self.calls.toggled.connect(self.set_calls)
        self.voice.toggled.connect(self.set_voice)
        if on(self.settings, CALLS_KEY) or on(self.settings, VOICE_KEY):
            self.check()  # remembered on: find out now whether it can be
        else:
            self.apply()  # off, whatever another window of this run left

    @property
    def microphone(self) -> str | None:
        chosen = self.settings.value(MICROPHONE_KEY, "")
        return str(chosen) if chosen else None

    def set_microphone(self, device: str | None) -> None:
        self.settings.setValue(MICROPHONE_KEY, device or "")
        self.apply()

    def check(self) -> None:
        """Find out, once, what this computer can do: each item off with its reason, or on as the
        settings remember it. The speech engine is looked for off the window's thread
        (ui.speech.engine): until it answers, The stickman's voice says it is looking
        (`voice_answered` then makes it what it is)."""
        if self.checked:
            return
        self.checked = True
        from ui.speech import engine

        engine.look()
        self._set(self.calls, calls_problem(), CALLS_KEY)
        if engine.looking():
            self.voice.blockSignals(True)
            self.voice.setText(f"{VOICE} ({engine.LOOKING})")
            self.voice.setEnabled(False)  # nothing to choose until the answer comes
            self.voice.setChecked(on(self.settings, VOICE_KEY))
            self.voice.blockSignals(False)
        else:
            self._set(self.voice, engine.problem(), VOICE_KEY)
        self.apply()

    def voice_answered(self) -> None:
        """The speech engine's answer came (ui.speech.engine): the item is what it is."""
        if not self.checked:
            return
        from ui.speech import engine

        self.voice.setText(VOICE)
        self.voice.setEnabled(True)
        self._set(self.voice, engine.problem(), VOICE_KEY)
        self.apply()

    def _set(self, action, problem: str | None, key: str) -> None:
        """The item off with its reason (said in the status line where it was remembered on, and
        always for Speak my calls), or ticked as remembered."""
        action.blockSignals(True)
        if problem is not None:
            action.setEnabled(False)
            action.setChecked(False)
            action.setToolTip(problem)
            action.setStatusTip(problem)
            if on(self.settings, key) or key == CALLS_KEY:
                said = f"{action.text()} is off: {problem}"
                shown = self.window.statusBar().currentMessage()
                self.window.statusBar().showMessage(f"{shown} {said}" if shown else said, 15000)
        else:
            action.setChecked(on(self.settings, key))
        action.blockSignals(False)

    def voice_lost(self, why: str) -> None:
        """The speech engine stopped in the middle of the session (ui.speech.engine): the item off
        and unticked, saying why; the setting stays as the trainee chose it, for the next start."""
        self.voice.blockSignals(True)
        self.voice.setEnabled(False)
        self.voice.setChecked(False)
        self.voice.setToolTip(why)
        self.voice.setStatusTip(why)
        self.voice.blockSignals(False)
        self.apply()

    def set_calls(self, checked: bool) -> None:
        self.settings.setValue(CALLS_KEY, checked)
        self.apply()

    def set_voice(self, checked: bool) -> None:
        self.settings.setValue(VOICE_KEY, checked)
        self.apply()

    def apply(self) -> None:
        """Every practice screen listens, and every replay and Supervise screen speaks, as the
        items say; a screen built later starts so."""
        from ui.speech import engine

        listen = self.checked and self.calls.isEnabled() and self.calls.isChecked()
        # while the engine is looked for, the voice is on as remembered: a call waits for it
        speak = self.checked and self.voice.isChecked() and (self.voice.isEnabled()
                                                              or engine.looking())
        app = QApplication.instance()  # what a screen built later starts with
        app.setProperty(LISTENS, listen)
        app.setProperty(SPEAKS, speak)
        app.setProperty(MICROPHONE, self.microphone or "")
        for ears in self.window.findChildren(QObject, NAME):
            ears.microphone = self.microphone
            ears.set_enabled(listen)
        for stickman in self.window.findChildren(QObject, SPEAKER):
            stickman.set_enabled(speak)
