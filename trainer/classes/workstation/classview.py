"""The Class screen from the class server: the same `ClassOverview` trainer.progress.classroom
makes from a progress file, from the server's tables (what the connection's role may read: the
class for an instructor or supervisor, their own rows for a trainee).

The rules are classroom's: each cell a skill's last 20 attempts, who needs help (lowest recent
accuracy, then most critical errors), the hardest items (lowest pass rate in the last `days`
days, at least `min_attempts` attempts), and each trainee's median time to answer over their last
`answers` attempts. tests/test_class_server.py checks that both give the same overview of the
same attempts.

`class_activity` is what the live view adds: how many workstations are connected and pushing, the
last result, and what each trainee who recorded lately was working on.

`attempts_of` is one trainee opened from the live view: their attempts as the server has them,
the same records (trainer.progress.records.Attempt) a progress file gives, made by the same code
(trainer.progress.rows), so that the drill-down lists and replays them as it does the file's
(trainer.progress.classroom: `attempt_line`, `replay_of`). The recorded action log is one of the
columns the server shares (trainer.progress.columns.ATTEMPTS), so a server attempt replays.

`follow(address)` yields the server id of each attempt as it arrives (LISTEN/NOTIFY, on the
class's own channel, which only the staff may read: `attempts_channel`), and None after the
connection was lost and made again (announcements may have been missed meanwhile: read the
overview again).

An attempt an instructor retracted (trainer.classes.server.retractions, s010) counts nowhere in
the overview and is not listed by `attempts_of`, which names it in `left_out` with the reason,
as it names an attempt it cannot read (trainer.classes.workstation.results.readable). While no
attempt is retracted, the queries are those the indexes of s005 answer alone.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from trainer.classes.server.people import claimed_names, disputed, people
from trainer.classes.server.retractions import retracted
from trainer.classes.server.sql import value
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.catching import ClassCatchRates, class_catch_rates
from trainer.classes.workstation.names import in_dispute, told_apart
from trainer.classes.workstation.push import BACKOFF, CONNECT, connect, pauses
from trainer.classes.workstation.results import readable
from trainer.procedure.model import Skill
from trainer.progress.classroom import (
    ANSWER_ATTEMPTS,
    TRAINEE_ATTEMPTS,
    Cell,
    ClassOverview,
    ItemRow,
    who_needs_help,
)
from trainer.progress.records import Attempt, Trainee
from trainer.progress.stats import DAY, WINDOW

#: the overview's rules unless told (trainer.progress.classroom.class_overview's): the last 30 days,
#: an item with 3 attempts or more in them, the 10 hardest items
DEFAULT_DAYS, DEFAULT_LEAST, DEFAULT_ITEMS = 30, 3, 10
NAME_SHOWN = 100  # characters of a trainee's name the view shows (a row stored before s010 may hold more)


def _trainee(r: tuple) -> Trainee:
    tid, name, created, archived, archived_at, instructor, uid = r
    name = name if len(name) <= NAME_SHOWN else f"{name[:NAME_SHOWN - 1]}… ({len(name):,} characters)"
    return Trainee(tid, name, created, bool(archived), archived_at, bool(instructor), False, uid=uid)


#: each person's trainee ids, given as two arrays (%(pids)s, the persons' ids; %(groups)s, the
#: ids of each as text, '{3,7}'): x (person, members)
_PEOPLE = ("x (person, members) AS (SELECT g.person, g.members::bigint[] "
           "FROM unnest(%(pids)s::bigint[], %(groups)s::text[]) AS g (person, members))")


def _people(conn: psycopg.Connection) -> tuple[list[Trainee], dict[int, list[int]], frozenset[int]]:
    """The class's people (trainer.classes.server.people), by name: each shown as the row of its
    lowest id, archived when every row of it is; each person's trainee ids; and every trainee id
    the connection reads. The instructor's own rows are no trainee's, and a person whose every row
    is archived is not in the class. Two people of one name are each shown `told_apart`."""
    person = people(conn)
    claimed = claimed_names(conn)  # an id settled a claimant's is shown under her name
    rows = [_trainee(r) for r in conn.execute(
        "SELECT id, name, created, archived, archived_at, instructor, uid FROM trainees t "
        "WHERE t.instructor = 0 ORDER BY id")]
    rows = [replace(t, name=claimed[t.uid]) if t.uid in claimed else t for t in rows]
    members: dict[int, list[int]] = {}
    for t in rows:
        members.setdefault(person.get(t.id, t.id), []).append(t.id)
    shown = {t.id: t for t in rows}
    active = {p: ms for p, ms in members.items() if any(not shown[m].archived for m in ms)}
    trainees = sorted((replace(shown[min(ms)], archived=False, archived_at=None) for ms in active.values()),
                      key=lambda t: (t.name.lower(), t.id))
    named = Counter(t.name for t in trainees)
    trainees = [t if named[t.name] == 1 else replace(t, name=told_apart(t.name, t.uid)) for t in trainees]
    claims = disputed(conn)
    if claims:
        uids = {t.id: t.uid for t in rows}
        trainees = [replace(t, name=in_dispute(t.name, [(uids[m], claims[uids[m]][1:]) for m in active[
            person.get(t.id, t.id)] if uids[m] in claims])) for t in trainees]
    return trainees, {t.id: active[person.get(t.id, t.id)] for t in trainees}, frozenset(person)


def _mine(members: dict[int, list[int]]) -> dict:
    """The people given to a query (%(pids)s, %(groups)s: _PEOPLE)."""
    return {"pids": list(members), "groups": ["{" + ",".join(map(str, ms)) + "}" for ms in members.values()]}


def _left_out(hidden: list[int], column: str) -> str:
    """The filter that leaves out the retracted attempts, when there are any (it reads each
    attempt's id, which the indexes do not hold: without retractions, the indexes answer alone)."""
    return f"AND {column} <> ALL(%(hidden)s) " if hidden else ""


def _cells(conn: psycopg.Connection, members: dict[int, list[int]], hidden: list[int]) -> dict:
    """Each person's cell of each skill: the skill's last WINDOW exercises over all their rows
    (each row's window read from the indexes, and a person's taken from those of their rows)."""
    return {(tid, Skill(skill)): Cell(n, right) for tid, skill, n, right in conn.execute(
        f"WITH {_PEOPLE} SELECT x.person, k.skill, w.n, w.right FROM x "
        f"CROSS JOIN unnest(%(skills)s::text[]) AS k (skill) "
        f"CROSS JOIN LATERAL (SELECT count(*) AS n, count(*) FILTER (WHERE ok) AS right FROM ("
        f"  SELECT y.ok FROM unnest(x.members) AS m (tid) CROSS JOIN LATERAL ("
        f"    SELECT s.started, s.attempt_id, NOT EXISTS (SELECT 1 FROM findings f "
        f"      WHERE f.attempt_id = s.attempt_id AND f.skill = s.skill) AS ok FROM attempt_skills s "
        f"    WHERE s.trainee_id = m.tid AND s.skill = k.skill {_left_out(hidden, 's.attempt_id')}"
        f"    ORDER BY s.started DESC, s.attempt_id DESC LIMIT {WINDOW}) y "
        f"  ORDER BY y.started DESC, y.attempt_id DESC LIMIT {WINDOW}) z) w",
        {"skills": [s.value for s in Skill], "hidden": hidden, **_mine(members)})}


def _recent(conn: psycopg.Connection, members: dict[int, list[int]], since: float,
            hidden: list[int]) -> dict[int, tuple]:
    """Each person's (attempts, critical, passed) since `since`."""
    return {tid: (n, critical, passed) for tid, n, critical, passed in conn.execute(
        f"WITH {_PEOPLE} SELECT x.person, r.n, r.critical, r.passed FROM x CROSS JOIN LATERAL ("
        f"  SELECT count(*) AS n, coalesce(sum(critical), 0) AS critical, coalesce(sum(passed), 0) AS passed "
        f"  FROM attempts a WHERE a.trainee_id = ANY(x.members) AND a.started >= %(since)s "
        f"  AND a.abandoned = 0 {_left_out(hidden, 'a.id')}) r",
        {"since": since, "hidden": hidden, **_mine(members)})}


def _items(conn: psycopg.Connection, since: float, least: int, hidden: list[int],
           only: list[str] | None = None) -> dict[str, ItemRow]:
    """Each item with at least `least` attempts since `since` (`only`: of these items alone)."""
    if only is None:  # a loose index scan (each next item id found by one search of the index
        # attempts_kept_by_item), then each item's range of the last days, from that index alone
        items = ("WITH RECURSIVE i (item) AS (SELECT min(item_id) FROM attempts WHERE abandoned = 0 "
                 "  UNION ALL SELECT (SELECT min(item_id) FROM attempts "
                 "    WHERE item_id > i.item AND abandoned = 0) "
                 "  FROM i WHERE i.item IS NOT NULL) ")
    else:
        items = "WITH i (item) AS (SELECT unnest(%(only)s::text[])) "
    return {item: ItemRow(item, game, n, int(passed)) for item, n, passed, game in conn.execute(
        f"{items}SELECT i.item, c.n, c.passed, c.game FROM i CROSS JOIN LATERAL ("
        "  SELECT count(*) AS n, sum(passed) AS passed, min(game) AS game FROM attempts a "
        f"  WHERE item_id = i.item AND started >= %(since)s AND abandoned = 0 {_left_out(hidden, 'a.id')}) c "
        "WHERE i.item IS NOT NULL AND c.n >= %(least)s",
        {"since": since, "least": least, "hidden": hidden, "only": only})}


def _hardest(rows, items: int) -> list[ItemRow]:
    """The `items` hardest: lowest pass rate first, then the most attempted."""
    return sorted(rows, key=lambda i: (i.pass_rate, -i.attempts, i.item_id))[:items]


def _answers(conn: psycopg.Connection, members: dict[int, list[int]], answers: int,
             hidden: list[int], *, kept: bool | None = None) -> dict[int, float | None]:
    """Each person's median seconds to answer over their last `answers` attempts: kept by the
    server at push (s021), no log is read (a class the server has not brought up to date yet
    shows none)."""
    gaps: dict[int, list[float]] = {tid: [] for tid in members}
    kept_gaps = value(conn.execute("SELECT to_regclass('attempt_answer_gaps') IS NOT NULL")) \
        if kept is None else kept
    for tid, seconds in [] if not kept_gaps else conn.execute(
            f"WITH {_PEOPLE} SELECT x.person, z.gaps FROM x CROSS JOIN LATERAL ("
            f"  SELECT y.gaps FROM unnest(x.members) AS m (tid) CROSS JOIN LATERAL ("
            f"    SELECT a.started, g.gaps FROM attempts a "
            f"    LEFT JOIN attempt_answer_gaps g ON g.attempt_id = a.id "
            f"    WHERE a.trainee_id = m.tid AND a.abandoned = 0 {_left_out(hidden, 'a.id')}"
            f"    ORDER BY a.started DESC LIMIT %(answers)s) y "
            f"  ORDER BY y.started DESC LIMIT %(answers)s) z",
            {"answers": int(answers), "hidden": hidden, **_mine(members)}):
        gaps[tid].extend(seconds or ())
    return {tid: statistics.median(g) if g else None for tid, g in gaps.items()}


def server_class_overview(conn: psycopg.Connection, *, now: float | None = None, days: float = DEFAULT_DAYS,
                          min_attempts: int = DEFAULT_LEAST, items: int = DEFAULT_ITEMS,
                          answers: int = ANSWER_ATTEMPTS) -> ClassOverview:
    now = time.time() if now is None else now
    since = now - days * DAY
    hidden = sorted(retracted(conn))
    trainees, members, _ = _people(conn)
    cells = _cells(conn, members, hidden)
    help_rows = who_needs_help(trainees, list(Skill), cells, _recent(conn, members, since, hidden))
    hardest = _hardest(_items(conn, since, min_attempts, hidden).values(), items)
    return ClassOverview(trainees, list(Skill), cells, help_rows, hardest,
                         _answers(conn, members, answers, hidden))


def attempts_of(conn: psycopg.Connection, trainee_id: int, *, limit: int = TRAINEE_ATTEMPTS,
                left_out: list[str] | None = None) -> list[Attempt]:
    """One trainee's attempts (`trainee_id`: the server's id, as the overview gives it; those of
    every row of the same person, trainer.classes.server.people), newest first, the last `limit`,
    with their findings and skills: what Store.attempts(trainee_id,
    newest_first=True, limit=limit) gives from a progress file. Another trainee's id gives nothing
    to a trainee's own login (row-level security). The attempts retracted, and those that cannot
    be read, are not listed: named, with why, in `left_out`."""
    person = people(conn)
    mine = [tid for tid, p in person.items() if p == person.get(trainee_id, trainee_id)] or [trainee_id]
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute("SELECT * FROM attempts WHERE trainee_id = ANY(%s) "
                           "ORDER BY started DESC, id LIMIT %s", (mine, limit)).fetchall()
        ids = [r["id"] for r in rows]
        findings = cur.execute("SELECT * FROM findings WHERE attempt_id = ANY(%s) ORDER BY id",
                               (ids,)).fetchall()
        skills = cur.execute("SELECT attempt_id, skill FROM attempt_skills WHERE attempt_id = ANY(%s) "
                             "ORDER BY attempt_id, skill", (ids,)).fetchall()
    return readable(rows, findings, skills, retracted(conn), [] if left_out is None else left_out)


RECENT = 15 * 60  # seconds: a trainee whose last result is newer is "working now"


@dataclass(frozen=True, slots=True)
class Working:
    name: str
    item_id: str
    ended: float  # the workstation's clock


@dataclass(frozen=True, slots=True)
class ClassActivity:
    workstations: int  # connections pushing to the class now (the app's, other logins than ours)
    last_result: float | None  # when the newest attempt ended (the workstation's clock)
    working: list[Working]  # each trainee's last attempt when newer than `recent`, newest first


def class_activity(conn: psycopg.Connection, *, now: float | None = None,
                   recent: float = RECENT) -> ClassActivity:
    now = time.time() if now is None else now
    trainees, members, _ = _people(conn)
    latest = _latest(conn, trainees, members, sorted(retracted(conn)))
    return _activity(latest, _stations(conn), now, recent)


def _latest(conn: psycopg.Connection, trainees: list[Trainee], members: dict[int, list[int]],
            hidden: list[int]) -> dict[int, Working]:
    """Each person's last attempt, from any of their rows (of these trainees: the people shown)."""
    person = {m: t for t in trainees for m in members[t.id]}
    found: dict[int, tuple[float, int, Working]] = {}
    for tid, item, ended in conn.execute(
            f"SELECT t.id, a.item_id, a.ended FROM trainees t CROSS JOIN LATERAL ("
            f"  SELECT item_id, coalesce(ended, started) AS ended FROM attempts "
            f"  WHERE trainee_id = t.id {_left_out(hidden, 'id')}ORDER BY started DESC LIMIT 1) a "
            f"WHERE t.id = ANY(%(ids)s)",
            {"hidden": hidden, "ids": list(person)}):
        t = person[tid]
        if t.id not in found or (ended, tid) > found[t.id][:2]:  # the same end twice: the later row's
            found[t.id] = (ended, tid, Working(t.name, item, ended))
    return {pid: w for pid, (_, _, w) in found.items()}


def _stations(conn: psycopg.Connection) -> int:
    """The workstations pushing to the class now: other sessions' rows show their login and
    program to every role (not their address)."""
    return int(value(conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND application_name = %s AND usename <> current_user",
        (CONNECT["application_name"],))))


