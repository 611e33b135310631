"""Benchmark: the exam ledger's calls one after another, as the instructor's app makes them (the
Class tab's lists, an exam's checks), on one `ClassLedger`.

    .venv/bin/python tests/benchmarks/ledger_calls.py [--calls 200]

A class on the packaged PostgreSQL (loopback), a form given to it, then `--calls` calls in turn
(`workstations`, `shared_login`, `attempts_used`, `voided_sittings`, `certificates`,
`starts_spent`) on one ledger with the instructor's login. Printed for a call: the wall time
(median and p95), this process's CPU and the server's (all its processes, read from /proc:
Linux), and the connections (logins) the calls made. Run with another tree
on PYTHONPATH to compare: the figures are CPU, which a loaded machine changes least.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg

sys.path.append(str(Path(__file__).resolve().parents[2]))  # after PYTHONPATH: another tree compares

from tests.support.class_server import Class, start_server
from tests.support.exams import form
from tests.support.timing import _postmaster, _tree
from trainer.classes.workstation.connection import ClassLedger
from trainer.exams.classledger import give_to_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-bench-"))
    folder.chmod(0o755)
    server = start_server(folder / "server")
    try:
        klass = Class(server)
        exam = form()
        logins = [0]
        made = psycopg.Connection.connect.__func__

        def counted(cls, *a, **k):
            logins[0] += 1
            return made(cls, *a, **k)

        psycopg.Connection.connect = classmethod(counted)  # type: ignore[method-assign]
        ledger = ClassLedger(klass.address("instructor"))
        give_to_class(ledger, exam)  # the first call: its login is counted, not its time
        calls = [ledger.workstations, ledger.shared_login, lambda: ledger.attempts_used("Sam Lee", exam.uid),
                 ledger.voided_sittings, ledger.certificates, ledger.starts_spent]
        server_cpu, own = _tree(_postmaster(server)), time.process_time()
        walls = []
        for n in range(args.calls):
            began = time.perf_counter()
            calls[n % len(calls)]()
            walls.append(time.perf_counter() - began)
        own = time.process_time() - own
        server_cpu = _tree(_postmaster(server)) - server_cpu
        getattr(ledger, "close", lambda: None)()
        walls.sort()
        print(f"{args.calls} ledger calls: wall median {1000 * statistics.median(walls):.2f} ms, "
              f"p95 {1000 * walls[int(len(walls) * 0.95)]:.2f} ms; CPU a call: this process "
              f"{1000 * own / args.calls:.2f} ms, the server {1000 * server_cpu / args.calls:.2f} ms; "
              f"logins for {args.calls + 1} calls: {logins[0]}")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
