"""A workstation's connections to the class server: none held while it has nothing to send, so
that more workstations than the server has connections share them in turn; a paused server said
while the pusher rests, and its results sent once it answers; the pause before each try again
capped low and spread at random.

No test depends on how fast anything is: the intervals are set short, and each test waits for
what it expects, with a generous limit."""

from __future__ import annotations

import random
import sys
from itertools import islice

import pytest

from tests.support.class_server import Class, attempt, frozen, progress_file, start_server, until
from trainer.classes.server import postgres
from trainer.classes.workstation import connection as connection_module
from trainer.classes.workstation import push
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassConnection
from trainer.progress.store import Store

#: short intervals: the file looked at every 0.05 s, the connection let go after 0.2 s idle,
#: connecting given up after 2 s (libpq's least; the app's is 5)
QUICK = {"poll": 0.05, "backoff": (0.05, 0.3), "idle": 0.2, "connect_within": 2}


def sessions(klass: Class, login: str = "workstation") -> int:
    """The login's sessions open on the class's database now (asked on the connection the class
    keeps: a test polls it, and a connection made for each look cost the server a login each)."""
    return klass.read("SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND datname = %s",
                      (login, klass.database))[0][0]


def test_more_workstations_than_the_server_has_connections_send_everything_once(open_folder, monkeypatch):
    """Before: each pusher held its connection for good, so the workstations past the server's
    free connections were refused ("too many clients") for as long as the others ran."""
    monkeypatch.setattr(postgres, "CONNECTIONS", 20)  # 20 - RESERVED (10) - the superuser's 3 = 7 free
    server = start_server(open_folder / "class")
    try:
        klass = Class(server)
        with klass.admin() as admin:
            free = admin.execute("SELECT current_setting('max_connections')::int "
                                 "- current_setting('reserved_connections')::int "
                                 "- current_setting('superuser_reserved_connections')::int").fetchone()[0]
        workstations = 2 * free + 2
        paths = [progress_file(open_folder / f"ws-{k}.db", {f"Trainee {k}": 3}) for k in range(workstations)]
        connections = [ClassConnection(str(p), klass.address(), **QUICK) for p in paths]
        for c in connections:
            c.start()
        try:
            until(lambda: all(c.waiting() == 0 for c in connections), within=180, what="every first push")
            for k, path in enumerate(paths):  # then a round more each, all at once
                with Store.open(path) as store:
                    for n in (3, 4):
                        store.record_attempt(attempt(store.find_trainee(f"Trainee {k}").id, n))
                connections[k].wake()
            until(lambda: all(c.waiting() == 0 for c in connections), within=180, what="every second push")
            until(lambda: sessions(klass) == 0, what="every connection let go")
            assert all(c.connected for c in connections)  # resting, everything sent
        finally:
            for c in connections:
                c.close()
        assert klass.count() == 5 * workstations
        assert len(set(klass.uids())) == 5 * workstations
    finally:
        server.crash()


def test_a_resting_pusher_holds_no_connection_and_connects_for_a_new_attempt(klass, tmp_path):
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    connection = ClassConnection(str(path), klass.address(), **QUICK)
    connection.start()
    try:
        until(lambda: connection.waiting() == 0 and connection.pusher.resting, what="the push, then rest")
        assert not connection.pusher.holding
        # the server's process of a closed connection ends a moment after it: on a loaded machine
        # pg_stat_activity still listed it
        until(lambda: sessions(klass) == 0, what="the connection's session gone from the server")
        made = connection.pusher.connects
        with Store.open(path) as store:
            store.record_attempt(attempt(store.find_trainee("Ana").id, 2))
        connection.wake()
        until(lambda: klass.count() == 3, what="the new attempt sent")
        assert connection.pusher.connects == made + 1
        until(lambda: connection.pusher.resting and sessions(klass) == 0, what="the connection let go again")
    finally:
        connection.close()


def test_an_exams_connection_is_let_go_when_idle(klass, tmp_path):
    """Before: the connection an exam's steps went on was kept until the app left the class."""
    path = progress_file(tmp_path / "ws.db", {"Ana": 1})
    connection = ClassConnection(str(path), klass.address(), **QUICK)  # its pusher not started
    try:
        assert connection.send_steps(str(path)) == 0
        assert sessions(klass) == 1  # kept for the next answer
        until(lambda: sessions(klass) == 0, what="the exam's connection let go")
        assert connection.send_steps(str(path)) == 0  # and made again for the next
    finally:
        connection.close()