def _activity(latest: dict[int, Working], stations: int, now: float, recent: float) -> ClassActivity:
    last = [w for _, w in sorted(latest.items(), key=lambda kw: (-kw[1].ended, kw[0]))]
    return ClassActivity(stations, last[0].ended if last else None,
                         [w for w in last if w.ended >= now - recent])


def attempts_channel(conn: psycopg.Connection) -> str:
    """The channel the class announces new attempts on (s011): a name of its own that only the
    staff may read, since any login may LISTEN to any channel it knows."""
    return value(conn.execute("SELECT channel FROM class_info"))


#: seconds between the follower's looks at whether it is to stop: what a live Class tab that is
#: stopped (its window closed, the class left) waits for its follower at most
STOP_LOOK = 0.1


def follow(address: ClassAddress, stop: threading.Event, *, wait: float = STOP_LOOK,
           backoff: tuple[float, float] = BACKOFF) -> Iterator[int | None]:
    """The server id of each attempt added to the class, as the server announces it, until
    `stop` is set (looked at every `wait` seconds); None after a lost connection was made again."""
    waits, lost = pauses(backoff), False
    while not stop.is_set():
        try:
            with connect(address) as conn:
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(attempts_channel(conn))))
                if lost:
                    lost, waits = False, pauses(backoff)
                    yield None
                while not stop.is_set():
                    for note in conn.notifies(timeout=wait):
                        yield int(note.payload)
        except psycopg.OperationalError:
            lost = True
            stop.wait(next(waits))


