"""Benchmark: start-up the way a user starts, against a bare PySide6 window, in one run.

The real path: open the progress file (the cheap read-only checks, then the read-write connection
and its migrations; the full integrity check starts in the background, as in the app), the exam
setup (installation secret, interrupted attempts closed, example forms offered), the trainee
chosen (the first on the list, as pressing Enter does), the main window built and shown, its
first frame rendered. Each case is a fresh process; best of 5 after a warm-up, so the file is in
the page cache ("warm").

    .venv/bin/python tests/benchmarks/startup_real.py [--attempts 1000000]

The large file is built once with tests/benchmarks/progress_bench.py's builder and kept in a
temporary folder for the run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.progress_bench import build
from tests.benchmarks.startup import BARE

REAL = """
import sys
from pathlib import Path
from ui.qt import QApplication
app = QApplication(sys.argv[:1])
from ui.shell.app import exam_setup, open_store
from ui.shell.services import Services
from ui.shell.window import MainWindow
db = sys.argv[2]
store = open_store(db)
store.start_check()  # as ui.shell.app.run: the full check runs in the background
services = Services(store, key=exam_setup(store, db))
services.trainee = store.trainees()[0]
window = MainWindow(services)
services.window = window
window.resize(1440, 900)
window.show()
window.grab().save(sys.argv[1], "PNG")
"""

#: the least a start can cost with the fixed stack: the bare window, plus sqlite-utils (imported
#: as trainer.progress._sqlite imports it, without numpy) reading the trainee list from the file
STACK_FLOOR = BARE.replace('app = QApplication(sys.argv[:1])\n', """app = QApplication(sys.argv[:1])
sys.modules["numpy"] = sys.modules["pandas"] = None
from sqlite_utils import Database
del sys.modules["numpy"], sys.modules["pandas"]
names = Database(sys.argv[2]).execute("SELECT name FROM trainees").fetchall()
""")
#: the same with the store as built: its cheap checks, and the record types it imports
STORE_FLOOR = BARE.replace('app = QApplication(sys.argv[:1])\n', """app = QApplication(sys.argv[:1])
from trainer.progress import Store
names = Store.open(sys.argv[2], full_check=False).trainees()
""")


def best(cmd: list[str], runs: int = 5) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    subprocess.run(cmd, env=env, capture_output=True)  # warm-up: byte code, font cache, page cache
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"{cmd[:3]} failed: {done.stderr.strip()[-400:]}")
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--attempts", type=int, default=1_000_000)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-startup-"))
    try:
        small = folder / "small" / "progress.db"
        small.parent.mkdir()
        from trainer.progress import Store

        with Store.open(small) as store:
            store.add_trainee("Ana")
        large = folder / "large" / "progress.db"
        large.parent.mkdir()
        t0 = time.perf_counter()
        build(large, args.attempts, 200)
        print(f"built {args.attempts:,} attempts in {time.perf_counter() - t0:.0f} s")
        shot = str(folder / "shot.png")
        bare = best([sys.executable, "-c", BARE, shot])
        stack_floor = best([sys.executable, "-c", STACK_FLOOR, shot, str(small)])
        store_floor = best([sys.executable, "-c", STORE_FLOOR, shot, str(small)])
        real_small = best([sys.executable, "-c", REAL, shot, str(small)])
        real_large = best([sys.executable, "-c", REAL, shot, str(large)])
        print(f"bare PySide6 window: {bare:.3f} s")
        print(f"bare window + sqlite-utils reading the file: {stack_floor:.3f} s = "
              f"{stack_floor / bare:.2f}x the bare window")
        print(f"bare window + the store opened: {store_floor:.3f} s = {store_floor / bare:.2f}x")
        print(f"real start, new file: {real_small:.3f} s = {real_small / bare:.2f}x the bare window")
        print(f"real start, {args.attempts:,} attempts (warm): {real_large:.3f} s = "
              f"{real_large / bare:.2f}x the bare window")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
