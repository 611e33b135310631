"""What a trainee's login (or no login at all) could fill on the class server, closed: each attack
as a second cold review of the class server ran it, on a real
PostgreSQL.

- temp_fill.py (#37): a trainee's sort spilled 1.9 GB of temporary files in 22 s; the server
  bounds what one session writes (temp_file_limit, a setting no login may raise);
- disk_push.py (#38): a trainee's own login pushed attempts with logs of 2,000,000 characters,
  and the instructor's overview, which read the last logs of each trainee, went from 0.55 s to
  4.5-8.5 s; an attempt's log is bounded at push (s021), and the overview reads no log;
- planted_defaults.py (#39): a login set defaults for its own sessions (planner settings, TimeZone,
  messages) that the app's connections did not set; the app's connections set TimeZone and
  client_min_messages too, and the class server's watch resets every default a workstation's or
  trainee's login holds;
- preauth_fill.py (#36): connections that never finish logging in held every slot for 60 s each;
  the server drops a connection that has not logged in within AUTHENTICATION_TIMEOUT seconds;
- notify_noread.py (#21): a session LISTENs outside a transaction and never reads its socket, so
  the NOTIFY queue grows behind it with every NOTIFY; the watch ends it (blocked writing to its
  client while the queue fills), and the queue drains."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import struct
import time
import uuid

import psycopg
import pytest

from tests.support.class_server import progress_file, push_all, until
from trainer.classes.server.command import defaults_reset, sessions_ended
from trainer.classes.server.logins import class_login
from trainer.classes.server.postgres import AUTHENTICATION_TIMEOUT
from trainer.classes.server.sessions import QUEUE_USED, Ended
from trainer.classes.workstation.classview import server_class_overview
from trainer.classes.workstation.push import session_options
from trainer.progress.records import answer_gaps


def ana(klass) -> str:
    with klass.connect("instructor") as instructor:
        return class_login(instructor, "Ana Ruiz", "ana-password")


def test_a_trainees_sort_that_spills_past_the_limit_is_refused_by_name(klass):
    """temp_fill.py: 300 rows of ~1 MB sorted, which spill ~290 MB to disk; refused past 256 MB,
    and the login can raise the limit neither for its session nor for its role."""
    with klass.connect(ana(klass), "ana-password") as conn:
        with pytest.raises(psycopg.errors.ConfigurationLimitExceeded, match="temp_file_limit"):
            conn.execute("SELECT count(*) FROM (SELECT repeat(md5(g::text), 30000) x "
                         "FROM generate_series(1, 300) g ORDER BY x) s")
        for raise_it in ("SET temp_file_limit = -1", "ALTER ROLE CURRENT_USER SET temp_file_limit = -1"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(raise_it)


def her_id(klass, login: str) -> tuple[str, str | None]:
    """The trainee id her login makes (New trainee… with her login), and its salt (s039, s043)."""
    from trainer.classes.server.logins import own_trainee_uid

    with klass.connect(login, "ana-password") as conn:
        identity = own_trainee_uid(conn, time.time())
    assert identity is not None
    return identity.uid, identity.salt


def pushed(conn: psycopg.Connection, name: str, trainee_uid: str, log: list, salt: str | None = None) -> int:
    """disk_push.py: one practice attempt with this log, pushed as the app's session pushes (the
    trainee's row with the `salt` her login made her id with)."""
    now = time.time()
    attempt = dict(uid=uuid.uuid4().hex, item_id="ph-seven-out", game="props-and-hops", mode="scenario",
                   seed=None, started=now - 60, ended=now, duration=60, target=45, procedure=90, payouts=90,
                   speed=90, total=90, passed=1, critical=0, abandoned=0, log=json.dumps(log),
                   source="Table 1", rule=2, trainee_uid=trainee_uid, skills=["payouts"], findings=[])
    batch = {"trainees": [dict(name=name, created=now - 86400, archived=0, archived_at=None, instructor=0,
                               uid=trainee_uid, **({"salt": salt} if salt else {}))], "attempts": [attempt]}
    return conn.execute("SELECT push_attempts(%s::jsonb)", (json.dumps(batch),)).fetchone()[0]


