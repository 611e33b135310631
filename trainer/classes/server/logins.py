"""The logins of a class: who connects to the class server, in which role.

- `add_login(admin, name, group, password)`: a login in one of the class's groups (the
  class-server command makes `instructor`, `supervisor` and `workstation`);
- `class_login(instructor, name, password)`: an instructor gives a trainee of the class a login
  of their own, by name, before or after they send anything (s008); it reads that trainee's rows
  only (row-level security), from every workstation they used, and starts exams for them only;
- `trainee_login(instructor, trainee_uid, password)`: the same, for the name of a trainee who
  has sent results;
- `login_of(conn, name)`: the login a trainee's name has in the class, if any (any login may
  ask: a workstation asks for the trainee's password when there is one);
- `login_trainee_uid(conn)`: the trainee id the class knows a trainee's own login by (s029),
  which a workstation gives her profile once she proved that login with her password;
- `claim_trainee_uid(conn, uid, made, salt)`: a trainee's own login claims her profile's trainee
  id (s032): sent at once when the class does not hold it and her login made it (s039), so that
  no workstation's login takes it first; kept as a claim when the class holds it under another
  name, or does not hold it and her login did not make it (below, "Whose rows");
- `look_alike(conn, name)`: the class's name that `name` reads as, if another (s017; any login
  may ask: a workstation asks before it makes a trainee's profile), and only if the login may be
  told that name (s023: the staff, any; a trainee's login, its own; a workstation's login, the
  trainees it serves);
- `enrol_workstation(instructor, name, password)`, `revoke_workstation(instructor, name)`,
  `workstations(conn)`: workstations with a login of their own (s011), so that what a trainee
  does with a workstation's login (a new password, its settings) stops that workstation only;
- `attach_trainee(instructor, trainee_uid, station)`: a trainee's rows sent from another
  enrolled workstation than the one that registered them (below, "Whose rows");
- `shared_login(conn)`, `close_shared_login(instructor)`, `open_shared_login(instructor)`: the
  instructor closes the shared `workstation` login once every workstation is enrolled, and
  opens it again (s013);
- `reset_defaults(admin)`: the class server's start removes the defaults any login of the
  class gave itself (ALTER ROLE ... SET, which PostgreSQL lets every login do).

**Limits.** No login may take every connection the server has: a trainee's login and an enrolled
workstation's hold 4 at most (s016 sets it where they are made; the app holds 3 at once: its
pusher, a call, a send), the shared workstation login `SHARED_CONNECTIONS` (every workstation of a
class that enrols none uses it: what a trainee does with it stops those workstations, never the
instructor), and the instructor may use the connections the class server keeps back
(trainer.classes.server.postgres.RESERVED). A login cannot change its own limit. Nor can it fill
the disk (s023): a trainee's or workstation's login has the class keep 50,000 rows and 256 MiB at
most in all (the shared workstation login ten times that; `login_stored()` tells a login its
own), and a sitting's answer holds no more than an attempt's log. An exam's answers count against
no login's quota (s030): they are bounded by the sitting, so a quota a classmate spent never
refuses them; `reset_quota(instructor, station, reason)` gives a workstation's login (or the
shared one) its whole quota again.

**Whose rows** (s018). A workstation's login (the shared one, or an enrolled one) sends rows only
for the trainee ids it serves: those it registered (the first login that sent the id) and those
an instructor attached to it (`attach_trainee`); and none for a trainee whose name has a login of
their own, whose rows come from that login only. The server refuses such a row by name, and the
workstation sets it aside (trainer.classes.workstation.queue) and sends the others. What each
login reads of the others follows: a trainee's login its own name's attempts at a form and its
own login; a workstation's login the attempts of the trainees it serves who have no login of
their own. While the shared login is open, every workstation that joins with it is one login:
each sends for every trainee any of them registered. A name is its registering login's (s023):
a workstation's login registers no new trainee id under a name the class holds unless it serves
one of that name's ids, so a trainee cannot make rows under the name of a classmate another
workstation registered; the instructor attaches the classmate's id (`attach_trainee`) first.
A trainee id is her login's once her login registered it (s032): when she proves her login at a
workstation for a new profile, its id is one her login made (`committed_uid`, s039) and is sent
with her login at once, so that no workstation's login can register a classmate under it; no
login registers an id the class does not hold that it did not make (an id read from a progress
file), by claim or push: such a claim (File › Send my results with my class login… on a profile
made before her login, or a classmate's id) is kept for the instructor and blocks no push. An id
the class already holds under another name is kept as her claim, no workstation's login sends
under it any more; a claimed id the class holds is refused by name by the exports
(trainer.classes.server.people.disputed) until the instructor settles whose it is.

**The shared login and exams** (s040). Every session of the shared workstation login may cancel
or end every other session of it (pg_cancel_backend, pg_terminate_backend: PostgreSQL lets a role
signal its own sessions, and no grant takes that away) and reads their statements in
pg_stat_activity: one workstation on it could stop a classmate's exam start or answers at another
for as long as it kept at it. So no exam starts or steps with it: the class server refuses a
sitting's start, each answer and its end, and an exam with no sitting, with the shared login
(insufficient_privilege, "ask the instructor to enrol this workstation (Class tab ›
Workstations…)"), and keeps nothing of it. An enrolled workstation's login and a trainee's own
are roles of their own: no other workstation's login may signal their sessions. The shared login
still sends practice and reads what a workstation reads: a push it had cancelled is sent again
until the class keeps it, once, and no time limit runs on it.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import psycopg
from psycopg import sql

from trainer.classes.errors import ClassServerError
from trainer.classes.server.sql import value
from trainer.classes.server.tables import GROUPS, OWNER
from trainer.paths import binary

#: the logins the class-server command makes, and their groups
CLASS_LOGINS = {"instructor": "class_instructor", "supervisor": "class_supervisor",
                "workstation": "class_workstation"}
#: connections the shared workstation login may hold (-1: no limit, the staff's)
SHARED_CONNECTIONS = 120
LIMITS = {"class_workstation": SHARED_CONNECTIONS}


def new_password() -> str:
    return secrets.token_urlsafe(18)


def kept_passwords(path: Path, names: list[str]) -> dict[str, str]:
    """The passwords of the logins `names`, kept in `path` (JSON, readable by its owner only) from
    the first time, so that the addresses given out stay good; a password made for each missing."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        kept = {}
    except (OSError, ValueError) as e:
        raise ClassServerError(f"cannot read the class's logins in {path}: {e}") from None
    if not isinstance(kept, dict) or not all(isinstance(v, str) for v in kept.values()):
        raise ClassServerError(f"{path} is not a class's logins file")
    missing = {name: new_password() for name in names if name not in kept}
    if missing:
        kept.update(missing)
        try:
            fd = os.open(path, binary(os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                json.dump(kept, f, indent=2)
        except OSError as e:
            raise ClassServerError(f"cannot keep the class's logins in {path}: {e.strerror or e}") from None
    return kept


def add_login(admin: psycopg.Connection, name: str, group: str, password: str) -> None:
    """Make (or give a new password to) the login `name`, a member of `group` only."""
    if group not in GROUPS:
        raise ClassServerError(f"{group!r} is not one of the class's roles ({', '.join(GROUPS)})")
    exists = admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
    verb = "ALTER" if exists else "CREATE"
    admin.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {} CONNECTION LIMIT {}").format(
        sql.Identifier(name), sql.Literal(password), sql.Literal(LIMITS.get(group, -1))))
    admin.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(name)))


