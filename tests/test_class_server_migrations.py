"""The class server's migrations (trainer.classes.server.tables) are frozen:

- each released migration sends the server the SQL it sent when it was released: `RELEASED`
  holds a digest of it, and a migration edited since fails here; none sends SQL made from
  today's column descriptions;
- a class migrated one step at a time from s001, as an older class is, is the class a new one
  is today, and both are tests/data/class_server_schema.txt (tables, columns with their types
  and defaults, constraints, indexes, triggers, policies, grants, sequences and each function's
  definition, as PostgreSQL's catalog prints them);
- every shared column of trainer.progress.columns, which a workstation pushes, is a column of
  the server's table and written by push_attempts: a column added to the file's shared columns
  with no migration giving it to the server fails here;
- `row_level_security` writes, for a new migration, the block the released ones wrote out.

When a migration is deliberately added (a new file under trainer/classes/server/migrations and
a function that runs it):

1. its digest goes into `RELEASED` (the test names the migration and its digest);
2. the snapshot is written again from a class made with it, and the difference reviewed
   before it is committed:

       PYTHONPATH=. python -m tests.test_class_server_migrations

   (it starts the packaged PostgreSQL, makes a class, writes the snapshot and prints every
   migration's digest).

Once released, neither the migration's file nor its digest ever changes."""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import re
import sys
import tempfile
import unicodedata
from importlib import resources
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import Class, catalog, progress_file, start_server
from trainer.classes.server import tables
from trainer.classes.workstation.queue import Queue
from trainer.progress import columns
from trainer.progress.columns import ATTEMPT_TABLES, EXAM_SITTINGS

SNAPSHOT = Path(__file__).parent / "data" / "class_server_schema.txt"
REGENERATE = "PYTHONPATH=. python -m tests.test_class_server_migrations"

