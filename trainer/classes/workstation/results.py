"""The class's attempts read back from the server, as the hand-off to the employer takes them
(trainer.progress.handoff.Line): the same records a progress file gives, from the same columns
(trainer.progress.columns), turned into records by the same code (trainer.progress.rows), less
each attempt's log, which the hand-off never writes (read, a class's logs were nine tenths of an
export's CPU: tests/benchmarks/export_memory.py).

What a connection reads is what its role may: the class for an instructor or supervisor, their
own attempts for a trainee (row-level security, trainer.classes.server.tables).

A row is left out, and named with why in `left_out`, rather than fail the whole class: the
attempts of a person one of whose trainee ids carries two names (a trainee's own login claimed
it while the class held it under another name: trainer.classes.server.people.disputed), so
that no actor is given two people; an attempt an instructor retracted
(trainer.classes.server.retractions; s010 retracted, with the check each fails, the rows stored
before it checked them), and one this app cannot read as an attempt (`readable`: its columns,
findings and skills). Its log is not read, so an attempt whose log this app could not read (a key
twice, an action it does not know) is written from its scores like any other: the hand-off
writes nothing of a log, the scores are what an export always took from the row, and trust in a
result is in what is signed (certificates, supervised rounds), never in a log a workstation sent.
A progress file's export reads its logs, and leaves such an attempt out, named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import cast

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from trainer.classes.errors import ClassServerError
from trainer.classes.server.people import claimed_names, disputed, people, settled_claims
from trainer.classes.server.retractions import retracted, retracted_rounds
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.push import connect, reason, said
from trainer.errors import shown
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.handoff import Formerly, Line
from trainer.progress.handoff_supervised import SupervisedLine, lines_of
from trainer.progress.records import Attempt, Mode, Trainee, clean_name
from trainer.progress.rows import attempt_from_row, finding_from_row

_TRAINEE = "id, name, created, archived, archived_at, instructor, uid"


def _trainee(r: dict) -> Trainee:
    return Trainee(r["id"], r["name"], r["created"], bool(r["archived"]), r["archived_at"],
                   bool(r["instructor"]), False, uid=r["uid"])


def readable(rows: list[dict], findings: list[dict], skills: list[dict], hidden: dict[int, str],
             left_out: list[str], names: dict[int, str] | None = None) -> list[Attempt]:
    """The attempts of the server's rows, in their order (what trainer.progress.rows.
    attempts_from_rows makes), less those `hidden` ({id: why}: retracted) and those that cannot
    be read as attempts: each of these is named in `left_out` ("attempt <uid> of <trainee>:
    why"), never raised."""
    found: dict[int, list[dict]] = {}
    kept: dict[int, list[str]] = {}
    for f in findings:
        found.setdefault(f["attempt_id"], []).append(f)
    for k in skills:
        kept.setdefault(k["attempt_id"], []).append(k["skill"])
    out = []
    for r in rows:
        why = hidden.get(r["id"])
        if why is None:
            try:
                out.append(attempt_from_row(r, [finding_from_row(f) for f in found.get(r["id"], [])],
                                            kept.get(r["id"], [])))
                continue
            except (ValueError, TypeError, KeyError, OverflowError, RecursionError) as e:
                why = f"not readable as an attempt ({e})"
        whose = f" of {shown(names[r['trainee_id']])}" if names and r["trainee_id"] in names else ""
        left_out.append(f"attempt {str(r['uid'])[:64]}{whose}: {why}")
    return out


#: rows a server-side cursor brings at a time: the export holds these, never the class
ITERSIZE = 50


def server_lines(conn: psycopg.Connection, trainee: str | None = None, *,
                 left_out: list[str] | None = None, accounts: dict[str, str] | None = None,
                 refused_names: set[str] | None = None, practising: list[Trainee] | None = None,
                 formerly: Formerly | None = None, rounds: list[SupervisedLine] | None = None
                 ) -> list[Line]:
    """The class's attempts (without their logs: `streamed`), oldest first: one trainee's (the
    active person of this name) or everyone's, as a list (`streamed` reads them one by one).
    Each attempt is its person's (trainer.classes.server.people: the rows of one login's name,
    or merged by an instructor, are one trainee, shown as the row of the lowest id), so one
    person is one trainee in the
    transcript and one actor in the statements; two people of one name are refused as
    ambiguous. The attempts retracted, and those that cannot be read, are left out: named, with
    why, in `left_out`. `accounts` is given each name a row of the class was sent under and its
    person's uid (a name of one person only), so that a certificate under a name merged into
    another's is that person's actor too. A person one of whose trainee ids carries two names
    is left out whole, named in `left_out`, and given no account; the names their rows were
    sent under go into `refused_names` (as the app cleans them), whose certificates the caller
    leaves out too. `practising` is given the trainees whose practice attempts the lines carry
    (trainer.progress.handoff.one_person_each checks them before anything is written). A
    trainee id the instructor settled a claimant's is hers (trainer.classes.server.people "Claims
    settled"): `formerly` is given the actor its rows' attempts had before, and the accounts of
    before, so that the statements that put her results on the row's actor are voided
    (trainer.progress.handoff.statements). The supervised rounds of the same people go into
    `rounds` (trainer.progress.handoff_supervised.SupervisedLine), practice."""
    return list(streamed(conn, trainee, left_out=left_out, accounts=accounts, refused_names=refused_names,
                         practising=practising, formerly=formerly, rounds=rounds))


def streamed(conn: psycopg.Connection, trainee: str | None = None, *,
             left_out: list[str] | None = None, accounts: dict[str, str] | None = None,
             refused_names: set[str] | None = None, practising: list[Trainee] | None = None,
             formerly: Formerly | None = None, rounds: list[SupervisedLine] | None = None
             ) -> Iterator[Line]:
    """`server_lines` one at a time, as the server sends them: a class's logs (hundreds of MB)
    are never held at once. The trainees, the people, the disputed and settled ids (`formerly`:
    by trainee row, never by attempt), the supervised rounds (`rounds`: no log), the retractions
    and a first pass over the ids of the trainees with practice attempts (`practising`, never
    the attempts' rows) are read when it is called (UnknownTraineeError at once); the attempts
    (without their logs, which the hand-off never writes: `_columns_but_the_log`), their
    findings and their skills through three server-side cursors in one read-only snapshot,
    ITERSIZE rows at a time, in the same order, so that each attempt meets its own. An attempt
    sent between the two reads by a trainee the first pass did not see is left out, named. The
    connection is the caller's, in no transaction."""
    with conn.cursor(row_factory=dict_row) as cur:
        sent_as = {r["id"]: _trainee(r) for r in cur.execute(f"SELECT {_TRAINEE} FROM trainees")}
    claimed = claimed_names(conn)
    rows_of = {tid: replace(t, name=claimed[t.uid]) if t.uid in claimed else t for tid, t in sent_as.items()}
    person = people(conn)
    trainees = _shown(rows_of, person)
    two_names = disputed(conn)
    refused = {person.get(tid, tid) for tid, row in rows_of.items() if row.uid in two_names}
    for uid, called in two_names.items():
        if left_out is not None:
            left_out.append(f"trainee id {uid} carries two names in the class: {shown(called[0])}, "
                            f"its row's, and {', '.join(map(shown, called[1:]))}, claimed by a trainee's "
                            f"own login; its person's attempts and the certificates of {shown(called[0])} "
                            "left out, until the instructor settles whose it is")
    if refused_names is not None:
        refused_names.update(clean_name(row.name) for tid, row in rows_of.items()
                             if person.get(tid, tid) in refused)
    if accounts is not None:
        accounts.update(_accounts(rows_of, trainees, {trainees[tid].uid for tid in rows_of
                                                      if person.get(tid, tid) in refused}))
    if formerly is not None:
        _settled(conn, formerly, sent_as, claimed)
    where, params = "", cast(tuple, ())
    if trainee is not None:
        named = {t.id: t for t in trainees.values()
                 if not t.archived and t.name.casefold() == trainee.casefold()}
        if len(named) != 1:
            found = "no trainee" if not named else f"{len(named)} trainees"
            raise UnknownTraineeError(f"the class has {found} named {trainee!r}")
        where, params = "WHERE a.trainee_id = ANY(%s)", ([t for t in trainees if trainees[t].id in named],)
    kept = {tid for tid in trainees if person.get(tid, tid) not in refused}
    if rounds is not None:
        rounds.extend(_rounds(conn, where.replace("a.", "r."), params,
                              {tid: t for tid, t in trainees.items() if tid in kept},
                              [] if left_out is None else left_out))
    seen = _practising(conn, where, params) & kept
    if practising is not None:
        practising.extend({trainees[tid].uid: trainees[tid] for tid in sorted(seen)}.values())
    names = {tid: t.name for tid, t in trainees.items()}
    return _attempt_lines(conn, where, params, trainees, names, [] if left_out is None else left_out,
                          kept, seen)


def _settled(conn: psycopg.Connection, formerly: Formerly, sent_as: dict[int, Trainee],
             claimed: dict[str, str]) -> None:
    """Each claim the instructor settled, named in `formerly.settled`; for each id settled the
    claimant's, the person its row was before (`formerly.actors`, by row) and the accounts of
    before: from the trainees and the claims, never an attempt."""
    formerly.settled.extend(
        f"trainee id {c.uid}, claimed by the login of {shown(c.name)} while the class held it under "
        f"{shown(c.row_name)}, settled by {c.by} "
        + ("the claimant's: its results are written as hers" if c.outcome == "claimant" else
           f"the row's (the claim rejected): written under {shown(c.row_name)} as before")
        + f"; reason: {' '.join(c.reason.split())}" for c in settled_claims(conn)
        if c.row_name is not None)  # a claim of an id the class never held names no row (s039)
    if claimed:
        before = _shown(sent_as, people(conn, claims_settled=False))
        formerly.actors.update({tid: before[tid] for tid, t in sent_as.items() if t.uid in claimed})
        formerly.accounts.update(_accounts(sent_as, before, set()))


def _rounds(conn: psycopg.Connection, where: str, params: tuple, held: dict[int, Trainee],
            left_out: list[str]) -> list[SupervisedLine]:
    """The supervised rounds of the trainee rows `held` (a class from before s037 keeps none):
    their scores and faults, a few numbers and words each, never a log or a flag; those retracted
    (s041) or that cannot be read named in `left_out`."""
    if (conn.execute("SELECT to_regclass('supervised_rounds')").fetchone() or (None,))[0] is None:
        return []
    with conn.cursor(row_factory=dict_row) as cur:
        kept = cur.execute("SELECT r.id, r.uid, r.trainee_id, r.round_uid, r.game, r.difficulty, "
                           f"r.finished, r.score FROM supervised_rounds r {where}", params).fetchall()
        faults = cur.execute("SELECT f.round_id, f.kind, f.fault_class, f.caught FROM supervised_faults f "
                             f"JOIN supervised_rounds r ON r.id = f.round_id {where} "
                             "ORDER BY f.round_id, f.n", params).fetchall()
    return lines_of(held, kept, faults, left_out, retracted_rounds(conn))


def _practising(conn: psycopg.Connection, where: str, params: tuple) -> set[int]:
    """The trainee rows with a practice attempt not retracted (`streamed`'s first pass: ids only,
    one row a trainee, never an attempt's log)."""
    hidden = list(retracted(conn))
    practice = f"{'AND' if where else 'WHERE'} a.mode <> 'exam' AND NOT a.id = ANY(%s)"
    return {tid for (tid,) in conn.execute(f"SELECT DISTINCT a.trainee_id FROM attempts a {where} {practice}",
                                           (*params, hidden))}


def _attempt_lines(conn: psycopg.Connection, where: str, params: tuple, trainees: dict[int, Trainee],
                   names: dict[int, str], left_out: list[str], kept: set[int], seen: set[int]
                   ) -> Iterator[Line]:
    """The lines of the trainee rows `kept`; a practice attempt of a row the first pass did not
    see (`seen`: sent since) is left out, named, for its trainee was not checked."""
    order = "ORDER BY a.started, a.id"
    with conn.transaction(), conn.cursor() as setting:
        setting.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        hidden = retracted(conn)
        with conn.cursor("export_attempts", row_factory=dict_row) as rows, \
                conn.cursor("export_findings", row_factory=dict_row) as findings, \
                conn.cursor("export_skills", row_factory=dict_row) as skills:
            for cursor in (rows, findings, skills):
                cursor.itersize = ITERSIZE
            rows.execute(sql.SQL("SELECT {}, '[]' AS log FROM attempts a {} {}").format(
                sql.SQL(", ").join(sql.Identifier("a", c) for c in _columns_but_the_log(conn)),
                sql.SQL(where), sql.SQL(order)), params)
            findings.execute(f"SELECT f.* FROM findings f JOIN attempts a ON a.id = f.attempt_id {where} "
                             f"{order}, f.id", params)
            skills.execute(f"SELECT s.attempt_id, s.skill FROM attempt_skills s JOIN attempts a "
                           f"ON a.id = s.attempt_id {where} {order}, s.skill", params)
            found, of_each = _of_each(findings), _of_each(skills)
            for r in rows:
                own_findings, own_skills = found(r["id"]), of_each(r["id"])
                for a in readable([r], own_findings, own_skills, hidden, left_out, names):
                    if a.trainee_id in kept and (a.mode is Mode.EXAM or a.trainee_id in seen):
                        yield Line(trainees[a.trainee_id], a)
                    elif a.trainee_id not in trainees or a.trainee_id in kept:
                        left_out.append(f"attempt {a.uid[:64]}: sent while the class was read, by a "
                                        "trainee the export had not checked; export again to write it")


def _columns_but_the_log(conn: psycopg.Connection) -> list[str]:
    """The attempts' columns of this class, less the log: the hand-off writes no action of a log
    (trainer.progress.handoff), so the lines' attempts are read without theirs (their log empty),
    and a class's logs (up to 2,000 actions, about 110 KB, each) are neither sent nor parsed."""
    return [name for (name,) in conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = 'attempts'::regclass AND attnum > 0 "
        "AND NOT attisdropped AND attname <> 'log' ORDER BY attnum")]


