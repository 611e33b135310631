"""One person, one trainee, on a real PostgreSQL (migration s022_one_person,
trainer.classes.server.people): Ana Ruiz practised at two workstations, so the class holds two
trainee ids of her name. With a login of her own, or once the instructor merged the two, the
class view, the transcript, the xAPI statements and `export-results --trainee` show one person.

The attacks are kept as tests too: a trainee's login, a workstation's and a supervisor's cannot
merge rows (nor change or remove a recorded merge), a workstation's login cannot claim a trainee's
identity by sending a row under her name, and a trainee's login cannot adopt a classmate's rows."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import (
    PASSWORD,
    attempt,
    made_under_login,
    progress_file,
    push_all,
    settled_hers,
)
from tests.support.command import run_command, run_here
from tests.support.progress import trainee_uid
from trainer.classes import ClassServerError
from trainer.classes.server.logins import class_login, enrol_workstation
from trainer.classes.server.people import merge, merges, part
from trainer.classes.workstation.classview import attempts_of, class_activity, server_class_overview
from trainer.classes.workstation.connection import ClassConnection
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.results import server_lines
from trainer.progress import Store
from trainer.progress.handoff import Certified, statements


@pytest.fixture
def two_workstations(tmp_path, klass):
    """Ana Ruiz (3 attempts) and Bo (1) at Table 1, enrolled; then Ana was given a login of her
    own, and practised at Table 2 (2 attempts) on a profile made before it, which the instructor
    settled hers (settled_hers), sent with her login. Her two trainee ids."""
    with klass.connect("instructor") as instructor:
        table_1 = enrol_workstation(instructor, "Table 1", "table-1-password")
        table_2 = enrol_workstation(instructor, "Table 2", "table-2-password")
    first = progress_file(tmp_path / "table-1.sqlite", {"Ana Ruiz": 3, "Bo": 1})
    assert push_all(first, klass, address=klass.address(table_1, "table-1-password")) == 4
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    second = progress_file(tmp_path / "table-2.sqlite", {"Ana Ruiz": 2}, start=3)
    settled_hers(klass, second, "Ana Ruiz", ana, "ana-password")
    assert push_all(second, klass, address=klass.address(ana, "ana-password")) == 2
    ids = (trainee_uid(first, "Ana Ruiz"), trainee_uid(second, "Ana Ruiz"))
    assert ids[0] != ids[1]
    return {"ana": ana, "table 1": table_1, "table 2": table_2, "ana ids": ids,
            "bo": trainee_uid(first, "Bo"), "files": (first, second)}


def names_in_view(conn) -> list[str]:
    return [t.name for t in server_class_overview(conn).trainees]


def test_a_trainee_with_a_login_is_one_row_one_actor_one_transcript(klass, two_workstations):
    with klass.connect("instructor") as instructor:
        assert instructor.execute("SELECT count(*) FROM trainees WHERE name = 'Ana Ruiz'").fetchone()[0] == 2
        overview = server_class_overview(instructor)
        assert [t.name for t in overview.trainees] == ["Ana Ruiz", "Bo"]
        ana = overview.trainees[0]
        assert ana.uid == two_workstations["ana ids"][0]  # the id she was first known by
        assert len(attempts_of(instructor, ana.id)) == 5  # from both workstations
        assert sorted(w.name for w in class_activity(instructor, recent=1e12).working) == ["Ana Ruiz", "Bo"]
        lines = server_lines(instructor)
    actors = {json.dumps(s["actor"], sort_keys=True) for s in statements(lines)}
    assert len(actors) == 2  # Ana and Bo
    ana_actors = {s["actor"]["account"]["name"] for s in statements(lines)
                  if s["actor"]["name"] == "Ana Ruiz"}
    assert ana_actors == {two_workstations["ana ids"][0]}


def test_export_results_for_her_with_her_own_login(klass, two_workstations):
    own = klass.address(two_workstations["ana"], "ana-password").url
    done = run_command("export-results", "--class", own, "--format", "csv", "--trainee", "Ana Ruiz")
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert len(rows) == 1 + 5, rows
    done = run_here("export-results", "--class", own, "--format", "xapi", "--trainee", "Ana Ruiz")
    assert done.returncode == 0, done.stderr
    actors = {s["actor"]["account"]["name"] for s in json.loads(done.stdout)}
    assert actors == {two_workstations["ana ids"][0]}
    with klass.connect(two_workstations["ana"], "ana-password") as conn:  # her login reads her only
        assert names_in_view(conn) == ["Ana Ruiz"]


def test_an_instructor_merges_two_rows_and_parts_them_again(tmp_path, klass):
    """Dee is "Dee" at one workstation and "Dee Park" at another: two rows until the instructor
    merges them, one after, two again after the merge is undone; each step a recorded row."""
    first = progress_file(tmp_path / "a.sqlite", {"Dee": 2})
    second = progress_file(tmp_path / "b.sqlite", {"Dee Park": 1})
    push_all(first, klass)
    push_all(second, klass)
    dee, park = trainee_uid(first, "Dee"), trainee_uid(second, "Dee Park")
    url = klass.address("instructor").url
    with klass.connect("instructor") as instructor:
        assert names_in_view(instructor) == ["Dee", "Dee Park"]
        done = run_command("merge-trainees", dee, park, "--class", url)
        assert done.returncode == 0, done.stderr
        assert "one person" in done.stdout
        assert names_in_view(instructor) == ["Dee"]
        accounts: dict[str, str] = {}
        lines = server_lines(instructor, "Dee", accounts=accounts)
        assert len(lines) == 3 and {line.trainee.uid for line in lines} == {dee}
        # a certificate under the other name is the same actor (its name stays as it was signed)
        exam = Certified("Dee Park", "r" * 32, "Check ride", "form-1", 1.7e9, "passed", True, 90,
                         "Instructor Lee", "ab12", "CODE")
        said = statements(lines, certified=[exam], accounts=accounts)
        assert {s["actor"]["account"]["name"] for s in said} == {dee}
        assert [s["actor"]["name"] for s in said if "/exams/" in s["object"]["id"]] == ["Dee Park"]
        again = run_here("merge-trainees", dee, park, "--class", url)
        assert again.returncode == 2 and "merged already" in again.stderr, again.stderr
        assert "Traceback" not in again.stderr
        done = run_here("merge-trainees", "--part", park, dee, "--class", url)
        assert done.returncode == 0, done.stderr
        assert names_in_view(instructor) == ["Dee", "Dee Park"]
        record = merges(instructor)
        assert [(m.event, m.by) for m in record] == [("merged", "instructor"), ("parted", "instructor")]
        assert {(m.uid, m.other_uid) for m in record} == {tuple(sorted((dee, park)))}
        with pytest.raises(ClassServerError, match="not merged"):
            part(instructor, dee, park)
        with pytest.raises(ClassServerError, match="no trainee"):
            merge(instructor, dee, "f" * 32)


def test_only_the_instructor_merges(tmp_path, klass, two_workstations):
    """A trainee's login merging a classmate's rows into hers, a workstation's login and a
    supervisor's: each refused, nothing recorded; the record is never changed nor removed."""
    ana, bo = two_workstations["ana ids"][0], two_workstations["bo"]
    logins = [(two_workstations["ana"], "ana-password"), (two_workstations["table 1"], "table-1-password"),
              ("workstation", PASSWORD), ("supervisor", PASSWORD)]
    for login in logins:
        with klass.connect(*login) as conn:
            with pytest.raises(ClassServerError, match="only an instructor's login"):
                merge(conn, ana, bo)
            with pytest.raises(psycopg.errors.InsufficientPrivilege):  # not even the function itself
                conn.execute("SELECT record_trainee_merge(%s, %s, 'merged')", (ana, bo))
    assert klass.count("trainee_merges") == 0
    with klass.connect("instructor") as instructor:
        merge(instructor, ana, bo)
    with klass.connect(two_workstations["ana"], "ana-password") as conn:
        assert names_in_view(conn) == ["Ana Ruiz"]  # Bo's rows stay out of her login's reach
    with klass.admin() as owner:
        for statement in ("UPDATE trainee_merges SET event = 'parted'", "DELETE FROM trainee_merges",
                          "TRUNCATE trainee_merges"):
            with pytest.raises(psycopg.Error, match="append-only"):
                owner.execute(statement)
    assert klass.count("trainee_merges") == 1