def test_the_instructors_reads_share_one_connection_let_go_when_idle(klass, tmp_path, monkeypatch):
    """Before: each read of the live Class tab (the overview, the activity, the sittings not
    ended: up to twice a second) logged in on a connection of its own. The logins are counted
    where the reads make them (a look at the server's sessions after the reads raced their idle
    time on a loaded machine)."""
    path = progress_file(tmp_path / "teacher.db", {"Ana": 1})
    push_all = ClassConnection(str(path), klass.address(), **QUICK)
    push_all.start()
    until(lambda: klass.count() == 1, what="Ana's attempt on the server")
    push_all.close()
    logins = []
    real_connect = connection_module.connect
    monkeypatch.setattr(connection_module, "connect",
                        lambda address, watch: logins.append(address) or real_connect(address, watch))
    connection = ClassConnection(str(path), klass.address("instructor"), **QUICK)
    try:
        for _ in range(3):
            assert [t.name for t in connection.class_overview().trainees] == ["Ana"]
            connection.class_activity()
            connection.unended_sittings()
        assert len(logins) == 1  # the one they all went on
        until(lambda: sessions(klass, "instructor") == 0, what="the reads' connection let go")
        assert [t.name for t in connection.class_overview().trainees] == ["Ana"]  # made again
        assert len(logins) == 2
    finally:
        connection.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the server's processes in /proc")
def test_a_paused_server_is_said_when_a_resting_pusher_sends_and_nothing_is_lost(own_server, tmp_path):
    from ui.classroom.membership import status_line

    klass = Class(own_server)
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    connection = ClassConnection(str(path), klass.address(), **QUICK)
    connection.start()
    try:
        until(lambda: connection.waiting() == 0 and connection.pusher.resting, what="the push, then rest")
        with frozen(own_server), Store.open(path) as store:
            store.record_attempt(attempt(store.find_trainee("Ana").id, 2))
            connection.wake()
            # connecting to a paused server times out (connect_within)
            until(lambda: not connection.answering, what="the pusher finding the server silent")
            line = status_line(connection.waiting(), connection.connected, connection.problem,
                               unreachable=connection.unreachable, answering=connection.answering)
            assert line == "Class: the class server is not answering (trying again); 1 result waiting"
        until(lambda: connection.waiting() == 0, what="the push once the server answers")
        assert connection.answering and connection.problem is None
    finally:
        connection.close()
    assert klass.count() == 3 and len(set(klass.uids())) == 3


def test_the_pause_before_trying_again_is_capped_low_and_spread():
    """A server back after an outage has every workstation again within the cap (before: a pause
    that doubled to 30 s, the same on every workstation)."""
    low, cap = push.BACKOFF
    assert cap <= 5
    drawn = list(islice(push.pauses(push.BACKOFF, random.Random(7)), 40))
    assert all(0 < p <= cap for p in drawn)
    assert low / 2 <= drawn[0] <= low
    assert max(drawn) > cap / 2  # it does grow to the cap
    later = drawn[10:]
    assert all(cap / 2 <= p <= cap for p in later) and len(set(later)) == len(later)  # spread


def test_the_pusher_waits_those_pauses_after_each_failure(tmp_path):
    """The pauses the pusher's thread takes after failures (a port nothing listens on), read
    from its waits, not from a clock."""
    from tests.support.class_server import free_port

    path = progress_file(tmp_path / "ws.db", {"Ana": 1})
    address = class_address(f"postgresql://workstation:pw@127.0.0.1:{free_port()}/dealer_class")
    connection = ClassConnection(str(path), address)
    pusher = connection.pusher
    waited: list[float] = []

    class Waits:
        """The pusher's wake-up event, answering at once and noting each wait."""

        def wait(self, timeout=None):
            waited.append(timeout)
            if len(waited) >= 12:
                pusher._stop.set()
            return False

        def set(self):
            pass

        def clear(self):
            pass

    pusher._wake = Waits()
    connection.start()
    try:
        until(lambda: not pusher.running, what="twelve tries")
    finally:
        connection.close()
    assert pusher.failures >= 12 and pusher.unreachable
    assert all(0 < w <= 5 for w in waited)  # a few seconds at most, however many failures
    assert max(waited) > push.BACKOFF[1] / 2 and len(set(waited)) == len(waited)  # grown, spread
