"""The progress file's schema, as named migrations applied in order (simonw/llm `migrations.py`).

Each migration is a function; its name is recorded in `_migrations` (name, applied_at) when it is
applied. Never rename, reorder or edit a released migration: add a new one. A file whose
`_migrations` holds a name this list does not know was made by a newer app and is refused
(`NewerDatabaseError`) before anything is written.

The tables are a log, as Anki's revlog is: `attempts` (append-only; triggers refuse UPDATE and
DELETE), the `findings` of each attempt and `attempt_skills`, the skills each graded attempt
exercised. Statistics are computed from them, never stored. `attempt_skills` carries copies of its
attempt's `trainee_id` and `started` (which never change, attempts being append-only) so that "the
last 20 attempts of this skill" is one index range scan. The attempts' indexes cover the
Progress screen's columns (by trainee) and the class's hardest items (by item), so that those
queries read one contiguous range of an index each.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from trainer.progress._sqlite import Database
from trainer.progress.columns import MODES

MIGRATIONS: list[Callable[[Database], None]] = []
#: SQLite's application id of a progress file ("DTR1"): another program's id means a foreign file
APPLICATION_ID = 0x44545231


def migration(fn: Callable[[Database], None]) -> Callable[[Database], None]:
    MIGRATIONS.append(fn)
    return fn


def known() -> list[str]:
    return [fn.__name__ for fn in MIGRATIONS]


def unknown(names: list[str]) -> list[str]:
    """The migrations among `names` that this version does not know: a newer app's."""
    ours = {fn.__name__ for fn in MIGRATIONS}
    return [n for n in names if n not in ours]


def applied(db: Database) -> list[str]:
    if not db["_migrations"].exists():
        return []
    return [r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY rowid")]


def migrate(db: Database) -> list[str]:
    """Apply the migrations not yet applied, in order; the caller holds the write transaction."""
    if not db["_migrations"].exists():
        db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    done = set(applied(db))
    new = []
    for fn in MIGRATIONS:
        if fn.__name__ not in done:
            fn(db)
            db.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (fn.__name__, time.time()))
            new.append(fn.__name__)
    return new


def _script(db: Database, sql: str) -> None:
    for statement in sql.split(";\n"):
        if statement.strip():
            db.execute(statement)


@migration
def m001_trainees(db: Database) -> None:
    # passphrase: "scrypt$n$r$p$salt-hex$hash-hex" (trainer.progress.store.hash_passphrase)
    _script(db, """
CREATE TABLE trainees (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    created REAL NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
    archived_at REAL,
    instructor INTEGER NOT NULL DEFAULT 0 CHECK (instructor IN (0, 1)),
    passphrase TEXT
);
CREATE UNIQUE INDEX trainees_active_name ON trainees (name COLLATE NOCASE) WHERE archived = 0
""")


@migration
def m002_attempts(db: Database) -> None:
    scores = "\n".join(f"    {c} INTEGER NOT NULL CHECK ({c} BETWEEN 0 AND 100),"
                       for c in ("procedure", "payouts", "speed", "total"))
    flags = "\n".join(f"    {c} INTEGER NOT NULL DEFAULT 0 CHECK ({c} IN (0, 1)),"
                      for c in ("passed", "critical", "abandoned"))
    modes = ", ".join(f"'{m}'" for m in MODES)
    _script(db, f"""
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    trainee_id INTEGER NOT NULL REFERENCES trainees (id),
    item_id TEXT NOT NULL,
    game TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ({modes})),
    seed TEXT,
    started REAL NOT NULL,
    ended REAL NOT NULL,
    duration REAL NOT NULL CHECK (duration >= 0),
    target REAL,
{scores}
{flags}
    log TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(log)),
    source TEXT NOT NULL DEFAULT ''
);
CREATE INDEX attempts_trainee ON attempts (trainee_id, started);
CREATE INDEX attempts_recent ON attempts (started, trainee_id, item_id, game, passed, critical, abandoned);
CREATE TRIGGER attempts_no_update BEFORE UPDATE ON attempts
BEGIN SELECT RAISE(ABORT, 'attempts are append-only'); END;
CREATE TRIGGER attempts_no_delete BEFORE DELETE ON attempts
BEGIN SELECT RAISE(ABORT, 'attempts are append-only'); END
""")