@dataclass(frozen=True)
class ClassReading:
    """The class as the live view reads it (`read_class`): the overview and the activity, which
    people's rows may have changed since the reading before (`changed`, their shown ids; None:
    any), and what the next reading starts from."""

    overview: ClassOverview
    activity: ClassActivity
    changed: frozenset[int] | None = None
    read_at: float = 0.0  # time.time() of the reading
    full: bool = True  # read in full (else only what the attempts announced since changed)
    members: dict[int, list[int]] = field(default_factory=dict)
    rows: frozenset[int] = frozenset()  # every trainee id the connection read
    hidden: tuple[int, ...] = ()
    recent: dict[int, tuple] = field(default_factory=dict)
    items: dict[str, ItemRow] = field(default_factory=dict)
    latest: dict[int, Working] = field(default_factory=dict)
    tables: frozenset[str] = frozenset()  # the tables of _STAMPED the class has
    stamp: tuple = ()  # _stamp's, when the reading in full began
    #: the catch rates of the supervised rounds (trainer.classes.workstation.catching)
    catching: ClassCatchRates = field(default_factory=lambda: ClassCatchRates([], {}, None))


def read_class(conn: psycopg.Connection, before: ClassReading | None = None,
               arrived: Collection[int] | None = None, *, now: float | None = None) -> ClassReading:
    """The class for the live view: in full (the overview and the activity, as
    `server_class_overview` and `class_activity` give them), or, given the reading `before` and
    the server ids of the attempts announced since (`follow`), only what those attempts changed:
    the rows of their people and their items, read again; the rest is `before`'s. A supervised
    round announced (its id negated: s037) has the catch rates read again, whole. A reading
    since other trainees, logins, merges or retractions (`_stamp`, one query), or of an attempt
    the reading cannot place, is made in full. What slides out of the last days meanwhile is
    dropped at the next full reading."""
    now = time.time() if now is None else now
    since = now - DEFAULT_DAYS * DAY
    if before is None or arrived is None or not before.tables or _stamp(conn, before.tables) != before.stamp:
        tables = _tables(conn)
        stamp = _stamp(conn, tables)  # before the rows it stands for: a change meanwhile is read again
        hidden = sorted(retracted(conn))
        trainees, members, rows = _people(conn)
        return _read_in_full(conn, trainees, members, rows, hidden, now, since, tables, stamp)
    # nobody new, no merge nor retraction since the reading before (its stamp): its people hold
    trainees, members, rows = before.overview.trainees, before.members, before.rows
    catching = (class_catch_rates(conn, trainees, members) if any(n < 0 for n in arrived)
                else before.catching)
    arrived = [n for n in arrived if n >= 0]
    hidden = list(before.hidden)
    person = {m: pid for pid, ms in members.items() for m in ms}
    changed: set[int] = set()
    items: set[str] = set()
    found = conn.execute("SELECT id, trainee_id, item_id FROM attempts WHERE id = ANY(%s)",
                         (list(arrived),)).fetchall()
    for _, tid, item in found:
        if tid not in rows:  # a trainee made since the people were read
            return read_class(conn, now=now)
        items.add(item)
        if tid in person:  # else an instructor's own row, or an archived person's: the items only
            changed.add(person[tid])
    if len(found) != len(set(arrived)):  # an id this login cannot read
        return read_class(conn, now=now)
    mine = {pid: members[pid] for pid in sorted(changed)}
    cells = {k: c for k, c in before.overview.cells.items() if k[0] not in changed}
    cells.update(_cells(conn, mine, hidden))
    recent = {**before.recent, **_recent(conn, mine, since, hidden)}
    item_rows = {i: r for i, r in before.items.items() if i not in items}
    item_rows.update(_items(conn, since, DEFAULT_LEAST, hidden, only=sorted(items)))
    answer = {**before.overview.answer_seconds,
              **_answers(conn, mine, ANSWER_ATTEMPTS, hidden, kept="attempt_answer_gaps" in before.tables)}
    latest = {**before.latest, **_latest(conn, [t for t in trainees if t.id in changed], members, hidden)}
    overview = _overview(trainees, cells, recent, item_rows, answer)
    return ClassReading(overview, _activity(latest, _stations(conn), now, RECENT), frozenset(changed),
                        now, False, members, rows, tuple(hidden), recent, item_rows, latest,
                        before.tables, before.stamp, catching)


