"""Benchmark: the live Class tab's two kinds of read, and its redraw, at N trainees, in one process.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/class_live_reads.py
        [--trainees 200] [--attempts 6] [--rounds 40]

A class on the packaged PostgreSQL (loopback) with `--trainees` trainees of `--attempts` attempts
each; then, `--rounds` times, one trainee records one more attempt (pushed as a workstation
pushes it), and the instructor's connection reads the class both ways, one after the other, so
that both meet the same load: in full (`read_class(conn)`, what every read of the live view was
before) and only what the attempt changed (`read_class(conn, before, [its id])`). Each reading is
drawn in a Class tab (`ClassView`, offscreen) and painted: the one read in full redrawing every
row it compares, the other only the changed row. The figures are medians over the rounds, with
the queries each read sends (each a round trip to the server) and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.class_server import percentile
from tests.support.class_server import Class, progress_file, push_all, start_server


class Counted:
    """A connection that counts the queries sent through it."""

    def __init__(self, conn):
        self.conn, self.queries = conn, 0

    def execute(self, *args, **kwargs):
        self.queries += 1
        return self.conn.execute(*args, **kwargs)

    def cursor(self, *args, **kwargs):
        return self.conn.cursor(*args, **kwargs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainees", type=int, default=200)
    ap.add_argument("--attempts", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    from trainer.classes.workstation.classview import read_class
    from ui.classroom.view import ClassView
    from ui.qt import QApplication

    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp(prefix="class-live-reads-"))
    folder.chmod(0o755)
    server = start_server(folder / "server")
    try:
        klass = Class(server)
        names = [f"Workstation {k:03d} trainee" for k in range(args.trainees)]
        path = progress_file(folder / "ws.db", dict.fromkeys(names, args.attempts))
        push_all(path, klass, 500)
        full_view, changed_view = ClassView(), ClassView()
        for view in (full_view, changed_view):
            view.resize(1366, 700)
            view.show()
        times: dict[str, list[float]] = {"in full": [], "what changed": [], "redraw in full": [],
                                         "redraw what changed": []}
        queries: dict[str, int] = {}
        loads = []
        with klass.connect("instructor") as raw:
            conn = Counted(raw)
            reading = read_class(conn)
            full_view.show_overview(reading.overview)
            changed_view.show_overview(reading.overview)
            app.processEvents()
            for n in range(args.rounds):
                progress_file(path, {names[n * 7 % len(names)]: 1}, start=args.attempts + n)
                push_all(path, klass)
                newest = raw.execute("SELECT max(id) FROM attempts").fetchone()[0]
                loads.append(os.getloadavg()[0])
                for kind in ("in full", "what changed") if n % 2 else ("what changed", "in full"):
                    conn.queries = 0
                    start = time.perf_counter()
                    got = read_class(conn) if kind == "in full" else read_class(conn, reading, [newest])
                    times[kind].append(1000 * (time.perf_counter() - start))
                    queries[kind] = conn.queries
                    assert got.full is (kind == "in full")
                    view = full_view if kind == "in full" else changed_view
                    start = time.perf_counter()
                    view.show_overview(got.overview, changed=got.changed)
                    app.processEvents()
                    times[f"redraw {kind}"].append(1000 * (time.perf_counter() - start))
                    if kind == "what changed":
                        reading = got
        made = args.trainees * args.attempts + args.rounds
        print(f"{args.trainees} trainees, {made:,} attempts at the end; "
              f"{os.cpu_count()} cores; load average over 1 min during the rounds: mean "
              f"{statistics.mean(loads):.1f}, max {max(loads):.1f}")
        for kind in ("in full", "what changed"):
            ms = times[kind]
            print(f"  a read {kind}: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
                  f"{queries[kind]} queries")
            ms = times[f"redraw {kind}"]
            print(f"    its redraw at {args.trainees} trainees (drawn and painted): median "
                  f"{statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
