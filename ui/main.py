"""The `dealer-trainer` program: the app, or one of the engine's commands.

    dealer-trainer                          open the app
    dealer-trainer --screenshot F.png       render the main window to a PNG and exit
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
        epilog=f"Engine commands: {', '.join(cli.COMMANDS)} (dealer-trainer COMMAND --help).",
    )
    p.add_argument("--version", action="version", version=f"dealer-trainer {__version__}")
    p.add_argument("--screenshot", metavar="FILE", help="render a screen to a PNG file and exit")
    p.add_argument("--screen", metavar="NAME", help="the screen to render with --screenshot")
    p.add_argument("--db", metavar="FILE", help="the progress database (default: your data folder)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from trainer import cli

    if argv and argv[0] in cli.COMMANDS:
        return cli.main(argv)
    args = build_parser().parse_args(argv)
    from ui.app import run

    return run(screenshot=args.screenshot, screen=args.screen, db=args.db)


if __name__ == "__main__":
    sys.exit(main())
