"""Why a connection to a PostgreSQL failed, in words (`said`), and the versions the class keeps
(`check_version`): what the status bar, the Join class dialog and the commands say, one line each.

libpq passes on few SQLSTATEs for a connection it could not make (none for a refused password
or a full server), so its words are read too, as PostgreSQL writes them in English (the
packaged server's and a school's: a server that answers in another language is said by its own
words)."""

from __future__ import annotations

import psycopg

#: the oldest PostgreSQL a class runs on: the schema checks its logs with `IS JSON` (s001), and
#: the instructor uses the connections kept back (pg_use_reserved_connections, s016)
MIN_VERSION = 16
#: what PostgreSQL says when it has no connection free for a login (SQLSTATE 53300, which libpq
#: does not pass on for a connection it refuses): the server's, a login's limit, the slots kept back
NO_ROOM = ("too many connections", "too many clients", "connection slots are reserved")
#: libpq's words for a server it did not reach, and ours for them
NOT_REACHED = (("Connection refused", "nothing answers at its address and port"),
               ("timeout expired", "no answer in time"),
               ("timed out", "no answer in time"),
               ("could not translate host name", "no machine of that name"),
               ("Name or service not known", "no machine of that name"),
               ("No route to host", "no route to that machine"),
               ("Network is unreachable", "no network reaches it"),
               ("server closed the connection unexpectedly", "the server closed the connection"))


class ServerTooOldError(psycopg.NotSupportedError):
    """The server is older than MIN_VERSION; the message says which it is."""


def server_version(conn: psycopg.Connection) -> str:
    """The server's version as it says it ("16.2", "15.4"), without its build's decoration."""
    said = conn.info.parameter_status("server_version") or ""
    return said.split()[0] if said.split() else str(conn.info.server_version)


def check_version(conn: psycopg.Connection) -> None:
    """ServerTooOldError ("needs PostgreSQL 16 or newer, this server is 15.4") on an older server."""
    if conn.info.server_version < MIN_VERSION * 10000:
        raise ServerTooOldError(f"needs PostgreSQL {MIN_VERSION} or newer, this server is "
                                f"{server_version(conn)}")


def reason(e: BaseException) -> str:
    """The driver's first line, without its decoration."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text.replace("connection failed: ", "")


def server_words(e: BaseException) -> str:
    """What the server itself said (after libpq's "FATAL:"), else the driver's first line."""
    text = str(e)
    return text.rpartition("FATAL:")[2].strip().splitlines()[0] if "FATAL:" in text else reason(e)


def password_refused(e: BaseException) -> bool:
    """The server was reached and refused the password, or asked for one the address and its
    password file do not have (not: "cannot be reached")."""
    text = str(e)
    return (getattr(e, "sqlstate", None) == "28P01" or "password authentication failed" in text
            or "no password supplied" in text)


def no_room(e: BaseException) -> str | None:
    """The server's words when it refused a connection for want of a free one (else None)."""
    text = str(e)
    if getattr(e, "sqlstate", None) != "53300" and not any(t in text for t in NO_ROOM):
        return None
    return server_words(e)


def said(e: BaseException, user: str, database: str) -> str:
    """One line saying why a connection of the login `user` to the database `database` failed:
    its password refused, no such database, no right to it, a full server, too old a server, a
    server not reached (and why), or else the server's own words."""
    text, state = str(e), getattr(e, "sqlstate", None)
    if isinstance(e, ServerTooOldError):
        return f"the class server {reason(e)}"
    if password_refused(e):
        return f"the class server refuses the password of the login {user}"
    if state == "3D000" or (f'database "{database}" does not exist' in text):
        return f"the class server has no class database {database}"
    if "permission denied for database" in text or "does not have CONNECT privilege" in text:
        return f"the login {user} may not connect to the class database {database}"
    if "no pg_hba.conf entry" in text:
        return (f"the class server does not let the login {user} in from this machine "
                "(its pg_hba.conf has no line for it)")
    if (words := no_room(e)) is not None:
        return f"the class server is full: no connection free for the login {user} ({words})"
    if "server does not support SSL" in text or ("SSL" in text and "required" in text):
        return f"the class server and this address disagree on encryption: {server_words(e)}"
    if "server requested" in text or "authentication method requirement" in text:
        return f"the class server asks for the password in a way this address refuses: {server_words(e)}"
    if state is None or state[:2] == "08":
        for found, words in NOT_REACHED:
            if found in text:
                return f"the class server cannot be reached: {words}"
        return f"the class server cannot be reached: {reason(e)}"
    return f"the class server: {server_words(e)}"


#: what the class server says of an exam's step it could not record now and kept nothing of
#: (s012's exam_sitting_step, after two tries at it): sent again, the same step may be recorded
NOT_RECORDED_NOW = "could not be recorded: try again"
#: SQLSTATEs of a call the server gave up on for a passing reason, writing nothing: a
#: serialization failure or a deadlock (class 40), a lock held longer than the session's
#: lock_timeout (55P03), a statement cancelled (57014)
PASSING = ("40", "55P03", "57014")


def passing(e: BaseException) -> bool:
    """The server answered and refused for a passing reason, keeping nothing: the same call,
    made again, may go through (not: a refusal it keeps, or one that the same call meets again)."""
    state = getattr(e, "sqlstate", None) or ""
    if state == "P0001":
        return reason(e).endswith(NOT_RECORDED_NOW)
    return any(state.startswith(p) for p in PASSING)
