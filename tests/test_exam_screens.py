"""The Exam screen as a trainee and an instructor meet it on a laptop: a used sitting refused before
the clock is offered, the exam's table with one clock and no empty panel, parts that name their
game, the date sat on a certificate, the instructor key read off the GUI thread, and forms
retired, reordered and duplicated. Every test drives the real widgets."""

from __future__ import annotations

import pytest

from tests.support.exams import code_of, issuer
from tests.support.screens import answer, window
from trainer.exams import add_bundled_forms, installation_key
from trainer.progress import Store


@pytest.fixture
def school(tmp_path):
    store = Store.open(tmp_path / "school.db")
    rosa = store.add_trainee("Rosa Diaz")
    key = installation_key(tmp_path / "installation.key")
    add_bundled_forms(store)  # as the app does at start-up
    yield store, key, rosa
    store.close()


def first_box(seen: list) -> None:
    """Note the text of the next message box and close it as Esc does (No to a question)."""
    from ui.qt import QApplication, QMessageBox, QTimer

    def look():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look)
            return
        seen.append(box.text())
        box.reject()

    QTimer.singleShot(20, look)


def sitting_file(tmp_path, store, form_uid: str = "example-pai-gow-dice-2"):
    """A sealed sitting of a bundled form for Rosa, issued by another instructor's ledger; the path
    and the token."""
    from trainer.exams import get_form, issue_sitting, sign_form, sitting_form, write_sitting_file
    from trainer.exams.keys import InstructorKey

    ivy = issuer(InstructorKey.generate("Ivy Park"))
    exam = get_form(store, form_uid)
    with Store.open(tmp_path / "ivy.db") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Rosa Diaz")
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
        write_sitting_file(tmp_path / "rosa.sitting", token, signed, key=ivy)
    return str(tmp_path / "rosa.sitting"), token


@pytest.mark.parametrize("where", ["this file", "another file"])
def test_a_used_sitting_is_refused_before_the_clock_is_offered(qtbot, school, tmp_path, where):
    """The sitting was sat once and left. Opened again, the refusal came only after "The clock
    starts now … Start?" had been answered Yes: it comes first, and nothing else is asked."""
    from trainer.exams import SittingsSeen

    store, key, rosa = school
    path, token = sitting_file(tmp_path, store)
    seen = SittingsSeen(store.path)
    first = window(qtbot, store, key, rosa, seen=seen)
    page = first.show_screen("exam")
    assert page.certification.sit(path, confirm=False, code=code_of(token))
    page.abandon()
    qtbot.waitUntil(lambda: page.runner is None, timeout=3000)
    first.close()

    other = Store.open(tmp_path / "fresh.db") if where == "another file" else store
    again = window(qtbot, other, key, other.add_trainee("Rosa Diaz") if other is not store else rosa,
                   seen=seen)
    page = again.show_screen("exam")
    said: list = []
    first_box(said)
    assert not page.certification.sit(path, code=code_of(token))
    assert said and "already" in said[0] and "good for one attempt" in said[0], said
    assert not any("clock starts now" in s for s in said)
    assert page.runner is None
    again.close()
    if other is not store:
        assert other.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        other.close()


def start_first_exam(qtbot, school, size=(1366, 768)):
    from ui.qt import Qt

    store, key, rosa = school
    w = window(qtbot, store, key, rosa)
    w.resize(*size)
    page = w.show_screen("exam")
    page.available.selectRow(0)
    answer({"button": "Yes"})
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.runner is not None and page.runner.screen.round is not None, timeout=3000)
    return w, page


def test_the_exam_table_has_the_width_and_one_clock(qtbot, school):
    """At 1366×768 the exam kept the practice screen's feedback panel, empty and white, on the
    right third, and two clocks side by side (the exam's and the part's): the table has the
    width, one clock runs, and what the screen says of the trainee's input has a line."""
    from trainer import Do
    from ui.qt import QLabel

    w, page = start_first_exam(qtbot, school)
    runner = page.runner
    try:
        qtbot.wait(50)
        table = runner.screen.view
        assert table.width() >= 0.9 * runner.width(), (table.width(), runner.width())
        clocks = [label for label in runner.findChildren(QLabel)
                  if label.objectName() in ("timer", "timerLate") and label.isVisible()]
        assert clocks == [runner.countdown], [c.text() for c in clocks]
        runner.screen.selected = None
        runner.screen.act(Do.PAY)  # no wager selected: the screen says so, where it can be read
        said = runner.screen.findChild(QLabel, "examSaid")
        assert said is not None and said.isVisible() and "select a wager first" in said.text()
    finally:  # never a running exam left to ask "Leave the exam?" when the window closes
        page.abandon()
    qtbot.waitUntil(lambda: page.runner is None, timeout=3000)
    w.close()


