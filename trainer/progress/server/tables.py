"""The class server's schema, as named migrations (the pattern of trainer.progress.schema).

The tables of attempts are made from their description in trainer.progress.columns, so the
server and the file have the same columns. The server adds what a shared database needs:

- **append-only, in the server**: a trigger refuses UPDATE, DELETE and TRUNCATE of attempts,
  findings, attempt skills and the exam ledger, for every role, the tables' owner included;
  no role but the owner is granted any write on them at all;
- **roles** (NOLOGIN groups; each login is a member of one): `class_trainee` reads its own
  rows only, `class_instructor` and `class_supervisor` read the class, `class_workstation` (the
  login every workstation of the class shares) reads nothing and may only push;
- **row-level security**, forced (the owner too is under it), so the server itself filters what
  a trainee's connection reads: rows of other trainees are not there for it;
- **push_attempts(batch)**: the one way attempts reach the server. A batch (JSON: its trainees,
  its attempts with their findings and skills) is written in the caller's transaction; an attempt
  whose uid is already there adds nothing (ON CONFLICT (uid) DO NOTHING). A trainee's login may
  push its own attempts only;
- **NOTIFY class_attempts** with the attempt's server id on each insert, for the live Class view.

`install(conn)` (a superuser connection to the cluster) makes the roles, the database and the
missing migrations; it can run again on every start.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable

import psycopg
from psycopg import sql

from trainer.progress.columns import (
    ATTEMPT_SKILLS,
    ATTEMPTS,
    EXAM_SITTINGS,
    FINDINGS,
    TRAINEES,
    Column,
    Table,
)
from trainer.progress.records import INVISIBLE

DATABASE = "dealer_class"
OWNER = "class_owner"
GROUPS = ("class_trainee", "class_instructor", "class_supervisor", "class_workstation")
TRAINEE = "class_trainee"
STAFF = "class_instructor, class_supervisor"
CHANNEL = "class_attempts"
MIGRATIONS: list[Callable[[psycopg.Connection], None]] = []

_PG_TYPES = {"real": "double precision", "text": "text", "json": "text", "choice": "text"}


def migration(fn: Callable[[psycopg.Connection], None]) -> Callable[[psycopg.Connection], None]:
    MIGRATIONS.append(fn)
    return fn


def pg_type(c: Column) -> str:
    return _PG_TYPES.get(c.kind, "bigint" if c.kind in ("key", "ref") else "integer")


def column_ddl(c: Column) -> str:
    if c.kind == "key":
        return f"{c.name} bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
    out = f"{c.name} {pg_type(c)}" + ("" if c.null else " NOT NULL")
    check = {"score": f"{c.name} BETWEEN 0 AND 100", "flag": f"{c.name} IN (0, 1)",
             "json": f"{c.name} IS JSON",
             "choice": f"{c.name} IN ({', '.join(repr(v) for v in c.choices)})"}.get(c.kind)
    if c.kind == "ref":
        out += f" REFERENCES {c.ref} (id)"
    if check:
        out += f" CHECK ({check})"
    return out


def create_table(table: Table, *more: str) -> str:
    lines = [column_ddl(c) for c in table.shared()]
    lines += [f"UNIQUE ({u})" for u in table.unique] + list(more)
    return f"CREATE TABLE {table.name} (\n    " + ",\n    ".join(lines) + "\n)"


def append_only(table: str) -> str:
    return (f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION refuse_change();\n"
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()")


def record_type(table: Table, *, skip: tuple[str, ...] = ()) -> str:
    """The column list of jsonb_to_recordset for a table's shared columns."""
    return ", ".join(f"{c.name} {pg_type(c)}" for c in table.shared()
                     if c.kind != "key" and c.name not in skip)


def _run(conn: psycopg.Connection, script: str) -> None:
    conn.execute(script.encode())  # no parameters: several statements go as one simple query


