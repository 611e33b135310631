"""Benchmark of the progress store at scale: 1,000,000 attempts of 200 trainees.

Run: `.venv/bin/python tests/benchmarks/progress_bench.py [--attempts N] [--trainees N] [--path FILE]`.
It builds the file (a bulk insert, with the indexes built afterwards), then reports median times
of what the app does, each beside a baseline measured on the same file in the same run:
- recording one attempt (aim < 5 ms), against a one-row insert into an empty table in the same
  kind of write transaction (BEGIN IMMEDIATE ... COMMIT, WAL, synchronous=FULL);
- the Progress screen of one trainee (`progress_report`: its charts over the default 90 days, and
  over all time; aim < 50 ms) and the class overview
  (`class_overview`, aim < 200 ms), against `SELECT count(*) FROM trainees`.
Times are with the file in the OS cache (warm), as in a running app.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from trainer import policy
from trainer.procedure import Skill
from trainer.progress import AttemptRecord, Mode, Store, class_overview, progress_report
from trainer.progress.columns import ATTEMPT_SKILLS, ATTEMPTS, FINDINGS, Table

GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6", "pai-gow-dice")
MODES = (("payout-drill", 30), ("scenario", 30), ("practice", 25), ("drill", 10), ("exam", 5))
SKILLS = [s.value for s in Skill]
DAY = 86400.0


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def build(path: Path, attempts: int, trainees: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for p in path.parent.glob(path.name + "*"):
        p.unlink()
    store = Store.open(path)
    for k in range(trainees):
        store.add_trainee(f"Trainee {k:03d}")
    db = store.db
    indexes = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                         "AND tbl_name IN ('attempts', 'findings', 'attempt_skills')").fetchall()
    logs = [json.dumps([{"do": rng.choice(["pay", "collect", "announce", "accept"]), "round": r,
                         "at": round(2.5 * k + rng.random() * 2, 3), "seat": rng.randint(1, 6),
                         "bet": "double-3-3", "amount": 500} for k, r in enumerate(range(rng.randint(3, 9)))],
                       separators=(",", ":")) for _ in range(64)]
    items = [f"{g}/{n:02d}" for g in GAMES for n in range(1, 13)] + [f"drill:{g}:{d}" for g in GAMES
                                                                     for d in range(1, 6)]
    modes = [m for m, w in MODES for _ in range(w)]
    now = time.time()
    start, step = now - 365 * DAY, 365 * DAY / attempts
    a_rows, s_rows, f_rows = [], [], []
    t0 = time.perf_counter()
    with store.write() as w:
        for name, _ in indexes:  # built again after the rows: much faster
            w.execute(f"DROP INDEX {name}")
        fid = 0
        for i in range(1, attempts + 1):
            tid = rng.randint(1, trainees)
            started = start + i * step
            mode = rng.choice(modes)
            item = rng.choice(items)
            target = float(rng.choice((20, 30, 45, 60, 90)))
            duration = max(3.0, rng.gauss(target * 0.9, target * 0.3))
            skills = ["payouts"] if mode == "payout-drill" else rng.sample(SKILLS, rng.randint(2, 4))
            critical = False
            for s in skills:
                if rng.random() < 0.12:
                    fid += 1
                    sev = "critical" if rng.random() < 0.3 else "major"
                    critical |= sev == "critical"
                    f_rows.append(row(FINDINGS, id=fid, attempt_id=i, kind="wrong call", skill=s,
                                      citation="58 Pa. Code § 668a.3(i)", severity=sev,
                                      message="collected before paying",
                                      expected="r1:pay:seat2:double-3-3", actual=None))
                s_rows.append(row(ATTEMPT_SKILLS, attempt_id=i, skill=s, trainee_id=tid, started=started))
            total = rng.randint(40, 100)
            game = item.split(":")[1] if item.startswith("drill:") else item.split("/")[0]
            a_rows.append(row(ATTEMPTS, id=i, uid=uuid.UUID(int=rng.getrandbits(128)).hex, trainee_id=tid,
                              item_id=item, game=game, mode=mode, seed=str(i), started=started,
                              ended=started + duration, duration=duration, target=target,
                              procedure=total, payouts=total, speed=rng.randint(50, 100), total=total,
                              passed=int(total >= 80 and not critical), critical=int(critical),
                              abandoned=int(rng.random() < 0.02), log=rng.choice(logs), source="bench",
                              rule=policy.RULE))
            if len(a_rows) >= 50_000:
                flush(w, a_rows, s_rows, f_rows)
        flush(w, a_rows, s_rows, f_rows)
        t1 = time.perf_counter()
        for _, sql in indexes:
            w.execute(sql)
    w.execute("ANALYZE")
    t2 = time.perf_counter()
    store.close()
    size = path.stat().st_size / 2**20
    print(f"built {attempts:,} attempts, {trainees} trainees: rows {t1 - t0:.1f} s, indexes + ANALYZE "
          f"{t2 - t1:.1f} s, {size:.0f} MB")


def row(table: Table, **values) -> tuple:
    """One row of `table`, its values in the order of the table's columns as described in
    trainer.progress.columns (KeyError for a column not given, ValueError for one it lacks)."""
    names = table.names(key=True)
    extra = set(values) - set(names)
    if extra:
        raise ValueError(f"{table.name} has no column {', '.join(sorted(extra))}")
    return tuple(values[n] for n in names)


def insert(w, table: Table, rows: list[tuple]) -> None:
    names = table.names(key=True)
    w.conn.executemany(f"INSERT INTO {table.name} ({', '.join(names)}) "
                       f"VALUES ({', '.join('?' * len(names))})", rows)


def flush(w, a_rows, s_rows, f_rows) -> None:
    insert(w, ATTEMPTS, a_rows)
    insert(w, ATTEMPT_SKILLS, s_rows)
    insert(w, FINDINGS, f_rows)
    a_rows.clear()
    s_rows.clear()
    f_rows.clear()


def measure(path: Path, trainees: int) -> None:
    t = time.perf_counter()
    store = Store.open(path, full_check=False)
    print(f"open, the cheap checks (as the app opens): {1000 * (time.perf_counter() - t):.0f} ms")
    store.start_check()
    store.wait_for_check()
    print(f"the full integrity_check, in the background: {1000 * store.check_seconds:.0f} ms "
          f"({store.check_problems[0]})")
    db = store.db
    with store.write() as w:
        w.execute("CREATE TABLE IF NOT EXISTS bench_empty (x INTEGER)")
    rng = random.Random(2)
    log = tuple({"do": "pay", "round": 1, "at": 2.0 * k, "seat": 2, "bet": "double-3-3", "amount": 500}
                for k in range(10))
    finding = {"kind": "wrong amount", "severity": "critical", "message": "paid $5.00; the payout is $7.50",
               "cite": "§ 668a.9(b)", "skill": "payouts", "expected": "r1:pay:seat2:double-3-3"}

    def baseline_write():
        with store.write() as w:
            w.execute("INSERT INTO bench_empty VALUES (1)")
            w.execute("DELETE FROM bench_empty")

    def record():
        now = time.time()
        store.record_attempt(AttemptRecord(
            trainee_id=rng.randint(1, trainees), item_id="props-and-hops/03", game="props-and-hops",
            mode=Mode.SCENARIO, started=now - 40, ended=now, target=45, procedure=90, payouts=80, speed=100,
            total=87, passed=False, critical=True, skills=("payouts", "collecting", "calls", "no-roll"),
            findings=(finding,), log=log))

    base_read = median_ms(lambda: db.execute("SELECT count(*) FROM trainees").fetchall(), 500)
    base_write = median_ms(baseline_write, 200)
    rec = median_ms(record, 200)
    ids = iter(rng.sample(range(1, trainees + 1), min(trainees, 40)) * 10)
    prog = median_ms(lambda: progress_report(store, next(ids)), 40)
    prog_all = median_ms(lambda: progress_report(store, next(ids), days=None), 40)
    klass = median_ms(lambda: class_overview(store), 10)
    def line(label: str, ms: float, aim: str = "", base: float = 0.0, base_name: str = "") -> None:
        ratio = f"{ms / base:8.1f}x {base_name}" if base else ""
        print(f"{label:<42}{ms:9.3f} ms  {aim:<11}{ratio}")

    line("baseline: SELECT count(*) FROM trainees", base_read)
    line("baseline: insert into an empty table", base_write)
    line("record one attempt", rec, "(aim < 5)", base_write, "the insert baseline")
    line("Progress screen, one trainee (90 days)", prog, "(aim < 50)", base_read, "the count baseline")
    line("  the same, charts over all time", prog_all, "", base_read, "the count baseline")
    line("class overview", klass, "(aim < 200)", base_read, "the count baseline")
    n = db.execute("SELECT count(*) FROM attempts").fetchone()[0]
    print(f"(attempts now {n:,}; per trainee ~{n // trainees:,})")
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attempts", type=int, default=1_000_000)
    ap.add_argument("--trainees", type=int, default=200)
    ap.add_argument("--path", type=Path, default=Path("/tmp/dealer-trainer-bench/progress.db"))
    ap.add_argument("--reuse", action="store_true", help="measure an existing file without building it")
    args = ap.parse_args()
    args.path.parent.mkdir(parents=True, exist_ok=True)
    if not (args.reuse and args.path.exists()):
        build(args.path, args.attempts, args.trainees)
    measure(args.path, args.trainees)


if __name__ == "__main__":
    main()
