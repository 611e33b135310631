"""Certification exams (issue 6): fixed forms, timed attempts with no feedback, tamper-evident
results signed off by an instructor, and results moved between workstations. No Qt.

- `forms`: `ExamForm` (its scenarios' TOML embedded, checked when built), `new_form`, form files
  (`read_form`, `write_form`) and the example forms (`bundled_forms`);
- `formstore`: forms in the progress file (`add_form`, `list_forms`, `get_form`, `archive_form`,
  `restore_form`, `import_form`, `export_form`, `add_bundled_forms`);
- `session`: sitting one (`start_exam` → `ExamSession.record`, `finish`, `time_out`, `abandon`;
  `close_interrupted` after opening the file; `attempts_left`);
- `scoring`: the score (means over every item, unanswered 0) and the pass rule;
- `records`: `ExamResult`, `Answer`, `SignOff`, read back (`get_result`, `results`), and the
  portable record that travels and is countersigned;
- `trust`: the installation secret (`installation_key`), the HMAC chain (`verify_results`) and
  the instructor's countersignature (`sign_off`);
- `exchange`: results files (`export_exam_results`, `import_exam_results`);
- `access`: who sees what (`results_for`, `ExamAccess` with `unlock`).

Typical use::

    key = installation_key(data_dir / "installation.key")   # beside, never inside, the database
    close_interrupted(store, key)                            # once, after Store.open
    session = start_exam(store, form, trainee_id, key)
    for p in range(len(form.items)):
        round_ = PracticeRound(session.scenario(p))          # the screen shows no feedback
        ...
        session.record(p, round_.finish(), round_.log)       # the last one ends the attempt
    result = session.result                                  # or session.time_out() / abandon()
    sign_off(store, result.id, instructor_id, passphrase, key)
"""

from trainer.exams.access import Available, ExamAccess, results_for
from trainer.exams.errors import (
    ExamError,
    ExamOverError,
    FormError,
    FormFileError,
    KeyFileError,
    LockedError,
    NoAttemptsLeftError,
    SignOffError,
    TimeUpError,
)
from trainer.exams.exchange import ExportSummary, ImportSummary, export_exam_results, import_exam_results
from trainer.exams.forms import ExamForm, FormItem, bundled_forms, new_form, read_form, write_form
from trainer.exams.formstore import (
    FormSummary,
    add_bundled_forms,
    add_form,
    archive_form,
    export_form,
    form_summaries,
    get_form,
    import_form,
    list_forms,
    restore_form,
)
from trainer.exams.records import Answer, ExamResult, SignOff, Status, get_result, results
from trainer.exams.scoring import ExamScore, exam_score
from trainer.exams.session import ExamSession, attempts_left, attempts_used, close_interrupted, start_exam
from trainer.exams.trust import Problem, installation_key, read_installation_key, sign_off, verify_results

__all__ = [
    "Answer", "Available", "ExamAccess", "ExamError", "ExamForm", "ExamOverError", "ExamResult", "ExamScore",
    "ExamSession", "ExportSummary", "FormError", "FormFileError", "FormItem", "FormSummary", "ImportSummary",
    "KeyFileError", "LockedError", "NoAttemptsLeftError", "Problem", "SignOff", "SignOffError", "Status",
    "TimeUpError", "add_bundled_forms", "add_form", "archive_form", "attempts_left", "attempts_used",
    "bundled_forms", "close_interrupted", "exam_score", "export_exam_results", "export_form",
    "form_summaries", "get_form", "get_result", "import_exam_results", "import_form", "installation_key",
    "list_forms", "new_form", "read_form", "read_installation_key", "restore_form", "results",
    "results_for", "sign_off", "start_exam", "verify_results", "write_form",
]
