"""The class server's fixtures, for every test that needs a real PostgreSQL: `server`, one for the
whole session (the packaged server on the loopback address), `klass`, a class database of its
own per test, and `joined`, ClassConnections to it as the app holds them. A test module takes
them as its own names:

    server, klass = class_server_fixtures.server, class_server_fixtures.klass"""

from __future__ import annotations

import pytest

from tests.class_server_support import Class, start_server
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
