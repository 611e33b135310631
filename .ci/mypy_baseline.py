"""The engine's type errors may only go down: mypy checks `trainer/` (the [tool.mypy] section of
pyproject.toml) and its count of errors is held against the number in `.ci/mypy-baseline`.

    python .ci/mypy_baseline.py            # fails if the count rose, or fell and is not written down
    python .ci/mypy_baseline.py --update   # writes the count down (only ever lower)

A count that falls fails too, until it is written down, so that an error fixed stays fixed. A run
of mypy that stops before it has checked everything (a syntax error, a bad configuration, a crash)
gives no count: it fails, whatever it printed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "mypy-baseline"
FOUND = re.compile(r"^Found (\d+) errors? in \d+ files? \(checked \d+ source files?\)$")
SUCCESS = re.compile(r"^Success: no issues found in \d+ source files?$")


def count(output: str) -> int | None:
    """The number of errors in mypy's output (its last line), or None when it gives none."""
    lines = output.strip().splitlines()
    last = lines[-1].strip() if lines else ""
    if m := FOUND.match(last):
        return int(m.group(1))
    if SUCCESS.match(last):
        return 0
    return None


def verdict(found: int, baseline: int) -> tuple[bool, str]:
    """(passes, the line to print) for a count of errors held against the baseline."""
    if found > baseline:
        return False, (f"mypy: {found} errors, {found - baseline} more than the baseline of {baseline} "
                       "in .ci/mypy-baseline: fix the new ones (the list is above)")
    if found < baseline:
        return False, (f"mypy: {found} errors, fewer than the baseline of {baseline}: lower it with "
                       "`python .ci/mypy_baseline.py --update` and commit .ci/mypy-baseline")
    return True, f"mypy: {found} errors, as the baseline allows"


def read_baseline() -> int:
    text = BASELINE.read_text(encoding="utf-8").strip()
    if not text.isdigit():
        raise SystemExit(f"{BASELINE}: expected one whole number, got {text[:40]!r}")
    return int(text)


def main(argv: list[str]) -> int:
    update = argv == ["--update"]
    if argv and not update:
        print("usage: python .ci/mypy_baseline.py [--update]", file=sys.stderr)
        return 2
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    found = count(run.stdout) if run.returncode in (0, 1) else None
    if found is None:
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        print(f"mypy gave no count of errors (exit code {run.returncode}): see above", file=sys.stderr)
        return 1
    baseline = read_baseline()
    if update:
        if found > baseline:
            sys.stdout.write(run.stdout)
            print(f"mypy: {found} errors, more than the baseline of {baseline}: it is not raised",
                  file=sys.stderr)
            return 1
        BASELINE.write_text(f"{found}\n", encoding="utf-8")
        print(f"mypy: the baseline is now {found} errors")
        return 0
    ok, line = verdict(found, baseline)
    if found > baseline:
        sys.stdout.write(run.stdout)
    print(line, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
