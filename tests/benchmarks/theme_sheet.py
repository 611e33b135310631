"""Benchmark: what the theme costs a screen's build, the CPU of building the Progress screen and of
the Practice screen with a round dealt, in a theme, in one or more trees measured by turns.

Each process (a fresh one per tree and turn) makes the app in the theme (ui.shell.app.application,
then ui.shell.theme.apply), then builds each screen `--builds` times as a screenshot does
(ui.shell.app.showcase: the window at 1366x768, shown; Progress on the demonstration class;
Practice with a round dealt from a fixed seed), lets the events run, paints the window
(`repaint`, synchronous) and deletes it. The first build of each screen loads its modules and is
left out; the process's median of the others is its number, in CPU ms (user + system,
`time.process_time`). Each tree's number is the median of its `--runs` processes; the trees take
turns, so that a load on the machine falls on each alike.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/theme_sheet.py \\
        [--trees TREE ...] [--runs 7] [--builds 6] [--theme light] [--large]

`--trees`: the source trees whose code is measured (another worktree, an exported commit), by
default this one; the first is the one the others are compared with.
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
SCREENS = ("progress", "practice")


def build(screen: str, size: tuple[int, int]) -> None:
    """One build of `screen`, shown and painted, then deleted."""
    from trainer import GAME_IDS
    from ui.qt import QApplication
    from ui.shell.app import discard, showcase

    window = showcase(screen, None, size)
    if screen == "practice":
        window.pages["practice"].deal(seed=7, game=GAME_IDS[0])
    QApplication.processEvents()
    window.repaint()
    window.close()
    discard(window)


def child(tree: str, theme: str, large: bool, builds: int) -> None:
    sys.path.insert(0, tree)
    from ui.shell import theme as themes
    from ui.shell.app import application

    app = application()
    themes.apply(app, theme, large=large)
    out = {}
    for screen in SCREENS:
        cpus = []
        for _ in range(builds + 1):
            cpu = time.process_time()
            build(screen, (1366, 768))
            cpus.append(time.process_time() - cpu)
        out[screen] = statistics.median(cpus[1:])
    print(json.dumps(out), flush=True)
    os._exit(0)  # the measure is taken: no teardown


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trees", nargs="+", default=[str(ROOT)])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--builds", type=int, default=6)
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument("--large", action="store_true", help="in large print")
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.theme, args.large, args.builds)
    trees = [str(Path(t).resolve()) for t in args.trees]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    found: dict[str, dict[str, list[float]]] = {t: {s: [] for s in SCREENS} for t in trees}
    for _ in range(args.runs):
        for tree in trees:  # by turns
            command = [sys.executable, __file__, "--child", tree, "--theme", args.theme,
                       "--builds", str(args.builds), *(["--large"] if args.large else [])]
            done = subprocess.run(command, env={**env, "PYTHONPATH": tree}, capture_output=True,
                                  text=True)
            if done.returncode:
                raise SystemExit(f"{tree}: {done.stderr[-800:]}")
            row = json.loads(done.stdout.strip().splitlines()[-1])
            for screen in SCREENS:
                found[tree][screen].append(row[screen])
    print(f"CPU ms of one build, {args.theme}{' large print' if args.large else ''}: median of "
          f"{args.runs} processes (each the median of {args.builds} builds)")
    first = trees[0]
    for tree in trees:
        cells = []
        for screen in SCREENS:
            ms = 1000 * statistics.median(found[tree][screen])
            base = 1000 * statistics.median(found[first][screen])
            cells.append(f"{screen} {ms:7.1f}" + (f" ({ms / base - 1:+.0%})" if tree != first else ""))
        print(f"{'  '.join(cells)}  {tree}")


if __name__ == "__main__":
    main()