#: each released migration's digest and name, in their order: the sha256 of the SQL it sends
#: (`sent`; as each sends its file as one query, `sha256sum` of its file gives it too)
RELEASED = dict(reversed(line.split()) for line in """
5b547a813ef0f0bad6a2382dcc441ad3fcf14567cd7ba9dfd65dc3d815490149  s001_attempts
01cfd4439dda9eeede04f785edda66731aa8b883fca611f1a294e31395aa2e30  s002_exam_ledger
478108f8d6460b96f3fb7bc1e0d85a63cec71fd2ce08b8de51b8f1de518a903d  s003_trainee_logins
ed014064658162fad843a6b7b30150cc5d2a3e9b4575364ad052321bfa36800d  s004_exam_ledger_for_workstations
0851c7519836fba568428eac5e0ddfdd28a4b0b6811060283abae7d15e9d9538  s005_class_view_indexes
505d6caa86d6b9dee5e26c769a95723f975e05e4f1367e2477e487a0cf138442  s006_exam_starts_bound_to_trainee_logins
2d3a9f6075e340e27e5d37cd55216e7014eedef99e39f132689beef6eddcecfd  s007_exam_forms_given
794ee6f6a205227de30a00ba6cc9ee53dc78c1be8543c2dad7031c5bc4cdd068  s008_trainee_logins_by_name
4527eac1514dc4b1f4cc55542392f38a13e9f39e2ce69c9f3ffc7baed51a2ee2  s009_pass_rule
458a4857463b75304671cce23593a884652160367938a37f960e205eb7423d4a  s012_proven_sitting_streams
65b99898ed5bc7f60f82c7d4a7e1429063f5dc19cb78f9c0b008edc30919acbb  s011_no_login_stops_the_class
7924fa26f10edf50fa438fe2c2cbf18243d0518e097c18052412da3513269d9b  s010_checked_pushes_and_retractions
3d3958ef99257dc39f945135891b3fad76b18e9e9f90f9c7af2320f949a69ff1  s013_shared_workstation_login_closed
5218028f315df38ea5158ae58c29364e23bc13f5bbe55e0404e328f414145bba  s014_late_answers_marked
912a2914c44a930bd5f91f061a8df9c02b7a041dc92085465ce1a7bfc0302e77  s016_class_limits
c4517b9b9b93e366660f3e1f4e883fd0a517601eefbf81cad9c928b3cc098ecb  s015_abandoned_sittings
395773b06cee4490e799ef10e1b1e9cb559a0cd50fe9a874d2a3c97fe9ee506e  s018_rows_for_their_trainee
40baa53d7637e16c15fa3b798e9c67bbf2957c2145c53e634d3da411b2ee5bd8  s019_sittings_voided
8d3b391d66e9eee1ac0521162b31a9b7704c4f6a1a9daeeff573adbf1a5f58d1  s017_confusable_names
2281b936b661c33114137f1ae48987fee9f806e7fec41c8b72ec94d83b12c07b  s021_bounded_logs
73fec09330f57785e38df7245a5b4c294bebccfb930b01d5176a56e7ca7e84bb  s022_one_person
9e2f01171b382f62eb4e813c8541084368b3f4ce6d792f12590e6e93ec002df4  s023_class_guard
f736e8617f6946c06c424b8eca8e233bc55a2cf9b9b093c957ad5bd883f9d045  s024_class_setup
e728f67c7002e943b7f9b830af83f2c06b2dc18e4fe0cf57d148d58352223dd1  s026_class_breaks
1dffe1b3deff838813812e784cbf688a0d51c5fa9aa918e70cdf3e1cda4797a6  s027_seal_share
933507df75d9f8df8afe8e7503ae6722abdb865da3ef05e4177feca76d45608c  s028_quota_total
61ac217397b42aa29be2fc94f63b58cda897eb3a622bf4ec11444e840231efc7  s029_login_identity
99dd77fe17eafc7a602150f42da4f5552fe8e0722e1afef1abbbdb2deebb56e5  s030_exam_answers_unmetered
4831decd32cffbb969401aae0fb4ad1ca818da0e687f05e71d0b9cc54f97a4e6  s031_exam_delivery_grace
370e7909cde02909bb525ac366edf1913ffc475c5d873d63181e53037e58d1b0  s032_login_claims
0aefbfd80a113d989e4c596be12863ef4b02e5c35eb8a0f61b14a57d238d3c40  s034_oversized_answer_kept
893bbb52191b61cf8ec24ac04685e59a05bbfd376104bd2f1c0b5cda21cf209f  s036_claims_settled
4ab54971cc023b53197ca1a3e2edf73265f6c73dd366ca1de7046d8d6d3c23ae  s037_supervised_rounds
164fc7e3e5dec6f1ee9f05240527e5f5473e9d07602576d57409f7706c7f10da  s038_replayed_refusals
406300641fc2b9084050a1463e20be7a9d09e2d1aad2aae061d141bb3e181eb0  s039_claims_proven
f3f043a5e81faf364f9587380bfa41899336e502d6560ec5756268121fcd0216  s040_no_exam_on_shared_login
db062bde79eb445866bc932b36af05450b264814474654f6e0e6673d504b23c6  s041_supervised_bounds
c3260caf5f830928be8fa29a4061b1981d0162c03a3f9be471ec15d0092ed6e4  s043_pushes_proven
8479a67cf71fce3cff160b6143237e6728ca9e781ecda8b57d255b19d0e96680  s044_supervised_claims_held
d30fb2e709a8020334e6ce4bfbf52493ae9ee67bb17a09b21c59fbd50841eca1  s045_one_push
""".strip().splitlines())


class Recorder:
    """A connection that keeps what it is sent, and runs nothing."""

    def __init__(self):
        self.sent: list[bytes] = []

    def execute(self, query, params=None):
        assert params is None, "a migration sends its SQL as it is, with no parameters"
        self.sent.append(query if isinstance(query, bytes) else str(query).encode())


def sent(migration) -> list[bytes]:
    """What a migration sends to the server."""
    conn = Recorder()
    migration(conn)
    return conn.sent


def digest(migration) -> str:
    return hashlib.sha256(b"\0".join(sent(migration))).hexdigest()


def schema(klass: Class) -> list[str]:
    with klass.admin() as conn:
        return catalog(conn).splitlines()


