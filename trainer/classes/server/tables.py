"""The class server's schema, as named migrations (the pattern of trainer.progress.schema).

The tables of attempts were made from their description in trainer.progress.columns (s001), so
the server and the file have the same columns. The server adds what a shared database needs:

- **append-only, in the server**: a trigger refuses UPDATE, DELETE and TRUNCATE of attempts,
  findings, attempt skills and the exam ledger, for every role, the tables' owner included;
  no role but the owner is granted any write on them at all;
- **roles** (NOLOGIN groups; each login is a member of one): `class_trainee` reads its own
  rows only, `class_instructor` and `class_supervisor` read the class, `class_workstation` (the
  login every workstation of the class shares, and each workstation enrolled with a login of
  its own, s011) reads nothing and may only push, and since s018 only the rows of the trainees
  it serves;
- **row-level security**, forced (the owner too is under it), so the server itself filters what
  a trainee's connection reads: rows of other trainees are not there for it;
- **push_attempts(batch)**: the one way attempts reach the server. A batch (JSON: its trainees,
  its attempts with their findings and skills) is written in the caller's transaction; an attempt
  whose uid is already there adds nothing (ON CONFLICT (uid) DO NOTHING). A trainee's login may
  push its own attempts only. Since s010 a row the class does not keep (impossible times, an
  exam's attempt, a name of 50,000 characters ...) refuses the batch, named, and so does a
  different attempt under a uid already there; since s018 so does a workstation's row of a
  trainee it does not serve, or who has a login of their own;
- **NOTIFY** with the attempt's server id on each insert, for the live Class view, on a channel
  whose name only the staff may read (`class_info.channel`, s011);
- **no lock a login can hold** on what another needs: no advisory lock (any login may take any),
  no row a login may lock, no table it may lock but to read (s011).

`install(conn)` (a superuser connection to the cluster) makes the roles, the database and the
missing migrations; it can run again on every start.

**Frozen.** Each migration runs the SQL it ran when it was released, kept in
`migrations/<name>.sql` next to this module: its text never changes (as the progress file's
migrations never do), so a class made before a change and a class made after it are the same
class. tests/test_class_server_migrations.py keeps a digest of each migration's text and a
snapshot of the schema they make (tests/data/class_server_schema.txt); it fails if a migration
is edited, and if a shared column of trainer.progress.columns reaches no server table.

A change is a new migration: a new file, and a function that runs it at the end of the list.
The helpers at the end of this module write its SQL: `row_level_security` and `append_only` the
blocks every table of the class is under (a migration may call them when it runs: they read
only their arguments); `create_table`, `column_ddl` and `push_function` the tables and the push
from today's descriptions of the columns, which are written into the file, never called when
the migration runs (tomorrow's columns would change it). `not_in_names` is s008's set of
characters, which the file holds as Unicode 14.0 gave it.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Mapping
from importlib import resources

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from trainer.progress.columns import (
    ATTEMPTS,
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
WORKSTATIONS = "class_workstation"
STAFF = "class_instructor, class_supervisor"
MIGRATIONS: list[Callable[[psycopg.Connection], None]] = []


def migration(fn: Callable[[psycopg.Connection], None]) -> Callable[[psycopg.Connection], None]:
    MIGRATIONS.append(fn)
    return fn


def frozen_sql(name: str) -> str:
    """The SQL migration `name` runs, as it was released (migrations/<name>.sql)."""
    return resources.files(__package__).joinpath("migrations", f"{name}.sql").read_text(encoding="utf-8")


def _run(conn: psycopg.Connection, script: str) -> None:
    conn.execute(script.encode())  # no parameters: several statements go as one simple query


# --------------------------------------------------------------------------- installing
def install(admin: psycopg.Connection, database: str = DATABASE,
            logins: Mapping[str, str] | None = None) -> list[str]:
    """Make the roles and the database if missing, then apply the missing migrations in one
    transaction; the names applied. `admin`: an autocommit connection of a superuser, or of a
    role with CREATEROLE and CREATEDB (trainer.classes.server.setup says what else it needs).

    Without `logins`, the class is alone on its PostgreSQL (class-server): its staff's and
    workstations' groups connect to its database. With `logins` (login name: its kind,
    "instructor", "supervisor" or "workstation"), the PostgreSQL may hold other classes, whose
    logins are in the same groups: no group connects, each of these logins does (s024)."""
    superuser = make_roles(admin)
    if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone():
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {} ENCODING 'UTF8' TEMPLATE template0").format(
            sql.Identifier(database), sql.Identifier(OWNER)))
    with psycopg.connect(make_conninfo(admin.info.dsn, dbname=database,
                                       password=admin.info.password or None)) as conn:
        conn.execute("REVOKE ALL ON DATABASE " + database + " FROM PUBLIC")
        if logins is None:
            # each trainee's own login connects to its class only (s008), not the group to every class
            conn.execute(f"GRANT CONNECT ON DATABASE {database} TO {STAFF}")
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
                (fn if superuser else WITHOUT_SUPERUSER.get(fn.__name__, fn))(conn)
                conn.execute("INSERT INTO _migrations VALUES (%s, %s)", (fn.__name__, time.time()))
                new.append(fn.__name__)
        conn.execute("RESET ROLE")
        closed = shared_login_closed(conn)
        if logins is None:
            # every workstation's login connects through its group while the shared login is open;
            # once the instructor closed it (s013), only the enrolled workstations' own rights remain
            verb = "REVOKE CONNECT ON DATABASE {} FROM {}" if closed else "GRANT CONNECT ON DATABASE {} TO {}"
            conn.execute(sql.SQL(verb).format(sql.Identifier(database), sql.Identifier(WORKSTATIONS)))
        else:
            _own_logins(conn, database, logins, closed)
    return new


def cluster_part(name: str) -> str:
    """The part of the frozen migration `name` that changes the cluster's own objects, which only
    a superuser may: what a role with CREATEROLE and CREATEDB leaves to the server's
    administrator (trainer.classes.server.setup prints it)."""
    script = frozen_sql(name)
    start = script.index(_CLUSTER_PART[0]) + len(_CLUSTER_PART[0])
    return script[start:script.index(_CLUSTER_PART[1], start)].strip() + "\n"


def _s016_without_superuser(conn: psycopg.Connection) -> None:
    """s016 for an administrator that is not a superuser: all of it but `cluster_part`."""
    script = frozen_sql("s016_class_limits")
    _run(conn, script.replace(cluster_part("s016_class_limits").strip(), "", 1))


#: s016's part between these two lines is the cluster's (its own objects: PostgreSQL's functions
#: and roles); the rest is the class's
_CLUSTER_PART = ("RESET ROLE;", "SET ROLE class_owner;")
#: the migrations run otherwise when the administrator is not a superuser (`install`)
WITHOUT_SUPERUSER = {"s016_class_limits": _s016_without_superuser}


def make_roles(admin: psycopg.Connection) -> bool:
    """The owner and the groups, if missing, the groups the owner's to grant and the owner the
    administrator's to act as; whether the administrator is a superuser."""
    me = admin.info.user
    superuser = _superuser(admin)
    for role in (OWNER, *GROUPS):
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            admin.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(role)))
    if not value_of(admin, "SELECT rolcreaterole FROM pg_roles WHERE rolname = %s", OWNER):
        admin.execute(sql.SQL("ALTER ROLE {} CREATEROLE").format(sql.Identifier(OWNER)))
    for group in GROUPS:
        if not _admin_of(admin, OWNER, group):
            admin.execute(sql.SQL("GRANT {} TO {} WITH ADMIN OPTION").format(
                sql.Identifier(group), sql.Identifier(OWNER)))
    if not superuser and not value_of(
            admin, "SELECT pg_has_role(current_user, %s, 'SET') AND pg_has_role(current_user, %s, 'USAGE')",
            OWNER, OWNER):
        # the owner's rights are the administrator's too, to make its database and migrate it
        admin.execute(sql.SQL("GRANT {} TO {} WITH INHERIT TRUE, SET TRUE").format(
            sql.Identifier(OWNER), sql.Identifier(me)))
    return superuser