def trainee_login(instructor: psycopg.Connection, trainee_uid: str, password: str) -> str:
    """The login of the name of a trainee who has sent results (s003, by their id); its name."""
    try:
        return value(instructor.execute("SELECT trainee_login(%s, %s)",
                                        (trainee_uid, verifier(instructor, password))))
    except (psycopg.errors.InvalidParameterValue, psycopg.errors.NoDataFound) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


MIN_PASSWORD = 8


def verifier(conn: psycopg.Connection, password: str, whose: str = "a trainee's") -> str:
    """The password's SCRAM-SHA-256 verifier, made here by the driver: the server is given this
    only, so no statement, error or log line of the server holds the password itself."""
    if len(password) < MIN_PASSWORD:
        raise ClassServerError(f"{whose} password has at least {MIN_PASSWORD} characters")
    return conn.pgconn.encrypt_password(password.encode(), b"", b"scram-sha-256").decode()


def class_login(instructor: psycopg.Connection, name: str, password: str) -> str:
    """The login of the trainee named `name` (made, or given this new password); its name."""
    try:
        return value(instructor.execute("SELECT class_login(%s, %s)",
                                        (name, verifier(instructor, password))))
    except (psycopg.errors.InvalidParameterValue, psycopg.errors.CheckViolation) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