@migration
def m003_findings(db: Database) -> None:
    _script(db, """
CREATE TABLE findings (
    id INTEGER PRIMARY KEY,
    attempt_id INTEGER NOT NULL REFERENCES attempts (id),
    kind TEXT NOT NULL,
    skill TEXT NOT NULL,
    citation TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
    message TEXT NOT NULL,
    expected TEXT,
    actual TEXT CHECK (actual IS NULL OR json_valid(actual))
);
CREATE INDEX findings_attempt ON findings (attempt_id, skill);
CREATE TRIGGER findings_no_update BEFORE UPDATE ON findings
BEGIN SELECT RAISE(ABORT, 'findings are append-only'); END;
CREATE TRIGGER findings_no_delete BEFORE DELETE ON findings
BEGIN SELECT RAISE(ABORT, 'findings are append-only'); END
""")


@migration
def m004_attempt_skills(db: Database) -> None:
    _script(db, """
CREATE TABLE attempt_skills (
    attempt_id INTEGER NOT NULL REFERENCES attempts (id),
    skill TEXT NOT NULL,
    trainee_id INTEGER NOT NULL,
    started REAL NOT NULL,
    PRIMARY KEY (attempt_id, skill)
) WITHOUT ROWID;
CREATE INDEX attempt_skills_recent ON attempt_skills (trainee_id, skill, started);
CREATE TRIGGER attempt_skills_no_update BEFORE UPDATE ON attempt_skills
BEGIN SELECT RAISE(ABORT, 'attempt skills are append-only'); END;
CREATE TRIGGER attempt_skills_no_delete BEFORE DELETE ON attempt_skills
BEGIN SELECT RAISE(ABORT, 'attempt skills are append-only'); END
""")


@migration
def m005_covering_indexes(db: Database) -> None:
    """Indexes that cover the Progress screen (by trainee) and the hardest items (by item)."""
    _script(db, """
DROP INDEX attempts_recent;
DROP INDEX attempts_trainee;
CREATE INDEX attempts_trainee
    ON attempts (trainee_id, started, game, mode, passed, critical, abandoned, duration, target);
CREATE INDEX attempts_item ON attempts (item_id, started, passed, abandoned, game)
""")