def test_two_parts_called_the_same_name_their_games(qtbot, school):
    """Props & Hops' and Pai Gow's exam items are both "Exam: calling the dice": the result
    listed two parts of that one title. Each names its game, on the screen and the certificate."""
    from tests.support.exams import sit
    from trainer.exams import exam_items, new_form

    store, key, rosa = school
    items = exam_items()
    exam = new_form("Calling check ride", [items["exam-ph-02"], items["exam-pgd-03"]],
                    time_limit_seconds=900, created_by="Ivy", attempts_allowed=1)
    assert items["exam-ph-02"].title == items["exam-pgd-03"].title  # the case in point
    result = sit(store, key, rosa, exam)
    w = window(qtbot, store, key, rosa)
    page = w.show_screen("exam")
    page.show_result(result)
    text = page.report.toPlainText()
    heads = [line.split(" — ")[0] for line in text.splitlines() if line[:3] in ("1. ", "2. ")]
    assert heads == ["1. Props & Hops: calling the dice",
                     "2. Pai Gow Poker dice wagers: calling the dice"], heads
    w.close()


def test_a_certificate_shows_the_date_it_was_sat(qtbot, tmp_path):
    """The certificate (its list, its page on the screen, its PDF) named when it was certified
    but not when the exam was sat: each shows the date sat, the one the result recorded."""
    import time

    from trainer.exams import ExamAccess, certificates
    from ui.exams.certify import certificate_data
    from ui.exams.report import report_html
    from ui.shell.app import demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    services = demo_services(instructor=True)
    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    w.show()
    page = w.show_screen("exam")
    tab = page.certificates
    found = certificates(services.store)
    assert found and tab.table.rowCount() == len(found)
    access = ExamAccess(services.store, services.trainee)
    header = [tab.table.horizontalHeaderItem(c).text() for c in range(tab.table.columnCount())]
    for row in range(tab.table.rowCount()):
        cert = tab.shown[row]
        result = next(r for r in access.results() if r.uid == cert["result"])
        day = time.strftime("%Y-%m-%d %H:%M", time.localtime(result.started))
        assert tab.table.item(row, header.index("Sat")).text() == day
        tab.table.selectRow(row)
        tab.open()
        said = " ".join(page.report.toPlainText().split())
        assert f"Sat {day}" in said, said[:400]
        pdf = tab.print_selected(str(tmp_path / f"{row}.pdf"))
        assert pdf.read_bytes()[:5] == b"%PDF-"
        assert f"Sat</b></td><td>{day}" in report_html(certificate_data(cert, tab.verified(cert)))
    w.close()


@pytest.mark.parametrize("where", ["issuing a sitting", "opening the profile"])
def test_the_passphrase_is_checked_off_the_gui_thread(qtbot, school, tmp_path, monkeypatch, where):
    """scrypt over the instructor key's passphrase froze the window 0.8–1.6 s with no busy cursor.
    It runs on a thread of its own; meanwhile the GUI thread runs (a timer fires), shows a busy
    cursor and a line that says what is being done, and both are gone after."""
    import hashlib
    import threading

    from tests.support.screens import PASSPHRASE
    from trainer.exams import InstructorKey
    from trainer.exams.roles import new_instructor
    from ui.qt import QApplication, Qt, QTimer
    from ui.shell.profiles import ProfileDialog

    store, key, _ = school
    lee, path = new_instructor(store, "Ivy Lee", PASSPHRASE, tmp_path)
    w = window(qtbot, store, key, lee)
    real, seen, ran = hashlib.scrypt, {}, threading.Event()

    def scrypt(*args, **kwargs):
        seen["on the GUI thread"] = threading.current_thread() is threading.main_thread()
        seen["the GUI ran meanwhile"] = ran.wait(10)  # on the GUI thread, it never can
        return real(*args, **kwargs)

    def meanwhile():
        cursor = QApplication.overrideCursor()
        seen["cursor"] = cursor.shape() if cursor is not None else None
        seen["line"] = (w.statusBar().currentMessage() if where == "issuing a sitting"
                        else dialog.message.text())
        ran.set()

    monkeypatch.setattr(hashlib, "scrypt", scrypt)
    QTimer.singleShot(0, meanwhile)
    if where == "issuing a sitting":
        opened = w.show_screen("exam").certification._key(str(path), PASSPHRASE, "Issue a sitting")
        assert isinstance(opened, InstructorKey) and opened.public.raw.hex() == store.trainee(lee).public_key
    else:
        dialog = ProfileDialog(store, w)
        assert dialog.open_instructor(store.trainee(lee), PASSPHRASE)
        dialog.deleteLater()
    assert seen["on the GUI thread"] is False and seen["the GUI ran meanwhile"], seen
    assert seen["cursor"] == Qt.CursorShape.WaitCursor
    assert "passphrase" in seen["line"], seen["line"]
    assert QApplication.overrideCursor() is None
    assert w.statusBar().currentMessage() == "" and (where == "issuing a sitting" or
                                                     dialog.message.text() == "")
    w.close()


