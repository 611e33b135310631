"""The start path never waits for the progress file's full check: the window opens whatever the
file's state (damaged with an exam left in progress included), the start's own writes (an exam a
crash left open closed, new example forms) wait for the check without holding anything up, and
what the trainee does while it runs (an exam started and answered) is not held behind it.

The check is held by an Event the test releases (`held`), never timed; a watchdog releases it
after WATCHDOG seconds only so that a start that waits for it fails instead of hanging."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support.damage import beside
from tests.support.screens import answer
from tests.test_progress_check import damage_an_index, held  # noqa: F401  (held: a fixture)
from trainer.progress import Store
from trainer.progress.errors import DamagedDatabaseError

ROOT = Path(__file__).resolve().parents[1]
WATCHDOG = 10.0  # seconds: only a guard against a start that waits for the held check


@pytest.fixture
def watchdog(held):  # noqa: F811
    """Releases the held check after WATCHDOG seconds, and says whether it had to."""
    fired: list[bool] = []
    timer = threading.Timer(WATCHDOG, lambda: (fired.append(True), held.set()))
    timer.start()
    yield fired
    timer.cancel()
    held.set()


def started_app(monkeypatch, db: Path):
    """`make run`'s path (ui.shell.app.run) on `db`: the trainee dialog answered with the file's first
    trainee who is not an instructor, the event loop not entered; the window it shows."""
    from ui.qt import QApplication
    from ui.shell.app import run
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    def choose(self, parent=None):
        self.trainee = next(t for t in self.store.trainees() if not t.instructor)
        return True

    monkeypatch.setattr(Services, "choose_trainee", choose)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert run(db=str(db)) == 0
    [window] = [w for w in QApplication.topLevelWidgets()
                if isinstance(w, MainWindow) and w.isVisible()]
    return window


def left_open(db: Path) -> None:
    """The realistic file (tests.support.damage), made by another process that then ended:
    Cara Diaz's exam left in progress, as a crash leaves it (no lock held, no session alive)."""
    done = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                           "from tests.support.damage import realistic_file; "
                           "realistic_file(Path(sys.argv[1]), Path(sys.argv[2]))",
                           str(db), str(db.with_name("installation.key"))],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def in_progress(path: Path) -> list[str]:
    import sqlite3

    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in db.execute("SELECT trainee_name FROM exam_results "
                                         "WHERE status = 'in-progress' ORDER BY id")]
    finally:
        db.close()


def test_a_damaged_file_with_an_exam_left_in_progress_opens_the_window_and_names_it(
        qtbot, tmp_path, monkeypatch):
    """Before: closing the attempt a crash left open was a write, which waited for the full
    check, which found the damage: a traceback and exit 1, no window. Now the window opens,
    the damage is named, and the file (its exam still in progress) is left as it was."""
    from tests.support.screens import answer_with

    db = tmp_path / "progress.db"
    left_open(db)
    damage_an_index(db)
    before = beside(db)
    seen = answer_with("OK")
    window = started_app(monkeypatch, db)
    store = window.services.store
    try:
        qtbot.waitUntil(lambda: bool(seen), timeout=30000)
        assert str(db) in seen[0] and "missing from index trainees_active_name" in seen[0]
        assert window.statusBar().currentMessage().startswith("The progress file is damaged")
        assert store.damaged
    finally:
        window.close()
        store.close()
    assert in_progress(db) == ["Cara Diaz"], "nothing is written to a damaged file"
    after = beside(db)
    assert {name: after.get(name) for name in before} == before


def test_an_attempt_a_crash_left_open_is_closed_once_the_check_has_passed(
        qtbot, tmp_path, monkeypatch, held, watchdog):  # noqa: F811
    """The window opens while the check is held; the attempt left open is closed as left only
    when the check passes (closing it is a write, which would have held the window up)."""
    db = tmp_path / "progress.db"
    left_open(db)
    window = started_app(monkeypatch, db)
    store = window.services.store
    try:
        assert not watchdog, "the start waited for the full check"
        assert store.checking
        assert in_progress(db) == ["Cara Diaz"]
        held.set()
        qtbot.waitUntil(lambda: not window.database_check.timer.isActive(), timeout=30000)
        assert store.check_problems == ["ok"]
        assert in_progress(db) == []
        status = store.query("SELECT status FROM exam_results WHERE trainee_name = 'Cara Diaz'")
        assert [r["status"] for r in status] == ["abandoned"]
    finally:
        window.close()
        store.close()


