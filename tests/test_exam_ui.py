"""A certification exam from end to end, through the real widgets: an instructor builds the form,
a trainee fails it, retakes and passes it, the supervisor signs it off, the report is printed,
the results move to another machine, and an edit made outside the app is flagged."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.support.practice_screen import work
from tests.support.screens import PASSPHRASE, answer, build_form, quicken_runner, window
from trainer.exams import add_bundled_forms, get_result, installation_key, results
from trainer.progress import Store


def click_later(label: str, *, text: str | None = None, item: str | None = None):
    """Answer the next dialog: click `label` in a message box, or type `text` / `item`."""
    value = text if text is not None else item
    answer({"text": value} if value is not None else {"button": label})


@pytest.fixture
def school(tmp_path, monkeypatch):
    """(store, installation key, the instructor's id, the trainee's id); the exams sat in its
    windows go from a part done to the next without the app's pause (quicken_runner)."""
    quicken_runner(monkeypatch)
    store = Store.open(tmp_path / "school.db")
    lee = store.add_trainee("Lee Park", instructor=True, passphrase=PASSPHRASE)
    rosa = store.add_trainee("Rosa Diaz")
    key = installation_key(tmp_path / "installation.key")
    add_bundled_forms(store)  # as the app does at start-up
    yield store, key, lee, rosa
    store.close()


def test_an_exam_built_failed_retaken_passed_and_printed(qtbot, school, tmp_path):
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
    said = " ".join(page.report.toPlainText().split())
    assert "Graded under Pass rule 2" in said and "with every item passed" in said
    assert ", not passed" in said  # the item that failed says so

    page.home()
    page.available.selectRow(names.index("Pai Gow and Props & Hops check ride"))
    passed = sit_selected(qtbot, page, trainee, perfectly=True)
    assert passed.passed and passed.total >= 80, passed
    assert "PASSED" in page.report.toPlainText()

    # a practice exam (no sitting) is never certifiable, and nothing offers to sign it off
    from ui.qt import QPushButton

    assert not [b for b in page.findChildren(QPushButton) if "Sign off" in b.text()]
    assert "not certifiable" in page.report.toPlainText()
    page.home()
    rows = [[page.results.item(r, c).text() for c in range(page.results.columnCount())]
            for r in range(page.results.rowCount())]
    assert rows and all("practice exam — not certifiable" in r[5] for r in rows)

    pdf = page.print_result(get_result(store, passed.id), str(tmp_path / "report.pdf"))
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 5000
    trainee.close()


def sit_selected(qtbot, page, trainee_window, *, perfectly: bool):
    from ui.qt import Qt

    click_later("Yes")
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert not trainee_window.sidebar.isEnabled(), "the window is locked to the exam"
    runner = page.runner
    for _ in range(len(runner.scenarios)):
        screen = runner.screen
        current = screen.round
        # sealed: no briefing, no hint key, nothing on screen that states the calls or payouts
        assert not screen.hint.isVisible()
        assert "Briefing" not in screen.feedback.toPlainText()
        if current.scenario.briefing.strip():
            assert current.scenario.briefing.strip()[:40] not in screen.feedback.toPlainText()
        assert "hint" not in screen.briefing.text().lower()
        qtbot.keyClick(screen, Qt.Key.Key_H)
        assert screen.hint.text() == "" and "Next:" not in screen.feedback.toPlainText()
        assert not screen.view.name_irregularities, "no caption names a no roll in an exam"
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
    from ui.qt import QAction

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
    # the app says so in File › Check database (not on every refresh of a list)
    teacher = window(qtbot, store, key, lee)
    seen: list = []
    answer({"button": "OK"}, seen=seen)
    action = next(a for a in teacher.findChildren(QAction) if a.text() == "Check database")
    assert action.shortcut().toString() == "Ctrl+Shift+K"
    action.trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert "every page and index is sound" in seen[0]
    assert "edited outside the app" in seen[0] and f"exam result {result.id}" in seen[0]
    teacher.close()


def start_first_exam(qtbot, school):
    """The trainee's window, with the first exam on the list started (Yes to the question)."""
    from ui.qt import Qt

    store, key, _, rosa = school
    trainee = window(qtbot, store, key, rosa)
    page = trainee.show_screen("exam")
    page.available.selectRow(0)
    click_later("Yes")
    qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    return trainee, page


