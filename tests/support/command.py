"""The program as a user runs it: `run_command` (python -m ui.main, in a subprocess) and the
installed `dealer-trainer` entry point (the `dealer_trainer` fixture); `run_here`, an engine
command through the entry the program calls, in this process (a tenth of a second less per case,
for the many cases of one command once the program itself has been run on one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT


def run_command(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python -m ui.main ARGS` (the dealer-trainer program) the way a user would."""
    return subprocess.run([sys.executable, "-m", "ui.main", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=120)


def run_here(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """`dealer-trainer ARGS` for an engine command, through its entry in this process
    (trainer.cli.main, which the program calls): exit status, stdout and stderr as run_command's;
    `env` is set for the call (a passphrase the command reads with --passphrase-env)."""
    from tests.support.fuzz import run_cli

    before = {name: os.environ.get(name) for name in env or {}}
    os.environ.update(env or {})
    try:
        rc, out, err = run_cli(list(args), stdin.encode())
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return subprocess.CompletedProcess(list(args), rc, out, err)


@pytest.fixture
def dealer_trainer() -> str:
    """The installed `dealer-trainer` entry point."""
    exe = shutil.which("dealer-trainer", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the dealer-trainer entry point is not installed in this environment")
    return exe
