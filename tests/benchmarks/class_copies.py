"""Benchmark of what a class test costs the test server: a class database made, as every class
test makes one (a copy of the template, given its rights, tests/support/class_server.py), joined
once by the instructor, and dropped, with the superuser's connection the run's server keeps
(`keep_admin`, as the `server` fixture does), on a server whose files are on the disk and on one
whose files are in memory (`server_folder`: a tmpfs), turn by turn.

Run: `.venv/bin/python tests/benchmarks/class_copies.py [--classes 40] [--rounds 3] [--disk DIR]`.

It reports, for each server, the server's CPU (user + system, all its processes: read from /proc
as tests.support.timing reads it) and the benchmark's own per class, medians over the rounds.
CPU, not wall: the machine may be busy with other work. Linux only (/proc); without a tmpfs with
room (`in_memory`), the memory server is left out.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.class_server import Class, in_memory, keep_admin, let_go, server_folder, start_server
from tests.support.timing import _tree
from trainer.classes.server.postgres import Postgres


def server_cpu(server: Postgres) -> float:
    return _tree(int((server.pgdata / "postmaster.pid").read_text().split()[0]))


def own_cpu() -> float:
    used = os.times()
    return used.user + used.system


def classes(server: Postgres, n: int) -> tuple[float, float]:
    """The server's CPU and this process's per class, over `n` classes made, joined and dropped
    one after another."""
    before, mine = server_cpu(server), own_cpu()
    for _ in range(n):
        klass = Class(server)
        with klass.connect("instructor") as conn:
            conn.execute("SELECT count(*) FROM attempts").fetchone()
        klass.drop()
    return (server_cpu(server) - before) / n, (own_cpu() - mine) / n


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
            keep_admin(servers[where])
            Class(servers[where]).drop()  # the template made, outside the measure
        cpu: dict[str, list[tuple[float, float]]] = {where: [] for where in servers}
        for _ in range(args.rounds):
            for where, server in servers.items():
                cpu[where].append(classes(server, args.classes))
        for where, values in cpu.items():
            print(f"{where:7s} {statistics.median(v[0] for v in values) * 1000:6.1f} ms of the server's "
                  f"CPU and {statistics.median(v[1] for v in values) * 1000:4.1f} ms of the benchmark's "
                  f"per class (rounds: {', '.join(f'{v[0] * 1000:.1f}/{v[1] * 1000:.1f}' for v in values)})")
    finally:
        for server in servers.values():
            let_go(server)
            server.stop()
        for folder in folders.values():
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