def _read_in_full(conn: psycopg.Connection, trainees: list[Trainee], members: dict[int, list[int]],
                  rows: frozenset[int], hidden: list[int], now: float, since: float,
                  tables: frozenset[str], stamp: tuple) -> ClassReading:
    cells = _cells(conn, members, hidden)
    recent = _recent(conn, members, since, hidden)
    item_rows = _items(conn, since, DEFAULT_LEAST, hidden)
    overview = _overview(trainees, cells, recent, item_rows, _answers(conn, members, ANSWER_ATTEMPTS, hidden))
    latest = _latest(conn, trainees, members, hidden)
    return ClassReading(overview, _activity(latest, _stations(conn), now, RECENT), None, now, True,
                        members, rows, tuple(hidden), recent, item_rows, latest, tables, stamp,
                        class_catch_rates(conn, trainees, members))


def _overview(trainees: list[Trainee], cells: dict, recent: dict, item_rows: dict[str, ItemRow],
              answer: dict[int, float | None]) -> ClassOverview:
    help_rows = who_needs_help(trainees, list(Skill), cells, recent)
    return ClassOverview(trainees, list(Skill), cells, help_rows, _hardest(item_rows.values(), DEFAULT_ITEMS),
                         answer)


#: the tables a reading of what changed relies on, when the class has them (a class the server
#: has not brought up to date may not): who has a login, the merges, the retractions (_stamp), and
#: the seconds to answer kept at push (_answers)
_STAMPED = ("trainee_logins", "trainee_merges", "retractions", "attempt_answer_gaps")


