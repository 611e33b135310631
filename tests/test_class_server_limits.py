"""No login fills or holds what the class server shares, on a real PostgreSQL. Each attack is one
a cold review made with a login a trainee holds (their own, or the workstation's of their own
machine), kept as it ran it:

- connections: a login opens connections until it is refused (its slots are a few, the
  instructor always has room);
- large objects, advisory locks, pg_notify: refused to every login, a revoked one's open session
  too; the large objects made before the class was brought up to date are removed;
- a transaction kept open (a LISTEN that holds the NOTIFY queue's tail) is ended by the class
  server's watch, and a push never fails for a full queue;
- a revoked workstation's open connection ends with the revocation."""

from __future__ import annotations

import contextlib

import psycopg
import pytest

from tests.support.class_server import PASSWORD, Class, progress_file, push_all, until
from trainer.classes.server.logins import (
    SHARED_CONNECTIONS,
    class_login,
    enrol_workstation,
    new_password,
    revoke_workstation,
)
from trainer.classes.server.postgres import RESERVED
from trainer.classes.server.sessions import Ended, end_long_transactions, end_revoked

#: the server's client sessions of logins that are not superusers: those that take ordinary slots
ORDINARY_SESSIONS = ("SELECT count(*) FROM pg_stat_activity a JOIN pg_roles r ON r.oid = a.usesysid "
                     "WHERE a.backend_type = 'client backend' AND NOT r.rolsuper")
#: the superusers' client sessions: each takes an ordinary slot while one is free, as any
SUPERUSER_SESSIONS = ORDINARY_SESSIONS.replace("NOT r.rolsuper", "r.rolsuper")

#: what the review found every login may run; each must be refused
PUBLIC_ABUSE = ["SELECT lo_from_bytea(0, 'x')", "SELECT lo_create(0)", "SELECT lo_import('/etc/hostname')",
                "SELECT pg_advisory_lock(42)", "SELECT pg_try_advisory_xact_lock(42)",
                "SELECT pg_advisory_lock_shared(1, 2)", "SELECT pg_notify('anything', 'x')",
                "CREATE TEMP TABLE t (x int)", "CREATE TABLE public.t (x int)", "CREATE SCHEMA s",
                "CREATE FUNCTION public.f() RETURNS int LANGUAGE sql AS 'SELECT 1'"]


def holding(klass: Class, login: str, password: str, most: int) -> tuple[list, str]:
    """conns.py: connections opened with `login` until the server refuses one (or `most` held);
    the connections and the refusal."""
    held: list[psycopg.Connection] = []
    refusal = ""
    for _ in range(most):
        try:
            held.append(klass.connect(login, password))
        except psycopg.OperationalError as e:
            refusal = str(e)
            break
    return held, refusal


