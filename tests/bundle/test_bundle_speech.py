"""Spoken calls in the desktop bundle (dist/dealer-trainer): the bundled recogniser finds its
English model and hears a call flite says, as the venv hears it; the bundled app loads Qt
Multimedia and Qt TextToSpeech, and where there is no microphone, View › Speak my calls says
that, not that the recogniser, its model or a Qt plugin is missing; its notices name what
spoken calls brought. A bundle built without
pocketsphinx's model (the recipe before it named the model) fails the first: `hear` said an
internal error. Outside `make test`, like the rest of tests/bundle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.bundle.support import CLI, clean_env
from tests.support.flite import needs_flite, say
from tests.support.paths import ROOT

PH = ("--game", "props-and-hops")


def run(program: list[str], home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    home.mkdir(exist_ok=True)
    return subprocess.run([*program, *args], capture_output=True, text=True, timeout=120,
                          env={**clean_env(home), **env}, cwd=home)


def bundled(home: Path, *args: str) -> subprocess.CompletedProcess:
    return run([str(CLI)], home, *args)


def in_the_venv(home: Path, *args: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "ui"], home, *args, PYTHONPATH=str(ROOT))


@pytest.fixture(scope="module")
def call(tmp_path_factory) -> Path:
    needs_flite()
    return say("seven three four", "rms", tmp_path_factory.mktemp("calls"))


def test_the_bundle_hears_a_call_right_as_the_venv_does(bundle, call, tmp_path):
    """flite's "seven three four" is the call Seven, three-four: right, with the words heard and
    where the speech is, the same lines as the venv's recogniser gives (all but how long the
    verdict took, which is timed on the clock)."""
    done = bundled(tmp_path / "home", "hear", str(call), *PH, "--expect", "Seven, three-four")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ['right: "Seven, three-four"', "words: seven three four"]
    assert lines[2].startswith("speech: from ") and lines[3].endswith(" ms after the end of speech")
    venv = in_the_venv(tmp_path / "home", "hear", str(call), *PH, "--expect", "Seven, three-four")
    assert venv.stdout.splitlines()[:3] == lines[:3]


def test_the_bundle_hears_a_wrong_call_as_wrong(bundle, call, tmp_path):
    """Not a bundle that says "right" to anything: the same call owed as Seven, two-five."""
    done = bundled(tmp_path / "home", "hear", str(call), *PH, "--expect", "Seven, two-five")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == 'wrong: heard "Seven, three-four", expected "Seven, two-five"'


def answers(done: subprocess.CompletedProcess) -> dict[str, str]:
    """speech-check's lines: each View menu item and what it says."""
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return dict(line.split(": ", 1) for line in done.stdout.splitlines())


def test_speak_my_calls_says_why_it_is_off_as_in_the_venv(bundle, tmp_path):
    """The View menu's reasons (ui.speech.options.calls_problem, ui.speech.voice.voice_problem),
    in the bundle and in the venv, on the same computer: the same words. Here (a container, no
    sound server) there is no microphone, and Speak my calls says so: for that, Qt Multimedia was
    loaded in the bundle (with QtNetwork, which it links) and asked for the microphones, and the
    recogniser and its model were found; a bundle without either says that instead."""
    built = bundled(tmp_path / "home", "speech-check")
    said = answers(built)
    assert list(said) == ["Speak my calls", "The stickman's voice"]
    assert said["Speak my calls"] in ("off: No microphone is connected to this computer.",
                                      "can be turned on (View menu)")
    # Qt TextToSpeech loaded: whatever engine this computer has or lacks, not the module
    assert "cannot be loaded" not in said["The stickman's voice"]
    venv = in_the_venv(tmp_path / "home", "speech-check")
    assert answers(venv) == said and built.returncode == venv.returncode


def test_the_notices_name_what_spoken_calls_brought(bundle):
    """pocketsphinx (with its model) and PySide6_Addons (Qt Multimedia, Qt TextToSpeech and the
    FFmpeg they load), each with its licence, in THIRD-PARTY-NOTICES."""
    notices = (bundle / "THIRD-PARTY-NOTICES").read_text(encoding="utf-8").splitlines()
    for package in ("pocketsphinx", "PySide6_Addons"):
        assert any(line.startswith(f"{package} ") for line in notices), package
    assert any(line.startswith("FFmpeg ") for line in notices), "FFmpeg"
    assert "--- pocketsphinx/model/en-us/en-us/README ---" in notices
