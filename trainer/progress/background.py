"""The progress file's full check, in a thread (trainer.progress.store's "The full check in the
background"): `PRAGMA integrity_check` and the CHECK constraints (trainer.progress.integrity) on
a read-only connection of its own, which the store's owner may interrupt. Only damage marks the
file damaged; a file busy or unreadable at this moment is "not checked", and is written as
before."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from trainer.progress.errors import READ_FAILURES, damage, is_damage
from trainer.progress.integrity import full_check


class BackgroundCheck:
    def __init__(self, path: str, busy_timeout: float):
        self.path, self.busy_timeout = path, busy_timeout
        self.problems: list[str] | None = None  # the findings: ["ok"] when sound
        self.seconds: float | None = None
        self.damaged = False  # damage found: nothing more is written to this file
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # guards _conn between the two threads
        self._stopped = False  # stop() was called: the check ends at the next table

    def start(self) -> None:
        if self.running:
            return
        self.problems, self.seconds = None, None
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="integrity-check", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> list[str] | None:
        if self._thread is not None:
            self._thread.join(timeout)
        return self.problems

    def stop(self) -> None:
        """Interrupt a running check (the app is closing, or the user pressed Stop)."""
        with self._lock:
            self._stopped = True
            if self._conn is not None:
                self._conn.interrupt()

    def _run(self) -> None:
        started = time.perf_counter()
        damaged = False
        try:
            conn = sqlite3.connect(f"{Path(self.path).resolve().as_uri()}?mode=ro", uri=True,
                                   timeout=self.busy_timeout, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as e:
            self.problems = [f"not checked: it cannot be read now ({e})"]
            return
        with self._lock:
            self._conn = conn
        try:
            problems = full_check(conn, lambda: self._stopped)
            damaged = problems != ["ok"]
        except READ_FAILURES as e:
            damaged = is_damage(e)
            problems = ([damage(self.path, e).detail] if damaged
                        else ["interrupted"] if "interrupt" in str(e) else [f"not checked: {e}"])
        finally:
            with self._lock:
                self._conn = None
            conn.close()
        self.seconds = time.perf_counter() - started
        self.damaged = damaged
        self.problems = problems
