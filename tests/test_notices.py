"""THIRD-PARTY-NOTICES (packaging/notices.py): every distribution the app requires is named with
its licence's text, Qt's and PostgreSQL's included, which no wheel's metadata carries; and the
copy kept in the repository names the same distributions as the notices written now."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

from tests.support.paths import ROOT


def sections(text: str) -> dict[str, str]:
    """Each section's title (its first word: the distribution's name) and its body."""
    parts = re.split(r"^={78}\n(.+)\n={78}\n", text, flags=re.MULTILINE)
    return {title.split()[0].lower().replace("_", "-"): body for title, body in zip(parts[1::2], parts[2::2],
                                                                                  strict=True)}


def written() -> str:
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "notices.py")], capture_output=True,
                          text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


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


def test_the_kept_notices_name_what_the_app_requires_now():
    kept = sections((ROOT / "THIRD-PARTY-NOTICES").read_text(encoding="utf-8"))
    assert sorted(kept) == sorted(sections(written())), (
        "write them again: build/bundle-venv/bin/python packaging/notices.py THIRD-PARTY-NOTICES")
