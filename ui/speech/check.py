"""`dealer-trainer speech-check`: whether this computer can hear spoken calls and speak the
stickman's calls, in the words of the View menu. Each line is what View › Speak my calls or View ›
The stickman's voice says when it is off (its tooltip and the status line: `calls_problem`,
`voice_problem`, the same functions), or that it can be turned on. For a school's IT person who
asks why an item is greyed out, and for the bundle's check (tests/bundle), which cannot open the
menu of a program it only starts. Exit 0 when both can be turned on, 1 when either is off."""

from __future__ import annotations

import sys

NAME = "speech-check"
#: the View menu's items, as the menu words them (ui.speech.options)
ITEMS = ("Speak my calls", "The stickman's voice")


def lines() -> list[tuple[str, str | None]]:
    """Each item of the View menu and why it is off here, or None."""
    from ui.speech.options import calls_problem
    from ui.speech.voice import voice_problem

    return list(zip(ITEMS, (calls_problem(), voice_problem()), strict=True))


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog=f"dealer-trainer {NAME}",
        description="Whether View › Speak my calls and View › The stickman's voice can be turned "
                    "on here, and if not, why (as the menu says it).")
    p.parse_args(argv)
    from ui.qt import QCoreApplication
    from ui.shell import collecting

    # no window is needed, nor a display: Qt Multimedia and Qt TextToSpeech answer to a core
    # application
    app = QCoreApplication.instance() or QCoreApplication([sys.argv[0]])
    collecting.on_this_thread(app)  # the engine's thread runs Python too
    found = lines()
    for item, problem in found:
        said = "can be turned on (View menu)" if problem is None else f"off: {problem}"
        sys.stdout.write(f"{item}: {said}\n")
    del app
    return 0 if all(problem is None for _, problem in found) else 1
