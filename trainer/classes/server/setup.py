"""`dealer-trainer class-setup --admin URL [--class NAME]`: a class on a PostgreSQL the school
already runs, made with the least a managed service gives its customer: a role with CREATEROLE
and CREATEDB, not a superuser.

`setup_class(admin_url, name, logins_file)` checks the server (PostgreSQL 16 or newer,
failures.check_version) and the administrator's rights, makes the class's roles and its
database (tables.install, which brings it up to date on every run), and the class's own logins:
`<class>_instructor`, `<class>_supervisor` and `<class>_workstation`, each in its group, their
passwords kept in `logins_file` (readable by its owner only; the same on every run, so the
addresses given out stay good, and a password a login changed for itself is put back).

**Classes side by side.** The group roles (`class_instructor` ...) are the cluster's: every
class on a PostgreSQL shares them, and the frozen migrations name them. So no group is given the
right to connect to a class's database; each login of the class is (s024), and a trainee's and an
enrolled workstation's logins get theirs when they are made (s008, s013). A login of one class
connects to no other class's database, and reads or writes nothing of it.

**Passwords.** Every login's password reaches the server as its SCRAM verifier, made here by the
driver: a server whose pg_hba.conf says `md5` then proves every login of the class by SCRAM
(PostgreSQL does so for a login that has a SCRAM verifier), the trainees' and workstations' own
logins (whose verifiers are SCRAM too) included, and no statement or log line holds a password.

**What a superuser must do.** s016 takes some of PostgreSQL's own functions from PUBLIC (large
objects, advisory locks, NOTIFY) and gives the owner `pg_signal_backend` and the instructor
`pg_use_reserved_connections`: the cluster's objects, which only a superuser may change. Without
one, the class is made without that part, and `Setup.for_the_dba` holds its SQL, for the
server's administrator, until it is done (each run checks again).

**The watch.** `class-setup --watch` keeps running after the class is made and watches it as
class-server does (`watch_class`, the same looks: trainer.classes.server.sessions): a session of
a workstation's or trainee's login that holds up another for 5 s or keeps a transaction open
60 s is ended, and so is a revoked login's; a default such a login gave itself is reset. The
connection limits are the class-server's too (logins.add_login, s016). An administrator that is
no superuser ends sessions through the owner's `pg_signal_backend` (s016's part above) and sees
how long they have been open only with `pg_read_all_stats`: `Setup.for_the_dba` names that
grant too, until it is given. The server's own settings (temp_file_limit, authentication_timeout,
what the log keeps), which class-server starts PostgreSQL with, are the school's to set.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

import psycopg
from psycopg import sql

from trainer.classes.errors import ClassServerError
from trainer.classes.server.failures import ServerTooOldError, check_version, said
from trainer.classes.server.ledger import give_form
from trainer.classes.server.logins import CLASS_LOGINS, add_login, kept_passwords, verifier
from trainer.classes.server.sessions import HELD, look, missing_rights
from trainer.classes.server.sql import value
from trainer.classes.server.tables import OWNER, cluster_part, install, make_roles

#: seconds between two looks of `watch_class`, as class-server looks
CHECK_EVERY = 2.0

#: a class's name: its database's, and the first part of its logins' (`<class>_instructor`)
CLASS_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
DEFAULT_CLASS = "dealer_class"
#: connection options of the administrator's address the class's addresses keep
KEPT_OPTIONS = ("sslmode", "sslrootcert")
#: what s016 leaves to a superuser is done when all of these hold (in the class's database)
DBA_DONE = """SELECT NOT has_function_privilege('public', 'pg_advisory_lock(bigint)', 'EXECUTE')
                 AND NOT has_function_privilege('public', 'lo_from_bytea(oid, bytea)', 'EXECUTE')
                 AND pg_has_role('class_owner', 'pg_signal_backend', 'MEMBER')
                 AND pg_has_role('class_instructor', 'pg_use_reserved_connections', 'MEMBER')"""


@dataclass(frozen=True, slots=True)
class Setup:
    """A class made (or brought up to date): its database, each login's address (instructor,
    supervisor, workstation), the migrations applied now, and the SQL a superuser must run in
    its database ("" when none)."""

    database: str
    addresses: dict[str, str]
    applied: list[str]
    for_the_dba: str


def class_logins(name: str) -> dict[str, str]:
    """The class's own logins: `<class>_instructor` ... with their groups."""
    return {f"{name}_{kind}": group for kind, group in CLASS_LOGINS.items()}


def check_name(name: str) -> str:
    if not CLASS_NAME.fullmatch(name):
        raise ClassServerError(f"{name!r} is not a class name: lower-case letters, digits and _, "
                               "starting with a letter, at most 40")
    return name


