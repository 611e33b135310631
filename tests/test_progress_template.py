"""A test's new progress file is a copy of one migrated once per process (tests/support/
progress_file.py): it must be the file the app makes, to the last pragma, less the migrations'
run."""

from __future__ import annotations

import contextlib
import sqlite3

from tests.support.progress_file import template
from trainer.progress import Store, store
from trainer.progress.opening import create_whole


def described(path) -> dict:
    """What a progress file is, but its rows' times: its schema, its pragmas, its rows. Not its
    schema cookie (`PRAGMA schema_version`), which counts the changes made to the schema (a copy's
    starts again) and which the app reads only to take a lock."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {
            "schema": conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                   "ORDER BY name").fetchall(),
            "pragmas": {p: conn.execute(f"PRAGMA {p}").fetchone()[0] for p in (
                "application_id", "user_version", "journal_mode", "page_size", "auto_vacuum", "encoding")},
            "migrations": conn.execute("SELECT name FROM _migrations ORDER BY rowid").fetchall(),
            "rows": {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables
                     if t != "_migrations"},
        }


def applied_at(path) -> list:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return [r[0] for r in conn.execute("SELECT applied_at FROM _migrations ORDER BY rowid")]


def test_a_new_file_in_a_test_is_the_file_the_app_makes_copied_from_the_template(
        tmp_path, tmp_path_factory, monkeypatch):
    Store.open(tmp_path / "copied.db").close()
    monkeypatch.setattr(store, "create_whole", create_whole)  # the app's own, every migration run
    Store.open(tmp_path / "made.db").close()

    assert described(tmp_path / "copied.db") == described(tmp_path / "made.db")
    assert described(tmp_path / "made.db")["migrations"], "the file was migrated"
    assert applied_at(tmp_path / "copied.db") == applied_at(template(tmp_path_factory)), "copied"
    assert applied_at(tmp_path / "made.db") != applied_at(template(tmp_path_factory)), "made anew"
    assert (tmp_path / "copied.db").stat().st_mode & 0o777 == 0o600, "the owner's only, as made"


def test_a_migration_added_after_the_template_was_made_is_in_the_copy_too(
        tmp_path, tmp_path_factory, monkeypatch):
    """The template is made once per process, and a copy is prepared by the app's own code, which
    applies what the template lacks: a migration the template never ran (here one added after it
    was made) is in the copy as in a file made anew, never a stale file."""
    from trainer.progress import schema

    template(tmp_path_factory)  # made before the migration is added

    def m999_later(db) -> None:
        db.execute("CREATE TABLE later (id INTEGER PRIMARY KEY, said TEXT NOT NULL)")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, m999_later])
    Store.open(tmp_path / "copied.db").close()
    monkeypatch.setattr(store, "create_whole", create_whole)
    Store.open(tmp_path / "made.db").close()

    copied = described(tmp_path / "copied.db")
    assert copied == described(tmp_path / "made.db")
    assert copied["migrations"][-1] == ("m999_later",)
    assert "later" in [row[1] for row in copied["schema"]]
    assert "later" not in [row[1] for row in described(template(tmp_path_factory))["schema"]]
