"""Benchmark of a push with nothing set aside, before and after the pusher sends again what a
claim set aside (push.resend_claimed, the seventh cold review's #138).

Run: `.venv/bin/python tests/benchmarks/claims_resend.py [--sent 1000] [--rounds 20] [--measured 50]`.

It starts a real PostgreSQL (the packaged server) and one class. A progress file with one trainee,
`--sent` attempts and `--rounds` supervised rounds, all sent, then, `--measured` times: two new
attempts recorded, one pushed as before (push_batch without resend_claimed: the batch, each_refused,
set_aside) and one as today (push_batch), in turn which first. Prints the median of each, the
ratio, and the median of resend_claimed alone (what today's push adds: two reads of the file,
nothing set aside). Times are wall-clock on a shared machine: compare the ratio, not the
milliseconds, across runs.
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

from tests.support.class_server import Class, progress_file, start_server
from tests.test_class_supervised import T, supervise
from trainer.classes.server.ledger import class_uid
from trainer.classes.workstation.push import (
    _sender,
    connect,
    each_refused,
    push_batch,
    push_trainees,
    refusal,
    resend_claimed,
    send_waiting,
)
from trainer.classes.workstation.queue import Queue


def before(conn, queue: Queue, class_id: str, size: int) -> tuple[int, int]:
    """push_batch as it was before resend_claimed."""
    ids, batch = queue.batch(class_id, size)
    if not ids:
        return 0, 0
    items = list(zip(ids, batch["attempts"], strict=True))
    refused = each_refused(_sender(conn, queue, class_id, batch), items)
    if refused:
        queue.set_aside(class_id, {i: refusal(a, why) for (i, a), why in refused})
    return len(ids) - len(refused), len(refused)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sent", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--measured", type=int, default=50)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="claims-resend-"))
    server = start_server(folder / "server")
    try:
        klass = Class(server)
        path = progress_file(folder / "table-2.sqlite", {"Bo Chen": args.sent})
        for k in range(args.rounds):
            supervise(path, "Bo Chen", "props-and-hops", 1 + k, T + k)
        address = klass.address()
        with contextlib.closing(Queue(path)) as queue, connect(address) as conn:
            class_id = class_uid(conn)
            queue.remember(class_id, address.shown)
            push_trainees(conn, queue)
            send_waiting(conn, queue, class_id)
            ways = {"before": before, "after": push_batch}
            times: dict[str, list[float]] = {name: [] for name in ways}
            alone: list[float] = []
            for i in range(args.measured):
                progress_file(path, {"Bo Chen": 2}, start=args.sent + 2 * i)
                order = list(ways) if i % 2 == 0 else list(reversed(ways))
                for name in order:
                    start = time.perf_counter()
                    assert ways[name](conn, queue, class_id, 1) == (1, 0), name
                    times[name].append(time.perf_counter() - start)
                assert not queue.batch(class_id, 1)[0]
                pushed = [(0, {"trainee_uid": queue.trainees()[0]["uid"]})]
                start = time.perf_counter()
                assert resend_claimed(conn, queue, class_id, pushed, []) == 0
                alone.append(time.perf_counter() - start)
        medians = {name: statistics.median(t) for name, t in times.items()}
        for name, m in medians.items():
            print(f"{name}: median {m * 1000:.2f} ms of {len(times[name])} pushes of 1 attempt "
                  f"(min {min(times[name]) * 1000:.2f}, max {max(times[name]) * 1000:.2f})")
        print(f"after / before: {medians['after'] / medians['before']:.3f}")
        print(f"resend_claimed alone, nothing set aside: median {statistics.median(alone) * 1e6:.0f} µs")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
