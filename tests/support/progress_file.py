"""A new progress file, in a test, starts as a copy of one migrated once per process: every
migration of trainer/progress/schema.py run on each new file cost about half of its making (0.04 s
of CPU against 0.02 s), and the tests make over a thousand.

Only the migrations are skipped: the file is still made by the app's own `create_whole` (a
temporary name, synced, linked into place), the template's pages copied into it first, and then
the app's own preparation (WAL, `synchronous`, the application id, the write probe) runs and
finds every migration applied. A test module that tests what the migrations make of a new file
(the schema, the order, `applied_at`) sets `MIGRATED_FROM_NOTHING = True` and its files are made
from nothing, as the app makes them."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

_template: list[Path] = []  # the process's template, made at its first use


def template(factory: pytest.TempPathFactory) -> Path:
    """A progress file with every migration applied and nothing in it, made once per process."""
    if not _template:
        from trainer.progress import Store

        folder = factory.mktemp("progress-template")
        Store.open(folder / "progress.db").close()
        _template.append(folder / "progress.db")
    return _template[0]


def from_template(create_whole, source: Path):
    """The app's `create_whole`, with the pages of `source` copied into the new file before the
    app prepares it."""


    def made(path: str, prepare) -> bool:
        def copied(db) -> object:
            with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as conn:
                conn.backup(db.conn)
            return prepare(db)

        return create_whole(path, copied)

    return made


@pytest.fixture(autouse=True)
def _migrated_once(request, monkeypatch, tmp_path_factory):
    if getattr(request.module, "MIGRATED_FROM_NOTHING", False):
        yield
        return
    from trainer.progress import store

    source = template(tmp_path_factory)  # made before the patch, by the app's own making
    monkeypatch.setattr(store, "create_whole", from_template(store.create_whole, source))
    yield
