"""The progress file: opening it safely, trainees, and recording attempts so that none is lost.

`Store.open(path)` checks before it writes anything:
1. a file that is not a SQLite database, was cut short, or fails the full check (`PRAGMA
   integrity_check` and the CHECK constraints, trainer.progress.integrity): `DamagedDatabaseError`;
2. a `_migrations` table naming a migration this version does not know: `NewerDatabaseError`;
3. tables of another program and no `_migrations`: `ForeignDatabaseError`.
None of these files is ever written to, nor gets a -shm beside it. A new file is made whole
(under another name, then linked into place), so a kill never leaves an empty one; what a kill
leaves beside the file (that name, a folder a file was checked in) the next open removes
(trainer.progress.leftovers). The file this very open made is neither read back by the full
check nor its tables held against the migrations' (it holds no row, and its migrations alone wrote
its schema). Any other file is checked on a connection that cannot write, and its tables held
against the migrations' there only; the other cheap checks run again on the connection that
writes, before its first write (a newer app may have migrated it meanwhile, and only there does
SQLite read the schema's CHECK constraints). Then it
turns on WAL (readers never wait for the writer),
`synchronous=FULL` (a committed attempt survives a crash of the program or of the machine),
foreign keys, a busy timeout (two app processes share one file and wait for each other instead of
failing with "database is locked"), and applies the missing migrations in one transaction.

Every write is one `BEGIN IMMEDIATE` transaction: it takes the write lock up front, so a
concurrent writer waits out the busy timeout instead of failing mid-transaction.

A file that cannot be written (read-only file or folder, full disk, held locked too long) gives
`StoreUnavailableError`. With `Store.open(path, allow_unavailable=True)` the store opens anyway
(reading what it can; `store.problem` says what is wrong), and `record_attempt` keeps every
attempt it cannot write in `store.pending`, in memory, raising `StoreUnavailableError` to say so;
`flush_pending()` (and every later `record_attempt`) saves them, oldest first, once the file can
be written. Attempts are identified by `uid`, so saving one twice adds it once. Recording for a
trainee the file does not have raises `UnknownTraineeError` at once; an attempt found so only when
saved later (the file was replaced meanwhile) moves to `store.rejected`, kept for export.

**The full check in the background.** `integrity_check` reads every page and index (seconds on
a file of a million attempts), so the app opens with `full_check=False` (header, application id,
schema and version only, on a connection that cannot write) and then calls `start_check()`: the
full check runs in a thread on a read-only connection of its own. Until it passes, attempts
recorded wait in memory (`record_attempt` returns None), and in a journal beside the file
(trainer.progress.journal: a crash meanwhile loses none), and any other write waits for it
(`wait_for_check`), but for a write the trainee is waiting on at that moment (an exam's start and
answers, a new profile: `write(now=True)`), which goes to the file at once: the check reads a
snapshot of its own (WAL), which such a write does not change. What the start itself would write
(an exam a crash left open closed, new bundled forms) waits without holding anything up
(`after_check`). `check_finished()` (polled by the app) saves the waiting attempts once it
passed, and runs what waited for it. A file that fails is never written again in this session:
writes raise `DamagedDatabaseError`, the attempts stay in memory and in the journal
(`waiting_file`), and the store reads on from a read-only connection (closing the read-write one
would checkpoint its -wal into the file).

**A damaged row.** A row damaged after the check (or in a way no check of the file sees: a log
of JSON that is no actions) is left out by the readers and named, never a traceback: each in
`store.unreadable` ("attempt 17": a `DamagedRowError`, one line), to `on_unreadable` when first
found, and to every `noting_unreadable()` block open (an export says what it left out).

Where the parts live: the checks before any write, and the transaction every write uses, in
trainer.progress.opening; the background check in trainer.progress.background; the columns of
attempts, findings and trainees in trainer.progress.rows; passphrases (the instructor profile) in
trainer.progress.passphrase.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from trainer.progress import disk, leftovers, schema
from trainer.progress._sqlite import Database
from trainer.progress.background import BackgroundCheck
from trainer.progress.errors import (
    CANTOPEN,
    READ_FAILURES,
    READONLY,
    DamagedDatabaseError,
    DamagedRowError,
    ForeignDatabaseError,
    NameTakenError,
    NetworkShareError,
    NewerDatabaseError,
    StoreError,
    StoreUnavailableError,
    UnknownTraineeError,
    damage,
    is_damage,
    unavailable_reason,
)
from trainer.progress.integrity import full_check
from trainer.progress.journal import Journal
from trainer.progress.opening import (
    check_database,
    check_header,
    check_read_only,
    create_whole,
    enable_wal,
    read_only_instead,
    transaction,
)
from trainer.progress.passphrase import check_passphrase, hash_passphrase
from trainer.progress.records import Attempt, AttemptRecord, Trainee, clean_name, long_name
from trainer.progress.rows import attempts_from_rows, insert_attempt, trainee_from_row

BUSY_TIMEOUT = 5.0  # seconds a writer waits for another process's transaction


class Store:
    """One progress file. Use `Store.open`; close it (or use `with`) when done."""

    def __init__(self, path: str, busy_timeout: float):
        self.path = path
        self.busy_timeout = busy_timeout
        self.problem: StoreUnavailableError | None = None
        self._db: Database | None = None
        self._reopen = False  # the connection can only read: open it again before writing
        self._read_only = False  # found damaged: the connection is read-only, for good
        self._pending: list[AttemptRecord] = []
        self._rejected: list[AttemptRecord] = []
        self._background = BackgroundCheck(path, busy_timeout)
        self._journal = Journal(path)  # the attempts waiting for the check, on the disk
        self._journaled: set[str] = set()  # the uids of the waiting attempts the journal holds
        self._after_check: list[Callable[[], object]] = []  # run once the check has passed
        #: rows found damaged when read, by what they are ("attempt 17"): left out of what was read
        self.unreadable: dict[str, DamagedRowError] = {}
        #: called with each row newly found damaged (the app says so in its status bar)
        self.on_unreadable: Callable[[DamagedRowError], None] | None = None
        self._noting: list[list[DamagedRowError]] = []  # open `noting_unreadable` blocks

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: str | os.PathLike, *, allow_unavailable: bool = False,
             busy_timeout: float = BUSY_TIMEOUT, full_check: bool = True) -> Store:
        """Open (creating if need be) the progress file at `path`; see the module docstring.
        `full_check` reads the whole file (seconds for a large one); without it, call
        `start_check()` once the store is open."""
        store = cls(os.fspath(path), busy_timeout)
        if store.path != ":memory:":
            share = disk.network_share(store.path)
            if share is not None:  # SQLite's WAL would not hold there: refused before any write
                raise NetworkShareError(store.path, share)
            leftovers.clean(store.path)  # what a start killed before left beside the file
        store._connect(full_check=full_check)
        if store.problem is not None:
            if not allow_unavailable:
                store.close()
                raise store.problem
            store._reopen = store._db is not None
        return store

    def _connect(self, *, full_check: bool = True) -> None:
        self.problem = None
        memory = self.path == ":memory:"
        shape = True  # the tables and indexes still to be held against the migrations'
        try:
            if not memory:
                try:
                    check_header(self.path)
                except StoreUnavailableError as e:  # say how many results wait in memory
                    raise self._unavailable(e.reason) from None
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                if create_whole(self.path, lambda made: self._migrate(made, memory=False)):
                    # made whole by this call, by the migrations alone, with no rows: the rest
                    # of the cheap checks below
                    full_check = shape = False
                elif check_read_only(self.path, self.busy_timeout, full_check=full_check):
                    full_check = shape = False  # done, on a connection that cannot write
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            self.problem = StoreUnavailableError(self.path, unavailable_reason(e) or str(e))
            return
        db = Database(conn, execute_plugins=False)
        try:
            # again where it can write: only there does SQLite read the CHECK constraints of the
            # schema (a flipped bit there is damage), and a newer app may have opened it meanwhile
            check_database(db, self.path, full_check=full_check, shape=shape)
            self._migrate(db, memory)
        except (DamagedDatabaseError, NewerDatabaseError, ForeignDatabaseError):
            if memory:
                conn.close()
            elif (guard := read_only_instead(conn, self.path)) is not None:  # its -wal kept as it is
                guard.close()
            raise
        except (OSError, sqlite3.Error) as e:
            reason = unavailable_reason(e)
            if reason is None:
                conn.close()
                raise
            self.problem = StoreUnavailableError(self.path, reason)
            try:  # readable, and already up to date? then reading can go on
                current = schema.applied(db) == schema.known()
            except sqlite3.Error:
                current = False
            if not current:
                conn.close()
                return
        self._db = db

    @property
    def readable(self) -> bool:
        """Whether the file could be opened at all (it may still be unavailable for writing)."""
        return self._db is not None

    def _migrate(self, db: Database, memory: bool) -> bool:
        if not memory:
            enable_wal(db, self.busy_timeout)
        db.execute("PRAGMA synchronous = FULL")
        with transaction(db):
            names = schema.applied(db)  # again, under the write lock: another process may have migrated
            unknown = schema.unknown(names)
            if unknown:
                raise NewerDatabaseError(self.path, unknown)
            if names == schema.known():
                db.execute("DELETE FROM _migrations WHERE 0")  # a write: is the file writable?
            else:
                schema.migrate(db)
            if db.execute("PRAGMA application_id").fetchone()[0] != schema.APPLICATION_ID:
                db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        return True

    def copy_in_memory(self) -> Store:
        """A store in memory that holds what this one holds, and is written apart from it (a
        demonstration class made once and shown many times). Its connection is prepared as
        `open` prepares one in memory, on the pages copied: the migrations, this store's, are
        not run again only to be copied over."""
        if self._db is None:
            raise ValueError(f"{self.path} is not open")
        copy = Store(":memory:", self.busy_timeout)
        conn = sqlite3.connect(":memory:", isolation_level=None)
        self._db.conn.backup(conn)
        db = Database(conn, execute_plugins=False)
        try:
            check_database(db, copy.path, full_check=False, shape=False)
            copy._migrate(db, memory=True)
        except BaseException:
            conn.close()
            raise
        copy._db = db
        return copy

    # ----------------------------------------------------------------- the full check
    def start_check(self) -> None:
        """Run the full check in a background thread on a read-only connection; the attempts
        that waited for it in a session that crashed (its journal) wait for it again."""
        if self.path != ":memory:" and self._db is not None:
            records, unreadable = self._journal.read_back()
            waiting = {r.uid for r in self._pending}
            self._pending += [r for r in records if r.uid not in waiting]
            self._journaled |= {r.uid for r in records}
            for what, error in unreadable:
                self.note_unreadable(what, error)
            self._background.start()

    def stop_check(self) -> None:
        """Interrupt a running check (the app is closing, or the user pressed Stop)."""
        self._background.stop()

    @property
    def checking(self) -> bool:
        return self._background.running

    def wait_for_check(self, timeout: float | None = None) -> list[str] | None:
        return self._background.wait(timeout)

    @property
    def check_problems(self) -> list[str] | None:
        """The full check's findings: ["ok"] when sound; None before it has run."""
        return self._background.problems

    @property
    def check_seconds(self) -> float | None:
        return self._background.seconds

    @property
    def damaged(self) -> bool:
        """The full check found damage: nothing more is written to this file."""
        return self._background.damaged

    def _stop_writing(self) -> None:
        """The full check found damage: the read-write connection closes without writing the
        file (closing it would checkpoint its -wal into the file), and reading goes on from a
        read-only connection."""
        if self._db is None or self._read_only:
            return
        conn = read_only_instead(self._db.conn, self.path)
        self._db = None if conn is None else Database(conn, execute_plugins=False)
        self._read_only = True

    def after_check(self, action: Callable[[], object]) -> None:
        """Run `action` once the full check has passed: now when none is running, else from
        `check_finished` after the attempts that waited are saved; never when it finds damage
        (nothing more is written to the file). For writes that need not hold the window up while
        the check runs. What `action` raises, `check_finished` raises."""
        if self.checking:
            self._after_check.append(action)
        elif not self.damaged:
            action()

    def check_finished(self) -> int:
        """After the background check: save the attempts that waited for it (when it passed),
        then run what waited for it (`after_check`); how many attempts were saved. Call it from
        the thread that uses the store."""
        if self.damaged:
            self._after_check.clear()
            self._stop_writing()
            return 0
        if self.checking:
            return 0
        saved = 0
        if self._pending:
            with suppress(StoreError):  # kept in memory, said by the next write
                saved = self.flush_pending()
        actions, self._after_check = self._after_check, []
        for action in actions:
            action()
        return saved

    @contextmanager
    def write(self, *, now: bool = False) -> Iterator[Database]:
        """One write transaction; a file that cannot be written gives StoreUnavailableError.
        It waits for a running full check, unless `now`: a write the trainee is waiting on (the
        check reads its own snapshot of the file, which this write leaves as it is)."""
        if not now:
            self.wait_for_check()
        if self.damaged:
            self._stop_writing()
            raise DamagedDatabaseError(self.path, "; ".join((self.check_problems or [])[:3]))
        if self._db is None or self._reopen:
            # not open, or open read-only since the file was: open again (the full check ran when
            # the store was opened; here the header, schema and foreign checks run again)
            self._close_connection()
            self._reopen = False
            self._connect(full_check=False)
            if self.problem is not None:
                self._reopen = self._db is not None
                raise self._unavailable(self.problem.reason)
        try:
            with transaction(self.db) as db:
                yield db
        except sqlite3.Error as e:
            if is_damage(e):
                raise damage(self.path, e) from None
            reason = unavailable_reason(e)
            if reason is None:
                raise
            self.problem = StoreUnavailableError(self.path, reason)
            self._reopen = (e.sqlite_errorcode & 0xFF) in (READONLY, CANTOPEN)
            raise self._unavailable(reason) from None
        self.problem = None

    def for_another_thread(self) -> Store:
        """The same file opened again, for a thread that writes while this store's owner goes on
        (a results import off the window's thread). It waits for the background check, and never
        opens a file the check found damaged (DamagedDatabaseError). Close it in that thread."""
        self.wait_for_check()
        if self.damaged:
            raise DamagedDatabaseError(self.path, "; ".join((self.check_problems or [])[:3]))
        return Store.open(self.path, busy_timeout=self.busy_timeout, full_check=False)

    def _unavailable(self, reason: str) -> StoreUnavailableError:
        return StoreUnavailableError(self.path, reason, pending=len(self._pending))

    @property
    def db(self) -> Database:
        """The sqlite-utils Database, for reading; raises if the file could not be opened at all."""
        if self._db is None:
            raise self._unavailable(self.problem.reason if self.problem else "it is closed")
        return self._db

    def close(self) -> None:
        self.stop_check()  # the background check stops at once
        if self.damaged:
            self._stop_writing()
        self._close_connection()
        self._journal.close()  # what still waits stays in the journal, for the next session

    def _close_connection(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def query(self, sql: str, params=()) -> list[dict]:
        try:
            return list(self.db.query(sql, params))
        except READ_FAILURES as e:
            if is_damage(e):
                raise damage(self.path, e) from None
            raise

    def note_unreadable(self, what: str, error: Exception) -> None:
        """A row that cannot be read (`what`: "attempt 17"), left out by its reader: named in
        `unreadable` (and to `on_unreadable`) the first time, and to every `noting_unreadable`
        block open now."""
        found = self.unreadable.get(what)
        if found is None:
            self.unreadable[what] = found = DamagedRowError(self.path, what, str(error))
            if self.on_unreadable is not None:
                self.on_unreadable(found)
        for noted in self._noting:
            noted.append(found)

    @contextmanager
    def noting_unreadable(self) -> Iterator[list[DamagedRowError]]:
        """A block whose list gets every row its reads left out (an export says which)."""
        noted: list[DamagedRowError] = []
        self._noting.append(noted)
        try:
            yield noted
        finally:
            self._noting.remove(noted)

    def integrity_check(self) -> list[str]:
        return full_check(self.db.conn)

    # ---------------------------------------------------------------- trainees
    def add_trainee(self, name: str, *, instructor: bool = False, passphrase: str | None = None,
                    public_key: str | None = None, key_path: str | None = None,
                    passphrase_hash: str | None = None, uid: str | None = None,
                    uid_salt: str | None = None) -> int:
        """A new profile; `passphrase_hash`: the passphrase hashed already (hash_passphrase, the
        slow part, which a window does on a thread of its own); `uid`: the trainee id the class
        knows this trainee by (trainer.classes ClassLedger.class_identity, given only for a login
        proven with its password), else one is made here; `uid_salt`: the salt her login made
        that id with (logins.committed_uid), kept so that her login's push proves it (s043). An
        id and its salt never change once made."""
        name = clean_name(name)
        if not name:
            raise ValueError("a trainee needs a name")
        if (why := long_name(name)) is not None:
            raise ValueError(why)
        if instructor and not (passphrase or passphrase_hash):
            raise ValueError("the instructor profile needs a passphrase")
        if uid is not None and not (isinstance(uid, str) and 8 <= len(uid) <= 64 and uid.isascii()
                                    and uid.isalnum()):
            raise ValueError("a trainee id is 8 to 64 letters and digits")
        if uid_salt is not None and (uid is None or not isinstance(uid_salt, str) or len(uid_salt) != 32
                                     or uid_salt.strip("0123456789abcdef")):
            raise ValueError("a trainee id's salt is 32 hex digits, given with its id")
        self._refuse_look_alike(name)
        if uid is not None and (held := self.query("SELECT name FROM trainees WHERE uid = ?", (uid,))):
            raise NameTakenError(f"The profile {held[0]['name']} has this trainee id already "
                                 "(restore it from the archived profiles).", path=self.path)
        hashed = passphrase_hash or (hash_passphrase(passphrase) if passphrase else None)
        try:
            with self.write(now=True) as db:  # made in the profile dialog, which waits for it
                cur = db.execute("INSERT INTO trainees (name, created, instructor, passphrase, "
                                 "public_key, key_path, uid, uid_salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                 (name, time.time(), int(instructor), hashed, public_key, key_path, uid,
                                  uid_salt))
                return cur.lastrowid
        except sqlite3.IntegrityError:
            taken = self.find_trainee(name)
            raise NameTakenError(f"A trainee named {taken.name if taken else name} already exists.",
                                 path=self.path) from None

    def _refuse_look_alike(self, name: str, *, restoring: int | None = None) -> None:
        """A name a person reads as an active trainee's ("Аna Ruiz", Cyrillic А, beside "Ana
        Ruiz"), and a new name mixing alphabets whose letters read alike (trainer.progress.names);
        the class server refuses the same names. A trainee restored keeps the name they had."""
        from trainer.progress.names import look_alike, look_alike_message, mixed_message, mixed_scripts

        if self.damaged:  # its names are not to be read: the write that follows says why
            return
        others = [t.name for t in self.trainees() if t.id != restoring]
        if (other := look_alike(name, others)) is not None:
            raise NameTakenError(look_alike_message(name, other, "on this workstation"), path=self.path)
        if restoring is None and (scripts := mixed_scripts(name)):
            raise ValueError(mixed_message(name, scripts))

    def trainees(self, *, include_archived: bool = False) -> list[Trainee]:
        where = "" if include_archived else "WHERE archived = 0"
        rows = self.query(f"SELECT * FROM trainees {where} ORDER BY name COLLATE NOCASE, id")
        return [trainee_from_row(r) for r in rows]

    def trainee(self, trainee_id: int) -> Trainee:
        rows = self.query("SELECT * FROM trainees WHERE id = ?", (trainee_id,))
        if not rows:
            raise UnknownTraineeError(f"There is no trainee number {trainee_id}.", path=self.path)
        return trainee_from_row(rows[0])

    def find_trainee(self, name: str) -> Trainee | None:
        """The active trainee of this name (case-insensitive), if any."""
        rows = self.query("SELECT * FROM trainees WHERE archived = 0 AND name = ? COLLATE NOCASE",
                          (clean_name(name),))
        return trainee_from_row(rows[0]) if rows else None

    def archive_trainee(self, trainee_id: int) -> None:
        """Hide a trainee from the lists; their attempts stay. Their name is free again."""
        self.trainee(trainee_id)
        with self.write() as db:
            db.execute("UPDATE trainees SET archived = 1, archived_at = ? WHERE id = ? AND archived = 0",
                       (time.time(), trainee_id))

    def restore_trainee(self, trainee_id: int) -> None:
        t = self.trainee(trainee_id)
        if t.archived:
            self._refuse_look_alike(t.name, restoring=trainee_id)
        try:
            with self.write() as db:
                db.execute("UPDATE trainees SET archived = 0, archived_at = NULL WHERE id = ?", (trainee_id,))
        except sqlite3.IntegrityError:
            raise NameTakenError(f"A trainee named {t.name} already exists.", path=self.path) from None

    def set_passphrase(self, trainee_id: int, passphrase: str | None) -> None:
        self.trainee(trainee_id)
        hashed = hash_passphrase(passphrase) if passphrase else None
        with self.write() as db:
            db.execute("UPDATE trainees SET passphrase = ? WHERE id = ?", (hashed, trainee_id))

    def verify_passphrase(self, trainee_id: int, passphrase: str) -> bool:
        return check_passphrase(self.passphrase_hash(trainee_id), passphrase)

    def passphrase_hash(self, trainee_id: int) -> str | None:
        """The trainee's passphrase as stored (hashed), None without one: checked with
        check_passphrase, which a window runs on a thread of its own."""
        rows = self.query("SELECT passphrase FROM trainees WHERE id = ?", (trainee_id,))
        return rows[0]["passphrase"] if rows else None

    # ---------------------------------------------------------------- attempts
    @property
    def pending(self) -> list[AttemptRecord]:
        """Attempts waiting in memory for the file to be writable again, oldest first."""
        return list(self._pending)

    def record_attempt(self, record: AttemptRecord) -> int | None:
        """Append an attempt; its id. If the file cannot be written the attempt is kept in
        `pending` and StoreUnavailableError says so (the session goes on). While the full check
        runs the attempt waits in `pending` and None is returned (`check_finished` saves it)."""
        if self._db is not None and self.problem is None:
            try:
                known = bool(self._db.execute("SELECT 1 FROM trainees WHERE id = ?",
                                              (record.trainee_id,)).fetchone())
            except sqlite3.Error:
                known = True  # cannot tell now: keep the attempt, and find out when it is saved
            if not known:  # a bug in the caller: fail before keeping it
                raise UnknownTraineeError(f"There is no trainee number {record.trainee_id}.", path=self.path)
        self._pending.append(record)
        # on the disk too, beside the file, while it waits: a crash loses none
        if (self.checking or self.damaged) and self._journal.append(record):
            self._journaled.add(record.uid)
        if self.checking:
            return None
        ids = self._flush()
        return ids[record.uid]

    def flush_pending(self) -> int:
        """Save the attempts kept in memory; how many were saved. Raises StoreUnavailableError
        (and keeps the rest) if the file still cannot be written. Saves nothing while the full
        check runs."""
        if self.checking:
            return 0
        return len(self._flush())

    @property
    def waiting_file(self) -> str | None:
        """The journal beside the file that keeps the attempts waiting for the check, or kept
        from a file found damaged (trainer.progress.journal); None when none waits there."""
        return None if self._journal.own is None else str(self._journal.own)

    @property
    def in_memory_only(self) -> list[AttemptRecord]:
        """The waiting attempts neither in the file nor in the journal beside it: those an end of
        the app now would lose (the journal's wait for the next start's check)."""
        return [r for r in self._pending if r.uid not in self._journaled]

    @property
    def rejected(self) -> list[AttemptRecord]:
        """Attempts the file refused (their trainee is not in it): kept, for export, never saved."""
        return list(self._rejected)

    def _flush(self) -> dict[str, int]:
        saved: dict[str, int] = {}
        while self._pending:
            record = self._pending[0]
            try:
                with self.write() as db:
                    saved[record.uid] = insert_attempt(db, record)
            except sqlite3.IntegrityError:  # the trainee is not in this file (it was opened afresh)
                self._rejected.append(self._pending.pop(0))
                continue
            self._pending.pop(0)
        self._journal.saved()  # nothing waits any more
        self._journaled.clear()
        return saved

    def attempts(self, trainee_id: int | None = None, *, game: str | None = None, mode: str | None = None,
                 since: float | None = None, until: float | None = None, limit: int | None = None,
                 newest_first: bool = False) -> list[Attempt]:
        """Attempts with their findings, skills and log, oldest first (or newest first)."""
        where, params = [], []
        for column, op, value in (("trainee_id", "=", trainee_id), ("game", "=", game), ("mode", "=", mode),
                                  ("started", ">=", since), ("started", "<", until)):
            if value is not None:
                where.append(f"{column} {op} ?")
                params.append(value)
        sql = "SELECT * FROM attempts" + (" WHERE " + " AND ".join(where) if where else "")
        sql += f" ORDER BY started {'DESC' if newest_first else 'ASC'}, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self._load(self.query(sql, params))

    def attempt(self, attempt_id: int) -> Attempt:
        attempts = self._load(self.query("SELECT * FROM attempts WHERE id = ?", (attempt_id,)))
        if not attempts:
            raise KeyError(attempt_id)
        return attempts[0]

    def best_totals(self, trainee_id: int) -> dict[str, int]:
        """The best total score of each item the trainee finished (abandoned attempts not counted)."""
        return {r["item_id"]: r["best"] for r in self.query(
            "SELECT item_id, max(total) AS best FROM attempts INDEXED BY attempts_trainee "
            "WHERE trainee_id = ? AND abandoned = 0 GROUP BY item_id", (trainee_id,))}

    def _load(self, rows: list[dict]) -> list[Attempt]:
        """Attempts from their rows, with their findings and skills (read in batches, not one by
        one); an attempt that cannot be read is left out and named (`note_unreadable`)."""
        ids = [r["id"] for r in rows]

        def batches(sql: str):
            for k in range(0, len(ids), 500):
                batch = ids[k:k + 500]
                yield from self.query(sql.format(marks=", ".join("?" * len(batch))), batch)

        return attempts_from_rows(
            rows, batches("SELECT * FROM findings WHERE attempt_id IN ({marks}) ORDER BY id"),
            batches("SELECT attempt_id, skill FROM attempt_skills WHERE attempt_id IN ({marks}) "
                    "ORDER BY attempt_id, skill"), self.note_unreadable)
