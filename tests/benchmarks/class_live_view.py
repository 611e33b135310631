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
- **the instructor**: in this process, the real Class tab (`ClassView`, offscreen) made live by
  `LiveClass` over an instructor's `ClassConnection`, as the app does: it follows the class's
  notifications, reads the class again (at most twice a second) and redraws.

An attempt is *visible* when the view has drawn an overview whose trainee's count of attempts
(their exercises of a skill every attempt practises) includes it, and the paint that drawing asked
for is done (the first turn of the event loop after it). Record → visible is from the moment the
workstation's `record_attempt` began to then. Each redraw of the live view is timed too (drawing
the overview and its paint), by the number of trainees it drew. The workstations' clock and this
one are the same (time.monotonic is the machine's on Linux).

Times are wall-clock on a shared machine: say the machine's load (`uptime`) with them.
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


def run_class(app, klass: Class, folder: Path, workstations: int, seconds: float, pace: float,
              margin: float) -> dict:
    from trainer.classes.workstation.connection import ClassConnection
    from trainer.progress.store import Store
    from ui.classroom.live import LiveClass
    from ui.classroom.view import ClassView
    from ui.qt import QEventLoop, QTimer

    run = folder / f"class-{workstations}"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    Store.open(run / "instructor.db").close()
    view = ClassView()
    view.resize(1366, 700)
    view.show()
    drawn: list[tuple[float, dict[int, int]]] = []  # (when visible, attempts shown per workstation)
    redraws: list[tuple[int, float]] = []  # (trainees drawn, ms to draw and paint)
    show = view.show_overview

    def timed_show(overview, **kw):
        most: dict[int, int] = {}  # counted before the drawing is timed
        for (tid, _), c in overview.cells.items():
            most[tid] = max(most.get(tid, 0), c.exercises)
        counts = {k: most.get(t.id, 0) for t in overview.trainees if (k := trainee_of(t.name)) is not None}
        start = time.perf_counter()
        show(overview, **kw)

        def painted():
            drawn.append((time.monotonic(), counts))
            redraws.append((len(overview.trainees), 1000 * (time.perf_counter() - start)))

        QTimer.singleShot(0, painted)  # after the paint the drawing asked for (posted events first)

    view.show_overview = timed_show
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
    instructor = ClassConnection(str(run / "instructor.db"), klass.address("instructor"))
    reads: list[float] = []  # ms of each read of the class the live view makes (its three calls)
    for name in ("class_overview", "class_activity", "unended_sittings"):
        call = getattr(instructor, name)

        def timed(*a, _call=call, _name=name, **kw):
            start = time.perf_counter()
            try:
                return _call(*a, **kw)
            finally:
                ms = 1000 * (time.perf_counter() - start)
                if _name == "class_overview":
                    reads.append(ms)
                else:
                    reads[-1] += ms

        setattr(instructor, name, timed)
    announced: dict[int, float] = {}  # a server id: when the live view's follower had it
    follow = instructor.follow

    def noted(stop):
        for attempt_id in follow(stop):
            if attempt_id is not None:
                announced.setdefault(attempt_id, time.monotonic())
            yield attempt_id

    instructor.follow = noted
    live = LiveClass(view, instructor)
    start.value = start_at = time.monotonic() + 5 + margin * workstations  # the view drawn first
    go.set()
    loop = QEventLoop()
    watch = QTimer()
    watch.timeout.connect(lambda: loop.quit() if not any(p.is_alive() for p in processes) else None)
    watch.start(200)
    loop.exec()
    span = time.monotonic() - forked
    settle = time.monotonic() + 3  # the last reads drawn
    while time.monotonic() < settle:
        app.processEvents()
        time.sleep(0.01)
    for p in processes:
        p.join()
    live.stop()
    instructor.close()
    view.close()
    recorded: dict[int, list] = {}
    waiting = 0
    for k in range(workstations):
        doc = json.loads((run / f"ws-{k:02d}.json").read_text())
        recorded[k] = doc["recorded"]
        waiting += doc["waiting"]
    with klass.admin() as admin:
        ids = dict(admin.execute("SELECT uid, id FROM attempts").fetchall())
    latencies, unseen, pushed = [], 0, []
    for k, attempts in recorded.items():
        for n, (uid, at, _took) in enumerate(attempts, start=1):
            if ids.get(uid) in announced:
                pushed.append(announced[ids[uid]] - at)
            seen = next((when for when, counts in drawn if counts.get(k, 0) >= n), None)
            if seen is None:
                unseen += 1
            else:
                latencies.append(seen - at)
    last = drawn[-1][1] if drawn else {}
    return {"recorded": sum(len(a) for a in recorded.values()), "on_server": klass.count(),
            "waiting": waiting, "unseen": unseen, "latency": latencies, "redraws": redraws,
            "shown_at_end": sum(last.values()), "reads": live.refreshes, "read_ms": reads,
            "cpu": sum(float((run / f"ws-{k:02d}.cpu").read_text()) for k in range(workstations)),
            "span": span, "pushed": pushed,
            "late": sum(1 for k in recorded if recorded[k] and recorded[k][0][1] > start_at + pace)}


def report(workstations: int, f: dict, seconds: float, pace: float) -> None:
    lat = sorted(f["latency"])
    print(f"\n{workstations} workstations, an attempt every {pace:g} s each for {seconds:g} s "
          f"({load()} at the end)")
    print(f"  {f['recorded']:,} recorded, {f['on_server']:,} on the server, {f['shown_at_end']:,} shown "
          f"in the view at the end, {f['unseen']} never shown, {f['waiting']} still waiting; "
          f"{f['reads']} redraws from the server; {f['late']} workstations started late")
    print(f"  the workstation processes' CPU (each from its fork to its end): {f['cpu']:.0f} s in all, "
          f"{100 * f['cpu'] / workstations / f['span']:.1f}% of a core each")
    if f["read_ms"]:
        print(f"  a read of the class (overview, activity, sittings; on the reads' one connection): "
              f"median {statistics.median(f['read_ms']):.0f} ms, p95 {percentile(f['read_ms'], 95):.0f} ms")
    if lat:
        print(f"  record → visible in the live view: p50 {1000 * statistics.median(lat):.0f} ms, "
              f"p95 {1000 * percentile(lat, 95):.0f} ms, max {1000 * lat[-1]:.0f} ms  (aim: p95 < 1000)")
    if f["pushed"]:
        pushed = f["pushed"]
        print(f"  of which record → announced to the instructor (the push and the notification): "
              f"p50 {1000 * statistics.median(pushed):.0f} ms, p95 {1000 * percentile(pushed, 95):.0f} ms")
    full = [ms for n, ms in f["redraws"] if n == max(n for n, _ in f["redraws"])]
    if full:
        print(f"  one redraw of the live view at {max(n for n, _ in f['redraws'])} trainees (drawn and "
              f"painted): median {statistics.median(full):.1f} ms, p95 {percentile(full, 95):.1f} ms "
              f"over {len(full)}  (aim at 200: < 50)")


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
