"""The live Class tab's reads (trainer.classes.workstation.classview.read_class) on a real
PostgreSQL: once the class is read, a read given the attempts announced since reads only their
people's rows and their items, and gives what a read of the whole class gives, at every step of a
class's life: results arriving (more than a skill's window of 20), new trainees, one person at two
workstations, a merge, a retraction. Each attempt is counted once, in the window of the last 20
by when it started, whichever read counted it."""

from __future__ import annotations

import pytest

from tests.support import class_server
from tests.support.class_server import T0, Class, progress_file, until
from tests.support.progress import trainee_uid
from trainer.classes.server.logins import class_login
from trainer.classes.server.people import merge
from trainer.classes.server.retractions import retract
from trainer.classes.workstation.classview import ClassReading, read_class
from trainer.classes.workstation.push import CONNECT
from trainer.procedure.model import Skill
from trainer.progress.classroom import Cell
from trainer.progress.store import Store

NOW = T0 + 60 * 50  # attempt n started at T0 + 60 n (tests.support.class_server.attempt)


def push_all(path, klass: Class) -> int:
    """A workstation's push (tests.support.class_server.push_all), once its session has left the
    server: a read counts the workstations connected, and a session the client closed lingers
    on the server for a moment, so two reads in a row could count it once and then not."""
    sent = class_server.push_all(path, klass)
    with klass.admin() as admin:
        until(lambda: not admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = %s", (CONNECT["application_name"],)).fetchone()[0],
            what="the workstation's session ended")
    return sent


class Arrivals:
    """The attempts the server announces: each attempt's server id, in the order added."""

    def __init__(self, klass: Class):
        self.klass, self.seen = klass, 0

    def new(self) -> list[int]:
        with self.klass.admin() as admin:
            ids = [r[0] for r in admin.execute("SELECT id FROM attempts WHERE id > %s ORDER BY id",
                                               (self.seen,))]
        self.seen = max(ids, default=self.seen)
        return ids


def read_on(conn, before: ClassReading, arrived, *, in_full: bool) -> ClassReading:
    """A read given what arrived: read in full or not as expected, and the whole class's read."""
    after = read_class(conn, before, arrived, now=NOW)
    whole = read_class(conn, now=NOW)
    assert after.full is in_full, "read in full" if after.full else "read only what arrived"
    assert whole.full and whole.changed is None
    assert after.overview == whole.overview
    assert after.activity == whole.activity
    return after


def window(ns: list[int]) -> Cell:
    """The payouts cell of attempts numbered `ns`: the last 20 by start, right unless n % 3 == 0
    (tests.support.class_server.attempt misses a payout then)."""
    last = sorted(ns)[-20:]
    return Cell(len(last), sum(1 for n in last if n % 3))


def row(reading: ClassReading, name: str) -> int:
    [tid] = [t.id for t in reading.overview.trainees if t.name == name]
    return tid


