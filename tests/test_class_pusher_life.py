"""The pusher outside the happy path: a class server that is there and does not answer (frozen:
its processes stopped, its kernel still answering TCP) is "not answering" within a bounded time,
never "connected", and "connected" again once it answers, with nothing lost or doubled.

No test depends on how fast anything is: the pusher's intervals are set short, and each test
waits for what it expects, with a generous limit."""

from __future__ import annotations

import sys
import threading

import pytest

from tests.support.class_server import Class, attempt, frozen, progress_file, until
from trainer.classes.workstation import push
from trainer.classes.workstation.connection import ClassConnection
from trainer.progress.store import Store

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the server's processes "
                                                                         "in /proc")
#: the liveness check, short: asked every 0.1 s when idle, not answering after 0.5 s of waiting,
#: the connection cut after 1.5 s, connecting given up after 2 s (libpq's least; the app's is 5);
#: the connection held while idle (a resting pusher holds none: tests/test_class_connections.py)
QUICK = {"poll": 0.05, "backoff": (0.05, 0.2), "heartbeat": 0.1, "answer_within": 0.5, "give_up": 1.5,
         "connect_within": 2, "idle": 600.0}


def test_the_longest_a_frozen_server_shows_connected_is_15_seconds():
    """Idle, the pusher asks at its next look at the file after `HEARTBEAT`; the answer is
    missed `ANSWER_WITHIN` later; the status bar reads it within a second (ui.classroom.membership)."""
    from ui.classroom.membership import STATUS_MS

    assert push.POLL + push.HEARTBEAT + push.ANSWER_WITHIN + STATUS_MS / 1000 <= 15
    assert push.GIVE_UP > push.LOCK_WAIT  # a statement waiting for a lock is not cut


@LINUX
def test_a_frozen_server_is_not_answering_and_connected_again_when_it_answers(own_server, tmp_path):
    """Before: the pusher said "connected" for as long as the server stayed frozen (nothing
    pushed: no wait at all; something pushed: a wait for ever)."""
    klass = Class(own_server)
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    connection = ClassConnection(str(path), klass.address(), **QUICK)
    connection.start()
    try:
        until(lambda: connection.connected and connection.waiting() == 0, what="the first push")
        with frozen(own_server), Store.open(path) as store:
            until(lambda: not connection.answering, what="the pusher noticing the frozen server")
            assert not connection.connected
            said = "0 results waiting to be sent: no answer from the class server for "
            assert connection.status.startswith(said)
            store.record_attempt(attempt(store.find_trainee("Ana").id, 7))  # waits for the server
            connection.wake()
            # the wait for the server is cut, and connecting again times out: not answering still
            until(lambda: connection.pusher.failures >= 2, what="the connection cut, and connecting again")
            assert not connection.answering and not connection.connected
            assert connection.status.startswith("1 result waiting to be sent: ")
        until(lambda: connection.connected and connection.waiting() == 0, what="the push once it answers")
        assert connection.answering and connection.problem is None
    finally:
        connection.close()
    assert klass.count() == 3 and len(set(klass.uids())) == 3


# --- a progress file its full check finds damaged ---------------------------------------------------


@pytest.mark.parametrize("found", ["damaged", "sound"])
def test_the_pusher_keeps_the_checks_verdict(klass, tmp_path, monkeypatch, found):
    """Before: the pusher's own connection to the file sent its attempts and wrote their marks
    (and the class it joined) into a file the background check had found damaged, and its -wal
    changed. Now nothing is sent while the check runs; from a file found damaged nothing is
    sent and nothing written, the status says why; from a sound file everything is sent."""
    from tests.support.damage import beside
    from tests.test_damaged_files import leftover
    from tests.test_progress_check import damage_an_index
    from trainer.classes import ClassServerError
    from trainer.progress.background import BackgroundCheck

    path = progress_file(tmp_path / "ws.db", {"Ana": 5})
    if found == "damaged":
        damage_an_index(path)  # an index whose entries are not its rows: only the full check sees it
    leftover(path)  # and the -wal a crash left
    before = beside(path)
    go = threading.Event()
    run = BackgroundCheck._run
    monkeypatch.setattr(BackgroundCheck, "_run", lambda self: (go.wait(60), run(self)))
    store = Store.open(path, full_check=False)  # as the app opens it, the check in the background
    store.start_check()
    connection = ClassConnection(str(path), klass.address(), store=store, **QUICK)
    connection.start()
    try:
        until(lambda: connection.pusher.queue.may_write() is False and connection.waiting() == 5,
              what="the pusher waiting for the check")
        assert klass.count() == 0 and not connection.connected  # nothing sent while it runs
        go.set()
        store.wait_for_check(60)
        assert store.damaged is (found == "damaged")
        if found == "sound":
            until(lambda: connection.waiting() == 0, what="everything sent once the check passed")
            assert klass.count() == 5
            return
        until(lambda: connection.pusher.queue.read_only, what="the pusher finding the file damaged")
        assert connection.status == ("5 results waiting to be sent: the progress file is damaged, and "
                                     "nothing more is sent from it.")
        with pytest.raises(ClassServerError, match=r"^the progress file is damaged, and nothing more"):
            connection.send_now()
    finally:
        go.set()
        connection.close()
        store.close()
    assert klass.count() == 0
    after = beside(path)
    assert {name: after.get(name) for name in before} == before  # (a -shm the store made aside)
