"""No login fills the class server's folder through its log. The attack (the third cold review):
any login, a trainee's own with no right to anything, sends statements of 1 MB that fail at once;
PostgreSQL wrote each one whole to `server.log` (log_min_error_statement = error): 100 MB in 13 s.
Now the server logs only what stops a session or itself, never a statement's text or a failing
statement's words (trainer.classes.server.postgres, LOG_MIN_MESSAGES)."""

from __future__ import annotations

import psycopg

from trainer.classes.server.logins import class_login


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
