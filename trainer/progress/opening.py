"""Opening the progress file safely: the checks that run before anything is written, and the
settings and transactions every write uses (trainer.progress.store's "Opening").

A file refused here (damaged, newer, foreign, not a file at all) is checked on a connection that
cannot write, so it is never written or checkpointed.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from trainer.paths import binary
from trainer.progress import integrity, leftovers, schema
from trainer.progress._sqlite import Database
from trainer.progress.errors import (
    BUSY,
    LOCKED,
    READ_FAILURES,
    DamagedDatabaseError,
    ForeignDatabaseError,
    NewerDatabaseError,
    StoreUnavailableError,
    damage,
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
            first = f.read(100)  # the database header
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise DamagedDatabaseError(path, "it is a folder, not a file") from None
    header = first[:len(SQLITE_HEADER)]
    if header and header != SQLITE_HEADER:
        raise DamagedDatabaseError(path, "it is not a SQLite database")
    page = int.from_bytes(first[16:18], "big") if len(first) >= 18 else 0
    page = 65536 if page == 1 else page
    # SQLite writes whole pages: a file that ends inside one was cut (reading pads it with
    # zeros, so nothing else notices). With a -wal, that page may wait there: SQLite decides.
    wal = os.path.exists(os.path.realpath(path) + "-wal")
    if header and page >= 512 and not page & (page - 1) and size % page and not wal:
        raise DamagedDatabaseError(path, f"it was cut short: {size:,} bytes is not a whole number "
                                         f"of its {page:,}-byte pages")


def check_database(db: Database, path: str, *, full_check: bool, shape: bool = True) -> None:
    """The read-only checks: damaged, newer, foreign. Nothing is written before they pass (an
    empty file is not ours: the store makes a new file whole, `create_whole`). Without `shape`,
    the tables and indexes are not held against those the migrations make (done already)."""
    db.execute("PRAGMA foreign_keys = ON")
    try:
        problems = integrity.full_check(db.conn) if full_check else ["ok"]
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        # the schema's text read whole: a flipped high bit in it is a text Python cannot read
        objects = db.execute("SELECT type, name, sql FROM sqlite_master "
                             "WHERE name NOT LIKE 'sqlite_%'").fetchall()
    except READ_FAILURES as e:
        if is_damage(e):
            raise damage(path, e) from None
        raise
    if problems != ["ok"]:
        raise DamagedDatabaseError(path, "; ".join(problems[:3]))
    if app_id not in (0, schema.APPLICATION_ID):
        raise ForeignDatabaseError(path, f"a database of another program (application id "
                                         f"{app_id:#x})")
    if objects and ("table", "_migrations") not in {(kind, name) for kind, name, _ in objects}:
        raise ForeignDatabaseError(path)
    if not objects and path != ":memory:":
        raise ForeignDatabaseError(path, "an empty file")
    try:
        names = schema.applied(db)
    except sqlite3.OperationalError:  # a `_migrations` table that is not ours
        raise ForeignDatabaseError(path) from None
    unknown = schema.unknown(names)
    if unknown:
        raise NewerDatabaseError(path, unknown)
    if not shape:
        return
    try:
        texts = {f"{kind} {name}": sql for kind, name, sql in objects if kind in ("table", "index")}
        problems = integrity.schema_problems(db.conn, tuple(names), texts)
    except READ_FAILURES as e:
        if is_damage(e):
            raise damage(path, e) from None
        raise
    if problems:
        raise DamagedDatabaseError(path, "; ".join(problems[:3]))


def check_read_only(path: str, busy_timeout: float, *, full_check: bool) -> bool:
    """Run the checks on a connection that cannot write, so that a file refused as damaged,
    newer or foreign is never written or checkpointed (closing a read-write connection can
    merge a leftover -wal into it), and gets no new companion file. Without a -wal nobody is
    writing, and the file is read as it lies (`immutable`). A -wal that a crash left (no -shm:
    nobody has the file open) is read through links in a private folder (`apart`), where the
    -shm that reading it needs is made and removed. True when the checks ran and passed;
    False when this connection could not be made (the read-write one will say why)."""
    real = os.path.realpath(path)  # SQLite keeps the -wal and -shm beside the file a link names
    wal = os.path.exists(real + "-wal")
    with apart(real, wal and not os.path.exists(real + "-shm")) as read:
        uri = f"{Path(read).resolve().as_uri()}?mode=ro" + ("" if wal else "&immutable=1")
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
        except sqlite3.Error:
            return False
        try:
            check_database(Database(conn, execute_plugins=False), path, full_check=full_check)
        except sqlite3.OperationalError:
            return False  # locked or unreadable now: the read-write connection will say
        finally:
            conn.close()
    return True


@contextmanager
def apart(path: str, wanted: bool = True) -> Iterator[str]:
    """`path` and its -wal hard-linked into a private folder beside it, for a read-only
    connection whose -shm must not appear beside the file; the folder is removed after. `path`
    itself where no link can be made (a file system without hard links, a read-only folder:
    there SQLite reads the -wal without a -shm) or none is `wanted`."""
    if not wanted:
        yield path
        return
    folder = leftovers.check_folder(Path(path), secrets.token_hex(4))
    with leftovers.held(folder):  # a kill leaves the folder: the next start removes it
        try:
            folder.mkdir(mode=0o700)
        except OSError:
            yield path
            return
        linked = folder / Path(path).name
        try:
            os.link(path, linked)
            os.link(path + "-wal", f"{linked}-wal")
        except OSError:
            linked = Path(path)
        try:
            yield str(linked)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def read_only_instead(conn: sqlite3.Connection, path: str) -> sqlite3.Connection | None:
    """Close a read-write connection without writing the file, and give a read-only connection
    to it in its place (None if none can be made). SQLite checkpoints the -wal into the file
    when the file's last connection closes; the read-only one holds the file open meanwhile, so
    a file refused or found damaged keeps its bytes and its -wal as they are."""
    try:
        guard = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        guard = None
    try:
        if guard is not None:
            guard.execute("PRAGMA schema_version").fetchone()  # holds the file from here on
    except sqlite3.Error:
        pass
    conn.close()
    return guard


def create_whole(path: str, prepare: Callable[[Database], object]) -> bool:
    """Create a new progress file whole: made under a temporary name in the same folder (readable
    by its owner only; SQLite gives its -wal and -shm the same mode), `prepare`d there (the
    schema, WAL, the application id), synced, and linked into place only if nothing is there
    yet. A kill at any moment leaves either no file or a whole one, never the empty file that
    every later start would refuse as not ours. True when this call made it; False when a file
    was there (or another copy of the app made it meanwhile: theirs is used)."""
    if os.path.lexists(path):
        return False
    target = Path(path)
    made = leftovers.new_name(target, secrets.token_hex(6))
    with leftovers.held(made):  # a kill leaves it: the next start removes it
        os.close(os.open(made, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600))
        try:
            conn = sqlite3.connect(made, isolation_level=None)
            try:
                prepare(Database(conn, execute_plugins=False))
            finally:
                conn.close()  # its -wal checkpointed into it, and removed
            _fsync(made)
            try:
                os.link(made, target)
            except FileExistsError:
                return False
            except OSError:  # a file system without hard links
                if os.path.lexists(target):
                    return False
                os.replace(made, target)
            _fsync(target.parent)
            return True
        finally:
            for suffix in ("", *leftovers.SQLITE_SIDES):
                Path(f"{made}{suffix}").unlink(missing_ok=True)


def _fsync(path: Path) -> None:
    """Flush a file (or a folder: the name linked into it) to the disk; a folder that cannot be
    opened so (Windows) is left to the file system."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