def login_of(conn: psycopg.Connection, name: str) -> str | None:
    return value(conn.execute("SELECT trainee_login_of(%s)", (name,)))


def login_trainee_uid(conn: psycopg.Connection) -> str | None:
    """The trainee id the class knows the connection's own login by (s029, a trainee's login):
    the first row of her person, None while the class holds no row of her name."""
    if not value(conn.execute("SELECT to_regprocedure('public.login_trainee_uid()') IS NOT NULL")):
        raise ClassServerError("this class server does not tell a login its trainee id yet: the "
                               "instructor starts it with this version to bring it up to date")
    return value(conn.execute("SELECT login_trainee_uid()"))


#: what claim_trainee_uid answers: the id sent now under her name, hers already, another's, or
#: one the class does not hold that her login did not make, kept for the instructor to settle
CLAIMED = ("registered", "hers", "held", "kept")


def claims_kept(conn: psycopg.Connection) -> bool:
    """Whether the class takes a login's claim of a trainee id (s032)."""
    return bool(value(conn.execute(
        "SELECT to_regprocedure('public.claim_trainee_uid(text, double precision)') IS NOT NULL")))


def claims_proven(conn: psycopg.Connection) -> bool:
    """Whether the class registers a new trainee id only for the login that made it (s039)."""
    return bool(value(conn.execute(
        "SELECT to_regprocedure('public.claim_trainee_uid(text, double precision, text)') IS NOT NULL")))


def committed_uid(class_id: str, login: str, salt: str) -> str:
    """The trainee id a trainee's login makes with `salt` (32 hex digits) in the class `class_id`
    (s039's `trainee_commitment`): only that login, revealing the salt, registers it, so an id
    read from a progress file is no use to another login's claim."""
    said = "\n".join(("dealer-trainer trainee id", class_id, login, salt)).encode("utf-8")
    return hashlib.sha256(said).hexdigest()[:32]


def claim_trainee_uid(conn: psycopg.Connection, uid: str, made: float, salt: str | None = None) -> str | None:
    """A trainee's own login claims the trainee id `uid` (her profile's, made at `made`) as hers
    (s032): one of CLAIMED; None on a class server that takes no claims yet (before s032). An id
    the class does not hold is registered only with the `salt` her login made it with
    (committed_uid, s039), else kept as her claim for the instructor. ClassServerError when the
    class refuses it (another login's, an id it does not take, not a trainee's login), or when the
    instructor settled this login's claim of it the row's; "hers" when the instructor settled it
    hers (s041: the server answers "held" for a claim it kept before, settled or not)."""
    if not claims_kept(conn):
        return None
    try:
        with conn.transaction():
            if salt is not None and claims_proven(conn):
                said = value(conn.execute("SELECT claim_trainee_uid(%s, %s, %s)", (uid, made, salt)))
            else:
                said = value(conn.execute("SELECT claim_trainee_uid(%s, %s)", (uid, made)))
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.CheckViolation,
            psycopg.errors.RaiseException) as e:
        raise ClassServerError(str(e).strip().splitlines()[0]) from None
    if said != "held" or not value(conn.execute(
            "SELECT to_regprocedure('public.own_claim_settled(text)') IS NOT NULL")):
        return said
    # a claim kept before and settled since is answered "held" too (s032): what is true (s041)
    settled = value(conn.execute("SELECT own_claim_settled(%s)", (uid,)))
    if settled == "row":
        raise ClassServerError(f"the instructor settled this login's claim of trainee id {uid[:64]} the "
                               "row's: the id is not this login's (ask the instructor)")
    return "hers" if settled == "claimant" else said


