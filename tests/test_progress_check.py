"""The progress file's full check: `integrity_check`, which finds the
index damage `quick_check` misses, runs at a full open and, in the app, in the background after
a cheap open. Until it passes, attempts wait in memory; a file that fails is never written again.
The damage here is real: an index whose entries no longer match its rows, the kind a flipped byte
in an index page leaves, which `quick_check` passes (and the cheap checks: the schema is whole)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from pathlib import Path

import pytest

from tests.support.progress import rec
from trainer.progress import Store
from trainer.progress.errors import DamagedDatabaseError


def damage_an_index(path) -> None:
    """A trainee added while the index of active names was defined on another column, its
    definition then put back: the schema is as the migrations make it, the index's entries are
    not its rows'."""
    def define(old: str, new: str) -> None:
        db = sqlite3.connect(path)
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE name = 'trainees_active_name'",
                   (old, new))
        db.commit()
        db.close()

    define("(name COLLATE NOCASE)", "(id)")
    db = sqlite3.connect(path)
    db.execute("INSERT INTO trainees (name, created) VALUES ('Zed', 0)")  # indexed by its id
    db.commit()
    db.close()
    define("(id)", "(name COLLATE NOCASE)")


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def progress_file(tmp_path):
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
        for n in range(20):
            store.record_attempt(rec(ana, n))
    return path, ana


@pytest.fixture
def held(monkeypatch):
    """The background check waits for `go` before it reads: a long check, made deterministic."""
    from trainer.progress.background import BackgroundCheck

    go = threading.Event()
    run = BackgroundCheck._run

    def slow(self):
        assert go.wait(30)
        run(self)

    monkeypatch.setattr(BackgroundCheck, "_run", slow)
    return go


def test_quick_check_misses_this_damage_and_the_full_open_refuses_it(progress_file):
    path, _ = progress_file
    damage_an_index(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    db.close()
    before = digest(path)
    with pytest.raises(DamagedDatabaseError, match="missing from index"):
        Store.open(path)
    assert digest(path) == before


def test_a_file_this_open_made_is_not_read_back_and_any_other_is_checked_once(
        tmp_path, monkeypatch):
    """The full check reads every row: a file the open itself has just made whole has none, and
    only its own migrations wrote its schema. A file that was there, even one a moment old, is
    read whole, and its tables and indexes held against the migrations' once (on the connection
    that cannot write), not again on the one that writes."""
    from trainer.progress import integrity

    calls: list = []
    for name in ("full_check", "schema_problems"):
        real = getattr(integrity, name)
        monkeypatch.setattr(integrity, name, lambda *a, _real=real, _name=name: (
            calls.append(_name), _real(*a))[1])
    path = tmp_path / "progress.db"
    Store.open(path).close()
    assert calls == [], "the file just made was read back"
    Store.open(path).close()
    assert calls == ["full_check", "schema_problems"]
    calls.clear()
    Store.open(path, full_check=False).close()  # the app's open: the cheap checks only
    assert calls == ["schema_problems"]


def test_the_schema_is_held_column_by_column_only_where_its_text_is_not_the_migrations(
        tmp_path, monkeypatch):
    """SQLite makes a table's and an index's columns from its CREATE text alone: a file whose every
    text is the migrations' own has their shape, and no table is asked for its columns. A text
    written otherwise (here an index written without a space, as another SQLite may) is held
    column by column, and the file, whose shape is the migrations', opens."""
    from trainer.progress import integrity

    asked: list[str] = []  # the file of each connection asked (not the migrations' in memory)
    real = integrity.shape
    monkeypatch.setattr(integrity, "shape", lambda conn: (
        asked.append(conn.execute("PRAGMA database_list").fetchone()[2]), real(conn))[1])
    path = tmp_path / "progress.db"
    Store.open(path).close()
    Store.open(path).close()
    Store.open(path, full_check=False).close()
    assert [f for f in asked if f] == [], "an intact file's tables were asked for their columns"
    db = sqlite3.connect(path)
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = replace(sql, 'ON attempts (', 'ON attempts(') "
               "WHERE name = 'attempts_item'")
    db.commit()
    db.close()
    with Store.open(path, full_check=False) as store:
        assert store.query("SELECT sql FROM sqlite_master WHERE name = 'attempts_item'")[0]["sql"] \
            .startswith("CREATE INDEX attempts_item ON attempts(item_id")
    assert len([f for f in asked if f]) == 1


