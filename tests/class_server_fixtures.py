"""The class server's fixtures, for every test that needs a real PostgreSQL: `server`, one for the
whole session (the packaged server on the loopback address), and `klass`, a class database of
its own per test. A test module takes both as its own names:

    server, klass = class_server_fixtures.server, class_server_fixtures.klass"""

from __future__ import annotations

import pytest

from tests.class_server_support import Class, start_server


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
