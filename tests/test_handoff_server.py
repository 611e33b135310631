"""Hand-off from the class server: the class's attempts, pushed from the
workstations, export as the same xAPI statements and the same transcript as the progress files
they came from; a trainee's login exports their own only; `export-results --class URL`."""

from __future__ import annotations

import io
import json

import pytest

from tests.support.class_server import PASSWORD, Class, progress_file, until
from tests.support.command import run_command
from tests.support.xapi import problems
from trainer.classes.server.logins import trainee_login
from trainer.classes.workstation.connection import ClassConnection
from trainer.classes.workstation.results import server_lines
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.handoff import file_lines, statements, write
from trainer.progress.store import Store


def pushed(path, klass: Class):
    """The progress file's attempts pushed to the class by a workstation's real pusher."""
    conn = ClassConnection(str(path), klass.address(), poll=0.05, backoff=(0.02, 0.2))
    conn.start()
    try:
        until(lambda: conn.waiting() == 0 and conn.pusher.class_uid is not None, what="the push")
    finally:
        conn.close()
    return path


def file_statements(path, trainee=None):
    with Store.open(path) as store:
        return statements(file_lines(store, trainee))


def test_the_server_exports_what_the_workstations_files_export(tmp_path, klass):
    one = pushed(progress_file(tmp_path / "one.db", {"Ana": 7}), klass)
    two = pushed(progress_file(tmp_path / "two.db", {"Bo": 5}), klass)
    with klass.connect("instructor") as conn:
        lines = server_lines(conn)
    from_server = statements(lines)
    from_files = file_statements(one) + file_statements(two)
    key = lambda s: s["id"]  # noqa: E731
    assert sorted(from_server, key=key) == sorted(from_files, key=key)
    assert all(problems(s) == [] for s in from_server)
    findings = sum(len(line.attempt.findings) for line in lines)
    assert findings == 3 + 2  # n = 0, 3, 6 of Ana's and n = 0, 3 of Bo's
    out = io.StringIO(newline="")
    assert write(lines, out, "csv") == 12


def test_a_trainees_login_exports_their_own_attempts_only(tmp_path, klass):
    path = pushed(progress_file(tmp_path / "ws.db", {"Ana": 4, "Bo": 3}), klass)
    with Store.open(path) as store:
        ana = store.find_trainee("Ana")
    with klass.connect("instructor") as instructor:
        login = trainee_login(instructor, ana.uid, "ana-password")
    with klass.connect(login, "ana-password") as conn:
        mine = statements(server_lines(conn))
        with pytest.raises(UnknownTraineeError, match="no trainee named 'Bo'"):
            server_lines(conn, "Bo")  # not there, for her
    assert {s["actor"]["name"] for s in mine} == {"Ana"} and len(mine) == 4
    assert mine == file_statements(path, "Ana")


def test_two_workstations_trainees_of_one_name_are_ambiguous(tmp_path, klass):
    pushed(progress_file(tmp_path / "one.db", {"Ana": 2}), klass)
    pushed(progress_file(tmp_path / "two.db", {"Ana": 2}), klass)
    with klass.connect("instructor") as conn, pytest.raises(UnknownTraineeError, match="2 trainees"):
        server_lines(conn, "ana")


def test_export_results_from_the_class(tmp_path, klass):
    path = pushed(progress_file(tmp_path / "ws.db", {"Ana": 3, "Bo": 2}), klass)
    out = tmp_path / "class.json"
    url = klass.address("instructor").url
    done = run_command("export-results", "--class", url, "--format", "xapi", "--trainee", "Bo",
                       "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == file_statements(path, "Bo")
    done = run_command("export-results", "--class", klass.address("instructor", "wrong").url,
                       "--format", "csv")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "the class at" in done.stderr
    assert PASSWORD not in done.stderr  # the address is shown without its password
