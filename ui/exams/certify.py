"""Certification on the Exam screen: a trainee sits the exam a sitting file grants and exports
the results for certification; an instructor issues sittings and certifies submissions with the
instructor key (trainer.exams.certify, trainer.exams.submission). Every method takes its files
and answers as arguments too, so tests drive it without the file pickers."""

from __future__ import annotations

from pathlib import Path

from ui.qt import QFileDialog, QInputDialog, QLineEdit, QMessageBox, Qt


class Certification:
    def __init__(self, page):
        self.page = page

    # --- the trainee's side ----------------------------------------------------------------------

    def sit(self, path: str | None = None, confirm: bool = True, code: str | None = None) -> bool:
        """Open a sitting file (asking the start code of a sealed one) and start the exam it
        grants (this trainee, this form, in time)."""
        from trainer.exams import ExamError, needs_start_code, open_sitting_file, sitting_used

        page = self.page
        if path is None:
            path, _ = QFileDialog.getOpenFileName(page, "Open the sitting file your instructor gave "
                                                  "you", "", "Sittings (*.sitting *.json)")
        if not path:
            return False
        try:
            if code is None and needs_start_code(path):  # typed by the proctor, not shown
                code, ok = QInputDialog.getText(page, "Start code", "The proctor types the start "
                                                "code here (XXXX-XXXX-XXXX-XXXX):",
                                                QLineEdit.EchoMode.Password)
                if not ok:
                    return False
            sitting, token, form = open_sitting_file(path, code)
        except ExamError as e:
            QMessageBox.warning(page, "Sitting", str(e))
            return False
        used = sitting_used(page.store, token, page.services.seen)
        if used is not None:  # said before "the clock starts now", never after it
            QMessageBox.warning(page, "Sitting", used[:1].upper() + used[1:] + ".")
            return False
        if confirm and not self._confirmed(sitting, form):
            return False
        return page.begin(form, sitting=token, start_code=code)

    def _confirmed(self, sitting, form) -> bool:
        """The start dialog: what exam is coming (from the signed token, before a sealed form is
        open) and when its clock starts; True on Start."""
        from trainer.exams import Ahead, SealedSitting

        about = form.ahead if isinstance(form, SealedSitting) else Ahead.of(form)
        items, minutes = about.items, about.time_limit_seconds / 60
        box = QMessageBox(QMessageBox.Icon.Question, "Start the exam?",
                          f"{about.name}: {items} item{'s' if items != 1 else ''}, "
                          f"{minutes:g} minute{'s' if minutes != 1 else ''}. Attempt {sitting.attempt} "
                          f"of {about.attempts_allowed}, issued to {sitting.trainee} with the "
                          f"instructor key {sitting.signer}.", parent=self.page)
        box.setObjectName("startExam")
        if isinstance(form, SealedSitting):
            box.setInformativeText(
                "The class server must record your start before the items open: Start asks it now, "
                "and the exam opens once it has. Its clock, which times the exam, runs from then. "
                "There is no feedback until the end, and leaving ends the attempt.")
        else:
            box.setInformativeText("The clock starts now. There is no feedback until the end, and "
                                   "leaving ends the attempt.")
        start = box.addButton("Start", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        chosen = box.clickedButton() is start
        box.deleteLater()
        return chosen

    def submit(self, path: str | None = None) -> int | None:
        """Write this trainee's results sat under sittings (an instructor's: everyone's)."""
        from trainer.exams import export_submission

        page = self.page
        if path is None:
            name = f"exam-submission-{page.trainee.name}.json".replace(" ", "-")
            path, _ = QFileDialog.getSaveFileName(page, "Export results for certification", name,
                                                  "Submissions (*.json)")
        if not path:
            return None
        who = None if page.trainee.instructor else page.trainee.id
        try:
            count = export_submission(page.store, path, trainee_id=who)
        except OSError as e:
            QMessageBox.warning(page, "Export for certification", f"{path}: {e.strerror or e}")
            return None
        page.window().statusBar().showMessage(
            f"{count} result{'s' if count != 1 else ''} sat under a sitting written to {path}: give "
            "it to your instructor to certify", 15000)
        return count

    # --- the instructor's side ---------------------------------------------------------------------

    def _key(self, key_path: str | None, passphrase: str | None, title: str):
        from trainer.exams import ExamError, read_private_key
        from ui.shell.server_call import status_bar_of
        from ui.shell.working import KEY_WORK, off_the_gui_thread

        page = self.page
        known = getattr(page.trainee, "key_path", None)
        if key_path is None and known and Path(known).is_file():
            key_path = known  # the key this instructor profile was made with
        if key_path is None:
            key_path, _ = QFileDialog.getOpenFileName(page, f"{title}: your instructor key", "",
                                                      "Instructor keys (*.key *.json)")
        if not key_path:
            return None
        if passphrase is None:
            passphrase, ok = QInputDialog.getText(page, title, "The instructor key's passphrase:",
                                                  QLineEdit.EchoMode.Password)
            if not ok:
                return None
        try:
            return off_the_gui_thread(status_bar_of(page), KEY_WORK,
                                      lambda: read_private_key(key_path, passphrase))
        except ExamError as e:
            QMessageBox.warning(page, title, str(e))
            return None

    def issue(self, trainee: str | None = None, out: str | None = None, key_path: str | None = None,
              passphrase: str | None = None) -> dict | None:
        """Issue a sitting of the selected form to a trainee, signed with the instructor key."""
        from trainer.exams import (
            ExamError,
            UncertifiedSittingError,
            get_form,
            issue_sitting,
            sign_form,
            sitting_form,
            write_sitting_file,
        )

        page = self.page
        uid = page.selected_form()
        if uid is None:
            QMessageBox.information(page, "Issue a sitting", "Choose a form first.")
            return None
        form = get_form(page.store, uid)
        if trainee is None:
            names = [t.name for t in page.store.trainees() if not t.instructor]
            trainee, ok = QInputDialog.getItem(page, "Issue a sitting", f"{form.name}\n\nTrainee:",
                                               names, 0, True)
            if not ok:
                return None
        key = self._key(key_path, passphrase, "Issue a sitting")
        if key is None:
            return None
        if out is None:
            name = f"{trainee}-{form.name}.sitting".replace(" ", "-").replace(":", "")
            out, _ = QFileDialog.getSaveFileName(page, "Save the sitting file", name,
                                                 "Sittings (*.sitting)")
        if not out:
            return None
        try:
            try:
                token = issue_sitting(page.store, key, form, trainee, classroom=page.class_connection())
            except UncertifiedSittingError as e:  # a fail nobody handed in is not passed over silently
                if QMessageBox.question(
                        page, "Issue a sitting", f"{e.said}. Certify… certifies it from the class "
                        "server's record, a pass or a fail, with nothing handed in.\n\nIssue a new "
                        "sitting anyway?",
                        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                        QMessageBox.StandardButton.No) != QMessageBox.StandardButton.Yes:
                    return None
                token = issue_sitting(page.store, key, form, trainee, classroom=page.class_connection(),
                                      after_uncertified=True)
            code = write_sitting_file(out, token, sign_form(sitting_form(page.store, form, token), key),
                                      key=key, pool=form)
        except (ExamError, OSError) as e:
            QMessageBox.warning(page, "Issue a sitting", str(e))
            return None
        box = QMessageBox(QMessageBox.Icon.Information, "Issue a sitting",
                          f"Attempt {token['attempt']} of {form.attempts_allowed} for "
                          f"{token['trainee']}, signed by {key.name} ({key.public.fingerprint}), "
                          f"written to {out}.\n\nThe exam in it is sealed. Start code:\n\n{code}"
                          "\n\nGive the code to the trainee when the sitting starts, not before.",
                          parent=page)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.exec()
        return {**token, "start_code": code}

    def certify(self, path: str | None = None, out: str | None = None, key_path: str | None = None,
                passphrase: str | None = None, *, class_only: bool | None = None):
        """Re-grade a workstation's submission and sign a certificate for each result; joined to a
        class, also every sitting that ended on the class server and is not certified, from its
        record (nothing need be handed in). `class_only`: in a class, no submission (None: asked)."""
        from trainer.exams import (
            CertifySummary,
            ExamError,
            certificate_notes,
            certify_class,
            certify_submission,
            write_certificates,
        )

        page = self.page
        classroom = page.class_connection()
        if classroom is None:
            class_only = False
        elif path is None and class_only is None:
            asked = QMessageBox.question(
                page, "Certify", "The sittings that ended on the class server are certified from its "
                "record: nothing need be handed in.\n\nAdd a workstation's submission too?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.No)
            if asked == QMessageBox.StandardButton.Cancel:
                return None
            class_only = asked != QMessageBox.StandardButton.Yes
        if path is None and not class_only:
            path, _ = QFileDialog.getOpenFileName(page, "Certify a submission", "",
                                                  "Submissions (*.json)")
            if not path:
                return None
        key = self._key(key_path, passphrase, "Certify")
        if key is None:
            return None
        from trainer.progress import StoreError

        try:
            summary = CertifySummary() if class_only else \
                certify_submission(page.store, key, path, classroom=classroom)
            if classroom is not None:
                certify_class(page.store, key, classroom, summary=summary)
        except (ExamError, StoreError) as e:
            QMessageBox.warning(page, "Certify", str(e))
            return None
        if summary.certificates:
            if out is None:
                out, _ = QFileDialog.getSaveFileName(page, "Save the certificates",
                                                     "certificates.json", "Certificates (*.json)")
            if out:
                write_certificates(out, summary.certificates)
        lines = [f"{c['trainee']}, {c['form']['name']}: "
                 f"{'passed' if c['passed'] else 'did not pass'} ({c['total']})"
                 + (", abandoned" if c["status"] == "abandoned" else "")
                 + (", from the class server's record" if c.get("recorded") else "")
                 + "".join(f" — {note}" for note in certificate_notes(c))
                 for c in summary.certificates]
        lines += [f"Refused — {r}" for r in summary.refused]
        QMessageBox.information(page, "Certify", f"{len(summary.certificates)} certified, "
                                f"{len(summary.refused)} refused.\n\n" + "\n".join(lines))
        return summary


# --- the instructor's certificates ------------------------------------------------------------------

HEADERS = ["Trainee", "Exam", "Attempt", "Result", "Total", "Signature", "Sat", "Certified"]


def sat_on(cert: dict) -> float | None:
    """When the exam a certificate certifies was sat, as it signs it (trainer.exams.certify
    date_sat); None for a certificate signed before it stated the date, or stating none."""
    from datetime import datetime

    sat = cert.get("sat")
    if isinstance(sat, bool) or not isinstance(sat, int | float):
        return None
    try:  # a date no calendar holds (NaN, 1e300) is no date: a certificate may be hostile
        datetime.fromtimestamp(sat)
    except (OverflowError, OSError, ValueError):
        return None
    return float(sat)


def supervised_faults(answer: dict) -> dict:
    """A certified supervise item's faults, each caught or missed (report_html's item "faults");
    nothing for a dealer's item, or for a part the certificate does not hold as it should."""
    said = answer.get("supervise")
    faults = said.get("faults") if isinstance(said, dict) else None
    if not isinstance(faults, list):
        return {}
    return {"faults": [{"words": str(f.get("words", "")), "section": str(f.get("section", "")),
                        "severity": str(f.get("severity", "")), "caught": f.get("caught_at") is not None}
                       for f in faults if isinstance(f, dict)]}


def certificate_data(cert: dict, verified: bool) -> dict:
    """What the printed report shows of a certificate (ui.exams.report.report_html's fields)."""
    from trainer import part_title
    from trainer.exams import verification_code

    items = [{"title": part_title(str(a.get("title", f"Part {a.get('position', 0) + 1}")), a.get("game")),
              "total": a.get("total", 0),
              "findings": a.get("findings", []), "passed": bool(a.get("passed")),
              **supervised_faults(a)}
             for a in cert.get("answers", [])]
    answered = {a.get("position") for a in cert.get("answers", [])}
    items += [{"title": f"Part {p + 1} (not answered)", "total": 0, "findings": [], "passed": False}
              for p in range(cert["form"]["items"]) if p not in answered]
    return {"trainee": cert["trainee"], "form": cert["form"]["name"], "started": None, "ended": None,
            "duration": 0, "status": cert["status"], "passed": cert["passed"], "total": cert["total"],
            "procedure": cert["procedure"], "payouts": cert["payouts"], "speed": cert["speed"],
            "pass_mark": cert["form"]["pass_mark"], "items": items, "result_id": cert["result"],
            "roles": cert.get("roles"),
            # a certificate signed before rules were stated was graded under rule 1
            "rule": cert["rule"].get("number") if isinstance(cert.get("rule"), dict) else cert.get("rule"),
            "certificate": {"signer": cert["signer"]["name"], "attempt": cert["attempt"],
                            "fingerprint": cert["signer"]["fingerprint"],
                            "certified": cert["certified"], "sat": sat_on(cert),
                            "code": verification_code(cert),
                            "verified": verified}}


def _day(t: float | None) -> str:
    import time

    return "—" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


class CertificatesTab:
    """The certificates in the instructor's ledger, each checked against the instructor keys of
    this file's profiles (never against the key a certificate merely names)."""

    def __init__(self, page):
        from ui.qt import QLabel, QVBoxLayout, QWidget
        from ui.shell.lists import button_row, table

        self.page = page
        self.widget = QWidget()
        v = QVBoxLayout(self.widget)
        self.table = table(HEADERS, 1)
        self.table.itemActivated.connect(lambda _i: self.open())
        v.addWidget(self.table, 1)
        v.addLayout(button_row((("Open", self.open), ("Print certificate…", self.print_selected),
                                ("Export certificates…", self.export),
                                ("The class's certificates", self.read_class))))
        self.note = QLabel("")
        self.note.setWordWrap(True)
        v.addWidget(self.note)
        self.shown: list[dict] = []
        self.kept: list[str] = []  # where each row's certificate is kept: this file or the class
        self.from_class: list[tuple[dict, object]] = []  # (certificate, trusted signer or None)

    def trusted(self):
        from trainer.exams import trusted_keys

        return trusted_keys(self.page.store)

    def verified(self, cert: dict) -> bool:
        from trainer.exams import trusted_signer

        return trusted_signer(cert, self.trusted()) is not None

    def refresh(self) -> None:
        from trainer.exams import certificates
        from ui.shell.lists import fill

        here = list(reversed(certificates(self.page.store)))
        signatures = {c.get("signature") for c in here}
        joined = [(c, signer) for c, signer in reversed(self.from_class)
                  if c.get("signature") not in signatures]
        self.shown = here + [c for c, _ in joined]
        self.kept = ["this file"] * len(here) + ["the class"] * len(joined)
        checked = [self.verified(c) for c in here] + [signer is not None for _, signer in joined]
        fill(self.table, [(c["trainee"], c["form"]["name"], c["attempt"], c["status"], c["total"],
                           ("✓ verified" if ok else "⚠ not by an instructor key here")
                           + (" · kept by the class" if kept == "the class" else ""),
                           _day(sat_on(c)), _day(c["certified"]))
                          for c, ok, kept in zip(self.shown, checked, self.kept, strict=True)],
             list(range(len(self.shown))))

    def read_class(self) -> int | None:
        """Read the certificates the class server keeps (an instructor's or supervisor's login),
        each checked with this file's instructor keys, beside this file's own: the class's
        certificates are the ones every instructor's machine signed."""
        from trainer.exams import ExamError, class_certificates
        from ui.qt import QApplication, Qt

        classroom = self.page.class_connection()
        if classroom is None:
            self.note.setText("This machine is not joined to a class (File › Join class…).")
            return None
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.from_class = class_certificates(classroom, self.trusted())
        except ExamError as e:
            self.note.setText(f"The class's certificates cannot be read: {e}")
            return None
        finally:
            QApplication.restoreOverrideCursor()
        unverified = sum(1 for _, signer in self.from_class if signer is None)
        self.note.setText(f"The class keeps {len(self.from_class)} certificates"
                          + (f"; {unverified} verify with no instructor key of this file, and are not "
                             "to be believed" if unverified else "") + ".")
        self.refresh()
        return len(self.from_class)

    def _selected(self) -> dict | None:
        from ui.shell.lists import selected

        n = selected(self.table)
        return self.shown[n] if n is not None else None

    def open(self) -> None:
        from ui.exams.report import report_html

        cert = self._selected()
        if cert is not None:
            self.page.show_html(report_html(certificate_data(cert, self.verified(cert))))

    def print_selected(self, path: str | None = None):
        from pathlib import Path

        from ui.exams.report import write_pdf

        cert = self._selected()
        if cert is None:
            return None
        if path is None:
            name = f"certificate-{cert['trainee']}-{cert['attempt']}.pdf".replace(" ", "-")
            path, _ = QFileDialog.getSaveFileName(self.page, "Print the certificate to PDF", name,
                                                  "PDF (*.pdf)")
        if not path:
            return None
        return write_pdf(certificate_data(cert, self.verified(cert)), Path(path))

    def export(self, path: str | None = None) -> int | None:
        from trainer.exams import certificates, write_certificates

        found = certificates(self.page.store)
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.page, "Export the certificates",
                                                  "certificates.json", "Certificates (*.json)")
        if not path:
            return None
        write_certificates(path, found)
        return len(found)