def _tables(conn: psycopg.Connection) -> frozenset[str]:
    return frozenset(name for (name,) in conn.execute(
        "SELECT n FROM unnest(%s::text[]) AS t (n) WHERE to_regclass(n) IS NOT NULL", (list(_STAMPED),)))


def _stamp(conn: psycopg.Connection, tables: frozenset[str]) -> tuple:
    """What makes the people and the retractions, in one query: a reading of what changed
    compares it with the reading before's, and reads the class in full when it differs. The
    merges and the retractions are only ever added to; a trainee row or a login, all of it."""
    parts = ["(SELECT md5(coalesce(string_agg(concat_ws(':', id, uid, name, archived, instructor), ',' "
             "ORDER BY id), '')) FROM trainees)"]
    if "trainee_logins" in tables:
        parts.append("(SELECT md5(coalesce(string_agg(name, ',' ORDER BY name), '')) FROM trainee_logins)")
    if "trainee_merges" in tables:
        parts.append("(SELECT concat_ws(':', count(*), max(id)) FROM trainee_merges)")
    if "retractions" in tables:
        parts.append("(SELECT concat_ws(':', count(*), max(attempt_id)) FROM retractions)")
    return tuple(conn.execute("SELECT " + ", ".join(parts)).fetchone() or ())