# --------------------------------------------------------------------------- installing
def install(admin: psycopg.Connection, database: str = DATABASE) -> list[str]:
    """Make the roles and the database if missing, then apply the missing migrations in one
    transaction; the names applied. `admin`: an autocommit superuser connection."""
    for role in (OWNER, *GROUPS):
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            admin.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(role)))
    admin.execute(sql.SQL("ALTER ROLE {} CREATEROLE").format(sql.Identifier(OWNER)))
    for group in GROUPS:
        admin.execute(sql.SQL("GRANT {} TO {} WITH ADMIN OPTION").format(
            sql.Identifier(group), sql.Identifier(OWNER)))
    if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone():
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {} ENCODING 'UTF8' TEMPLATE template0").format(
            sql.Identifier(database), sql.Identifier(OWNER)))
    params = admin.info.get_parameters()
    with psycopg.connect(host=params["host"], port=admin.info.port, user=admin.info.user,
                         dbname=database) as conn:
        conn.execute("REVOKE ALL ON DATABASE " + database + " FROM PUBLIC")
        # each trainee's own login connects to its class only (s008), not the group to every class
        shared = ", ".join(g for g in GROUPS if g != TRAINEE)
        conn.execute(f"GRANT CONNECT ON DATABASE {database} TO {shared}")
        conn.execute(f"REVOKE CONNECT ON DATABASE {database} FROM {TRAINEE}")
        conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY, "
                     "applied_at double precision NOT NULL)")
        conn.execute(f"ALTER TABLE _migrations OWNER TO {OWNER}")
        conn.execute("LOCK TABLE _migrations")
        done = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
        conn.execute(f"SET ROLE {OWNER}")
        new = []
        for fn in MIGRATIONS:
            if fn.__name__ not in done:
                fn(conn)
                conn.execute("INSERT INTO _migrations VALUES (%s, %s)", (fn.__name__, time.time()))
                new.append(fn.__name__)
        conn.execute("RESET ROLE")
    return new


def known() -> list[str]:
    return [fn.__name__ for fn in MIGRATIONS]


# --------------------------------------------------------------------------- migrations
@migration
def s001_attempts(conn: psycopg.Connection) -> None:
    """The class, its trainees and the log of their attempts, append-only, under row-level
    security."""
    read_own = {
        "trainees": "login = current_user",
        "attempts": "trainee_id IN (SELECT id FROM trainees)",  # trainees: the reader's own row
        "findings": "attempt_id IN (SELECT id FROM attempts)",
        "attempt_skills": "trainee_id IN (SELECT id FROM trainees)",
    }
    policies = ";\n".join(
        f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;\n"
        f"ALTER TABLE {t} FORCE ROW LEVEL SECURITY;\n"
        f"CREATE POLICY {t}_owner ON {t} TO {OWNER} USING (true) WITH CHECK (true);\n"
        f"CREATE POLICY {t}_staff ON {t} FOR SELECT TO {STAFF} USING (true);\n"
        f"CREATE POLICY {t}_own ON {t} FOR SELECT TO class_trainee USING ({own});\n"
        f"REVOKE ALL ON {t} FROM PUBLIC;\n"
        f"GRANT SELECT ON {t} TO class_trainee, {STAFF}"
        for t, own in read_own.items())
    _run(conn, f"""
CREATE TABLE class_info (uid text PRIMARY KEY DEFAULT md5(random()::text || clock_timestamp()::text),
    created double precision NOT NULL DEFAULT extract(epoch FROM now()),
    one boolean NOT NULL DEFAULT true UNIQUE CHECK (one));
INSERT INTO class_info DEFAULT VALUES;
GRANT SELECT ON class_info TO {', '.join(GROUPS)};
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: its rows are never changed or removed', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;
{create_table(TRAINEES, "login text UNIQUE")};
CREATE TRIGGER trainees_no_delete BEFORE DELETE ON trainees FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainees_no_truncate BEFORE TRUNCATE ON trainees
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION trainee_uid_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.uid IS DISTINCT FROM OLD.uid THEN
        RAISE EXCEPTION 'a trainee id never changes' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER trainees_uid_fixed BEFORE UPDATE ON trainees FOR EACH ROW EXECUTE FUNCTION trainee_uid_fixed();
{create_table(ATTEMPTS)};
CREATE INDEX attempts_trainee ON attempts (trainee_id, started);
CREATE INDEX attempts_item ON attempts (item_id, started);
{create_table(FINDINGS)};
CREATE INDEX findings_attempt ON findings (attempt_id, skill);
{create_table(ATTEMPT_SKILLS, "PRIMARY KEY (attempt_id, skill)")};
CREATE INDEX attempt_skills_recent ON attempt_skills (trainee_id, skill, started);
{append_only("attempts")};
{append_only("findings")};
{append_only("attempt_skills")};
{policies};
CREATE FUNCTION announce_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.id::text);
    RETURN NULL;
END $$;
CREATE TRIGGER attempts_announce AFTER INSERT ON attempts FOR EACH ROW EXECUTE FUNCTION announce_attempt()
""")
    _run(conn, push_function())


