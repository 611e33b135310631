"""The logins of a class: who connects to the class server, in which role.

- `add_login(admin, name, group, password)`: a login in one of the class's groups (the
  class-server command makes `instructor`, `supervisor` and `workstation`);
- `class_login(instructor, name, password)`: an instructor gives a trainee of the class a login
  of their own, by name, before or after they send anything (s008); it reads that trainee's rows
  only (row-level security), from every workstation they used, and starts exams for them only;
- `trainee_login(instructor, trainee_uid, password)`: the same, for the name of a trainee who
  has sent results;
- `login_of(conn, name)`: the login a trainee's name has in the class, if any (any login may
  ask: a workstation asks for the trainee's password when there is one).
"""

from __future__ import annotations

import secrets

import psycopg
from psycopg import sql

from trainer.classes.errors import ClassServerError
from trainer.classes.server.sql import value
from trainer.classes.server.tables import GROUPS

#: the logins the class-server command makes, and their groups
CLASS_LOGINS = {"instructor": "class_instructor", "supervisor": "class_supervisor",
                "workstation": "class_workstation"}


def new_password() -> str:
    return secrets.token_urlsafe(18)


def add_login(admin: psycopg.Connection, name: str, group: str, password: str) -> None:
    """Make (or give a new password to) the login `name`, a member of `group` only."""
    if group not in GROUPS:
        raise ClassServerError(f"{group!r} is not one of the class's roles ({', '.join(GROUPS)})")
    exists = admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
    verb = "ALTER" if exists else "CREATE"
    admin.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name),
                                                                     sql.Literal(password)))
    admin.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(name)))


def trainee_login(instructor: psycopg.Connection, trainee_uid: str, password: str) -> str:
    """The login of the name of a trainee who has sent results (s003, by their id); its name."""
    try:
        return value(instructor.execute("SELECT trainee_login(%s, %s)",
                                        (trainee_uid, verifier(instructor, password))))
    except (psycopg.errors.InvalidParameterValue, psycopg.errors.NoDataFound) as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


MIN_PASSWORD = 8


def verifier(conn: psycopg.Connection, password: str) -> str:
    """The password's SCRAM-SHA-256 verifier, made here by the driver: the server is given this
    only, so no statement, error or log line of the server holds the password itself."""
    if len(password) < MIN_PASSWORD:
        raise ClassServerError(f"a trainee's password has at least {MIN_PASSWORD} characters")
    return conn.pgconn.encrypt_password(password.encode(), b"", b"scram-sha-256").decode()


def class_login(instructor: psycopg.Connection, name: str, password: str) -> str:
    """The login of the trainee named `name` (made, or given this new password); its name."""
    try:
        return value(instructor.execute("SELECT class_login(%s, %s)",
                                        (name, verifier(instructor, password))))
    except psycopg.errors.InvalidParameterValue as e:
        raise ClassServerError(str(e).splitlines()[0]) from None


def login_of(conn: psycopg.Connection, name: str) -> str | None:
    return value(conn.execute("SELECT trainee_login_of(%s)", (name,)))
