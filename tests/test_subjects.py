"""`.ci/subjects.py`, which `make lint` runs: a commit after SINCE whose subject is over 72
characters fails the check, by name; what came before SINCE is history and is let be."""

from __future__ import annotations

import importlib.util
import subprocess

import pytest

from tests.support.paths import ROOT


@pytest.fixture
def subjects(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("subjects", ROOT / ".ci" / "subjects.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.chdir(tmp_path)

    def commit(subject: str) -> str:
        subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q",
                        "--allow-empty", "-m", subject], check=True)
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()

    subprocess.run(["git", "init", "-q"], check=True)
    module.commit = commit
    return module


def test_a_long_subject_after_since_fails_and_is_named(subjects, monkeypatch, capsys):
    subjects.commit("x" * 90)  # history: before SINCE
    monkeypatch.setattr(subjects, "SINCE", subjects.commit("The rule is checked from here"))
    subjects.commit("A subject of exactly seventy-two characters, which is the most it may be")
    assert subjects.main() == 0
    long = subjects.commit("A subject that goes on and on past the seventy-two characters a subject has")
    assert subjects.main() == 1
    assert long in capsys.readouterr().out


def test_a_history_without_since_checks_the_last_commit_only(subjects, monkeypatch, capsys):
    subjects.commit("y" * 90)
    subjects.commit("Short")
    monkeypatch.setattr(subjects, "SINCE", "0123456")
    assert subjects.main() == 0
    assert "the last commit only" in capsys.readouterr().out
