"""Qt's own messages, while the app or `dealer-trainer speech-check` runs.

Looking for a microphone and a speech engine, Qt Multimedia, its FFmpeg back end and Qt
TextToSpeech write a dozen lines to the terminal of a computer that has neither (PipeWire and
VA-API not found, FFmpeg's version, PulseAudio not reached, the speechd plug-in not loaded). The
app says what matters of it itself, in one line (View › Speak my calls and The stickman's voice,
and `dealer-trainer speech-check`: `calls_problem`, `voice_problem`), so those lines go to
Python's logging instead, the logger `LOGGER`, at DEBUG: the app sets up no log, so they are
dropped unless a developer sets logging up or sets `QT_LOGGING_RULES` (below). Every other
message of Qt's, a critical one of Qt Multimedia's among them, goes to the handler that was
there (a test's), else to the terminal as Qt formats it (where there is no terminal, as in an app
started without a console, it is dropped: `_to_terminal`).

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
            _to_terminal(qFormatLogMessage(kind, context, message))

    previous = qInstallMessageHandler(handler)
    return previous


def _to_terminal(line: str) -> None:
    """A line of Qt's on the terminal, where there is one: an app started without a console (the
    Windows bundle, pythonw) has no sys.stderr, and a handler that raised would stop whatever Qt
    call made the message, so the line is then dropped."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):  # a closed or broken stream
        pass
