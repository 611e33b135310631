"""A supervise item sat on the Exam screen through the real widgets: the example floor
supervisor's form is offered beside the dealers' forms; under a sealed sitting the trainee
watches the dealer at the item's pace on the supervise screen, sealed (no score, no debrief, no
fault named), flags one fault and hands the flags in; the flags are recorded as each item ends,
the result shows each supervise item's faults caught and missed with their sections, and the
instructor's certificate verifies with the public key alone."""

from __future__ import annotations

import json

from tests.support.command import run_here
from tests.support.exams import code_of, issuer
from tests.support.screens import choose, press, window
from trainer import readable
from trainer.exams import add_bundled_forms, get_form, installation_key
from trainer.exams.certify import certify, dealt_form, issue_sitting, sign_form, sitting_form
from trainer.exams.examples import SUPERVISOR, supervisor_form
from trainer.exams.keys import InstructorKey, write_public_key
from trainer.exams.records import portable_record
from trainer.exams.submission import write_sitting_file
from trainer.progress import Store
from ui.exams.certify import certificate_data
from ui.exams.report import report_html
from ui.qt import QLabel, Qt


def shown_words(widget) -> str:
    return " ".join(label.text() for label in widget.findChildren(QLabel) if label.isVisible())


def test_a_supervise_item_is_sat_sealed_on_the_exam_screen_certified_and_verified(qtbot, tmp_path):
    name, _ = SUPERVISOR
    exam = supervisor_form()
    ivy = issuer(InstructorKey.generate("Ivy Park"))
    with Store.open(tmp_path / "school.db") as store:
        rosa = store.add_trainee("Rosa Diaz")
        add_bundled_forms(store)  # as the app does at start-up: the supervisor's form among them
        key = installation_key(tmp_path / "installation.key")
        with Store.open(tmp_path / "ivy.db") as ledger:
            token = issue_sitting(ledger, ivy, get_form(store, exam.uid), "Rosa Diaz")
            signed = sign_form(sitting_form(ledger, exam, token), ivy)
        # the rounds as the sitting deals them, which the instructor deals again to certify it:
        # what the screen must show the trainee
        sat = dealt_form(exam, token, ivy)
        first = sat.round(0)
        assert len(first.faults) >= 2
        caught, missed = first.faults[0], first.faults[1:]
        path = tmp_path / "rosa.sitting"
        write_sitting_file(path, token, signed, key=ivy)
        w = window(qtbot, store, key, rosa)
        w.resize(1366, 768)
        page = w.show_screen("exam")
        offered = [page.available.item(r, 0).text() for r in range(page.available.rowCount())]
        assert name in offered, offered

        assert page.certification.sit(str(path), confirm=False, code=code_of(token))
        runner = page.runner
        watch = runner.watch
        assert watch.isVisible() and not runner.screen.isVisible()
        assert watch.sealed and watch.round.id == first.id and watch.round.pace == exam.round(0).pace
        assert watch.timer.isActive() and watch.timer.interval() == round(first.pace * 1000)
        now = [1000.0]
        watch.clock = lambda: now[0]
        for _ in range(caught.index):  # the dealer goes on at the item's pace
            watch.timer.timeout.emit()
        assert watch.pos == caught.index
        now[0] += 0.5
        press(qtbot, watch, Qt.Key.Key_F)
        panel = watch.flagging
        choose(qtbot, panel.targets, caught.target)
        press(qtbot, panel.targets, Qt.Key.Key_Right)
        choose(qtbot, panel.choices, caught.type.id)
        qtbot.mouseClick(panel.flag_button, Qt.MouseButton.LeftButton)
        assert [f.at for f in watch.flags] == [caught.at + 0.5]
        for _ in range(len(first.log)):  # the rest of the round, its other faults let by
            watch.timer.timeout.emit()
        qtbot.keyClick(watch, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        # sealed: nothing said of the flags, nothing of the dealer's faults
        assert watch.score is None and not watch.debrief.isVisible()
        said = shown_words(runner)
        assert "handed in" in said and "%" not in said
        assert not any(f.type.words in said for f in first.faults)
        rows = page.store.query("SELECT position, log FROM exam_answers ORDER BY position")
        assert [(r["position"], [f["at"] for f in json.loads(r["log"])]) for r in rows] == [
            (0, [caught.at + 0.5])], "the flags are recorded as the item ends"
        for p in range(1, len(exam.items)):  # the other items watched and handed in unflagged
            qtbot.waitUntil(lambda p=p: runner.index == p, timeout=3000)
            assert watch.round.id == sat.round(p).id and watch.isVisible()
            qtbot.keyClick(watch, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: page.runner is None, timeout=3000)

        # the result: each supervise item's faults, caught or missed, with their sections
        report = page.report.toPlainText()
        assert f"Caught: {readable(caught.type.words)}" in report
        for f in missed:
            assert f"Missed: {readable(f.type.words)}" in report
        for p in range(len(exam.items)):
            for f in sat.round(p).faults:
                assert readable(f.type.section) in report, f.type.id
        faults = sum(len(sat.round(p).faults) for p in range(len(exam.items)))
        assert report.count("Caught: ") == 1 and report.count("Missed: ") == faults - 1
        assert "The dealer's faults: 1 of" in report

        [result] = [r for r in page.store.query("SELECT id FROM exam_results")]
        record = portable_record(store, result["id"])
        w.close()
    with Store.open(tmp_path / "ivy.db") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["roles"] == ["supervisor"] and certificate["passed"] is False  # criticals missed
    said = certificate["answers"][0]["supervise"]
    assert [f["caught_at"] for f in said["faults"]] == [caught.at + 0.5] + [None] * len(missed)
    write_public_key(tmp_path / "ivy.pub", ivy.public)
    (tmp_path / "certs.json").write_text(json.dumps([certificate]), encoding="utf-8")
    done = run_here("verify-results", str(tmp_path / "certs.json"), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 0 and "1 certificate verified" in done.stdout, done.stdout + done.stderr

    # the certificate's report says the same of each fault; a supervise part made hostile is left out
    def printed(cert) -> str:
        return report_html(certificate_data(cert, True))

    text = printed(certificate)
    assert "<h1>Supervisor Certification Exam — Certified result (not passed)</h1>" in text
    certificate["roles"] = ["supervisor", "<script>"]  # not a form's roles: read as a dealer's exam
    assert "<h1>Dealer Certification Exam — " in printed(certificate)
    certificate["roles"] = ["supervisor"]
    assert text.count("<b>Caught</b>: ") == 1 and text.count("<b>Missed</b>: ") == faults - 1
    for hostile in ([], {"faults": "x"}, {"faults": [1, None, "x"]}, "x", None):
        certificate["answers"][0]["supervise"] = hostile
        assert printed(certificate).count("<b>Missed</b>: ") == faults - 1 - len(missed), hostile


def test_the_exam_list_reads_each_exams_name_whole_in_large_print_on_a_laptop(qtbot, tmp_path):
    """The floor supervisor's form lists every game: its games are cut (the whole in a tooltip),
    never the exams' names, and the list does not scroll sideways."""
    from tests.support.screens import window as main_window
    from trainer.exams import add_bundled_forms, installation_key
    from trainer.progress import Store
    from ui.qt import QApplication, QFont, QFontMetrics
    from ui.shell import theme

    app = QApplication.instance()
    theme.apply(app, "light", large=True)
    store = Store.open(tmp_path / "ws.db")
    add_bundled_forms(store)
    window = main_window(qtbot, store, installation_key(tmp_path / "k"), store.add_trainee("Rosa Diaz"))
    window.resize(1366, 700)
    window.show()
    qtbot.waitExposed(window)
    try:
        listed = window.show_screen("exam").available
        qtbot.wait(20)
        assert listed.rowCount() >= 5
        names = [listed.item(r, 0).text() for r in range(listed.rowCount())]
        widest = max(listed.fontMetrics().horizontalAdvance(n) for n in names)
        assert listed.columnWidth(0) >= widest, f"a name is cut in a column {listed.columnWidth(0)} wide"
        assert not listed.horizontalScrollBar().isVisible()
        games = [listed.item(r, 1) for r in range(listed.rowCount())]
        assert all(g.toolTip() == g.text() for g in games)
        # a window narrower than the list: it scrolls sideways, and the Games heading stays whole
        # (the sixth cold review saw it cut to "ım" in a 1024-pixel window, in normal print)
        theme.apply(app, "light", large=False)
        window.resize(1024, 700)
        qtbot.waitUntil(lambda: listed.horizontalScrollBar().isVisible())
        bold = QFont(listed.horizontalHeader().font())
        bold.setBold(True)
        assert listed.columnWidth(1) > QFontMetrics(bold).horizontalAdvance("Games")
    finally:
        window.close()
        store.close()
        app.setStyleSheet("")
        app.setPalette(app.style().standardPalette())
        app.setProperty("theme", None)
        app.setProperty("large_print", None)
