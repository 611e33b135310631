"""What can go wrong with the progress file, each as one line a trainee or instructor can act on.

Every error derives from `StoreError`; its str() is that one line. The app shows it and offers to
open or create another file (damaged, newer, foreign) or goes on with the attempts kept in memory
(unavailable). The store never overwrites a file it refused.
"""

from __future__ import annotations

import sqlite3

from trainer.errors import OneLine

# SQLite's primary result codes (https://www.sqlite.org/rescode.html)
_PERM, BUSY, LOCKED, READONLY, _IOERR, _CORRUPT, _FULL, CANTOPEN, _NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 26
#: how Python's sqlite3 begins its error for a text that is not UTF-8
_NOT_UTF8 = "Could not decode to UTF-8 column "
_REASONS = {
    _PERM: "permission denied",
    BUSY: "another program kept it locked for too long",
    LOCKED: "another program kept it locked for too long",
    READONLY: "the file or its folder is read-only",
    _IOERR: "the disk reported an error while writing",
    _FULL: "the disk is full",
    CANTOPEN: "it cannot be opened or created there (the folder may be read-only or missing)",
}


class StoreError(OneLine):
    """Base of the progress store's errors; str() is one user-facing line."""

    def __init__(self, message: str, *, path: str = ""):
        super().__init__(message)
        self.path = path


class DamagedDatabaseError(StoreError):
    """The file is not a SQLite database, or fails `PRAGMA integrity_check`. It is left untouched."""

    def __init__(self, path: str, detail: str):
        super().__init__(f"The progress file {path} is damaged ({detail}). It was left as it is; "
                         "open or create another progress file.", path=path)
        self.detail = detail


class DamagedRowError(StoreError):
    """One row of the file cannot be read: its JSON or its values are damaged (a flipped bit the
    check did not see, or a file damaged since it was checked). The readers leave it out and
    name it (`Store.unreadable`); the row is left as it is."""

    def __init__(self, path: str, what: str, detail: str):
        super().__init__(f"{what[:1].upper()}{what[1:]} in the progress file {path} is damaged and "
                         f"cannot be read ({detail}); it is left out, and left as it is.", path=path)
        self.what = what
        self.detail = detail


class NewerDatabaseError(StoreError):
    """The file was migrated by a newer version of the app. It is never written to."""

    def __init__(self, path: str, unknown: list[str]):
        super().__init__(f"The progress file {path} was written by a newer version of Dealer Trainer "
                         f"(schema steps {', '.join(unknown)}). It was left as it is; update the app or "
                         "open another progress file.", path=path)
        self.unknown = unknown


class ForeignDatabaseError(StoreError):
    """A SQLite database of some other program (tables, but no `_migrations`). Left untouched."""

    def __init__(self, path: str, why: str = "a database of another program"):
        super().__init__(f"{path} is {why}, not a Dealer Trainer progress file. "
                         "It was left as it is; open or create another progress file.", path=path)


class NetworkShareError(StoreError):
    """A progress file on a network share: refused before anything is read or written
    (trainer.progress.disk says why, and what to do)."""

    def __init__(self, path: str, share: str):
        from trainer.progress.disk import refusal

        super().__init__(f"Cannot keep progress in {path}: {refusal(share)}.", path=path)
        self.share = share


class StoreUnavailableError(StoreError):
    """The file cannot be written now (read-only, disk full, locked). Attempts wait in memory."""

    def __init__(self, path: str, reason: str, *, pending: int = 0):
        kept = ""
        if pending:
            kept = (f"; {pending} attempt{'s are' if pending != 1 else ' is'} kept in memory and will "
                    "be saved when it can be written")
        super().__init__(f"Cannot save progress to {path}: {reason}{kept}.", path=path)
        self.reason = reason
        self.pending = pending


class NameTakenError(StoreError):
    """Another active trainee already has this name."""


class UnknownTraineeError(StoreError):
    """No trainee has this id."""


class ResultsFileError(StoreError):
    """A results file that cannot be imported; the message names the file, the field and the problem."""


#: what reading the file can raise: SQLite's errors, and Python's when a name in the schema or
#: SQLite's message about it is not UTF-8
READ_FAILURES = (sqlite3.DatabaseError, UnicodeDecodeError)


def is_damage(exc: Exception) -> bool:
    """SQLite found the file damaged, or a text in it that is not UTF-8 (which SQLite keeps, and
    Python's sqlite3 cannot return: a value, a name in the schema, SQLite's message quoting it)."""
    return ((getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (_CORRUPT, _NOTADB)
            or isinstance(exc, UnicodeDecodeError)
            or (isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(_NOT_UTF8)))


def damage(path: str, exc: Exception) -> DamagedDatabaseError:
    """The DamagedDatabaseError for an error `is_damage` recognised, in one short line (Python's
    message for a text that is not UTF-8 quotes the whole text)."""
    text = str(exc)
    if isinstance(exc, UnicodeDecodeError):
        text = "a text in its schema that is not UTF-8"
    elif text.startswith(_NOT_UTF8):
        column = text[len(_NOT_UTF8):].split("'")[1:2] or ["?"]
        text = f"a text that is not UTF-8 in its column {column[0]}"
    return DamagedDatabaseError(path, text)


def unavailable_reason(exc: BaseException) -> str | None:
    """Why the file cannot be written, if `exc` says it cannot (else None: a bug, not the disk)."""
    if isinstance(exc, sqlite3.Error):
        return _REASONS.get(getattr(exc, "sqlite_errorcode", 0) & 0xFF)
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return None
