"""Damaged progress files: a file damaged where only a read-write
check looked (a log that is not JSON, a text that is not UTF-8, a schema that names no column,
a file cut short) is refused and left exactly as it is, without a new -shm beside it; a file the
background check finds damaged is not written when it closes; a row damaged after the check is
left out and named by every reader, never a traceback; a kill during the very first start leaves
no file or a whole one. And 120 bit flips in a realistic file: each refused untouched or opened
with every reader running."""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support import killed
from tests.support.damage import (
    T0,
    beside,
    copy,
    damage_rows,
    everything,
    flip,
    flip_at,
    realistic_file,
    with_wal,
)
from tests.support.progress import rec
from trainer.progress import Store, StoreError
from trainer.progress.errors import DamagedDatabaseError, ForeignDatabaseError, NewerDatabaseError

ROOT = Path(__file__).resolve().parents[1]
REFUSED = (DamagedDatabaseError, ForeignDatabaseError, NewerDatabaseError)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The realistic file, made once: (the file, the same with its last attempts in a -wal)."""
    folder = tmp_path_factory.mktemp("made")
    base = folder / "base.db"
    realistic_file(base, folder / "installation.key")
    walled = folder / "walled.db"
    with_wal(base, walled)
    return base, walled


def marked_file(path: Path, *, wal: bool = False) -> Path:
    """A file with one attempt whose log and source hold markers to damage; with `wal`, a later
    attempt left in a -wal, as a crash leaves it."""
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
        store.record_attempt(rec(ana, 1, source="MARKED-SOURCE",
                                 log=({"do": "pay", "round": 1, "at": 2.5, "amount": 4321},)))
    if wal:
        leftover(path)
    return path


def leftover(path: Path, statement: str = "INSERT INTO trainees (name, created) VALUES ('Late', 0)") -> None:
    """A write (a trainee added) that stays in the -wal: the file and its -wal as a crash leaves
    them."""
    live = path.with_name("live-" + path.name)
    copy(path, live)
    writer = sqlite3.connect(live)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute(statement)
    writer.commit()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{live}{suffix}", f"{path}{suffix}")
    writer.close()
    for p in path.parent.glob(live.name + "*"):
        p.unlink()
    assert Path(f"{path}-wal").stat().st_size > 0


def refused_untouched(path: Path, error=DamagedDatabaseError, match: str = "") -> None:
    """Store.open refuses the file, and the file, its -wal and what is beside it are as they
    were: no -shm, no byte written."""
    before = beside(path)
    with pytest.raises(error, match=match):
        Store.open(path)
    assert beside(path) == before


# --- item 2: the check checks what a read-write check checks -------------------------------------


def test_a_log_that_is_not_json_is_refused_untouched(tmp_path):
    """Before: on a read-only connection SQLite skips CHECK constraints, so a flipped bit that
    made a log invalid JSON (`:` to `;`) passed the check, and the file was opened and written."""
    path = marked_file(tmp_path / "p.db")
    flip_at(path, b'"amount":4321', 8, 0)  # ':' (0x3a) -> ';' (0x3b)
    refused_untouched(path, match=r"CHECK constraint failed in attempts \(row 1\)")


def test_a_log_that_is_not_json_is_refused_untouched_beside_a_leftover_wal(tmp_path):
    path = marked_file(tmp_path / "p.db")
    flip_at(path, b'"amount":4321', 8, 0)
    leftover(path)
    refused_untouched(path, match=r"CHECK constraint failed in attempts \(row 1\)")


def test_the_background_check_finds_a_log_that_is_not_json(tmp_path):
    path = marked_file(tmp_path / "p.db")
    flip_at(path, b'"amount":4321', 8, 0)
    before = path.read_bytes()
    store = Store.open(path, full_check=False)  # the app's way: the cheap checks cannot see it
    store.start_check()
    problems = store.wait_for_check(60)
    assert store.damaged and problems == ["CHECK constraint failed in attempts (row 1)"]
    with pytest.raises(DamagedDatabaseError):
        store.record_attempt(rec(1, 2))
    store.close()
    assert path.read_bytes() == before


def test_a_text_that_is_not_utf8_is_refused_untouched(tmp_path):
    """SQLite keeps any bytes as text; a flipped high bit makes a text Python cannot read, and
    every query that reached the row failed."""
    path = marked_file(tmp_path / "p.db")
    flip_at(path, b"MARKED-SOURCE", 2, 7)  # 'R' -> 0xd2, a lead byte with no continuation
    refused_untouched(path, match=r"a text that is not UTF-8 in attempts \(row 1\)")


def test_a_schema_whose_check_names_no_column_is_refused_untouched(tmp_path):
    """A flipped bit in a CHECK constraint's column name: a read-only connection never reads the
    constraint, the read-write one refused the schema, and closing it merged the -wal."""
    path = marked_file(tmp_path / "p.db", wal=True)
    flip_at(path, b"CHECK (duration >= 0)", 8, 0)  # duration -> dtration
    refused_untouched(path, match=r"malformed database schema \(attempts\) - no such column")


def test_a_column_renamed_by_a_flipped_bit_is_refused_untouched(made, tmp_path):
    """A flipped bit in the schema's text renamed a column that no constraint or index names:
    every check passed, and every reader of exam results failed on the missing column."""
    path = tmp_path / "p.db"
    copy(made[0], path)
    flip_at(path, b"form_name TEXT NOT NULL", 5, 0)  # form_name -> form_oame
    refused_untouched(path, match="the table exam_results is not as its migrations make it")
    with pytest.raises(DamagedDatabaseError):  # the app's open, the cheap checks only
        Store.open(path, full_check=False)


@pytest.mark.parametrize(("marker", "offset", "bit", "says"), [
    (b"draw ON exam_forms", 13, 7, "not UTF-8"),  # a trigger's table named with a byte not UTF-8
    (b"CHECK (draw >= 0)", 14, 2, "malformed database schema"),  # "draw >=$0": a parameter
])
def test_a_schema_text_no_reader_can_take_is_refused_untouched(made, tmp_path, marker, offset, bit, says):
    """Flipped bits in the schema's text that made Python's sqlite3 raise what no reader caught:
    a UnicodeDecodeError (SQLite's message quoted the name), a ProgrammingError (the check's query
    met a parameter)."""
    path = tmp_path / "p.db"
    copy(made[0], path)
    flip_at(path, marker, offset, bit)
    refused_untouched(path, match=says)
    with pytest.raises(DamagedDatabaseError):  # the app's open, the cheap checks only
        Store.open(path, full_check=False)


def test_a_file_cut_by_its_last_byte_is_refused_untouched(tmp_path):
    """Reading pads a page cut short with zeros, so SQLite never noticed: the file opened and
    was written."""
    path = marked_file(tmp_path / "p.db")
    path.write_bytes(path.read_bytes()[:-1])
    refused_untouched(path, match="it was cut short: .* not a whole number of its 4,096-byte pages")


def test_check_constraints_are_read_from_the_create_statement_whole():
    from trainer.progress.integrity import check_constraints

    sql = """CREATE TABLE "t(check" (
        a TEXT CHECK (a IN ('x)', 'check (', ')))')),  -- CHECK (not this)
        b INTEGER CONSTRAINT positive CHECK(b > (0 + 0)) /* CHECK (nor this) */,
        "check" TEXT, [CHECK] INT,
        CHECK ((a = 'x)') = (b IS NULL)))"""
    assert check_constraints(sql) == ["a IN ('x)', 'check (', ')))')", "b > (0 + 0)",
                                      "(a = 'x)') = (b IS NULL)"]


# --- item 2: a row damaged after the check is left out and named ---------------------------------


def damaged_store(made, tmp_path) -> tuple[Store, dict[str, int]]:
    """The realistic file with rows damaged after it was checked, opened as the app opens it
    (the cheap checks only; the full check would refuse it)."""
    path = tmp_path / "p.db"
    copy(made[0], path)
    ids = damage_rows(path)
    return Store.open(path, full_check=False), ids


def test_every_reader_leaves_a_damaged_row_out_and_names_it(made, tmp_path):
    """Before: results export, the exam results list, a trainee's attempts raised an uncaught
    JSONDecodeError (or a ValueError) on one damaged row."""
    from trainer.exams import certificate_for, certificates, list_forms, results
    from trainer.progress import class_overview, export_results

    store, ids = damaged_store(made, tmp_path)
    with Store.open(made[0]) as sound:
        attempts, exam_results = len(sound.attempts()), len(results(sound))
        forms, ana = len(list_forms(sound)), sound.find_trainee("Ana Ruiz")
        ana_result = results(sound, trainee_id=ana.id)[0]
    assert len(store.attempts()) == attempts  # the two damaged ones left out
    assert export_results(store, io.StringIO()) == attempts
    assert [r.trainee_name for r in results(store)] == ["Ana Ruiz", "Ben Cole"]
    assert len(results(store)) == exam_results - 1
    assert len(list_forms(store)) == forms
    assert certificates(store) == [] and certificate_for(store, ana_result.uid) is None
    class_overview(store, now=T0)
    named = {what: str(e) for what, e in store.unreadable.items()}
    assert set(named) == {f"attempt {ids['attempt not json']}", f"attempt {ids['attempt no actions']}",
                          f"exam result {ids['exam result']}", f"certificate {ids['certificate']}"}
    said = named[f"attempt {ids['attempt not json']}"]
    assert said.startswith(f"Attempt {ids['attempt not json']} in the progress file {store.path} is damaged")
    assert "log: not JSON" in said and "\n" not in said
    assert "log[0]: not a logged action" in named[f"attempt {ids['attempt no actions']}"]
    assert "its answer to part 3: findings: not JSON" in named[f"exam result {ids['exam result']}"]
    store.close()


def test_the_screens_leave_a_damaged_row_out_and_name_it(qtbot, made, tmp_path, monkeypatch):
    """Results export, the exam results list and Open trainee in the class view, on a file with
    damaged rows: what can be read is shown, each damaged row is named, nothing raises."""
    from tests.support.screens import on_class_tab
    from trainer.exams import installation_key
    from ui.qt import QFileDialog, Qt
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    store, ids = damaged_store(made, tmp_path)
    key = installation_key(made[0].parent / "installation.key")
    services = Services(store, store.find_trainee("Ivy"), key=key)
    said: list[str] = []  # what the status bar is told
    services.status.connect(said.append)
    window = MainWindow(services)
    services.window = window
    qtbot.addWidget(window)
    window.show()
    out = tmp_path / "results.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    window.export("results")
    shown = window.statusBar().currentMessage()
    assert shown.startswith(f"{len(store.attempts())} attempts written to {out}")
    assert shown.endswith(f"2 left out, damaged in the progress file and left as they are: attempt "
                          f"{ids['attempt not json']}, attempt {ids['attempt no actions']}")
    exam = window.show_screen("exam")
    exam.refresh()
    listed = [exam.results.item(r, 0).text() for r in range(exam.results.rowCount())]
    assert sorted(listed) == ["Ana Ruiz", "Ben Cole"]
    page = on_class_tab(window)
    klass = page.klass
    names = [klass.model.headerData(r, Qt.Orientation.Vertical) for r in range(klass.model.rowCount())]
    klass.open_trainee(names.index("Ana Ruiz"))
    hidden = klass.dialog.hidden.text()
    assert hidden.startswith(f"2 attempts not listed: attempt {ids['attempt not json']}: damaged in the "
                             "progress file, left as it is (log: not JSON")
    assert f"; attempt {ids['attempt no actions']}: damaged in the progress file" in hidden
    assert klass.dialog.table.rowCount() > 0
    klass.dialog.close()
    assert said[-1].startswith("4 records of the progress file are damaged and cannot be read")
    for what in (f"attempt {ids['attempt not json']}", f"attempt {ids['attempt no actions']}",
                 f"exam result {ids['exam result']}", f"certificate {ids['certificate']}"):
        assert what in said[-1]
    window.close()
    store.close()


def test_export_results_names_what_it_left_out(made, tmp_path):
    from tests.support.command import run_command

    path = tmp_path / "p.db"
    copy(made[0], path)
    ids = damage_rows(path, unseen_only=True)  # a log of JSON, but not of actions: the check passes
    out = tmp_path / "xapi.json"
    r = run_command("export-results", str(path), "--format", "xapi", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert f"attempt {ids['attempt no actions']} in the progress file" in r.stderr.lower()
    assert "log[0]: not a logged action" in r.stderr
    assert out.exists()


# --- item 6: a file refused or found damaged is never written -------------------------------------


@pytest.mark.parametrize("through", ["its name", "a symbolic link"])
def test_a_refused_file_with_a_leftover_wal_gets_no_shm(tmp_path, through):
    """Before: the read-only check made a -shm beside a file it then refused. (Through a
    link, SQLite reads the -wal beside the file the link names.)"""
    path = marked_file(tmp_path / "p.db")
    # a newer app's file, its last step in the -wal a crash left
    leftover(path, "INSERT INTO _migrations (name, applied_at) VALUES ('m999_from_the_future', 0)")
    before = beside(path)
    opened = path
    if through == "a symbolic link":
        opened = tmp_path / "link" / "progress.db"
        opened.parent.mkdir()
        opened.symlink_to(path)
    with pytest.raises(NewerDatabaseError, match="m999_from_the_future"):
        Store.open(opened)
    assert beside(path) == before
    if opened != path:
        assert [p.name for p in opened.parent.iterdir()] == [opened.name]  # nothing beside the link


def test_a_file_the_background_check_finds_damaged_is_not_written_at_close(tmp_path):
    """Before: the file was declared damaged, and closing the store checkpointed its -wal
    into it. Here an index whose entries are not its table's rows (the cheap checks pass it), and
    the -wal a crash left."""
    from tests.test_progress_check import damage_an_index

    path = marked_file(tmp_path / "p.db")
    damage_an_index(path)
    leftover(path)
    before = beside(path)  # the file and its -wal
    store = Store.open(path, full_check=False)
    store.start_check()
    store.wait_for_check(60)
    assert store.damaged
    assert store.check_finished() == 0
    assert [a.item_id for a in store.attempts()] == ["props-and-hops/01"]  # reading goes on
    late = rec(1, 7)
    with pytest.raises(DamagedDatabaseError):
        store.record_attempt(late)
    assert late.uid in Path(store.waiting_file).read_text()  # kept beside the file, on the disk
    store.close()
    after = beside(path)
    assert {name: after.get(name) for name in before} == before  # (a -shm the store made aside)


# --- item 7: the first start, killed -----------------------------------------------------------

CHILD = textwrap.dedent("""
    import os, signal, sys
    path, kill_at = sys.argv[1], int(sys.argv[2])
    from trainer.progress import Store
    from trainer.progress import opening, schema, store
    FILES = {opening.__file__, schema.__file__, store.__file__}
    seen = 0

    def trace(frame, event, arg):  # killed at the kill_at-th line the store runs
        global seen
        if frame.f_code.co_filename not in FILES:
            return None
        if event == "line":
            seen += 1
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
        return trace

    sys.settrace(trace)
    Store.open(path).close()
    sys.settrace(None)
    print(seen)