def setup_class(admin_url: str, name: str = DEFAULT_CLASS, logins_file: Path | None = None,
                forms=(), say: Callable[[str], None] = print) -> Setup:
    """Make the class `name` on the PostgreSQL at `admin_url` (the administrator's address), or
    bring it up to date; ClassServerError, one line, for each failure."""
    check_name(name)
    logins_file = logins_file or Path(f"{name}-logins.json")
    try:
        admin = psycopg.connect(admin_url, autocommit=True, connect_timeout=10)
    except psycopg.Error as e:
        raise ClassServerError(_not_connected(e, admin_url)) from None
    with admin:
        try:
            check_version(admin)
            _check_rights(admin)
            secrets = kept_passwords(logins_file, [*class_logins(name)])
            make_roles(admin)
            for login, group in class_logins(name).items():
                _own_login(admin, login, group, secrets[login])
            applied = install(admin, name, {login: login.rpartition("_")[2] for login in class_logins(name)})
            with _class_connection(admin, name) as conn:
                for form in forms:
                    try:
                        give_form(conn, *form, given_by="class setup")
                    except ClassServerError as e:
                        say(f"Not given to the class: {e}; the class keeps the form it was given.")
                done = value(conn.execute(DBA_DONE))
        except ServerTooOldError as e:
            raise ClassServerError(str(e)) from None
        except psycopg.Error as e:
            raise ClassServerError(f"could not set up the class {name}: {str(e).splitlines()[0]}") from None
        addresses = {kind: _address(admin, f"{name}_{kind}", secrets[f"{name}_{kind}"], name, admin_url)
                     for kind in CLASS_LOGINS}
        watch = missing_rights(admin)
    dba = ("" if done else cluster_part("s016_class_limits")) + (f"{watch}\n" if watch else "")
    return Setup(name, addresses, applied, dba)


def watch_class(admin_url: str, stop: threading.Event, say: Callable[[str], None] = print,
                every: float = CHECK_EVERY, held: float = HELD) -> None:
    """The class-server's watch (trainer.classes.server.sessions `look`) on a school's PostgreSQL,
    every `every` seconds with the administrator's address, until `stop` is set: a session of a
    workstation's or trainee's login that holds up another (for `held` seconds), keeps a
    transaction open or whose login was revoked is ended, and the defaults such a login gave
    itself are reset, each said in a line. Without a superuser's rights it does what the
    administrator may, and `Setup.for_the_dba` names the rest."""
    while not stop.wait(every):
        for line in look(lambda: psycopg.connect(admin_url, autocommit=True, connect_timeout=10), held):
            say(line)


def _not_connected(e: psycopg.Error, admin_url: str) -> str:
    """Why the administrator's connection failed, in words (failures.said)."""
    try:
        given = psycopg.conninfo.conninfo_to_dict(admin_url)
    except psycopg.Error:
        return f"the administrator's address is not a PostgreSQL address: {str(e).splitlines()[0]}"
    words = said(e, str(given.get("user") or "given"), str(given.get("dbname") or "postgres"))
    return words.replace("the class server", "the server", 1)


def _check_rights(admin: psycopg.Connection) -> None:
    """ClassServerError unless the administrator is a superuser or has CREATEROLE and CREATEDB."""
    me = admin.info.user
    superuser, createrole, createdb = admin.execute(
        "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user"
    ).fetchone() or (False, False, False)
    missing = [what for what, has in (("CREATEROLE", createrole), ("CREATEDB", createdb)) if not has]
    if not superuser and missing:
        raise ClassServerError(f"the login {me} cannot make a class: it needs {' and '.join(missing)} "
                               f"(a superuser gives them with: ALTER ROLE {me} {' '.join(missing)})")
    if superuser:
        return
    for role in (OWNER, *CLASS_LOGINS.values()):
        made = admin.execute("SELECT pg_has_role(current_user, %s, 'MEMBER WITH ADMIN OPTION') "
                             "FROM pg_roles WHERE rolname = %s", (role, role)).fetchone()
        if made is not None and not made[0]:
            raise ClassServerError(f"the role {role} is on this PostgreSQL already and the login {me} "
                                   f"may not grant it (a superuser gives it with: GRANT {role} TO {me} "
                                   "WITH ADMIN OPTION)")


def _own_login(admin: psycopg.Connection, login: str, group: str, password: str) -> None:
    """The class's login `login`, in `group`, with this password (as its SCRAM verifier)."""
    found = admin.execute("SELECT rolsuper OR pg_has_role(current_user, oid, 'MEMBER WITH ADMIN OPTION') "
                          "FROM pg_roles WHERE rolname = %s", (login,)).fetchone()
    if found is not None and not found[0] and not value(admin.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")):
        raise ClassServerError(f"the login {login} is on this PostgreSQL already, and not this "
                               "administrator's to change: a superuser removes it, or choose another "
                               "--class")
    add_login(admin, login, group, verifier(admin, password, "a class login's"))


def _class_connection(admin: psycopg.Connection, database: str) -> psycopg.Connection:
    """The administrator in the class's database, as its owner (whose policies let it write)."""
    from psycopg.conninfo import make_conninfo

    conn = psycopg.connect(make_conninfo(admin.info.dsn, dbname=database,
                                         password=admin.info.password or None), autocommit=True)
    conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(OWNER)))
    return conn


def _address(admin: psycopg.Connection, login: str, password: str, database: str, admin_url: str) -> str:
    host = admin.info.host
    host = f"[{host}]" if ":" in host else host
    given = psycopg.conninfo.conninfo_to_dict(admin_url)
    query = urlencode([(k, str(given[k])) for k in KEPT_OPTIONS if k in given])
    return (f"postgresql://{quote(login, safe='')}:{quote(password, safe='')}@{host}:{admin.info.port}/"
            f"{database}" + (f"?{query}" if query else ""))

