"""The Exam screen: take a timed exam with no feedback, see the result with every finding cited,
print it, have it signed off; instructors also build and move exam forms.

While an exam runs the window is locked to it (no other screen, no rules). Closing the app ends
the attempt as left; each part is recorded the moment it is done, so a crash loses no answer."""

from __future__ import annotations

import time
from pathlib import Path

from trainer.exams import Ending
from trainer.games import GAME_NAMES
from ui.exam_certify import CertificatesTab, Certification
from ui.qt import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)


def certification_text(result, certificate: dict | None, signer) -> str:
    """What the Results list and the report say of a result's certification: from a signature
    checked with an instructor key of this file (`signer`, the PublicKey it verified with, named
    as this file's profile names it), never from a flag or a name in the certificate."""
    if certificate is not None:
        if signer is None:
            return "⚠ a certificate that does not verify with an instructor key here"
        return f"✓ certified by {signer.name} (key {signer.fingerprint})"
    if result.sitting is not None:
        return "sat under a sitting — not yet certified: export it for certification"
    return "practice exam — not certifiable (sat without a sitting)"


def report_data(result, certification: str) -> dict:
    """What the printed report and the result view show, from an ExamResult that has no
    certificate here (a certified one shows its certificate, ui.exam_certify.certificate_data)."""
    items = []
    answered = {a.position: a for a in result.answers}
    for p in range(result.item_count):
        a = answered.get(p)
        items.append({"title": a.title if a else f"Part {p + 1} (not answered)",
                      "total": a.total if a else 0, "findings": list(a.findings) if a else []})
    return {"trainee": result.trainee_name, "form": result.form_name, "started": result.started,
            "ended": result.ended, "duration": (result.ended or time.time()) - result.started,
            "status": result.status.value, "passed": result.passed, "total": result.total or 0,
            "procedure": result.procedure or 0, "payouts": result.payouts or 0,
            "speed": result.speed or 0, "pass_mark": result.pass_mark, "items": items,
            "result_id": result.id, "certification": certification}


def table(headers: list[str], stretch: int = 0) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.verticalHeader().setVisible(False)
    header = t.horizontalHeader()
    for column in range(len(headers)):  # every heading readable; the one column takes the rest
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return t


def fill(t: QTableWidget, rows: list[tuple], keys: list) -> None:
    t.setRowCount(len(rows))
    for r, (cells, key) in enumerate(zip(rows, keys, strict=True)):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(str(text))
            item.setData(Qt.ItemDataRole.UserRole, key)
            t.setItem(r, c, item)
    if rows:
        t.selectRow(0)


def selected(t: QTableWidget):
    items = t.selectedItems()
    return items[0].data(Qt.ItemDataRole.UserRole) if items else None


