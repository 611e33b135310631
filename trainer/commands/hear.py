"""`dealer-trainer hear FILE.wav --game G --expect "CALL"`: a spoken call in a WAV file heard as
the app hears a microphone (trainer.speech.hear): the verdict and its timings. Exit 0 when the
call is heard right, 1 when it is wrong, unclear or not there, 2 on bad input or where spoken calls
cannot be heard."""

from __future__ import annotations

import sys

from trainer.errors import RequestError

NAME = "hear"
HELP = "hear a spoken call in a WAV file and print the verdict and its timings"


def add_arguments(parser) -> None:
    parser.add_argument("file", metavar="FILE.wav", help="the call, recorded (any PCM WAV file)")
    parser.add_argument("--game", required=True, help="the game whose calls are listened for")
    parser.add_argument("--expect", required=True, metavar="CALL",
                        help="the call due, as the engine words it (\"Seven, three-four\")")


def run(args) -> int:
    from pathlib import Path

    from trainer import games

    games.get(args.game, "--game")
    from trainer import speech

    if (why := speech.unavailable()) is not None:
        raise RequestError("", why)
    from trainer.speech.listener import call_of

    call_of(args.game, args.expect, "--expect")
    verdict = speech.hear(Path(args.file), args.game, args.expect)
    sys.stdout.write(render(verdict) + "\n")
    return 0 if verdict.kind == "right" else 1


#: each verdict's line
SAYS = {"right": "right: {heard}", "wrong": "wrong: heard {heard}, expected {expected}",
        "none": "no call: no speech was heard", "unclear": "unclear: say again"}


def render(verdict) -> str:
    head = SAYS[verdict.kind].format(heard=_q(verdict.heard), expected=_q(verdict.expected))
    lines = [head]
    if verdict.said:
        lines.append(f"words: {verdict.said}")
    if verdict.speech_start is not None:
        end = "" if verdict.speech_end is None else f" to {verdict.speech_end:.2f} s"
        lines.append(f"speech: from {verdict.speech_start:.2f} s{end}")
    if verdict.kind != "none":
        lines.append(f"decided: {verdict.decided * 1000:.0f} ms after the end of speech")
    return "\n".join(lines)


def _q(text: str | None) -> str:
    return f"\"{text}\"" if text is not None else "nothing"
