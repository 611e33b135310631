"""Benchmark of a batch of supervised rounds pushed to the class (push_supervised), before and
after s041 checks every round (its fields, its faults against the catalogue, its uid its own).

Run: `.venv/bin/python tests/benchmarks/supervised_push.py [--rounds 50] [--measured 20]`.

It starts a real PostgreSQL (the packaged server) and makes two classes: one of the version
before s041 (`upto` s037) and one of today's. The shared workstation login pushes the same batch
of `--rounds` rounds (as the app sends them, each with its faults) into each, one push in one and
then one in the other, `--measured` times, each push under new times (so new uids: every round is
added). Prints the median of each and the ratio after / before. Times are wall-clock on a shared
machine: compare the ratio, not the milliseconds, across runs.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from psycopg.types.json import Jsonb

from tests.support.class_server import Class, progress_file, start_server
from tests.test_class_supervised import T, supervise
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.supervised import batch
from trainer.progress.supervised import round_uid

BEFORE = "s037_supervised_rounds"
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "pai-gow-dice")


def model(folder: Path, n: int) -> tuple[dict, list[dict]]:
    """A trainee and `n` rounds of hers as a workstation sends them."""
    path = progress_file(folder / "model.sqlite", {"Mo": 0})
    for k in range(n):
        supervise(path, "Mo", GAMES[k % len(GAMES)], 1 + k, T + k)
    with contextlib.closing(Queue(path)) as queue:
        trainee = queue.trainees()[0]
        return trainee, batch(queue, "any class", n)[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--measured", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="supervised-push-"))
    server = start_server(folder / "server")
    try:
        trainee, rounds = model(folder, args.rounds)
        classes = {"before": Class(server, upto=BEFORE), "after": Class(server)}
        conns = {}
        for name, klass in classes.items():
            conn = klass.connect("workstation")
            conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee], "attempts": []}),))
            conns[name] = conn
        times: dict[str, list[float]] = {name: [] for name in classes}
        for i in range(args.measured):
            moved = []
            for r in rounds:
                finished = r["finished"] + 3600.0 * (i + 1)
                moved.append({**r, "finished": finished,
                              "uid": round_uid(r["trainee_uid"], r["round_uid"], finished)})
            for name, conn in conns.items():
                start = time.perf_counter()
                with conn.transaction():
                    added = conn.execute("SELECT push_supervised(%s)",
                                         (Jsonb({"rounds": moved}),)).fetchone()[0]
                times[name].append(time.perf_counter() - start)
                assert added == len(moved), (name, added)
        medians = {name: statistics.median(t) for name, t in times.items()}
        for name, m in medians.items():
            low, high = min(times[name]) * 1000, max(times[name]) * 1000
            print(f"{name:6s}: median {m * 1000:7.1f} ms for {args.rounds} rounds "
                  f"({args.measured} pushes; min {low:.1f}, max {high:.1f})")
        print(f"after / before: {medians['after'] / medians['before']:.2f}")
        for conn in conns.values():
            conn.close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