@migration
def m006_exams(db: Database) -> None:
    """Certification exams (trainer.exams): forms, results, the answers given, sign-offs, and the
    HMAC chain that makes them tamper-evident (trainer.exams.trust).

    - `exam_forms`: a form embeds its scenarios' TOML text (`items`, JSON), so it is portable; its
      content never changes (triggers), only `archived` does. `digest` is the SHA-256 of its content.
    - `exam_results`: one row per attempt, written when the attempt starts (`in-progress`) and
      closed once (status, `ended`, the score parts); the trigger refuses any other update and
      every delete. The form is copied in (uid, name, digest, pass mark, time limit, item count)
      so that a result read on another machine, without the form, still says what it was.
    - `exam_answers`: each scenario's graded answer, appended the moment it is given (a crash
      loses none).
    - `exam_signoffs`: an instructor's countersignature, at most one per result.
    - `exam_chain`: append-only entries (start, answer, end, sign-off), each an HMAC of its row
      and of the entry before it. No foreign key: an entry outlives a row deleted outside the app,
      to tell of it.
    """
    statuses = ", ".join(f"'{s}'" for s in ("in-progress", "passed", "failed", "timed-out", "abandoned"))
    parts = ("procedure", "payouts", "speed", "total")
    open_scores = "\n".join(f"    {c} INTEGER CHECK ({c} IS NULL OR {c} BETWEEN 0 AND 100)," for c in parts)
    scores = "\n".join(f"    {c} INTEGER NOT NULL CHECK ({c} BETWEEN 0 AND 100)," for c in parts)
    fixed = ("uid", "trainee_id", "trainee_name", "form_uid", "form_name", "form_digest", "pass_mark",
             "time_limit_seconds", "item_count", "started", "source", "imported")
    changed = " OR ".join(f"NEW.{c} IS NOT OLD.{c}" for c in fixed)
    form_fixed = ", ".join(("uid", "name", "items", "time_limit_seconds", "pass_mark", "attempts_allowed",
                            "created", "created_by", "digest"))
    _script(db, f"""
CREATE TABLE exam_forms (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    items TEXT NOT NULL CHECK (json_valid(items) AND json_array_length(items) > 0),
    time_limit_seconds INTEGER NOT NULL CHECK (time_limit_seconds > 0),
    pass_mark INTEGER NOT NULL CHECK (pass_mark BETWEEN 0 AND 100),
    attempts_allowed INTEGER NOT NULL CHECK (attempts_allowed >= 1),
    created REAL NOT NULL,
    created_by TEXT NOT NULL,
    digest TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
    archived_at REAL
);
CREATE TRIGGER exam_forms_fixed BEFORE UPDATE OF {form_fixed} ON exam_forms
BEGIN SELECT RAISE(ABORT, 'an exam form never changes: add a new one'); END;
CREATE TRIGGER exam_forms_no_delete BEFORE DELETE ON exam_forms
BEGIN SELECT RAISE(ABORT, 'exam forms are archived, never deleted'); END;
CREATE TABLE exam_results (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    trainee_id INTEGER NOT NULL REFERENCES trainees (id),
    trainee_name TEXT NOT NULL,
    form_uid TEXT NOT NULL,
    form_name TEXT NOT NULL,
    form_digest TEXT NOT NULL,
    pass_mark INTEGER NOT NULL CHECK (pass_mark BETWEEN 0 AND 100),
    time_limit_seconds INTEGER NOT NULL CHECK (time_limit_seconds > 0),
    item_count INTEGER NOT NULL CHECK (item_count >= 1),
    started REAL NOT NULL,
    ended REAL,
    status TEXT NOT NULL CHECK (status IN ({statuses})),
    passed INTEGER NOT NULL DEFAULT 0 CHECK (passed IN (0, 1)),
    critical INTEGER NOT NULL DEFAULT 0 CHECK (critical IN (0, 1)),
{open_scores}
    source TEXT NOT NULL,
    imported REAL,
    CHECK ((status = 'in-progress') = (ended IS NULL)),
    CHECK ((status = 'in-progress') = (total IS NULL))
);
CREATE INDEX exam_results_trainee ON exam_results (trainee_id, form_uid, started);
CREATE TRIGGER exam_results_close_once BEFORE UPDATE ON exam_results
WHEN OLD.status IS NOT 'in-progress' OR {changed}
BEGIN SELECT RAISE(ABORT, 'an exam result is closed once and never changed'); END;
CREATE TRIGGER exam_results_no_delete BEFORE DELETE ON exam_results
BEGIN SELECT RAISE(ABORT, 'exam results are append-only'); END;
CREATE TABLE exam_answers (
    id INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL REFERENCES exam_results (id),
    position INTEGER NOT NULL CHECK (position >= 0),
    item_id TEXT NOT NULL,
    title TEXT NOT NULL,
    game TEXT NOT NULL,
    answered REAL NOT NULL,
{scores}
    passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
    critical INTEGER NOT NULL CHECK (critical IN (0, 1)),
    findings TEXT NOT NULL CHECK (json_valid(findings)),
    log TEXT NOT NULL CHECK (json_valid(log)),
    UNIQUE (result_id, position)
);
CREATE TRIGGER exam_answers_no_update BEFORE UPDATE ON exam_answers
BEGIN SELECT RAISE(ABORT, 'exam answers are append-only'); END;
CREATE TRIGGER exam_answers_no_delete BEFORE DELETE ON exam_answers
BEGIN SELECT RAISE(ABORT, 'exam answers are append-only'); END;
CREATE TABLE exam_signoffs (
    id INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL UNIQUE REFERENCES exam_results (id),
    signer_id INTEGER REFERENCES trainees (id),
    signer_name TEXT NOT NULL,
    signed REAL NOT NULL,
    kdf TEXT NOT NULL,
    countersignature TEXT NOT NULL
);
CREATE TRIGGER exam_signoffs_no_update BEFORE UPDATE ON exam_signoffs
BEGIN SELECT RAISE(ABORT, 'sign-offs are append-only'); END;
CREATE TRIGGER exam_signoffs_no_delete BEFORE DELETE ON exam_signoffs
BEGIN SELECT RAISE(ABORT, 'sign-offs are append-only'); END;
CREATE TABLE exam_chain (
    seq INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start', 'answer', 'end', 'sign-off')),
    ref_id INTEGER NOT NULL,
    at REAL NOT NULL,
    prev TEXT NOT NULL,
    hmac TEXT NOT NULL
);
CREATE INDEX exam_chain_result ON exam_chain (result_id, kind);
CREATE TRIGGER exam_chain_no_update BEFORE UPDATE ON exam_chain
BEGIN SELECT RAISE(ABORT, 'the exam chain is append-only'); END;
CREATE TRIGGER exam_chain_no_delete BEFORE DELETE ON exam_chain
BEGIN SELECT RAISE(ABORT, 'the exam chain is append-only'); END
""")