#: s001's check of a trainee's push: the trainees of the batch are the login's own row
OWN_ROW = """
        SELECT uid INTO own FROM trainees WHERE login = session_user;
        IF EXISTS (SELECT 1 FROM jsonb_to_recordset(batch->'trainees') AS t (uid text)
                   WHERE t.uid IS DISTINCT FROM own) THEN"""

#: s008's: every trainee of the batch, and the trainee of every attempt (in the batch or already
#: on the server), bears the login's own name
OWN_NAME = """
        SELECT name INTO own FROM trainee_logins WHERE login = session_user;
        IF own IS NULL OR EXISTS (
                SELECT 1 FROM jsonb_to_recordset(batch->'trainees') AS t (name text)
                WHERE t.name IS DISTINCT FROM own) OR EXISTS (
                SELECT 1 FROM jsonb_to_recordset(batch->'attempts') AS a (trainee_uid text)
                LEFT JOIN trainees s ON s.uid = a.trainee_uid
                LEFT JOIN jsonb_to_recordset(batch->'trainees') AS b (uid text, name text)
                    ON b.uid = a.trainee_uid
                WHERE coalesce(s.name, b.name) IS DISTINCT FROM own) THEN"""


def push_function(own_check: str = OWN_ROW, create: str = "CREATE") -> str:
    attempt_columns = [c.name for c in ATTEMPTS.shared() if c.kind != "key"]
    finding_columns = [c.name for c in FINDINGS.shared() if c.kind not in ("key", "ref")]
    trainee_columns = [c.name for c in TRAINEES.shared() if c.kind != "key"]
    values = ", ".join("t.id" if c == "trainee_id" else f"a.{c}" for c in attempt_columns)
    return f"""
{create} FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    own text;
BEGIN
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER')
            AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN{own_check}
            RAISE EXCEPTION 'a trainee pushes only their own results'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    INSERT INTO trainees ({', '.join(trainee_columns)})
        SELECT {', '.join(trainee_columns)}
        FROM jsonb_to_recordset(batch->'trainees') AS t ({record_type(TRAINEES)})
        ON CONFLICT (uid) DO NOTHING;
    WITH a AS (
        SELECT * FROM jsonb_to_recordset(batch->'attempts') AS a (
            {record_type(ATTEMPTS, skip=("trainee_id",))}, trainee_uid text, skills jsonb, findings jsonb)
    ), added AS (
        INSERT INTO attempts ({', '.join(attempt_columns)})
            SELECT {values} FROM a JOIN trainees t ON t.uid = a.trainee_uid
            ORDER BY a.started
            ON CONFLICT (uid) DO NOTHING
            RETURNING id, uid, trainee_id, started
    ), f AS (
        INSERT INTO findings (attempt_id, {', '.join(finding_columns)})
            SELECT added.id, {', '.join('f.' + c for c in finding_columns)}
            FROM added JOIN a USING (uid),
                 jsonb_to_recordset(a.findings) AS f ({record_type(FINDINGS, skip=("attempt_id",))})
    ), s AS (
        INSERT INTO attempt_skills (attempt_id, skill, trainee_id, started)
            SELECT added.id, k.skill, added.trainee_id, added.started
            FROM added JOIN a USING (uid), jsonb_array_elements_text(a.skills) AS k (skill)
    )
    SELECT count(*) INTO added FROM added;
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor"""