class Identity(NamedTuple):
    """The trainee id a trainee's own login is known by in the class, and the salt her login made
    it with (committed_uid; None for an id the class held already), which her profile keeps
    (m024) so that her login's push of it proves it (s043)."""

    uid: str
    salt: str | None = None


def own_trainee_uid(conn: psycopg.Connection, made: float) -> Identity | None:
    """The trainee id a trainee's own login is known by in the class (login_trainee_uid); while
    the class holds no row of her, a new one her login makes (committed_uid, with a new salt),
    sent now with her login (claim_trainee_uid) for a new profile made at `made`, so that the id
    is hers before any profile holds it. None on a class that takes no claims yet and holds no
    row of her."""
    uid = login_trainee_uid(conn)
    if uid is not None or not claims_kept(conn):
        return None if uid is None else Identity(uid)
    if claims_proven(conn):
        salt = secrets.token_hex(16)
        class_id = value(conn.execute("SELECT uid FROM class_info"))
        made_here = Identity(committed_uid(class_id, value(conn.execute("SELECT session_user")), salt), salt)
    else:
        made_here = Identity(secrets.token_hex(16))
    if (said := claim_trainee_uid(conn, made_here.uid, made, made_here.salt)) != "registered":
        raise ClassServerError(f"the class did not take the new trainee id as hers ({said}): try again")
    return made_here


def look_alike(conn: psycopg.Connection, name: str) -> str | None:
    """The class's name that `name` reads as, when it is another (s017, trainer.progress.names);
    None on a class made before s017, which holds no skeletons."""
    if not value(conn.execute("SELECT to_regprocedure('public.name_look_alike(text)') IS NOT NULL")):
        return None
    return value(conn.execute("SELECT name_look_alike(%s)", (name,)))


# --------------------------------------------------------------------------- workstations
@dataclass(frozen=True, slots=True)
class Workstation:
    """A workstation enrolled in the class (s011): its name, its login, when it was first
    enrolled and, once revoked (and not enrolled again since), when."""

    name: str
    login: str
    enrolled: float
    revoked: float | None


def enrol_workstation(instructor: psycopg.Connection, name: str, password: str) -> str:
    """A login of the workstation's own, `name` (made, given this new password, or given back
    after a revocation); its login name."""
    try:
        return value(instructor.execute("SELECT enrol_workstation(%s, %s)",
                                        (name, verifier(instructor, password, "a workstation's"))))
    except psycopg.errors.InvalidParameterValue as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


def revoke_workstation(instructor: psycopg.Connection, name: str) -> str:
    """The workstation's login stops working: its connections lose every right at their next
    statement, and it connects no more. Its login name; ClassServerError when no workstation of
    that name is enrolled."""
    try:
        return value(instructor.execute("SELECT revoke_workstation(%s)", (name,)))
    except psycopg.errors.NoDataFound as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


def reset_quota(instructor: psycopg.Connection, station: str | None, reason: str) -> tuple[str, int, int]:
    """Give the enrolled workstation `station`'s login (None: the shared workstation login) its
    whole quota again (s030): what it had the class keep until now no longer counts, and the
    class keeps the reset with its reason. (login, rows, bytes no longer counted);
    ClassServerError when no workstation of that name is enrolled, or the reason is refused."""
    try:
        row = instructor.execute("SELECT * FROM reset_login_quota(%s, %s)", (station, reason)).fetchone()
    except (psycopg.errors.NoDataFound, psycopg.errors.RaiseException) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None
    assert row is not None  # a function returning a row gives one
    return row[0], row[1], row[2]


def workstations(conn: psycopg.Connection) -> list[Workstation]:
    """Every workstation ever enrolled in the class, by name (an instructor's or supervisor's read)."""
    rows = conn.execute("""
        SELECT DISTINCT ON (name) name, login,
               min(at) FILTER (WHERE event = 'enrolled') OVER (PARTITION BY name),
               CASE WHEN event = 'revoked' THEN at END
        FROM workstation_logins ORDER BY name, id DESC""").fetchall()
    return [Workstation(*r) for r in rows]



