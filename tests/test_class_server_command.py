"""`dealer-trainer class-server`: a real class server started and stopped by the command, and
every bad input refused in one line, with a non-zero exit and no traceback. `--class URL` is
checked the same way."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager

import psycopg
import pytest

from tests.support.class_server import free_port
from tests.support.command import run_here
from tests.support.paths import ROOT
from trainer import cli
from trainer.classes.errors import ClassServerError
from trainer.classes.server.postgres import Postgres
from trainer.classes.workstation.address import class_address
from trainer.exams.forms import bundled_forms


def class_server(*args: str, program: bool = False) -> subprocess.CompletedProcess:
    """`dealer-trainer class-server ARGS`: through the entry the program calls, in this process,
    for a refusal made before the server's code is reached, as the program makes it (the program
    itself runs in the first test here, and without pgserver in tests/test_portable.py); as the
    program (`program`) for one made once the server has started to serve, which sets the
    process's signal handlers."""
    if program:
        return subprocess.run([sys.executable, "-m", "trainer", "class-server", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
    handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
    done = run_here("class-server", *args)
    assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)] == handlers, (
        "the command reached the server's code in this process: run it as the program")
    return done


def refused(done: subprocess.CompletedProcess, message: str) -> None:
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()], "one line"
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_starts_a_class_server_workstations_can_join_and_stops_on_sigterm(open_folder):
    port = free_port()
    folder = open_folder / "class"
    with subprocess.Popen([sys.executable, "-m", "trainer", "class-server", "--data", str(folder),
                           "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, cwd=ROOT) as proc:
        lines = []
        try:
            while not lines or not lines[-1].startswith("Stop the server"):
                line = proc.stdout.readline()
                assert line, f"the command ended early: {proc.stderr.read()}"
                lines.append(line.strip())
            join = next(ln.split("--class ", 1)[1] for ln in lines if "dealer-trainer --class" in ln)
            address = class_address(join)
            assert (address.user, address.host, address.port) == ("workstation", "127.0.0.1", port)
            with psycopg.connect(address.url) as conn:
                assert conn.execute("SELECT uid FROM class_info").fetchone()[0]
            instructor = next(ln.split(": ", 1)[1] for ln in lines if ln.startswith("The instructor's"))
            with psycopg.connect(instructor) as conn:
                assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0
                given = conn.execute("SELECT form_uid, form_digest, attempts_allowed, given_by "
                                     "FROM exam_forms_given ORDER BY form_uid").fetchall()
            bundled = sorted((f.uid, f.digest, f.attempts_allowed, "class server") for f in bundled_forms())
            assert bundled and given == bundled  # the bundled exams start in the class as they are
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip().endswith("Class server stopped.")
    assert not Postgres(folder, port=port).running
    assert oct((folder / "logins.json").stat().st_mode & 0o777) == "0o600"


def test_a_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "class").write_text("not a folder")
    refused(class_server("--data", str(tmp_path / "class"), "--port", str(free_port())),
            "is a file, not a folder")


def test_a_folder_that_cannot_be_written_is_refused():
    refused(class_server("--data", "/sys/dealer-trainer-class", "--port", str(free_port())),
            "cannot write in the folder /sys/dealer-trainer-class")


@contextmanager
def as_nobody():
    """Root writes anywhere: the check is made as an ordinary user would be."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)


def test_a_read_only_folder_is_refused(open_folder):
    (open_folder / "locked").mkdir(mode=0o555)
    with as_nobody(), pytest.raises(ClassServerError) as e:
        Postgres(open_folder / "locked" / "class").check_folder()
    assert str(e.value) == f"cannot write in the folder {open_folder}/locked/class: Permission denied"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can be someone else here")
def test_a_folder_out_of_reach_is_refused(tmp_path):
    (tmp_path / "private").mkdir(mode=0o700)
    with as_nobody(), pytest.raises(ClassServerError, match="Permission denied"):
        Postgres(tmp_path / "private" / "class").check_folder()


def test_a_port_in_use_is_refused(open_folder):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused(class_server("--data", str(open_folder / "class"), "--port", str(port), program=True),
                f"port {port} on 127.0.0.1 is in use by another program: choose another with --port")
    assert not (open_folder / "class" / "pgdata" / "PG_VERSION").exists()


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_a_port_that_is_no_port_is_refused(tmp_path, port):
    refused(class_server("--data", str(tmp_path), "--port", port), "is not a port")


def test_a_folder_of_something_else_is_refused(tmp_path):
    (tmp_path / "class" / "pgdata").mkdir(parents=True)
    (tmp_path / "class" / "pgdata" / "notes.txt").write_text("mine")
    refused(class_server("--data", str(tmp_path / "class"), "--port", str(free_port())),
            "holds files that are not a PostgreSQL cluster")


@pytest.mark.parametrize(("url", "problem"), [
    ("http://workstation:pw@host:5432/dealer_class", "does not start with postgresql://"),
    ("postgresql://workstation:pw@:5432/dealer_class", "names no server"),
    ("postgresql://host:5432/dealer_class", "names no user"),
    ("postgresql://workstation:pw@host:5432/", "names no database"),
    ("postgresql://workstation:pw@host:99999/dealer_class", "is not a postgresql:// address"),
])
def test_a_bad_class_address_is_refused_in_one_line(capsys, url, problem):
    parser = cli._Parser(prog="dealer-trainer")
    cli.class_option(parser)
    with pytest.raises(SystemExit) as e:
        parser.parse_args(["--class", url])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert problem in err and err.count("\n") == 1


def test_a_good_class_address_is_kept_and_shown_without_its_password():
    parser = argparse.ArgumentParser()
    cli.class_option(parser)
    address = parser.parse_args(["--class", "postgresql://workstation:s3cret@10.0.0.5/dealer_class"]).class_address
    assert (address.user, address.host, address.port, address.database) == \
        ("workstation", "10.0.0.5", 5432, "dealer_class")
    assert address.shown == "postgresql://workstation@10.0.0.5:5432/dealer_class"
    assert "s3cret" in address.url and "s3cret" not in address.shown
