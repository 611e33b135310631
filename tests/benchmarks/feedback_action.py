"""Benchmark: the practice screen's feedback panel, what each action's feedback costs.

A panel at a workstation's size (420 x 700), in the light theme, given 20 actions' feedback
(right and wrong, each with its regulation's words) so that it holds its 12 and scrolls; then
timed, in CPU (user + system of the process), `--actions` more: each written (`add`), and each
written and painted (`repaint`, synchronous). Milliseconds an action, the best of `--rounds`.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/feedback_action.py
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


class Feedback:
    """What the panel reads of a trainer.Feedback."""

    def __init__(self, n: int):
        self.ok = n % 2 == 0
        self.message = "Right: collect the losing wagers" if self.ok else "Pay before collecting"
        self.expected = None if self.ok else type("E", (), {"label": "Collect the Field"})()
        self.cite = "58 Pa. Code § 668a.3(g)"
        self.quote = "The dealer shall collect all losing wagers before paying any winning wager. " * 2


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from ui.shell import theme
    from ui.shell.app import application

    app = application()
    theme.apply(app, "light")
    from ui.practice.screen import FeedbackPanel

    panel = FeedbackPanel()
    panel.resize(420, 700)
    panel.show()
    app.processEvents()
    for n in range(20):
        panel.add(Feedback(n))
        app.processEvents()
    written, painted = [], []
    for _ in range(args.rounds):
        cpu = time.process_time()
        for n in range(args.actions):
            panel.add(Feedback(n))
        written.append((time.process_time() - cpu) / args.actions)
        cpu = time.process_time()
        for n in range(args.actions):
            panel.add(Feedback(n))
            panel.viewport().repaint()
        painted.append((time.process_time() - cpu) / args.actions)
    print(f"feedback an action: written {1000 * min(written):.2f} ms, written and painted "
          f"{1000 * min(painted):.2f} ms of CPU (best of {args.rounds})")
    os._exit(0)  # measured: no teardown


if __name__ == "__main__":
    main()