""")


def first_start(path: Path, kill_at: int) -> subprocess.CompletedProcess:
    return killed.run(CHILD, str(path), str(kill_at))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_kill_during_the_first_start_leaves_no_file_or_a_whole_one(tmp_path):
    """Before: a kill between making the file and writing its schema left a 0-byte file,
    which every later start refused as not a progress file. Each run here is killed at another
    of the lines the first start runs, spread over all of them."""
    whole = first_start(tmp_path / "whole.db", 0)
    assert whole.returncode == 0, whole.stderr
    lines = int(whole.stdout)
    kills = 24
    for k in range(kills):
        path = tmp_path / f"p{k}" / "progress.db"
        path.parent.mkdir()
        killed = first_start(path, 1 + k * lines // kills)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert not path.exists() or path.stat().st_size > 0
        with Store.open(path) as store:  # the next start opens it (or makes it)
            store.add_trainee("Ana")
            assert store.integrity_check() == ["ok"]


# --- what a kill leaves beside the file ---------------------------------------------------------

LEFTOVER_CHILD = textwrap.dedent("""
    import contextlib, os, signal, sys
    path, kill_at = sys.argv[1], int(sys.argv[2])
    from trainer.progress import Store
    from trainer.progress import integrity, leftovers, opening, schema, store
    FILES = {integrity.__file__, leftovers.__file__, opening.__file__, schema.__file__, store.__file__}
    seen, making = 0, False
    held = leftovers.held

    @contextlib.contextmanager
    def watched(leftover):  # the lines run while a leftover is on its way, there, or going
        global making
        making = True
        try:
            with held(leftover):
                yield
        finally:
            making = False

    leftovers.held = watched

    def trace(frame, event, arg):  # killed at the kill_at-th of those lines
        global seen
        if frame.f_code.co_filename not in FILES:
            return None
        if event == "line" and making:
            seen += 1
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
        return trace

    sys.settrace(trace)
    Store.open(path).close()
    sys.settrace(None)
    print(seen)
