"""Benchmark: record → visible in the instructor's live Class tab, for a class of N workstations.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/class_live_view.py
        [--workstations 30 200] [--seconds 120] [--pace 20] [--max-connections 100] [--folder DIR]

It starts a real PostgreSQL on the loopback address (the packaged server, as `dealer-trainer
class-server` does, its `max_connections` set to `--max-connections`: 100 is PostgreSQL's default)
and, for each class size, a class of its own:

- **the workstations**: each a process of its own with its own progress file and the real pusher
  (`ClassConnection`, its default timings: it connects when an attempt waits and lets the
  connection go when idle), recording an attempt every `--pace` seconds for `--seconds`
  (tests/benchmarks/class_server.py's `workstation`, each started at a random point of its pace);
- **the instructor**: in this process, two real Class tabs (`ClassView`, offscreen), each made
  live by a `LiveClass` over an instructor's `ClassConnection` of its own, as the app does: each
  follows the class's notifications, reads the class and redraws. One is the app's (it reads only
  what the attempts announced since changed, at most ten times a second); the other reads as the
  app did before (the whole class at every read, at most twice a second: `live_as_before`), so
  that both are measured on the same class, at the same moments, under the same load. They share
  this process's GUI thread, and the server.

An attempt is *visible* when the view has drawn an overview whose trainee's count of attempts
(their exercises of a skill every attempt practises) includes it, and the paint that drawing asked
for is done (the first turn of the event loop after it). Record → visible is from the moment the
workstation's `record_attempt` began to then. Each redraw of the live view is timed too (drawing
the overview and its paint), by the number of trainees it drew. The workstations' clock and this
one are the same (time.monotonic is the machine's on Linux).

Times are wall-clock on a shared machine: the load average is sampled while the workstations
record, and each view's reads and redraws are timed apart (what depends least on the load).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.class_server import percentile, workstation
from tests.support.class_server import Class, start_server
from trainer.classes.server import postgres


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def trainee_of(name: str) -> int | None:
    """The workstation number of a trainee the benchmark's workstations made."""
    if name.startswith("Workstation ") and name.endswith(" trainee"):
        return int(name.split()[1])
    return None


def ready_then_work(k: int, folder: str, url: str, seconds: float, pace: float, arrived, go, start) -> None:
    """A workstation process: join the class, say so, and wait for the class to begin (every
    workstation joined: on a loaded machine 200 take minutes), then record as
    class_server.workstation does."""

    def ready() -> float:
        arrived.release()
        go.wait()
        return start.value

    workstation(k, folder, url, seconds, pace, 0.0, ready)
    used = resource.getrusage(resource.RUSAGE_SELF)  # its threads' too (the pusher's)
    (Path(folder) / f"ws-{k:02d}.cpu").write_text(str(used.ru_utime + used.ru_stime))


