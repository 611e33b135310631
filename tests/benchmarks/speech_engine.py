"""Benchmark: how long the window's thread is held while the stickman's speech engine is found
(ui.speech.engine; Qt's speech-dispatcher plugin lists every voice of espeak-ng when its engine is
set), at start with The stickman's voice remembered on, and when the View menu first opens.

Each case is a fresh process of the tree given (`--tree`, default this one: give the tree of
before to compare), with a speech-dispatcher of the run's own (tests/support/speechd.py) and
settings of its own:
- **off**: nothing remembered, the menu never opened (the window alone, to compare with);
- **start**: The stickman's voice remembered on, so the engine is asked for as the window is made;
- **menu**: nothing remembered; the View menu opened as soon as the window is shown.

A 10 ms timer ticks on the window's thread from before the window is made until the View item
says what it is (no longer looking), and 0.5 s after. For each: the longest the window's thread
was held (the largest gap between two ticks, less 10 ms; the window's making is in the first
gap, so "off" is its floor), the window's thread's CPU (`time.thread_time`) and the process's
(user + system, every thread) over that time, the time to the window shown and to the item's
answer. `held_cpu_ms` is the window's thread's own CPU in that longest gap (the rest of it the
thread waited: for a core, on a loaded machine, or for Python's lock), and `held_at_ms` when the
gap began, from the window's making. Medians of `--runs` processes.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/speech_engine.py [--tree PATH]
        [--runs 5] [--cases off,start,menu]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support import speechd

CASE = r"""
import json, resource, sys, time
from ui.qt import QApplication, QEventLoop, QMenu, QSettings, QTimer
app = QApplication(sys.argv[:1])
case, ini = sys.argv[1], sys.argv[2]
ticks = []
timer = QTimer()
timer.setInterval(10)
timer.timeout.connect(lambda: ticks.append((time.perf_counter(), time.thread_time())))
settings = QSettings(ini, QSettings.Format.IniFormat)
if case == "start":
    settings.setValue("speech/voice", True)
from ui.shell.services import Services
from ui.shell.window import MainWindow

class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False

services = Services(None, Trainee())
timer.start()
ticks.append((time.perf_counter(), time.thread_time()))
cpu, began = time.thread_time(), time.perf_counter()
usage = resource.getrusage(resource.RUSAGE_SELF)
window = MainWindow(services, settings=settings)
window.show()
shown = time.perf_counter() - began
if case == "menu":
    view = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&View")
    view.popup(window.mapToGlobal(window.rect().center()))
item = window.speech.voice
answered = [None]
loop = QEventLoop()

def watch():
    now = time.perf_counter()
    if answered[0] is None and "looking" not in item.text().lower():
        answered[0] = now - began
    if (answered[0] is not None and now - began > answered[0] + 0.5) or now - began > 30:
        loop.quit()

watcher = QTimer()
watcher.setInterval(10)
watcher.timeout.connect(watch)
watcher.start()
loop.exec()
after = resource.getrusage(resource.RUSAGE_SELF)
gaps = [(b[0] - a[0], b[1] - a[1], a[0] - began) for a, b in zip(ticks, ticks[1:])]
held = max(gaps)
process = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
print(json.dumps({"held_ms": 1000 * held[0] - 10, "held_cpu_ms": 1000 * held[1],
                  "held_at_ms": 1000 * held[2], "thread_cpu_ms": 1000 * (time.thread_time() - cpu),
                  "process_cpu_ms": 1000 * process, "shown_ms": 1000 * shown,
                  "answered_ms": None if answered[0] is None else 1000 * answered[0],
                  "item": item.text(), "enabled": item.isEnabled(), "tip": item.toolTip()}))
"""

FIELDS = ("held_ms", "held_cpu_ms", "held_at_ms", "thread_cpu_ms", "process_cpu_ms", "shown_ms",
          "answered_ms")


def one(tree: Path, case: str, env: dict, folder: Path) -> dict:
    ini = folder / f"{case}.ini"
    ini.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", CASE, case, str(ini)], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"speech_engine: the {case} case failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[2])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cases", default="off,start,menu")
    args = p.parse_args()
    if (why := speechd.missing()) is not None:
        print(f"speech_engine: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="dealer-trainer-speech-engine-") as name:
        folder = Path(name)
        (folder / "speechd").mkdir()
        proc, address = speechd.start(folder / "speechd", every_language=True)  # as a user has it
        try:
            env = {**os.environ, "SPEECHD_ADDRESS": address, "PYTHONPATH": str(args.tree.resolve()),
                   "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                   "XDG_CONFIG_HOME": str(folder / "config"), "XDG_DATA_HOME": str(folder / "data"),
                   "XDG_CACHE_HOME": str(folder / "cache")}
            print(f"tree {args.tree}; {args.runs} runs a case; medians (ms)")
            print(f"{'case':6} " + " ".join(f"{f:>15}" for f in FIELDS) + "  the item at the end")
            for case in args.cases.split(","):
                runs = [one(args.tree, case, env, folder) for _ in range(args.runs)]
                medians = [statistics.median(r[f] for r in runs) if all(r[f] is not None for r in runs)
                           else None for f in FIELDS]
                last = runs[-1]
                print(f"{case:6} " + " ".join(f"{'-' if m is None else f'{m:.0f}':>15}" for m in medians)
                      + f"  {last['item']!r} {'on' if last['enabled'] else 'off'}", flush=True)
                print(f"{'':6} held, each run: " + ", ".join(f"{r['held_ms']:.0f}" for r in runs))
        finally:
            speechd.stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