def test_a_login_holds_a_few_connections_and_the_instructor_always_has_room(klass):
    """The attack held 97 connections with a trainee's own login: the instructor, every other
    workstation and every exam start were refused."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
        table = enrol_workstation(instructor, "Table 1", station := new_password())
    with contextlib.ExitStack() as stack:
        for login, password in ((ana, "ana-password"), (table, station)):
            held, refusal = holding(klass, login, password, 100)
            for conn in held:
                stack.enter_context(conn)
            assert 1 <= len(held) <= 5 and "too many connections for role" in refusal, (login, len(held))
        held, refusal = holding(klass, "workstation", PASSWORD, 250)  # the shared login
        for conn in held:
            stack.enter_context(conn)
        assert len(held) == SHARED_CONNECTIONS and "too many connections for role" in refusal
        with klass.connect("instructor") as instructor:  # the instructor, another trainee, the supervisor
            bo_login = class_login(instructor, "Bo Chen", "bo-password")
        with klass.connect(bo_login, "bo-password") as bo:
            assert bo.execute("SELECT uid FROM class_info").fetchone()[0]
        with klass.connect("supervisor") as supervisor:
            assert supervisor.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0


def test_with_every_ordinary_slot_taken_by_trainees_and_workstations_the_instructor_connects(klass):
    """The class server keeps `reserved_connections` for the instructor (RESERVED, s016): the
    shared workstation login's connections, then trainees' and enrolled workstations' logins
    (each holding as many as it may), take every connection that is not kept back, until
    PostgreSQL refuses the next as reserved; the instructor, and only the instructor, still
    connects and works. Each login starts once the server has let go of the sessions closed or
    refused before it (such a session lingers on the server for a moment, holding a slot)."""
    with contextlib.ExitStack() as stack:
        # a superuser's, watching the sessions: it takes an ordinary slot while one is free, as any
        watch = stack.enter_context(klass.admin())

        def settled(sessions: int) -> None:
            until(lambda: watch.execute(ORDINARY_SESSIONS).fetchone()[0] == sessions,
                  what="the sessions closed or refused ended")

        settled(0)
        held, _ = holding(klass, "workstation", PASSWORD, SHARED_CONNECTIONS)
        for conn in held:
            stack.enter_context(conn)
        refusal, n = "", 0
        while "reserved" not in refusal:
            n += 1
            assert n <= 60, "the logins' limits never reached the server's ordinary slots"
            with klass.connect("instructor") as instructor:
                login, password = ((class_login(instructor, f"Trainee {n}", f"trainee-{n}-password"),
                                    f"trainee-{n}-password") if n % 2 else
                                   (enrol_workstation(instructor, f"Table {n}", p := new_password()), p))
            settled(len(held))
            more, refusal = holding(klass, login, password, 5)
            for conn in more:
                stack.enter_context(conn)
            held += more
        assert "remaining connection slots are reserved" in refusal, refusal
        settled(len(held))  # the refused one gone, the logins' sessions are those held
        reserved, ordinary = watch.execute(  # the superusers' own slots aside
            "SELECT current_setting('reserved_connections')::int, "
            "current_setting('max_connections')::int - current_setting('reserved_connections')::int "
            "- current_setting('superuser_reserved_connections')::int").fetchone()
        # the superusers' sessions: the watch's, and the one the run's server keeps for its classes
        superusers = watch.execute(SUPERUSER_SESSIONS).fetchone()[0]
        assert reserved == RESERVED and ordinary == len(held) + superusers, (reserved, ordinary, len(held),
                                                                             superusers)
        with pytest.raises(psycopg.OperationalError, match="reserved"):
            klass.connect("supervisor")  # the slots kept back are the instructor's
        with klass.connect("instructor") as instructor:
            assert instructor.execute("SELECT count(*) FROM trainee_logins").fetchone()[0] == (n + 1) // 2
            enrol_workstation(instructor, "Table at the back", new_password())  # and works


def test_a_login_cannot_raise_its_own_limit(klass):
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    with klass.connect(ana, "ana-password") as attacker:
        for limit in ("-1", "1000"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                attacker.execute(f"ALTER ROLE {ana} CONNECTION LIMIT {limit}")
    with klass.connect("workstation") as attacker, pytest.raises(psycopg.errors.InsufficientPrivilege):
        attacker.execute("ALTER ROLE workstation CONNECTION LIMIT -1")


def test_no_login_may_make_large_objects_hold_advisory_locks_notify_or_create(klass):
    """lo_from_bytea filled the disk, from any login, a revoked one too, and nobody but a
    superuser could remove what it made; advisory locks fill the lock table; pg_notify the queue."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
        table = enrol_workstation(instructor, "Table 1", station := new_password())
        revoked = klass.connect(table, station)
        revoke_workstation(instructor, "Table 1")
    logins = [klass.connect("workstation"), klass.connect(ana, "ana-password"), klass.connect("instructor"),
              klass.connect("supervisor")]
    try:
        for conn in logins:
            for statement in PUBLIC_ABUSE:
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
        with pytest.raises(psycopg.Error):  # ended with its revocation: it reaches nothing at all
            revoked.execute(PUBLIC_ABUSE[0])
    finally:
        for conn in [*logins, revoked]:
            conn.close()
    with klass.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone()[0] == 0


