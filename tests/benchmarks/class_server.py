"""Benchmark of a class on one server: N workstations pushing to one PostgreSQL.

Run: `.venv/bin/python tests/benchmarks/class_server.py [--workstations 30] [--seconds 600]
[--pace 2] [--attempts 1000000] [--trainees 200] [--backlog 20000] [--folder DIR]
[--class-view-only | --backlog-only]`.

It starts a real PostgreSQL on this machine (the packaged server, as `dealer-trainer class-server`
does), then:

1. **The class view at scale.** A progress file of `--attempts` attempts of `--trainees` trainees
   is made by bulk insert (executemany, `build` in tests/benchmarks/progress_bench.py), and the
   same rows are copied into the class's database (COPY, with the server's triggers off while it loads):
   neither goes through the app, which would take hours. The instructor's class view is then
   timed on both: `server_class_overview` over an instructor's login (row-level security on) and
   `class_overview` on the file, each beside `SELECT count(*) FROM trainees` on the same
   database as a baseline.
2. **A class at work** (the same database, so the server holds those attempts too): each of N
   workstations is a process with its own progress file and the real pusher
   (`ClassConnection`), recording attempts for `--seconds`; the instructor follows the class
   (`follow`, LISTEN/NOTIFY) in this process. Two rounds: at a class's pace (each workstation
   records every `--pace` seconds), for the time from `record_attempt` on a workstation to the
   instructor seeing the attempt (aim: p95 < 1 s); then flat out (each records as fast as its
   file takes it), for the attempts per second the server sustains. Beside them, the same
   figures of the local files: the attempts per second recorded into them, and the time
   `record_attempt` takes (when it returns, the attempt is visible in the file).
   `--class-view-only` stops after the class view.
3. **A backlog pushed** (`backlog`, between the two, in a class of its own): `--backlog` attempts
   of one file pushed by the real pusher, in its batches, then a copy of the file pushed again
   (each attempt compared with the server's copy, none added): attempts per second, what the
   push function costs. `--backlog-only` runs this alone.

Times are wall-clock on a shared machine: compare the ratios, not the milliseconds, across runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.progress_bench import build, median_ms
from tests.support.class_server import Class, start_server
from trainer.classes.workstation.classview import follow, server_class_overview
from trainer.classes.workstation.connection import ClassConnection
from trainer.classes.workstation.push import BATCH, connect
from trainer.progress.classroom import class_overview
from trainer.progress.columns import ATTEMPT_SKILLS, ATTEMPTS, FINDINGS, TRAINEES
from trainer.progress.records import AttemptRecord, Mode
from trainer.progress.store import Store

LOG = tuple({"do": "pay", "round": 1, "at": 2.0 * k, "seat": 2, "bet": "double-3-3", "amount": 500}
            for k in range(10))
FINDING = {"kind": "wrong amount", "severity": "critical", "message": "paid $5.00; the payout is $7.50",
           "cite": "§ 668a.9(b)", "skill": "payouts", "expected": "r1:pay:seat2:double-3-3"}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(label: str, value: str, aim: str = "", ratio: str = "") -> None:
    print(f"{label:<58}{value:>12}  {aim:<13}{ratio}")


# --------------------------------------------------------------------------- 1. the class view at scale
def copy_to_server(path: Path, klass: Class) -> float:
    """The progress file's trainees, attempts, findings and skills, copied into the class's
    database as they are (ids too), with the triggers off, less the exams' attempts (which no
    class keeps); seconds taken."""
    import sqlite3

    t = time.perf_counter()
    source = sqlite3.connect(path)
    with klass.admin() as admin:
        admin.execute("SET session_replication_role = replica")  # no announcement per row
        for table in (TRAINEES, ATTEMPTS, FINDINGS, ATTEMPT_SKILLS):
            columns = ", ".join(c.name for c in table.shared())
            # an exam's attempts are the file's only: a class keeps an exam as its certificate (s010)
            kept = ("WHERE mode <> 'exam'" if table is ATTEMPTS else "" if table is TRAINEES else
                    "WHERE attempt_id IN (SELECT id FROM attempts WHERE mode <> 'exam')")
            with admin.cursor().copy(f"COPY {table.name} ({columns}) FROM STDIN") as copy:
                for row in source.execute(f"SELECT {columns} FROM {table.name} {kept}"):
                    copy.write_row(row)
        for table in ("trainees", "attempts", "findings"):  # ids made later follow those copied
            admin.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                          f"(SELECT coalesce(max(id), 1) FROM {table}))")
        admin.execute("VACUUM ANALYZE")
    source.close()
    return time.perf_counter() - t


def class_view(path: Path, klass: Class, runs: int) -> None:
    with Store.open(path, full_check=False) as store:
        local_base = median_ms(lambda: store.db.execute("SELECT count(*) FROM trainees").fetchall(), 200)
        local = median_ms(lambda: class_overview(store), runs)
    with connect(klass.address("instructor")) as conn:
        server_base = median_ms(lambda: conn.execute("SELECT count(*) FROM trainees").fetchall(), 200)
        server = median_ms(lambda: server_class_overview(conn), runs)
        n = conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    print(f"\nthe class view at {n:,} attempts (median of {runs})")
    line("server: class overview (instructor login)", f"{server:.1f} ms", "(aim < 200)",
         f"{server / server_base:,.0f}x its count(*) baseline ({server_base:.2f} ms)")
    line("local file: class overview", f"{local:.1f} ms", "",
         f"{local / local_base:,.0f}x its count(*) baseline ({local_base:.3f} ms)")
    line("server / local file", f"{server / local:.2f}x")


# --------------------------------------------------------------------------- 3. a backlog pushed
def backlog(klass: Class, folder: Path, attempts: int) -> None:
    """A workstation's backlog (the server was down for a day): a progress file of `attempts`
    attempts made as the app records them (a third with a finding), pushed by the real pusher
    in batches of push.BATCH; then a copy of the file pushed again, as after a crash between the
    server's commit and the file's mark (every attempt is on the server already: the push
    compares each with the server's copy and adds nothing)."""
    from tests.support.class_server import progress_file, until

    path = progress_file(folder / "backlog.db", {f"Trainee {k}": attempts // 10 for k in range(10)})
    again = folder / "backlog-again.db"
    shutil.copy(path, again)
    print(f"\na backlog of {attempts:,} attempts pushed in batches of {BATCH} (the real pusher)")
    for label, file in (("new to the class", path), ("on the class already (pushed again)", again)):
        conn = ClassConnection(str(file), klass.address())
        t = time.perf_counter()
        conn.start()
        until(lambda c=conn: c.waiting() == 0, within=3600, what="the backlog sent")
        seconds = time.perf_counter() - t
        conn.close()
        line(f"server: a backlog {label}", f"{attempts / seconds:,.0f}/s", "", f"{seconds:.1f} s")


# --------------------------------------------------------------------------- 2. a class at work
def workstation(k: int, folder: str, url: str, seconds: float, pace: float, start_at: float,
                ready=None) -> None:
    """One workstation: its own progress file and pusher, recording attempts until the time is
    up, then waiting for every attempt to be sent; what it recorded goes to ws-K.json. With
    `ready`, the workstation first joins the class (its trainee sent), then calls `ready()`,
    which gives the moment the class begins (start_at)."""
    path = Path(folder) / f"ws-{k:02d}.db"
    rng = random.Random(k)
    store = Store.open(path)
    tid = store.add_trainee(f"Workstation {k:02d} trainee")
    conn = ClassConnection(str(path), url)
    conn.start()
    if ready is not None:
        while not (conn.connected and conn.waiting() == 0):
            time.sleep(0.05)
        start_at = ready()
    recorded = []
    time.sleep(max(0.0, start_at - time.monotonic()) + (rng.random() * pace))  # not in step
    end = start_at + seconds
    n = 0
    while (now := time.monotonic()) < end:
        n += 1
        missed = rng.random() < 0.3
        record = AttemptRecord(
            trainee_id=tid, item_id=f"props-and-hops/{n % 12:02d}", game="props-and-hops",
            mode=Mode.SCENARIO, started=time.time() - 40, ended=time.time(), target=45, procedure=90,
            payouts=60 if missed else 100, speed=95, total=70 if missed else 97, passed=not missed,
            critical=missed, skills=("payouts", "collecting", "calls"), findings=(FINDING,) if missed else (),
            log=LOG)
        store.record_attempt(record)
        done = time.monotonic()
        conn.wake()
        recorded.append((record.uid, now, done - now))
        if pace:
            time.sleep(max(0.0, now + pace - time.monotonic()))
    deadline = time.monotonic() + 120
    while conn.waiting() and time.monotonic() < deadline:
        time.sleep(0.05)
    waiting = conn.waiting()
    conn.close()
    store.close()
    (Path(folder) / f"ws-{k:02d}.json").write_text(json.dumps({"recorded": recorded, "waiting": waiting}))


def class_at_work(klass: Class, folder: Path, workstations: int, seconds: float, pace: float) -> dict:
    """Run the workstations for `seconds`, the instructor following; the figures."""
    run = folder / (f"pace-{pace:g}" if pace else "flat-out")
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    with klass.admin() as admin:
        before = admin.execute("SELECT coalesce(max(id), 0) FROM attempts").fetchone()[0]
    seen: dict[int, float] = {}
    stop = threading.Event()

    def instructor() -> None:
        for attempt_id in follow(klass.address("instructor"), stop, wait=0.2):
            if attempt_id is not None:
                seen[attempt_id] = time.monotonic()

    follower = threading.Thread(target=instructor, daemon=True)
    follower.start()
    spawn = multiprocessing.get_context("spawn")
    start_at = time.monotonic() + 5 + 0.2 * workstations  # every process started and its file made
    url = klass.address("workstation").url
    processes = [spawn.Process(target=workstation, args=(k, str(run), url, seconds, pace, start_at))
                 for k in range(workstations)]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    time.sleep(1.0)  # the last announcements
    stop.set()
    follower.join(5)
    recorded, waiting = [], 0
    for k in range(workstations):
        doc = json.loads((run / f"ws-{k:02d}.json").read_text())
        recorded += doc["recorded"]
        waiting += doc["waiting"]
    with klass.admin() as admin:
        ids = dict(admin.execute("SELECT uid, id FROM attempts WHERE id > %s", (before,)).fetchall())
    end = start_at + seconds
    latencies = [seen[ids[uid]] - at for uid, at, _ in recorded if uid in ids and ids[uid] in seen]
    in_time = sum(1 for t in seen.values() if t <= end)
    return {"recorded": len(recorded), "on_server": len(ids), "seen": len(latencies), "waiting": waiting,
            "local_rate": len(recorded) / seconds, "server_rate": in_time / seconds,
            "latency": latencies, "record": [r for _, _, r in recorded]}


def report_work(title: str, f: dict) -> None:
    print(f"\n{title}: {f['recorded']:,} attempts recorded, {f['on_server']:,} on the server, "
          f"{f['seen']:,} seen by the instructor, {f['waiting']} still waiting")
    lat, rec = f["latency"], f["record"]
    p95_local = 1000 * percentile(rec, 95)
    line("local files: attempts recorded per second", f"{f['local_rate']:.1f}/s")
    line("server: attempts per second seen in the class", f"{f['server_rate']:.1f}/s", "",
         f"{f['server_rate'] / f['local_rate']:.2f}x the local files' rate")
    if lat:
        p95 = 1000 * percentile(lat, 95)
        line("server: record to visible in class, median", f"{1000 * statistics.median(lat):.0f} ms")
        line("server: record to visible in class, p95", f"{p95:.0f} ms", "(aim < 1000)",
             f"{p95 / p95_local:,.1f}x the local file's p95")
        line("server: record to visible in class, max", f"{1000 * max(lat):.0f} ms")
    line("local file: record_attempt (visible in the file), median",
         f"{1000 * statistics.median(rec):.1f} ms")
    line("local file: record_attempt, p95", f"{p95_local:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workstations", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=600.0, help="each round of the class at work")
    ap.add_argument("--pace", type=float, default=2.0,
                    help="seconds between a workstation's attempts in the paced round")
    ap.add_argument("--attempts", type=int, default=1_000_000, help="the class view's attempts")
    ap.add_argument("--trainees", type=int, default=200, help="the class view's trainees")
    ap.add_argument("--runs", type=int, default=10, help="timings of each class view (median)")
    ap.add_argument("--class-view-only", action="store_true", help="time the class view only, "
                    "without the rounds of a class at work")
    ap.add_argument("--backlog", type=int, default=20_000, help="the attempts of a backlog pushed at once")
    ap.add_argument("--backlog-only", action="store_true", help="time the backlog only")
    ap.add_argument("--folder", type=Path, help="where the server and the files go (default: a "
                    "temporary folder, removed afterwards)")
    args = ap.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="class-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{args.workstations} workstations, {args.seconds:g} s a round, pace {args.pace:g} s; "
          f"class view at {args.attempts:,} attempts of {args.trainees} trainees")
    server = start_server(folder / "server")
    try:
        klass = Class(server)
        if args.backlog_only:
            backlog(klass, folder, args.backlog)
            return
        file = folder / "class-view.db"
        build(file, args.attempts, args.trainees)  # executemany into the file, indexes afterwards
        print(f"copied to the server (COPY): {copy_to_server(file, klass):.1f} s")
        class_view(file, klass, args.runs)
        if args.class_view_only:
            return
        backlog(Class(server), folder, args.backlog)
        report_work(f"a class at work, one attempt every {args.pace:g} s a workstation",
                    class_at_work(klass, folder, args.workstations, args.seconds, args.pace))
        report_work("a class at work, flat out",
                    class_at_work(klass, folder, args.workstations, args.seconds, 0.0))
    finally:
        server.stop()
        if args.folder is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
