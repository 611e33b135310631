"""The texts (`CREATE` statements, as SQLite keeps them) of the tables and indexes of a progress
file that every migration of trainer.progress.schema has made: each open holds the file's
schema against them (trainer.progress.integrity) without running the migrations in memory
first. Written by `python -m tests.test_progress_schema_texts`, never by hand; that test
fails when they are not what the migrations make."""

MIGRATIONS = (
    'm001_trainees',
    'm002_attempts',
    'm003_findings',
    'm004_attempt_skills',
    'm005_covering_indexes',
    'm006_exams',
    'm007_exam_ledger',
    'm008_result_sittings',
    'm009_instructor_keys',
    'm010_form_pools',
    'm011_trainee_uids',
    'm012_sitting_draws',
    'm013_class_queue',
    'm014_pass_rule',
    'm015_sitting_proofs',
    'm017_exam_streams',
    'm016_class_refused',
    'm019_form_order',
    'm021_supervised_rounds',
    'm023_class_supervised',
    'm024_trainee_uid_salts',
    'm026_call_speeds',
)

TEXTS: dict[str, str | None] = {
    'table _migrations': (
        'CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)'
    ),
    'table trainees': (
        'CREATE TABLE trainees (\n    id INTEGER PRIMARY KEY,\n    name TEXT NOT NULL CHECK (length'
        '(trim(name)) > 0),\n    created REAL NOT NULL,\n    archived INTEGER NOT NULL DEFAULT 0 CH'
        'ECK (archived IN (0, 1)),\n    archived_at REAL,\n    instructor INTEGER NOT NULL DEFAULT '
        '0 CHECK (instructor IN (0, 1)),\n    passphrase TEXT\n, public_key TEXT, key_path TEXT, ui'
        'd TEXT, uid_salt TEXT\n    CHECK (uid_salt IS NULL OR (length(uid_salt) = 32 AND uid_salt'
        " NOT GLOB '*[^0-9a-f]*')))"
    ),
    'index trainees_active_name': (
        'CREATE UNIQUE INDEX trainees_active_name ON trainees (name COLLATE NOCASE) WHERE archive'
        'd = 0\n'
    ),
    'table attempts': (
        'CREATE TABLE attempts (\n    id INTEGER PRIMARY KEY,\n    uid TEXT NOT NULL UNIQUE,\n    tr'
        'ainee_id INTEGER NOT NULL REFERENCES trainees (id),\n    item_id TEXT NOT NULL,\n    game '
        "TEXT NOT NULL,\n    mode TEXT NOT NULL CHECK (mode IN ('practice', 'scenario', 'drill', '"
        "payout-drill', 'exam')),\n    seed TEXT,\n    started REAL NOT NULL,\n    ended REAL NOT NU"
        'LL,\n    duration REAL NOT NULL CHECK (duration >= 0),\n    target REAL,\n    procedure INT'
        'EGER NOT NULL CHECK (procedure BETWEEN 0 AND 100),\n    payouts INTEGER NOT NULL CHECK (p'
        'ayouts BETWEEN 0 AND 100),\n    speed INTEGER NOT NULL CHECK (speed BETWEEN 0 AND 100),\n '
        '   total INTEGER NOT NULL CHECK (total BETWEEN 0 AND 100),\n    passed INTEGER NOT NULL D'
        'EFAULT 0 CHECK (passed IN (0, 1)),\n    critical INTEGER NOT NULL DEFAULT 0 CHECK (critic'
        'al IN (0, 1)),\n    abandoned INTEGER NOT NULL DEFAULT 0 CHECK (abandoned IN (0, 1)),\n   '
        " log TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(log)),\n    source TEXT NOT NULL DEFAUL"
        "T ''\n, rule INTEGER CHECK (rule IS NULL OR rule >= 1))"
    ),
    'table findings': (
        'CREATE TABLE findings (\n    id INTEGER PRIMARY KEY,\n    attempt_id INTEGER NOT NULL REFE'
        'RENCES attempts (id),\n    kind TEXT NOT NULL,\n    skill TEXT NOT NULL,\n    citation TEXT'
        " NOT NULL,\n    severity TEXT NOT NULL CHECK (severity IN ('critical', 'major', 'minor'))"
        ',\n    message TEXT NOT NULL,\n    expected TEXT,\n    actual TEXT CHECK (actual IS NULL OR'
        ' json_valid(actual))\n)'
    ),
    'index findings_attempt': (
        'CREATE INDEX findings_attempt ON findings (attempt_id, skill)'
    ),
    'table attempt_skills': (
        'CREATE TABLE attempt_skills (\n    attempt_id INTEGER NOT NULL REFERENCES attempts (id),\n'
        '    skill TEXT NOT NULL,\n    trainee_id INTEGER NOT NULL,\n    started REAL NOT NULL,\n   '
        ' PRIMARY KEY (attempt_id, skill)\n) WITHOUT ROWID'
    ),
    'index attempt_skills_recent': (
        'CREATE INDEX attempt_skills_recent ON attempt_skills (trainee_id, skill, started)'
    ),
    'index attempts_trainee': (
        'CREATE INDEX attempts_trainee\n    ON attempts (trainee_id, started, game, mode, passed, '
        'critical, abandoned, duration, target)'
    ),
    'index attempts_item': (
        'CREATE INDEX attempts_item ON attempts (item_id, started, passed, abandoned, game)\n'
    ),
    'table exam_forms': (
        'CREATE TABLE exam_forms (\n    id INTEGER PRIMARY KEY,\n    uid TEXT NOT NULL UNIQUE,\n    '
        'name TEXT NOT NULL CHECK (length(trim(name)) > 0),\n    items TEXT NOT NULL CHECK (json_v'
        'alid(items) AND json_array_length(items) > 0),\n    time_limit_seconds INTEGER NOT NULL C'
        'HECK (time_limit_seconds > 0),\n    pass_mark INTEGER NOT NULL CHECK (pass_mark BETWEEN 0'
        ' AND 100),\n    attempts_allowed INTEGER NOT NULL CHECK (attempts_allowed >= 1),\n    crea'
        'ted REAL NOT NULL,\n    created_by TEXT NOT NULL,\n    digest TEXT NOT NULL,\n    archived '
        'INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),\n    archived_at REAL\n, draw INTEG'
        'ER NOT NULL DEFAULT 0 CHECK (draw >= 0), position INTEGER CHECK (position >= 0))'
    ),
    'table exam_results': (
        'CREATE TABLE exam_results (\n    id INTEGER PRIMARY KEY,\n    uid TEXT NOT NULL UNIQUE,\n  '
        '  trainee_id INTEGER NOT NULL REFERENCES trainees (id),\n    trainee_name TEXT NOT NULL,\n'
        '    form_uid TEXT NOT NULL,\n    form_name TEXT NOT NULL,\n    form_digest TEXT NOT NULL,\n'
        '    pass_mark INTEGER NOT NULL CHECK (pass_mark BETWEEN 0 AND 100),\n    time_limit_secon'
        'ds INTEGER NOT NULL CHECK (time_limit_seconds > 0),\n    item_count INTEGER NOT NULL CHEC'
        'K (item_count >= 1),\n    started REAL NOT NULL,\n    ended REAL,\n    status TEXT NOT NULL'
        " CHECK (status IN ('in-progress', 'passed', 'failed', 'timed-out', 'abandoned')),\n    pa"
        'ssed INTEGER NOT NULL DEFAULT 0 CHECK (passed IN (0, 1)),\n    critical INTEGER NOT NULL '
        'DEFAULT 0 CHECK (critical IN (0, 1)),\n    procedure INTEGER CHECK (procedure IS NULL OR '
        'procedure BETWEEN 0 AND 100),\n    payouts INTEGER CHECK (payouts IS NULL OR payouts BETW'
        'EEN 0 AND 100),\n    speed INTEGER CHECK (speed IS NULL OR speed BETWEEN 0 AND 100),\n    '
        'total INTEGER CHECK (total IS NULL OR total BETWEEN 0 AND 100),\n    source TEXT NOT NULL'
        ',\n    imported REAL, sitting TEXT CHECK (sitting IS NULL OR json_valid(sitting)), rule I'
        'NTEGER CHECK (rule IS NULL OR rule >= 1), proof_key TEXT, proof TEXT, class_start TEXT,\n'
        "    CHECK ((status = 'in-progress') = (ended IS NULL)),\n    CHECK ((status = 'in-progres"
        "s') = (total IS NULL))\n)"
    ),
    'index exam_results_trainee': (
        'CREATE INDEX exam_results_trainee ON exam_results (trainee_id, form_uid, started)'
    ),
    'table exam_answers': (
        'CREATE TABLE exam_answers (\n    id INTEGER PRIMARY KEY,\n    result_id INTEGER NOT NULL R'
        'EFERENCES exam_results (id),\n    position INTEGER NOT NULL CHECK (position >= 0),\n    it'
        'em_id TEXT NOT NULL,\n    title TEXT NOT NULL,\n    game TEXT NOT NULL,\n    answered REAL '
        'NOT NULL,\n    procedure INTEGER NOT NULL CHECK (procedure BETWEEN 0 AND 100),\n    payout'
        's INTEGER NOT NULL CHECK (payouts BETWEEN 0 AND 100),\n    speed INTEGER NOT NULL CHECK ('
        'speed BETWEEN 0 AND 100),\n    total INTEGER NOT NULL CHECK (total BETWEEN 0 AND 100),\n  '
        '  passed INTEGER NOT NULL CHECK (passed IN (0, 1)),\n    critical INTEGER NOT NULL CHECK '
        '(critical IN (0, 1)),\n    findings TEXT NOT NULL CHECK (json_valid(findings)),\n    log T'
        'EXT NOT NULL CHECK (json_valid(log)),\n    UNIQUE (result_id, position)\n)'
    ),
    'table exam_signoffs': (
        'CREATE TABLE exam_signoffs (\n    id INTEGER PRIMARY KEY,\n    result_id INTEGER NOT NULL '
        'UNIQUE REFERENCES exam_results (id),\n    signer_id INTEGER REFERENCES trainees (id),\n   '
        ' signer_name TEXT NOT NULL,\n    signed REAL NOT NULL,\n    kdf TEXT NOT NULL,\n    counter'
        'signature TEXT NOT NULL\n)'
    ),
    'table exam_chain': (
        'CREATE TABLE exam_chain (\n    seq INTEGER PRIMARY KEY,\n    result_id INTEGER NOT NULL,\n '
        "   kind TEXT NOT NULL CHECK (kind IN ('start', 'answer', 'end', 'sign-off')),\n    ref_id"
        ' INTEGER NOT NULL,\n    at REAL NOT NULL,\n    prev TEXT NOT NULL,\n    hmac TEXT NOT NULL\n'
        ')'
    ),
    'index exam_chain_result': (
        'CREATE INDEX exam_chain_result ON exam_chain (result_id, kind)'
    ),
    'table exam_sittings': (
        'CREATE TABLE exam_sittings (\n    nonce TEXT PRIMARY KEY,\n    trainee_name TEXT NOT NULL '
        'CHECK (length(trim(trainee_name)) > 0),\n    form_uid TEXT NOT NULL,\n    form_digest TEXT'
        ' NOT NULL,\n    attempt INTEGER NOT NULL CHECK (attempt >= 1),\n    issued REAL NOT NULL,\n'
        '    expires REAL NOT NULL,\n    signer TEXT NOT NULL,\n    token TEXT NOT NULL CHECK (json'
        '_valid(token)),\n    result_uid TEXT UNIQUE,\n    certified REAL, draw TEXT CHECK (draw IS'
        ' NULL OR json_valid(draw)),\n    UNIQUE (trainee_name, form_uid, attempt)\n)'
    ),
    'table exam_certificates': (
        'CREATE TABLE exam_certificates (\n    id INTEGER PRIMARY KEY,\n    result_uid TEXT NOT NUL'
        'L UNIQUE,\n    nonce TEXT NOT NULL UNIQUE REFERENCES exam_sittings (nonce),\n    certifica'
        'te TEXT NOT NULL CHECK (json_valid(certificate)),\n    signed REAL NOT NULL\n)'
    ),
    'index trainees_uid': (
        'CREATE UNIQUE INDEX trainees_uid ON trainees (uid)'
    ),
    'table classes': (
        'CREATE TABLE classes (\n    uid TEXT PRIMARY KEY,\n    address TEXT NOT NULL,\n    joined R'
        'EAL NOT NULL\n)'
    ),
    'table class_sent': (
        'CREATE TABLE class_sent (\n    class_uid TEXT NOT NULL REFERENCES classes (uid),\n    atte'
        'mpt_id INTEGER NOT NULL REFERENCES attempts (id),\n    sent REAL NOT NULL,\n    PRIMARY KE'
        'Y (class_uid, attempt_id)\n) WITHOUT ROWID\n'
    ),
    'table exam_stream': (
        'CREATE TABLE exam_stream (\n    result_id INTEGER NOT NULL REFERENCES exam_results (id),\n'
        '    step INTEGER NOT NULL CHECK (step >= 2),\n    class_uid TEXT NOT NULL,\n    answer_id '
        'INTEGER UNIQUE REFERENCES exam_answers (id),\n    ending TEXT CHECK (ending IS NULL OR en'
        "ding IN ('finished', 'time-up', 'left')),\n    link TEXT NOT NULL CHECK (length(link) = 6"
        '4),\n    sent REAL,\n    reply TEXT,\n    PRIMARY KEY (result_id, step),\n    CHECK ((answer'
        '_id IS NULL) <> (ending IS NULL)),\n    CHECK ((sent IS NULL) = (reply IS NULL))\n)'
    ),
    'index exam_stream_waiting': (
        'CREATE INDEX exam_stream_waiting ON exam_stream (class_uid, result_id, step) WHERE sent '
        'IS NULL'
    ),
    'table class_refused': (
        'CREATE TABLE class_refused (\n    class_uid TEXT NOT NULL REFERENCES classes (uid),\n    a'
        'ttempt_id INTEGER NOT NULL REFERENCES attempts (id),\n    refused REAL NOT NULL,\n    reas'
        'on TEXT NOT NULL,\n    PRIMARY KEY (class_uid, attempt_id)\n) WITHOUT ROWID\n'
    ),
    'table supervised_rounds': (
        'CREATE TABLE supervised_rounds (\n    id INTEGER PRIMARY KEY,\n    trainee_id INTEGER NOT '
        'NULL REFERENCES trainees (id),\n    round_uid TEXT NOT NULL CHECK (length(round_uid) BETW'
        'EEN 1 AND 400),\n    game TEXT NOT NULL,\n    difficulty INTEGER NOT NULL CHECK (difficult'
        'y BETWEEN 1 AND 5),\n    finished REAL NOT NULL,\n    pace REAL NOT NULL CHECK (pace > 0),'
        "\n    score TEXT NOT NULL CHECK (score GLOB '[0-9]*' AND length(score) <= 40),\n    d_prim"
        'e REAL NOT NULL,\n    false_alarms INTEGER NOT NULL CHECK (false_alarms >= 0),\n    flags '
        'TEXT NOT NULL CHECK (json_valid(flags))\n)'
    ),
    'index supervised_rounds_trainee': (
        'CREATE INDEX supervised_rounds_trainee ON supervised_rounds (trainee_id, finished)'
    ),
    'table supervised_faults': (
        'CREATE TABLE supervised_faults (\n    round_id INTEGER NOT NULL REFERENCES supervised_rou'
        'nds (id),\n    n INTEGER NOT NULL CHECK (n >= 0),\n    kind TEXT NOT NULL,\n    fault_class'
        " TEXT NOT NULL CHECK (fault_class IN ('money', 'calls', 'records', 'security', 'order'))"
        ',\n    caught INTEGER NOT NULL CHECK (caught IN (0, 1)),\n    seconds REAL CHECK ((seconds'
        ' IS NULL) = (caught = 0)),\n    PRIMARY KEY (round_id, n)\n) WITHOUT ROWID'
    ),
    'table class_supervised': (
        'CREATE TABLE class_supervised (\n    class_uid TEXT NOT NULL REFERENCES classes (uid),\n  '
        '  round_id INTEGER NOT NULL REFERENCES supervised_rounds (id),\n    at REAL NOT NULL,\n   '
        ' reason TEXT,\n    PRIMARY KEY (class_uid, round_id)\n) WITHOUT ROWID\n'
    ),
    'table call_speeds': (
        'CREATE TABLE call_speeds (\n    attempt_uid TEXT NOT NULL CHECK (length(attempt_uid) BETW'
        'EEN 1 AND 64),\n    n INTEGER NOT NULL CHECK (n >= 0),\n    trainee_id INTEGER NOT NULL RE'
        'FERENCES trainees (id),\n    game TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 40),\n  '
        '  throw INTEGER NOT NULL CHECK (throw >= 0),\n    seconds REAL NOT NULL CHECK (seconds >='
        ' 0 AND seconds <= 3600),\n    at REAL NOT NULL,\n    PRIMARY KEY (attempt_uid, n)\n) WITHOU'
        'T ROWID'
    ),
    'index call_speeds_trainee': (
        'CREATE INDEX call_speeds_trainee ON call_speeds (trainee_id, at)'
    ),
}