def _own_logins(conn: psycopg.Connection, database: str, logins: Mapping[str, str], closed: bool) -> None:
    """The class's own logins (s024) recorded, each given the right to connect (the shared
    workstation login's while it is open), and no group any."""
    name = sql.Identifier(database)
    conn.execute(sql.SQL("REVOKE CONNECT ON DATABASE {} FROM {}").format(
        name, sql.SQL(", ").join(sql.Identifier(g) for g in GROUPS)))
    conn.execute(f"SET ROLE {OWNER}")
    for login, kind in logins.items():
        conn.execute("INSERT INTO class_logins (login, kind) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                     (login, kind))
    conn.execute("RESET ROLE")
    for login, kind in logins.items():
        verb = "REVOKE CONNECT ON DATABASE {} FROM {}" if closed and kind == "workstation" \
            else "GRANT CONNECT ON DATABASE {} TO {}"
        conn.execute(sql.SQL(verb).format(name, sql.Identifier(login)))


def _superuser(conn: psycopg.Connection) -> bool:
    return bool(value_of(conn, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"))


def _admin_of(conn: psycopg.Connection, member: str, group: str) -> bool:
    """`member` holds `group` with its admin option (it may grant it to the logins it makes)."""
    return bool(value_of(conn, "SELECT pg_has_role(%s, %s, 'MEMBER WITH ADMIN OPTION')", member, group))


def value_of(conn: psycopg.Connection, query: str, *args: object) -> object:
    row = conn.execute(query, args).fetchone()
    return row[0] if row else None


def shared_login_closed(conn: psycopg.Connection) -> bool:
    """Whether the instructor closed the class's shared workstation login (s013; never, in a
    class without that migration)."""
    made = conn.execute("SELECT to_regclass('shared_login_events') IS NOT NULL").fetchone()
    closed = conn.execute("SELECT shared_login_closed()").fetchone() if made and made[0] else None
    return bool(closed and closed[0])


def known() -> list[str]:
    return [fn.__name__ for fn in MIGRATIONS]


# --------------------------------------------------------------------------- migrations
@migration
def s001_attempts(conn: psycopg.Connection) -> None:
    """The class, its trainees and the log of their attempts, append-only, under row-level
    security."""
    _run(conn, frozen_sql("s001_attempts"))


@migration
def s002_exam_ledger(conn: psycopg.Connection) -> None:
    """The instructor's exam ledger on the server: each sitting issued (its attempt number), and
    each sitting used, as rows that are only ever added. A workstation cannot take back an
    attempt: the rows that count them cannot be changed or removed, by anyone."""
    _run(conn, frozen_sql("s002_exam_ledger"))


@migration
def s003_trainee_logins(conn: psycopg.Connection) -> None:
    """An instructor gives a trainee of the class a login of their own (`trainee_<uid>`, in
    class_trainee), with which they read their own results and nobody else's."""
    _run(conn, frozen_sql("s003_trainee_logins"))


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
    _run(conn, frozen_sql("s004_exam_ledger_for_workstations"))


@migration
def s005_class_view_indexes(conn: psycopg.Connection) -> None:
    """Indexes the instructor's Class view is read from (trainer.classes.workstation.classview), each
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
    _run(conn, frozen_sql("s005_class_view_indexes"))


@migration
def s006_exam_starts_bound_to_trainee_logins(conn: psycopg.Connection) -> None:
    """Whose exams a login may start (trainer.exams.classledger, "Whose attempts"): a trainee's
    own login (s003) starts exams for that trainee only, a sitting or not; and once a trainee has
    a login of their own, an exam with no sitting starts for them only with it (the shared
    workstation login, which the server cannot tell from anyone, no longer spends their
    attempts). A sitting needs its nonce, which only the instructor's token carries.

    s004's `use_exam_sitting` and `start_exam_attempt` stay as they are, under new names only
    the owner may call; the functions of those names check the caller, then call them."""
    _run(conn, frozen_sql("s006_exam_starts_bound_to_trainee_logins"))


@migration
def s007_exam_forms_given(conn: psycopg.Connection) -> None:
    """The exams an instructor gave to the class (trainer.exams.classledger, "Whose attempts"):
    each form's id, content digest and the attempts it allows, as the instructor's form says,
    insert-only. An exam with no sitting starts only at a form given here, and is counted against
    the allowance kept here, not the number a workstation sends (s004's `allowed`, which an engine
    changed to ask for more would have had). The class server gives the bundled forms when it
    starts (`give_form` as the superuser)."""
    _run(conn, frozen_sql("s007_exam_forms_given"))


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
    _run(conn, frozen_sql("s008_trainee_logins_by_name"))


@migration
def s009_pass_rule(conn: psycopg.Connection) -> None:
    """The pass rule each attempt was graded under (trainer.policy.RULE), as the progress file
    keeps it (its m014): `attempts.rule`, and push_attempts writes it. Rows pushed before, and by
    an app that grades under rule 1, have none: they read as rule 1."""
    _run(conn, frozen_sql("s009_pass_rule"))


@migration
def s012_proven_sitting_streams(conn: psycopg.Connection) -> None:
    """A sitting is started, answered and ended on the class server only by whoever knows its
    start code, and the server keeps the first record of it (trainer.exams.proof, "In a class";
    trainer.exams.classledger, "The first sitting"):

    - `exam_sitting_links`: what the instructor registers with a sitting when issuing it, its
      item count and the verifier (the last link of a hash chain its start code seeds), never
      the code; insert-only, read by the staff;
    - `start_exam_sitting(nonce, trainee, digest, result, proof)`: a sitting with a verifier
      starts only with the next link of its chain; the server records the start with a nonce of
      its own (`opened`) and returns it with the attempt number. A sitting issued before (no
      verifier) starts as s006's `use_exam_sitting` started it, which no login may call itself
      any more;
    - `exam_sitting_step(nonce, step, proof, kind, item, log, ending)`: each answer and the end,
      in order, each with the next link: `exam_sitting_steps` keeps them, append-only, and the
      first answer to an item wins; a second answer to it, a step taken twice or anything after
      the end is refused, and recorded in `exam_sitting_refusals` (up to 100 a sitting);
      a step whose link does not verify is refused, and nothing is written.
    """
    _run(conn, frozen_sql("s012_proven_sitting_streams"))


@migration
def s011_no_login_stops_the_class(conn: psycopg.Connection) -> None:
    """No login can stop the class or another trainee:

    - `workstation_logins`: workstations the instructor enrolled, each with a login of its own
      (`workstation_` and a digest of the class and the workstation's name, in
      class_workstation): a trainee who changes its password, or the settings it starts with,
      stops that workstation only. Each enrolment and revocation is a row, insert-only; the staff
      read them. `enrol_workstation(name, verifier)` makes the login (or gives it a new
      password, or gives a revoked one back), `revoke_workstation(name)` takes the group from
      it (its open connections lose every right at their next statement) and its login. The
      shared `workstation` login stays, for a class that enrols none;
    - no advisory lock: every login may take any advisory lock, and hold it, so s004's
      `start_exam_attempt` (a lock per trainee and form) and s008's `class_login` (a lock per
      name) could be stopped by any login holding that key. A start now relies on the attempt
      numbers being unique per trainee and form (the second of two starts at once counts again),
      and class_login on a lock of its table that no other login may take (they may only read
      it, which that lock lets through);
    - `class_info.channel`: the channel new attempts are announced on, a random name the staff
      alone may read (LISTEN needs no right, so a channel everyone knows announced every
      attempt to every login); the workstations and trainees read the class's id only."""
    _run(conn, frozen_sql("s011_no_login_stops_the_class"))


@migration
def s010_checked_pushes_and_retractions(conn: psycopg.Connection) -> None:
    """The class keeps only what it can use, checked where it is stored, and an
    instructor hides a row with a retraction:

    - `trainee_problem`, `attempt_problem`, `finding_problem`: why a row is not one the class
      keeps, in words (NULL: it is): ids of letters and digits; a trainee's name as the class
      writes names (s008) and at most 200 characters (the app writes 100, and an import adds
      " (workstation n)"); times between 2000 and 2100 (trainer.progress.records' bounds), an end
      after the start, durations and targets of 0 to 7 days; the modes a workstation records
      (never "exam": an exam's result reaches the class as its certificate), the five games;
      scores from 0 to 100; texts of bounded length with no control characters; a log that is a
      JSON list of logged actions (each an object with its action, its round and a time of 0 to
      7 days), 2,000,000 characters at most; a finding's action a JSON object;
    - a CHECK on each table from them, NOT VALID: every new row is checked, none stored before;
    - `push_attempts` refuses a batch holding such a row, naming it ("refused attempt <uid>:
      why", check_violation), and an attempt whose id the class holds for a different attempt
      (another trainee's, another log, other scores...): a copy of an attempt already there (a
      push repeated) still adds nothing, but the first pushed under an id no longer hides another
      sent later as if it had arrived. A workstation finds the row refused by halving the batch
      (trainer.classes.workstation.push) and sends the others;
    - `retractions`: an instructor hides an attempt from the exports and the class view, with a
      reason, insert-only (`retract_attempt(uid, reason)`, class_instructor only; the staff read
      them, a trainee those of their own attempts);
    - the rows stored before that these checks refuse are retracted here, each with the reason,
      by "the class server (s010)": the readers skip them and say why, rather than fail."""
    _run(conn, frozen_sql("s010_checked_pushes_and_retractions"))



@migration
def s013_shared_workstation_login_closed(conn: psycopg.Connection) -> None:
    """The instructor closes the shared `workstation` login once every workstation is enrolled
    with a login of its own (s011), and opens it again: whoever holds the shared login (it is in
    every shared workstation's password file) can change its password and lock out every
    workstation that still uses it; closed, it serves no workstation at all.

    - `shared_login_events`: each closing and opening, with who and when, insert-only; the staff
      read them; `shared_login_closed()` says whether it is closed now;
    - `close_shared_login()` (an instructor's): refused while no workstation is enrolled (every
      workstation would stop); gives each enrolled workstation's login a right of its own to
      connect to the class's database and takes the right from the group every workstation's
      login is in, so the shared login connects no more; the number of workstations enrolled.
      `open_shared_login()` gives the group its right back;
    - a session of the shared login opened before it was closed adds nothing after: a trigger on
      every table a workstation's call writes (trainees, attempts, exam starts and sitting uses,
      a sitting's steps and refusals) refuses a login of class_workstation that is not an
      enrolled workstation's while the shared login is closed;
    - `enrol_workstation` (s011's, written again) gives each workstation it enrols its own right
      to connect, so that one enrolled while the shared login is closed joins.

    The class server's start reads the state (trainer.classes.server.tables.install) and gives
    the group its right to connect only while the shared login is open: a restart never opens
    it again."""
    _run(conn, frozen_sql("s013_shared_workstation_login_closed"))


@migration
def s014_late_answers_marked(conn: psycopg.Connection) -> None:
    """The exam's time limit, kept by the class server's own clock (trainer.exams.classledger,
    "The time limit"):

    - `exam_sitting_links.time_limit`: the form's time limit in seconds, which the instructor
      registers with the sitting's verifier when issuing it (required of every sitting
      registered from now on; NULL for those registered before, whose time the server does not
      keep);
    - `exam_queue_allowance()`: 120 seconds, what the class allows after the time limit for a
      step to come through the workstation's queue (the pusher's longest pause between tries is
      30 s, a connection found dead is given up in 10 s);
    - `exam_sitting_step` (s012's, written again): a step that reaches the server more than the
      allowance after the time limit, counted from the server's own record of the sitting's
      start (step 1's `received`), is kept, in order, with `late`: how many seconds after the
      time limit it arrived; the reply says so. The chain goes on (the end still reaches the
      class), and `certify --class` counts an answer marked late as not answered, naming it."""
    _run(conn, frozen_sql("s014_late_answers_marked"))


@migration
def s016_class_limits(conn: psycopg.Connection) -> None:
    """No login fills or holds what the class shares (trainer.classes.server.logins, "Limits"):

    - PUBLIC loses the large objects (a login, even a revoked one, filled the disk with
      `lo_from_bytea`, and nobody but a superuser could remove them; those made before are
      removed here), the advisory locks (a login holding thousands fills the lock table) and
      `pg_notify` (the owner keeps it, for announce_attempt); the superuser does this part, as
      these are PostgreSQL's own functions;
    - a trainee's and an enrolled workstation's login hold 4 connections at most (CONNECTION
      LIMIT, which a login cannot change for itself): `class_login` and `enrol_workstation` set
      it on the logins they make, this migration on those made before; the instructor may use
      the connections PostgreSQL keeps back (`pg_use_reserved_connections`, from PostgreSQL 16);
    - `revoke_workstation` ends the revoked login's open sessions (`pg_terminate_backend`; the
      owner is given `pg_signal_backend` for it);
    - `announce_attempt` announces nothing while the NOTIFY queue is half full or more, so a
      queue a login keeps from draining fails no push (NOTIFY itself needs no right)."""
    _run(conn, frozen_sql("s016_class_limits"))


# --------------------------------------------------------------------------- writing a migration
# `append_only` and `row_level_security` read nothing but their arguments: a new migration may
# call them when it runs (tests/test_class_server_migrations.py keeps the digest of what it sends).
def append_only(table: str) -> str:
    """The triggers that refuse UPDATE, DELETE and TRUNCATE of a table, for every role."""
    return (f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION refuse_change();\n"
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()")


def row_level_security(table: str, *, own: str = "", insert: tuple[str, str] | None = None,
                       insert_only: bool = True) -> str:
    """What every table of the class is under, as s001, s002, s004, s007, s008 and s011 wrote it out:
    row-level security, forced (the owner too is under it); the owner's policy (every row, every
    command); the staff read every row; with `own`, a trainee reads the rows where `own` holds;
    with `insert` (the policy's name, its check), an instructor adds rows where the check holds;
    nothing granted to PUBLIC; and, unless `insert_only` is false, the append-only triggers.
    The statements are joined by ";\n", with no semicolon after the last."""
    t = table
    lines = [f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY",
             f"ALTER TABLE {t} FORCE ROW LEVEL SECURITY",
             f"CREATE POLICY {t}_owner ON {t} TO {OWNER} USING (true) WITH CHECK (true)",
             f"CREATE POLICY {t}_staff ON {t} FOR SELECT TO {STAFF} USING (true)"]
    if insert:
        name, check = insert
        lines.append(f"CREATE POLICY {t}_{name} ON {t} FOR INSERT TO class_instructor WITH CHECK ({check})")
    if own:
        lines.append(f"CREATE POLICY {t}_own ON {t} FOR SELECT TO {TRAINEE} USING ({own})")
    lines += [f"REVOKE ALL ON {t} FROM PUBLIC",
              f"GRANT SELECT ON {t} TO {TRAINEE + ', ' if own else ''}{STAFF}"]
    if insert:
        lines.append(f"GRANT INSERT ON {t} TO class_instructor")
    if insert_only:
        lines.append(append_only(t))
    return ";\n".join(lines)


# The helpers below wrote s001's tables and s001's and s008's push_attempts from today's
# descriptions in trainer.progress.columns. A migration never calls them when it runs (its text
# would change with the columns; the tests check that none does): its file holds what they gave.
_PG_TYPES = {"real": "double precision", "text": "text", "json": "text", "choice": "text"}


def pg_type(c: Column) -> str:
    return _PG_TYPES.get(c.kind, "bigint" if c.kind in ("key", "ref") else "integer")


def column_ddl(c: Column) -> str:
    """A shared column's definition on the server (its type and check), for CREATE TABLE or
    ALTER TABLE ... ADD COLUMN."""
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
    """CREATE TABLE for a table's shared columns as they are described today (s001's tables)."""
    lines = [column_ddl(c) for c in table.shared()]
    lines += [f"UNIQUE ({u})" for u in table.unique] + list(more)
    return f"CREATE TABLE {table.name} (\n    " + ",\n    ".join(lines) + "\n)"


def record_type(table: Table, *, skip: tuple[str, ...] = ()) -> str:
    """The column list of jsonb_to_recordset for a table's shared columns."""
    return ", ".join(f"{c.name} {pg_type(c)}" for c in table.shared()
                     if c.kind != "key" and c.name not in skip)


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
    """push_attempts for the shared columns described today: s001's (`OWN_ROW`) and s008's
    (`OWN_NAME`, CREATE OR REPLACE) were written by it. A migration that gives the server a new
    shared column writes the function again with it (and its file holds the text)."""
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


def not_in_names() -> str:
    """A regular expression (PostgreSQL's) for the characters trainer.progress.records.clean_name
    never leaves in a name: format, control, private-use and unassigned characters, and every
    space but U+0020, from this Python's Unicode tables (as clean_name's are).

    s008's `canonical_name` refuses the set this gave on Unicode 14.0 (Python 3.11), frozen in
    its file: a new class refuses the same names whichever Python makes it, as a class made by
    an earlier version kept the set of the Python that made it. A character a later Unicode
    assigns is refused (unassigned in 14.0) until a migration gives the server a newer set;
    every character a later Python's clean_name removes is refused already (the tests check it
    on the Python they run on)."""
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
def s015_abandoned_sittings(conn: psycopg.Connection) -> None:
    """A sitting started on the class server and never ended is the instructor's to close
    (trainer.exams.classledger, "A sitting that never ends"): `abandon_exam_sitting(nonce,
    reason)`, an instructor's call, records it abandoned in `exam_sitting_abandonments`, with the
    reason and who recorded it, insert-only, read by the staff. Only a started sitting with no
    end, once; it then counts as a fail, and no result of it is certified."""
    _run(conn, frozen_sql("s015_abandoned_sittings"))


@migration
def s018_rows_for_their_trainee(conn: psycopg.Connection) -> None:
    """Each trainee's rows come from whoever serves that trainee, and each login reads only what
    concerns it (trainer.classes.server.logins, "Whose rows"):

    - `trainee_workstations`: the login that registered each trainee id (the first that sent it;
      for the ids a class held before, the first that sends it from now on), and the enrolled
      workstations an instructor attached it to (`attach_trainee(uid, station)`), insert-only,
      read by the staff;
    - `push_attempts` (s010's, kept as `push_attempts_checked`, which no login calls itself)
      then refuses, by name (check_violation, so a workstation sets the row aside and sends the
      others), a workstation's login's row for a trainee it does not serve, and for a trainee
      whose name has a login of their own: that trainee's rows come from that login only;
    - `exam_attempts_of(name, form)`: the attempts counted at a form, for the staff of anyone,
      for a trainee's login of its own name only, for a workstation's login of the trainees it
      serves who have no login of their own (`exam_attempts_readable(name)` checks the caller).
      s004's `exam_attempts_used`, which the class's own calls count with, no trainee's or
      workstation's login calls any more;
    - `trainee_login_of(name)` tells a trainee's login its own login only (a workstation's is
      still told, as it asks the trainee's password: the login's name is a digest of the class's
      id and the name, which it can work out anyway)."""
    _run(conn, frozen_sql("s018_rows_for_their_trainee"))


@migration
def s019_sittings_voided(conn: psycopg.Connection) -> None:
    """An instructor voids a sitting that a genuine outage spoiled, so that it spends no attempt
    (trainer.exams.classledger, "A sitting voided"):

    - `exam_sitting_voids`: each sitting voided, with the reason and who voided it, insert-only,
      read by the staff; `void_exam_sitting(nonce, reason)`, an instructor's call: once, never a
      sitting certified already (one at a time with a certificate of it: both take its row);
    - a voided sitting is never started nor certified: a trigger refuses its use and its
      certificate;
    - `exam_attempts_spent(name, form)`: the attempts counted (s004's `exam_attempts_used`) less
      the sittings voided: what `exam_attempts_of` (s018) now answers, and what an exam with no
      sitting is allowed against (`start_exam_attempt_as_asked`, which still numbers it after
      every attempt counted, so no number is given twice)."""
    _run(conn, frozen_sql("s019_sittings_voided"))


@migration
def s017_confusable_names(conn: psycopg.Connection) -> None:
    """Names a person reads as one name are one name in the class (trainer.progress.names, after
    Unicode TS #39): a classmate's "Аna Ruiz" (a Cyrillic А) beside "Ana Ruiz" would have the
    exports and certificates read as hers.

    - `name_fold()`, `name_fold_cased()` and `name_has_latin`, `name_has_greek`,
      `name_has_cyrillic`: the data, made once from ICU 77.1 (Unicode 16.0) by
      tests/support/confusables.py and frozen in the file (the app holds the same,
      trainer/progress/lookalikes.py); `name_skeleton(name, cased)` (of the name's case fold,
      or as written) and `name_scripts(name)` from them;
    - `class_names`: the first name the class holds with each skeleton, of each kind (its
      trainees', then its logins', when the migration runs), insert-only, read by the staff;
      two names read as one when either skeleton is the same;
    - a trigger on `trainees` and `trainee_logins` refuses a new row whose name reads as another
      of the class's names ("refused trainee <uid>: 'Аna Ruiz' looks like 'Ana Ruiz', already in
      the class", check_violation), and a new name mixing Latin, Greek and Cyrillic letters: at
      push (so the workstation sets the trainee's attempts aside, named) and at `class_login`.
      Two pushes at once of two such names wait on the skeleton's row: the second is refused.
      A trainee the class holds already adds nothing and is not checked again, so a class
      that held such a pair before keeps taking both trainees' attempts;
    - `name_look_alike(name)`, for any login: the class's name that `name` reads as, so the app
      says so before it makes the profile."""
    _run(conn, frozen_sql("s017_confusable_names"))


@migration
def s021_bounded_logs(conn: psycopg.Connection) -> None:
    """No login slows the class's overview with its logs (a trainee's login pushed logs of
    2,000,000 characters, and the overview that read them took 4.5 to 8.5 s instead of 0.55 s):

    - `push_attempts` (s018's, kept as `push_attempts_served`, which no login calls itself)
      refuses, by name (check_violation, so a workstation sets the row aside and sends the
      others), an attempt whose log holds more than 262,144 bytes or 2,000 actions: about 24 and
      21 times the largest log the app writes (a whole round of the longest drill: about 11,000
      bytes, 92 actions);
    - `attempt_answer_gaps`: each attempt's seconds to answer (`log_answer_gaps(log)`, what
      trainer.progress.records.answer_gaps reckons: a skipped throw and an undo are no
      answers), kept when it is pushed (and made here for the attempts the class holds),
      insert-only, read by the staff and a trainee of their own, so that the class's overview
      reads these and never a log."""
    _run(conn, frozen_sql("s021_bounded_logs"))


@migration
def s022_one_person(conn: psycopg.Connection) -> None:
    """One person is one trainee of the class, whichever workstations they used
    (trainer.classes.server.people):

    - `trainee_merges`: an instructor's record that two trainee ids are one person ('merged'),
      or no longer are ('parted': a merge is undone only by another row), with who and when,
      insert-only, read by the staff and by a trainee's login for its own rows;
    - `record_trainee_merge(one, other, what)`, an instructor's call: a merge of a pair merged
      already, or a parting of a pair not merged, is refused by name.

    The trainees of a name with a login of its own (s008) are that one person without a row
    here: the class's readers group them (trainer.classes.server.people.people)."""
    _run(conn, frozen_sql("s022_one_person"))


@migration
def s023_class_guard(conn: psycopg.Connection) -> None:
    """No login fills the class's disk, and no workstation's login makes rows in a classmate's
    name (trainer.classes.server.logins, "Limits" and "Whose rows"):

    - `exam_sitting_step` (s014's, kept as `exam_sitting_step_timed`, which no login calls
      itself) refuses, by name, an answer whose log holds more than 262,144 bytes or 2,000
      actions, as `push_attempts` (s021) refuses an attempt's: a sitting of n items then holds n
      such logs at most (its n + 2 steps and 100 refusals were bounded by s012);
    - `login_storage`: the rows and bytes each login has had the class keep (attempts with their
      findings and skills, trainees, a sitting's steps and refusals), one row per push or step,
      insert-only, read by the staff; `login_quota(login)`: 50,000 rows and 256 MiB, ten times
      that for the shared workstation login; `push_attempts` (s021's, kept as
      `push_attempts_bounded`) and `exam_sitting_step` refuse what would pass it, naming the
      quota (not a row's refusal: a workstation keeps the rows waiting); an instructor's login
      has none; `login_stored()` tells a login what it has had kept;
    - a workstation's login registers no new trainee id under a name the class holds, unless
      it serves one of that name's ids (`trainees_served_name`): the instructor attaches that
      trainee to the workstation first (`attach_trainee`), or gives them a login;
    - `name_look_alike` and the look-alike refusal (s017) name another name of the class only
      to a login that may be told it (`name_told`: the staff, a trainee's login its own name, a
      workstation's login the trainees it serves); to the others the refusal says only that the
      name looks like one already in the class."""
    _run(conn, frozen_sql("s023_class_guard"))


@migration
def s024_class_setup(conn: psycopg.Connection) -> None:
    """A class on a PostgreSQL it shares with other classes (`dealer-trainer class-setup`,
    trainer.classes.server.setup): the group roles are the cluster's, one for every class on it,
    so a right given to a group is given to every class's logins. A class made there has logins
    of its own, and only they connect to its database:

    - `class_logins`: the class's own staff and shared workstation logins (`<class>_instructor`
      ...), insert-only, read by the staff; `install` writes them and gives each, never a group,
      the right to connect;
    - `close_shared_login()` (s013's, kept as `close_shared_login_group`, which no login calls
      itself) takes that right from the class's shared workstation login too, and
      `open_shared_login()` gives it back to that login, not to the group every class's
      workstations are in (a class alone on its PostgreSQL, with no such login, still opens the
      group's);
    - each enrolled workstation is given a right of its own to connect (those enrolled before
      s013 connected through the group)."""
    _run(conn, frozen_sql("s024_class_setup"))


@migration
def s026_class_breaks(conn: psycopg.Connection) -> None:
    """An answer the class server takes for an item of a sitting is one the instructor's
    re-grading can read: a check on `exam_sitting_steps.answer` (`exam_answer_readable`, with
    `exam_answer_refused` naming why) refuses, by name, an answer that is no
    JSON jsonb reads (a lone surrogate), nests more than 8 levels deep or holds a number of more
    than 40 digits. The answers kept before are not checked again (NOT VALID): certification
    reads every answer as hostile data and grades one it cannot read as wrong."""
    _run(conn, frozen_sql("s026_class_breaks"))


@migration
def s027_seal_share(conn: psycopg.Connection) -> None:
    """A sitting issued in the class opens only once the class server has recorded its start
    (trainer.exams.submission, "Sealed"): its items are sealed under its start code and a share
    the server keeps, released only with the start.

    - `exam_sitting_shares`: the share the instructor records with a sitting's verifier (s012)
      when issuing it, insert-only; no login reads it, the staff included;
    - `open_exam_sitting(nonce, trainee, digest, result, proof)`: s012's `start_exam_sitting`
      (the first link proven, `use_exam_sitting`'s checks, the start recorded with the server's
      nonce and clock) that returns the share too, from the same transaction, with the attempt,
      the server's nonce of the start (`opened`) and when it was recorded (`started`). `digest`
      may be NULL (a workstation that cannot read the sealed form yet): the sitting's own. Asked
      again for the same result with the same link, by a login that may start the sitting, while
      no answer has reached the server, it returns the same record and the same share (a reply
      lost on the way, a start cancelled at the workstation): the clock is not started again."""
    _run(conn, frozen_sql("s027_seal_share"))


@migration
def s028_quota_total(conn: psycopg.Connection) -> None:
    """A login's quota (s023) is checked against a running total, not the sum of its history:
    `login_totals`, one row per login (what `login_storage` sums to), which `charge_login`
    locks, checks and adds to in the transaction of the push or step it charges, so that a
    push's cost no longer grows with the login's pushes and two pushes of one login never both
    pass the quota; no login but the owner writes it, the staff read it, and a total never
    shrinks. The refusal keeps s023's words. `login_quota` gives a class's own shared
    workstation login (s024, `<class>_workstation`) the shared login's ten times."""
    _run(conn, frozen_sql("s028_quota_total"))


@migration
def s029_login_identity(conn: psycopg.Connection) -> None:
    """A trainee's login asks the class which trainee id it knows her by: `login_trainee_uid()`,
    the first row of her person as the class's readers group them (her login's name, and the
    instructor's merges in force; trainer.classes.server.people), NULL while the class holds
    none. Only a trainee's own login may ask, and only of itself: a workstation makes a profile
    under that id only for a trainee who proved her login with her password
    (trainer.classes.workstation.connection `ClassLedger.class_identity`)."""
    _run(conn, frozen_sql("s029_login_identity"))


@migration
def s030_exam_answers_unmetered(conn: psycopg.Connection) -> None:
    """An exam's answers are never refused for a quota someone else spent, and the instructor
    gives a login its quota again (trainer.classes.server.logins, "Limits"):

    - `exam_sitting_step` (s023's bounds on an answer's log kept) charges no login's quota: a
      sitting's answers are bounded by the sitting (its n + 2 steps, 262,144 bytes and 2,000
      actions an answer, 100 refusals), and sittings by the instructor who issues them;
    - `login_quota_resets`: each reset of a login's quota (the rows and bytes it no longer
      counts, the reason, who), insert-only, read by the staff; `login_quota(login)` adds what
      was reset to the quota; `reset_login_quota(station, why)` (an instructor's) resets an
      enrolled workstation's login, or the shared workstation login's (station NULL)."""
    _run(conn, frozen_sql("s030_exam_answers_unmetered"))


@migration
def s031_exam_delivery_grace(conn: psycopg.Connection) -> None:
    """The time limit's allowance is for delivery only (trainer.exams.classledger, "The time
    limit"): `exam_queue_allowance()` is 30 s, not s014's 120 s (which gave anyone sending from
    their own program the form's limit plus two minutes): the app's pusher gives a dead
    connection up within 15 s, connects again within 5 s and retries within 4 s. An answer
    received after the limit and within it counts, and certification names it from the server's
    receipt time; one received later is marked late (s014) and counts as not answered."""
    _run(conn, frozen_sql("s031_exam_delivery_grace"))


@migration
def s032_login_claims(conn: psycopg.Connection) -> None:
    """A trainee id owned by a trainee's login is sent only by that login (or the instructor's),
    and a workstation's login cannot take it first (trainer.classes.server.logins, "Whose rows"):

    - `claim_trainee_uid(uid, made)`, a trainee's own login's call, her password proven: an id
      the class does not hold is sent at once under her name, registered by her login
      ('registered'); one the class holds as hers is 'hers'; one it holds under the name of
      another person with no login of their own is 'held', and the claim is kept; one of a name
      with a login is refused;
    - `trainee_claims`: those claims (id, login, its name, when), insert-only, read by the staff;
      `push_attempts` (s023's, kept as `push_attempts_charged`) refuses a workstation's login
      any row under a claimed id, and the exports refuse such an id by name
      (trainer.classes.server.people.disputed)."""
    _run(conn, frozen_sql("s032_login_claims"))


@migration
def s034_oversized_answer_kept(conn: psycopg.Connection) -> None:
    """An answer over an item's bounds (262,144 bytes, 2,000 actions: s023) is refused as before,
    and its refusal is kept now: `exam_sitting_step` writes it to `exam_sitting_refusals` (its
    reason, and the answer's size in the new `answer_bytes`, never its text) when the step proves
    the sitting's start code and names an item of it, and answers "refused: why". It was then
    held at `certify --class` as any refused answer to an item the server holds none of; since
    the fifth cold review (#105) the item is certified as not answered instead, named with its
    size (trainer.exams.classledger `oversized`, `refused_unanswered`)."""
    _run(conn, frozen_sql("s034_oversized_answer_kept"))


@migration
def s036_claims_settled(conn: psycopg.Connection) -> None:
    """The instructor settles a login's claim of a trainee id (s032), which the exports refused
    until then (trainer.classes.server.people "Claims settled"):

    - `settle_trainee_claim(uid, login, reason)`, an instructor's login's call: the id is that
      claimant login's (`login`; her login's person's from then on) or, with `login` NULL, the
      row's (every open claim rejected), the reason kept;
    - `trainee_claim_settlements`: one row per claim settled (outcome, reason, by whom, when),
      insert-only, read by the staff; the claim stays as it was;
    - `push_attempts` refuses a workstation's login an id only while a claim of it stands (open,
      or settled the claimant's): one whose claims were all rejected is the row's again."""
    _run(conn, frozen_sql("s036_claims_settled"))


@migration
def s037_supervised_rounds(conn: psycopg.Connection) -> None:
    """The rounds a trainee supervised reach the class with her attempts (trainer.progress.supervised,
    trainer.classes.workstation.supervised): `supervised_rounds`, one row per round by its uid (its
    game, difficulty, pace, score, d′, false alarms and flags, bounded), and `supervised_faults`, each
    fault with its class and whether it was caught; both append-only, read by the staff and by a
    trainee of her own. `push_supervised(batch)` checks each round and who sends it as
    push_attempts does (a trainee's own login, only hers; a workstation's, only the trainees it
    serves), keeps a round sent again once, refuses a different round under a held uid, and
    charges the caller's login's quota (s028)."""
    _run(conn, frozen_sql("s037_supervised_rounds"))


@migration
def s038_replayed_refusals(conn: psycopg.Connection) -> None:
    """A refusal of a sitting's step is kept (`exam_sitting_refusals`, s012, s034) only when it can
    be the sitting's own: its step was not taken yet (a link sent again, read from the traffic,
    adds nothing), it comes from the login that started the sitting, and the same refusal is not
    kept already. A trigger (`refusal_kept`) leaves any other out; the step is refused as
    before."""
    _run(conn, frozen_sql("s038_replayed_refusals"))


@migration
def s039_claims_proven(conn: psycopg.Connection) -> None:
    """A trainee's login registers a trainee id the class does not hold only when it proves it made
    it (trainer.classes.server.logins "Whose rows"; the fifth cold review, #104):

    - `claim_trainee_uid(uid, made, salt)`: 'registered' when `uid` is the login's commitment with
      `salt` (`trainee_commitment`: the class's id, the login, the salt; logins.committed_uid)
      or an id the instructor settled the login's claim of hers; any other id the class does not
      hold is 'kept': a claim (`trainee_claims.held` false, its foreign key to `trainees`
      dropped) for the instructor to settle, which blocks no workstation's push of the id.
      s032's two-argument claim is this one with no salt;
    - `push_attempts` refuses a workstation's login an id claimed while held (as s036), and a
      trainee row under an id the class holds under another name with a login, without naming
      it. A trainee's own login's push still registers a new id under her name (first wins)."""
    _run(conn, frozen_sql("s039_claims_proven"))


@migration
def s040_no_exam_on_shared_login(conn: psycopg.Connection) -> None:
    """No exam starts or steps with the shared workstation login (trainer.classes.server.logins,
    "The shared login and exams"): every session of it may cancel or end every other
    (pg_cancel_backend, pg_terminate_backend: PostgreSQL lets a role signal its own sessions) and
    reads their statements, so one workstation on it could stop a classmate's exam at another.
    `open_exam_sitting`, `start_exam_sitting`, `exam_sitting_step` and `start_exam_attempt` check
    the caller first (`refuse_exam_on_shared_login`: insufficient_privilege, naming what to do,
    enrol the workstation) and call s027's, s012's, s034's and s007's, kept as `..._any_login`,
    which no login calls itself. An enrolled workstation's login, a trainee's own and the staff's
    are as before; the shared login still sends practice."""
    _run(conn, frozen_sql("s040_no_exam_on_shared_login"))


@migration
def s041_supervised_bounds(conn: psycopg.Connection) -> None:
    """The supervised rounds the class keeps are checked as its attempts are (s010):

    - `supervised_round_problem(...)`, a CHECK on `supervised_rounds` and push_supervised's first
      check: each field as the app writes it (a digest for the uid; the deal's id
      "supervise-v1:SCENARIO:FAULTS:SEED" with no control, format or bidirectional characters;
      finished between 2000 and 2100; a pace of 0 to 60 s; the score a fraction from 0 to 1 in
      lowest terms; the flags a JSON list of flags as `flags_from_json` reads them), in words;
      `supervised_faults_problem(...)`: each fault a type of the catalogue of the round's game
      with its class (`supervised_fault_kinds`, this version's catalogue), numbered 0 on, as many
      as the deal puts in, and one flag per fault caught;
    - a round goes under its own uid only (`supervised_round_uid`: sha256 of its trainee's id, its
      deal and when it was finished, trainer.progress.supervised `round_uid`), so that a round
      sent first under a classmate's round's uid names her id, and is refused to whoever may not
      send her rows;
    - `retract_supervised_round(uid, reason)`, an instructor's call, and `supervised_retractions`,
      insert-only, as s010's for attempts; the rows stored before that fail the checks are
      retracted by the migration, each with its check;
    - `supervised_sender_problem` reads the settlings of s036 as push_attempts does: a trainee's
      own login sends the rows of its person and of an id its claim of which was settled the
      claimant's; a workstation's login sends under a claimed id again once every claim of it was
      settled the row's."""
    _run(conn, frozen_sql("s041_supervised_bounds"))


@migration
def s043_pushes_proven(conn: psycopg.Connection) -> None:
    """A trainee's own login's push registers a trainee id the class does not hold only when it
    proves it made it (the fifth cold review, #104: a classmate's unsent id, read from a shared
    progress file, was taken by pushing one row of one's own name under it): `push_attempts`
    refuses such a trainee row, by its id, unless it carries the `salt` her login made the id
    with (s039's `login_made_uid`; the progress file keeps it, m024) or the instructor settled
    her claim of it hers. A workstation's login is checked as in s039."""
    _run(conn, frozen_sql("s043_pushes_proven"))


@migration
def s044_supervised_claims_held(conn: psycopg.Connection) -> None:
    """s041's `supervised_sender_problem` reads s039's `held` as `push_attempts` does: a claim made
    while the class did not hold the id (kept for the instructor) blocks no workstation's
    supervised rounds, as it blocks none of its attempts."""
    _run(conn, frozen_sql("s044_supervised_claims_held"))


@migration
def s045_one_push(conn: psycopg.Connection) -> None:
    """`push_attempts_charged` (s023's push, renamed by s032) and the three layers under it
    (`push_attempts_bounded`, s021; `push_attempts_served`, s018; `push_attempts_checked`, s010)
    become one PL/pgSQL function, each step in the order the chain ran it, with the same
    refusals, messages, locks and rights; the three are dropped, as nothing else calls them.
    `push_attempts` stays s043's over it, as s039's `claim_trainee_uid` calls
    `push_attempts_charged` itself. Both plan each statement once per connection
    (plan_cache_mode), where each of a connection's first five pushes planned it again, to the
    same plan; and s018's `workstation_caller`, asked twice a push, is PL/pgSQL, its statement
    planned once per connection, where as SQL it was planned again at each call.
    tests/benchmarks/class_push.py measures the server's CPU per push: a new connection's first
    push (which compiles and plans it all) 5% less, its second 35% less, a later one 43% less
    (3 attempts a batch)."""
    _run(conn, frozen_sql("s045_one_push"))