def _of_each(cursor) -> Callable[[int], list[dict]]:
    """The rows of `cursor` of each attempt asked for: the rows come in their attempts' order,
    which is the order the attempts are asked for in (their own cursor's)."""
    rows = iter(cursor)
    ahead: list[dict] = []

    def of(attempt_id: int) -> list[dict]:
        mine: list[dict] = []
        while True:
            if not ahead:
                nxt = next(rows, None)
                if nxt is None:
                    return mine
                ahead.append(nxt)
            if ahead[0]["attempt_id"] != attempt_id:
                return mine
            mine.append(ahead.pop())
    return of


def _shown(rows_of: dict[int, Trainee], person: dict[int, int]) -> dict[int, Trainee]:
    """{row id: its person as the class shows them}: their row of the lowest id, active while
    any of their rows is."""
    members: dict[int, list[int]] = {}
    for tid in rows_of:
        members.setdefault(person.get(tid, tid), []).append(tid)
    return {tid: replace(rows_of[min(ms)], archived=all(rows_of[m].archived for m in ms))
            for ms in members.values() for tid in ms}


def _accounts(rows_of: dict[int, Trainee], trainees: dict[int, Trainee], none: set[str]) -> dict[str, str]:
    """{clean name: its person's uid} of each name the rows were sent under that is one person's
    only, less the persons' uids in `none`."""
    owners: dict[str, set[str]] = {}
    for tid, row in rows_of.items():
        owners.setdefault(clean_name(row.name), set()).add(trainees[tid].uid)
    return {name: uid for name, (uid, *more) in owners.items() if not more and uid not in none}


