"""Benchmark: the table views' redraw (where the labels' placement, ui.table.labels, takes most of
the time) of this tree's ui/ against another commit's, in one run: every game's random rounds, as
tests/test_table_plays.py deals them, played through its table view in a process of each tree, in
turn, a few times each, so that what else the machine does weighs on both alike. It measures the
CPU time of `set_state` alone (the rounds are played before the clock starts) and notes every
label drawn after each state (its words, type, mark and place), which must be the same in both:
a faster placement that moves a label is a different placement. Every item on the table after
each state (its kind, place, size and words) and the pixels they paint must be the same too.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/table_labels.py [--against REV]
        [--rounds 40] [--repeat 3] [GAME ...]

REV (default HEAD) is any commit; its ui/ is taken with `git archive`, the engine is this tree's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def states(game: str, rounds: int) -> list[list]:
    """Each round's table states, one after each action of the round played right."""
    from trainer.drills import random_round
    from trainer.practice import PracticeRound

    out = []
    for k in range(rounds):
        r = PracticeRound(random_round(game, 1 + k % 5, seed=f"table-{k}"))
        seq = []
        while True:
            seq.append(r.table_state())
            if r.finished:
                break
            e = r.next_expected()
            r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
        out.append((r.scenario, seq))
    return out


def child(game: str, rounds: int) -> dict:
    """In a process whose `ui` is the tree measured: the CPU seconds of every set_state, and a
    digest of every label drawn after each."""
    from ui.qt import QApplication

    _app = QApplication.instance() or QApplication([])
    from ui.table import table_view

    played = states(game, rounds)
    views, cpu, digest, scene = {}, 0.0, hashlib.sha256(), hashlib.sha256()
    for scenario, seq in played:
        key = (scenario.game, repr(sorted(scenario.options.items())))
        if key not in views:
            views[key] = table_view(scenario.game, scenario.options)
            views[key].resize(1280, 800)
        view = views[key]
        for state in seq:
            t0 = time.process_time()
            view.set_state(state)
            cpu += time.process_time() - t0
            drawn = sorted((repr(k), repr(look)) for k, (look, _) in view._label_items.items())
            digest.update(repr(drawn).encode())
            scene.update(repr(scene_items(view)).encode())
            scene.update(scene_pixels(view))
    return {"cpu": cpu, "states": sum(len(seq) for _, seq in played), "digest": digest.hexdigest(),
            "scene": scene.hexdigest()}


def scene_items(view) -> list[tuple]:
    """Every item on the live scene, each with what it draws: its layer (z), kind, place, size,
    words, tooltip. Items of one layer that do not overlap may be added in another order and
    paint the same: the order is checked on the pixels (`scene_pixels`)."""
    return sorted((item.zValue(), type(item).__name__, item.scenePos().toTuple(), item.opacity(),
                   item.boundingRect().getRect(), getattr(item, "text", None) or "", item.toolTip())
                  for item in view.scene().items())


def scene_pixels(view) -> bytes:
    """The live scene's items painted, at half the table's size (its printed layout is drawn
    behind them from a cache, the same in both trees)."""
    from ui.qt import QImage, QPainter, QRectF, Qt

    rect = view.scene().sceneRect()
    image = QImage(int(rect.width() / 2), int(rect.height() / 2), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHints(view.renderHints())
    view.scene().render(painter, QRectF(image.rect()), rect)
    painter.end()
    return bytes(image.constBits())


def tree_of(rev: str, into: Path) -> Path:
    """`rev`'s ui/ in a folder of its own (first on the path of the process that measures it)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "ui"], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def measure(where: Path, game: str, rounds: int, script: str = __file__) -> dict:
    """`script --child GAME` run with `where`'s ui/ first on the path: its last line, as JSON."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)]),
           "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, script, "--child", game, "--rounds", str(rounds)],
                          env=env, check=True, capture_output=True, text=True, cwd=str(where))
    return json.loads(done.stdout.splitlines()[-1])


def against(script: str, child, rounds: int, line) -> None:
    """The command line of a benchmark that measures this tree against another by turns
    (`script`: its file; `child(game, rounds)`: its measure, in a process of its own; `line(game,
    against, old, new)`: its line for a game, from the least CPU of each tree)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--against", default="HEAD")
    ap.add_argument("--rounds", type=int, default=rounds)
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
                    got = measure(where, game, args.rounds, script)
                    if name not in best or got["cpu"] < best[name]["cpu"]:
                        best[name] = got
            print(line(game, args.against, best["old"], best["new"]), flush=True)
            total["old"] += best["old"]["cpu"]
            total["new"] += best["new"]["cpu"]
    print(f"{'all':20}        {args.against} {total['old']:.2f} s, this tree {total['new']:.2f} s CPU "
          f"= {total['old'] / total['new']:.2f}x")


def _line(game: str, rev: str, old: dict, new: dict) -> str:
    same = "same labels" if old["digest"] == new["digest"] else "LABELS DIFFER"
    same += ", same items" if old["scene"] == new["scene"] else ", ITEMS DIFFER"
    return (f"{game:20} {new['states']:5} states: {rev} {old['cpu']:.2f} s, "
            f"this tree {new['cpu']:.2f} s CPU = {old['cpu'] / new['cpu']:.2f}x; {same}")


def main() -> None:
    against(__file__, child, 40, _line)


if __name__ == "__main__":
    main()