def test_an_instructor_duplicates_retires_and_brings_back_a_form(qtbot):
    """Forms could be neither edited, retired nor reordered. A form is signed and digested, so it
    is duplicated as a new form (its settings and items to change), which may retire the old;
    a retired form is no longer listed or issued, and its certificates stay, verified."""
    from trainer.exams import FormError, InstructorKey, get_form, issue_sitting, list_forms
    from ui.exams.forms import FormBuilder
    from ui.qt import QTimer
    from ui.shell.app import demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    services = demo_services(instructor=True)
    store = services.store
    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    w.show()
    page = w.show_screen("exam")
    tab = page.certificates

    def shown(table, column=0):
        return [table.item(r, column).text() for r in range(table.rowCount())]

    certified = [(r, c) for r, c in zip(shown(tab.table, 1), shown(tab.table, 5), strict=True)]
    assert certified and all(c.startswith("✓") for _, c in certified)
    source = get_form(store, tab.shown[0]["form"]["uid"])
    page.forms.selectRow(shown(page.forms).index(source.name))
    seen = {}

    def change():
        builder = next(b for b in page.findChildren(FormBuilder) if b.isVisible())
        seen["name"] = builder.name.text()
        seen["ticked"] = [s.id for s in builder.chosen()]
        seen["retire"] = builder.retire_source.isChecked()
        builder.pass_mark.setValue(90)
        builder.accept()

    QTimer.singleShot(50, change)
    assert page.duplicate_form()
    assert seen == {"name": f"{source.name} (new)", "ticked": [s.id for s in source.scenarios],
                    "retire": True}
    [new] = [f for f in list_forms(store) if f.name == f"{source.name} (new)"]
    assert new.uid != source.uid and new.digest != source.digest and new.pass_mark == 90
    assert [s.id for s in new.scenarios] == [s.id for s in source.scenarios]
    kept = get_form(store, source.uid)
    assert kept.archived and kept.digest == source.digest and kept.pass_mark == source.pass_mark
    assert source.name not in shown(page.forms) and new.name in shown(page.forms)
    with pytest.raises(FormError, match="retired"):
        issue_sitting(store, InstructorKey.generate("Ivy Park"), kept, "Rosa Diaz")
    page.refresh()
    assert list(zip(shown(tab.table, 1), shown(tab.table, 5), strict=True)) == certified

    page.show_retired.setChecked(True)
    assert f"{source.name} (retired)" in shown(page.forms)
    page.forms.selectRow(shown(page.forms).index(f"{source.name} (retired)"))
    assert page.bring_back_form() and not get_form(store, source.uid).archived
    page.show_retired.setChecked(False)
    page.forms.selectRow(shown(page.forms).index(new.name))
    answer({"button": "Yes"})
    assert page.retire_form() and get_form(store, new.uid).archived
    assert new.name not in shown(page.forms) and source.name in shown(page.forms)
    w.close()


@pytest.mark.parametrize("sat", [float("nan"), float("inf"), 1e300, -1e300, "yesterday", True, None])
def test_a_hostile_date_sat_on_a_class_certificate_is_no_date(qtbot, sat):
    """The class keeps certificates that any instructor's login wrote, signed or not: one whose date
    sat is no date is listed and opened with none, never a traceback."""
    from ui.shell.app import demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    services = demo_services(instructor=True)
    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    page = w.show_screen("exam")
    tab = page.certificates
    forged = dict(tab.shown[0], sat=sat, signature="00" * 64, result="someone-else")
    tab.from_class = [(forged, None)]
    tab.refresh()
    row = tab.shown.index(forged)
    header = [tab.table.horizontalHeaderItem(c).text() for c in range(tab.table.columnCount())]
    sat_column = header.index("Sat")
    assert tab.table.item(row, sat_column).text() == "—"
    tab.table.selectRow(row)
    tab.open()
    assert "Sat not stated" in " ".join(page.report.toPlainText().split())
    w.close()


def test_an_instructor_moves_a_form_up_and_down_with_alt_and_the_arrows(qtbot):
    """The Forms tab: Move up and Move down (Alt+↑, Alt+↓) move the selected form, which stays
    selected; the trainees' list of exams follows the same order."""
    from trainer.exams import list_forms
    from ui.qt import QPushButton, Qt
    from ui.shell.app import demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    services = demo_services(instructor=True)
    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    page = w.show_screen("exam")
    page.tabs.setCurrentIndex([page.tabs.tabText(i) for i in range(page.tabs.count())].index("Forms"))

    def shown():
        return [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]

    before = shown()
    assert len(before) >= 3
    page.forms.selectRow(1)
    w.activateWindow()
    qtbot.waitUntil(lambda: w.isActiveWindow())
    qtbot.keyClick(page.forms, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert shown() == [before[1], before[0], *before[2:]]
    assert page.forms.selectedItems()[0].text() == before[1], "the form moved stays selected"
    [down] = [b for b in page.findChildren(QPushButton) if b.text() == "Move &down"]
    qtbot.mouseClick(down, Qt.MouseButton.LeftButton)
    assert shown() == before
    qtbot.keyClick(page.forms, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert shown() == [before[0], before[2], before[1], *before[3:]]
    assert [f.name for f in list_forms(services.store)] == shown()
    w.close()