def attach_trainee(instructor: psycopg.Connection, trainee_uid: str, station: str) -> str:
    """Let the enrolled workstation `station` send the rows of the trainee with this id (s018:
    a workstation's login sends only for the trainees it registered, or that an instructor
    attached to it); its login name. ClassServerError when no such trainee has sent results, no
    such workstation is enrolled, or the login is not an instructor's."""
    try:
        with instructor.transaction():
            return value(instructor.execute("SELECT attach_trainee(%s, %s)", (trainee_uid, station)))
    except (psycopg.errors.NoDataFound, psycopg.errors.InsufficientPrivilege) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None

# --------------------------------------------------------------------------- the shared login
#: what closing and opening the shared login do, as `class-workstation` and the Workstations… dialog say
CLOSE_SHARED_SAYS = ("Closing the shared workstation login: it connects to this class no more, a session of "
              "it still open sends nothing, and no start of the class server opens it again. The "
              "workstations enrolled go on with their own logins; any workstation still joined "
              "with the shared login stops (its results wait in its progress file) until it is "
              "enrolled.")
OPEN_SHARED_SAYS = ("Opening the shared workstation login again: every workstation not enrolled joins the "
             "class with it to practise (no exam starts on it), and whoever holds it (it is in "
             "every such workstation's password file) can again lock them all out by changing "
             "its password.")


@dataclass(frozen=True, slots=True)
class SharedLogin:
    """The shared `workstation` login of the class (s013): `closed` or open, and since when and
    by whom it is so (None: never closed, open since the class was made)."""

    closed: bool
    since: float | None
    by: str | None


def shared_login(conn: psycopg.Connection) -> SharedLogin:
    """Whether the shared workstation login is closed, since when and by whom (an instructor's or
    supervisor's read)."""
    row = conn.execute("SELECT event, at, done_by FROM shared_login_events "
                       "ORDER BY id DESC LIMIT 1").fetchone()
    return SharedLogin(False, None, None) if row is None else SharedLogin(row[0] == "closed", row[1], row[2])


def close_shared_login(instructor: psycopg.Connection) -> int:
    """Close the shared workstation login: it connects no more, and a session of it still open
    sends nothing; the enrolled workstations go on. The number of workstations enrolled;
    ClassServerError when none is (every workstation would stop) or it is closed already."""
    try:
        return value(instructor.execute("SELECT close_shared_login()"))
    except (psycopg.errors.InvalidParameterValue, psycopg.errors.NoDataFound) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


def open_shared_login(instructor: psycopg.Connection) -> None:
    """Open the shared workstation login again: every workstation not enrolled joins with it.
    ClassServerError when it is open already."""
    try:
        instructor.execute("SELECT open_shared_login()")
    except psycopg.errors.NoDataFound as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


# --------------------------------------------------------------------------- defaults planted
def reset_defaults(admin: psycopg.Connection) -> list[str]:
    """Remove the defaults the class's logins (and groups) gave themselves, in every database:
    a login may set defaults for its own role (ALTER ROLE ... SET), which would otherwise stay
    through every restart and which the instructor, not a superuser, cannot remove. Each removed
    as "login: setting=value" (in DATABASE), for the class server to say. `admin`: a superuser's
    autocommit connection."""
    found = admin.execute("""
        SELECT r.rolname, d.datname, s.setconfig
        FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
        LEFT JOIN pg_database d ON d.oid = s.setdatabase
        WHERE NOT r.rolsuper AND (r.rolname = ANY (%(ours)s) OR EXISTS (
            SELECT FROM unnest(%(groups)s::text[]) AS g (name) WHERE pg_has_role(r.oid, g.name, 'MEMBER')))
        ORDER BY r.rolname, d.datname NULLS FIRST""",
        {"ours": [OWNER, *GROUPS], "groups": list(GROUPS)}).fetchall()
    removed = []
    for role, database, settings in found:
        statement = sql.SQL("ALTER ROLE {} RESET ALL").format(sql.Identifier(role))
        if database is not None:
            statement = sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(
                sql.Identifier(role), sql.Identifier(database))
        admin.execute(statement)
        where = f" (in {database})" if database is not None else ""
        removed += [f"{role}: {setting}{where}" for setting in settings]
    return removed