@migration
def s002_exam_ledger(conn: psycopg.Connection) -> None:
    """The instructor's exam ledger on the server: each sitting issued (its attempt number), and
    each sitting used, as rows that are only ever added. A workstation cannot take back an
    attempt: the rows that count them cannot be changed or removed, by anyone."""
    policies = ";\n".join(
        f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;\n"
        f"ALTER TABLE {t} FORCE ROW LEVEL SECURITY;\n"
        f"CREATE POLICY {t}_owner ON {t} TO {OWNER} USING (true) WITH CHECK (true);\n"
        f"CREATE POLICY {t}_staff ON {t} FOR SELECT TO {STAFF} USING (true);\n"
        f"CREATE POLICY {t}_issue ON {t} FOR INSERT TO class_instructor WITH CHECK (true);\n"
        f"REVOKE ALL ON {t} FROM PUBLIC;\n"
        f"GRANT SELECT ON {t} TO {STAFF};\n"
        f"GRANT INSERT ON {t} TO class_instructor;\n"
        f"{append_only(t)}"
        for t in ("exam_sittings", "exam_sitting_uses"))
    _run(conn, f"""
{create_table(EXAM_SITTINGS, "PRIMARY KEY (nonce)", "CHECK (attempt >= 1)",
              "UNIQUE (trainee_name, form_uid, attempt)")};
CREATE TABLE exam_sitting_uses (
    nonce text PRIMARY KEY REFERENCES exam_sittings (nonce),
    result_uid text NOT NULL UNIQUE,
    used double precision NOT NULL
);
{policies}
""")


@migration
def s003_trainee_logins(conn: psycopg.Connection) -> None:
    """An instructor gives a trainee of the class a login of their own (`trainee_<uid>`, in
    class_trainee), with which they read their own results and nobody else's."""
    _run(conn, """
CREATE FUNCTION trainee_login(trainee_uid text, password text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text := 'trainee_' || trainee_uid;
BEGIN
    IF trainee_uid !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'a trainee id is 32 hex digits, not %', trainee_uid
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainees WHERE uid = trainee_uid) THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', trainee_uid
            USING ERRCODE = 'no_data_found';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', login_name, password);
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE class_trainee', login_name, password);
    END IF;
    UPDATE trainees SET login = login_name WHERE uid = trainee_uid;
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION trainee_login(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION trainee_login(text, text) TO class_instructor
""")