def test_closing_the_window_mid_exam_asks_and_on_yes_records_the_attempt_as_left(qtbot, school):
    from ui.qt import Qt

    store = school[0]
    trainee, page = start_first_exam(qtbot, school)
    qtbot.mouseClick(page.runner.screen.end, Qt.MouseButton.LeftButton)  # one part answered
    qtbot.waitUntil(lambda: len(results(store)[0].answers) == 1, timeout=3000)
    asked: list = []
    answer({"button": "No"}, seen=asked)
    assert not trainee.close(), "No: the window stays open"
    assert trainee.isVisible() and page.runner is not None and page.runner.ended is None
    assert "Leaving ends this attempt" in asked[0] and "sitting" not in asked[0]
    assert results(store)[0].status.value == "in-progress"
    answer({"button": "Yes"})
    assert trainee.close()
    [result] = results(store)
    assert result.status.value == "abandoned" and len(result.answers) == 1
    assert json.dumps(result.answers[0].findings)  # the answer given is kept


def test_ctrl_z_reaches_the_exam_while_its_menus_are_locked(qtbot, school):
    """Undo works in an exam until a part's answer is recorded: the key is the window's, and
    stays on while the exam locks the menus; what it refuses, the status bar says."""
    from ui.qt import Qt

    trainee, _ = start_first_exam(qtbot, school)
    try:
        assert not trainee.menuBar().isEnabled()
        trainee.activateWindow()  # as the trainee's window is, once the exam's question is answered
        qtbot.waitUntil(trainee.isActiveWindow, timeout=3000)
        qtbot.keyClick(trainee, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert trainee.statusBar().currentMessage().startswith("Cannot undo: nothing of yours")
    finally:
        answer({"button": "Yes"})
        trainee.close()


def test_the_countdown_and_the_record_keep_one_clock(qtbot, school):
    """The screen's countdown is the session's clock: when the session says 30 s are left the
    screen says so, and when its time is up the screen ends the attempt "timed-out"."""

    store = school[0]
    trainee, page = start_first_exam(qtbot, school)
    session, runner = page.session, page.runner
    session.clock = lambda: session.deadline - 30
    runner.tick()
    assert runner.countdown.text() == "0:30 left"
    session.clock = lambda: session.deadline + 1
    qtbot.waitUntil(lambda: page.runner is None, timeout=3000)  # the screen's own timer saw it
    [result] = results(store)
    assert result.status.value == "timed-out" and result.ended == session.deadline
    assert trainee.sidebar.isEnabled()


def test_setting_the_computers_clock_moves_no_exam_time(monkeypatch):
    import time

    from trainer.exams.session import exam_clock

    before = exam_clock()
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() - 3600)  # the trainee winds the clock back
    assert abs(exam_clock() - before) < 5
    monkeypatch.setattr(time, "time", lambda: real() + 86400)
    assert abs(exam_clock() - before) < 5


