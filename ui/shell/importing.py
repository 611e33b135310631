"""File › Import results files…, off the window's thread: a class's results file of 20,000 attempts
takes a while to re-grade (every attempt is graded again here from its log), and the window must
go on drawing and say how far it is. Each file is read and re-graded in a thread
(trainer.progress.read_results) and its attempts added there too, on a connection of that
thread's own (Store.for_another_thread; a store in memory is written here, where it lives).
A progress dialog counts the attempts and can stop the import before anything is added. At the
end one message says, file by file, what was added or why it was not: a file the engine refuses
names its problem in one line, and so does anything else that went wrong, never a traceback.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from ui.qt import QMessageBox, QObject, QProgressDialog, Qt, QTimer, Signal

POLL_MS = 100


@dataclass
class _Job:
    """One file being imported: what the thread reports, read on the window's thread."""

    path: str
    done: int = 0
    total: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    read: object = None  # a ReadResults still to add here (a store in memory)
    summary: object = None  # the ImportSummary, when added
    problem: str = ""  # why it was not imported
    thread: threading.Thread | None = None

    def progress(self, done: int, total: int) -> bool:
        self.done, self.total = done, total
        return not self.stop.is_set()


class ResultsImport(QObject):
    """Import results files one after the other, each in a thread, for one window."""

    finished = Signal(list)  # one line for each file: what was added, or why not

    def __init__(self, window, services, paths: list[str]):
        super().__init__(window)
        self.window, self.services = window, services
        self.paths = list(paths)
        self.lines: list[str] = []
        self.job: _Job | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)
        self.dialog = QProgressDialog("Reading the results file…", "Stop", 0, 0, window)
        self.dialog.setWindowTitle("Import results")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(400)
        self.dialog.setAutoReset(False)
        self.dialog.canceled.connect(self.stop)

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self) -> None:
        self._next()
        self.timer.start()

    def stop(self) -> None:
        """Stop the file being read (nothing of it is added) and the files after it."""
        if self.job is not None:
            self.job.stop.set()
        self.lines += [f"{p}: not imported — the import was stopped" for p in self.paths]
        self.paths = []

    def wait(self) -> None:
        """The window closes: stop, and let the thread end (it adds nothing once stopped)."""
        self.stop()
        if self.job is not None and self.job.thread is not None:
            self.job.thread.join()
        self._finish(report=False)

    def _next(self) -> None:
        path = self.paths.pop(0)
        self.job = job = _Job(path)
        self.dialog.setLabelText(f"Reading {Path(path).name} and grading every attempt again…")
        self.dialog.setRange(0, 0)
        store = self.services.store
        apart = store.path != ":memory:"
        job.thread = threading.Thread(target=_work, args=(job, store, apart), daemon=True,
                                      name="results-import")
        job.thread.start()

    def _poll(self) -> None:
        job = self.job
        if job is None:
            return
        if job.total:
            self.dialog.setRange(0, job.total)
            self.dialog.setValue(job.done)
            self.dialog.setLabelText(f"Grading {Path(job.path).name} again here: "
                                     f"{job.done:,} of {job.total:,} attempts…")
        if job.thread.is_alive():
            return
        if job.read is not None and not job.problem:  # a store in memory: added here
            _add(job, self.services.store)
        from ui.shell.services import imported_text

        problem = job.problem.removeprefix(f"{job.path}: ")  # the line names the file first
        self.lines.append(f"{job.path}: not imported — {problem}" if job.problem
                          else f"{job.path}: {imported_text(job.summary)}")
        self.job = None
        if self.paths:
            self._next()
        else:
            self._finish(report=True)

    def _finish(self, *, report: bool) -> None:
        self.timer.stop()
        self.dialog.reset()
        self.dialog.hide()
        self.dialog.deleteLater()
        self.job = None
        if report and self.lines:
            QMessageBox.information(self.window, "Import results", "\n".join(self.lines))
        self.finished.emit(self.lines)


def _work(job: _Job, store, apart: bool) -> None:
    """The thread: read and re-grade the file; add it on a connection of its own (`apart`), or
    leave it for the window's thread to add."""
    from trainer.progress import StoreError, read_results

    try:
        job.read = read_results(job.path, progress=job.progress)
        if apart:
            with store.for_another_thread() as own:
                _add(job, own)
    except (StoreError, OSError) as e:
        job.problem = str(e)
    except Exception as e:  # a bug: one line, never a traceback or a dialog left open
        job.problem = _internal(e)


def _add(job: _Job, store) -> None:
    from trainer.progress import StoreError, add_results

    try:
        job.summary = add_results(store, job.read)
    except StoreError as e:
        job.problem = str(e)
    except Exception as e:  # as in _work
        job.problem = _internal(e)
    job.read = None


def _internal(e: Exception) -> str:
    return " ".join(f"an internal error ({type(e).__name__}: {e}); please report it".split())[:500]
