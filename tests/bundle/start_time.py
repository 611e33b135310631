"""How long the bundle takes to start against the venv, in the same run: each starts, renders
the practice screen to a PNG (`--screenshot`) and exits, by turns, ROUNDS times; the least and
the median of each, and the bundle's size on disk. A measurement, never a pass or a fail:

    python tests/bundle/start_time.py [ROUNDS]       (after `make bundle`)
"""

from __future__ import annotations

import os
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


def start(program: list[str], home: Path, **env: str) -> float:
    shot = home / "shot.png"
    began = time.perf_counter()
    subprocess.run([*program, "--screenshot", str(shot), "--screen", "practice"], check=True,
                   env={**clean(home), **env}, capture_output=True, timeout=120)
    return time.perf_counter() - began


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
    times: dict[str, list[float]] = {"venv": [], "bundle": []}
    for _ in range(rounds):
        times["venv"].append(start(venv, home, PYTHONPATH=str(ROOT)))
        times["bundle"].append(start(built, home))
    for name, ts in times.items():
        print(f"{name:7} least {min(ts):.2f} s, median {statistics.median(ts):.2f} s, most {max(ts):.2f} s "
              f"({rounds} starts to the practice screen's picture)")
    print(f"bundle  {size(BUNDLE) / 2**20:.0f} MiB on disk ({BUNDLE})")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
