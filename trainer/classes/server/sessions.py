"""The class's sessions, watched by the class server: a login that holds up another is ended.

A workstation's or trainee's login may open a transaction and keep it open: a row it added and
has not committed (a classmate's trainee id, read from a shared progress file, or an attempt's)
makes that classmate's push of the same row wait for as long as the transaction stays open,
and nothing in PostgreSQL lets the server bound a session's transaction against its own login's
wishes (every timeout is a setting the session may change). So the class-server command looks
every few seconds (`end_holders`): a session of a login of the class that is not the staff's,
holding a lock another session has waited for more than HELD seconds, is ended (its transaction
rolled back, its rows gone), and the one waiting goes on. HELD is shorter than the app's own
wait (trainer.classes.workstation.push.LOCK_WAIT), so the one waiting is still there to go on.

A transaction kept open holds more than rows: a session that LISTENs and stays in a transaction
reads no notification, so the NOTIFY queue, which every login may add to, fills behind it. The
app's statements are each a transaction of a moment, so `end_long_transactions` ends a session of
such a login whose transaction is older than LONGEST seconds, waiting or running (the setting
idle_in_transaction_session_timeout, which the app's connections set, is one a session may turn
off). And a session whose login can no longer log in (a workstation revoked a moment after it
connected) is ended too (`end_revoked`).

A session that LISTENs outside a transaction and never reads its socket holds the queue too: the
server, writing the notifications to it, blocks once the socket's buffers are full (wait event
ClientWrite), and its place in the queue stops there. Only the staff's live Class view LISTENs
(on a channel only the staff may read: trainer.classes.workstation.classview.follow), so while
the queue holds more than QUEUE_USED of its room, `end_queue_holders` ends every session of a
workstation's or trainee's login that is blocked writing to its client: one of them is the one
that does not read, and the app reconnects any other.

Every login may give its own sessions defaults (ALTER ROLE CURRENT_USER [IN DATABASE ...] SET):
the app's connections set what its statements rely on (trainer.classes.workstation.push.SESSION),
but a planner's setting planted on the shared workstation login (enable_indexscan = off) slows
every workstation's calls, and nothing lets the server refuse the ALTER ROLE. So the watch also
resets every default a workstation's or trainee's login holds (`reset_role_defaults`): a login
that plants one has it for a few seconds, in the sessions it opens meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import sql

from trainer.classes.server.sql import value
from trainer.classes.server.tables import GROUPS

#: seconds a session of the class may wait on another's lock before the holder is ended
HELD = 5.0
#: seconds a transaction of a workstation's or trainee's login may stay open
LONGEST = 60.0
#: the share of the NOTIFY queue's room (8 GB) used, above which a session of a workstation's or
#: trainee's login blocked writing to its client is ended: about 800 kB, while the staff's live
#: view (the only listener the app has) keeps it near empty
QUEUE_USED = 0.0001
#: the sessions watched: a workstation's or trainee's login, not the staff's, not a superuser's
WATCHED = """NOT r.rolsuper
          AND (pg_has_role(r.oid, 'class_workstation', 'MEMBER')
               OR pg_has_role(r.oid, 'class_trainee', 'MEMBER'))
          AND NOT pg_has_role(r.oid, 'class_instructor', 'MEMBER')
          AND NOT pg_has_role(r.oid, 'class_supervisor', 'MEMBER')"""


@dataclass(frozen=True, slots=True)
class Ended:
    login: str
    database: str


def end_holders(admin: psycopg.Connection, held: float = HELD) -> list[Ended]:
    """End every session of a workstation's or trainee's login (not the staff's, not a
    superuser's) that holds a lock some session has waited for longer than `held` seconds;
    those ended. `admin`: a superuser's autocommit connection."""
    rows = admin.execute("""
        SELECT DISTINCT b.pid, b.usename, b.datname
        FROM pg_locks w
        CROSS JOIN LATERAL unnest(pg_blocking_pids(w.pid)) AS blocker (pid)
        JOIN pg_stat_activity b ON b.pid = blocker.pid
        JOIN pg_roles r ON r.oid = b.usesysid
        WHERE NOT w.granted AND w.waitstart < clock_timestamp() - make_interval(secs => %s)
          AND """ + WATCHED, (held,)).fetchall()
    return _ended(admin, rows)


def end_long_transactions(admin: psycopg.Connection, longest: float = LONGEST) -> list[Ended]:
    """End every session of a workstation's or trainee's login whose transaction has been open
    for more than `longest` seconds; those ended."""
    rows = admin.execute("""
        SELECT b.pid, b.usename, b.datname FROM pg_stat_activity b JOIN pg_roles r ON r.oid = b.usesysid
        WHERE b.xact_start < clock_timestamp() - make_interval(secs => %s) AND """ + WATCHED,
                         (longest,)).fetchall()
    return _ended(admin, rows)


def end_revoked(admin: psycopg.Connection) -> list[Ended]:
    """End every session of a login of a class (in one of its groups, not a superuser's) that may
    no longer log in: on a PostgreSQL a school shares with other programs (class-setup), theirs are
    left alone."""
    rows = admin.execute("""
        SELECT b.pid, b.usename, b.datname FROM pg_stat_activity b JOIN pg_roles r ON r.oid = b.usesysid
        WHERE b.backend_type = 'client backend' AND NOT r.rolcanlogin AND NOT r.rolsuper
          AND EXISTS (SELECT FROM unnest(%s::text[]) AS g (name)
                      WHERE pg_has_role(r.oid, g.name, 'MEMBER'))""",
                         (list(GROUPS),)).fetchall()
    return _ended(admin, rows)


def end_queue_holders(admin: psycopg.Connection, used: float = QUEUE_USED) -> list[Ended]:
    """While the NOTIFY queue holds more than `used` of its room, end every session of a
    workstation's or trainee's login that is blocked writing to its client; those ended."""
    rows = admin.execute("""
        SELECT b.pid, b.usename, b.datname FROM pg_stat_activity b JOIN pg_roles r ON r.oid = b.usesysid
        WHERE pg_notification_queue_usage() > %s AND b.backend_type = 'client backend'
          AND b.wait_event_type = 'Client' AND b.wait_event = 'ClientWrite' AND """ + WATCHED,
                         (used,)).fetchall()
    return _ended(admin, rows)


def reset_role_defaults(admin: psycopg.Connection) -> list[Ended]:
    """Reset every default a workstation's or trainee's login set for its own sessions (in
    pg_db_role_setting: for every database, or for one); the logins reset, each with the database
    of its defaults ("" for every database)."""
    rows = admin.execute("""
        SELECT r.rolname, coalesce(d.datname, '') FROM pg_db_role_setting s
        JOIN pg_roles r ON r.oid = s.setrole LEFT JOIN pg_database d ON d.oid = s.setdatabase
        WHERE """ + WATCHED).fetchall()
    reset = []
    for login, database in rows:
        if database:
            admin.execute(sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(
                sql.Identifier(login), sql.Identifier(database)))
        else:
            admin.execute(sql.SQL("ALTER ROLE {} RESET ALL").format(sql.Identifier(login)))
        reset.append(Ended(login, database))
    return reset


def _ended(admin: psycopg.Connection, rows: list[tuple]) -> list[Ended]:
    ended = []
    for pid, login, database in rows:
        try:
            if value(admin.execute("SELECT pg_terminate_backend(%s)", (pid,))):
                ended.append(Ended(login, database))
        except psycopg.errors.InsufficientPrivilege:  # an administrator not given pg_signal_backend yet
            continue
    return ended


def ended_now(admin: psycopg.Connection, held: float = HELD) -> list[tuple[Ended, str]]:
    """One look of the watch at the sessions: each ended, with why (a holder once another waited
    `held` seconds: end_holders). A part the connection may not do (an administrator that is not
    a superuser, before the server's administrator gave it what `missing_rights` names) ends
    nothing."""
    parts = ((lambda admin: end_holders(admin, held), f"it held up another for more than {held:g} s"),
             (end_long_transactions, f"its transaction was open for more than {LONGEST:.0f} s"),
             (end_revoked, "its login was revoked"),
             (end_queue_holders, "it read no notification while the NOTIFY queue filled"))
    ended = []
    for part, why in parts:
        try:
            ended += [(e, why) for e in part(admin)]
        except psycopg.errors.InsufficientPrivilege:
            continue
    return ended


def look(connect: Callable[[], psycopg.Connection], held: float = HELD) -> list[str]:
    """One look of the class's watch, which class-server and `class-setup --watch` make every few
    seconds through `connect` (a superuser's autocommit connection, or a class administrator's):
    the sessions ended (a holder once another waited `held` seconds) and the defaults reset, each
    in a line to say; none when the server cannot be asked just now (the next look asks again)."""
    try:
        with connect() as admin:
            ended = ended_now(admin, held)
            try:
                reset = reset_role_defaults(admin)
            except psycopg.errors.InsufficientPrivilege:
                reset = []
    except psycopg.Error:
        return []
    return ([f"Ended a session of the login {e.login} ({e.database}): {why}." for e, why in ended]
            + [f"Reset the defaults the login {r.login} set for its sessions"
               f"{f' in {r.database}' if r.database else ''} (only the staff's may have any)."
               for r in reset])


def missing_rights(admin: psycopg.Connection) -> str:
    """What the watch needs of the server's administrator for the connection's login (a class
    administrator that is no superuser), as SQL ("" when nothing): to see how long each session's
    transaction has been open and what it waits on (pg_read_all_stats), besides what s016 leaves
    to a superuser (pg_signal_backend for the class's owner, which the administrator acts as)."""
    if value(admin.execute("SELECT rolsuper OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') "
                           "FROM pg_roles WHERE rolname = current_user")):
        return ""
    grant = sql.SQL("GRANT pg_read_all_stats TO {};").format(sql.Identifier(admin.info.user))
    return grant.as_string(admin)
