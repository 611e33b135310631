"""Benchmark: reading each bundled exam form (`read_form`: the file read, every item's scenario
read and played, a supervise item's faults dealt), the first time in a process and again.

A form is read again whenever it is opened: a sitting file opened (its signed form), each sitting
certified, the forms listed. Prints the CPU milliseconds of the first read and the median of 20
reads after it, per form. Run: `python tests/benchmarks/form_reads.py`.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from trainer.exams.forms import bundled_form_files, read_form
from trainer.library import load_library
from trainer.procedure import build
from trainer.supervise.rounds import supervise


def cpu_ms(path: Path) -> float:
    start = time.process_time()
    read_form(path)
    return (time.process_time() - start) * 1000


def main() -> None:
    for scenario in load_library().scenarios:  # every game's modules and data loaded first
        build(scenario)
    supervise(load_library().scenarios[0], 2, "warm")
    for path in bundled_form_files():
        first = cpu_ms(path)
        again = statistics.median(cpu_ms(path) for _ in range(20))
        print(f"{path.name:28} first {first:6.2f} ms, again {again:6.2f} ms")


if __name__ == "__main__":
    main()
