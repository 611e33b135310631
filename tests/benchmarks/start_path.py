"""Benchmark: the real start (ui.shell.app.run, as `make run` starts it) on a file of 1,000,000 attempts,
against a bare window (a QMainWindow shown) measured in the same run.

Three starts, each a fresh process on the large file:
- **first start**: a copy of the file that has never been opened by the app (no example forms
  stored, no installation key beside it), and fresh settings;
- **after a crash**: the file as a kill mid-recording leaves it: a process that opened it as the
  app does started an exam and recorded attempts while its full check ran (waiting in the
  journal), and was killed (SIGKILL) while recording: an exam left in progress, a -wal and a
  -shm, 200 attempts in the journal (in the file, where the check ended first);
- **normal start**: the file after a clean start and close;
and the normal start again with an exam started as soon as the window answers ("exam at once").

For each: the time from the process's launch to the window shown, and to the window responsive
(a zero-timer posted when it is shown fires); the longest stall of the window's thread in the
first 20 s (the largest gap between two ticks of a 10 ms timer, less 10 ms), and whether the full
check was still running then. The trainee dialog is answered by the bench with the file's first
trainee (as pressing Enter does). Times are medians of `--runs` launches, the file in the OS cache
after the first.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/start_path.py [--attempts N]
        [--runs 3] [--path FILE]   (FILE: a file progress_bench.py built, reused)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WATCH_S = 20.0  # seconds the window's thread is watched after it is shown
TICK_MS = 10
KILL_AFTER = 200  # attempts recorded before the kill (waiting in the journal while the check runs)


# --- the child: one start, its times printed as JSON --------------------------------------------


def watch(app, window, out: dict, launched: float, then=None) -> None:
    """From the window shown: the zero-timer, the ticks, and the end after WATCH_S."""
    from ui.qt import QTimer

    out["shown"] = time.monotonic() - launched
    last = [time.monotonic()]
    out["stall"] = 0.0

    def responsive():
        out["responsive"] = time.monotonic() - launched
        store = getattr(getattr(window, "services", None), "store", None)
        out["checking_when_responsive"] = bool(store is not None and store.checking)
        if then is not None:
            then()

    def tick():
        now = time.monotonic()
        out["stall"] = max(out["stall"], now - last[0] - TICK_MS / 1000)
        last[0] = now

    def end():
        """After WATCH_S, and once the check has finished (so that the next start finds the file
        as a whole session leaves it): the window closed as the user closes it."""
        store = getattr(getattr(window, "services", None), "store", None)
        if store is not None and (store.checking or window.database_check.timer.isActive()):
            QTimer.singleShot(100, end)
            return
        out["watched"] = time.monotonic() - launched - out["shown"]
        window.close()
        app.quit()

    QTimer.singleShot(0, responsive)
    ticker = QTimer(window)
    ticker.setInterval(TICK_MS)
    ticker.timeout.connect(tick)
    ticker.start()
    QTimer.singleShot(int(WATCH_S * 1000), lambda: (ticker.stop(), end()))


def child_bare(launched: float) -> dict:
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication(sys.argv[:1])
    out: dict = {}
    w = QMainWindow()
    w.setCentralWidget(QLabel("Dealer Trainer"))
    w.resize(1366, 768)
    w.show()
    watch(app, w, out, launched)
    app.exec()
    return out


def child_real(launched: float, db: str, exam: bool) -> dict:
    import ui.shell.app
    from ui.qt import QApplication
    from ui.shell.profiles import ProfileDialog
    from ui.shell.window import MainWindow

    out: dict = {}
    steps: dict = {}
    out["steps"] = steps

    def timed(name, fn):
        def run(*args, **kwargs):
            t = time.monotonic()
            try:
                return fn(*args, **kwargs)
            finally:
                steps[name] = round(time.monotonic() - t, 3)
        return run

    ui.shell.app.open_store = timed("open the file", ui.shell.app.open_store)
    ui.shell.app.exam_setup = timed("exam setup", ui.shell.app.exam_setup)

    def answered(self):  # the trainee dialog, built and shown, answered as Enter does
        self.show()
        QApplication.processEvents()
        self.accept()
        return self.result()

    ProfileDialog.exec = timed("trainee dialog", answered)
    MainWindow.__init__ = timed("window built", MainWindow.__init__)
    show = MainWindow.show

    def shown(self):
        show(self)
        then = None
        if exam:
            def then():
                t = time.monotonic()
                page = self.show_screen("exam")
                page.start(confirm=False)
                out["exam_first_part"] = round(time.monotonic() - t, 3)
                out["exam_started"] = page.runner is not None
                out["checking_when_exam_shown"] = self.services.store.checking
        watch(QApplication.instance(), self, out, launched, then)

    MainWindow.show = shown
    code = ui.shell.app.run(db=db)
    out["exit"] = code
    window = next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)), None)
    store = window.services.store if window is not None else None
    if store is not None:
        out["check_seconds"] = store.check_seconds
        out["check"] = store.check_problems
    return out


def child_crash(db: str) -> None:
    """Open as the app does, start an exam, record attempts for ever (printing each); the parent
    kills this process while it records."""
    import itertools

    from tests.support.progress import rec
    from trainer.exams import installation_key, list_forms, start_exam
    from trainer.progress import Store

    store = Store.open(db, allow_unavailable=True, full_check=False)
    store.start_check()
    key = installation_key(Path(db).with_name("installation.key"))
    trainee = store.trainees()[0].id
    start_exam(store, list_forms(store)[0].uid, trainee, key)  # left in progress
    for n in itertools.count(1):
        store.record_attempt(rec(trainee, 10_000_000 + n))
        print("checking" if store.checking else "written", n, flush=True)


# --- the parent ----------------------------------------------------------------------------------


def launch(args: list[str], home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM=env.get("QT_QPA_PLATFORM", "offscreen"), PYTHONPATH=str(ROOT),
               HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    launched = time.monotonic()
    done = subprocess.run([sys.executable, __file__, "--child", str(launched), *args], env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{args[0]} failed: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def crash(db: Path, home: Path) -> str:
    """Leave `db` as a kill mid-recording does; what was recorded before the kill."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data")}
    p = subprocess.Popen([sys.executable, __file__, "--child", "0", "crash", str(db)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = ""
    for line in p.stdout:
        if int(line.split()[1]) >= KILL_AFTER:
            break
    p.send_signal(signal.SIGKILL)
    p.wait()
    if not line:
        raise SystemExit(f"the recorder failed: {p.stderr.read()[-800:]}")
    return line.strip()


def fresh_copy(source: Path, folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shutil.copyfile(source, folder / "progress.db")  # no installation key: never opened by the app
    return folder / "progress.db"


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attempts", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--path", type=Path, help="a file progress_bench.py built (reused)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-start-"))
    try:
        base = args.path
        if base is None:
            from tests.benchmarks.progress_bench import build

            base = folder / "built" / "progress.db"
            base.parent.mkdir()
            build(base, args.attempts, 200)
        home = folder / "home"
        results: dict[str, list[dict]] = {name: [] for name in
                                          ("bare window", "first start", "after a crash",
                                           "normal start", "exam at once")}
        launch(["bare"], home)  # warm-up: byte code, fonts
        for run in range(args.runs):
            results["bare window"].append(launch(["bare"], home))
            db = fresh_copy(base, folder / "first")
            shutil.rmtree(home, ignore_errors=True)
            results["first start"].append(launch(["real", str(db)], home))
            results["normal start"].append(launch(["real", str(db)], home))
            results["exam at once"].append(launch(["real", str(db), "exam"], home))
            crashed = fresh_copy(db, folder / "crashed")
            for name in ("installation.key",):
                shutil.copyfile(db.with_name(name), crashed.with_name(name))
            killed = crash(crashed, home)
            results["after a crash"].append(launch(["real", str(crashed)], home))
            results["after a crash"][-1]["killed at"] = killed
            print(f"run {run + 1}: " + json.dumps({k: v[-1] for k, v in results.items()}), flush=True)
        bare_shown, bare_ready = (median(results["bare window"], k) for k in ("shown", "responsive"))
        print(f"\nmedian of {args.runs} launches; the check of the large file took "
              f"{median(results['normal start'], 'check_seconds'):.1f} s\n")
        print(f"{'start':<16}{'window shown':>22}{'responsive':>22}{'longest stall':>15}  "
              "check running when responsive")
        for name, runs in results.items():
            shown, ready = median(runs, "shown"), median(runs, "responsive")
            stall = max(r["stall"] for r in runs)
            running = sum(r.get("checking_when_responsive", False) for r in runs)
            print(f"{name:<16}{shown:8.3f} s = {shown / bare_shown:5.2f}x"
                  f"{ready:10.3f} s = {ready / bare_ready:5.2f}x{stall * 1000:11.0f} ms  "
                  + ("" if name == "bare window" else f"{running} of {len(runs)}"))
        exam = results["exam at once"]
        print(f"\nexam at once: its first part shown {median(exam, 'exam_first_part'):.3f} s after "
              f"the click; the check still running then in "
              f"{sum(r['checking_when_exam_shown'] for r in exam)} of {len(exam)}")
        print("steps of the real start (median):")
        for name in ("first start", "after a crash", "normal start"):
            steps = {k: statistics.median(r["steps"][k] for r in results[name])
                     for k in results[name][0]["steps"]}
            print(f"  {name}: " + ", ".join(f"{k} {v:.3f} s" for k, v in steps.items()))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        launched, kind, *rest = float(sys.argv[2]), sys.argv[3], *sys.argv[4:]
        if kind == "crash":
            child_crash(rest[0])
        else:
            out = child_bare(launched) if kind == "bare" else \
                child_real(launched, rest[0], exam=rest[1:] == ["exam"])
            print(json.dumps(out))
    else:
        main()
