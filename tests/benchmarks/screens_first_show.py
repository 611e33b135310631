"""Benchmark: each screen of the main window, from the sidebar's click to its first frame painted.

Each screen in a fresh process (so that its modules load as they do the first time a user opens
it): the app, the window on Practice (as a first start opens it), shown and painted; then the
screen chosen from the sidebar, the events run and the window painted (`repaint`, synchronous).
The time is that of the choice to the painted frame: wall and CPU (the process's user + system).
Progress and Class are the demonstration class's (ui.shell.app.demo_services; Class as its
instructor, the Class tab chosen after Progress shows), Exam the demonstration's too; the others
without a progress file. Medians of `--runs` processes.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/screens_first_show.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ("scenarios", "progress", "class", "rules", "exam", "supervise")


def child(screen: str) -> None:
    sys.path.insert(0, str(ROOT))
    from ui.qt import QApplication
    from ui.shell.app import application, demo_services, throwaway_settings
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    application()
    demo = screen in ("progress", "class", "exam")
    services = demo_services(instructor=screen in ("class", "exam")) if demo else Services(None)
    window = MainWindow(services, settings=throwaway_settings())
    window.resize(1366, 768)
    window.show()
    QApplication.processEvents()
    window.repaint()
    row = {"class": "progress"}.get(screen, screen)
    wall, cpu = time.perf_counter(), time.process_time()
    page = window.show_screen(row)
    if screen == "class":
        page.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    window.repaint()
    out = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
    print(json.dumps(out), flush=True)
    os._exit(0)  # the measure is taken: no teardown


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screens", nargs="*", default=list(SCREENS))
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    print(f"{'screen':12} {'wall ms':>8} {'cpu ms':>8}  (medians of {args.runs} processes)")
    for screen in args.screens:
        walls, cpus = [], []
        for _ in range(args.runs):
            done = subprocess.run([sys.executable, __file__, "--child", screen], env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"{screen}: {done.stderr[-800:]}")
            row = json.loads(done.stdout.strip().splitlines()[-1])
            walls.append(row["wall"])
            cpus.append(row["cpu"])
        print(f"{screen:12} {1000 * statistics.median(walls):8.1f} {1000 * statistics.median(cpus):8.1f}")


if __name__ == "__main__":
    main()