def test_no_login_claims_a_trainee_s_identity(tmp_path, klass, two_workstations):
    """A workstation's login sends a new trainee row of Ana's name (a profile "Ana Ruiz" made on
    it): refused, so it never becomes her; and her own login sends no row of another name, so
    she cannot adopt a classmate's rows as hers."""
    before = klass.count("trainees")
    table_2 = klass.address(two_workstations["table 2"], "table-2-password")
    forged = progress_file(tmp_path / "forged.sqlite", {"Ana Ruiz": 1, "Cy": 1}, start=20)
    assert push_all(forged, klass, address=table_2) == 1  # Cy's
    with contextlib.closing(Queue(forged)) as queue, klass.connect("instructor") as instructor:
        refused = queue.refused(instructor.execute("SELECT uid FROM class_info").fetchone()[0])
        assert len(refused) == 1 and "Ana Ruiz has a login of their own" in refused[0][1]
        assert names_in_view(instructor) == ["Ana Ruiz", "Bo", "Cy"]
    assert klass.count("trainees") == before + 1  # Cy only
    with contextlib.closing(Queue(two_workstations["files"][1])) as queue:
        _, batch = queue.batch("any class", 1)  # one of her own attempts, as her file holds it
    attempt = {**batch["attempts"][0], "trainee_uid": two_workstations["bo"], "uid": "adopted".ljust(32, "0")}
    with klass.connect(two_workstations["ana"], "ana-password") as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own"), conn.transaction():
        conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [], "attempts": [attempt]}),))


