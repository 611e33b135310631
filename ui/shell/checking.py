"""The progress file's full check, in the background (trainer.progress.store, "The full check in
the background"): run once after the app opens the file, and on demand from File › Check
database, which also checks the exam results' local chain (trainer.exams.trust).

While the check runs the window says so in the status bar and practice goes on: results wait in
memory and are saved when it passes. A file that fails is named, with what the check found, and
nothing more is written to it.
"""

from __future__ import annotations

from ui.qt import QMessageBox, QObject, QProgressDialog, Qt, QTimer, Signal

POLL_MS = 150


class DatabaseCheck(QObject):
    """Watches the store's background check for one window."""

    finished = Signal(list)  # the check's findings: ["ok"] when sound

    def __init__(self, window, services):
        super().__init__(window)
        self.window = window
        self.services = services
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)
        self.dialog: QProgressDialog | None = None
        self.report_when_done = False

    @property
    def store(self):
        return self.services.store if self.services is not None else None

    def start(self, *, report: bool = False) -> None:
        """Start the full check (if it is not running) and follow it; with `report`, show what
        it found in a dialog (File › Check database), else only in the status bar."""
        store = self.store
        if store is None or store.path == ":memory:":
            if report:
                QMessageBox.information(self.window, "Check database",
                                        "There is no progress file to check (results are not saved).")
            return
        self.report_when_done = self.report_when_done or report
        store.start_check()
        if report:
            self.dialog = QProgressDialog("Checking every page and index of the progress file…",
                                          "Stop", 0, 0, self.window)
            self.dialog.setWindowTitle("Check database")
            self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
            self.dialog.setMinimumDuration(300)
            self.dialog.canceled.connect(self._stop)
        else:
            self.window.statusBar().showMessage("Checking the progress file… (results are kept "
                                                "in memory until it is done)")
        self.timer.start()
        self._poll()

    def _stop(self) -> None:
        if self.store is not None:
            self.store.stop_check()

    def stop(self) -> None:
        """The window closes: stop the check and stop following it."""
        self.timer.stop()
        self._stop()

    def _poll(self) -> None:
        store = self.store
        if store is None or store.checking:
            return
        self.timer.stop()
        if self.dialog is not None:
            self.dialog.reset()
            self.dialog = None
        problems = store.check_problems or ["ok"]
        saved = store.check_finished()  # and what waited for the check (ui.shell.app.exam_upkeep)
        exams = self.window.pages.get("exam")
        if exams is not None and hasattr(exams, "refresh") and exams.runner is None:
            exams.refresh()  # an attempt a crash left open is closed now; new forms are offered
        report, self.report_when_done = self.report_when_done, False
        if store.damaged:
            self.window.statusBar().showMessage(
                f"The progress file is damaged; nothing more is written to it. "
                f"{len(store.pending)} results are kept in memory{kept_beside(store)}.")
            QMessageBox.critical(self.window, "Progress file damaged", damaged_text(store, problems))
        elif problems == ["interrupted"]:
            self.window.statusBar().showMessage("The check of the progress file was stopped.", 10000)
        elif problems[0].startswith("not checked"):
            self.window.statusBar().showMessage(f"The progress file was {problems[0]}; it is "
                                                "used as before. File › Check database tries again.",
                                                15000)
            if report:
                QMessageBox.warning(self.window, "Check database", f"{store.path}: {problems[0]}")
        else:
            seconds = store.check_seconds or 0.0
            extra = f"; {saved} results kept meanwhile were saved" if saved else ""
            self.window.statusBar().showMessage(
                f"The progress file was checked and nothing in it is damaged ({seconds:.1f} s)"
                f"{extra}.", 10000)
            if report:
                QMessageBox.information(self.window, "Check database", sound_text(self.services, seconds))
        self.finished.emit(problems)


def damaged_text(store, problems: list[str]) -> str:
    shown = "\n".join(f"• {p}" for p in problems[:5])
    more = f"\n… and {len(problems) - 5} more" if len(problems) > 5 else ""
    return (f"{store.path} failed its integrity check:\n{shown}{more}\n\nNothing more will be "
            "written to it, so that the damage does not spread. Results made since it was opened "
            f"are kept ({len(store.pending)}), in memory{kept_beside(store)}. Keep a copy of the "
            "file, then restore it from a backup or start the app with another file.")


def kept_beside(store) -> str:
    """Where results kept from a damaged file wait on the disk (" and in FILE"), if they do."""
    return f" and in {store.waiting_file}" if store.waiting_file else ""


def sound_text(services, seconds: float) -> str:
    """What File › Check database reports for a sound file: the integrity check, the counts, and
    the exam results' local chain (an integrity record of this file, not evidence)."""
    store = services.store
    counts = store.query("SELECT (SELECT count(*) FROM attempts) AS attempts, "
                         "(SELECT count(*) FROM exam_results) AS results")[0]
    text = (f"{store.path}\n\nIntegrity check: every page and index is sound ({seconds:.1f} s).\n"
            f"{counts['attempts']:,} attempts, {counts['results']:,} exam results.")
    if services.key is not None and counts["results"]:
        from trainer.exams import verify_results

        flagged = verify_results(store, services.key)
        if flagged:
            text += (f"\n\nExam results edited outside the app ({len(flagged)} findings):\n"
                     + "\n".join(f"• {p}" for p in flagged[:10]))
        else:
            text += "\n\nExam results: as the app wrote them (local chain intact)."
    return text