# --------------------------------------------------------------------------- frozen
def test_no_released_migration_is_edited():
    now = {fn.__name__: digest(fn) for fn in tables.MIGRATIONS}
    for name, released in RELEASED.items():
        assert name in now, f"{name} was released: a migration is never removed or renamed"
        assert now[name] == released, (
            f"{name} was released and is never edited: a change to the class server is a new migration")
    assert list(now)[:len(RELEASED)] == list(RELEASED), "the released migrations run in their order"
    new = {name: d for name, d in now.items() if name not in RELEASED}
    assert not new, (f"a new migration: add it to RELEASED ({new}) and write the schema's snapshot "
                     f"again ({REGENERATE})")


def test_each_file_is_run_by_the_migration_of_its_name():
    folder = resources.files("trainer.classes.server").joinpath("migrations")
    files = {f.name.removesuffix(".sql") for f in folder.iterdir() if f.name.endswith(".sql")}
    assert files <= set(tables.known()), "a file no migration runs"
    assert set(RELEASED) <= files, "a released migration runs its file"
    for fn in tables.MIGRATIONS:
        if fn.__name__ in files:
            assert tables.frozen_sql(fn.__name__).encode() in b"\0".join(sent(fn)), fn.__name__


def test_no_migration_is_made_from_todays_column_descriptions(monkeypatch):
    """A migration sends the same SQL whatever trainer.progress.columns says today: a column
    added there changes no migration (it needs a new one)."""
    before = {fn.__name__: sent(fn) for fn in tables.MIGRATIONS}
    for name in ("TRAINEES", "ATTEMPTS", "FINDINGS", "ATTEMPT_SKILLS", "EXAM_SITTINGS"):
        for module in (tables, columns):
            if hasattr(module, name):
                table = getattr(module, name)
                monkeypatch.setattr(module, name, dataclasses.replace(
                    table, columns=(*table.columns, columns.Column("added_later", "text"))))
    assert "added_later" in tables.push_function()  # the helpers do read them
    assert {fn.__name__: sent(fn) for fn in tables.MIGRATIONS} == before


@pytest.mark.parametrize(("migration", "table", "block"), [
    ("s001_attempts", "trainees", {"own": "login = current_user", "insert_only": False}),
    ("s001_attempts", "attempts", {"own": "trainee_id IN (SELECT id FROM trainees)", "insert_only": False}),
    ("s001_attempts", "findings", {"own": "attempt_id IN (SELECT id FROM attempts)", "insert_only": False}),
    ("s001_attempts", "attempt_skills", {"own": "trainee_id IN (SELECT id FROM trainees)",
                                         "insert_only": False}),
    ("s002_exam_ledger", "exam_sittings", {"insert": ("issue", "true")}),
    ("s002_exam_ledger", "exam_sitting_uses", {"insert": ("issue", "true")}),
    ("s004_exam_ledger_for_workstations", "exam_starts", {}),
    ("s004_exam_ledger_for_workstations", "exam_certificates", {}),
    ("s007_exam_forms_given", "exam_forms_given", {"insert": ("give", "given_by = session_user")}),
    ("s008_trainee_logins_by_name", "trainee_logins", {"own": "login = current_user"}),
    ("s011_no_login_stops_the_class", "workstation_logins", {}),
])
def test_the_row_level_security_block_is_the_one_the_frozen_migrations_wrote(migration, table, block):
    """row_level_security writes, for a new migration, the block five released migrations wrote
    out each time (s007 broke one line of it)."""
    def words(text: str) -> str:
        return " ".join(text.split())

    assert words(tables.row_level_security(table, **block)) in words(tables.frozen_sql(migration))


