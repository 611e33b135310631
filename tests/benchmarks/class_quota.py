"""Benchmark of a login's quota (s023) against its running total (s028).

Run: `.venv/bin/python tests/benchmarks/class_quota.py [--measured 200] [--at 0 1000 3000]`.

It starts a real PostgreSQL (the packaged server) and makes two classes: one of the version
before s028 (its quota sums the login's rows in login_storage at every push) and one of today's
(it reads and adds to the login's total). The shared workstation login pushes one attempt (and
its two skills) per push into each, a push in one and then in the other, so both meet the same
load. After 0, 1,000 and 3,000 pushes (`--at`), `--measured` pushes of each are timed, and as
many reads of the quota alone (`login_stored()`, the read each push makes): the medians and the
ratios new / old. Times are wall-clock on a shared machine: compare the ratios,
not the milliseconds, across runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg
from psycopg.types.json import Jsonb

from tests.support.class_server import Class, progress_file, start_server
from trainer.classes.workstation.queue import Queue

#: the migration before s028: a class of the version before
BEFORE = "s026_class_breaks"


def model(folder: Path) -> tuple[dict, dict]:
    """A trainee and an attempt as a workstation sends them (an attempt with two skills)."""
    queue = Queue(progress_file(folder / "model.sqlite", {"Mo": 1}))
    try:
        batch = queue.batch("any class", 1)[1]
    finally:
        queue.close()
    return batch["trainees"][0], batch["attempts"][0]


def pusher(klass: Class, trainee: dict, attempt: dict):
    conn = klass.connect("workstation")
    with conn.transaction():
        conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [trainee], "attempts": []}),))
    n = 0

    def push() -> float:
        nonlocal n
        n += 1
        batch = Jsonb({"trainees": [], "attempts": [{**attempt, "uid": f"{n:032x}"}]})
        start = time.perf_counter()
        with conn.transaction():
            conn.execute("SELECT push_attempts(%s)", (batch,))
        return time.perf_counter() - start

    def read() -> float:
        """The quota's read alone, as each push makes it (s023: a sum of the login's rows; s028: its
        total's row)."""
        start = time.perf_counter()
        conn.execute("SELECT * FROM login_stored()").fetchone()
        return time.perf_counter() - start

    return conn, push, read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measured", type=int, default=200, help="pushes timed at each point")
    parser.add_argument("--at", type=int, nargs="+", default=[0, 1000, 3000],
                        help="the login's pushes before each point")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-quota-"))
    folder.chmod(0o755)
    server = start_server(folder / "class")
    try:
        trainee, attempt = model(folder)
        old, new = Class(server, upto=BEFORE), Class(server)
        with old.admin() as admin:
            assert admin.execute("SELECT to_regclass('login_totals')").fetchone()[0] is None
        old_conn, old_push, old_read = pusher(old, trainee, attempt)
        new_conn, new_push, new_read = pusher(new, trainee, attempt)
        done = 0
        print(f"{'pushes before':>14} {'push, before s028':>18} {'s028':>8} {'ratio':>6}   "
              f"{'quota read, before':>18} {'s028':>8} {'ratio':>6}")
        for point in sorted(args.at):
            while done < point:
                old_push()
                new_push()
                done += 1
            took_old, took_new, read_old, read_new = [], [], [], []
            for _ in range(args.measured):
                took_old.append(old_push())
                took_new.append(new_push())
                read_old.append(old_read())
                read_new.append(new_read())
            done += args.measured
            a, b = statistics.median(took_old), statistics.median(took_new)
            c, d = statistics.median(read_old), statistics.median(read_new)
            print(f"{point:>14,} {a * 1000:>15.1f} ms {b * 1000:>5.1f} ms {b / a:>6.2f}   "
                  f"{c * 1000:>15.2f} ms {d * 1000:>5.2f} ms {d / c:>6.2f}", flush=True)
        for conn in (old_conn, new_conn):
            conn.close()
        with new.admin() as admin:
            kept = admin.execute("SELECT rows FROM login_totals").fetchone()[0]
            summed = admin.execute("SELECT sum(rows) FROM login_storage").fetchone()[0]
        print(f"the new class's total: {kept} rows, the sum of its login_storage: {summed}")
    except psycopg.Error as e:
        print(f"failed: {e}", file=sys.stderr)
        return 1
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
