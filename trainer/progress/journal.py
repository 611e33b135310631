"""Attempts waiting for the full check, kept on the disk beside the progress file, so that a
crash while the check runs loses none (trainer.progress.store, "The full check in the
background").

While the check runs, an attempt recorded waits in memory (`Store.pending`) and is appended to
the session's journal beside the file, `.NAME.waiting-TOKEN.jsonl`: one line per attempt, its
record as JSON, synced to the disk before `record_attempt` returns. The session holds an OS lock
on it (`….jsonl.lock`) while it is open. Once every waiting attempt is saved to the file, the
journal and its lock are removed. A file found damaged is not written: every attempt recorded
after goes to the journal too, and it stays (restore the file from a backup, and the next start
saves them).

When the next session starts its check (`Store.start_check`), a journal whose lock nobody holds
(its session crashed) is read back into `pending`, each line checked as an imported attempt is
(AttemptRecord); they are saved when the check passes, once each (by uid, so an attempt saved
before the crash is not added again), and the journal is removed then. A line that cannot be
read (the crash cut it; an edit) is named, and not saved. The journal is as trusted as the file
beside it: an attempt is practice, not evidence (exam results are the exams' own).
"""

from __future__ import annotations

import dataclasses
import glob
import json
import os
import secrets
from pathlib import Path

from trainer.paths import binary
from trainer.progress.records import AttemptRecord


class Journal:
    def __init__(self, path: str):
        self.path = Path(path)
        self.own: Path | None = None  # this session's journal, made when the first attempt waits
        self._locks: dict = {}  # the journals held (a FileLock each): this session's, those read back
        self._broken = False  # it cannot be written here (a read-only folder, a full disk)

    def _name(self, token: str) -> Path:
        return self.path.with_name(f".{self.path.name}.waiting-{token}.jsonl")

    def append(self, record: AttemptRecord) -> bool:
        """Keep a waiting attempt on the disk; False when it cannot be (it waits in memory only)."""
        if self._broken:
            return False
        line = json.dumps({f.name: getattr(record, f.name) for f in dataclasses.fields(AttemptRecord)},
                          ensure_ascii=False, separators=(",", ":")) + "\n"
        from filelock import Timeout  # loaded when an attempt first waits: not at every start

        try:
            if self.own is None:
                own = self._name(secrets.token_hex(6))
                self._hold(own)
                os.close(os.open(own, binary(os.O_WRONLY | os.O_CREAT | os.O_EXCL), 0o600))
                self.own = own
            with open(self.own, "a", encoding="utf-8") as out:
                out.write(line)
                out.flush()
                os.fsync(out.fileno())
        except (OSError, Timeout):
            self._broken = True
            return False
        return True

    def read_back(self) -> tuple[list[AttemptRecord], list[tuple[str, Exception]]]:
        """The attempts of every journal a crashed session left (its lock free, now held here),
        oldest first; and the lines that cannot be read, each named ("line 3 of FILE")."""
        records: list[AttemptRecord] = []
        unreadable: list[tuple[str, Exception]] = []
        try:
            pattern = glob.escape(f".{self.path.name}.waiting-") + "*.jsonl"
            found = sorted(self.path.parent.glob(pattern), key=lambda p: p.stat().st_mtime)
        except OSError:
            return records, unreadable
        if not found:
            return records, unreadable
        from filelock import Timeout  # loaded only when there are journals

        for journal in found:
            if journal in self._locks:
                continue
            try:
                self._hold(journal)
                lines = journal.read_bytes().split(b"\n")
            except (OSError, Timeout):  # another session's, still running (or gone meanwhile)
                self._let_go(journal, remove=False)
                continue
            for n, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    fields = json.loads(line.decode("utf-8"))
                    if not isinstance(fields, dict):
                        raise ValueError("not a record")
                    records.append(AttemptRecord(**fields))
                except (TypeError, ValueError, RecursionError) as e:
                    unreadable.append((f"line {n} of {journal}", e))
        return records, unreadable

    def saved(self) -> None:
        """Every attempt that waited is in the file now: the journals held are removed."""
        for journal in list(self._locks):
            self._let_go(journal, remove=True)
        self.own = None

    def close(self) -> None:
        """The session ends: the journals held are let go, and stay for the next session."""
        for journal in list(self._locks):
            self._let_go(journal, remove=False)
        self.own = None

    def _hold(self, journal: Path) -> None:
        from filelock import FileLock

        lock = FileLock(f"{journal}.lock", timeout=0, mode=0o600)
        self._locks[journal] = lock
        lock.acquire()

    def _let_go(self, journal: Path, *, remove: bool) -> None:
        lock = self._locks.pop(journal, None)
        if remove:
            journal.unlink(missing_ok=True)
        if lock is not None and lock.is_locked:
            lock.release()
            Path(lock.lock_file).unlink(missing_ok=True)