@migration
def s004_exam_ledger_for_workstations(conn: psycopg.Connection) -> None:
    """What the exam ledger needs from workstations, which read nothing and write no table:

    - `exam_attempts_used(trainee, form)`: the attempts counted at a form (sittings issued and
      unsigned attempts started), for every login;
    - `use_exam_sitting(nonce, trainee, digest, result)`: a workstation starts a sitting: refused
      unless the sitting was issued here, to this trainee, for this form, is not expired by the
      server's clock and was never used; its attempt number;
    - `start_exam_attempt(result, trainee, form, allowed)`: a workstation starts an attempt at a
      form with no sitting: counted in `exam_starts`, refused past `allowed`;
    - `exam_certificates`: the instructors' signed certificates, one per sitting, insert-only
      (the server keeps them; whoever reads them checks the signature with the public key)."""
    staff_tables = ";\n".join(
        f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;\n"
        f"ALTER TABLE {t} FORCE ROW LEVEL SECURITY;\n"
        f"CREATE POLICY {t}_owner ON {t} TO {OWNER} USING (true) WITH CHECK (true);\n"
        f"CREATE POLICY {t}_staff ON {t} FOR SELECT TO {STAFF} USING (true);\n"
        f"REVOKE ALL ON {t} FROM PUBLIC;\n"
        f"GRANT SELECT ON {t} TO {STAFF};\n"
        f"{append_only(t)}"
        for t in ("exam_starts", "exam_certificates"))
    everyone = ", ".join(g for g in GROUPS)
    _run(conn, f"""
CREATE TABLE exam_starts (
    result_uid text PRIMARY KEY,
    trainee_name text NOT NULL,
    form_uid text NOT NULL,
    attempt integer NOT NULL CHECK (attempt >= 1),
    started double precision NOT NULL,
    UNIQUE (trainee_name, form_uid, attempt)
);
CREATE TABLE exam_certificates (
    result_uid text PRIMARY KEY,
    nonce text NOT NULL UNIQUE,
    trainee_name text NOT NULL,
    signer text NOT NULL,
    certificate text NOT NULL CHECK (certificate IS JSON),
    signed double precision NOT NULL
);
{staff_tables};
CREATE POLICY exam_certificates_sign ON exam_certificates FOR INSERT TO class_instructor WITH CHECK (true);
GRANT INSERT ON exam_certificates TO class_instructor;
CREATE FUNCTION exam_attempts_used(trainee text, form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT ((SELECT count(*) FROM exam_sittings WHERE trainee_name = trainee AND form_uid = form)
            + (SELECT count(*) FROM exam_starts WHERE trainee_name = trainee AND form_uid = form))::integer
$$;
CREATE FUNCTION use_exam_sitting(sitting text, trainee text, digest text, result text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    s exam_sittings;
BEGIN
    SELECT * INTO s FROM exam_sittings WHERE nonce = sitting;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this sitting was not issued in this class';
    END IF;
    IF s.trainee_name IS DISTINCT FROM trainee THEN
        RAISE EXCEPTION 'this sitting was issued to %, not %', s.trainee_name, trainee;
    END IF;
    IF s.form_digest IS DISTINCT FROM digest THEN
        RAISE EXCEPTION 'this sitting is for another exam';
    END IF;
    IF s.expires < extract(epoch FROM now()) THEN
        RAISE EXCEPTION 'this sitting has expired (by the class server''s clock): '
            'ask the instructor for a new one';
    END IF;
    INSERT INTO exam_sitting_uses (nonce, result_uid, used)
        VALUES (sitting, result, extract(epoch FROM now())) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this sitting was already used (attempt % of % at this exam): a sitting is good '
            'for one attempt; ask the instructor for a new one', s.attempt, s.trainee_name;
    END IF;
    RETURN s.attempt;
END $$;
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text, allowed integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    used integer;
BEGIN
    PERFORM pg_advisory_xact_lock(
        hashtextextended('exam attempts' || chr(10) || trainee || chr(10) || form, 0));
    IF EXISTS (SELECT 1 FROM exam_starts WHERE result_uid = result) THEN
        RAISE EXCEPTION 'this attempt was already started';
    END IF;
    used := exam_attempts_used(trainee, form);
    IF used >= allowed THEN
        RAISE EXCEPTION '% has used % of the % attempt(s) allowed at this exam (counted by the class server)',
            trainee, used, allowed;
    END IF;
    INSERT INTO exam_starts (result_uid, trainee_name, form_uid, attempt, started)
        VALUES (result, trainee, form, used + 1, extract(epoch FROM now()));
    RETURN used + 1;
END $$;
REVOKE ALL ON FUNCTION exam_attempts_used(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION use_exam_sitting(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_attempts_used(text, text) TO {everyone};
GRANT EXECUTE ON FUNCTION use_exam_sitting(text, text, text, text) TO {everyone};
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text, integer) TO {everyone}
""")


@migration
def s005_class_view_indexes(conn: psycopg.Connection) -> None:
    """Indexes the instructor's Class view is read from (trainer.progress.server.classview), each
    holding every column its query reads, so that PostgreSQL answers from the index alone (an
    index-only scan) instead of reading every attempt:

    - `attempts_kept_by_item`: the attempts kept (not abandoned) by item and start, with their game
      and pass: the hardest items, read an item at a time over the last days;
    - `attempts_kept_by_trainee`: the attempts kept by trainee and start, with critical and pass:
      each trainee's attempts of the last days, and their last attempts (time to answer);
    - `attempt_skills_window`: each trainee's attempts of a skill in the order of the window,
      newest first (start, then attempt): a cell's last 20 without a sort. It has the columns of
      attempt_skills_recent first, which it replaces.

    Row-level security leaves them usable: the staff's policies read every row, and the
    comparisons of these queries (and of a trainee's policy) are leakproof, so the server may
    search the index with them."""
    _run(conn, """
CREATE INDEX attempts_kept_by_item ON attempts (item_id, started) INCLUDE (game, passed)
    WHERE abandoned = 0;
CREATE INDEX attempts_kept_by_trainee ON attempts (trainee_id, started) INCLUDE (critical, passed)
    WHERE abandoned = 0;
CREATE INDEX attempt_skills_window ON attempt_skills (trainee_id, skill, started DESC, attempt_id DESC);
DROP INDEX attempt_skills_recent
""")


