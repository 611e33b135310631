"""Benchmark: the Progress screen made and first shown, again and again in one process (as the
app does each time it opens a window; its modules loaded once), and a chart drawn again.

The demonstration trainee's window (ui.shell.app.demo_services) is made and shown on Practice;
then, timed: the Progress screen built (`MainWindow.page`), chosen and painted (`repaint`,
synchronous), each in CPU (user + system of the process) and wall; then the window closed and
deleted. The screen is drawn again (`ProgressPage.refresh`, what a recorded round does) and
painted. `--instructor` makes it the demonstration class's instructor, `--theme dark` the dark
theme. Medians of `--runs`, after one run not counted (its first use of pyqtgraph and numpy).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/progress_show.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def timed(what) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    what()
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructor", action="store_true")
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    args = parser.parse_args()
    from ui.qt import QApplication, QEvent
    from ui.shell import theme
    from ui.shell.app import application, demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    app = application()
    theme.apply(app, args.theme)
    services = demo_services(instructor=args.instructor)
    rows: dict[str, list[tuple[float, float]]] = {"build": [], "first show": [], "redraw": []}
    for run in range(args.runs + 1):
        window = MainWindow(services, settings=throwaway_settings())
        window.resize(1366, 768)
        window.show()
        app.processEvents()
        window.repaint()
        built = timed(lambda: window.page("progress"))  # noqa: B023 (called at once)

        def show():
            window.show_screen("progress")  # noqa: B023
            app.processEvents()
            window.repaint()  # noqa: B023

        shown = timed(show)

        def redraw():
            window.pages["progress"].refresh()  # noqa: B023
            app.processEvents()
            window.repaint()  # noqa: B023

        drawn = timed(redraw)
        window.close()
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        if run:
            rows["build"].append(built)
            rows["first show"].append(shown)
            rows["redraw"].append(drawn)
    print(f"{'Progress':12} {'cpu ms':>8} {'wall ms':>8}  (medians of {args.runs}; "
          f"{'instructor' if args.instructor else 'trainee'}, {args.theme})")
    for name, values in rows.items():
        cpu = statistics.median(v[0] for v in values)
        wall = statistics.median(v[1] for v in values)
        print(f"{name:12} {1000 * cpu:8.1f} {1000 * wall:8.1f}")
    os._exit(0)  # measured: no teardown


if __name__ == "__main__":
    main()
