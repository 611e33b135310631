"""The ratchet on the engine's type errors (.ci/mypy_baseline.py, run by `make lint`): it reads
mypy's count, fails when the count rises, fails until a lower count is written down, and never
takes a run that stopped early for a count. mypy itself is not run here: its output is given."""

from __future__ import annotations

import importlib.util
import subprocess

import pytest

from tests.support.paths import ROOT


def _script():
    spec = importlib.util.spec_from_file_location("mypy_baseline", ROOT / ".ci" / "mypy_baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mb = _script()


@pytest.mark.parametrize(("output", "expected"), [
    ("a.py:1: error: x  [assignment]\nFound 12 errors in 3 files (checked 108 source files)\n", 12),
    ("a.py:1: error: x  [assignment]\nFound 1 error in 1 file (checked 1 source file)\n", 1),
    ("Success: no issues found in 108 source files\n", 0),
    # a syntax error stops mypy before it has checked the rest: its count is no count
    ("b.py:1: error: Expected an identifier  [syntax]\n"
     "Found 1 error in 1 file (errors prevented further checking)\n", None),
    ("Traceback (most recent call last):\n  ...\nAssertionError\n", None),
    ("", None),
    ("pyproject.toml: [mypy]: python_version: Python 2.7 is not supported\n", None),
])
def test_the_count_is_read_from_mypys_last_line(output, expected):
    assert mb.count(output) == expected


def test_a_rise_fails_a_fall_fails_until_written_down_and_the_same_passes():
    ok, line = mb.verdict(31, 30)
    assert not ok and "1 more than the baseline of 30" in line
    ok, line = mb.verdict(28, 30)
    assert not ok and "--update" in line and "28" in line
    assert mb.verdict(30, 30)[0]


@pytest.fixture
def fake_mypy(monkeypatch, tmp_path):
    """The script with its baseline in tmp_path at 30, and mypy answering `answer`."""
    baseline = tmp_path / "mypy-baseline"
    baseline.write_text("30\n", encoding="utf-8")
    monkeypatch.setattr(mb, "BASELINE", baseline)
    answer = {}

    def run(args, **kw):
        assert args[1:] == ["-m", "mypy"]
        return subprocess.CompletedProcess(args, answer["code"], answer["out"], "")

    monkeypatch.setattr(mb.subprocess, "run", run)

    def give(code: int, out: str):
        answer.update(code=code, out=out)
        return baseline

    return give


def test_the_script_fails_on_a_rise_and_on_a_run_that_gave_no_count(fake_mypy, capsys):
    fake_mypy(1, "Found 31 errors in 9 files (checked 108 source files)\n")
    assert mb.main([]) == 1
    assert "1 more than the baseline of 30" in capsys.readouterr().err
    fake_mypy(2, "Found 3 errors in 1 file (checked 108 source files)\n")  # exit 2: a crash
    assert mb.main([]) == 1
    assert "no count of errors (exit code 2)" in capsys.readouterr().err
    fake_mypy(1, "Found 30 errors in 9 files (checked 108 source files)\n")
    assert mb.main([]) == 0


def test_update_lowers_the_baseline_and_never_raises_it(fake_mypy, capsys):
    baseline = fake_mypy(1, "Found 31 errors in 9 files (checked 108 source files)\n")
    assert mb.main(["--update"]) == 1
    assert baseline.read_text(encoding="utf-8") == "30\n"
    fake_mypy(1, "Found 27 errors in 9 files (checked 108 source files)\n")
    assert mb.main([]) == 1  # lower, not yet written down
    assert mb.main(["--update"]) == 0
    assert baseline.read_text(encoding="utf-8") == "27\n"
    assert mb.main([]) == 0


def test_the_committed_baseline_is_one_whole_number():
    assert mb.read_baseline() >= 0