class Watcher:
    """One instructor's live Class tab (the real `ClassView`, offscreen, made live by a
    `LiveClass` over an instructor's `ClassConnection` of its own), timed: when each overview it
    draws is visible, each redraw, each read. `as_before`: the live view as it was before it read
    only what changed (every read the whole class, at most two a second), for the same class at
    the same moment."""

    def __init__(self, run: Path, klass: Class, *, as_before: bool):
        from trainer.classes.workstation.connection import ClassConnection
        from trainer.progress.store import Store
        from ui.classroom.live import LiveClass
        from ui.classroom.view import ClassView
        from ui.qt import QTimer

        self.name = "as before (whole class, twice a second)" if as_before else "what changed"
        self.view = view = ClassView()
        view.resize(1366, 700)
        view.show()
        self.drawn: list[tuple[float, dict[int, int]]] = []  # (when visible, attempts shown per workstation)
        self.redraws: list[tuple[int, float]] = []  # (trainees drawn, ms to draw and paint)
        self.reads: list[tuple[bool, float, float]] = []  # (in full, ms, when): the class and the sittings
        show = view.show_overview

        def timed_show(overview, **kw):
            most: dict[int, int] = {}  # counted before the drawing is timed
            for (tid, _), c in overview.cells.items():
                most[tid] = max(most.get(tid, 0), c.exercises)
            counts = {k: most.get(t.id, 0) for t in overview.trainees
                      if (k := trainee_of(t.name)) is not None}
            start = time.perf_counter()
            show(overview, **kw)

            def painted():
                self.drawn.append((time.monotonic(), counts))
                self.redraws.append((len(overview.trainees), 1000 * (time.perf_counter() - start)))

            QTimer.singleShot(0, painted)  # after the paint the drawing asked for (posted events first)

        view.show_overview = timed_show
        name = "as-before" if as_before else "changed"
        Store.open(run / f"instructor-{name}.db").close()
        self.connection = instructor = ClassConnection(str(run / f"instructor-{name}.db"),
                                                       klass.address("instructor"))
        read_class, unended = instructor.read_class, instructor.unended_sittings

        def timed_read(before=None, arrived=None):
            if as_before:
                before = arrived = None
            when, start = time.monotonic(), time.perf_counter()
            reading = read_class(before, arrived)
            self.reads.append((reading.full, 1000 * (time.perf_counter() - start), when))
            return reading

        def timed_unended():
            start = time.perf_counter()
            try:
                return unended()
            finally:
                full, ms, when = self.reads[-1]
                self.reads[-1] = (full, ms + 1000 * (time.perf_counter() - start), when)

        instructor.read_class, instructor.unended_sittings = timed_read, timed_unended
        self.announced: dict[int, float] = {}  # a server id: when this view's follower had it
        follow = instructor.follow

        def noted(stop):
            for attempt_id in follow(stop):
                if attempt_id is not None:
                    self.announced.setdefault(attempt_id, time.monotonic())
                yield attempt_id

        instructor.follow = noted
        self.live = (live_as_before() if as_before else LiveClass)(view, instructor)

    def stop(self) -> None:
        self.live.stop()
        self.connection.close()
        self.view.close()

    def figures(self, recorded: dict[int, list], ids: dict[str, int], start_at: float, end_at: float) -> dict:
        latencies, unseen, pushed = [], 0, []
        for k, attempts in recorded.items():
            for n, (uid, at, _took) in enumerate(attempts, start=1):
                if ids.get(uid) in self.announced:
                    pushed.append(self.announced[ids[uid]] - at)
                seen = next((when for when, counts in self.drawn if counts.get(k, 0) >= n), None)
                if seen is None:
                    unseen += 1
                else:
                    latencies.append(seen - at)
        last = self.drawn[-1][1] if self.drawn else {}
        during = [ms for _, ms, when in self.reads if start_at <= when <= end_at]
        return {"name": self.name, "unseen": unseen, "latency": latencies, "redraws": self.redraws,
                "shown_at_end": sum(last.values()), "reads": self.reads, "pushed": pushed,
                "reads_during": len(during), "read_ms_during": sum(during)}


def live_as_before():
    """LiveClass as it was: the whole class at every read, and a read asked for at most every
    500 ms (its DEBOUNCE_MS then)."""
    from ui.classroom.live import LiveClass

    class AsBefore(LiveClass):
        def gap(self) -> float:
            return 500.0

    return AsBefore


def run_class(app, klass: Class, folder: Path, workstations: int, seconds: float, pace: float,
              margin: float) -> dict:
    from ui.qt import QEventLoop, QTimer

    run = folder / f"class-{workstations}"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    # the workstations forked from a server that imported the app once: 200 interpreters started
    # each on their own took 10 minutes of a loaded 2-core machine
    forks = multiprocessing.get_context("forkserver")
    forks.set_forkserver_preload(["tests.benchmarks.class_server"])
    arrived, go, start = forks.Semaphore(0), forks.Event(), forks.Value("d", 0.0)
    url = klass.address("workstation").url
    processes = [forks.Process(target=ready_then_work,
                               args=(k, str(run), url, seconds, pace, arrived, go, start))
                 for k in range(workstations)]
    forked = time.monotonic()
    for p in processes:
        p.start()
    for _ in processes:
        arrived.acquire()
    print(f"  {workstations} workstations joined the class ({load()})", flush=True)
    watchers = [Watcher(run, klass, as_before=True), Watcher(run, klass, as_before=False)]
    start.value = start_at = time.monotonic() + 5 + margin * workstations  # the views drawn first
    go.set()
    loop = QEventLoop()
    loads: list[float] = []
    watch = QTimer()

    def look():
        if time.monotonic() >= start_at:
            loads.append(os.getloadavg()[0])
        if not any(p.is_alive() for p in processes):
            loop.quit()

    watch.timeout.connect(look)
    watch.start(200)
    loop.exec()
    end_at = time.monotonic()
    span = end_at - forked
    settle = time.monotonic() + 3  # the last reads drawn
    while time.monotonic() < settle:
        app.processEvents()
        time.sleep(0.01)
    for p in processes:
        p.join()
    for w in watchers:
        w.stop()
    recorded: dict[int, list] = {}
    waiting = 0
    for k in range(workstations):
        doc = json.loads((run / f"ws-{k:02d}.json").read_text())
        recorded[k] = doc["recorded"]
        waiting += doc["waiting"]
    with klass.admin() as admin:
        ids = dict(admin.execute("SELECT uid, id FROM attempts").fetchall())
    return {"recorded": sum(len(a) for a in recorded.values()), "on_server": klass.count(),
            "waiting": waiting, "views": [w.figures(recorded, ids, start_at, end_at) for w in watchers],
            "cpu": sum(float((run / f"ws-{k:02d}.cpu").read_text()) for k in range(workstations)),
            "span": span, "recording": end_at - start_at, "loads": loads,
            "late": sum(1 for k in recorded if recorded[k] and recorded[k][0][1] > start_at + pace)}


