"""Opening the progress file safely: the checks that run before anything is written, and the
settings and transactions every write uses (trainer.progress.store's "Opening").

A file refused here (damaged, newer, foreign, not a file at all) is checked on a connection that
cannot write, so it is never written or checkpointed.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from trainer.progress import schema
from trainer.progress._sqlite import Database
from trainer.progress.errors import (
    BUSY,
    LOCKED,
    DamagedDatabaseError,
    ForeignDatabaseError,
    NewerDatabaseError,
    StoreUnavailableError,
    is_damage,
    unavailable_reason,
)

SQLITE_HEADER = b"SQLite format 3\x00"


def check_header(path: str) -> None:
    """Refuse a path that is not a file, or a file that is not a SQLite database, from its first
    bytes; a path with nothing there passes (the file is made)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise StoreUnavailableError(path, unavailable_reason(e) or str(e)) from None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise DamagedDatabaseError(path, "it is not a file but a pipe, socket or device")
    try:
        with open(path, "rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise DamagedDatabaseError(path, "it is a folder, not a file") from None
    if header and header != SQLITE_HEADER:
        raise DamagedDatabaseError(path, "it is not a SQLite database")


def check_database(db: Database, path: str, *, full_check: bool, created: bool) -> None:
    """The read-only checks: damaged, newer, foreign. Nothing is written before they pass.
    `created`: this store made the file (an empty file it did not make is refused)."""
    db.execute("PRAGMA foreign_keys = ON")
    try:
        problems = [r[0] for r in db.execute("PRAGMA integrity_check")] if full_check else ["ok"]
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        objects = [r[0] for r in db.execute("SELECT name FROM sqlite_master "
                                            "WHERE name NOT LIKE 'sqlite_%'")]
        tables = schema.user_tables(db)
    except sqlite3.DatabaseError as e:
        if is_damage(e):
            raise DamagedDatabaseError(path, str(e)) from None
        raise
    if problems != ["ok"]:
        raise DamagedDatabaseError(path, "; ".join(problems[:3]))
    if app_id not in (0, schema.APPLICATION_ID):
        raise ForeignDatabaseError(path, f"a database of another program (application id "
                                         f"{app_id:#x})")
    if objects and "_migrations" not in tables:
        raise ForeignDatabaseError(path)
    if not objects and not created and path != ":memory:" and not being_made(path):
        raise ForeignDatabaseError(path, "an empty file")
    try:
        names = schema.applied(db)
    except sqlite3.OperationalError:  # a `_migrations` table that is not ours
        raise ForeignDatabaseError(path) from None
    unknown = [n for n in names if n not in schema.known()]
    if unknown:
        raise NewerDatabaseError(path, unknown)


def check_read_only(path: str, busy_timeout: float, *, full_check: bool, created: bool) -> bool:
    """Run the checks on a connection that cannot write, so that a file refused as damaged,
    newer or foreign is never written or checkpointed (closing a read-write connection can
    merge a leftover -wal into it). Without a -wal nobody is writing, and the file is read
    as it lies (`immutable`): not even a -shm is made. True when the checks ran and passed;
    False when this connection could not be made (the read-write one will say why)."""
    if created:
        return False
    wal = os.path.exists(path + "-wal")
    uri = f"{Path(path).resolve().as_uri()}?mode=ro" + ("" if wal else "&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        check_database(Database(conn, execute_plugins=False), path, full_check=full_check,
                       created=created)
    except sqlite3.OperationalError:
        return False  # locked or unreadable now: the read-write connection will say
    finally:
        conn.close()
    return True


def being_made(path: str, wait: float = 2.0) -> bool:
    """An empty file this store did not make: another copy of the app may be making it at this
    moment (it writes within milliseconds); True if it stops being empty in `wait`."""
    deadline = time.monotonic() + wait
    while True:
        try:
            if os.path.getsize(path) > 0:
                return True
        except OSError:
            return False
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


def create_private(path: str | os.PathLike) -> bool:
    """Create a new progress file readable by its owner only (SQLite gives its -wal and -shm
    files the same mode); an existing file, or a name taken meanwhile, is left as it is. True
    when this call made it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return False
    return True


def enable_wal(db: Database, busy_timeout: float) -> None:
    """Switch to WAL. The switch does not wait for the busy timeout (another process opening
    the file at the same moment gets "database is locked" at once), so wait for it here."""
    deadline = time.monotonic() + busy_timeout
    while db.journal_mode != "wal":
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return  # switched, or the file is read-only: the write probe will tell
        except sqlite3.OperationalError as e:
            if (e.sqlite_errorcode & 0xFF) not in (BUSY, LOCKED) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


@contextmanager
def transaction(db: Database) -> Iterator[Database]:
    """One `BEGIN IMMEDIATE` transaction: the write lock up front, rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    try:
        db.execute("COMMIT")
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
