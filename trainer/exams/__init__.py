"""Certification exams: forms (item pools allowed), timed attempts with no feedback, sittings
issued and results certified by an instructor's Ed25519 key. No Qt.

- `forms`: `ExamForm` (its items' TOML embedded, checked when built; `draw` for a pool),
  `new_form`, form files (`read_form`, `write_form`) and the example forms (`bundled_forms`);
- `formstore`: forms in the progress file (`add_form`, `list_forms`, `get_form`, `archive_form`,
  `restore_form`, `import_form`, `export_form`, `add_bundled_forms`), in the instructor's order
  (`move_form`);
- `session`: sitting one (`start_exam` → `ExamSession.record`, `finish`, `time_out`, `abandon`;
  `close_interrupted` after opening the file; `attempts_left`);
- `scoring`: the score (means over every item, unanswered 0) and the pass rule;
- `records`: `ExamResult`, `Answer`, read back (`get_result`, `results`), and the portable
  record that travels to the instructor;
- `keys`, `roles`: instructor keys and who may be an instructor; `certify`: signed forms,
  sitting tokens, the ledger and certificates; `submission`: the files between them;
- `classledger`: the exam ledger on the class server when the machine is joined to a class
  (`classroom=` of `issue_sitting`, `start_exam`, `certify`, `ExamAccess`; the offline rule;
  the server's first record of a sitting is what is certified);
- `proof`: the start code a sitting's result, and in a class each of its steps, proves known;
  `seen`: the files and the list where a sitting started before on this account is found;
- `trust`: the local results chain (`verify_results`), an integrity record, not evidence;
- `access`: who sees what (`results_for`, `ExamAccess` with `unlock`).

Typical use::

    key = installation_key(data_dir / "installation.key")   # the local chain's key
    close_interrupted(store, key)                            # once, after Store.open
    session = start_exam(store, form, trainee_id, key, sitting=token, start_code=code)  # typed
    for p in range(len(session.form.items)):
        round_ = PracticeRound(session.scenario(p))          # the screen shows no feedback
        ...
        session.record(p, round_.finish(), round_.log)       # the last one ends the attempt
    export_submission(store, path)                           # to the instructor, who certifies
"""

from trainer.faces import lazy_face, names_from

# each public name and its module, loaded when first used: the start-up needs the installation
# key and the ledger, not the signatures behind certificates
FACE = {
    **names_from("trainer.exams.access", "Available", "ExamAccess", "results_for"),
    **names_from("trainer.exams.certify",
                 "certificate_for", "certificate_matches", "certificates", "class_certificates",
                 "issue_sitting", "sign_form",
                 "sitting_form", "trusted_signer", "verification_code"),
    **names_from("trainer.exams.classledger", "DELIVERY_GRACE", "give_back", "give_to_class", "start_line",
                 "starts_spent", "unended_line"),
    **names_from("trainer.exams.demo", "sit_demo_exams"),
    **names_from("trainer.exams.errors",
                 "AwaitingClassError", "ClassLedgerError", "ExamError", "ExamOfflineError",
                 "ExamOverError", "FormError", "FormFileError", "KeyFileError", "LockedError",
                 "NoAttemptsLeftError", "TimeUpError", "TraineeLoginNeeded", "UncertifiedSittingError"),
    **names_from("trainer.exams.examples", "exam_items"),
    **names_from("trainer.exams.forms",
                 "ExamForm", "FormItem", "bundled_forms", "new_form", "read_form", "write_form"),
    **names_from("trainer.exams.formstore",
                 "FormSummary", "add_bundled_forms", "add_form", "archive_form", "export_form",
                 "form_summaries", "get_form", "import_form", "list_forms", "move_form", "restore_form"),
    **names_from("trainer.exams.keys", "InstructorKey", "MIN_PASSPHRASE", "read_private_key"),
    **names_from("trainer.exams.records",
                 "Answer", "ExamResult", "SignOff", "Status", "get_result", "results"),
    **names_from("trainer.exams.roles", "add_instructor", "instructor_key", "new_instructor",
                 "open_instructor", "trusted_keys"),
    **names_from("trainer.exams.scoring", "Ending", "ExamScore", "as_the_class_holds", "exam_score"),
    **names_from("trainer.exams.seen", "SatBeforeError", "SittingsSeen"),
    **names_from("trainer.exams.session",
                 "ExamSession", "ExamStart", "attempts_left", "attempts_used", "close_interrupted",
                 "sitting_used", "start_exam"),
    **names_from("trainer.exams.submission",
                 "Ahead", "CertifySummary", "SealedSitting", "certificate_notes", "certify_class",
                 "certify_submission",
                 "export_submission", "needs_start_code", "open_sitting_file", "read_sitting_file",
                 "sitting_is_sealed", "write_certificates", "write_sitting_file"),
    **names_from("trainer.exams.trust",
                 "Problem", "installation_key", "read_installation_key", "verify_results"),
}
__getattr__, __dir__, __all__ = lazy_face(__name__, FACE)
