"""What the screens share: the progress store, who is training, and recording attempts.

The store may be unavailable (read-only or full disk): then attempts are kept in memory and
saved when it can write again, and the status bar says so. Nothing completed is lost."""

from __future__ import annotations

import time

from trainer import policy
from ui.qt import QObject, Signal


class Services(QObject):
    recorded = Signal(object)  # the attempt id, or None when it is pending
    status = Signal(str)
    class_changed = Signal()  # joined or left a class (ui.classroom.membership)
    supervised = Signal(int)  # a supervised round recorded: its row id

    def __init__(self, store=None, trainee=None, parent=None, key: bytes | None = None, seen=None):
        super().__init__(parent)
        self.store = store
        self.trainee = trainee
        self.window = None
        self.key = key  # the installation secret that authenticates exam results
        self.seen = seen  # trainer.exams.SittingsSeen: where a sitting started before is found
        self.classroom = None  # ui.classroom.membership.Classroom, once a class was joined
        if store is not None:  # a row found damaged when read is left out, and named here
            store.on_unreadable = self._unreadable

    def _unreadable(self, error) -> None:
        """A row of the file was found damaged when read: the status bar names it, and every
        one found before (one status line at a time)."""
        found = list(self.store.unreadable.values())
        if len(found) <= 1:
            self.status.emit(str(error))
            return
        names = ", ".join(e.what for e in found[:4]) + (", …" if len(found) > 4 else "")
        self.status.emit(f"{len(found)} records of the progress file are damaged and cannot be read "
                         f"(left out, and left as they are): {names}")

    @property
    def trainee_name(self) -> str | None:
        return self.trainee.name if self.trainee is not None else None

    def choose_trainee(self, parent=None) -> bool:
        if self.store is None:
            return True
        from ui.shell.profiles import ProfileDialog

        joined = self.classroom.connection if self.classroom is not None else None
        dialog = ProfileDialog(self.store, parent, classroom=joined)
        if dialog.exec() and dialog.chosen is not None:
            self.trainee = dialog.chosen
            return True
        return False

    def switch_trainee(self) -> None:
        if self.choose_trainee(self.window) and self.window is not None:
            self.window.update_title()

    def record(self, result, round_) -> int | None:
        """Keep a finished round in the progress store (or in memory until it can be saved)."""
        if self.store is None or self.trainee is None:
            return None
        from trainer.progress import StoreError, attempt_of

        record = attempt_of(round_, result, trainee_id=self.trainee.id, ended=time.time())
        try:
            self.store.flush_pending()  # anything kept from an earlier failure goes first
            attempt = self.store.record_attempt(record)
        except StoreError as e:
            self.status.emit(f"{e} Your result is kept and will be saved when the disk is writable.")
            self.recorded.emit(None)
            return None
        self._record_call_speeds(record, round_)
        self.recorded.emit(attempt)
        return attempt

    def _record_call_speeds(self, record, round_) -> None:
        """The round's calls made aloud, kept with its attempt (by its uid)."""
        speeds = getattr(round_, "call_speeds", None)
        if not speeds:
            return
        from trainer.progress import StoreError, record_call_speeds

        try:
            record_call_speeds(self.store, self.trainee.id, record.uid, record.game, speeds)
        except StoreError as e:
            self.status.emit(f"{e} This round's call speeds could not be kept.")

    def record_supervised(self, rnd, score, difficulty: int) -> int | None:
        """Keep a supervised round, its faults caught and missed, in the progress store."""
        if self.store is None or self.trainee is None:
            return None
        from trainer.progress import StoreError, record_supervised

        try:
            row = record_supervised(self.store, self.trainee.id, rnd, score, difficulty)
        except StoreError as e:
            self.status.emit(f"{e} This supervised round could not be kept.")
            return None
        self.supervised.emit(row)
        return row

    def best_scores(self) -> dict[str, int]:
        """The trainee's best total per item (the store's query, not every attempt loaded)."""
        if self.store is None or self.trainee is None:
            return {}
        return self.store.best_totals(self.trainee.id)

    # --- export and import (File menu) ------------------------------------------------------------

    def export(self, kind: str, path: str, *, everyone: bool = False) -> str:
        """Write the attempts (CSV) or a results file; returns what to tell the user."""
        from trainer.progress import export_csv, export_results

        who = None if everyone or self.trainee is None else self.trainee.id
        write = export_csv if kind == "csv" else export_results
        with self.store.noting_unreadable() as left_out:
            count = write(self.store, path, trainee_id=who)
        text = f"{count} attempts written to {path}"
        if left_out:
            names = ", ".join(e.what for e in left_out[:3]) + (", …" if len(left_out) > 3 else "")
            text += (f"; {len(left_out)} left out, damaged in the progress file and left as they "
                     f"are: {names}")
        return text

    def import_results(self, path: str) -> str:
        """Import a results file in this thread; what to tell the user. (File › Import results
        reads and writes off the window's thread, with its progress shown: ui.shell.importing.)"""
        from trainer.progress import import_results

        return imported_text(import_results(self.store, path))

    def flush(self) -> int:
        """Try again to save results kept in memory (the window is closing): how many were saved.
        A background check still running is stopped, not waited for: the results waiting for it
        are in the journal beside the file, and the next start saves them once its check passes
        (`Store.in_memory_only` are those that are not)."""
        if self.store is None or not self.store.pending:
            return 0
        if self.store.checking:
            self.store.stop_check()
            return 0
        from trainer.progress import StoreError

        try:
            return self.store.flush_pending()
        except StoreError:
            return 0


def imported_text(summary) -> str:
    """What an import did, in one paragraph (trainer.progress.ImportSummary)."""
    created = f"; new trainees: {', '.join(summary.trainees_created)}" if summary.trainees_created else ""
    text = (f"{summary.added} attempts added, {summary.already_present} already here{created}; "
            f"every score graded again here from its log, under pass rule {policy.RULE}")
    if summary.rescored:
        text += (f" ({summary.rescored} differed from the file's and "
                 f"{'was' if summary.rescored == 1 else 'were'} corrected)")
    if summary.left_out:
        shown = "; ".join(summary.left_out[:3]) + ("; …" if len(summary.left_out) > 3 else "")
        text += f". Left out, as this machine cannot re-grade them: {shown}"
    return text
