"""Benchmark of what a class test costs the test server: a class database made, as every class
test makes one (a copy of the template, tests/support/class_server.py), joined once by the
instructor, and dropped, on a server whose files are on the disk and on one whose files are in
memory (`server_folder`: a tmpfs), turn by turn.

Run: `.venv/bin/python tests/benchmarks/class_copies.py [--classes 40] [--rounds 3] [--disk DIR]`.

It reports, for each server, the server's CPU (user + system, all its processes: read from /proc
as tests.support.timing reads it) per class, median over the rounds. CPU, not wall: the machine
may be busy with other work. Linux only (/proc); without a tmpfs with room (`in_memory`), the
memory server is left out.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.class_server import Class, in_memory, server_folder, start_server
from tests.support.timing import _tree
from trainer.classes.server.postgres import Postgres


def server_cpu(server: Postgres) -> float:
    return _tree(int((server.pgdata / "postmaster.pid").read_text().split()[0]))


def classes(server: Postgres, n: int) -> float:
    """The server's CPU per class, over `n` classes made, joined and dropped one after another."""
    before = server_cpu(server)
    for _ in range(n):
        klass = Class(server)
        with klass.connect("instructor") as conn:
            conn.execute("SELECT count(*) FROM attempts").fetchone()
        klass.drop()
    return (server_cpu(server) - before) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--disk", default=tempfile.gettempdir(), help="a folder on the disk")
    args = parser.parse_args()
    folders = {"disk": Path(tempfile.mkdtemp(prefix="dealer-trainer-bench-", dir=args.disk))}
    if in_memory():
        folders["memory"] = server_folder("dealer-trainer-bench-")
    servers = {}
    try:
        for where, folder in folders.items():
            servers[where] = start_server(folder / "class", quick=True)
            Class(servers[where]).drop()  # the template made, outside the measure
        cpu: dict[str, list[float]] = {where: [] for where in servers}
        for _ in range(args.rounds):
            for where, server in servers.items():
                cpu[where].append(classes(server, args.classes))
        for where, values in cpu.items():
            print(f"{where:7s} {statistics.median(values) * 1000:6.1f} ms of the server's CPU per class "
                  f"(rounds: {', '.join(f'{v * 1000:.1f}' for v in values)})")
    finally:
        for server in servers.values():
            server.stop()
        for folder in folders.values():
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