def test_the_large_objects_made_before_are_removed(server):
    """A class made by an earlier version, where a login filled large objects: bringing it up to
    date removes them (the instructor could not)."""
    klass = Class(server, upto="s010_checked_pushes_and_retractions")
    with klass.connect("workstation") as attacker:
        for _ in range(3):
            attacker.execute("SELECT lo_from_bytea(0, repeat('x', 100000)::bytea)")
    assert klass.count("pg_largeobject_metadata") == 3
    assert "s016_class_limits" in klass.install()
    assert klass.count("pg_largeobject_metadata") == 0


def test_a_transaction_kept_open_is_ended_and_the_notify_queue_drains(tmp_path, klass):
    """notify_fill.py: a login LISTENs and stays in a transaction, so it reads no notification,
    while it fills the queue with NOTIFY (a command no right governs): in about 20 minutes the
    queue was full and every push failed. The class server's watch ends the transaction kept
    open (the staff's never), and the queue drains."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    staff = klass.connect("instructor")
    holder = klass.connect(ana, "ana-password")
    spam = klass.connect("workstation")
    try:
        staff.execute("BEGIN")  # the instructor's long work is never ended
        staff.execute("SELECT 1")
        holder.execute("SET idle_in_transaction_session_timeout = 0")  # the session may: no help
        holder.execute("LISTEN anything")
        holder.execute("BEGIN")
        holder.execute("SELECT 1")
        payload = "x" * 7900
        for _ in range(300):
            spam.execute(f"NOTIFY anything, '{payload}'")
        assert spam.execute("SELECT pg_notification_queue_usage()").fetchone()[0] > 0
        with klass.admin() as admin:
            ended = end_long_transactions(admin, longest=0)
        assert ended == [Ended(ana, klass.database)]
        with pytest.raises(psycopg.OperationalError):
            holder.execute("COMMIT")
        assert staff.execute("SELECT 2").fetchone()[0] == 2  # still in its transaction

        def drained() -> bool:
            spam.execute("NOTIFY anything")  # a notifying commit moves the queue's tail on
            return spam.execute("SELECT pg_notification_queue_usage()").fetchone()[0] == 0

        until(drained, what="the NOTIFY queue draining")
        assert push_all(progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 2}), klass) == 2
    finally:
        for conn in (staff, holder, spam):
            conn.close()


def test_a_revoked_workstations_open_connection_ends_with_its_revocation(klass):
    """revoke_test.py: the workstation's connection, opened before the revocation, went on
    taking advisory locks, making large objects and reading who is connected."""
    with klass.connect("instructor") as instructor:
        login = enrol_workstation(instructor, "Table 1", password := new_password())
        stations = [klass.connect(login, password) for _ in range(2)]
        try:
            revoke_workstation(instructor, "Table 1")
            for station in stations:
                with pytest.raises(psycopg.OperationalError):
                    station.execute("SELECT count(*) FROM pg_stat_activity")
        finally:
            for station in stations:
                station.close()


def test_a_session_of_a_login_that_may_no_longer_log_in_is_ended(klass):
    """A connection made in the moment between the revocation's end of sessions and its commit
    keeps running: the class server's watch ends the sessions of every login that may no longer
    log in."""
    with klass.connect("instructor") as instructor:
        login = enrol_workstation(instructor, "Table 1", password := new_password())
    station = klass.connect(login, password)
    try:
        with klass.admin() as admin:
            admin.execute(f"ALTER ROLE {login} NOLOGIN")  # as revoke_workstation leaves it
            assert end_revoked(admin) == [Ended(login, klass.database)]
        with pytest.raises(psycopg.OperationalError):
            station.execute("SELECT 1")
    finally:
        station.close()