def test_her_practice_set_aside_at_a_shared_workstation_is_sent_with_her_own_login(tmp_path, klass,
                                                                                   two_workstations):
    """Ana practised at the shared workstation after she had a login, on a profile made under it
    (made_under_login: New trainee… with her password): the workstation's login may not send
    it, so it was set aside. She sends those rows with her own login; the one the class refuses
    for what it holds (too long a log) stays set aside, with why."""
    from trainer.classes import ClassServerError, LoginRefusedError

    shared = made_under_login(tmp_path / "shared.sqlite", klass, "Ana Ruiz", two_workstations["ana"],
                              "ana-password", 2, start=40)
    with Store.open(shared) as store:  # her third: a log longer than the class keeps
        store.record_attempt(attempt(store.find_trainee("Ana Ruiz").id, 42,
                                     log=({"do": "pay", "round": 1, "at": 1.0},) * 2001))
    assert push_all(shared, klass) == 0
    station = ClassConnection(str(shared), klass.address())  # the app's, not started
    assert len(station.refused_attempts()) == 3
    before = klass.count()
    with pytest.raises(LoginRefusedError, match="refuses the password"):
        station.send_set_aside("Ana Ruiz", "not her password")
    with pytest.raises(ClassServerError, match="no login of their own"):
        station.send_set_aside("Dee", "ana-password")
    assert klass.count() == before
    assert station.send_set_aside("Ana Ruiz", "ana-password") == (2, 1)
    assert klass.count() == before + 2
    assert len(station.refused_attempts()) == 1  # the long log's alone is left, with its first reason
    assert "its log is 2001 actions" in station.refused_attempts()[0][1]
    assert station.send_set_aside("Ana Ruiz", "ana-password") == (0, 1)  # nothing sent twice
    with klass.connect("instructor") as instructor:
        ana = server_class_overview(instructor).trainees[0]
        assert ana.name == "Ana Ruiz" and len(attempts_of(instructor, ana.id)) == 7
    station.close()


def test_a_class_before_s022_reads_as_before_and_says_it_keeps_no_merges(tmp_path, server):
    """An instructor's app on a class server not yet brought up to date: the view and the export
    read each row as its own person (a login's name grouped as always), and a merge says why not."""
    from tests.support.class_server import Class

    older = Class(server, upto="s021_bounded_logs")
    first = progress_file(tmp_path / "a.sqlite", {"Dee": 1})
    second = progress_file(tmp_path / "b.sqlite", {"Dee Park": 1})
    push_all(first, older)
    push_all(second, older)
    with older.connect("instructor") as instructor:
        assert names_in_view(instructor) == ["Dee", "Dee Park"]
        assert len(server_lines(instructor)) == 2 and merges(instructor) == []
        with pytest.raises(ClassServerError, match="keeps no merges yet"):
            merge(instructor, trainee_uid(first, "Dee"), trainee_uid(second, "Dee Park"))


