"""The class server's migrations (trainer.progress.server.tables) against a snapshot of the schema
they make: a class migrated one step at a time from s001, as an older class is, is the class a
new one is today, and both are tests/data/class_server_schema.txt (tables, columns with their
types and defaults, constraints, indexes, triggers, policies, grants, sequences and each
function's definition, as PostgreSQL's catalog prints them).

When a migration is deliberately added, the snapshot is written again from a class made with
it, and the difference reviewed before it is committed:

    PYTHONPATH=. python -m tests.test_class_server_migrations

(it starts the packaged PostgreSQL, makes a class and writes the snapshot)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests import class_server_fixtures
from tests.class_server_support import Class, catalog, start_server
from trainer.progress.server import tables

server = class_server_fixtures.server  # the real PostgreSQL

SNAPSHOT = Path(__file__).parent / "data" / "class_server_schema.txt"
REGENERATE = "PYTHONPATH=. python -m tests.test_class_server_migrations"


def schema(klass: Class) -> list[str]:
    with klass.admin() as conn:
        return catalog(conn).splitlines()


def test_a_class_migrated_step_by_step_is_the_class_made_today(server):
    names = tables.known()
    older = Class(server, upto=names[0])
    for name in names[1:]:
        assert older.install(upto=name) == [name]
    assert older.install() == []  # a class already migrated: nothing runs again
    today = Class(server)
    assert schema(older) == schema(today)
    assert schema(today) == SNAPSHOT.read_text(encoding="utf-8").splitlines(), (
        f"the class server's schema is not {SNAPSHOT.name}: a migration added on purpose writes it "
        f"again ({REGENERATE}), and the difference is reviewed")


def write_snapshot() -> None:
    folder = Path(tempfile.mkdtemp(prefix="class-schema-"))
    running = start_server(folder / "class")
    try:
        with Class(running).admin() as conn:
            SNAPSHOT.write_text(catalog(conn), encoding="utf-8")
    finally:
        running.stop()
    print(f"wrote {SNAPSHOT}", file=sys.stderr)


if __name__ == "__main__":
    write_snapshot()
