"""One description of the shared tables' columns (trainer.progress.columns): the progress file's
migrated tables have exactly those columns, and the class server's tables were made from them
(tests/test_class_server.py and tests/test_class_server_migrations.py check the server's side on
a real server)."""

from __future__ import annotations

import pytest

from trainer.classes.server.tables import column_ddl, create_table
from trainer.progress.columns import ATTEMPT_SKILLS, ATTEMPTS, EXAM_SITTINGS, FINDINGS, TRAINEES
from trainer.progress.rows import ATTEMPT_COLUMNS
from trainer.progress.store import Store

TABLES = (TRAINEES, ATTEMPTS, FINDINGS, ATTEMPT_SKILLS, EXAM_SITTINGS)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_the_progress_files_tables_have_the_described_columns(tmp_path, table):
    with Store.open(tmp_path / "p.db") as store:
        info = [(r["name"], r["type"], bool(r["notnull"]) or bool(r["pk"]))
                for r in store.query(f"PRAGMA table_info({table.name})")]
    # a trainee's uid was added to the file by ALTER TABLE (m011), which cannot add NOT NULL: a
    # trigger gives every row one instead
    given_by_trigger = {("trainees", "uid")}
    described = [(c.name, c.sqlite_type, not c.null and (table.name, c.name) not in given_by_trigger)
                 for c in table.columns]
    # SQLite reports an INTEGER PRIMARY KEY (a key) and a TEXT PRIMARY KEY as nullable: pk counts
    assert [(n, t) for n, t, _ in info] == [(n, t) for n, t, _ in described]
    assert [must for *_, must in info] == [must for *_, must in described]


def test_the_attempts_row_is_written_from_the_description():
    assert tuple(c.name for c in ATTEMPTS.columns if c.kind != "key") == ATTEMPT_COLUMNS


def test_the_servers_tables_leave_the_workstations_secrets_behind():
    ddl = create_table(TRAINEES)
    assert "passphrase" not in ddl and "key_path" not in ddl and "public_key" not in ddl
    assert "uid text NOT NULL" in ddl and "UNIQUE (uid)" in ddl


@pytest.mark.parametrize(("column", "ddl"), [
    (ATTEMPTS.columns[0], "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"),
    (next(c for c in ATTEMPTS.columns if c.name == "total"),
     "total integer NOT NULL CHECK (total BETWEEN 0 AND 100)"),
    (next(c for c in ATTEMPTS.columns if c.name == "mode"),
     "mode text NOT NULL CHECK (mode IN ('practice', 'scenario', 'drill', 'payout-drill', 'exam'))"),
    (next(c for c in FINDINGS.columns if c.name == "actual"), "actual text CHECK (actual IS JSON)"),
    (next(c for c in ATTEMPTS.columns if c.name == "trainee_id"),
     "trainee_id bigint NOT NULL REFERENCES trainees (id)"),
])
def test_each_kind_of_column_has_its_type_and_check_on_the_server(column, ddl):
    assert column_ddl(column) == ddl
