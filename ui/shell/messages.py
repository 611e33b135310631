"""Qt's own messages, while the app or `dealer-trainer speech-check` runs.

Looking for a microphone and a speech engine, Qt Multimedia, its FFmpeg back end and Qt
TextToSpeech write a dozen lines to the terminal of a computer that has neither (PipeWire and
VA-API not found, FFmpeg's version, PulseAudio not reached, the speechd plug-in not loaded). The
app says what matters of it itself, in one line (View › Speak my calls and The stickman's voice,
and `dealer-trainer speech-check`: `calls_problem`, `voice_problem`), so those lines go to the
app's log instead: Python's logging, the logger `LOGGER`, at DEBUG (shown nowhere unless logging
is set up to show it). Every other message of Qt's, a critical one of Qt Multimedia's among them,
goes where it went before: to the handler that was there (Qt's own, which writes it to the
terminal as Qt formats it, or a test's).

With `QT_LOGGING_RULES` set (a developer choosing Qt's categories), nothing is routed.
"""

from __future__ import annotations

import logging
import os
import sys

from ui.qt import QtMsgType, qFormatLogMessage, qInstallMessageHandler

LOGGER = "dealer_trainer.qt"
#: the categories of the libraries that look for sound: their debug, info and warning lines
CATEGORIES = ("qt.multimedia",)
#: lines those libraries write without a category of their own (Qt's "default"), by how they start
LINES = ("PulseAudioService: ", 'Error loading text-to-speech plug-in "')

_installed = False


def library_noise(kind, category: str, message: str) -> bool:
    """Whether a message of Qt's is one of the sound libraries' lines the app says in its own
    words (above)."""
    if category == "default":
        return message.startswith(LINES)
    below_critical = kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg, QtMsgType.QtWarningMsg)
    return below_critical and any(category == c or category.startswith(c + ".") for c in CATEGORIES)


def route_library_messages():
    """Route Qt's messages as the module says (once a process: later calls do nothing); the
    handler that was there before, or None for Qt's own."""
    global _installed
    if _installed or os.environ.get("QT_LOGGING_RULES"):
        return None
    _installed = True
    log = logging.getLogger(LOGGER)
    previous = None

    def handler(kind, context, message: str) -> None:
        category = context.category or "default"
        if library_noise(kind, category, message):
            log.debug("%s: %s", category, message)
        elif previous is not None:
            previous(kind, context, message)
        else:
            sys.stderr.write(qFormatLogMessage(kind, context, message) + "\n")
            sys.stderr.flush()

    previous = qInstallMessageHandler(handler)
    return previous
