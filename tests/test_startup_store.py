"""At start-up, a damaged or newer progress file gets a clear message and a choice; it is never
touched."""

from __future__ import annotations

import pytest

from tests.support.screens import answer_with

#: each new file runs every migration, as the app's does (tests/support/progress_file.py)
MIGRATED_FROM_NOTHING = True

DAMAGED = [b"\x00not a database at all" * 40, b"SQLite format 3\x00" + b"\xff" * 4000]


@pytest.mark.parametrize("content", DAMAGED)
def test_a_damaged_file_is_named_and_left_alone(qtbot, tmp_path, content):
    from ui.shell.app import open_store

    path = tmp_path / "progress.db"
    path.write_bytes(content)
    seen = answer_with("Continue without saving")
    assert open_store(str(path)) is None
    assert seen and str(path) in seen[0] and "left exactly as it is" in seen[0]
    assert path.read_bytes() == content


def test_quitting_from_the_damaged_file_message(qtbot, tmp_path):
    from ui.shell.app import open_store

    path = tmp_path / "progress.db"
    path.write_bytes(b"garbage" * 100)
    answer_with("Quit")
    assert open_store(str(path)) is False


def test_a_newer_file_is_refused_and_unchanged(qtbot, tmp_path):
    from trainer.progress import Store
    from ui.shell.app import open_store

    path = tmp_path / "progress.db"
    store = Store.open(path)
    store.db.execute("INSERT INTO _migrations (name, applied_at) VALUES ('m999_from_the_future', 0)")
    store.close()
    before = path.read_bytes()
    seen = answer_with("Continue without saving")
    assert open_store(str(path)) is None
    assert "newer" in seen[0].lower()
    assert path.read_bytes() == before


def test_a_good_file_opens_without_a_question(qtbot, tmp_path):
    from ui.shell.app import open_store

    store = open_store(str(tmp_path / "new" / "progress.db"))
    assert store is not None and store is not False and store.problem is None
    store.close()


@pytest.mark.parametrize("kind", ["pipe", "dangling symlink", "under a file"])
def test_a_path_that_cannot_be_a_progress_file_is_named_at_start_never_a_crash_or_a_hang(
        qtbot, tmp_path, kind):
    """Once, a dangling symlink or a folder that cannot be used crashed the start (the
    profile dialog read from a store with no connection); a named pipe hung it."""
    import os

    from ui.shell.app import open_store

    if kind == "pipe":
        path = tmp_path / "progress.db"
        os.mkfifo(path)
    elif kind == "dangling symlink":
        path = tmp_path / "progress.db"
        path.symlink_to(tmp_path / "gone" / "away.db")
    else:
        (tmp_path / "notes.txt").write_text("hello")
        path = tmp_path / "notes.txt" / "progress.db"
    seen = answer_with("Continue without saving")
    assert open_store(str(path)) is None
    assert seen and str(path) in seen[0]
    if kind == "under a file":
        assert (tmp_path / "notes.txt").read_text() == "hello"