def test_a_log_larger_than_any_the_app_writes_is_refused_by_name(klass):
    """disk_push.py: 2,000,000 characters of random text in objects the server took as actions;
    and, under the byte bound, more actions than any round has. A log the app writes (the
    largest: a whole round of the longest drill, about 11,000 bytes and 92 actions) is kept."""
    login = ana(klass)
    uid, salt = her_id(klass, login)
    big, size = [], len("[]")
    while size < 1_999_000:  # the list's JSON, counted as it grows (not written out each time)
        big.append({"do": "pay", "round": 1, "at": 1.0, "x": os.urandom(600).hex()})
        size += len(json.dumps(big[-1])) + (len(", ") if len(big) > 1 else 0)
    assert len(json.dumps(big)) == size >= 1_999_000
    many = [{"do": "pay", "round": 1, "at": 1.0}] * 2001
    longest = [{"do": "pay", "round": 12, "at": 1234.567, "seat": 7, "bet": "x" * 24, "amount": 123456}] * 100
    url = klass.address(login, "ana-password").url
    with psycopg.connect(url, autocommit=True, options=session_options()) as conn:
        with pytest.raises(psycopg.errors.CheckViolation, match=r"refused attempt \w+: its log is \d+ bytes, "
                           r"more than the 262,144"):
            pushed(conn, "Ana Ruiz", uid, big, salt)
        with pytest.raises(psycopg.errors.CheckViolation,
                           match="its log is 2001 actions, more than the 2,000"):
            pushed(conn, "Ana Ruiz", uid, many, salt)
        assert pushed(conn, "Ana Ruiz", uid, longest, salt) == 1
    assert klass.count() == 1


def test_the_overview_reads_no_log_and_its_answer_times_are_the_logs(klass):
    """The overview's seconds to answer come from what the server kept at push (s021), which are
    what the app reckons from the log (trainer.progress.records.answer_gaps): the trainer's
    actions, skipped throws and undos are no answers, actions are timed in time order. Reading the
    overview fetches no block of the logs' storage (TOAST: a long log is kept there)."""
    logs = [[{"do": "pay", "round": 1, "at": 4.0},
             {"do": "announce", "round": 1, "at": 1.5, "by_trainer": True},
             {"do": "collect", "round": 1, "at": 2.0}, {"do": "skip-throw", "round": 2, "at": 9.0},
             {"do": "pay", "round": 2, "at": 12.25}, {"do": "undo", "round": 2, "at": 13.0},
             {"do": "pay", "round": 2}],
            [{"do": "pay", "round": 1, "at": 3.0}, {"do": "pay", "round": 1, "at": 3.0, "by_trainer": False}],
            []]
    with klass.admin() as admin:
        for log in logs:
            kept = admin.execute("SELECT log_answer_gaps(%s)", (json.dumps(log),)).fetchone()[0]
            assert kept == answer_gaps(log), log
    login = ana(klass)
    uid, salt = her_id(klass, login)
    long_log = [{"do": "pay", "round": 1, "at": 2.0 + n, "x": os.urandom(100).hex()} for n in range(600)]
    with psycopg.connect(klass.address(login, "ana-password").url, autocommit=True,
                         options=session_options()) as conn:
        for _ in range(3):
            pushed(conn, "Ana Ruiz", uid, long_log, salt)
    with klass.connect("instructor") as conn, conn.transaction():
        overview = server_class_overview(conn)
        assert list(overview.answer_seconds.values()) == [1.0]
        fetched = conn.execute("SELECT pg_stat_get_xact_blocks_fetched(reltoastrelid) FROM pg_class "
                               "WHERE oid = 'attempts'::regclass").fetchone()[0]
        assert fetched == 0


#: planted_defaults.py's defaults, as a login set them for itself (those PostgreSQL lets it set)
PLANT = {"client_min_messages": "debug5", "enable_indexscan": "off", "enable_bitmapscan": "off",
         "work_mem": "64kB", "cpu_operator_cost": "1e6", "TimeZone": "Pacific/Kiritimati"}


def test_defaults_a_login_plants_for_itself_are_reset_and_the_app_sets_its_own(klass):
    login = ana(klass)
    url = klass.address(login, "ana-password").url
    with psycopg.connect(url, autocommit=True) as conn:
        for name, setting in PLANT.items():
            conn.execute(f"ALTER ROLE CURRENT_USER SET {name} = '{setting}'")
        conn.execute(f"ALTER ROLE CURRENT_USER IN DATABASE {klass.database} SET enable_seqscan = off")
    with klass.connect("instructor") as instructor:  # the staff's own defaults are theirs
        instructor.execute("ALTER ROLE CURRENT_USER SET work_mem = '8MB'")
    notices: list = []
    with psycopg.connect(url, autocommit=True, options=session_options()) as app:  # before the watch looks
        app.add_notice_handler(notices.append)
        app.execute("SELECT trainee_login_of('Ana Ruiz')").fetchone()
        shown = [app.execute(f"SHOW {name}").fetchone()[0] for name in ("TimeZone", "client_min_messages")]
        assert shown == ["UTC", "notice"]
    assert notices == []
    reset = defaults_reset(klass.server)
    assert {Ended(login, ""), Ended(login, klass.database)} <= set(reset)
    assert "instructor" not in {e.login for e in reset}
    with psycopg.connect(url, autocommit=True) as conn:
        shown = {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in (*PLANT, "enable_seqscan")}
    assert shown["enable_indexscan"] == shown["enable_seqscan"] == "on" and shown["work_mem"] == "4MB"
    assert shown["TimeZone"] != "Pacific/Kiritimati"
    with klass.admin() as admin:
        left = admin.execute("SELECT r.rolname, s.setconfig FROM pg_db_role_setting s "
                             "JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname IN (%s, 'instructor')",
                             (login,)).fetchall()
        assert left == [("instructor", ["work_mem=8MB"])]
        admin.execute("ALTER ROLE instructor RESET ALL")
    assert login not in {e.login for e in defaults_reset(klass.server)}


