"""THIRD-PARTY-NOTICES (packaging/notices.py): every distribution the app requires is named with
its licence's text, Qt's and PostgreSQL's included, which no wheel's metadata carries, and FFmpeg's
and pocketsphinx's model's, which the wheels carry beside their code; and the copy kept in the
repository names the same distributions as the notices written now."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from functools import cache

import pytest

from tests.support.paths import ROOT


def sections(text: str) -> dict[str, str]:
    """Each section's title (its first word: the distribution's name) and its body."""
    parts = re.split(r"^={78}\n(.+)\n={78}\n", text, flags=re.MULTILINE)
    return {title.split()[0].lower().replace("_", "-"): body for title, body in zip(parts[1::2], parts[2::2],
                                                                                  strict=True)}


@cache
def written() -> str:
    """The notices packaging/notices.py writes now: one program's output, read by each test that
    needs it (the program reads the installed distributions, which no test changes)."""
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "notices.py")], capture_output=True,
                          text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


#: the tests that read the notices written now, in one worker of a parallel run: one program for all
READS_WRITTEN = pytest.mark.xdist_group("notices-written")


@READS_WRITTEN
def test_every_requirement_is_named_with_its_licence():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["class-server"]]
    names = {re.split(r"[\[<>=~! ]", r, maxsplit=1)[0].lower() for r in wanted}
    found = sections(written())
    for name in names:
        assert name in found, f"{name} has no notice"
        assert "Licence: " in found[name]
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in found["pyside6-essentials"]
    assert "GNU GENERAL PUBLIC LICENSE" in found["pyside6-essentials"]
    assert "PostgreSQL Database Management System" in found["pgserver"]
    assert "Bitstream Vera Fonts Copyright" in found["dejavu"]
    assert "PYTHON SOFTWARE FOUNDATION LICENSE" in found["python"]


#: FFmpeg's libraries Qt Multimedia loads, each stating "LGPL version 2.1 or later" in itself
#: (`strings libavcodec.so.61` in PySide6-Addons 6.11.3 on Linux says "libavcodec license: LGPL
#: version 2.1 or later")
FFMPEG = ("libavcodec", "libavformat", "libavutil", "libswresample", "libswscale")


@READS_WRITTEN
def test_ffmpeg_and_the_speech_model_are_named_with_their_licences():
    """What PySide6-Addons and pocketsphinx carry under licences of their own: FFmpeg, Qt
    Multimedia's back end, under the LGPL 2.1 with its text, and the recogniser's English model,
    under Alpha Cephei's licence, as its folder in the wheel has it."""
    found = sections(written())
    assert "ffmpeg" in found, "FFmpeg has no notice"
    for library in FFMPEG:
        assert f"Licence: {library}: LGPL version 2.1 or later (as the library states it)" in found["ffmpeg"]
    assert "GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 2.1, February 1999" \
        in found["ffmpeg"]
    assert "--enable-gpl" not in found["ffmpeg"] and "--enable-nonfree" not in found["ffmpeg"]
    assert "--- pocketsphinx/model/en-us/en-us/README ---" in found["pocketsphinx"]
    assert "Copyright (c) 2015 Alpha Cephei Inc." in found["pocketsphinx"]


def test_a_licence_ffmpeg_states_that_has_no_text_stops_the_notices():
    """A PySide6 whose FFmpeg states a licence packaging/licences has no text for (here: none is
    known) stops the writing, naming it, rather than writing notices without it."""
    code = ("import runpy, sys; ns = runpy.run_path(sys.argv[1]); ns['FFMPEG_TEXTS'].clear(); "
            "ns['ffmpeg'](ns['closure']())")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "packaging" / "notices.py")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == ("FFmpeg's libraries state LGPL version 2.1 or later, for which packaging/"
                           "licences has no text (packaging/notices.py, FFMPEG_TEXTS)\n")


@READS_WRITTEN
def test_the_kept_notices_name_what_the_app_requires_now():
    kept = sections((ROOT / "THIRD-PARTY-NOTICES").read_text(encoding="utf-8"))
    assert sorted(kept) == sorted(sections(written())), (
        "write them again: build/bundle-venv/bin/python packaging/notices.py THIRD-PARTY-NOTICES")
