"""Where the bundled data lives, in a source checkout and in an installed wheel.

A checkout keeps `resources/` and `scenarios/` beside the packages. A wheel carries them inside
the `trainer` package as `trainer/_data/...` (see pyproject.toml), because a wheel can only hold
files under its packages.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO

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


def binary(flags: int) -> int:
    """`os.open`'s `flags` for a file of bytes: with O_BINARY where it exists (Windows, whose C
    runtime otherwise writes each b"\\n" as b"\\r\\n", and reads b"\\x1a" as the end of the file)."""
    return flags | getattr(os, "O_BINARY", 0)


@contextmanager
def atomic_text(path: str | os.PathLike, *, private: bool = False) -> Iterator[IO[str]]:
    """A text file written whole or not at all: written to a temporary file beside it, flushed to
    the disk, then renamed over it; an error leaves the old file and no temporary one. `private`:
    readable and writable by its owner only (mode 0600), from its first byte."""
    with _atomic(path, "w", private) as out:
        yield out


def atomic_bytes(path: str | os.PathLike, data: bytes, *, private: bool = False) -> None:
    """`data` written to a file whole or not at all, as `atomic_text` writes."""
    with _atomic(path, "wb", private) as out:
        out.write(data)


@contextmanager
def _atomic(path: str | os.PathLike, mode: str, private: bool) -> Iterator[IO]:
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    try:
        if private:
            tmp.unlink(missing_ok=True)
            os.close(os.open(tmp, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600))
        with (open(tmp, mode) if "b" in mode else
              open(tmp, mode, encoding="utf-8", newline="")) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
