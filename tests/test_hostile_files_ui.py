"""Hostile files handed to the app's imports, through the real widgets: File › Import results
files…, the instructor's Import form…, the form builder's Add from file… and the Exam screen's
sitting file, each given a file that raised an uncaught exception before (a huge negative
amount, a lone surrogate, a list where a key goes, a code check outside ASCII). Each now says
in one line which file and what is wrong, and the files beside it are still imported. A results
import runs off the window's thread, shows its progress and can be stopped before anything is
added."""

from __future__ import annotations

import json
import threading

import pytest

from tests.support.hostile_seeds import form_file, results_file
from tests.support.screens import PASSPHRASE, answer, window
from trainer.exams import installation_key
from trainer.progress import Store


@pytest.fixture
def desk(tmp_path):
    """An instructor's workstation: a progress file, an instructor and a trainee."""
    store = Store.open(tmp_path / "desk.db")
    lee = store.add_trainee("Lee Park", instructor=True, passphrase=PASSPHRASE)
    store.add_trainee("Rosa Diaz")
    yield store, installation_key(tmp_path / "installation.key"), lee
    store.close()


@pytest.fixture(scope="module")
def results_doc(tmp_path_factory):
    return results_file(tmp_path_factory.mktemp("station") / "station.sqlite")


def written(path, doc) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")  # a lone surrogate as its escape, \ud800
    return str(path)


def import_through_the_menu(qtbot, w, monkeypatch, paths: list[str]) -> list[str]:
    """File › Import results files… with `paths` chosen; the message the user reads at the end."""
    from ui.qt import QAction, QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: (paths, "")))
    seen: list[str] = []
    answer({"button": "OK"}, seen=seen)
    action = next(a for a in w.findChildren(QAction) if a.text() == "Import results files…")
    action.trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=60_000)
    return seen


def test_each_results_file_is_imported_or_refused_in_one_line_naming_the_problem(
        qtbot, desk, tmp_path, results_doc, monkeypatch):
    store, key, lee = desk
    surrogate = json.loads(json.dumps(results_doc))
    surrogate["attempts"][0]["source"] = "\ud800"
    swapped = json.loads(json.dumps(results_doc))
    swapped["attempts"][1]["trainee"] = [1]  # a list where the trainee's key goes
    uid = json.loads(json.dumps(results_doc))
    uid["attempts"][2]["uid"] = "a\udc80b"
    paths = [written(tmp_path / "surrogate.json", surrogate), written(tmp_path / "swapped.json", swapped),
             written(tmp_path / "uid.json", uid), written(tmp_path / "good.json", results_doc)]
    w = window(qtbot, store, key, lee)
    [message] = import_through_the_menu(qtbot, w, monkeypatch, paths)
    lines = message.splitlines()
    assert len(lines) == 4, message
    assert lines[0].startswith(f"{paths[0]}: not imported — attempts[0].source: ")
    assert "lone surrogate" in lines[0]
    assert lines[1] == f"{paths[1]}: not imported — attempts[1].trainee: [1] is not a key in trainees"
    assert lines[2].startswith(f"{paths[2]}: not imported — attempts[2].uid: ")
    n = len(results_doc["attempts"])
    assert lines[3].startswith(f"{paths[3]}: {n} attempts added, 0 already here")
    assert len(store.attempts()) == n
    w.close()


def test_a_results_file_that_is_a_pipe_or_names_a_key_twice_is_refused_in_one_line(
        qtbot, desk, tmp_path, results_doc, monkeypatch):
    """A named pipe chosen in File › Import results files… kept the import waiting for ever (the
    second cold review's #43), and a file naming its "attempts" twice was read as whichever json
    kept (#42); each is now refused by name and the file beside them imported."""
    import os

    store, key, lee = desk
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    text = json.dumps(results_doc)
    (tmp_path / "twice.json").write_text(text.replace("{", '{"attempts": [], ', 1), encoding="utf-8")
    paths = [str(fifo), str(tmp_path / "twice.json"), written(tmp_path / "good.json", results_doc)]
    w = window(qtbot, store, key, lee)
    lines = import_through_the_menu(qtbot, w, monkeypatch, paths)[0].splitlines()
    assert lines[:2] == [f"{paths[0]}: not imported — not a regular file (a named pipe), which no "
                         "results file is",
                         f'{paths[1]}: not imported — not a results file (the key "attempts" '
                         "appears twice in one object)"], lines
    assert lines[2].startswith(f"{paths[2]}: {len(results_doc['attempts'])} attempts added")
    w.close()


def test_a_results_import_runs_beside_the_window_shows_its_progress_and_can_be_stopped(
        qtbot, desk, tmp_path, results_doc, monkeypatch):
    """The thread that reads the file is held at its first report of progress: meanwhile the
    window's own thread goes on (a timer of the window fires), the dialog counts the attempts,
    and Stop ends the import with nothing added."""
    import ui.shell.importing
    from ui.qt import QFileDialog, QPushButton, QTimer

    store, key, lee = desk
    many = json.loads(json.dumps(results_doc))
    many["attempts"] = [{**a, "uid": f"{k:032x}"} for k, a in enumerate(results_doc["attempts"] * 40)]
    path = written(tmp_path / "class.json", many)
    reported, release = threading.Event(), threading.Event()
    real = ui.shell.importing._Job.progress

    def held(job, done, total):
        job.done, job.total = done, total
        reported.set()
        release.wait(60)
        return real(job, done, total)

    monkeypatch.setattr(ui.shell.importing._Job, "progress", held)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: ([path], "")))
    w = window(qtbot, store, key, lee)
    seen: list[str] = []
    try:
        w.import_results()
        assert w.importing.running
        assert reported.wait(60), "the file is read in a thread of its own"
        ticks = []
        timer = QTimer(w)
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start(10)
        qtbot.waitUntil(lambda: len(ticks) >= 3, timeout=10_000)  # the window's thread is free
        timer.stop()
        dialog = w.importing.dialog
        qtbot.waitUntil(lambda: dialog.maximum() == len(many["attempts"]), timeout=10_000)
        assert f"0 of {len(many['attempts']):,} attempts" in dialog.labelText()
        answer({"button": "OK"}, seen=seen)
        [stop] = [b for b in dialog.findChildren(QPushButton) if b.text() == "Stop"]
        stop.click()
    finally:
        release.set()
    with qtbot.waitSignal(w.importing.finished, timeout=60_000):
        pass
    assert seen == [f"{path}: not imported — the import was stopped; nothing was added"]
    assert store.attempts() == []
    w.close()


