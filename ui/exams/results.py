"""An exam result on the Exam screen: what its certification is (from signatures checked here,
never from a flag), its report on screen and printed to PDF."""

from __future__ import annotations

import time
from pathlib import Path

from trainer import part_title, policy
from ui.qt import QFileDialog
from ui.shell.lists import selected


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


def watched(rnd, flags: list) -> list[dict]:
    """A supervise item's faults, each caught or missed by the flags (Flag.to_json() dicts), with
    its words, section and severity (ui.exams.report.report_html's item "faults")."""
    from trainer import FlagsError, flags_from_json, score_flags

    try:
        read = flags_from_json(flags)
    except FlagsError:
        return []
    caught = {id(c.fault) for c in score_flags(rnd, read).caught}
    return [{"words": f.type.words, "section": f.type.section, "severity": f.type.severity.value,
             "caught": id(f) in caught} for f in rnd.faults]


def report_data(result, certification: str, form=None) -> dict:
    """What the printed report and the result view show, from an ExamResult that has no
    certificate here (a certified one shows its certificate, ui.exams.certify.certificate_data);
    with its `form`, each supervise item's faults caught and missed."""
    items = []
    answered = {a.position: a for a in result.answers}
    for p in range(result.item_count):
        a = answered.get(p)
        rnd = None
        if form is not None and p < len(form.items):  # a sitting's deal, as its answer names it
            rnd = form.round_named(p, a.item_id) if a else None if result.sitting else form.round(p)
        items.append({"title": part_title(a.title, a.game) if a else f"Part {p + 1} (not answered)",
                      "total": a.total if a else 0, "findings": list(a.findings) if a else [],
                      "passed": bool(a and a.passed),
                      **({"faults": watched(rnd, list(a.log) if a else [])} if rnd is not None else {})})
    return {"trainee": result.trainee_name, "form": result.form_name, "started": result.started,
            "ended": result.ended, "duration": (result.ended or time.time()) - result.started,
            "status": result.status.value, "passed": result.passed, "total": result.total or 0,
            "procedure": result.procedure or 0, "payouts": result.payouts or 0,
            "speed": result.speed or 0, "pass_mark": result.pass_mark, "items": items,
            "result_id": result.id, "certification": certification,
            "roles": form.roles if form is not None else None,
            "rule": result.rule if result.over else policy.RULE}


class ResultsShown:
    """The results half of ExamPage (a mixin: it uses the page's store, report and stack)."""

    def certification_of(self, result) -> tuple[dict | None, str]:
        """(the certificate this file holds for the result, or None; what to say of it)."""
        from trainer.exams import certificate_for, certificate_matches, trusted_keys, trusted_signer

        cert = certificate_for(self.store, result.uid)
        signer = None
        if cert is not None:
            if not certificate_matches(cert, result):  # another result's, under this one's id
                return None, "⚠ a certificate bears this result's id but is another result's"
            signer = trusted_signer(cert, trusted_keys(self.store))
        return cert, certification_text(result, cert, signer)

    def report_of(self, result) -> dict:
        """The report's fields: the certificate's when this file holds one, else the result's."""
        from trainer.exams import as_the_class_holds
        from ui.exams.certify import certificate_data

        cert, text = self.certification_of(result)
        if cert is not None:
            return certificate_data(cert, text.startswith("✓"))
        # sat in a class, what the class server holds is what is certified: shown, not the engine's
        held, note = as_the_class_holds(self.store, result)
        return report_data(held, text if note is None else f"{text}. {note}", self.form_of(result))

    def form_of(self, result):
        """The form the result was sat on, as this file keeps it (None: not kept, or another)."""
        from trainer.exams import ExamError, get_form
        from trainer.progress import StoreError

        try:
            form = get_form(self.store, result.form_uid)
        except (ExamError, StoreError, LookupError):
            return None
        return form if form.digest == result.form_digest else None

    def show_result(self, result) -> None:
        from ui.exams.report import report_html

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
        from ui.exams.report import write_pdf

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
