"""One person, one trainee (migration s022_one_person): a trainee id is made by each workstation
a trainee uses, so Ana Ruiz at two workstations is two trainees on the server. The class's readers
(the Class tab, the exports, their xAPI actors) show one person for them, when:

- **her name has a login of her own** (s008, `class_login`): that login is hers on every
  workstation, and every trainee of that name is her (the login reads them all already, and no
  workstation's login sends a row under that name: s018);
- **an instructor merged the two** (`merge`): recorded in `trainee_merges` with who and when,
  insert-only; undone only by another recorded row (`part`); `merged_now` lists the pairs
  merged. Only an instructor's login records either (the server checks the caller).

`disputed(conn)` gives each trainee id a trainee's own login claimed while the class held it under
another name (s032, trainer.classes.server.logins "Whose rows"): an id that carries two names,
which the class's exports refuse by name rather than give one actor two people, until the
instructor settles it.

**Claims settled** (s036): `settle(conn, uid, login, reason)`, an instructor's login's call,
settles every open claim of a trainee id: the id is the claimant `login`'s, or (`login` None) the
row's, every other claim rejected; insert-only, the claim kept beside its settling. A settled id is
no longer disputed. One settled the claimant's is her login's person's (`people` joins it to the
rows of her name, and `claimed_names` gives the name it is shown under); one settled the row's is
the row's, as before the claim. `settled_claims` lists each claim with how it was settled,
`claims` every claim, open or settled.

`people(conn)` gives each trainee row the connection reads its person: the lowest server id of
the rows that are one person, whose name and uid the class shows (the xAPI actor's account, the
transcript's trainee id). The grouping is done here, not in the server, so that no record of
merges can make a loop: two rows are one person when a chain of logins' names and merges in
force joins them.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from trainer.classes.errors import ClassServerError
from trainer.classes.server.sql import value


@dataclass(frozen=True, slots=True)
class Merge:
    """One recorded row: the two trainee ids, 'merged' or 'parted', when (the server's clock)
    and by which login."""

    uid: str
    other_uid: str
    event: str
    at: float
    by: str


def merge(instructor: psycopg.Connection, one: str, other: str) -> None:
    """Record that the trainees `one` and `other` (their ids) are one person."""
    _record(instructor, one, other, "merged")


def part(instructor: psycopg.Connection, one: str, other: str) -> None:
    """Undo a merge of `one` and `other`: a row of its own, the merge stays recorded."""
    _record(instructor, one, other, "parted")


def _record(conn: psycopg.Connection, one: str, other: str, what: str) -> None:
    if not _kept(conn):
        raise ClassServerError("this class server keeps no merges yet: start it with this version "
                               "(dealer-trainer class-server) to bring it up to date")
    try:
        with conn.transaction():
            conn.execute("SELECT record_trainee_merge(%s, %s, %s)", (one, other, what))
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError("only an instructor's login merges two trainees or parts them") from None
    except (psycopg.errors.NoDataFound, psycopg.errors.UniqueViolation,
            psycopg.errors.InvalidParameterValue) as e:
        raise ClassServerError(str(e).strip().splitlines()[0]) from None


def _kept(conn: psycopg.Connection) -> bool:
    return bool(value(conn.execute("SELECT to_regclass('trainee_merges') IS NOT NULL")))


def merges(conn: psycopg.Connection) -> list[Merge]:
    """Every recorded merge and parting the connection may read, oldest first."""
    if not _kept(conn):
        return []
    return [Merge(*r) for r in conn.execute(
        "SELECT uid, other_uid, event, at, done_by FROM trainee_merges ORDER BY id")]


def in_force(record: list[Merge]) -> list[Merge]:
    """The merges in force: each pair's last row, when it is a merge."""
    last = {(m.uid, m.other_uid): m for m in record}
    return [m for m in last.values() if m.event == "merged"]


@dataclass(frozen=True, slots=True)
class Merged:
    """Two trainees merged now: each one's id and name, and when and by whom they were merged."""

    uid: str
    name: str
    other_uid: str
    other_name: str
    at: float
    by: str


def merged_now(conn: psycopg.Connection) -> list[Merged]:
    """The pairs merged now (and not parted since) that the connection reads, oldest first."""
    pairs = in_force(merges(conn))
    names: dict[str, str] = dict(conn.execute("SELECT uid, name FROM trainees WHERE uid = ANY(%s)",
                              ([u for m in pairs for u in (m.uid, m.other_uid)],)).fetchall())
    return [Merged(m.uid, names[m.uid], m.other_uid, names[m.other_uid], m.at, m.by)
            for m in pairs if m.uid in names and m.other_uid in names]


def people(conn: psycopg.Connection, *, claims_settled: bool = True) -> dict[int, int]:
    """{server id of each trainee the connection reads: the server id of its person}, the person's
    the lowest of the ids that are one person (see the module). A class the server has not
    brought up to date has no merges (nor, before s008, logins): each row is its own person.
    `claims_settled` False: the people as they were before any claim was settled."""
    rows: list[tuple[int, str, str]] = conn.execute(
        "SELECT id, uid, name FROM trainees ORDER BY id").fetchall()
    with_login: set[str] = set()
    if value(conn.execute("SELECT to_regclass('trainee_logins') IS NOT NULL")):  # s008 on
        with_login = {n for (n,) in conn.execute("SELECT name FROM trainee_logins")}
    named = claimed_names(conn) if claims_settled else {}
    return grouped([(tid, uid, named.get(uid, name)) for tid, uid, name in rows], with_login,
                   [(m.uid, m.other_uid) for m in in_force(merges(conn))])


def grouped(rows: list[tuple[int, str, str]], with_login: set[str],
            merged: list[tuple[str, str]]) -> dict[int, int]:
    """The people of trainee rows (id, uid, name): rows of a name in `with_login` are one, and so
    are the two of each merged pair of uids; each row's person is the lowest id of its own. A row
    whose claim was settled the claimant's comes named by her login's name (`claimed_names`)."""
    parent = {tid: tid for tid, _, _ in rows}

    def root(tid: int) -> int:
        while parent[tid] != tid:
            parent[tid] = parent[parent[tid]]
            tid = parent[tid]
        return tid

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    by_uid = {uid: tid for tid, uid, _ in rows}
    first: dict[str, int] = {}
    for tid, _, name in rows:
        if name in with_login:
            join(first.setdefault(name, tid), tid)
    for one, other in merged:
        if one in by_uid and other in by_uid:
            join(by_uid[one], by_uid[other])
    return {tid: root(tid) for tid in parent}


def disputed(conn: psycopg.Connection) -> dict[str, list[str]]:
    """{trainee id: its names, the class's row's first, then each claimant's} for every id a
    trainee's own login claimed as hers while the class held it under another name (s032's
    `trainee_claims`). Empty on a class before s032, and for a login that may not read the
    claims (a trainee's, a workstation's)."""
    if not _readable(conn, "trainee_claims"):
        return {}
    open_only = ("AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s WHERE s.claim_id = c.id) "
                 if _readable(conn, "trainee_claim_settlements") else "")
    found: dict[str, list[str]] = {}
    # a claim kept before the class held the id (s039) disputes it only once it is held under
    # another name: her own push may register it under hers
    for uid, held, claimant in conn.execute(
            "SELECT c.trainee_uid, t.name, c.name FROM trainee_claims c "
            f"JOIN trainees t ON t.uid = c.trainee_uid WHERE c.name <> t.name {open_only}ORDER BY c.id"):
        names = found.setdefault(uid, [held])
        if claimant not in names:
            names.append(claimant)
    return found


def _readable(conn: psycopg.Connection, table: str) -> bool:
    """Whether the class keeps `table` (its migration ran) and the connection may read it."""
    return bool(value(conn.execute("SELECT to_regclass(%s) IS NOT NULL AND has_table_privilege(%s, 'SELECT')",
                                   (table, table))))


@dataclass(frozen=True, slots=True)
class Settled:
    """One claim and how the instructor settled it: the trainee id, the row's name (None: the
    class holds no row of it, s039), the claimant login and its name, 'claimant' (the id is hers)
    or 'row' (the claim rejected), the reason, by which login and when (the server's clock)."""

    uid: str
    row_name: str | None
    login: str
    name: str
    outcome: str
    reason: str
    by: str
    at: float


def settle(instructor: psycopg.Connection, uid: str, login: str | None, reason: str) -> int:
    """Settle every open claim of the trainee id `uid`: it is the claimant `login`'s, or with
    `login` None the row's (s036). How many claims were settled. ClassServerError (one line) when
    the class refuses: not an instructor's login, no such claim, settled already, no reason."""
    if not value(instructor.execute(
            "SELECT to_regprocedure('public.settle_trainee_claim(text, text, text)') IS NOT NULL")):
        raise ClassServerError("this class server settles no claims yet: start it with this version "
                               "(dealer-trainer class-server) to bring it up to date")
    try:
        with instructor.transaction():
            return int(value(instructor.execute("SELECT settle_trainee_claim(%s, %s, %s)",
                                                (uid, login, reason))))
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError("only an instructor's login settles whose a claimed trainee id is") from None
    except (psycopg.errors.NoDataFound, psycopg.errors.UniqueViolation,
            psycopg.errors.InvalidParameterValue) as e:
        raise ClassServerError(str(e).strip().splitlines()[0]) from None


def settled_claims(conn: psycopg.Connection) -> list[Settled]:
    """Every claim settled that the connection may read, in the order settled (empty before s036
    and for a login that reads no claims)."""
    if not _readable(conn, "trainee_claim_settlements"):
        return []
    return [Settled(*r) for r in conn.execute(
        "SELECT c.trainee_uid, t.name, c.login, c.name, s.outcome, s.reason, s.done_by, s.at "
        "FROM trainee_claim_settlements s JOIN trainee_claims c ON c.id = s.claim_id "
        "LEFT JOIN trainees t ON t.uid = c.trainee_uid ORDER BY s.id")]


def claimed_names(conn: psycopg.Connection) -> dict[str, str]:
    """{trainee id: the name of the login it was settled to} for each id the instructor settled
    the claimant's: the class shows it under her name, as one person with her login's rows."""
    return {s.uid: s.name for s in settled_claims(conn) if s.outcome == "claimant"}


@dataclass(frozen=True, slots=True)
class Claim:
    """One login's claim of a trainee id (s032): the id, the name the class holds it under (None:
    no row of it yet, a claim kept for the instructor, s039), the claimant login and its name,
    when (the server's clock), and how it was settled (None while open: the exports refuse the
    id)."""

    uid: str
    row_name: str | None
    login: str
    name: str
    at: float
    settled: Settled | None
    disputed: bool = False  # the exports leave the id out until it is settled (`disputed`)
    registered_by: str | None = None  # the login the class registered the id for (s018), if read

    def standing(self) -> str:
        """How the claim stands, from what the server knows, in words (`settle-claim --list`)."""
        if self.settled is not None:
            return (f"settled {'hers' if self.settled.outcome == 'claimant' else 'the row’s'} by "
                    f"{self.settled.by}: {self.settled.reason}")
        if self.row_name is None:
            return "open: no login registers it until it is settled"
        if self.disputed:
            return "open: the exports leave it out"
        if self.registered_by == self.login:  # a kept claim (s039) her own push registered (s043)
            return (f"open, in no dispute: her own login ({self.login}) registered the id since; "
                    "the exports write it as hers")
        return f"open, in no dispute: the class holds it under {self.row_name}, the claimant's name"


def claims(conn: psycopg.Connection) -> list[Claim]:
    """Every claim the connection may read, oldest first (empty before s032, and for a login
    that reads no claims), each with whether the exports leave its id out and the login its id
    was registered for (the server's trainee_workstations)."""
    if not _readable(conn, "trainee_claims"):
        return []
    settled = {(s.uid, s.login): s for s in settled_claims(conn)}
    left_out = disputed(conn)
    registered: dict[str, str] = {}
    if _readable(conn, "trainee_workstations"):
        registered = dict(conn.execute("SELECT trainee_uid, login FROM trainee_workstations "
                                       "WHERE how = 'registered'").fetchall())
    return [Claim(uid, row, login, name, at, settled.get((uid, login)), uid in left_out, registered.get(uid))
            for uid, row, login, name, at in
            conn.execute("SELECT c.trainee_uid, t.name, c.login, c.name, c.at FROM trainee_claims c "
                         "LEFT JOIN trainees t ON t.uid = c.trainee_uid ORDER BY c.id")]


def settled_line(uid: str, login: str | None, database: str, n: int) -> str:
    """What settling the claims of `uid` did, in one line (`settle`'s `login`; `n` claims settled):
    what `dealer-trainer settle-claim` prints and the app's status bar says."""
    claims = f"{n} claim{'s' if n != 1 else ''}"
    if login is not None:
        return (f"Trainee id {uid} settled the claimant's (login {login}) in {database} ({claims}): "
                "its results are her login's from now on, in the class view and the exports.")
    return (f"Trainee id {uid} settled the row's in {database} ({claims} rejected): the exports "
            "write it as before the claim.")
