"""The class server's fixtures, for every test that needs a real PostgreSQL: `server`, one for the
whole run (the packaged server on the loopback address), `klass`, a class database of its own
per test, and `joined`, ClassConnections to it as the app holds them. Loaded once, as a plugin,
by tests/conftest.py: a test takes them by name, and every test shares the one server."""

from __future__ import annotations

import pytest

from tests.support.class_server import Class, start_server
from trainer.progress import Store
from trainer.progress.server.connection import ClassConnection


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("class-server") / "class")
    yield server
    server.stop()


@pytest.fixture
def klass(server):
    if not server.running:  # a test that crashed it and failed before starting it again
        server.start()
    return Class(server)


@pytest.fixture
def joined(tmp_path, klass):
    """`joined(login)`: a ClassConnection to the test's class with that login (as the app holds
    one), closed after the test."""
    made = []

    def join(login: str = "workstation", address=None) -> ClassConnection:
        queue = tmp_path / f"queue-{len(made)}.sqlite"
        Store.open(queue).close()
        conn = ClassConnection(str(queue), address or klass.address(login))
        made.append(conn)
        return conn

    yield join
    for conn in made:
        conn.close()
