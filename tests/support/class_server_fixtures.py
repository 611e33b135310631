"""The class server's fixtures, for every test that needs a real PostgreSQL: `server`, one for the
whole run (the packaged server on the loopback address), `klass`, a class database of its own
per test, and `joined`, ClassConnections to it as the app holds them. Loaded once, as a plugin,
by tests/conftest.py: a test takes them by name, and every test shares the one server.

`own_server` is a server of the test's own, for a test that freezes it.

The class databases a test made are dropped after it, so the server holds only the running
test's: a crash's recovery and each checkpoint sync the files of a few databases, not of every
class made since the run began."""

from __future__ import annotations

import contextlib
import shutil

import psycopg
import pytest

from tests.support import class_server
from tests.support.class_server import Class, alive, server_folder, start_server
from trainer.classes.workstation.connection import ClassConnection
from trainer.progress import Store


@pytest.fixture(scope="session")
def server():
    # a folder of its own, not under pytest's: as root the server runs as its own user, who must
    # reach its files, and any other pytest run of the same user (a second checkout's, say) takes
    # that permission off pytest's folders when it starts, so the server stops with a PANIC
    folder = server_folder("dealer-trainer-class-")
    server = start_server(folder / "class", quick=True)
    class_server.keep_admin(server)
    yield server
    class_server.let_go(server)
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def own_server(open_folder):
    """A class server of the test's own, for a test that freezes or crashes it: the run's other
    tests never meet it."""
    server = start_server(open_folder / "class", quick=True)
    yield server
    server.crash()  # nothing of it is kept


@pytest.fixture
def klass(server):
    if not alive(server):  # a test that crashed it and failed before starting it again
        server.start()
    return Class(server)


@pytest.fixture
def joined(tmp_path, klass):
    """`joined(login)`: a ClassConnection to the test's class with that login (as the app holds
    one), closed after the test; `joined.seat(name)`: one joined with the login of the enrolled
    workstation `name` (Class.seat), as a workstation that sits exams is (s040)."""
    made = []

    def join(login: str = "workstation", address=None) -> ClassConnection:
        queue = tmp_path / f"queue-{len(made)}.sqlite"
        Store.open(queue).close()
        conn = ClassConnection(str(queue), address or klass.address(login))
        made.append(conn)
        return conn

    def seat(name: str = "Table 1") -> ClassConnection:
        return join(klass.seat(name))

    join.seat = seat  # type: ignore[attr-defined]
    yield join
    for conn in made:
        conn.close()


@pytest.fixture(autouse=True)
def _drop_classes():
    """Drop the class databases the test made (with `klass` or Class(server)), once it is over."""
    yield
    while class_server.made:
        made = class_server.made.pop()
        with contextlib.suppress(psycopg.OperationalError):  # down: a test crashed it, and failed
            made.drop()


@pytest.fixture
def open_folder():
    """A folder everyone may enter (pytest's own are its owner's only), for a class server the
    test starts itself: as root, PostgreSQL runs as its own user, who must reach it."""
    folder = server_folder("dealer-trainer-")
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