def report(workstations: int, f: dict, seconds: float, pace: float) -> None:
    loads = f["loads"] or [0.0]
    print(f"\n{workstations} workstations, an attempt every {pace:g} s each for {seconds:g} s "
          f"(load average over 1 min while they recorded: mean {statistics.mean(loads):.1f}, "
          f"max {max(loads):.1f}; {load()} at the end)")
    print(f"  {f['recorded']:,} recorded, {f['on_server']:,} on the server, {f['waiting']} still waiting; "
          f"{f['late']} workstations started late")
    print(f"  the workstation processes' CPU (each from its fork to its end): {f['cpu']:.0f} s in all, "
          f"{100 * f['cpu'] / workstations / f['span']:.1f}% of a core each")
    for v in f["views"]:
        lat = sorted(v["latency"])
        print(f"  live view {v['name']}: {v['shown_at_end']:,} shown at the end, {v['unseen']} never shown")
        if lat:
            print(f"    record → visible: p50 {1000 * statistics.median(lat):.0f} ms, "
                  f"p95 {1000 * percentile(lat, 95):.0f} ms, max {1000 * lat[-1]:.0f} ms  (aim: p95 < 1000)")
        if v["pushed"]:
            pushed = v["pushed"]
            print(f"    of which record → announced (the push and the notification): p50 "
                  f"{1000 * statistics.median(pushed):.0f} ms, p95 {1000 * percentile(pushed, 95):.0f} ms")
        print(f"    reads while the class recorded: {v['reads_during'] / f['recording']:.1f} a second, "
              f"{v['read_ms_during'] / f['recording']:.0f} ms of reading a second")
        for full, kind in ((True, "in full"), (False, "of what changed")):
            ms = [m for was, m, _ in v["reads"] if was is full]
            if ms:
                print(f"    a read {kind} (the class and the sittings, on the reads' one connection): "
                      f"{len(ms)}, median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms")
        full = [ms for n, ms in v["redraws"] if n == max(n for n, _ in v["redraws"])]
        if full:
            print(f"    one redraw at {max(n for n, _ in v['redraws'])} trainees (drawn and painted): "
                  f"median {statistics.median(full):.1f} ms, p95 {percentile(full, 95):.1f} ms over "
                  f"{len(full)}  (aim at 200: < 50)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workstations", type=int, nargs="+", default=[30, 200])
    ap.add_argument("--seconds", type=float, default=120.0, help="how long each class records")
    ap.add_argument("--pace", type=float, default=20.0, help="seconds between a workstation's attempts")
    ap.add_argument("--max-connections", type=int, default=100,
                    help="the server's max_connections (PostgreSQL's default: 100)")
    ap.add_argument("--margin", type=float, default=0.02,
                    help="seconds more before the class begins, for each workstation")
    ap.add_argument("--folder", type=Path, help="where the server and the files go (default: a "
                    "temporary folder, removed afterwards)")
    args = ap.parse_args()
    from ui.qt import QApplication

    app = QApplication.instance() or QApplication([])
    postgres.CONNECTIONS = args.max_connections
    folder = args.folder or Path(tempfile.mkdtemp(prefix="class-live-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    print(f"class server: max_connections {args.max_connections} ({postgres.RESERVED} kept for the "
          f"instructor); {os.cpu_count()} cores; {load()} at the start")
    server = start_server(folder / "server")
    try:
        for n in args.workstations:
            figures = run_class(app, Class(server), folder, n, args.seconds, args.pace, args.margin)
            report(n, figures, args.seconds, args.pace)
    finally:
        server.stop()
        if args.folder is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