# --------------------------------------------------------------------------- her class id (s029)
def test_a_second_workstation_makes_her_profile_under_her_class_id(tmp_path, klass, joined):
    """Ana Ruiz practised at Table 1 (the shared login), then was given a login of her own. At
    Table 2 her password proves the login, and the class answers the trainee id it knows her by:
    her profile there is made under it, so what she works there reaches the class under that one
    id (sent with her login, as s018 wants), her local Progress and the class view agree, and
    the class holds one trainee id of her name, not two for the server to group."""
    from trainer.classes import LoginRefusedError

    first = progress_file(tmp_path / "table-1.sqlite", {"Ana Ruiz": 3, "Bo Chen": 1})
    assert push_all(first, klass) == 4
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana Ruiz", "ana-password")
    hers = trainee_uid(first, "Ana Ruiz")
    table_2 = joined("workstation")
    with pytest.raises(LoginRefusedError):
        table_2.class_identity("Ana Ruiz", "not-her-password")
    assert table_2.class_identity("Bo Chen", "any-password") is None  # no login: a profile of its own
    assert table_2.class_identity("Ana Ruiz", "ana-password") == (hers, None)  # held: no salt

    second = tmp_path / "table-2.sqlite"
    with Store.open(second) as store:
        ana = store.add_trainee("Ana Ruiz", uid=hers)
        for n in range(10, 12):
            store.record_attempt(attempt(ana, n))
        assert store.trainee(ana).uid == hers
    assert push_all(second, klass) == 0  # the workstation's login sends none of hers: set aside
    ws = ClassConnection(str(second), klass.address())
    try:
        assert ws.send_set_aside("Ana Ruiz", "ana-password") == (2, 0)
    finally:
        ws.close()
    with klass.admin() as admin:
        assert admin.execute("SELECT uid FROM trainees WHERE name = 'Ana Ruiz'").fetchall() == [(hers,)]
        assert admin.execute("SELECT count(*) FROM attempts a JOIN trainees t ON t.id = a.trainee_id "
                             "WHERE t.uid = %s", (hers,)).fetchone()[0] == 5
    with klass.connect("instructor") as conn:
        assert names_in_view(conn) == ["Ana Ruiz", "Bo Chen"]


def test_no_trainee_gets_a_classmates_class_id(tmp_path, klass, joined):
    """Tom, with a login of his own, tries for Ana's id: her name with his password is refused,
    his own login is told his id only, and a workstation's login or the staff's is told none;
    a profile made under her id by editing the file gets him nothing either (s018)."""
    from trainer.classes import LoginRefusedError

    assert push_all(progress_file(tmp_path / "t1.sqlite", {"Ana Ruiz": 1, "Tom Reyes": 1}), klass) == 2
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana Ruiz", "ana-password")
        tom = class_login(instructor, "Tom Reyes", "tom-password")
    with klass.admin() as admin:
        ids = dict(admin.execute("SELECT name, uid FROM trainees").fetchall())
    with pytest.raises(LoginRefusedError):
        joined("workstation").class_identity("Ana Ruiz", "tom-password")
    with klass.connect(tom, "tom-password") as conn:
        assert conn.execute("SELECT login_trainee_uid()").fetchone()[0] == ids["Tom Reyes"]
    for login in ("workstation", "instructor", "supervisor"):
        with klass.connect(login) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT login_trainee_uid()")
    forged = tmp_path / "forged.sqlite"
    with Store.open(forged) as store:
        fake = store.add_trainee("Tom Reyes 2", uid=ids["Ana Ruiz"])
        store.record_attempt(attempt(fake, 40))
    with contextlib.suppress(psycopg.Error):
        push_all(forged, klass, address=klass.address(tom, "tom-password"))
    with klass.admin() as admin:
        assert admin.execute("SELECT count(*) FROM attempts a JOIN trainees t ON t.id = a.trainee_id "
                             "WHERE t.uid = %s", (ids["Ana Ruiz"],)).fetchone()[0] == 1


def test_her_class_id_is_her_persons_first_row_after_a_merge(tmp_path, klass, joined):
    """Before her login, the instructor merged Ana's row with an older one of another spelling
    ("Ana R.", from another workstation): the class view shows her under that older row, and so
    her class id is that row's, as people() groups them."""
    from trainer.classes.server.people import people

    assert push_all(progress_file(tmp_path / "old.sqlite", {"Ana R.": 1}), klass) == 1
    with klass.connect("instructor") as instructor:
        table = enrol_workstation(instructor, "Table 1", "table-1-password")
    assert push_all(progress_file(tmp_path / "t1.sqlite", {"Ana Ruiz": 1}), klass,
                    address=klass.address(table, "table-1-password")) == 1
    with klass.admin() as admin:
        ids = dict(admin.execute("SELECT name, uid FROM trainees").fetchall())
    with klass.connect("instructor") as instructor:
        merge(instructor, ids["Ana Ruiz"], ids["Ana R."])
        class_login(instructor, "Ana Ruiz", "ana-password")
        grouped = people(instructor)
        rows = dict(instructor.execute("SELECT id, uid FROM trainees").fetchall())
    first = {rows[p] for p in grouped.values() if rows[p] in ids.values()}
    assert first == {ids["Ana R."]}
    assert joined("workstation").class_identity("Ana Ruiz", "ana-password").uid == ids["Ana R."]