@migration
def m007_exam_ledger(db: Database) -> None:
    """The instructor's exam ledger (trainer.exams.certify): the sittings issued and the results
    certified. It lives on the instructor's machine (or the class server), never on a trainee's:

    - `exam_sittings`: one signed sitting token per attempt issued (nonce, trainee, form digest,
      attempt number, expiry); `result_uid` is set once, when that sitting's result is
      certified, so a token is good for one result.
    - `exam_certificates`: the record re-graded by the instructor's own engine from the logs, and
      the instructor's Ed25519 signature over it (append-only).
    """
    _script(db, """
CREATE TABLE exam_sittings (
    nonce TEXT PRIMARY KEY,
    trainee_name TEXT NOT NULL CHECK (length(trim(trainee_name)) > 0),
    form_uid TEXT NOT NULL,
    form_digest TEXT NOT NULL,
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    issued REAL NOT NULL,
    expires REAL NOT NULL,
    signer TEXT NOT NULL,
    token TEXT NOT NULL CHECK (json_valid(token)),
    result_uid TEXT UNIQUE,
    certified REAL,
    UNIQUE (trainee_name, form_uid, attempt)
);
CREATE TRIGGER exam_sittings_used_once BEFORE UPDATE ON exam_sittings
WHEN OLD.result_uid IS NOT NULL OR NEW.nonce IS NOT OLD.nonce OR NEW.token IS NOT OLD.token
    OR NEW.trainee_name IS NOT OLD.trainee_name OR NEW.form_digest IS NOT OLD.form_digest
    OR NEW.attempt IS NOT OLD.attempt
BEGIN SELECT RAISE(ABORT, 'a sitting is certified once and never changed'); END;
CREATE TRIGGER exam_sittings_no_delete BEFORE DELETE ON exam_sittings
BEGIN SELECT RAISE(ABORT, 'the exam ledger is append-only'); END;
CREATE TABLE exam_certificates (
    id INTEGER PRIMARY KEY,
    result_uid TEXT NOT NULL UNIQUE,
    nonce TEXT NOT NULL UNIQUE REFERENCES exam_sittings (nonce),
    certificate TEXT NOT NULL CHECK (json_valid(certificate)),
    signed REAL NOT NULL
);
CREATE TRIGGER exam_certificates_no_update BEFORE UPDATE ON exam_certificates
BEGIN SELECT RAISE(ABORT, 'certificates are append-only'); END;
CREATE TRIGGER exam_certificates_no_delete BEFORE DELETE ON exam_certificates
BEGIN SELECT RAISE(ABORT, 'certificates are append-only'); END
""")


@migration
def m008_result_sittings(db: Database) -> None:
    """A workstation's exam result keeps the signed sitting token it was sat under
    (trainer.exams.submission), so that the instructor can certify it; NULL for results sat
    without one."""
    db.execute("ALTER TABLE exam_results ADD COLUMN sitting TEXT "
               "CHECK (sitting IS NULL OR json_valid(sitting))")


@migration
def m009_instructor_keys(db: Database) -> None:
    """An instructor profile made with an instructor key (trainer.exams.roles) keeps the key's
    public half and where its sealed file is: opening the profile means opening the key."""
    db.execute("ALTER TABLE trainees ADD COLUMN public_key TEXT")
    db.execute("ALTER TABLE trainees ADD COLUMN key_path TEXT")


@migration
def m010_form_pools(db: Database) -> None:
    """A form may be a pool: each sitting draws `draw` of its items (trainer.exams.forms); 0 for
    a form sat whole. Like the rest of a form, it never changes."""
    fixed = ", ".join(("uid", "name", "items", "time_limit_seconds", "pass_mark", "attempts_allowed",
                       "created", "created_by", "digest", "draw"))
    _script(db, f"""
ALTER TABLE exam_forms ADD COLUMN draw INTEGER NOT NULL DEFAULT 0 CHECK (draw >= 0);
DROP TRIGGER exam_forms_fixed;
CREATE TRIGGER exam_forms_fixed BEFORE UPDATE OF {fixed} ON exam_forms
BEGIN SELECT RAISE(ABORT, 'an exam form never changes: add a new one'); END
""")


