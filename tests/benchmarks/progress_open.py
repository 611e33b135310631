"""Benchmark: the CPU of opening a progress file, each way the app and the tests open one.

- **new, the app's way**: `Store.open` of a path with nothing there (every migration run);
- **new, a test's way**: the same, the file a copy of one migrated once (tests/support/
  progress_file.py);
- **existing, full**: `Store.open` of a file a trainee has used (the full check on it);
- **existing, the app's**: `Store.open(full_check=False)`, as the app starts;
- **full check**: the background check of that file alone (`integrity.full_check`);
- **copy in memory**: `Store.copy_in_memory` of a demonstration class (each demo screen's).

Each is the median, over `--runs` batches of `--batch` opens (and closes), of the process's CPU
time per open (user and system), in milliseconds: CPU, not wall, so that other work on the machine
counts least. The files are in a temporary folder (TMPDIR, /dev/shm where the tests put theirs).

    .venv/bin/python tests/benchmarks/progress_open.py [--runs 5] [--batch 50]
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from trainer.progress import Store, integrity, seed_demo
from trainer.progress import store as store_module


def cpu_ms(each, runs: int, batch: int) -> float:
    """The median over `runs` batches of the CPU per call of `each(k)`, k counting all calls."""
    medians, k = [], 0
    for _ in range(runs):
        started = time.process_time()
        for _ in range(batch):
            each(k)
            k += 1
        medians.append((time.process_time() - started) / batch * 1000)
    return statistics.median(medians)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=50)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="progress-open-"))
    used = folder / "used.db"
    with Store.open(used) as store:  # a trainee's file: three trainees, four days of work
        seed_demo(store, trainees=["Ana Ruiz", "Ben Cole", "Cara Diaz"], days=4, seed=7)
    demo = Store.open(":memory:")
    seed_demo(demo)

    def fresh(tag: str):
        made = folder / tag
        made.mkdir()
        return lambda k: Store.open(made / f"{k}.db").close()

    def full_check(k: int) -> None:
        with contextlib.closing(sqlite3.connect(f"{used.as_uri()}?mode=ro", uri=True)) as conn:
            assert integrity.full_check(conn) == ["ok"]

    rows = [("new, the app's way", cpu_ms(fresh("app"), args.runs, args.batch))]
    from tests.support.progress_file import from_template

    template = folder / "template" / "progress.db"
    template.parent.mkdir()
    Store.open(template).close()
    real = store_module.create_whole
    store_module.create_whole = from_template(real, template)  # type: ignore[assignment]
    try:
        rows.append(("new, a test's way", cpu_ms(fresh("test"), args.runs, args.batch)))
    finally:
        store_module.create_whole = real  # type: ignore[assignment]
    for name, each in [
        ("existing, full", lambda k: Store.open(used).close()),
        ("existing, the app's", lambda k: Store.open(used, full_check=False).close()),
        ("full check", full_check),
        ("copy in memory", lambda k: demo.copy_in_memory().close()),
    ]:
        rows.append((name, cpu_ms(each, args.runs, args.batch)))
    for name, ms in rows:
        print(f"{name:22} {ms:6.2f} ms of CPU")


if __name__ == "__main__":
    main()