def test_a_form_file_the_engine_refuses_is_named_in_one_line(qtbot, desk, tmp_path, monkeypatch):
    """An exam form whose item holds a wager of -1e999999 dollars, and one whose id is a lone
    surrogate: each raised out of Import form… before (decimal.Overflow, UnicodeEncodeError)."""
    from ui.qt import QFileDialog

    store, key, lee = desk
    huge = form_file()
    huge["items"][0]["toml"] = huge["items"][0]["toml"].replace('amount = "10"', 'amount = "-1e999999"', 1)
    assert "-1e999999" in huge["items"][0]["toml"]
    surrogate = {**form_file(), "uid": "\ud800"}
    w = window(qtbot, store, key, lee)
    page = w.show_screen("exam")
    line = huge["items"][0]["toml"].splitlines().index('amount = "-1e999999"') + 1
    for name, doc, said in (("huge.json", huge, f'items[0] (ph-first-shake):{line}: bad amount: '
                                                '"-1e999999" is not a positive amount'),
                            ("surrogate.json", surrogate, "uid: a lone surrogate at character 1")):
        path = written(tmp_path / name, doc)
        seen: list[str] = []
        monkeypatch.setattr(QFileDialog, "getOpenFileName",
                            staticmethod(lambda *a, path=path, **k: (path, "")))
        answer({"button": "OK"}, seen=seen)
        page.import_form()
        assert len(seen) == 1 and seen[0].startswith(f"{path}: ") and said in seen[0], seen
        assert "\n" not in seen[0]
    assert [f for f in store.query("SELECT uid FROM exam_forms")] == []
    w.close()


def test_a_scenario_file_the_engine_refuses_is_named_in_the_form_builder(qtbot, tmp_path):
    from trainer import load_library
    from ui.exams.forms import FormBuilder

    text = load_library().by_id("ph-first-shake").text
    bad = tmp_path / "huge.toml"
    bad.write_text(text.replace('amount = "10"', 'amount = "-1e999999"', 1), encoding="utf-8")
    good = tmp_path / "good.toml"
    good.write_text(text, encoding="utf-8")
    builder = FormBuilder({}, "Lee Park")
    qtbot.addWidget(builder)
    builder.add_from_file(str(bad))
    line = text.splitlines().index('amount = "10"') + 1
    assert builder.message.text() == f'{bad}:{line}: bad amount: "-1e999999" is not a positive amount'
    assert builder.list.count() == 0
    builder.add_from_file(str(good))
    assert builder.list.count() == 1 and builder.message.text() == ""


def test_a_sitting_file_whose_code_check_is_not_ascii_is_refused_in_one_line(qtbot, desk, tmp_path):
    """A sitting file asking for its start code, whose token's code check holds a letter outside
    ASCII: comparing the code with it raised TypeError out of the Exam screen's Open."""
    from tests.support.hostile_seeds import sitting_files

    store, key, _ = desk
    files, _ = sitting_files(tmp_path)
    doc, code = next((d, c) for d, c in files if "form" in d)  # the one not sealed
    doc["sitting"]["code_check"] = "é" * 16
    path = written(tmp_path / "odd.sitting", doc)
    rosa = store.find_trainee("Rosa Diaz").id
    w = window(qtbot, store, key, rosa)
    page = w.show_screen("exam")
    seen: list[str] = []
    answer({"button": "OK"}, seen=seen)
    assert page.certification.sit(path, code=code) is False
    assert seen == [f"{path}: the start code is not right"]
    w.close()


def test_the_apps_certify_refuses_a_submission_naming_a_key_twice_or_a_pipe(qtbot, desk, tmp_path):
    """Exam › Certify a submission…: a submission naming its "results" twice was read as
    whichever list json kept (#42), and a named pipe held the window for ever (#43); each is
    now one line naming the file and why, and nothing is certified."""
    import os

    from tests.support.exams import PASS
    from tests.support.hostile_seeds import submission
    from trainer.exams.keys import write_private_key

    store, key, lee = desk
    doc, ivy, _, _, _ = submission(tmp_path)
    write_private_key(tmp_path / "ivy.key", ivy, PASS)
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(doc).replace("{", '{"results": [], ', 1), encoding="utf-8")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    w = window(qtbot, store, key, lee)
    page = w.show_screen("exam")
    for path, said in ((twice, 'not an exam submission (the key "results" appears twice in one '
                               'object)'),
                       (fifo, "not a regular file (a named pipe), which no exam submission is")):
        seen: list[str] = []
        answer({"button": "OK"}, seen=seen)
        assert page.certification.certify(str(path), out=str(tmp_path / "c.json"),
                                          key_path=str(tmp_path / "ivy.key"), passphrase=PASS) is None
        assert seen == [f"{path}: {said}"], seen
    assert not (tmp_path / "c.json").exists()
    w.close()