@migration
def m011_trainee_uids(db: Database) -> None:
    """Every trainee has an id made where the profile was made (128 random bits, hex), so that
    a results file moved to another machine finds its trainee by that id, never by a name. A row
    inserted without one gets one at once; an id never changes."""
    _script(db, """
ALTER TABLE trainees ADD COLUMN uid TEXT;
UPDATE trainees SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX trainees_uid ON trainees (uid);
CREATE TRIGGER trainees_uid_given AFTER INSERT ON trainees WHEN NEW.uid IS NULL
BEGIN UPDATE trainees SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER trainees_uid_fixed BEFORE UPDATE OF uid ON trainees WHEN OLD.uid IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a trainee id never changes'); END
""")


@migration
def m012_sitting_draws(db: Database) -> None:
    """The items a pool's sitting drew (JSON positions), kept in the ledger only: the token the
    trainee holds before the start code says nothing of them. NULL for a form sat whole."""
    db.execute("ALTER TABLE exam_sittings ADD COLUMN draw TEXT "
               "CHECK (draw IS NULL OR json_valid(draw))")


@migration
def m013_class_queue(db: Database) -> None:
    """The file is a workstation's queue for its class server (trainer.classes): the
    classes it has pushed to (`classes`: the server's class id and its address, without any
    password) and which attempts reached which class (`class_sent`, one row per attempt and
    class, written once the server has committed them). An attempt with no row for the class is
    waiting to be sent."""
    _script(db, """
CREATE TABLE classes (
    uid TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    joined REAL NOT NULL
);
CREATE TABLE class_sent (
    class_uid TEXT NOT NULL REFERENCES classes (uid),
    attempt_id INTEGER NOT NULL REFERENCES attempts (id),
    sent REAL NOT NULL,
    PRIMARY KEY (class_uid, attempt_id)
) WITHOUT ROWID
""")


@migration
def m014_pass_rule(db: Database) -> None:
    """The pass rule each attempt and exam result was graded under (trainer.policy.RULE). The
    rows already there were graded before it was recorded, under rule 1, and keep their scores
    and verdicts as recorded: their `rule` is NULL, which reads as rule 1."""
    _script(db, """
ALTER TABLE attempts ADD COLUMN rule INTEGER CHECK (rule IS NULL OR rule >= 1);
ALTER TABLE exam_results ADD COLUMN rule INTEGER CHECK (rule IS NULL OR rule >= 1)
""")


@migration
def m015_sitting_proofs(db: Database) -> None:
    """A result sat under a sitting proves it was opened with its start code: `proof_key`, the
    key the start code gives (held while the attempt runs, cleared when it ends), and `proof`,
    the HMAC under it of what certification re-grades, written when the attempt ends
    (trainer.exams.proof)."""
    _script(db, """
ALTER TABLE exam_results ADD COLUMN proof_key TEXT;
ALTER TABLE exam_results ADD COLUMN proof TEXT
""")


