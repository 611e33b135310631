"""No login fills the class server's folder through its log. The attack (the third cold review):
any login, a trainee's own with no right to anything, sends statements of 1 MB that fail at once;
PostgreSQL wrote each one whole to `server.log` (log_min_error_statement = error): 100 MB in 13 s.
Now the server logs only what stops a session or itself, never a statement's text or a failing
statement's words (trainer.classes.server.postgres, LOG_MIN_MESSAGES)."""

from __future__ import annotations

import threading

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from tests.support.class_server import cluster, free_port, until
from trainer.classes.server import command, postgres
from trainer.classes.server.command import serve
from trainer.classes.server.logins import class_login
from trainer.classes.server.postgres import SERVER_LOG_KEPT, Postgres


def test_failing_statements_from_a_trainee_login_leave_the_servers_log_as_it_was(klass):
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Tom Reyes", "Tom-Pass-1234-plum")
    log = klass.server.log
    before = log.stat().st_size
    junk = "tom-was-here-" + "x" * 1_000_000
    with klass.connect(login, "Tom-Pass-1234-plum") as c:
        for _ in range(20):  # 20 MB sent, each statement failing at once
            try:
                c.execute(f"SELECT 1 FROM no_such_table WHERE '{junk}' = ''".encode())
            except psycopg.Error as e:
                assert "no_such_table" in str(e)  # the trainee is told; the log is not
            else:
                raise AssertionError("the statement did not fail")
    assert log.stat().st_size - before < 4096
    assert "tom-was-here" not in log.read_text(errors="replace")


#: the bound on server.log in the test of the command below (SERVER_LOG_KEPT's real 1 MiB took 384
#: refused connections to fill three times, most of the test's 10 s of CPU), and how often the
#: command looks (CHECK_EVERY's real 2 s, run by the command's tests in a process of its own)
BOUND, EVERY = 64 * 1024, 0.1


def test_fatal_lines_a_login_writes_by_reconnecting_keep_the_log_within_its_bound(open_folder, monkeypatch):
    """fatal_fill.py: a login connects with a startup option whose value it chose (8 KB), which
    PostgreSQL refuses with a FATAL line quoting it, and connects again: 4.6 MB of server log in
    10 s, never rotated. The class server (its command, run here) holds the log to its bound:
    after three times the bound of such lines, server.log and the part set aside each hold the
    bound at most, and the newest line is still there to read. The bound is BOUND here; the
    real one is held by the next test."""
    monkeypatch.setattr(postgres, "SERVER_LOG_KEPT", BOUND)
    monkeypatch.setattr(command, "CHECK_EVERY", EVERY)
    stop, said = threading.Event(), []
    folder, port = open_folder / "class", free_port()
    cluster(folder)
    serving = threading.Thread(target=serve, args=(str(folder), "127.0.0.1", port),
                               kwargs={"say": said.append, "stop": stop})
    serving.start()
    try:
        until(lambda: any(line.startswith("Stop the server") for line in said) or not serving.is_alive(),
              what="the class server's start")
        instructor = next(line.split(": ", 1)[1] for line in said if line.startswith("The instructor's"))
        with psycopg.connect(instructor, autocommit=True) as conn:
            login = class_login(conn, "Tom Reyes", "Tom-Pass-1234-plum")
        tom = make_conninfo(instructor, user=login, password="Tom-Pass-1234-plum",
                            options="-c work_mem=tom-was-here" + "x" * 8192)
        log = folder / "server.log"
        for _ in range(3 * BOUND // 8192):
            with pytest.raises(psycopg.OperationalError, match="work_mem"):
                psycopg.connect(tom).close()
        until(lambda: log.stat().st_size <= BOUND, what="the log held to its bound")
        set_aside = folder / "server.log.1"
        assert set_aside.stat().st_size <= BOUND
        assert "tom-was-here" in set_aside.read_text(errors="replace")  # the newest lines kept
        assert oct(set_aside.stat().st_mode & 0o777) == "0o600"
    finally:
        stop.set()
        serving.join(60)
    assert said[-1] == "Class server stopped."


def test_the_log_is_held_to_its_real_bound(tmp_path):
    """keep_log with SERVER_LOG_KEPT as it is (1 MiB): a log three times as long keeps its last
    whole lines up to the bound, set aside, and is emptied; a log within the bound is left."""
    server = Postgres(tmp_path / "class")
    server.folder.mkdir()
    lines = [f"FATAL:  line {n} " + "x" * 8000 + "\n" for n in range(3 * SERVER_LOG_KEPT // 8000)]
    server.log.write_text("".join(lines))
    server.keep_log()
    kept = (tmp_path / "class" / "server.log.1").read_text()
    assert SERVER_LOG_KEPT - 8100 < len(kept) <= SERVER_LOG_KEPT and kept.endswith(lines[-1])
    assert kept.startswith("FATAL:  line ") and server.log.stat().st_size == 0
    server.log.write_text(lines[0])
    server.keep_log()
    assert server.log.read_text() == lines[0]