def test_a_read_of_what_arrived_is_the_read_of_the_whole_class(tmp_path, klass):
    arrivals = Arrivals(klass)
    table_1 = progress_file(tmp_path / "table-1.sqlite", {"Ana": 10, "Bo": 3})
    push_all(table_1, klass)
    arrivals.new()
    with klass.connect("instructor") as conn:
        reading = read_class(conn, now=NOW)
        assert reading.full and [t.name for t in reading.overview.trainees] == ["Ana", "Bo"]
        ana = row(reading, "Ana")

        # fifteen more of Ana's: her row alone is read again, and her window slides to the last 20
        progress_file(table_1, {"Ana": 15}, start=10)
        push_all(table_1, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=False)
        assert reading.changed == {ana}
        assert reading.overview.cells[ana, Skill.PAYOUTS] == window(list(range(25))) == Cell(20, 13)
        assert reading.overview.cells[ana, Skill.CALLS] == Cell(20, 20)

        # a new trainee arrives: the class is read in full
        progress_file(table_1, {"Bo": 3, "Cy": 2}, start=3)
        push_all(table_1, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=True)
        assert [t.name for t in reading.overview.trainees] == ["Ana", "Bo", "Cy"]

        # Ana at a second workstation: another trainee row, then more of her results there
        table_2 = progress_file(tmp_path / "table-2.sqlite", {"Ana": 3}, start=25)
        push_all(table_2, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=True)
        [ana_1, ana_2] = [t.id for t in reading.overview.trainees if t.name.startswith("Ana (trainee id ")]
        progress_file(table_2, {"Ana": 2}, start=28)
        push_all(table_2, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=False)
        assert reading.changed == {ana_2}
        assert reading.overview.cells[ana_2, Skill.CALLS] == Cell(5, 5)

        # the instructor merges the two: one person, whose window takes both rows' last results
        with Store.open(table_1) as one, Store.open(table_2) as two:
            merge(conn, one.find_trainee("Ana").uid, two.find_trainee("Ana").uid)
        progress_file(table_1, {"Ana": 2}, start=30)
        push_all(table_1, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=True)
        assert [t.name for t in reading.overview.trainees] == ["Ana", "Bo", "Cy"]
        assert reading.overview.cells[ana_1, Skill.PAYOUTS] == window(list(range(32)))
        progress_file(table_2, {"Ana": 3}, start=32)
        push_all(table_2, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=False)
        assert reading.changed == {ana_1}, "the person, shown by the row first known"
        assert reading.overview.cells[ana_1, Skill.PAYOUTS] == window(list(range(35)))
        assert reading.activity.last_result == T0 + 60 * 34 + 30

        # a retraction: read in full; the attempt counts nowhere, in this read and the next ones
        with Store.open(table_2) as two:
            [latest] = two.attempts(two.find_trainee("Ana").id, newest_first=True, limit=1)
        retract(conn, latest.uid, "recorded on the wrong profile")
        progress_file(table_1, {"Bo": 1}, start=6)
        push_all(table_1, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=True)
        assert reading.overview.cells[ana_1, Skill.PAYOUTS] == window(list(range(34)))
        progress_file(table_1, {"Ana": 1}, start=35)
        push_all(table_1, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=False)
        assert reading.overview.cells[ana_1, Skill.PAYOUTS] == window([*range(34), 35])
        assert [(w.name, w.item_id) for w in reading.activity.working] == [("Ana", "props-and-hops/00")]

        # every attempt counted once: each person's exercises of a skill all their attempts practise
        counts = {"Ana": 35, "Bo": 7, "Cy": 2}
        for t in reading.overview.trainees:
            assert reading.overview.cells[t.id, Skill.CALLS].exercises == min(20, counts[t.name]), t.name


def test_nothing_new_reads_no_row_again(tmp_path, klass):
    push_all(progress_file(tmp_path / "ws.sqlite", {"Ana": 2, "Bo": 2}), klass)
    with klass.connect("instructor") as conn:
        first = read_class(conn, now=NOW)
        again = read_on(conn, first, [], in_full=False)
        assert again.changed == frozenset()


@pytest.mark.parametrize("unknown", ["an id no attempt has", "an attempt of a trainee made since"])
def test_an_announcement_the_read_cannot_place_reads_the_whole_class(tmp_path, klass, unknown):
    path = progress_file(tmp_path / "ws.sqlite", {"Ana": 2})
    push_all(path, klass)
    arrivals = Arrivals(klass)
    arrivals.new()
    with klass.connect("instructor") as conn:
        reading = read_class(conn, now=NOW)
        if unknown == "an id no attempt has":
            read_on(conn, reading, [arrivals.seen + 1000], in_full=True)
        else:
            progress_file(path, {"Bo": 1})
            push_all(path, klass)
            read_on(conn, reading, arrivals.new(), in_full=True)


def test_a_login_given_since_makes_one_person_and_reads_the_whole_class(tmp_path, klass):
    """Ana at two workstations is two rows until the instructor gives her name a login of its own
    (trainer.classes.server.people); the next result, Bo's, reads the class in full and shows
    her once."""
    one = progress_file(tmp_path / "one.sqlite", {"Ana": 2, "Bo": 1})
    two = progress_file(tmp_path / "two.sqlite", {"Ana": 2}, start=2)
    push_all(one, klass)
    push_all(two, klass)
    arrivals = Arrivals(klass)
    arrivals.new()
    with klass.connect("instructor") as conn:
        reading = read_class(conn, now=NOW)
        uids = sorted(trainee_uid(path, "Ana") for path in (one, two))
        assert sorted(t.name for t in reading.overview.trainees) == [
            *(f"Ana (trainee id {uid[:8]}…)" for uid in uids), "Bo"]  # told apart while two
        class_login(conn, "Ana", "ana-password")
        progress_file(one, {"Bo": 1}, start=1)
        push_all(one, klass)
        reading = read_on(conn, reading, arrivals.new(), in_full=True)
        assert [t.name for t in reading.overview.trainees] == ["Ana", "Bo"]
        assert reading.overview.cells[row(reading, "Ana"), Skill.CALLS] == Cell(4, 4)