def test_certification_issued_sat_submitted_certified_through_the_screens(qtbot, school, tmp_path):
    """The instructor issues a sitting with the instructor key; the trainee sits it from the
    sitting file (sealed, under the countdown) and exports the submission; the instructor
    certifies it; the certificate verifies with the public key alone."""
    from tests.support.command import run_command
    from trainer.exams.roles import new_instructor

    store, key, _, rosa = school
    lee, lee_key = new_instructor(store, "Ivy Lee", "correct horse battery staple", tmp_path)
    PASSPHRASE = "correct horse battery staple"
    (tmp_path / "lee.key").symlink_to(lee_key)
    (tmp_path / "lee.pub").symlink_to(lee_key.with_name(lee_key.name + ".pub"))

    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    rows = [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]
    page.forms.selectRow(next(i for i, n in enumerate(rows) if n.startswith("Pai Gow")))
    seen: list = []
    answer({"text": "Rosa Diaz"}, {"text": PASSPHRASE}, {"button": "OK"}, seen=seen)
    token = page.certification.issue(out=str(tmp_path / "rosa.sitting"))  # the profile's key
    assert token and token["attempt"] == 1 and "Attempt 1 of 2 for Rosa Diaz" in seen[0]
    assert token["start_code"] in seen[0]
    assert "Ivy Lee" in seen[0]  # the profile's own key, not a file picked
    teacher.close()

    trainee = window(qtbot, store, key, rosa)
    page = trainee.show_screen("exam")
    seen = []
    answer({"text": "AAAA-BBBB-CCCC-DDDD"}, {"button": "OK"}, seen=seen)  # a wrong start code
    assert not page.certification.sit(str(tmp_path / "rosa.sitting"))
    assert "start code is not right" in seen[0]
    answer({"text": token["start_code"]}, {"button": "Start"})
    assert page.certification.sit(str(tmp_path / "rosa.sitting"))
    assert not trainee.sidebar.isEnabled(), "the window is locked to the exam"
    runner = page.runner
    for _ in range(len(runner.scenarios)):
        qtbot.waitUntil(lambda: not runner.screen.round.finished, timeout=3000)
        assert "Briefing" not in runner.screen.feedback.toPlainText()
        work(qtbot, runner.screen)
    qtbot.waitUntil(lambda: page.runner is None, timeout=5000)
    assert "PASSED" in page.report.toPlainText()
    page.home()
    assert page.certification.submit(str(tmp_path / "submission.json")) == 1
    trainee.close()

    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    seen = []
    answer({"text": PASSPHRASE}, {"button": "OK"}, seen=seen)
    summary = page.certification.certify(str(tmp_path / "submission.json"),
                                         out=str(tmp_path / "certs.json"),
                                         key_path=str(tmp_path / "lee.key"))
    assert summary and len(summary.certificates) == 1 and "1 certified, 0 refused" in seen[0]
    page.refresh()
    tab = page.certificates
    assert tab.table.rowCount() == 1
    assert [tab.table.item(0, c).text() for c in (0, 3, 5)] == ["Rosa Diaz", "passed", "✓ verified"]
    tab.open()
    text = page.report.toPlainText()
    assert "Certificate" in text and "Verification code" in text and "Ivy Lee" in text
    assert "Graded under Pass rule 2" in " ".join(text.split())  # the certificate's own rule
    pdf = tab.print_selected(str(tmp_path / "certificate.pdf"))
    assert pdf.read_bytes()[:5] == b"%PDF-"
    # a wrong passphrase is a message, not a traceback
    seen = []
    answer({"text": "not the passphrase"}, {"button": "OK"}, seen=seen)
    assert page.certification.certify(str(tmp_path / "submission.json"),
                                      key_path=str(tmp_path / "lee.key")) is None
    assert "passphrase is not right" in seen[0]
    teacher.close()
    done = run_command("verify-results", str(tmp_path / "certs.json"), "--public-key",
                       str(tmp_path / "lee.pub"))
    assert done.returncode == 0 and "Rosa Diaz" in done.stdout and "passed" in done.stdout


def test_a_sitting_started_on_one_file_is_refused_on_another_through_the_screens(qtbot, school, tmp_path):
    """Rosa starts her sitting on the school's file and leaves it; on a fresh progress file (the
    app run with --db elsewhere) the same sitting file and code are refused, by name."""
    from tests.support.exams import code_of, issuer
    from trainer.exams import (
        SittingsSeen,
        get_form,
        issue_sitting,
        sign_form,
        sitting_form,
        write_sitting_file,
    )
    from trainer.exams.keys import InstructorKey

    store, key, _, rosa = school
    ivy = issuer(InstructorKey.generate("Ivy Park"))
    exam = get_form(store, "example-pai-gow-dice-2")
    with Store.open(tmp_path / "ivy.db") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Rosa Diaz")
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
        write_sitting_file(tmp_path / "rosa.sitting", token, signed, key=ivy)
    seen_here = SittingsSeen(store.path)  # the school's file is the app's default file
    trainee = window(qtbot, store, key, rosa, seen=seen_here)
    page = trainee.show_screen("exam")
    assert page.certification.sit(str(tmp_path / "rosa.sitting"), confirm=False, code=code_of(token))
    asked: list = []
    answer({"button": "Yes"}, seen=asked)
    assert trainee.close()  # the window's ×: asked as Leave exam asks, and Yes
    assert "the sitting is spent" in asked[0].lower()
    [left] = results(store)
    assert left.status.value == "abandoned" and left.sitting is not None

    with Store.open(tmp_path / "fresh.db") as fresh:
        again = fresh.add_trainee("Rosa Diaz")
        other = window(qtbot, fresh, key, again, seen=seen_here)
        page = other.show_screen("exam")
        said: list = []
        answer({"button": "OK"}, seen=said)
        assert not page.certification.sit(str(tmp_path / "rosa.sitting"), confirm=False, code=code_of(token))
        assert page.runner is None and "already started on this computer" in said[0]
        assert fresh.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
        other.close()


