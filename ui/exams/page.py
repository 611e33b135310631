"""The Exam screen: take a timed exam with no feedback, see the result with every finding cited,
print it, have it signed off; instructors also build and move exam forms.

While an exam runs the window is locked to it (no other screen, no rules). Closing the app ends
the attempt as left; each part is recorded the moment it is done, so a crash loses no answer.

Its parts: sitting an exam (ui.exams.sitting), a result and its report (ui.exams.results), the
instructor's forms (ui.exams.forms) and certification (ui.exams.certify)."""

from __future__ import annotations

import time

from trainer import GAME_NAMES
from ui.exams.certify import CertificatesTab, Certification
from ui.exams.forms import FormsTab
from ui.exams.results import ResultsShown
from ui.exams.sitting import ExamSitting
from ui.qt import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ui.shell.lists import button_row, fill, selected, table


class ExamPage(ExamSitting, ResultsShown, FormsTab, QWidget):
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
        # the exam's name read whole; the games take the room left (a form of every game is long)
        self.available = table(["Exam", "Games", "Parts", "Time", "Pass mark", "Attempts left"], stretch=1)
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
        r.addLayout(button_row((("Open", self.open_result), ("Print report…", self.print_selected),
                                ("Export for certification…", lambda: self.certification.submit()))))
        self.tabs.addTab(res, "Results")
        if self.trainee is not None and self.trainee.instructor:
            self.tabs.addTab(self._forms_tab(), "Forms")
            self.certificates = CertificatesTab(self)
            self.tabs.addTab(self.certificates.widget, "Certificates")
        # the result of the exam just taken, or one opened from the list
        done = QWidget()
        d = QVBoxLayout(done)
        self.report = QTextBrowser()
        self.report.setObjectName("report")
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

    # --- lists ---------------------------------------------------------------------------------

    def class_connection(self):
        """The class this machine is joined to, whose server counts the exam attempts; or None."""
        classroom = getattr(self.services, "classroom", None)
        return classroom.connection if classroom is not None else None

    def selected_form(self) -> str | None:
        """The uid of the form chosen on the Forms tab (instructors only)."""
        return selected(self.forms) if hasattr(self, "forms") else None

    def refresh(self) -> None:
        from trainer.exams import ExamAccess, as_the_class_holds, list_forms, results_for
        from trainer.progress import StoreError

        if self.store is None or self.trainee is None:
            self.title.setText("Exams — choose a trainee profile with a progress file first")
            self.start_button.setEnabled(False)
            return
        self.title.setText(f"Exams — {self.trainee.name}")
        access = ExamAccess(self.store, self.trainee, self.class_connection())
        avail = access.available()
        fill(self.available, [(a.name, ", ".join(GAME_NAMES.get(g, g) for g in a.games), a.item_count,
                               f"{a.time_limit_seconds // 60} min", a.pass_mark,
                               f"{a.attempts_left} of {a.attempts_allowed}") for a in avail],
             [a.uid for a in avail])
        try:  # a result that cannot be read is left out, and named in the status bar
            shown = sorted(results_for(self.store, self.trainee), key=lambda x: -x.started)
            # sat in a class, the verdict listed is the one the class server holds (and certifies)
            held = [as_the_class_holds(self.store, x)[0] for x in shown]
            rows = [(x.trainee_name, x.form_name, time.strftime("%Y-%m-%d %H:%M", time.localtime(x.started)),
                     h.status.value, h.total if h.total is not None else "—", self.certification_of(x)[1])
                    for x, h in zip(shown, held, strict=True)]
        except StoreError as e:  # the file cannot be read now: said, and nothing listed
            shown, rows = [], []
            self.services.status.emit(str(e))
        fill(self.results, rows, [x.id for x in shown])
        if hasattr(self, "certificates"):
            self.certificates.refresh()
        if hasattr(self, "forms"):
            forms = list_forms(self.store, archived=self.show_retired.isChecked())
            fill(self.forms, [(f.name + (" (retired)" if f.archived else ""),
                               ", ".join(GAME_NAMES.get(g, g) for g in f.games),
                               f"{f.draw} drawn of {len(f.items)}" if f.draw else len(f.items),
                               f"{f.time_limit_seconds // 60} min", f.pass_mark, f.attempts_allowed,
                               self.in_class(f.uid))
                              for f in forms], [f.uid for f in forms])
            self.read_given()  # "In the class", from the class server on a thread, while in a class
