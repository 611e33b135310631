"""Test files run again in a program of their own, whose environment the suite's own Qt cannot
have: a laptop's screen and a projector's (tests/support/two_screens.py), a sound server with
microphones (tests/support/pulse.py). Their tests skip in the suite's own program, saying which
test runs them; each such test runs them all in one program, which pays Python's and pytest's
start, the collection and the app's imports (some 1 s of processor) once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT


def rerun(chosen: dict[str, str], env: dict[str, str]) -> dict[str, int]:
    """Run, in a program whose environment has `env` besides the run's, the tests of each file of
    tests/ in `chosen` that its expression (pytest -k, within that file; "" for all) chooses; how
    many passed in each file. An assertion fails when any failed or skipped."""
    files = [f"tests/{name}" for name in chosen]
    selection = " or ".join(f"({Path(name).stem} and ({expression}))" if expression else Path(name).stem
                            for name, expression in chosen.items())
    # no test run again uses Hypothesis, whose plugin imports it whole at the end of a run (some
    # 0.8 s of processor per rerun), anyio, or a class server, whose fixtures import psycopg and
    # the server's modules (with anyio's plugin, 0.15 s of the program's start; the run's TMPDIR,
    # which it inherits, spares tests/conftest.py the server's module too)
    done = subprocess.run([sys.executable, "-m", "pytest", *files, "-q", "-rp", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:anyio",
                           "-p", "no:tests.support.class_server_fixtures", "-k", selection],
                          cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=900)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "skipped" not in summary, summary
    return {name: len(re.findall(rf"^PASSED tests/{re.escape(name)}::", done.stdout, re.MULTILINE))
            for name in chosen}
