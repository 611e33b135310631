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

import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_labels import against, states  # the rounds, trees and turns of that benchmark

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


def _line(game: str, rev: str, old: dict, new: dict) -> str:
    same = "same pixels" if old["digest"] == new["digest"] else "PIXELS DIFFER"
    each = {name: got["cpu"] / got["paints"] * 1000 for name, got in (("old", old), ("new", new))}
    return (f"{game:20} {new['paints']:5} paints: {rev} {each['old']:.2f} ms, "
            f"this tree {each['new']:.2f} ms CPU a paint = {old['cpu'] / new['cpu']:.2f}x; {same}")


def main() -> None:
    against(__file__, child, 20, _line)


if __name__ == "__main__":
    main()