""")


def started(path: Path, kill_at: int) -> subprocess.CompletedProcess:
    return killed.run(LEFTOVER_CHILD, str(path), str(kill_at))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("start", ["the first start", "a start after a crash"])
def test_what_a_killed_start_leaves_beside_the_file_the_next_start_removes(tmp_path, start):
    """Before: a kill while a new file was made (`.NAME.<hex>.new`) or while a file with a crash's
    -wal was checked through links (`.NAME.check-<hex>/`) left them beside the file for good.
    Each run here is killed at another line of those steps, spread over all of them; the next
    start leaves nothing beside the file, and loses nothing of it."""
    def made(folder: Path) -> Path:
        path = folder / "p.db"
        if start == "a start after a crash":
            marked_file(path, wal=True)  # an attempt, and a trainee in the -wal a crash left
        return path

    whole = started(made(tmp_path / "whole"), 0)
    assert whole.returncode == 0, whole.stderr
    lines, kills, left = int(whole.stdout), 10, 0
    for k in range(kills):
        path = made(tmp_path / f"k{k}")
        killed = started(path, 1 + k * lines // kills)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        left += any(p.name.startswith(".p.db.") for p in path.parent.iterdir())
        with Store.open(path) as store:  # the next start
            if start == "a start after a crash":
                assert [a.item_id for a in store.attempts()] == ["props-and-hops/01"]
                assert [t.name for t in store.trainees()] == ["Ana", "Late"]
        assert sorted(p.name for p in path.parent.iterdir()) == ["p.db"], k
    assert left >= kills // 2  # the kills did leave something to remove


def test_leftovers_held_by_a_live_start_or_not_ours_are_left_alone(tmp_path):
    """Only a leftover no live process holds is removed, of the two names the store makes; a
    name of another pattern, a link, a folder holding a file of someone else's stay."""
    from filelock import FileLock

    path = marked_file(tmp_path / "p.db")
    live = tmp_path / ".p.db.0123456789ab.new"
    live.write_bytes(b"a start under way")
    holder = FileLock(f"{live}.lock", timeout=0)
    holder.acquire()  # the start making it holds its lock
    stale = tmp_path / ".p.db.fedcba987654.new"
    stale.write_bytes(b"a start killed")
    Path(f"{stale}-journal").write_bytes(b"")
    theirs = {".p.db.notes.new": b"not ours", ".p.db.check-01234567": None, ".p.db.check-89abcdef": "link",
              ".p.db.0123456789ab.newer": b"another pattern", ".q.db.fedcba987654.new": b"another file's"}
    for name, what in theirs.items():
        if what is None:
            (tmp_path / name).mkdir()
            (tmp_path / name / "notes.txt").write_bytes(b"someone's")
        elif what == "link":
            (tmp_path / name).symlink_to(tmp_path / ".p.db.check-01234567")
        else:
            (tmp_path / name).write_bytes(what)
    try:
        Store.open(path).close()
        assert live.read_bytes() == b"a start under way"
        assert not any(Path(f"{stale}{end}").exists() for end in ("", "-journal", ".lock"))
        for name in theirs:
            assert (tmp_path / name).exists() or (tmp_path / name).is_symlink(), name
        assert (tmp_path / ".p.db.check-01234567" / "notes.txt").read_bytes() == b"someone's"
    finally:
        holder.release()
    Store.open(path).close()  # its start gone: the next removes it
    assert not live.exists() and not Path(f"{live}.lock").exists()