@migration
def s006_exam_starts_bound_to_trainee_logins(conn: psycopg.Connection) -> None:
    """Whose exams a login may start (trainer.exams.classledger, "Whose attempts"): a trainee's
    own login (s003) starts exams for that trainee only, a sitting or not; and once a trainee has
    a login of their own, an exam with no sitting starts for them only with it (the shared
    workstation login, which the server cannot tell from anyone, no longer spends their
    attempts). A sitting needs its nonce, which only the instructor's token carries.

    s004's `use_exam_sitting` and `start_exam_attempt` stay as they are, under new names only
    the owner may call; the functions of those names check the caller, then call them."""
    everyone = ", ".join(GROUPS)
    _run(conn, f"""
ALTER FUNCTION use_exam_sitting(text, text, text, text) RENAME TO use_exam_sitting_as_asked;
ALTER FUNCTION start_exam_attempt(text, text, text, integer) RENAME TO start_exam_attempt_as_asked;
REVOKE ALL ON FUNCTION use_exam_sitting_as_asked(text, text, text, text) FROM {everyone};
REVOKE ALL ON FUNCTION start_exam_attempt_as_asked(text, text, text, integer) FROM {everyone};
CREATE FUNCTION exam_start_allowed(trainee text, unsigned boolean) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    own text;
BEGIN
    IF pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RETURN;
    END IF;
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
        SELECT name INTO own FROM trainees WHERE login = session_user;
        IF own IS DISTINCT FROM trainee THEN
            RAISE EXCEPTION 'this login starts exams for % only, not for %', own, trainee
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSIF unsigned AND EXISTS (SELECT 1 FROM trainees WHERE name = trainee AND login IS NOT NULL) THEN
        RAISE EXCEPTION '% has a login of their own in this class: an exam with no sitting starts '
            'for them only on a workstation joined with it', trainee
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;
CREATE FUNCTION use_exam_sitting(sitting text, trainee text, digest text, result text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_start_allowed(trainee, false);
    RETURN use_exam_sitting_as_asked(sitting, trainee, digest, result);
END $$;
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text, allowed integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_start_allowed(trainee, true);
    RETURN start_exam_attempt_as_asked(result, trainee, form, allowed);
END $$;
REVOKE ALL ON FUNCTION exam_start_allowed(text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION use_exam_sitting(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION use_exam_sitting(text, text, text, text) TO {everyone};
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text, integer) TO {everyone}
""")


@migration
def s007_exam_forms_given(conn: psycopg.Connection) -> None:
    """The exams an instructor gave to the class (trainer.exams.classledger, "Whose attempts"):
    each form's id, content digest and the attempts it allows, as the instructor's form says,
    insert-only. An exam with no sitting starts only at a form given here, and is counted against
    the allowance kept here, not the number a workstation sends (s004's `allowed`, which an engine
    changed to ask for more would have had). The class server gives the bundled forms when it
    starts (`give_form` as the superuser)."""
    everyone = ", ".join(GROUPS)
    _run(conn, f"""
CREATE TABLE exam_forms_given (
    form_uid text PRIMARY KEY,
    form_digest text NOT NULL,
    name text NOT NULL,
    attempts_allowed integer NOT NULL CHECK (attempts_allowed >= 1),
    given double precision NOT NULL DEFAULT extract(epoch FROM now()),
    given_by text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_forms_given ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_forms_given FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_forms_given_owner ON exam_forms_given TO {OWNER} USING (true) WITH CHECK (true);
CREATE POLICY exam_forms_given_staff ON exam_forms_given FOR SELECT TO {STAFF} USING (true);
CREATE POLICY exam_forms_given_give ON exam_forms_given FOR INSERT TO class_instructor
    WITH CHECK (given_by = session_user);
REVOKE ALL ON exam_forms_given FROM PUBLIC;
GRANT SELECT ON exam_forms_given TO {STAFF};
GRANT INSERT ON exam_forms_given TO class_instructor;
{append_only("exam_forms_given")};
DROP FUNCTION start_exam_attempt(text, text, text, integer);
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    allowed integer;
BEGIN
    PERFORM exam_start_allowed(trainee, true);
    SELECT attempts_allowed INTO allowed FROM exam_forms_given WHERE form_uid = form;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this exam was not given to the class: the instructor gives it with '
            'Exam › Forms › Give to class';
    END IF;
    RETURN start_exam_attempt_as_asked(result, trainee, form, allowed);
END $$;
CREATE FUNCTION exam_attempts_allowed(form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT attempts_allowed FROM exam_forms_given WHERE form_uid = form
$$;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_attempts_allowed(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text) TO {everyone};
GRANT EXECUTE ON FUNCTION exam_attempts_allowed(text) TO {everyone}
""")