def test_an_instructor_builds_a_pool_and_a_draw_too_big_is_named(qtbot, school):
    from trainer.exams import list_forms
    from ui.exams.forms import FormBuilder
    from ui.qt import Qt, QTimer

    store, key, lee, _ = school
    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    said = {}

    def fill():
        builder = next(w for w in page.findChildren(FormBuilder) if w.isVisible())
        assert not any("Exam:" not in builder.list.item(r).text() for r in range(builder.list.count())), \
            "the builder offers exam items only, never practice scenarios"
        qtbot.keyClicks(builder.name, "Spring pool")
        for row in range(5):
            builder.list.setCurrentRow(row)
            qtbot.keyClick(builder.list, Qt.Key.Key_Space)
        builder.draw.selectAll()
        qtbot.keyClicks(builder.draw, "7")
        qtbot.mouseClick(builder.save_button, Qt.MouseButton.LeftButton)
        said["too many"] = builder.message.text()
        builder.draw.selectAll()
        qtbot.keyClicks(builder.draw, "3")
        qtbot.mouseClick(builder.save_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, fill)
    page.new_form()
    assert "asks 7 items, but only 5 are ticked" in said["too many"]
    pool = next(f for f in list_forms(store) if f.name == "Spring pool")
    assert (pool.draw, len(pool.items)) == (3, 5)
    rows = [[page.forms.item(r, c).text() for c in (0, 2)] for r in range(page.forms.rowCount())]
    assert ["Spring pool", "3 drawn of 5"] in rows
    teacher.close()


def test_an_instructor_adds_supervise_items_to_a_form_in_the_builder(qtbot, school, tmp_path):
    """The Forms editor offered dealers' items only: a floor supervisor's form could be had only
    from the bundled file. Now the instructor chooses an exam item, the faults the dealer makes,
    and Add as a supervise item: the form saved holds it as a supervise item (its faults dealt
    from a seed of its own), beside a dealer's item. Asked for more faults than the round has
    room for, or with a supervise item chosen, the builder says so in one line and adds nothing.
    Duplicating a form keeps its supervise items supervise items."""
    from trainer.exams import list_forms
    from ui.exams.forms import FormBuilder
    from ui.qt import Qt, QTimer

    store, key, lee, _ = school
    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    said: dict = {}

    def row_of(builder, words: str) -> int:
        return next(r for r in range(builder.list.count()) if words in builder.list.item(r).text())

    def fill():
        builder = next(w for w in page.findChildren(FormBuilder) if w.isVisible())
        try:
            build(builder)
        finally:  # a failure here closes the dialog, so that the test fails rather than waits
            if builder.isVisible():
                builder.reject()

    def build(builder):
        qtbot.keyClicks(builder.name, "Floor check ride")
        pai_gow = row_of(builder, "Pai Gow Poker dice wagers — Exam: calling the dice")
        builder.list.setCurrentRow(pai_gow)
        builder.faults.setValue(10)  # the attack: more than the round has room for
        qtbot.mouseClick(builder.add_supervise, Qt.MouseButton.LeftButton)
        said["too many"] = builder.message.text()
        count = builder.list.count()
        builder.faults.setValue(3)
        qtbot.mouseClick(builder.add_supervise, Qt.MouseButton.LeftButton)
        said["added"] = builder.list.count() - count
        said["entry"] = builder.list.currentItem().text()
        qtbot.mouseClick(builder.add_supervise, Qt.MouseButton.LeftButton)  # a supervise item chosen
        said["of a supervise item"] = builder.message.text()
        builder.list.setCurrentRow(row_of(builder, "Props & Hops — Exam: calling the dice"))
        qtbot.keyClick(builder.list, Qt.Key.Key_Space)  # and a dealer's item
        builder.resize(900, 640)
        builder.grab().save(str(tmp_path / "form-builder.png"))
        qtbot.mouseClick(builder.save_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, fill)
    page.new_form()
    assert said["too many"].startswith("Not added as a supervise item: scenario exam-pgd-03: ")
    assert "room for only" in said["too many"] and "\n" not in said["too many"]
    assert said["added"] == 1
    assert said["entry"] == ("Supervise: Pai Gow Poker dice wagers — Exam: calling the dice (the dealer "
                             "makes 3 faults, an action every 2 s)")
    assert said["of a supervise item"].startswith("Choose an exam item in the list first")
    form = next(f for f in list_forms(store) if f.name == "Floor check ride")
    (at,) = form.supervised
    item = form.items[at]
    assert (item.scenario_id, item.supervise.faults) == ("exam-pgd-03", 3)
    assert item.supervise.seed != "example" and len(form.round(at).faults) == 3
    assert [it.scenario_id for it in form.items if it.supervise is None] == ["exam-ph-02"]

    def keep():
        next(w for w in page.findChildren(FormBuilder) if w.isVisible()).accept()

    rows = [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]
    page.forms.selectRow(rows.index("Floor check ride"))
    QTimer.singleShot(50, keep)
    assert page.duplicate_form()
    copy = next(f for f in list_forms(store) if f.name == "Floor check ride (new)")
    assert [(it.scenario_id, it.supervise) for it in copy.items] == \
        [(it.scenario_id, it.supervise) for it in form.items]
    teacher.close()