# --- the damage run -------------------------------------------------------------------------------


def test_120_bit_flips_each_refused_untouched_or_opened_with_every_reader_running(made, tmp_path):
    """One bit flipped at a seeded random place of the realistic file (half of them beside the
    -wal a crash left): each copy is refused with the file, its -wal and its folder as they were
    (no -shm), or it opens and every reader runs over it without an exception, a row that cannot
    be read named. A copy refused is also opened as the app opens it (the cheap checks, then the
    full check in the background): refused, or found damaged and left as it was when closed."""
    rng = random.Random(29)
    outcome = {"refused": 0, "opened": 0, "rows named": 0}
    for k in range(120):
        path = tmp_path / f"f{k}" / "p.db"
        path.parent.mkdir()
        copy(made[k % 2], path)
        at, bit = flip(path, rng)
        before = beside(path)
        try:
            store = Store.open(path)
        except REFUSED:
            assert beside(path) == before, (k, at, bit)
            outcome["refused"] += 1
            try:
                store = Store.open(path, full_check=False)
            except REFUSED:
                assert beside(path) == before, (k, at, bit)
                continue
            store.start_check()
            store.wait_for_check(60)
            assert store.damaged, (k, at, bit)
            try:
                everything(store)  # reading goes on, or says in one line why it cannot
            except StoreError as e:
                assert "\n" not in str(e), (k, at, bit)
            store.close()
            after = beside(path)
            assert {name: after.get(name) for name in before} == before, (k, at, bit)
            continue
        with store:
            assert everything(store) > 0, (k, at, bit)
            outcome["opened"] += 1
            outcome["rows named"] += bool(store.unreadable)
    print(outcome)
    assert outcome["refused"] + outcome["opened"] == 120


