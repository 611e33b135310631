"""How long the bundle takes to start against the venv, in the same run: each starts, renders
the practice screen to a PNG (`--screenshot`) and exits, by turns, ROUNDS times; the least and
the median of each, in seconds on the clock and in seconds of the processor (user and system:
what a busy machine's clock adds, they do not), and the bundle's size on disk. A measurement,
never a pass or a fail:

    python tests/bundle/start_time.py [ROUNDS]       (after `make bundle`)
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dist" / "dealer-trainer"


def size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def start(program: list[str], home: Path, **env: str) -> tuple[float, float]:
    """The clock's and the processor's seconds of one start."""
    shot = home / "shot.png"
    began, spent = time.perf_counter(), cpu()
    subprocess.run([*program, "--screenshot", str(shot), "--screen", "practice"], check=True,
                   env={**clean(home), **env}, capture_output=True, timeout=120)
    return time.perf_counter() - began, cpu() - spent


def clean(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "c"), XDG_DATA_HOME=str(home / "d"),
               QT_QPA_PLATFORM="offscreen")
    return env


def main(rounds: int) -> int:
    if not (BUNDLE / "dealer-trainer-app").exists():
        print(f"no bundle at {BUNDLE}: build it with `make bundle`", file=sys.stderr)
        return 2
    home = Path(tempfile.mkdtemp(prefix="dealer-trainer-start-"))
    venv = [sys.executable, "-m", "ui"]
    built = [str(BUNDLE / "dealer-trainer-app")]
    start(venv, home, PYTHONPATH=str(ROOT))  # each once first: the disk's cache warm for both
    start(built, home)
    times: dict[str, list[tuple[float, float]]] = {"venv": [], "bundle": []}
    for _ in range(rounds):
        times["venv"].append(start(venv, home, PYTHONPATH=str(ROOT)))
        times["bundle"].append(start(built, home))
    for name, runs in times.items():
        clock, used = [c for c, _ in runs], [u for _, u in runs]
        print(f"{name:7} clock: least {min(clock):.2f} s, median {statistics.median(clock):.2f} s; "
              f"processor: least {min(used):.2f} s, median {statistics.median(used):.2f} s "
              f"({rounds} starts to the practice screen's picture)")
    print(f"bundle  {size(BUNDLE) / 2**20:.0f} MiB on disk ({BUNDLE})")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
