"""Benchmark of the class server's CPU for a workstation's push (push_attempts), in a class of
before s045 (the chain of s010's push and the four layers wrapped around it since, each its own
PL/pgSQL function, each statement planned again at each of a connection's first five pushes) and
in today's (s045: the four inner layers one function, under s043's push_attempts; each statement
of both, and workstation_caller's, planned once per connection).

Run: `.venv/bin/python tests/benchmarks/class_push.py [--attempts 3] [--rounds 20]`.

It starts a real PostgreSQL (the packaged server) and makes the two classes on it. In each round,
in each class by turns, the shared workstation login connects anew and pushes its trainee (as a
Pusher does first, push_trainees), then a batch of `--attempts` new attempts (push_batch), then
another such batch on the same connection: the first two are a fresh connection's pushes, the
third a warm one's. Each is measured as the CPU its server process spent on it, read from the
process's /proc/PID/schedstat (Linux; nanoseconds on the CPU) before and after the call, on
the same machine. Prints the median of each, per class, and the ratio today / before.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from psycopg.types.json import Jsonb

from tests.support.class_server import Class, progress_file, start_server
from trainer.classes.workstation.queue import Queue

BEFORE = "s044_supervised_claims_held"
STEPS = ("trainee, fresh", "attempts, fresh", "attempts, warm")


def on_cpu(pid: int) -> int:
    """Nanoseconds the process `pid` has spent on a CPU."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


def model(folder: Path, n: int) -> tuple[dict, list[dict]]:
    """A trainee and `n` attempts of hers (with findings and skills) as a workstation sends them."""
    queue = Queue(progress_file(folder / "model.sqlite", {"Mo Diaz": n}))
    try:
        batch = queue.batch("any class", n)[1]
    finally:
        queue.close()
    return batch["trainees"][0], batch["attempts"]


def renamed(attempts: list[dict], k: int) -> list[dict]:
    """The attempts under new ids, so that each push adds them all."""
    return [{**a, "uid": f"{a['uid'][:48]}r{k:05d}"} for a in attempts]


def pushes(klass: Class, trainee: dict, attempts: list[dict], k: int) -> list[int]:
    """The server CPU (ns) of each step of STEPS in `klass`, round `k`."""
    spent = []
    with contextlib.closing(klass.connect("workstation")) as conn:
        pid = conn.info.backend_pid
        batches = ({"trainees": [trainee], "attempts": []},
                   {"trainees": [], "attempts": renamed(attempts, 2 * k)},
                   {"trainees": [], "attempts": renamed(attempts, 2 * k + 1)})
        for batch in batches:
            before = on_cpu(pid)
            added = conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0]
            spent.append(on_cpu(pid) - before)
            assert added == len(batch["attempts"]), added
    return spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--attempts", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="class-push-"))
    server = start_server(folder / "server")
    try:
        trainee, attempts = model(folder, args.attempts)
        classes = {"before": Class(server, upto=BEFORE), "today": Class(server)}
        spent: dict[str, list[list[int]]] = {name: [] for name in classes}
        for k in range(args.rounds):
            for name, klass in classes.items():
                spent[name].append(pushes(klass, trainee, attempts, k))
        medians = {name: [statistics.median(r[i] for r in rows[1:]) / 1e6 for i in range(len(STEPS))]
                   for name, rows in spent.items()}
        print(f"server CPU per push, ms (median of {args.rounds - 1} rounds after the first; "
              f"{args.attempts} attempts a batch)")
        print(f"{'':8s}" + "".join(f"{step:>18s}" for step in STEPS))
        for name, row in medians.items():
            print(f"{name:8s}" + "".join(f"{ms:18.2f}" for ms in row))
        ratios = (t / b for t, b in zip(medians["today"], medians["before"], strict=True))
        print(f"{'ratio':8s}" + "".join(f"{r:18.2f}" for r in ratios))
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
