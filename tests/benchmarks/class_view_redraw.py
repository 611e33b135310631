"""Benchmark: the Class tab drawn again with one trainee's new result, at 30, 100 and 200
trainees, the grid as a model that redraws the changed row (ui.classroom.grid) against the
`QTableWidget` that filled every cell again (the baseline: the view as it was, read from git and
measured in the same run on the same overviews). A redraw is `show_overview` plus the paint the
screen then makes (the events processed: Qt paints what each view marked as changed).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/class_view_redraw.py [--repeat 7]
        [--baseline-commit 2e06194]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def overview(trainees: int, seed: int):
    """A class of `trainees` with every skill practised, each cell a few attempts' accuracy."""
    from trainer import Skill
    from trainer.progress.classroom import Cell, ClassOverview
    from trainer.progress.records import Trainee

    rng = random.Random(seed)
    people = [Trainee(i + 1, f"Trainee {i + 1:03d}", 0.0, False, None, False, False) for i in range(trainees)]
    skills = list(Skill)
    cells = {(t.id, s): Cell(20, rng.randint(10, 20)) for t in people for s in skills}
    seconds: dict[int, float | None] = {t.id: rng.uniform(1.5, 9.0) for t in people}
    return ClassOverview(people, skills, cells, [], [], seconds)


def one_more_result(before, who: int):
    """The same class with one trainee's cells moved by a new result."""
    from trainer.progress.classroom import Cell, ClassOverview

    cells = dict(before.cells)
    for s in before.skills[:3]:
        c = cells[who, s]
        cells[who, s] = Cell(c.exercises + 1, c.right)
    return ClassOverview(before.trainees, before.skills, cells, [], [], before.answer_seconds)


def baseline_view(commit: str):
    """ClassView as it was at `commit` (the QTableWidget grid), loaded under another name."""
    source = subprocess.run(["git", "show", f"{commit}:ui/classroom/view.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType("baseline_class_view")
    exec(compile(source, "baseline_class_view.py", "exec"), module.__dict__)
    return module.ClassView


def redraw_ms(app, view, overviews, repeat: int) -> float:
    """The median time of drawing each overview in turn after the first, over `repeat` rounds."""
    times = []
    for _ in range(repeat):
        for o in overviews[1:]:
            start = time.perf_counter()
            view.show_overview(o)
            app.processEvents()
            times.append(time.perf_counter() - start)
        view.show_overview(overviews[0])
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--baseline-commit", default="2e06194")
    args = parser.parse_args()
    from ui.qt import QApplication

    app = QApplication.instance() or QApplication([])
    from ui.classroom.view import ClassView

    Baseline = baseline_view(args.baseline_commit)
    print(f"{'trainees':>8} {'baseline ms':>12} {'grid ms':>8} {'grid/baseline':>14}")
    for n in (30, 100, 200):
        first = overview(n, seed=n)
        overviews = [first] + [one_more_result(first, who=1 + (k * 7) % n) for k in range(5)]
        figures = []
        for make in (Baseline, ClassView):
            view = make()
            view.resize(1366, 700)
            view.show()
            view.show_overview(first)
            app.processEvents()
            figures.append(redraw_ms(app, view, overviews, args.repeat))
            view.close()
        print(f"{n:>8} {figures[0]:>12.1f} {figures[1]:>8.1f} {figures[1] / figures[0]:>14.3f}")


if __name__ == "__main__":
    main()
