"""The bundled scenario library, read once per test process: `trainer.library.load_library`
reads, checks and plays every bundled file on each call (about 0.6 s), and the helpers and tests
that only take a scenario from it by id would read it again for each one. Nothing may change
what it holds: a test that needs a changed scenario makes its own (`dataclasses.replace`)."""

from __future__ import annotations

from functools import lru_cache

from trainer.library import Library, load_library


@lru_cache(maxsize=1)
def bundled() -> Library:
    return load_library()