def test_a_new_table_under_the_row_level_security_block(klass):
    """The block on a real server, as a new migration would run it: the staff read every row, an
    instructor adds rows, a workstation reads none, and no role changes one."""
    with klass.admin() as admin:
        admin.execute("SET ROLE class_owner")
        admin.execute(("CREATE TABLE notes (login text NOT NULL, note text NOT NULL);\n"
                       + tables.row_level_security("notes", own="login = current_user",
                                                   insert=("add", "true"))).encode())
    with klass.connect("instructor") as instructor:
        instructor.execute("INSERT INTO notes VALUES ('trainee_x', 'steady hands')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            instructor.execute("DELETE FROM notes")  # granted no DELETE
    with klass.connect("supervisor") as supervisor:
        assert supervisor.execute("SELECT note FROM notes").fetchall() == [("steady hands",)]
    with klass.connect("workstation") as workstation, pytest.raises(psycopg.errors.InsufficientPrivilege):
        workstation.execute("SELECT note FROM notes")
    with klass.admin() as admin, pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
        admin.execute("UPDATE notes SET note = 'shaky'")


def code_ranges(pattern: str) -> list[tuple[int, int]]:
    """The ranges of code points of a bracket expression as not_in_names writes it."""
    found = re.findall(r"\\U([0-9A-F]{8})(?:-\\U([0-9A-F]{8}))?", pattern)
    return [(int(a, 16), int(b or a, 16)) for a, b in found]


def test_s008_refuses_every_character_clean_name_removes():
    """s008's set of characters is frozen as Unicode 14.0 gave it (trainer.classes.server.tables.
    not_in_names); every character this Python's clean_name removes is in it."""
    frozen = re.search(r"name !~ '(\[[^']*\])'", tables.frozen_sql("s008_trainee_logins_by_name")).group(1)
    here = tables.not_in_names()  # what clean_name removes, on this Python's Unicode
    if unicodedata.unidata_version == "14.0.0":
        assert frozen == here
    refused = code_ranges(frozen)
    starts = [a for a, _ in refused]
    kept = [f"U+{a:04X}-U+{b:04X}" for a, b in code_ranges(here)
            if refused[bisect.bisect_right(starts, a) - 1][1] < b or a < starts[0]]
    assert kept == [], (f"the class server takes characters clean_name removes on Unicode "
                        f"{unicodedata.unidata_version}: a migration gives it this Unicode's set")


# --------------------------------------------------------------------------- the schema
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


def test_every_column_a_workstation_pushes_is_a_column_of_the_server(tmp_path, unchanged_class):
    """The shared columns (trainer.progress.columns) are what a workstation pushes: each is a
    column of the server's table, read from the batch and written by push_attempts. A shared
    column added with no migration giving it to the server fails here. Since s018 the rows are
    written by s010's push, under push_attempts; since s045 it is part of `push_attempts_charged`,
    which push_attempts calls."""
    queue = Queue(progress_file(tmp_path / "ws.sqlite", {"Ana": 3}))  # attempt 0 has a finding
    try:
        _, batch = queue.batch("a class", 10)
    finally:
        queue.close()
    attempt = batch["attempts"][0]
    pushed = {"batch->'trainees'": set(batch["trainees"][0]), "batch->'attempts'": set(attempt),
              "a.findings": set(attempt["findings"][0])}
    with unchanged_class.admin() as conn:
        body = conn.execute("SELECT pg_get_functiondef('push_attempts_charged'::regproc)").fetchone()[0]
        for table in (*ATTEMPT_TABLES, EXAM_SITTINGS):
            columns = [r[0] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
                "AND table_name = %s ORDER BY ordinal_position", (table.name,))]
            server_only = ["login"] if table.name == "trainees" else []  # s001: a trainee's own login
            assert columns == [c.name for c in table.shared()] + server_only, table.name
    read: dict[str, set[str]] = {}
    for source, fields in re.findall(r"jsonb_to_recordset\(([^()]*)\) AS \w+ \(([^()]*)\)", body):
        read.setdefault(source, set()).update(f.split()[0] for f in fields.split(","))
    assert read == pushed, "push_attempts reads every field a workstation pushes, and no other"
    written = dict(re.findall(r"INSERT INTO (\w+) \(([^()]*)\)", body))
    for table in ATTEMPT_TABLES:
        assert written[table.name].split(", ") == [c.name for c in table.shared() if c.kind != "key"], (
            f"push_attempts writes every shared column of {table.name}")


def write_snapshot() -> None:
    folder = Path(tempfile.mkdtemp(prefix="class-schema-"))
    running = start_server(folder / "class")
    try:
        with Class(running).admin() as conn:
            SNAPSHOT.write_text(catalog(conn), encoding="utf-8")
    finally:
        running.stop()
    print(f"wrote {SNAPSHOT}", file=sys.stderr)
    print("RELEASED:")
    for fn in tables.MIGRATIONS:
        print(f"{digest(fn)}  {fn.__name__}")


if __name__ == "__main__":
    write_snapshot()
