"""`dealer-trainer class-server --data DIR [--host H] [--port N]`: run a class's PostgreSQL server
on this machine and print the address workstations join with; `dealer-trainer class-server --stop
DIR`: stop the one whose data is in DIR (trainer.classes.server.command)."""

from __future__ import annotations

import argparse

NAME = "class-server"
HELP = ("run a class's PostgreSQL server on this machine and print the address workstations join "
        "with (Ctrl+C or --stop DIR stops it)")


def add_arguments(parser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--data", metavar="DIR", help="the folder that keeps the class's data")
    what.add_argument("--stop", metavar="DIR",
                      help="stop the class server whose data is in DIR (started here, in any window)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: "
                             "every network)")
    parser.add_argument("--port", type=_port, default=5432, help="the port to listen on (default 5432)")


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (a whole number from 1 to 65535)")
    return int(text)


def run(args) -> int:
    from trainer.classes.server.postgres import Postgres, packaged_server

    packaged_server()  # before anything is made in the folder: without it, how to get it
    if args.data is not None:  # a folder that cannot hold the class is said before the server's
        # code (psycopg, the class's tables and ledger: some 0.3 s of processor) is loaded
        Postgres(args.data, host=args.host, port=args.port).check_folder()
    if args.stop is not None:  # without the server's code: a stop does not use it
        from trainer.classes.server.stopping import stop_server

        return stop_server(args.stop, say=lambda line: print(line, flush=True))
    from trainer.classes.server.command import serve
    from trainer.exams.forms import bundled_forms

    forms = [(f.uid, f.digest, f.name, f.attempts_allowed) for f in bundled_forms()]
    return serve(args.data, args.host, args.port, say=lambda line: print(line, flush=True), forms=forms)
