"""Benchmark: importing a class's results file of 20,000 attempts.

Each figure comes with a baseline measured in the same run on the same file, so that the ratio
means something on a shared machine:
  - the import (trainer.progress.import_results: read, check, re-grade every attempt from its
    log, add in one transaction), against the baseline of reading the same file and storing its
    attempts as they are, in one transaction, with no grading;
  - the window (File › Import results files…): how long the import took there, and the longest
    the window's thread went without handling its events (a timer of 20 ms is watched), against
    the same baseline.

    PYTHONPATH=. python tests/benchmarks/results_import.py [--attempts 20000] [--no-window]

Run it with another checkout's trainer and ui first on PYTHONPATH to measure that one (the file
and the baseline are made the same way).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def results_of(folder: Path, attempts: int) -> Path:
    """A results file of `attempts` attempts: the eight of tests.support.hostile_seeds
    (every game, scenarios and dealt rounds, some with a payout off), each under new ids."""
    from tests.support.hostile_seeds import results_file

    doc = results_file(folder / "station.sqlite")
    seeds = doc["attempts"]
    doc["attempts"] = [{**seeds[k % len(seeds)], "uid": uuid.uuid4().hex} for k in range(attempts)]
    path = folder / "class-results.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def baseline(path: Path, db: Path) -> float:
    """Reading the file and storing its attempts as they are: no check beyond the records', no
    grading."""
    from trainer.progress import AttemptRecord, Store
    from trainer.progress.rows import insert_attempt

    t0 = time.perf_counter()
    doc = json.loads(path.read_text(encoding="utf-8"))
    records = [AttemptRecord(trainee_id=0, **{k: tuple(v) if isinstance(v, list) else v
                                              for k, v in a.items() if k != "trainee"})
               for a in doc["attempts"]]
    with Store.open(db) as store, store.write() as w:
        tid = w.execute("INSERT INTO trainees (name, created) VALUES ('Ana', 0)").lastrowid
        for r in records:
            insert_attempt(w, r, tid)
    return time.perf_counter() - t0


def imported(path: Path, db: Path) -> float:
    from trainer.progress import Store, import_results

    t0 = time.perf_counter()
    with Store.open(db) as store:
        summary = import_results(store, path)
    assert summary.added and not summary.left_out, summary
    return time.perf_counter() - t0


def through_the_window(path: Path, db: Path) -> tuple[float, float]:
    """(seconds until the message at the end, the longest the window's thread was busy)."""
    from trainer.progress import Store
    from ui.qt import QAction, QApplication, QEventLoop, QFileDialog, QMessageBox, QTimer
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    app = QApplication.instance() or QApplication([])
    store = Store.open(db)
    services = Services(store, store.trainee(store.add_trainee("Lee Park")))
    window = MainWindow(services)
    services.window = window
    window.show()
    QFileDialog.getOpenFileNames = staticmethod(lambda *a, **k: ([str(path)], ""))
    loop = QEventLoop()
    ticks: list[float] = []
    said: list[str] = []

    def tick():
        ticks.append(time.perf_counter())
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            said.append(box.text())
            box.accept()
            loop.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    action = next(a for a in window.findChildren(QAction) if a.text() == "Import results files…")
    t0 = time.perf_counter()
    ticks.append(t0)
    QTimer.singleShot(0, action.trigger)
    loop.exec()
    took = time.perf_counter() - t0
    timer.stop()
    window.close()
    store.close()
    app.processEvents()
    assert "attempts added" in said[0], said
    return took, max(b - a for a, b in pairwise(ticks))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--attempts", type=int, default=20_000)
    p.add_argument("--no-window", action="store_true", help="the import alone, not the window's")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = results_of(folder, args.attempts)
        base = baseline(path, folder / "baseline.sqlite")
        took = imported(path, folder / "import.sqlite")
        size = path.stat().st_size / 1e6
        print(f"results file: {args.attempts:,} attempts, {size:.1f} MB")
        print(f"baseline (read and store, no grading): {base:6.1f} s")
        print(f"import_results:                        {took:6.1f} s  = {took / base:5.1f} x baseline"
              f"  ({1000 * took / args.attempts:.2f} ms an attempt)")
        if not args.no_window:
            total, stall = through_the_window(path, folder / "window.sqlite")
            print(f"File › Import results:                 {total:6.1f} s  = {total / base:5.1f} x "
                  f"baseline; the window's thread busy at most {stall:6.2f} s at a time "
                  f"= {stall / base:5.2f} x baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