@migration
def m017_exam_streams(db: Database) -> None:
    """An exam sat under a class's sitting sends each answer and its end to the class server as
    it is given (trainer.exams.session, trainer.classes.workstation.queue):

    - `exam_results.class_start`: the class server's own nonce for the start of the sitting
      (NULL: a result the server keeps no record of);
    - `exam_stream`: each step to send (an answer, by its row, or the end), with the link that
      proves it (trainer.exams.proof) and the class it goes to; `sent` and the server's `reply`
      once the server has answered it (NULL: waiting). Rows are added, and answered once."""
    _script(db, """
ALTER TABLE exam_results ADD COLUMN class_start TEXT;
CREATE TABLE exam_stream (
    result_id INTEGER NOT NULL REFERENCES exam_results (id),
    step INTEGER NOT NULL CHECK (step >= 2),
    class_uid TEXT NOT NULL,
    answer_id INTEGER UNIQUE REFERENCES exam_answers (id),
    ending TEXT CHECK (ending IS NULL OR ending IN ('finished', 'time-up', 'left')),
    link TEXT NOT NULL CHECK (length(link) = 64),
    sent REAL,
    reply TEXT,
    PRIMARY KEY (result_id, step),
    CHECK ((answer_id IS NULL) <> (ending IS NULL)),
    CHECK ((sent IS NULL) = (reply IS NULL))
);
CREATE INDEX exam_stream_waiting ON exam_stream (class_uid, result_id, step) WHERE sent IS NULL;
CREATE TRIGGER exam_stream_answered_once BEFORE UPDATE ON exam_stream
WHEN OLD.sent IS NOT NULL OR NEW.result_id IS NOT OLD.result_id OR NEW.step IS NOT OLD.step
    OR NEW.class_uid IS NOT OLD.class_uid OR NEW.answer_id IS NOT OLD.answer_id
    OR NEW.ending IS NOT OLD.ending OR NEW.link IS NOT OLD.link
BEGIN SELECT RAISE(ABORT, 'an exam step is sent once and never changed'); END;
CREATE TRIGGER exam_stream_no_delete BEFORE DELETE ON exam_stream
BEGIN SELECT RAISE(ABORT, 'exam steps are append-only'); END
""")


@migration
def m016_class_refused(db: Database) -> None:
    """An attempt a class server refused (trainer.classes: a row it does not keep, or a
    different attempt under its id there) is set aside for that class: `class_refused`, one row
    per attempt and class, with the server's reason. It stays in the file, is no longer waiting,
    and is not sent to that class again; the others go on."""
    _script(db, """
CREATE TABLE class_refused (
    class_uid TEXT NOT NULL REFERENCES classes (uid),
    attempt_id INTEGER NOT NULL REFERENCES attempts (id),
    refused REAL NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (class_uid, attempt_id)
) WITHOUT ROWID
""")


@migration
def m019_form_order(db: Database) -> None:
    """The instructor's order of the exam forms (trainer.exams.formstore: `move_form`):
    `position`, the forms listed by it, the forms there before numbered in the order they were
    made, and a form added after them put last. It is no part of the form (a form never
    changes, its `position` does)."""
    _script(db, """
ALTER TABLE exam_forms ADD COLUMN position INTEGER CHECK (position >= 0);
UPDATE exam_forms SET position = (SELECT count(*) FROM exam_forms AS before
                                  WHERE before.created < exam_forms.created
                                     OR (before.created = exam_forms.created AND before.id < exam_forms.id));
CREATE TRIGGER exam_forms_last AFTER INSERT ON exam_forms WHEN NEW.position IS NULL
BEGIN UPDATE exam_forms SET position = (SELECT coalesce(max(position), -1) + 1 FROM exam_forms)
    WHERE id = NEW.id; END;
""")


@migration
def m021_supervised_rounds(db: Database) -> None:
    """The rounds a trainee supervised (trainer.progress.supervised): `supervised_rounds`, one
    row per round watched to its debrief (the round's id, which deals it again with its faults;
    its game and difficulty; the dealer's pace, seconds between actions, which the flags' times
    are counted in; the score, an exact fraction; d′; the false alarms; the flags, as JSON), and
    `supervised_faults`, each fault of it with its type, its class and whether it was caught (and
    how many seconds after it showed). Both are append-only."""
    _script(db, """
CREATE TABLE supervised_rounds (
    id INTEGER PRIMARY KEY,
    trainee_id INTEGER NOT NULL REFERENCES trainees (id),
    round_uid TEXT NOT NULL CHECK (length(round_uid) BETWEEN 1 AND 400),
    game TEXT NOT NULL,
    difficulty INTEGER NOT NULL CHECK (difficulty BETWEEN 1 AND 5),
    finished REAL NOT NULL,
    pace REAL NOT NULL CHECK (pace > 0),
    score TEXT NOT NULL CHECK (score GLOB '[0-9]*' AND length(score) <= 40),
    d_prime REAL NOT NULL,
    false_alarms INTEGER NOT NULL CHECK (false_alarms >= 0),
    flags TEXT NOT NULL CHECK (json_valid(flags))
);
CREATE INDEX supervised_rounds_trainee ON supervised_rounds (trainee_id, finished);
CREATE TABLE supervised_faults (
    round_id INTEGER NOT NULL REFERENCES supervised_rounds (id),
    n INTEGER NOT NULL CHECK (n >= 0),
    kind TEXT NOT NULL,
    fault_class TEXT NOT NULL CHECK (fault_class IN ('money', 'calls', 'records', 'security', 'order')),
    caught INTEGER NOT NULL CHECK (caught IN (0, 1)),
    seconds REAL CHECK ((seconds IS NULL) = (caught = 0)),
    PRIMARY KEY (round_id, n)
) WITHOUT ROWID;
CREATE TRIGGER supervised_rounds_kept BEFORE UPDATE ON supervised_rounds
BEGIN SELECT RAISE(ABORT, 'a supervised round is recorded once and never changed'); END;
CREATE TRIGGER supervised_rounds_no_delete BEFORE DELETE ON supervised_rounds
BEGIN SELECT RAISE(ABORT, 'supervised rounds are append-only'); END;
CREATE TRIGGER supervised_faults_kept BEFORE UPDATE ON supervised_faults
BEGIN SELECT RAISE(ABORT, 'a supervised fault is recorded once and never changed'); END;
CREATE TRIGGER supervised_faults_no_delete BEFORE DELETE ON supervised_faults
BEGIN SELECT RAISE(ABORT, 'supervised faults are append-only'); END
""")


