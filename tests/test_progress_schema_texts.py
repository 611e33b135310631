"""trainer/progress/schema_texts.py, the texts of the tables and indexes every migration makes,
which each open of a progress file holds the file's schema against (trainer.progress.integrity):
it must be what the migrations make, as this SQLite keeps them. A migration added writes it again:

    PYTHONPATH=. .venv/bin/python -m tests.test_progress_schema_texts
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from trainer.progress import integrity, schema, schema_texts
from trainer.progress._sqlite import Database

WRITTEN = Path(schema_texts.__file__)
CHUNK = 88  # characters of a text per line of the module


def made_from_nothing() -> dict[str, str | None]:
    """The texts of a file every migration made, in memory, here and now."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        schema.migrate(Database(conn))
        return integrity.schema_texts(conn)
    finally:
        conn.close()


def test_the_texts_are_those_every_migration_makes():
    """A migration added (or edited) without the module written again would hold every file
    against texts no file has: each open would then run the migrations in memory to compare
    the columns, slow but right. Here it is found at once."""
    assert tuple(schema.known()) == schema_texts.MIGRATIONS, (
        "a migration was added: write trainer/progress/schema_texts.py again (see this module)")
    assert made_from_nothing() == schema_texts.TEXTS, (
        "the migrations make other texts: write trainer/progress/schema_texts.py again (see this module)")


def test_a_file_with_these_texts_has_the_migrations_shape():
    """What the texts stand for: a file made by every migration, its tables and indexes asked
    for their columns one by one, has the shape of the texts' file."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        schema.migrate(Database(conn))
        assert integrity.schema_texts(conn) == schema_texts.TEXTS
        assert integrity.shape(conn) == integrity._made_by(schema_texts.MIGRATIONS)[0]
    finally:
        conn.close()


def module_text() -> str:
    texts = made_from_nothing()
    out = ['"""The texts (`CREATE` statements, as SQLite keeps them) of the tables and indexes of a progress',
           "file that every migration of trainer.progress.schema has made: each open holds the file's",
           "schema against them (trainer.progress.integrity) without running the migrations in memory",
           "first. Written by `python -m tests.test_progress_schema_texts`, never by hand; that test",
           'fails when they are not what the migrations make."""',
           "",
           "MIGRATIONS = (",
           *(f"    {name!r}," for name in schema.known()),
           ")",
           "",
           "TEXTS: dict[str, str | None] = {"]
    for what, text in texts.items():
        if text is None:
            out.append(f"    {what!r}: None,")
            continue
        out.append(f"    {what!r}: (")
        out += [f"        {text[k:k + CHUNK]!r}" for k in range(0, len(text), CHUNK)]
        out.append("    ),")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    WRITTEN.write_text(module_text(), encoding="utf-8")
    print(f"wrote {WRITTEN}", file=sys.stderr)