@pytest.mark.parametrize(("offset", "bit", "says"), [
    (14, 2, "malformed database schema \\(exam_forms\\) - .*bindings.*"),  # "draw >=$0": a parameter
    (7, 0, "malformed database schema \\(exam_forms\\) - no such column: eraw"),  # draw -> eraw
])
def test_the_full_check_reads_the_constraints_of_a_table_with_no_row(progress_file, offset, bit, says):
    """A table with no row is not read for its rows' texts, but a CHECK constraint SQLite cannot
    read is found there as in a table with rows (here the empty exam forms')."""
    from tests.support.damage import flip_at
    from trainer.progress.integrity import full_check

    path, _ = progress_file
    flip_at(path, b"CHECK (draw >= 0)", offset, bit)
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)  # as the background check reads
    assert db.execute("SELECT count(*) FROM exam_forms").fetchone() == (0,)
    assert db.execute("SELECT count(*) FROM attempts").fetchone() == (20,)
    problems = full_check(db)
    db.close()
    assert len(problems) == 1 and re.fullmatch(says, problems[0]), problems


def test_attempts_wait_in_memory_while_the_check_runs_and_are_saved_when_it_passes(progress_file, held):
    path, ana = progress_file
    store = Store.open(path, full_check=False)
    store.start_check()
    assert store.checking
    assert store.record_attempt(rec(ana, 100)) is None and store.record_attempt(rec(ana, 101)) is None
    assert len(store.pending) == 2 and store.flush_pending() == 0
    outside = sqlite3.connect(path)
    assert outside.execute("SELECT count(*) FROM attempts").fetchone()[0] == 20  # nothing written yet
    held.set()
    assert store.wait_for_check(30) == ["ok"] and not store.damaged
    assert store.check_finished() == 2 and store.pending == []
    assert outside.execute("SELECT count(*) FROM attempts").fetchone()[0] == 22
    outside.close()
    store.close()


def test_a_file_the_background_check_fails_is_never_written_again(progress_file, held):
    path, ana = progress_file
    damage_an_index(path)
    before = digest(path)
    store = Store.open(path, full_check=False)  # the cheap checks cannot see it
    store.start_check()
    assert store.record_attempt(rec(ana, 100)) is None
    held.set()
    problems = store.wait_for_check(30)
    assert store.damaged and any("missing from index" in p for p in problems)
    assert store.check_finished() == 0 and len(store.pending) == 1
    with pytest.raises(DamagedDatabaseError, match="missing from index"):
        store.record_attempt(rec(ana, 101))
    with pytest.raises(DamagedDatabaseError):
        store.add_trainee("Ben")
    assert len(store.pending) == 2  # kept, never lost
    store.close()
    assert digest(path) == before


def test_a_write_other_than_an_attempt_waits_for_the_check(progress_file, held):
    """(But for the writes the trainee waits on, `write(now=True)`: tests/test_start_path.py.)"""
    path, ana = progress_file
    store = Store.open(path, full_check=False)
    store.start_check()
    threading.Timer(0.2, held.set).start()
    store.archive_trainee(ana)  # waits for the check, then writes
    assert not store.checking and store.check_problems == ["ok"]
    assert store.find_trainee("Ana") is None
    store.close()


def test_closing_the_store_stops_a_running_check(progress_file):
    path, _ = progress_file
    store = Store.open(path, full_check=False)
    store.start_check()
    store.close()
    store.wait_for_check(30)
    assert not store.checking


# --- the app -------------------------------------------------------------------------------------


def app_window(qtbot, path):
    from ui.shell.app import open_store
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    store = open_store(str(path))
    services = Services(store, key=None)
    services.trainee = store.trainees()[0]
    window = MainWindow(services)
    qtbot.addWidget(window)
    return window, store