@migration
def m023_class_supervised(db: Database) -> None:
    """A supervised round sent to a class, or set aside by it (trainer.classes.workstation.
    supervised): `class_supervised`, one row per round and class, written once the server has
    committed the round (`reason` NULL) or refused it (`reason` the server's words). A round with
    no row for a class waits for it, as an attempt with no `class_sent` row does."""
    _script(db, """
CREATE TABLE class_supervised (
    class_uid TEXT NOT NULL REFERENCES classes (uid),
    round_id INTEGER NOT NULL REFERENCES supervised_rounds (id),
    at REAL NOT NULL,
    reason TEXT,
    PRIMARY KEY (class_uid, round_id)
) WITHOUT ROWID
""")


@migration
def m024_trainee_uid_salts(db: Database) -> None:
    """The salt of a trainee id made under a trainee's own class login (trainer.classes.server.
    logins `committed_uid`: the id is a digest of the class, the login and this salt), kept with
    the profile, so that her login's push of the id proves the login made it (class server
    migration s043; the fifth cold review, #104). NULL for an id made here, or one the class
    held already. 32 hex digits; once set, never changed."""
    _script(db, """
ALTER TABLE trainees ADD COLUMN uid_salt TEXT
    CHECK (uid_salt IS NULL OR (length(uid_salt) = 32 AND uid_salt NOT GLOB '*[^0-9a-f]*'));
CREATE TRIGGER trainees_uid_salt_fixed BEFORE UPDATE OF uid_salt ON trainees WHEN OLD.uid_salt IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a trainee id''s salt never changes'); END
""")


@migration
def m026_call_speeds(db: Database) -> None:
    """Call speed (trainer.progress.spoken_calls): `call_speeds`, one row per call the trainee
    made aloud in a round, the seconds from the dice at rest to the end of the call, kept with
    the attempt by its uid (`attempts.uid`: the attempt may still wait in memory or the journal
    when its calls are written), its trainee, game and throw, and when it was recorded.
    Append-only."""
    _script(db, """
CREATE TABLE call_speeds (
    attempt_uid TEXT NOT NULL CHECK (length(attempt_uid) BETWEEN 1 AND 64),
    n INTEGER NOT NULL CHECK (n >= 0),
    trainee_id INTEGER NOT NULL REFERENCES trainees (id),
    game TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 40),
    throw INTEGER NOT NULL CHECK (throw >= 0),
    seconds REAL NOT NULL CHECK (seconds >= 0 AND seconds <= 3600),
    at REAL NOT NULL,
    PRIMARY KEY (attempt_uid, n)
) WITHOUT ROWID;
CREATE INDEX call_speeds_trainee ON call_speeds (trainee_id, at);
CREATE TRIGGER call_speeds_kept BEFORE UPDATE ON call_speeds
BEGIN SELECT RAISE(ABORT, 'a call speed is recorded once and never changed'); END;
CREATE TRIGGER call_speeds_no_delete BEFORE DELETE ON call_speeds
BEGIN SELECT RAISE(ABORT, 'call speeds are append-only'); END
""")
