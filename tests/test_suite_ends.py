"""A parallel run (`make test`) ends, failed, when a worker crashes or a test is stuck: it names the
test, never waits until CI's own time runs out. pytest-xdist 3.8 under --dist loadgroup waits for
ever after it replaces a crashed worker, so the Makefile replaces none; a stuck test is ended by
pytest's faulthandler (pyproject.toml), which a parallel run sees as a crash."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib

import pytest

from tests.support.paths import ROOT

TESTS = textwrap.dedent("""
    import os, signal, time
    import pytest

    @pytest.mark.parametrize("i", range(12))
    def test_before(i):
        time.sleep(0.02)

    def test_{fault}():
        {body}

    @pytest.mark.xdist_group("one")
    @pytest.mark.parametrize("i", range(12))
    def test_grouped(i):
        time.sleep(0.02)
""")


def make_test_xdist() -> list[str]:
    """The pytest-xdist options `make test` runs the suite with."""
    found = re.search(r"^XDIST := (.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "the Makefile names its pytest-xdist options in XDIST"
    return found.group(1).split()


def run_settings() -> dict:
    """The suite's own pytest settings (pyproject.toml)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]


def test_a_stuck_test_is_ended_within_minutes():
    settings = run_settings()
    assert 0 < settings["faulthandler_timeout"] <= 600 and settings["faulthandler_exit_on_timeout"] is True


@pytest.mark.parametrize("fault", ["crash", "stuck"])
def test_a_crashed_worker_or_a_stuck_test_ends_the_run_and_is_named(tmp_path, fault):
    """Run with the suite's xdist options and its faulthandler settings (a second, not minutes),
    and pytest-xdist alone of the plugins (each worker a lighter program)."""
    body = {"crash": "os.kill(os.getpid(), signal.SIGSEGV)", "stuck": "time.sleep(600)"}[fault]
    (tmp_path / "ends_test.py").write_text(TESTS.format(fault=fault, body=body))
    exits = str(run_settings()["faulthandler_exit_on_timeout"]).lower()
    (tmp_path / "pytest.ini").write_text(f"[pytest]\nfaulthandler_exit_on_timeout = {exits}\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist.plugin", "-p", "no:cacheprovider",
         *make_test_xdist(), "-o", "faulthandler_timeout=1", "ends_test.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert f"crashed while running 'ends_test.py::test_{fault}'" in out, out
    assert re.search(r"\b1 failed\b", out), out
    if fault == "stuck":  # where it was stuck, printed before its worker ended
        assert "Timeout (0:00:01)!" in out and "in test_stuck" in out, out
