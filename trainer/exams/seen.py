"""One sitting, sat once on this account ("the first sitting is the one certified").

A sitting's result bears the sitting's nonce as its id, so one progress file sits a token once
(trainer.exams.session). Another file would sit it again: a fresh file, `--db` elsewhere, or a
second copy of the app beside the first. So the app looks wider than the file open before a
sitting starts (`SittingsSeen`):

- the list of sittings started on this account (`sittings-started`, beside the app's default
  progress file, owner-only, one nonce a line): every sitting started is added to it, on any
  file, under a lock that a second copy of the app waits for;
- the default progress file, for the sittings sat there before the list was kept.

A trainee who administers the machine can remove the list, or sit on another account or
machine: in a class the class server keeps the first sitting, and outside one the proctor does
(README, "Exams"). This refuses what the unchanged app would otherwise allow.

**In a class the server's record decides** (`advisory`). On an OS account the trainees share,
anyone can write a classmate's nonce into the list, or hold its lock, and her start was refused
"already started on this computer". A sitting issued in a class is refused by the class server
once started (one use, first wins), wherever it is sat; so for it the list and the default file
refuse nothing and its lock is not waited for: the sitting is only added to the list.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from trainer.exams.errors import ExamError
from trainer.paths import binary

LIST = "sittings-started"
WAIT = 10.0  # seconds a start waits for another copy of the app starting a sitting


class SatBeforeError(ExamError):
    """This sitting was started before on this account; str() says where."""


class SittingsSeen:
    def __init__(self, default_file: str | os.PathLike):
        self.default_file = Path(default_file)
        self.list = self.default_file.with_name(LIST)

    @contextlib.contextmanager
    def first_sitting(self, nonce: str, here: str | None = None, *, advisory: bool = False
                      ) -> Iterator[None]:
        """Hold the list while a sitting starts: SatBeforeError when it was started before on
        this account (the list, the default file, or the file `here` by its path); the sitting
        is added to the list once the block ends without an error. `advisory` (a sitting issued
        in a class, whose server refuses a second start): nothing is refused nor waited for
        here, and the sitting is added to the list."""
        self.list.parent.mkdir(parents=True, exist_ok=True)
        if advisory:
            yield
            with contextlib.suppress(OSError):  # the list only adds words: it never stops a start
                self._add(nonce)
            return
        lock = FileLock(self.list.with_name(f".{LIST}.lock"), timeout=WAIT, mode=0o600)
        try:
            lock.acquire()
        except Timeout:
            raise SatBeforeError("another copy of the app is starting a sitting: try again in a "
                                 "moment") from None
        try:
            where = self._sat(nonce, here)
            if where is not None:
                raise SatBeforeError(_sat_before(where))
            yield
            self._add(nonce)
        finally:
            lock.release()

    def refusal(self, nonce: str, here: str | None = None, *, advisory: bool = False) -> str | None:
        """What `first_sitting` would refuse the sitting with, asked before anything starts (the
        start asks again under the lock); None when it was not started before on this account,
        or for an `advisory` sitting (issued in a class: its server decides)."""
        if advisory:
            return None
        where = self._sat(nonce, here)
        return None if where is None else _sat_before(where)

    def _sat(self, nonce: str, here: str | None) -> str | None:
        try:
            with open(self.list, encoding="ascii", errors="replace") as f:
                if any(line.strip() == nonce for line in f):
                    return "the app's list of sittings started"
        except FileNotFoundError:
            pass
        except OSError as e:
            raise SatBeforeError(f"{self.list}: cannot be read ({e.strerror or e}): no sitting "
                                 "starts until it can") from None
        if (here is None or not _same_file(here, self.default_file)) and \
                _has_result(self.default_file, nonce):
            return f"in {self.default_file}"
        return None

    def _add(self, nonce: str) -> None:
        fd = os.open(self.list, binary(os.O_WRONLY | os.O_CREAT | os.O_APPEND), 0o600)
        try:
            os.write(fd, f"{nonce}\n".encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)


def _sat_before(where: str) -> str:
    return (f"this sitting was already started on this computer ({where}): a sitting is good for "
            "one attempt; ask the instructor for a new one")


def _same_file(a: str | os.PathLike, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _has_result(path: Path, nonce: str) -> bool:
    """Whether the progress file at `path` holds a result of the sitting (read only; a file that
    is not there, or not a progress file, holds none)."""
    if not path.is_file():
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                                timeout=5)) as db:
            return db.execute("SELECT 1 FROM exam_results WHERE uid = ?", (nonce,)).fetchone() is not None
    except sqlite3.Error:
        return False
