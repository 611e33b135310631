"""The class server's own logs never fill its folder and are its owner's only: the look every
few seconds at whether PostgreSQL runs is not logged (it was 13 MB a day), and the commands' log
is set aside once it passes its size (trainer.classes.server.postgres). PostgreSQL's programs are
stood in for by a script that says as much as they do, so no server is needed."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from trainer.classes.server import postgres
from trainer.classes.server.postgres import Postgres

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in programs are shell scripts")

SAYS = "pg_ctl: server is running (PID: 4242)\n/usr/lib/postgresql/16/bin/postgres \"-D\" \"pgdata\"\n"


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A class server whose programs (pg_ctl, initdb) print what pg_ctl status prints."""
    programs = tmp_path / "bin"
    programs.mkdir()
    for name in ("pg_ctl", "initdb"):
        script = programs / name
        script.write_text(f"#!/bin/sh\nprintf '%s' '{SAYS}'\nexit 0\n", encoding="ascii")
        script.chmod(0o755)
    monkeypatch.setattr(Postgres, "_programs", lambda self: programs)
    monkeypatch.setattr(postgres, "as_root", lambda: False)
    return Postgres(tmp_path / "class")


def test_asking_whether_the_server_runs_is_not_logged(server):
    for _ in range(50):  # 100 seconds of a class at one look every 2 s
        assert server.running
    log = server.folder / "commands.log"
    assert not log.exists() or log.stat().st_size == 0


def test_the_commands_log_is_set_aside_at_its_size_and_is_the_owners_only(server, monkeypatch):
    monkeypatch.setattr(postgres, "LOG_KEPT", 10 * len(SAYS))
    for _ in range(45):
        assert server._run("initdb") == 0
    log, before = server.folder / "commands.log", server.folder / "commands.log.1"
    assert log.exists() and before.exists()
    for path in (log, before):
        assert path.stat().st_size <= 11 * len(SAYS), path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert sorted(os.listdir(server.folder)) == ["commands.log", "commands.log.1"]
    assert log.read_text(encoding="ascii").endswith(SAYS)  # the newest output is kept