def class_lines(address: ClassAddress, trainee: str | None = None, *,
                left_out: list[str] | None = None, accounts: dict[str, str] | None = None,
                refused_names: set[str] | None = None, practising: list[Trainee] | None = None,
                formerly: Formerly | None = None, rounds: list[SupervisedLine] | None = None
                ) -> Iterator[Line]:
    """`streamed` from the class at `address`, through a connection of its own kept while the
    lines are read; what stops it before the first attempt is raised here (no such trainee, a
    server that cannot be reached or refuses), and a server that cannot be reached or refuses
    gives ClassServerError with one line saying why, then or while the lines are read. What
    `streamed` fills before the first attempt (`accounts`, `practising`, `formerly`, `rounds` ...)
    is filled when this returns."""
    lines = _class_lines(address, trainee, left_out=left_out, accounts=accounts, refused_names=refused_names,
                         practising=practising, formerly=formerly, rounds=rounds)
    next(lines)  # to the first attempt: what is refused before it is raised now
    return cast(Iterator[Line], lines)


def _class_lines(address: ClassAddress, trainee: str | None, *, left_out: list[str] | None,
                 accounts: dict[str, str] | None, refused_names: set[str] | None,
                 practising: list[Trainee] | None, formerly: Formerly | None,
                 rounds: list[SupervisedLine] | None) -> Iterator[Line | None]:
    try:
        with connect(address) as conn:
            lines = streamed(conn, trainee, left_out=left_out, accounts=accounts, refused_names=refused_names,
                             practising=practising, formerly=formerly, rounds=rounds)
            yield None
            yield from lines
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError(f"the class at {address.shown}: the login {address.user} may not read "
                               "the class (a workstation's or a trainee's): give the instructor's or "
                               "the supervisor's address") from None
    except psycopg.OperationalError as e:
        raise ClassServerError(f"the class at {address.shown}: {said(e, address.user, address.database)}") \
            from None
    except psycopg.Error as e:
        raise ClassServerError(f"the class at {address.shown}: {reason(e)}") from None