def test_an_exam_starts_and_shows_its_first_part_while_the_check_runs(
        qtbot, tmp_path, monkeypatch, held, watchdog):  # noqa: F811
    """Before: starting an exam right after opening froze the window until the check ended
    (8 s on a file of a million attempts): the exam's start is a write, and every write waited
    for it. Now the start and the answers go to the file at once."""
    from tests.support.exams import form
    from trainer.exams import add_form

    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        store.add_trainee("Ana")
        add_form(store, form())
    window = started_app(monkeypatch, db)
    store = window.services.store
    try:
        page = window.show_screen("exam")
        assert page.available.rowCount() == 1  # the form, listed (and selected)
        page.start(confirm=False)
        assert not watchdog, "the exam's start waited for the full check"
        assert store.checking, "the check is still running"
        assert page.runner is not None and page.stack.currentWidget() is page.runner
        assert page.runner.index == 0 and page.runner.part.text().startswith("Part 1 of ")
        assert page.runner.screen.round is not None, "its first part is on the table"
        rows = store.query("SELECT status FROM exam_results")
        assert [r["status"] for r in rows] == ["in-progress"]  # in the file before it is shown
        held.set()
        qtbot.waitUntil(lambda: not window.database_check.timer.isActive(), timeout=30000)
        assert store.check_problems == ["ok"]
        assert page.runner is not None, "the check's end leaves the exam running"
    finally:
        answer({"button": "Yes"})  # the window asks, as Leave exam does
        window.close()  # leaving ends the attempt
        store.close()
    with Store.open(db) as store:
        assert [r["status"] for r in store.query("SELECT status FROM exam_results")] == ["abandoned"]


def test_an_exam_on_a_file_the_check_then_finds_damaged_ends_with_one_line(
        qtbot, tmp_path, monkeypatch, held, watchdog):  # noqa: F811
    """The exam started while the check ran; the check finds the file damaged; leaving the exam
    cannot be recorded: the window says so in its status bar (no traceback) and goes on."""
    from tests.support.exams import form
    from tests.support.screens import answer_with
    from trainer.exams import Ending, add_form

    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        store.add_trainee("Ana")
        add_form(store, form())
    damage_an_index(db)
    window = started_app(monkeypatch, db)
    store = window.services.store
    try:
        page = window.show_screen("exam")
        # the damage's dialog is answered whenever it opens: on a loaded machine that can be
        # while the exam is still starting (a dialog nobody answers would hang the run)
        seen = answer_with("OK")
        page.start(confirm=False)
        assert page.runner is not None and not watchdog
        held.set()
        qtbot.waitUntil(lambda: bool(seen), timeout=30000)
        assert "missing from index" in seen[0]
        page.runner.end(Ending.LEFT)
        assert page.runner is None and page.stack.currentIndex() == 0
        message = window.statusBar().currentMessage()
        assert message.startswith("The exam ended, but its end could not be recorded: The "
                                  "progress file"), message
        assert "missing from index" in message
    finally:
        window.close()
        store.close()


def test_an_exam_begun_during_the_check_stops_writing_when_it_finds_damage(
        tmp_path, held, watchdog):  # noqa: F811
    """The exam's writes go on while the check runs; once it has found the file damaged they
    are refused (DamagedDatabaseError, one line), as every other write is."""
    from tests.support.exams import form
    from trainer.exams import add_form, installation_key, start_exam

    db = tmp_path / "progress.db"
    key = installation_key(tmp_path / "installation.key")
    exam = form()
    with Store.open(db) as store:
        ana = store.add_trainee("Ana")
        add_form(store, exam)
    damage_an_index(db)
    store = Store.open(db, full_check=False)
    try:
        store.start_check()
        session = start_exam(store, exam.uid, ana, key)
        assert not watchdog and store.checking
        held.set()
        store.wait_for_check(30)
        assert store.damaged
        with pytest.raises(DamagedDatabaseError, match="missing from index"):
            session.abandon()
    finally:
        store.close()


def test_what_waits_for_the_check_runs_once_it_passes_and_never_on_damage(tmp_path, held):  # noqa: F811
    sound, damaged = tmp_path / "sound.db", tmp_path / "damaged.db"
    for path in (sound, damaged):
        with Store.open(path) as store:
            store.add_trainee("Ana")
    damage_an_index(damaged)
    ran: list[str] = []
    with Store.open(sound, full_check=False) as store:
        store.after_check(lambda: ran.append("no check running: at once"))
        store.start_check()
        store.after_check(lambda: ran.append("after the check"))
        assert store.check_finished() == 0 and ran == ["no check running: at once"]
        held.set()
        store.wait_for_check(30)
        store.check_finished()
        assert ran == ["no check running: at once", "after the check"]
    ran.clear()
    with Store.open(damaged, full_check=False) as store:
        store.start_check()
        store.after_check(lambda: ran.append("on a damaged file"))
        store.wait_for_check(30)
        store.check_finished()
        store.after_check(lambda: ran.append("after the damage was found"))
        assert store.damaged and ran == []


def test_a_new_profile_is_made_while_the_check_runs(qtbot, tmp_path, monkeypatch, held,  # noqa: F811
                                                    watchdog):
    """The trainee dialog comes before the window: a trainee added there is not held behind
    the check."""
    from ui.qt import QInputDialog
    from ui.shell.profiles import ProfileDialog

    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        store.add_trainee("Ana")
    with Store.open(db, full_check=False) as store:
        store.start_check()
        dialog = ProfileDialog(store)
        qtbot.addWidget(dialog)
        monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Ben", True)))
        dialog.add_trainee()  # New trainee…, "Ben" typed
        assert not watchdog and store.checking
        assert dialog.list.currentItem().text() == "Ben"
        held.set()
