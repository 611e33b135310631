"""Benchmark: the table's repaint (its chips, dice, pucks, labels: the items drawn over the printed
layout, which the view keeps in a cache) of this tree's ui/ against another commit's, in one run:
every game's random rounds, as tests/test_table_plays.py deals them, played through its table view
in a process of each tree, in turn, a few times each, so that what else the machine does weighs on
both alike. After each state is set (not timed) the scene's items are painted at the table's full
size, as a window of 1280 x 800 repaints them; the CPU time of the painting alone is counted, and
the pixels painted must be the same in both trees.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/table_paint.py [--against REV]
        [--rounds 20] [--repeat 3] [GAME ...]

REV (default HEAD) is any commit; its ui/ is taken with `git archive`, the engine is this tree's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_labels import ROOT, states, tree_of  # the rounds and trees of that benchmark

#: each state painted this many times: a table repaints the same items again and again (a pulse's
#: frames, the pointer moving over it, a dialog closed over it)
PAINTS = 3


def child(game: str, rounds: int) -> dict:
    """In a process whose `ui` is the tree measured: the CPU seconds of painting every state, and a
    digest of the pixels painted."""
    from ui.qt import QApplication, QImage, QPainter, QRectF, Qt

    _app = QApplication.instance() or QApplication([])
    from ui.table import table_view

    views, cpu, digest, painted = {}, 0.0, hashlib.sha256(), 0
    for scenario, seq in states(game, rounds):
        key = (scenario.game, repr(sorted(scenario.options.items())))
        if key not in views:
            views[key] = table_view(scenario.game, scenario.options)
            views[key].resize(1280, 800)
        view = views[key]
        scene = view.scene()
        rect = scene.sceneRect()
        scale = min(1280 / rect.width(), 800 / rect.height())
        image = QImage(int(rect.width() * scale), int(rect.height() * scale), QImage.Format.Format_ARGB32)
        for state in seq:
            view.set_state(state)
            for _ in range(PAINTS):
                image.fill(Qt.GlobalColor.transparent)
                t0 = time.process_time()
                painter = QPainter(image)
                painter.setRenderHints(view.renderHints())
                scene.render(painter, QRectF(image.rect()), rect)
                painter.end()
                cpu += time.process_time() - t0
                painted += 1
            digest.update(bytes(image.constBits()))
    return {"cpu": cpu, "paints": painted, "digest": digest.hexdigest()}


def measure(where: Path, game: str, rounds: int) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)]),
           "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, __file__, "--child", game, "--rounds", str(rounds)],
                          env=env, check=True, capture_output=True, text=True, cwd=str(where))
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--against", default="HEAD")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child")
    args = ap.parse_args()
    if args.child:
        sys.path.insert(0, os.getcwd())
        print(json.dumps(child(args.child, args.rounds)))
        return
    sys.path.insert(0, str(ROOT))
    from trainer import games

    total = {"old": 0.0, "new": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"old": tree_of(args.against, Path(tmp)), "new": ROOT}
        for game in args.games or games.GAME_IDS:
            best: dict[str, dict] = {}
            for _ in range(args.repeat):  # in turn, the least of each: the machine's noise left out
                for name, where in trees.items():
                    got = measure(where, game, args.rounds)
                    if name not in best or got["cpu"] < best[name]["cpu"]:
                        best[name] = got
            old, new = best["old"], best["new"]
            same = "same pixels" if old["digest"] == new["digest"] else "PIXELS DIFFER"
            each = {name: got["cpu"] / got["paints"] * 1000 for name, got in best.items()}
            print(f"{game:20} {new['paints']:5} paints: {args.against} {each['old']:.2f} ms, "
                  f"this tree {each['new']:.2f} ms CPU a paint = "
                  f"{old['cpu'] / new['cpu']:.2f}x; {same}", flush=True)
            total["old"] += old["cpu"]
            total["new"] += new["cpu"]
    print(f"{'all':20}        {args.against} {total['old']:.2f} s, this tree {total['new']:.2f} s CPU "
          f"= {total['old'] / total['new']:.2f}x")


if __name__ == "__main__":
    main()
