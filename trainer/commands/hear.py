"""`dealer-trainer hear FILE.wav --game G --expect "CALL"`: a spoken call in a WAV file heard as
the app hears a microphone (trainer.speech.hear): the verdict and its timings. Exit 0 when the
call is heard right, 1 when it is wrong, unclear or not there, 2 on bad input or where spoken calls
cannot be heard.

`dealer-trainer hear FOLDER`: every call the app kept under the folder (trainer.speech.kept: the
trainees' own voices, with their consent), each heard against the call it was owed, a line each
and the counts; a file that is not a call kept is named in a line and left out. `--game` keeps one
game's calls. Exit 0 when every call is heard right, 1 otherwise, 2 when no call is there."""

from __future__ import annotations

import sys

from trainer.errors import RequestError

NAME = "hear"
HELP = "hear a spoken call in a WAV file and print the verdict and its timings"


def add_arguments(parser) -> None:
    parser.add_argument("file", metavar="FILE.wav|FOLDER",
                        help="the call, recorded (any PCM WAV file); or a folder of calls the app "
                             "kept (the data folder's \"spoken calls\", or one trainee's), each "
                             "heard against the call it was owed")
    parser.add_argument("--game", help="the game whose calls are listened for (with a folder: "
                                       "only that game's calls)")
    parser.add_argument("--expect", metavar="CALL",
                        help="the call due, as the engine words it (\"Seven, three-four\"); "
                             "not with a folder, whose calls are kept with the call owed")


def run(args) -> int:
    from pathlib import Path

    from trainer import games

    folder = Path(args.file).is_dir()
    if folder and args.expect is not None:
        raise RequestError("--expect", f"{args.file} is a folder of kept calls, each heard against "
                                       "the call it was owed: give no --expect")
    for name, given in (("--game", args.game), ("--expect", args.expect)):
        if not folder and given is None:
            raise RequestError(name, "needed with a WAV file (or give a folder of kept calls)")
    if args.game is not None:
        games.get(args.game, "--game")
    from trainer import speech

    if (why := speech.unavailable()) is not None:
        raise RequestError("", why)
    if folder:
        return hear_folder(Path(args.file), args.game)
    from trainer.speech.listener import call_of

    call_of(args.game, args.expect, "--expect")
    verdict = speech.hear(Path(args.file), args.game, args.expect)
    sys.stdout.write(render(verdict) + "\n")
    return 0 if verdict.kind == "right" else 1


def hear_folder(folder, game: str | None) -> int:
    """Every call kept under the folder, heard: a line each, then the counts."""
    from trainer.speech import kept

    counts = dict.fromkeys(SAYS, 0)
    left_out = 0
    for found in kept.read(folder):
        if isinstance(found, kept.Unusable):
            left_out += 1
            sys.stdout.write(f"not used: {found}\n")
            continue
        if game is not None and found.game != game:
            continue
        try:
            verdict = _hear_kept(found)
        except RequestError as e:
            left_out += 1
            where = "" if e.field == str(found.wav) else f"{found.wav.with_suffix('.json')}: "
            sys.stdout.write(f"not used: {where}{e}\n")
            continue
        counts[verdict.kind] += 1
        head = render(verdict).splitlines()[0]
        sys.stdout.write(f"{found.wav.relative_to(folder).as_posix()}: {head}\n")
    heard = sum(counts.values())
    tally = ", ".join(f"{n} {WORD[kind]}" for kind, n in counts.items())
    note = f"; {left_out} file{'s' * (left_out != 1)} not used" if left_out else ""
    sys.stdout.write(f"{heard} call{'s' * (heard != 1)} heard: {tally}{note}\n")
    if not heard:
        raise RequestError(str(folder), "no call kept by the app is in this folder"
                                        + (f" for {game}" if game else ""))
    return 0 if counts["right"] == heard else 1


def _hear_kept(found):
    from trainer import games, speech
    from trainer.speech.listener import call_of

    games.get(found.game, "game")
    call_of(found.game, found.expected, "expected")
    return speech.hear(found.wav, found.game, found.expected)


#: each verdict's word in the counts
WORD = {"right": "right", "wrong": "wrong", "none": "no call", "unclear": "unclear"}
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
