"""The `dealer-trainer` program: the app, or one of the engine's commands.

    dealer-trainer                          open the app
    dealer-trainer --screenshot F.png       render the main window to a PNG and exit
                   [--reproducible]         at a fixed time, the demonstration seeded: the same bytes
    dealer-trainer --class postgresql://…   open the app in a class (its results pushed to the server)
    dealer-trainer --hear-from A.wav B.wav  spoken calls heard from these files in turn, not the microphone
    dealer-trainer config --show            each setting, where it came from, whether it is locked
    dealer-trainer speech-check             whether View › Speak my calls and The stickman's voice can be on
    dealer-trainer settle|odds ...          the engine's commands (trainer.cli), with no Qt loaded
"""

from __future__ import annotations

import argparse
import sys

from trainer import __version__


def build_parser() -> argparse.ArgumentParser:
    from trainer import cli

    p = argparse.ArgumentParser(
        prog="dealer-trainer",
        description="Dealer Trainer: practice and certification for Pennsylvania's dice table games.",
        epilog=f"Engine commands: {', '.join(cli.COMMANDS)} (dealer-trainer COMMAND --help). "
               "The app's settings: dealer-trainer config --show; whether it can hear spoken calls "
               "here: dealer-trainer speech-check.",
    )
    p.add_argument("--version", action="version", version=f"dealer-trainer {__version__}")
    p.add_argument("--screenshot", metavar="FILE", help="render a screen to a PNG file and exit")
    p.add_argument("--screen", metavar="NAME", help="the screen to render with --screenshot")
    p.add_argument("--theme", choices=("light", "dark"),
                   help="the theme --screenshot renders in (default: light)")
    p.add_argument("--size", metavar="WxH", type=window_size,
                   help="the window's size in --screenshot, e.g. 1366x768 (default: 1440x900)")
    p.add_argument("--reproducible", action="store_true",
                   help="with --screenshot: the picture taken at a fixed time, its demonstration's keys "
                        "and codes from a fixed seed, so that every run gives the same bytes")
    p.add_argument("--db", metavar="FILE", help="the progress database (default: your data folder)")
    p.add_argument("--hear-from", metavar="WAV", nargs="+", type=call_file,
                   help="View › Speak my calls hears each call from these WAV files in turn (16 kHz "
                        "mono 16-bit), through the microphone's path: to check the recogniser and "
                        "the grading with calls recorded beforehand")
    cli.class_option(p)
    return p


def window_size(text: str) -> tuple[int, int]:
    """A window size given as WIDTHxHEIGHT, each from 320 to 7680 pixels."""
    width, x, height = text.lower().partition("x")
    if not (x and text.isascii() and width.isdigit() and height.isdigit()
            and 320 <= int(width) <= 7680 and 320 <= int(height) <= 7680):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 1366x768 "
                                         "(each side 320 to 7680 pixels)")
    return int(width), int(height)


def call_file(text: str) -> str:
    """A WAV file a call is heard from (--hear-from): one the recogniser takes, or a line saying
    what it is not."""
    from pathlib import Path

    from ui.speech.audio import read_wav

    try:
        read_wav(Path(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from trainer import cli

    cli.utf8_output()  # the app's own lines too (--screenshot, --db): UTF-8 on every OS
    if argv and argv[0] == "config":  # the app's settings, from the user's and the machine's
        from ui.shell.config import main as config

        return config(argv[1:])
    if argv and argv[0] == "speech-check":  # why the View menu's speech items are off, if they are
        from ui.shell.messages import route_library_messages
        from ui.speech.check import main as speech_check

        route_library_messages()  # the sound libraries' lines: said in the app's own words

        return speech_check(argv[1:])
    if argv and argv[0] in cli.COMMANDS:
        return cli.main(argv)
    args = build_parser().parse_args(argv)
    from ui.shell.app import SHOT_SIZE, run
    from ui.shell.messages import route_library_messages

    route_library_messages()

    if args.theme and not args.screenshot:
        build_parser().error("--theme goes with --screenshot (the app itself has View › Dark theme)")
    if args.size and not args.screenshot:
        build_parser().error("--size goes with --screenshot (the app's window is yours to size)")
    if args.reproducible and not args.screenshot:
        build_parser().error("--reproducible goes with --screenshot (the app itself keeps the real time)")
    if args.hear_from and args.screenshot:
        build_parser().error("--hear-from goes with the app, not with --screenshot")
    return run(screenshot=args.screenshot, screen=args.screen, db=args.db, theme=args.theme,
               size=args.size or SHOT_SIZE, class_address=args.class_address,
               reproducible=args.reproducible, hear_from=args.hear_from)


if __name__ == "__main__":
    sys.exit(main())