def test_the_certificates_tab_reads_the_class_certificates_beside_the_files(qtbot, school, monkeypatch):
    """An instructor joined to a class reads the certificates the class server keeps: each is
    listed beside this file's, marked as kept by the class, verified or not by this file's
    instructor keys (the engine's reading and checking of them is tested on a real PostgreSQL in
    test_exam_class_ledger); not joined, or the server out of reach, is one line on the tab."""
    import trainer.exams
    from trainer.exams import ExamOfflineError
    from ui.qt import QPushButton, Qt

    store, key, lee, _ = school
    teacher = window(qtbot, store, key, lee)
    page = teacher.show_screen("exam")
    tab = page.certificates
    button = next(b for b in tab.widget.findChildren(QPushButton) if b.text() == "The class's certificates")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert "not joined to a class" in tab.note.text() and tab.table.rowCount() == 0

    def cert(name, n):
        return {"trainee": name, "form": {"name": "Pai Gow exam"}, "attempt": n, "status": "passed",
                "total": 90, "certified": 1_700_000_000 + n, "signature": f"sig-{n}"}

    monkeypatch.setattr(page, "class_connection", lambda: object())
    signer = object()
    kept = [(cert("Rosa Diaz", 1), signer), (cert("Sam Lee", 2), None)]
    monkeypatch.setattr(trainer.exams, "class_certificates", lambda classroom, trusted: kept)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    rows = [[tab.table.item(r, c).text() for c in (0, 5)] for r in range(tab.table.rowCount())]
    assert sorted(rows) == [["Rosa Diaz", "✓ verified · kept by the class"],
                            ["Sam Lee", "⚠ not by an instructor key here · kept by the class"]]
    assert "The class keeps 2 certificates; 1 verify with no instructor key" in tab.note.text()

    def unreachable(classroom, trusted):
        raise ExamOfflineError("The class server cannot be reached now: connection refused")

    monkeypatch.setattr(trainer.exams, "class_certificates", unreachable)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert "cannot be read: The class server cannot be reached now" in tab.note.text()
    teacher.close()


def pdf_title(path) -> str:
    """The title in a PDF's document information: a literal string (escapes and octal read), in
    UTF-16 after its byte-order mark, or in PDFDocEncoding."""
    data = path.read_bytes()
    at = data.index(b"/Title")
    at = data.index(b"(", at) + 1
    out, depth = bytearray(), 1
    escapes = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}
    while True:
        c = data[at]
        at += 1
        if c == ord("\\"):
            e = data[at]
            if ord("0") <= e <= ord("7"):
                n = next(k for k in (3, 2, 1) if all(ord("0") <= d <= ord("7") for d in data[at:at + k]))
                out.append(int(data[at:at + n], 8) & 0xFF)
                at += n
            else:
                out.append(escapes.get(e, e))
                at += 1
            continue
        if c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                break
        out.append(c)
    return out[2:].decode("utf-16-be") if out[:2] == b"\xfe\xff" else out.decode("latin-1")


def test_a_failed_result_is_never_headed_certificate_nor_is_its_pdf(qtbot, tmp_path):
    """A certified result that failed was headed "Certificate", and every PDF was titled "Exam
    result": each says what it is."""
    from trainer.exams import certificate_for, results
    from ui.shell.app import demo_services, throwaway_settings
    from ui.shell.window import MainWindow

    services = demo_services(instructor=True)
    w = MainWindow(services, settings=throwaway_settings())
    qtbot.addWidget(w)
    w.show()
    page = w.show_screen("exam")
    certified = [r for r in results(services.store)
                 if r.over and certificate_for(services.store, r.uid) is not None]
    passed = next(r for r in certified if r.passed)
    failed = next(r for r in certified if not r.passed)
    for result, head in ((passed, "Certificate"), (failed, "Certified result (not passed)")):
        page.show_result(result)
        assert page.report.toPlainText().splitlines()[0] == f"Dealer Certification Exam — {head}"
        pdf = page.print_result(result, str(tmp_path / f"{result.uid}.pdf"))
        assert pdf_title(pdf).startswith(f"{head} — "), pdf_title(pdf)
    w.close()
