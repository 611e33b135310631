"""A certification exam from end to end, through the real widgets: an instructor builds the form,
a trainee fails it, retakes and passes it, the supervisor signs it off, the report is printed,
the results move to another machine, and an edit made outside the app is flagged."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.test_practice_ui import work
from trainer.exams import add_bundled_forms, get_result, installation_key, results
from trainer.progress import Store

PASSPHRASE = "correct horse battery"


def click_later(label: str, *, text: str | None = None, item: str | None = None):
    """Answer the next modal dialog: a message box (click a button), or an input dialog (type
    `text` or choose `item`, then OK)."""
    from ui.qt import QApplication, QInputDialog, QMessageBox, QTimer

    def act():
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            next(b for b in box.buttons() if b.text().replace("&", "") == label).click()
        elif isinstance(box, QInputDialog):
            if item is not None:
                box.setTextValue(item)
            if text is not None:
                box.setTextValue(text)
            box.accept()
        else:
            QTimer.singleShot(20, act)

    QTimer.singleShot(20, act)


@pytest.fixture
def school(tmp_path):
    store = Store.open(tmp_path / "school.db")
    lee = store.add_trainee("Lee Park", instructor=True, passphrase=PASSPHRASE)
    rosa = store.add_trainee("Rosa Diaz")
    key = installation_key(tmp_path / "installation.key")
    add_bundled_forms(store)  # as the app does at start-up
    yield store, key, lee, rosa
    store.close()


def window(qtbot, store, key, trainee_id):
    from ui.services import Services
    from ui.window import MainWindow

    services = Services(store, store.trainee(trainee_id), key=key)
    w = MainWindow(services)
    services.window = w
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    return w


def build_form(qtbot, page):
    """The instructor's form builder, worked from the keyboard."""
    from ui.exam_forms import FormBuilder
    from ui.qt import Qt, QTimer

    made = {}

    def fill():
        builder = next(w for w in page.findChildren(FormBuilder) if w.isVisible())
        qtbot.keyClicks(builder.name, "Pai Gow and Props & Hops check ride")
        wanted = ("Sum paytable A", "First shake")
        for row in range(builder.list.count()):
            if any(w in builder.list.item(row).text() for w in wanted):
                builder.list.setCurrentRow(row)
                qtbot.keyClick(builder.list, Qt.Key.Key_Space)
        builder.minutes.setValue(30)
        made["items"] = len(builder.chosen())
        builder.accept()

    QTimer.singleShot(50, fill)
    page.new_form()
    return made


def test_an_exam_built_failed_retaken_passed_signed_printed_and_moved(qtbot, school, tmp_path):
    store, key, lee, rosa = school
    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    made = build_form(qtbot, page)
    assert made["items"] == 2
    form_rows = [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]
    assert "Pai Gow and Props & Hops check ride" in form_rows
    teacher.close()

    trainee = window(qtbot, store, key, rosa)
    page = trainee.show_screen("exam")
    assert page.tabs.count() == 2, "a trainee has no Forms tab"
    names = [page.available.item(r, 0).text() for r in range(page.available.rowCount())]
    page.available.selectRow(names.index("Pai Gow and Props & Hops check ride"))
    failed = sit_selected(qtbot, page, trainee, perfectly=False)
    assert failed.status.value == "failed" and not failed.passed
    assert "NOT PASSED" in page.report.toPlainText()
    assert "58 Pa. Code §" in page.report.toPlainText(), "the debrief cites every finding"

    page.home()
    page.available.selectRow(names.index("Pai Gow and Props & Hops check ride"))
    passed = sit_selected(qtbot, page, trainee, perfectly=True)
    assert passed.passed and passed.total >= 80, passed
    assert "PASSED" in page.report.toPlainText()

    click_later("OK", item="Lee Park")
    click_later("OK", text=PASSPHRASE)
    from ui.qt import Qt

    qtbot.mouseClick(page.sign_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: get_result(store, passed.id).signoff is not None, timeout=3000)
    assert "Signed off by Lee Park" in page.report.toPlainText()

    pdf = page.print_result(get_result(store, passed.id), str(tmp_path / "report.pdf"))
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 5000
    trainee.close()

    # another machine: the instructor imports the signed results
    from trainer.exams import export_exam_results, import_exam_results

    out = tmp_path / "results.json"
    assert export_exam_results(store, out, key).written == 1
    other = Store.open(tmp_path / "other.db")
    lee_there = other.add_trainee("Lee Park", instructor=True, passphrase=PASSPHRASE)
    other_key = installation_key(tmp_path / "other.key")
    assert import_exam_results(other, out, lee_there, PASSPHRASE, other_key).added == 1
    assert import_exam_results(other, out, lee_there, PASSPHRASE, other_key).added == 0
    there = window(qtbot, other, other_key, lee_there)
    exam = there.show_screen("exam")
    rows = [[exam.results.item(r, c).text() for c in range(7)] for r in range(exam.results.rowCount())]
    assert any(r[0] == "Rosa Diaz" and r[5] == "✓ verified" and r[6] == "Lee Park" for r in rows)
    there.close()
    other.close()