def startup(user: str, database: str) -> bytes:
    """preauth_fill.py: a protocol 3.0 startup packet, after which nothing answers the challenge."""
    body = (struct.pack("!I", 196608) + b"user\0" + user.encode() + b"\0database\0" + database.encode()
            + b"\0\0")
    return struct.pack("!I", len(body) + 4) + body


def closed(s: socket.socket) -> bool:
    """The server closed the connection (what it sent before, the password's challenge, read)."""
    try:
        while chunk := s.recv(4096):
            del chunk
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_connections_that_never_log_in_are_dropped_within_seconds(unchanged_class):
    """preauth_fill.py: connections that send a startup packet and never answer the password's
    challenge are each counted before their login is known; the server drops them after
    AUTHENTICATION_TIMEOUT seconds (a guard of 30 s here; PostgreSQL's default is 60)."""
    with unchanged_class.admin() as admin:
        assert admin.execute("SHOW authentication_timeout").fetchone()[0] == f"{AUTHENTICATION_TIMEOUT}s"
    with contextlib.ExitStack() as stack:
        held = []
        for _ in range(20):
            s = stack.enter_context(socket.create_connection(("127.0.0.1", unchanged_class.server.port)))
            s.sendall(startup("workstation", unchanged_class.database))
            s.setblocking(False)
            held.append(s)
        until(lambda: all(closed(s) for s in held), within=30.0, what="the connections dropped")


def test_a_listener_that_never_reads_is_ended_and_the_notify_queue_drains(tmp_path, klass):
    """notify_noread.py: LISTEN in autocommit with a small receive buffer, then nothing reads the
    socket, while NOTIFY (which any login may run) fills the queue. The class server's look ends
    the session that reads nothing, never the staff's listener, and the queue drains; a push
    goes through."""
    login = ana(klass)
    staff = klass.connect("instructor")
    holder = klass.connect(login, "ana-password")
    spam = klass.connect("workstation")
    try:
        staff.execute("LISTEN anything")  # the staff's listener reads: it is never ended
        holder.execute("LISTEN anything")
        sock = socket.socket(fileno=holder.pgconn.socket)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.detach()  # from here nothing reads the holder's socket
        payload, sent = "x" * 7900, itertools.count()

        def filled() -> bool:
            """100 more notifications (the staff reading them); whether the server is blocked
            writing to the holder and the queue holds more than the look allows (2,000 were sent
            before the look, whatever it took: a few hundred do)."""
            for n in itertools.islice(sent, 100):
                spam.execute(f"NOTIFY anything, '{payload}{n}'")
            list(staff.notifies(timeout=0))
            return (spam.execute("SELECT pg_notification_queue_usage()").fetchone()[0] > QUEUE_USED
                    and admin.execute("SELECT wait_event FROM pg_stat_activity WHERE usename = %s",
                                      (login,)).fetchall() == [("ClientWrite",)])

        with klass.admin() as admin:
            until(filled, what="the holder blocked and the queue filled")
        assert spam.execute("SELECT pg_notification_queue_usage()").fetchone()[0] > QUEUE_USED
        # one look ends it (its transaction, reading the queue, is seconds old, not LONGEST)
        assert [why for ended, why in sessions_ended(klass.server) if ended.login == login] == [
            "it read no notification while the NOTIFY queue filled"]

        def drained() -> bool:
            spam.execute("NOTIFY anything")  # a notifying commit moves the queue's tail on
            list(staff.notifies(timeout=0))
            return spam.execute("SELECT pg_notification_queue_usage()").fetchone()[0] == 0

        until(drained, what="the NOTIFY queue draining")
        assert staff.execute("SELECT 1").fetchone()[0] == 1
        assert push_all(progress_file(tmp_path / "ws.sqlite", {"Sam Lee": 2}), klass) == 2
    finally:
        for conn in (staff, holder, spam):
            conn.close()