# --- item 3: attempts that wait for the check survive a crash ----------------------------------------

WAITER = textwrap.dedent("""
    import sys, threading
    from tests.support.progress import rec
    from trainer.progress import Store
    from trainer.progress.background import BackgroundCheck

    # the check of a large file takes seconds (8 to 17 at a million attempts): here it never ends
    BackgroundCheck._run = lambda self: threading.Event().wait()
    store = Store.open(sys.argv[1], full_check=False)
    store.start_check()
    trainee, n = int(sys.argv[2]), 0
    while True:
        record = rec(trainee, n)
        assert store.record_attempt(record) is None  # it waits for the check
        print(record.uid, flush=True)
        n += 1
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_attempts_waiting_for_the_check_survive_a_kill(tmp_path):
    """Before: while the check runs, results wait in memory only, and a kill lost them all.
    Each session here is killed while its check still runs; the next session's check saves what
    every one of them acknowledged, once each. A journal line the kill cut is named."""
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
    acknowledged: list[str] = []
    for waited in (1, 6, 23):
        proc = subprocess.Popen([sys.executable, "-c", WAITER, str(path), str(ana)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        for _ in range(waited):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            acknowledged.append(line.strip())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        acknowledged += [line.strip() for line in proc.stdout.read().splitlines()]  # before the kill
        proc.stdout.close()
        proc.stderr.close()
    with Store.open(path) as store:
        assert store.attempts() == []  # nothing was written to the file meanwhile
    journals = sorted(tmp_path.glob(".p.db.waiting-*.jsonl"))
    assert len(journals) == 3
    with open(journals[0], "a", encoding="utf-8") as out:
        out.write('{"trainee_id": 1, "item_id": "props-and')  # as a kill mid-line leaves it
    store = Store.open(path, full_check=False)
    store.start_check()
    assert store.wait_for_check(60) == ["ok"]
    assert store.check_finished() >= len(acknowledged)
    uids = [a.uid for a in store.attempts()]
    assert set(acknowledged) <= set(uids) and len(uids) == len(set(uids))
    assert len(uids) - len(acknowledged) <= 3  # at most one kept but not yet printed per kill
    named = list(store.unreadable)  # the line cut here (and any a kill cut), by line and journal
    assert all(w.startswith("line ") for w in named) and any(w.endswith(journals[0].name) for w in named)
    store.close()
    assert not list(tmp_path.glob(".p.db.waiting-*"))  # saved: the journals and their locks are gone


def test_a_running_sessions_journal_is_not_taken_by_another(tmp_path, monkeypatch):
    import threading

    from trainer.progress.background import BackgroundCheck

    path = tmp_path / "p.db"
    with Store.open(path) as store:
        ana = store.add_trainee("Ana")
    go = threading.Event()
    run = BackgroundCheck._run
    monkeypatch.setattr(BackgroundCheck, "_run", lambda self: (go.wait(30), run(self)))
    first = Store.open(path, full_check=False)
    first.start_check()
    assert first.record_attempt(rec(ana, 1)) is None
    second = Store.open(path, full_check=False)
    second.start_check()  # the first session's journal is locked: not read back here
    assert second.pending == []
    go.set()
    assert second.wait_for_check(30) == ["ok"] and first.wait_for_check(30) == ["ok"]
    assert first.check_finished() == 1 and second.check_finished() == 0
    assert [a.item_id for a in second.attempts()] == ["props-and-hops/01"]
    first.close()
    second.close()
    assert not list(tmp_path.glob(".p.db.waiting-*"))
