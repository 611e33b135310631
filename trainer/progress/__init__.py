"""Trainee progress, kept in one SQLite file: every attempt appended to a log (Anki's revlog), and
every statistic computed from that log.

- `store`: opening the file safely (damaged, newer and foreign files are refused and never
  written), trainees and instructor passphrases, and recording attempts so that none is lost
  (`Store.open`, `add_trainee`, `trainees`, `archive_trainee`, `restore_trainee`,
  `verify_passphrase`, `set_passphrase`, `record_attempt`, `flush_pending`, `pending`, `rejected`,
  `attempts`, `attempt`, `best_totals`);
- `opening`, `integrity`, `background`, `rows`: the store's parts (the checks before any write,
  a new file made whole, and the write transaction; the full check, CHECK constraints included,
  on a connection that cannot write; that check in a thread; attempts and trainees as rows, a
  damaged row left out and named);
- `passphrase`: scrypt hashes of instructor passphrases;
- `names`: names a person reads as one name (`name_problem`: "'Аna Ruiz' looks like 'Ana Ruiz'"),
  from the data of `lookalikes`;
- `schema`: the tables, as named migrations recorded in `_migrations`;
- `records`: `AttemptRecord` (what the app records when a round ends; `from_result` builds it
  from the grading `Result`), `Attempt`, `Trainee`, `Mode`;
- `stats`: the Progress screen (`progress_report`, or `accuracy_by_game`, `accuracy_by_skill`,
  `payout_times`, `attempts_per_day`, `skill_table`, `weakest_skills`, `next_drill_skill`: the
  mastery and "keeps coming back" rule is in its docstring);
- `classroom`: the Class screen (`class_overview`) and one trainee's drill-down
  (`trainee_attempts`, `item_title`, `replay`; from attempts however read: `attempt_line`,
  `replay_of`);
- `demo`: a demonstration class (`seed_demo`, `seed_session`), and `DemoClass`, a file's class
  as the live Class tab reads a class server, for its screenshot;
- `exchange`: CSV of attempts, and results files one workstation exports and another imports
  (`export_csv`, `export_results`, `import_results`, or in its two halves `read_results`, which
  needs no store, and `add_results`);
- `handoff`: results for the employer: xAPI statements and a CSV transcript (`file_lines`,
  `statements`, `write`; `dealer-trainer export-results`);
- `errors`: `StoreError` and its kinds, each with a one-line message for the user;
- `disk`: whether a file would sit on a network share (`network_share`), where it is refused
  (`NetworkShareError`): SQLite's write-ahead log needs a local disk;
- `supervised`: the rounds a trainee supervised and each fault caught or missed
  (`record_supervised`), and the catch rate per fault class and per game (`catch_rates`);
- `spoken_calls`: the seconds from the dice at rest to the end of each call made aloud, kept with
  the attempt (`record_call_speeds`), and a trainee's call speed per game (`call_speeds`);
- the class server, to which the file is a workstation's queue, is trainer.classes's.

Typical use::

    store = Store.open(path, allow_unavailable=True)   # the session goes on if it cannot write
    ana = store.add_trainee("Ana")
    try:
        store.record_attempt(AttemptRecord.from_result(trainee_id=ana, ...))
    except StoreUnavailableError as e:   # kept in store.pending; store.flush_pending() later
        show(str(e))
"""

from trainer.faces import lazy_face, names_from

# each public name and its module, loaded when first used: opening the file at start-up does not
# import the statistics, the class view and the grading engine behind them
FACE = {
    **names_from("trainer.progress.spoken_calls", "CallSpeed", "call_speeds", "record_call_speeds"),
    **names_from("trainer.progress.classroom", "AttemptLine", "ClassOverview", "Replay", "ReplayStep",
                 "TRAINEE_ATTEMPTS", "attempt_line", "class_overview", "item_title", "replay", "replay_of",
                 "trainee_attempts"),
    **names_from("trainer.progress.demo", "seed_demo", "seed_session"),
    **names_from("trainer.progress.disk", "network_share", "refusal"),
    **names_from("trainer.progress.errors",
                 "DamagedDatabaseError", "DamagedRowError", "ForeignDatabaseError", "NameTakenError",
                 "NetworkShareError", "NewerDatabaseError", "ResultsFileError", "StoreError",
                 "StoreUnavailableError",
                 "UnknownTraineeError"),
    **names_from("trainer.progress.exchange",
                 "ImportStopped", "ImportSummary", "ReadResults", "add_results", "export_csv",
                 "export_results", "import_results", "read_results"),
    **names_from("trainer.progress.names", "look_alike_message", "name_problem"),
    **names_from("trainer.progress.passphrase", "check_passphrase"),
    **names_from("trainer.progress.records",
                 "Attempt", "AttemptRecord", "Mode", "Trainee", "attempt_of", "clean_name", "drill_item_id",
                 "long_name", "skills_of"),
    **names_from("trainer.progress.stats",
                 "BinCount", "ProgressReport", "Series", "SkillRow", "accuracy_by_game", "accuracy_by_skill",
                 "attempts_per_day", "chart_bin_days", "next_drill_skill", "payout_times", "progress_report",
                 "rolling_median", "skill_table", "weakest_skills"),
    **names_from("trainer.progress.store", "Store"),
    **names_from("trainer.progress.supervised", "CatchRates", "catch_rates", "record_supervised"),
}
__getattr__, __dir__, __all__ = lazy_face(__name__, FACE)