class ExamPage(QWidget):
    locked = Signal(bool)  # an exam started (True) or ended (False)

    def __init__(self, services, parent=None):
        super().__init__(parent)
        self.services = services
        self.store = services.store
        self.trainee = services.trainee
        self.session = None
        self.runner = None
        self.shown_result = None
        self.certification = Certification(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        self.stack = QStackedWidget()
        layout.addWidget(self.stack)
        home = QWidget()
        h = QVBoxLayout(home)
        h.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("Exams")
        self.title.setObjectName("pageTitle")
        h.addWidget(self.title)
        self.tabs = QTabWidget()
        h.addWidget(self.tabs, 1)
        self.stack.addWidget(home)
        # take an exam
        take = QWidget()
        t = QVBoxLayout(take)
        note = QLabel("Sat as a certification exam is: no feedback, hints or rules screen until "
                      "it is over; the clock runs; leaving ends the attempt. A result counts for "
                      "certification only when sat under a sitting your instructor issued: "
                      "<b>Sit with a sitting file…</b>. The exams listed here are for practice.")
        note.setWordWrap(True)
        t.addWidget(note)
        self.available = table(["Exam", "Games", "Parts", "Time", "Pass mark", "Attempts left"])
        t.addWidget(self.available, 1)
        self.start_button = QPushButton("Start the exam")
        self.start_button.setObjectName("primary")
        self.start_button.clicked.connect(self.start)
        self.sitting_button = QPushButton("Sit with a sitting file…")
        self.sitting_button.setToolTip("A certification exam the instructor issued to you: open the "
                                       "sitting file they gave you")
        self.sitting_button.clicked.connect(lambda: self.certification.sit())
        starts = QHBoxLayout()
        starts.addStretch(1)
        starts.addWidget(self.sitting_button)
        starts.addWidget(self.start_button)
        t.addLayout(starts)
        self.tabs.addTab(take, "Take an exam")
        # results
        res = QWidget()
        r = QVBoxLayout(res)
        self.results = table(["Trainee", "Exam", "Taken", "Result", "Total", "Certification"], 5)
        self.results.itemActivated.connect(lambda _i: self.open_result())
        r.addWidget(self.results, 1)
        row = QHBoxLayout()
        for text, slot in (("Open", self.open_result), ("Print report…", self.print_selected),
                           ("Export for certification…", lambda: self.certification.submit())):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        row.addStretch(1)
        r.addLayout(row)
        self.tabs.addTab(res, "Results")
        if self.trainee is not None and self.trainee.instructor:
            self.tabs.addTab(self._forms_tab(), "Forms")
            self.certificates = CertificatesTab(self)
            self.tabs.addTab(self.certificates.widget, "Certificates")
        # the result of the exam just taken, or one opened from the list
        done = QWidget()
        d = QVBoxLayout(done)
        self.report = QTextBrowser()
        d.addWidget(self.report, 1)
        row = QHBoxLayout()
        self.print_button = QPushButton("Print report…")
        self.print_button.clicked.connect(lambda: self.print_result(self.shown_result))
        back = QPushButton("Back to exams")
        back.clicked.connect(self.home)
        row.addWidget(self.print_button)
        row.addStretch(1)
        row.addWidget(back)
        d.addLayout(row)
        self.stack.addWidget(done)
        self.refresh()

    def _forms_tab(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.forms = table(["Form", "Games", "Parts", "Time", "Pass mark", "Attempts"])
        v.addWidget(self.forms, 1)
        row = QHBoxLayout()
        for text, slot in (("New form…", self.new_form), ("Import form…", self.import_form),
                           ("Export form…", self.export_form),
                           ("Issue a sitting…", lambda: self.certification.issue()),
                           ("Certify a submission…", lambda: self.certification.certify())):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        row.addStretch(1)
        v.addLayout(row)
        return w

    # --- lists ---------------------------------------------------------------------------------

    def selected_form(self) -> str | None:
        """The uid of the form chosen on the Forms tab (instructors only)."""
        return selected(self.forms) if hasattr(self, "forms") else None

    def certification_of(self, result) -> tuple[dict | None, str]:
        """(the certificate this file holds for the result, or None; what to say of it)."""
        from trainer.exams.certify import certificate_for, certificate_matches, trusted_signer
        from trainer.exams.roles import trusted_keys

        cert = certificate_for(self.store, result.uid)
        signer = None
        if cert is not None:
            if not certificate_matches(cert, result):  # another result's, under this one's id
                return None, "⚠ a certificate bears this result's id but is another result's"
            signer = trusted_signer(cert, trusted_keys(self.store))
        return cert, certification_text(result, cert, signer)

    def refresh(self) -> None:
        from trainer.exams import ExamAccess, list_forms, results_for

        if self.store is None or self.trainee is None:
            self.title.setText("Exams — choose a trainee profile with a progress file first")
            self.start_button.setEnabled(False)
            return
        self.title.setText(f"Exams — {self.trainee.name}")
        access = ExamAccess(self.store, self.trainee)
        avail = access.available()
        fill(self.available, [(a.name, ", ".join(GAME_NAMES.get(g, g) for g in a.games), a.item_count,
                               f"{a.time_limit_seconds // 60} min", a.pass_mark,
                               f"{a.attempts_left} of {a.attempts_allowed}") for a in avail],
             [a.uid for a in avail])
        shown = sorted(results_for(self.store, self.trainee), key=lambda x: -x.started)
        fill(self.results, [(x.trainee_name, x.form_name, time.strftime("%Y-%m-%d %H:%M",
                                                                          time.localtime(x.started)),
                             x.status.value, x.total if x.total is not None else "—",
                             self.certification_of(x)[1]) for x in shown],
             [x.id for x in shown])
        if hasattr(self, "certificates"):
            self.certificates.refresh()
        if hasattr(self, "forms"):
            forms = list_forms(self.store)
            fill(self.forms, [(f.name, ", ".join(GAME_NAMES.get(g, g) for g in f.games),
                               f"{f.draw} drawn of {len(f.items)}" if f.draw else len(f.items),
                               f"{f.time_limit_seconds // 60} min", f.pass_mark, f.attempts_allowed)
                              for f in forms], [f.uid for f in forms])

    # --- sitting -------------------------------------------------------------------------------

    def start(self, uid: str | None = None, confirm: bool = True) -> None:
        uid = uid or selected(self.available)
        if uid is None:
            return
        if confirm and QMessageBox.question(
                self, "Start the exam?", "The clock starts now. There is no feedback until the end, "
                "and leaving ends the attempt. Start?") != QMessageBox.StandardButton.Yes:
            return
        self.begin(uid)

    def begin(self, form, sitting: dict | None = None) -> bool:
        """Start the attempt (a stored form's uid, or a form from a sitting file with its token)
        and lock the window to it; False (with a message) when it is refused."""
        from trainer.exams import ExamError, start_exam
        from trainer.progress.errors import StoreError
        from ui.exam_runner import ExamRunner

        try:
            self.session = start_exam(self.store, form, self.trainee.id, self.services.key,
                                      sitting=sitting)
        except (ExamError, StoreError) as e:
            QMessageBox.warning(self, "Exam", str(e))
            return False
        form = self.session.form
        scenarios = [self.session.scenario(p) for p in range(len(form.items))]
        self.runner = ExamRunner(form.name, scenarios, self.session.remaining)
        self.runner.item_finished.connect(self._answer)
        self.runner.over.connect(self._over)
        self.stack.addWidget(self.runner)
        self.stack.setCurrentWidget(self.runner)
        self.locked.emit(True)
        self.runner.start()
        return True

    def _answer(self, position: int, result, round_) -> None:
        from trainer.exams import ExamError
        from trainer.progress.errors import StoreError

        try:
            self.session.record(position, result, round_.log)
        except ExamError:  # time is up by the exam's own clock
            self.runner.end(Ending.TIME_UP)
        except StoreError as e:  # the file cannot take the answer: say so, and end the attempt
            QMessageBox.critical(self, "Exam", f"{e}\n\nThe attempt ends here; the answers "
                                 "saved before this one are kept.")
            self.runner.end(Ending.LEFT)

    def _over(self, how: Ending) -> None:
        session, runner = self.session, self.runner
        if not session.over:
            {Ending.FINISHED: session.finish, Ending.TIME_UP: session.time_out,
             Ending.LEFT: session.abandon}[how]()
        result = session.result
        self.session = None
        self.runner = None
        self.stack.removeWidget(runner)
        runner.deleteLater()
        self.locked.emit(False)
        self.refresh()
        self.show_result(result)

    def abandon(self) -> None:
        """End a running exam as left (the app is closing)."""
        if self.runner is not None:
            self.runner.end(Ending.LEFT)

    # --- results -------------------------------------------------------------------------------

    def report_of(self, result) -> dict:
        """The report's fields: the certificate's when this file holds one, else the result's."""
        from ui.exam_certify import certificate_data

        cert, text = self.certification_of(result)
        if cert is not None:
            return certificate_data(cert, text.startswith("✓"))
        return report_data(result, text)

    def show_result(self, result) -> None:
        from ui.report import report_html

        self.shown_result = result
        self.print_button.setEnabled(True)
        self.report.setHtml(report_html(self.report_of(result)))
        self.stack.setCurrentIndex(1)

    def show_html(self, text: str) -> None:
        """Show a report that is not a result of this file (a certificate)."""
        self.shown_result = None
        self.report.setHtml(text)
        self.print_button.setEnabled(False)
        self.stack.setCurrentIndex(1)

    def home(self) -> None:
        self.print_button.setEnabled(True)
        self.stack.setCurrentIndex(0)
        self.refresh()

    def _result(self, result_id):
        from trainer.exams import ExamAccess

        return ExamAccess(self.store, self.trainee).result(result_id) if result_id is not None else None

    def open_result(self) -> None:
        result = self._result(selected(self.results))
        if result is not None:
            self.show_result(result)

    def print_selected(self) -> None:
        self.print_result(self._result(selected(self.results)))

    def print_result(self, result, path: str | None = None) -> Path | None:
        from ui.report import write_pdf

        if result is None:
            return None
        if path is None:
            name = f"exam-{result.trainee_name}-{result.id}.pdf".replace(" ", "-")
            path, _ = QFileDialog.getSaveFileName(self, "Print the report to PDF", name, "PDF (*.pdf)")
        if not path:
            return None
        out = write_pdf(self.report_of(result), Path(path))
        self.window().statusBar().showMessage(f"Report written to {out}", 10000)
        return out

    # --- forms and files (instructor) ----------------------------------------------------------

    def new_form(self) -> None:
        from trainer.exams import add_form
        from trainer.exams.examples import exam_items
        from ui.exam_forms import FormBuilder

        builder = FormBuilder(exam_items().values(), self.trainee.name, self)
        if builder.exec() and builder.form is not None:
            add_form(self.store, builder.form)
            self.refresh()

    def import_form(self) -> None:
        from trainer.exams import ExamError, import_form

        path, _ = QFileDialog.getOpenFileName(self, "Import an exam form", "", "Exam forms (*.json)")
        if path:
            try:
                form, added = import_form(self.store, path)
            except ExamError as e:
                QMessageBox.warning(self, "Import form", str(e))
                return
            QMessageBox.information(self, "Import form", f"{form.name}: "
                                    + ("added." if added else "already here."))
            self.refresh()

    def export_form(self) -> None:
        from trainer.exams import export_form

        uid = selected(self.forms)
        if uid is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the exam form", "exam-form.json",
                                              "Exam forms (*.json)")
        if path:
            export_form(self.store, uid, path)
