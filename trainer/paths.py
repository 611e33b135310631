"""Where the bundled data lives, in a source checkout and in an installed wheel.

A checkout keeps `resources/` and `scenarios/` beside the packages. A wheel carries them inside
the `trainer` package as `trainer/_data/...` (see pyproject.toml), because a wheel can only hold
files under its packages.
"""

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the bundled '{name}' folder is missing (looked beside {_PACKAGE})")


@cache
def resources_dir() -> Path:
    return _find("resources")


@cache
def scenarios_dir() -> Path:
    return _find("scenarios")