def not_in_names() -> str:
    """A regular expression (PostgreSQL's) for the characters trainer.progress.records.clean_name
    never leaves in a name: format, control, private-use and unassigned characters, and every
    space but U+0020 (made from this Python's Unicode tables, as clean_name's are: a character
    a later Unicode assigns is refused until the class server's Python knows it)."""
    ranges: list[list[int]] = []
    for code in range(0x110000):
        ch = chr(code)
        if 0xD800 <= code <= 0xDFFF:
            continue
        if unicodedata.category(ch) in INVISIBLE or (ch.isspace() and ch != " "):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "[" + "".join(f"\\U{a:08X}" + (f"-\\U{b:08X}" if b > a else "") for a, b in ranges) + "]"


@migration
def s008_trainee_logins_by_name(conn: psycopg.Connection) -> None:
    """A trainee's login belongs to their name in the class, not to one progress file: the name
    is what the class counts exam attempts by, and one trainee sits at several workstations,
    each file with a trainee id of its own.

    - `trainee_logins`: each name's login, insert-only; an instructor makes one with
      `class_login(name, verifier)` before or after the trainee sends anything (its login name is
      `trainee_` and a digest of the class and the name: two classes on one PostgreSQL give two
      logins). The password reaches the server as its SCRAM verifier only (made by the driver on
      the instructor's machine), so no statement, error or log line holds it;
    - a trainee's login reads the rows of its name, from every workstation (the policies of s001
      now ask `trainee_logins`, not the row's own `login`, which s003 set);
    - it connects to its own class's database only (CONNECT per login, not to the group);
    - a trainee's login pushes rows of its own name only: the batch's trainees and the trainee
      of every attempt (s001 checked the trainees listed, not an attempt naming a trainee
      already on the server);
    - the names the class counts exams by are written as clean_name writes them
      (`canonical_name`): a start, or a login, for "Sam Lee" with a zero-width space, a
      no-break space or a full-width letter is refused, so no spelling of a name gets round
      its login;
    - `exam_start_allowed` (s006) reads the logins from here;
    - `trainee_login(uid, verifier)` (s003) makes the login of that trainee's name;
    - `trainee_login_of(name)`, for any login: the name's login, if it has one, so a
      workstation knows to ask for the trainee's password.

    A name that had two s003 logins (two progress files of one name, each given a login) keeps
    the older; the other can no longer log in, and the instructor gives the trainee a new
    password with class-login."""
    everyone = ", ".join(GROUPS)
    _run(conn, f"""
CREATE FUNCTION canonical_name(name text) RETURNS boolean
LANGUAGE sql IMMUTABLE SET search_path = public, pg_temp AS $$
    SELECT name IS NOT NULL AND name <> '' AND name = btrim(name, ' ') AND position('  ' in name) = 0
        AND name IS NFKC NORMALIZED AND name !~ '{not_in_names()}'
$$;
CREATE TABLE trainee_logins (
    name text PRIMARY KEY CHECK (canonical_name(name)),
    login text NOT NULL UNIQUE,
    made double precision NOT NULL DEFAULT extract(epoch FROM now())
);
ALTER TABLE trainee_logins ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainee_logins FORCE ROW LEVEL SECURITY;
CREATE POLICY trainee_logins_owner ON trainee_logins TO {OWNER} USING (true) WITH CHECK (true);
CREATE POLICY trainee_logins_staff ON trainee_logins FOR SELECT TO {STAFF} USING (true);
CREATE POLICY trainee_logins_own ON trainee_logins FOR SELECT TO class_trainee USING (login = current_user);
REVOKE ALL ON trainee_logins FROM PUBLIC;
GRANT SELECT ON trainee_logins TO class_trainee, {STAFF};
{append_only("trainee_logins")};
INSERT INTO trainee_logins (name, login)
    SELECT DISTINCT ON (name) name, login FROM trainees
    WHERE login IS NOT NULL AND canonical_name(name) ORDER BY name, id;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT login FROM trainees WHERE login IS NOT NULL
             AND login NOT IN (SELECT login FROM trainee_logins) LOOP
        EXECUTE format('ALTER ROLE %I NOLOGIN', r.login);
    END LOOP;
    FOR r IN SELECT login FROM trainee_logins LOOP
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), r.login);
    END LOOP;
END $$;
DROP POLICY trainees_own ON trainees;
CREATE POLICY trainees_own ON trainees FOR SELECT TO class_trainee
    USING (name IN (SELECT name FROM trainee_logins WHERE login = current_user));
CREATE FUNCTION class_login(trainee text, verifier text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    IF NOT canonical_name(trainee) THEN
        RAISE EXCEPTION 'the name % is not written as the class writes names (no invisible '
            'characters, single spaces)', quote_literal(coalesce(trainee, ''))
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF verifier IS NULL OR verifier !~ '^SCRAM-SHA-256[$]' THEN
        RAISE EXCEPTION 'a trainee''s password reaches the class server as its SCRAM verifier only'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('trainee login' || chr(10) || trainee, 0));
    SELECT login INTO login_name FROM trainee_logins WHERE name = trainee;
    IF FOUND THEN
        EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login_name, verifier);
    ELSE
        login_name := 'trainee_' || left(md5((SELECT uid FROM class_info) || chr(10) || trainee), 24);
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN  -- a class restored
            BEGIN
                EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login_name, verifier);
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'the login % is on this PostgreSQL already, and not the class''s '
                    'to change: an administrator of the server removes it, then the login is '
                    'made again', login_name USING ERRCODE = 'invalid_parameter_value';
            END;
        ELSE
            EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE class_trainee', login_name, verifier);
        END IF;
        INSERT INTO trainee_logins (name, login) VALUES (trainee, login_name);
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
    RETURN login_name;
END $$;
CREATE OR REPLACE FUNCTION trainee_login(trainee_uid text, password text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    trainee text;
BEGIN
    IF trainee_uid !~ '^[0-9a-f]{{32}}$' THEN
        RAISE EXCEPTION 'a trainee id is 32 hex digits, not %', trainee_uid
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT name INTO trainee FROM trainees WHERE uid = trainee_uid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', trainee_uid
            USING ERRCODE = 'no_data_found';
    END IF;
    RETURN class_login(trainee, password);
END $$;
CREATE FUNCTION trainee_login_of(trainee text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT login FROM trainee_logins WHERE name = trainee
$$;
CREATE OR REPLACE FUNCTION exam_start_allowed(trainee text, unsigned boolean) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    own text;
BEGIN
    IF NOT canonical_name(trainee) THEN
        RAISE EXCEPTION 'the name % is not written as the class writes names (no invisible '
            'characters, single spaces): no exam starts under it', quote_literal(coalesce(trainee, ''))
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RETURN;
    END IF;
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
        SELECT name INTO own FROM trainee_logins WHERE login = session_user;
        IF own IS DISTINCT FROM trainee THEN
            RAISE EXCEPTION 'this login starts exams for % only, not for %', own, trainee
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSIF unsigned AND EXISTS (SELECT 1 FROM trainee_logins WHERE name = trainee) THEN
        RAISE EXCEPTION '% has a login of their own in this class: an exam with no sitting starts '
            'for them only with it', trainee
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;
REVOKE ALL ON FUNCTION class_login(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION trainee_login_of(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_login(text, text) TO class_instructor;
GRANT EXECUTE ON FUNCTION trainee_login_of(text) TO {everyone}
""")
    _run(conn, push_function(OWN_NAME, "CREATE OR REPLACE"))