def test_the_app_checks_in_the_background_and_names_a_damaged_file(qtbot, progress_file):
    from tests.support.screens import answer_with

    path, _ = progress_file
    damage_an_index(path)
    before = digest(path)
    window, store = app_window(qtbot, path)  # opens at once: only the cheap checks
    seen = answer_with("OK")
    store.start_check()
    window.database_check.start()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert str(path) in seen[0] and "missing from index" in seen[0]
    assert "Nothing more will be written" in seen[0]
    assert "damaged" in window.statusBar().currentMessage()
    window.close()
    store.close()
    assert digest(path) == before


def test_file_check_database_reports_a_sound_file(qtbot, progress_file):
    from tests.support.screens import answer_with
    from ui.qt import QAction

    path, _ = progress_file
    window, store = app_window(qtbot, path)
    seen = answer_with("OK")
    action = next(a for a in window.findChildren(QAction) if a.text() == "Check database")
    action.trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert "every page and index is sound" in seen[0] and "20 attempts" in seen[0]
    assert "checked and nothing in it is damaged" in window.statusBar().currentMessage()
    window.close()
    store.close()


def test_the_start_path_writes_nothing_so_it_never_waits_for_the_check(tmp_path, held):
    """The app's exam setup on a file that has its forms: it must not wait for the full check
    (a write would), or start-up takes as long as the check (seconds on a large file)."""
    from ui.shell.app import exam_setup

    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        store.add_trainee("Ana")
    exam_setup(Store.open(path), str(path))  # the first start stores the example forms
    store = Store.open(path, full_check=False)
    store.start_check()
    rescued: list = []  # if the setup waits, this lets the check go after 10 s, and says so
    watchdog = threading.Timer(10, lambda: (rescued.append(True), held.set()))
    watchdog.start()
    exam_setup(store, str(path))
    watchdog.cancel()
    held.set()
    assert not rescued, "the exam setup waited for the background check"
    store.close()


def test_a_file_busy_during_the_check_is_not_called_damaged(progress_file, monkeypatch):
    """Another program holding the file locked is not damage: the file is used as before. (The
    check's connection is made to meet the lock as SQLite reports it: "database is locked".)"""
    import trainer.progress.background as background

    path, ana = progress_file
    store = Store.open(path, full_check=False)
    real_connect = sqlite3.connect

    class Locked:
        def __init__(self, conn):
            self.conn = conn

        def execute(self, sql, *args):
            raise sqlite3.OperationalError("database is locked")

        def interrupt(self):
            self.conn.interrupt()

        def close(self):
            self.conn.close()

    monkeypatch.setattr(background.sqlite3, "connect",
                        lambda *a, **k: Locked(real_connect(*a, **k)) if "mode=ro" in str(a[0])
                        else real_connect(*a, **k))
    store.start_check()
    problems = store.wait_for_check(30)
    monkeypatch.undo()
    assert problems[0].startswith("not checked") and "locked" in problems[0]
    assert not store.damaged
    assert store.record_attempt(rec(ana, 200)) > 0  # written as before
    store.close()


def test_closing_mid_check_stops_it_and_the_next_start_saves_what_waited(qtbot, progress_file, held):
    """Before: closing the window waited for the whole check (over 40 s on a 1,000,000-attempt
    file, the window frozen). Now the close stops the check at once; the result that waited for it
    is in the journal beside the file (nothing in memory only, so nothing to ask about), and the
    next start saves it once its own check passes."""
    from ui.shell.services import Services

    path, ana = progress_file
    store = Store.open(path, full_check=False)
    store.start_check()
    assert store.record_attempt(rec(ana, 300)) is None
    closing = threading.Thread(target=Services(store).flush)  # what closing the window calls
    closing.start()
    closing.join(10)  # the check is held and never let go: a wait for it would hang here
    assert not closing.is_alive(), "closing the window waited for the check"
    assert len(store.pending) == 1 and store.in_memory_only == []
    store.close()
    held.set()
    assert store.wait_for_check(30) != ["ok"]  # stopped: it ends at its first table, unfinished
    with Store.open(path, full_check=False) as again:
        assert len(again.attempts(ana)) == 20  # not in the file yet: it waits for a check
        again.start_check()
        assert again.wait_for_check(30) == ["ok"]
        assert again.check_finished() == 1
        assert len(again.attempts(ana)) == 21
    assert not list(Path(path).parent.glob(f".{Path(path).name}.waiting-*"))
