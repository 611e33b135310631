"""Certification exams: forms (item pools allowed), timed attempts with no feedback, sittings
issued and results certified by an instructor's Ed25519 key. No Qt.

- `forms`: `ExamForm` (its items' TOML embedded, checked when built; `draw` for a pool),
  `new_form`, form files (`read_form`, `write_form`) and the example forms (`bundled_forms`);
- `formstore`: forms in the progress file (`add_form`, `list_forms`, `get_form`, `archive_form`,
  `restore_form`, `import_form`, `export_form`, `add_bundled_forms`);
- `session`: sitting one (`start_exam` → `ExamSession.record`, `finish`, `time_out`, `abandon`;
  `close_interrupted` after opening the file; `attempts_left`);
- `scoring`: the score (means over every item, unanswered 0) and the pass rule;
- `records`: `ExamResult`, `Answer`, read back (`get_result`, `results`), and the portable
  record that travels to the instructor;
- `keys`, `roles`: instructor keys and who may be an instructor; `certify`: signed forms,
  sitting tokens, the ledger and certificates; `submission`: the files between them;
- `trust`: the local results chain (`verify_results`), an integrity record, not evidence;
- `access`: who sees what (`results_for`, `ExamAccess` with `unlock`).

Typical use::

    key = installation_key(data_dir / "installation.key")   # the local chain's key
    close_interrupted(store, key)                            # once, after Store.open
    session = start_exam(store, form, trainee_id, key, sitting=token)
    for p in range(len(session.form.items)):
        round_ = PracticeRound(session.scenario(p))          # the screen shows no feedback
        ...
        session.record(p, round_.finish(), round_.log)       # the last one ends the attempt
    export_submission(store, path)                           # to the instructor, who certifies
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
    TimeUpError,
)
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
from trainer.exams.scoring import Ending, ExamScore, exam_score
from trainer.exams.session import ExamSession, attempts_left, attempts_used, close_interrupted, start_exam
from trainer.exams.trust import Problem, installation_key, read_installation_key, verify_results

__all__ = [
    "Answer", "Available", "Ending", "ExamAccess", "ExamError", "ExamForm", "ExamOverError",
    "ExamResult", "ExamScore", "ExamSession", "FormError", "FormFileError", "FormItem", "FormSummary",
    "KeyFileError", "LockedError", "NoAttemptsLeftError", "Problem", "SignOff", "Status",
    "TimeUpError", "add_bundled_forms", "add_form", "archive_form", "attempts_left", "attempts_used",
    "bundled_forms", "close_interrupted", "exam_score", "export_form",
    "form_summaries", "get_form", "get_result", "import_form", "installation_key",
    "list_forms", "new_form", "read_form", "read_installation_key", "restore_form", "results",
    "results_for", "start_exam", "verify_results", "write_form",
]
