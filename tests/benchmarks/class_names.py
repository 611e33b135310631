"""Benchmark of the look-alike names' check (trainer.progress.names; the class server's s017).

Run: `.venv/bin/python tests/benchmarks/class_names.py [--runs 5] [--trainees 30]`.

It starts a real PostgreSQL (the packaged server), then measures:

1. **The migration.** A class made up to the migration before s017 (a class of the version
   before), then s017 applied to it alone, beside `install` with nothing left to apply (the
   cost of the call itself); and a whole class made from s001 with and without s017. The suite
   makes its classes by copying a template made once per worker, so s017 costs it once per
   worker, plus once per test that makes a class of an earlier version and brings it up to date.
2. **A push of a class's trainees.** `--trainees` new trainees pushed in one batch with the
   workstation login, each name checked by the trigger, into a class that holds as many (and
   the same into a class of the version before, which checks none); the same batch pushed
   again (each trainee already held: not checked again).
3. **One skeleton.** `name_skeleton` on the server, and `skeleton` in the app, per name.

Times are wall-clock on a shared machine: compare the ratios, not the milliseconds, across runs.
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

from psycopg.types.json import Jsonb

from tests.support.class_server import Class, start_server
from trainer.classes.server import tables
from trainer.progress.names import skeleton

#: the migration before s017: a class of the version before
BEFORE = tables.known()[tables.known().index("s017_confusable_names") - 1]
NAMES = ["Ana Ruiz", "Sam Lee", "Zoë O'Brien", "Анна Иванова", "Ελένη Παπαδοπούλου", "José Núñez"]


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.1f} ms"


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def trainees(prefix: str, n: int) -> list[dict]:
    return [{"uid": f"{prefix}{k:031x}", "name": f"{NAMES[k % len(NAMES)]} {int(prefix, 16)}-{k}",
             "created": 1.8e9, "archived": 0, "archived_at": None, "instructor": 0} for k in range(n)]


def pushes(klass: Class, args) -> tuple[list[float], list[float]]:
    """`--trainees` new trainees pushed in one batch into a class holding as many, `--runs`
    times, each batch then pushed again: the seconds of each."""
    first, again = [], []
    with klass.connect("workstation") as conn:
        conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": trainees("a", args.trainees),
                                                         "attempts": []}),))
        for run in range(args.runs):
            batch = {"trainees": trainees(f"{run + 1:x}", args.trainees), "attempts": []}
            first.append(timed(lambda b=batch: conn.execute("SELECT push_attempts(%s)", (Jsonb(b),))))
            again.append(timed(lambda b=batch: conn.execute("SELECT push_attempts(%s)", (Jsonb(b),))))
    return first, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--trainees", type=int, default=30)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="class-names-bench-"))
    folder.chmod(0o755)
    server = start_server(folder / "class")
    try:
        s017, nothing, with_all, without = [], [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            old = Class(server, upto=BEFORE)
            without.append(time.perf_counter() - start)
            s017.append(timed(old.install))
            nothing.append(timed(old.install))
            old.drop()
            start = time.perf_counter()
            new = Class(server, upto=tables.known()[-1])
            with_all.append(time.perf_counter() - start)
            new.drop()
        print(f"s017 applied to a class of the version before              {ms(s017)}")
        print(f"install with nothing to apply                {ms(nothing)}")
        print(f"a class made from s001, up to {BEFORE}   {ms(without)}")
        print(f"a class made from s001, up to s017            {ms(with_all)}")

        before = Class(server, upto=BEFORE)
        push_before = pushes(before, args)[0]
        before.drop()
        klass = Class(server)
        first, again = pushes(klass, args)
        with klass.connect("workstation") as conn:
            one = []
            for k in range(200):
                one.append(timed(lambda k=k: conn.execute("SELECT name_skeleton(%s)",
                                                          (f"{NAMES[k % 6]} {k}",)).fetchone()))
        print(f"a push of {args.trainees} new trainees, the version before {ms(push_before)}")
        print(f"a push of {args.trainees} new trainees                     {ms(first)}")
        print(f"the same {args.trainees} again (held: not checked)        {ms(again)}")
        print(f"name_skeleton on the server, a call             {ms(one)}")
        start = time.perf_counter()
        for k in range(10_000):
            skeleton(f"{NAMES[k % 6]} {k}")
        print(f"skeleton in the app, a name                      "
              f"{(time.perf_counter() - start) / 10_000 * 1e6:.1f} µs")
        klass.drop()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