def sit_selected(qtbot, page, trainee_window, *, perfectly: bool):
    from ui.qt import Qt

    click_later("Yes")
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert not trainee_window.sidebar.isEnabled(), "the window is locked to the exam"
    runner = page.runner
    for _ in range(len(runner.scenarios)):
        screen = runner.screen
        current = screen.round
        assert not screen.hint.isVisible()
        if perfectly:
            work(qtbot, screen)
        else:
            qtbot.mouseClick(screen.end, Qt.MouseButton.LeftButton)
        assert "Not right" not in screen.feedback.toPlainText()
        qtbot.waitUntil(lambda c=current: page.runner is None or runner.screen.round is not c, timeout=3000)
    qtbot.waitUntil(lambda: page.runner is None, timeout=3000)
    assert trainee_window.sidebar.isEnabled()
    return page.shown_result


def test_an_edit_outside_the_app_is_flagged(qtbot, school, tmp_path):
    store, key, lee, rosa = school
    trainee = window(qtbot, store, key, rosa)
    page = trainee.show_screen("exam")
    page.available.selectRow(0)
    result = sit_selected(qtbot, page, trainee, perfectly=False)
    trainee.close()
    db = str(store.path)
    if shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 command is not installed")
    # the app's own triggers refuse the edit; someone editing the file drops them first
    subprocess.run(["sqlite3", db, "DROP TRIGGER exam_results_close_once; UPDATE exam_results SET "
                    f"total = 100, passed = 1, status = 'passed' WHERE id = {result.id};"],
                   check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "trainer", "verify-results", "--db", db, "--secret",
                           str(tmp_path / "installation.key")], capture_output=True, text=True)
    assert done.returncode == 1 and f"exam result {result.id}" in done.stdout + done.stderr
    teacher = window(qtbot, store, key, lee)
    exam = teacher.show_screen("exam")
    flags = [exam.results.item(r, 5).text() for r in range(exam.results.rowCount())]
    assert any(f.startswith("⚠") for f in flags)
    teacher.close()


def test_closing_the_app_mid_exam_records_the_attempt_as_left(qtbot, school):
    from ui.qt import Qt

    store, key, _, rosa = school
    trainee = window(qtbot, store, key, rosa)
    page = trainee.show_screen("exam")
    page.available.selectRow(0)
    click_later("Yes")
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.runner.screen.end, Qt.MouseButton.LeftButton)  # one part answered
    qtbot.waitUntil(lambda: len(results(store)[0].answers) == 1, timeout=3000)
    trainee.close()
    [result] = results(store)
    assert result.status.value == "abandoned" and len(result.answers) == 1
    assert json.dumps(result.answers[0].findings)  # the answer given is kept
