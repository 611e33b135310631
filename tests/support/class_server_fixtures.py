"""The class server's fixtures, for every test that needs a real PostgreSQL: `server`, one for the
whole run (the packaged server on the loopback address), `klass`, a class database of its own
per test, `unchanged_class`, one class for the run's tests that only read one, and `joined`,
ClassConnections to it as the app holds them. Loaded once, as a plugin,
by tests/conftest.py: a test takes them by name, and every test shares the one server.

`own_server` is a server of the test's own, for a test that freezes it.

The class databases a test made are dropped after it, so the server holds only the running
test's: a crash's recovery and each checkpoint sync the files of a few databases, not of every
class made since the run began."""

from __future__ import annotations

import contextlib
import os
import shutil

import psycopg
import pytest

from tests.support import class_server
from tests.support.class_server import Class, alive, server_folder, start_server
from tests.support.paths import run_folder
from trainer.classes.workstation.connection import ClassConnection
from trainer.progress import Store


@pytest.fixture(scope="session", autouse=True)
def _clusters_of_the_run(tmp_path_factory):
    """The database clusters a class server starts from, made once for the run in the folder its
    workers share (class_server.from_run), not once in each worker."""
    class_server.run = run_folder(tmp_path_factory)


def pytest_sessionfinish(session):
    """The run's clusters (class_server.from_run, 86 MB in memory) removed once the run is over,
    by the process that started it, after every worker has ended."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is not None and "PYTEST_XDIST_WORKER" not in os.environ:
        shutil.rmtree(factory.getbasetemp() / "class-clusters", ignore_errors=True)


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


@pytest.fixture(scope="session")
def _unchanged(server):
    klass = Class(server)
    class_server.made.remove(klass)  # kept for the run, not dropped after the test that made it
    yield klass
    with contextlib.suppress(psycopg.OperationalError):
        klass.drop()


@pytest.fixture
def unchanged_class(server, _unchanged):
    """A class made once for the run, for a test that only reads a class (its functions, its
    schema, its defaults, a connection it refuses), as `klass` would give it: each such test
    made and dropped a class of its own before, 24 ms of the server's CPU and 3 ms of the test's.
    The class is checked after each test (`as_made`): one that wrote a row, moved a sequence,
    changed the schema or a role, or planted a setting fails there, and takes `klass`."""
    if not alive(server):  # a test that crashed it and failed before starting it again
        server.start()
    before = as_made(_unchanged)
    yield _unchanged
    assert as_made(_unchanged) == before, "the test changed the class it only reads: it takes `klass`"


#: a class's own catalog rows, in every schema but PostgreSQL's own (its schemas, tables,
#: sequences and functions, with their grants, and the database's own: a change writes a new
#: version, with its xmin), each sequence's last value (moved by an insert rolled back too), the
#: server's roles (one made, a password or a right changed), and the settings given to logins,
#: in this database or in every one, with their values
AS_MADE = """
    WITH ours AS (SELECT oid FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'pg_toast',
                  'information_schema') AND NOT starts_with(nspname, 'pg_temp_')
                  AND NOT starts_with(nspname, 'pg_toast_temp_'))
    SELECT (SELECT string_agg(oid || ':' || xmin, ',' ORDER BY oid) FROM pg_namespace
            WHERE oid IN (SELECT oid FROM ours)),
           (SELECT string_agg(oid || ':' || xmin, ',' ORDER BY oid) FROM pg_class
            WHERE relnamespace IN (SELECT oid FROM ours)),
           (SELECT string_agg(oid || ':' || xmin, ',' ORDER BY oid) FROM pg_proc
            WHERE pronamespace IN (SELECT oid FROM ours)),
           (SELECT string_agg(schemaname || '.' || sequencename || ':' ||
                              coalesce(last_value::text, '-'), ',' ORDER BY 1)
            FROM pg_sequences),
           (SELECT string_agg(oid || ':' || xmin, ',' ORDER BY oid) FROM pg_authid),
           (SELECT xmin::text FROM pg_database WHERE datname = current_database()),
           (SELECT string_agg(setrole || ':' || setdatabase || ':' ||
                              array_to_string(setconfig, ','), ';' ORDER BY setrole, setdatabase)
            FROM pg_db_role_setting WHERE setdatabase IN
                (0, (SELECT oid FROM pg_database WHERE datname = current_database())))"""


def as_made(klass: Class) -> tuple:
    """What a test that writes to the class changes: the rows of each of its tables (a digest of
    each), and AS_MADE."""
    names = [r[0] for r in klass.read("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
    rows = klass.read(" UNION ALL ".join(
        f"SELECT '{name}', md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM \"{name}\" t"
        for name in sorted(names)))
    return tuple(sorted(rows)) + tuple(klass.read(AS_MADE)[0])


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
