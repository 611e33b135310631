"""The class's attempts read back from the server, as the hand-off to the employer takes them
(trainer.progress.handoff.Line): the same records a progress file gives, from the same columns
(trainer.progress.columns), turned into records by the same code (trainer.progress.rows).

What a connection reads is what its role may: the class for an instructor or supervisor, their
own attempts for a trainee (row-level security, trainer.classes.server.tables).

A row is left out, and named with why in `left_out`, rather than fail the whole class: the
attempts of a person one of whose trainee ids carries two names (a trainee's own login claimed
it while the class held it under another name: trainer.classes.server.people.disputed), so
that no actor is given two people; an attempt an instructor retracted
(trainer.classes.server.retractions; s010 retracted, with the check each fails, the rows stored
before it checked them), and one this app cannot read as an attempt (`readable`).
"""

from __future__ import annotations

from dataclasses import replace

import psycopg
from psycopg.rows import dict_row

from trainer.classes.errors import ClassServerError
from trainer.classes.server.people import disputed, people
from trainer.classes.server.retractions import retracted
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.push import connect, reason, said
from trainer.errors import shown
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.handoff import Line
from trainer.progress.records import Attempt, Trainee, clean_name
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


def server_lines(conn: psycopg.Connection, trainee: str | None = None, *,
                 left_out: list[str] | None = None, accounts: dict[str, str] | None = None,
                 refused_names: set[str] | None = None) -> list[Line]:
    """The class's attempts, oldest first: one trainee's (the active person of this name) or
    everyone's. Each attempt is its person's (trainer.classes.server.people: the rows of one
    login's name, or merged by an instructor, are one trainee, shown as the row of the lowest
    id), so one person is one trainee in the transcript and one actor in the statements; two
    people of one name are refused as ambiguous. The attempts retracted, and those that cannot
    be read, are left out: named, with why, in `left_out`. `accounts` is given each name a row of
    the class was sent under and its person's uid (a name of one person only), so that a
    certificate under a name merged into another's is that person's actor too. A person one of
    whose trainee ids carries two names is left out whole, named in `left_out`, and given no
    account; the names their rows were sent under go into `refused_names` (as the app cleans
    them), whose certificates the caller leaves out too."""
    with conn.cursor(row_factory=dict_row) as cur:
        rows_of = {r["id"]: _trainee(r) for r in cur.execute(f"SELECT {_TRAINEE} FROM trainees")}
    person = people(conn)
    members: dict[int, list[int]] = {}
    for tid in rows_of:
        members.setdefault(person.get(tid, tid), []).append(tid)
    # a person is shown as their row of the lowest id, active while any of their rows is
    trainees = {tid: replace(rows_of[min(ms)], archived=all(rows_of[m].archived for m in ms))
                for ms in members.values() for tid in ms}
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
        owners: dict[str, set[str]] = {}
        for tid, row in rows_of.items():
            owners.setdefault(clean_name(row.name), set()).add(trainees[tid].uid)
        no_account = {trainees[tid].uid for tid in rows_of if person.get(tid, tid) in refused}
        accounts.update({name: uid for name, (uid, *more) in owners.items()
                         if not more and uid not in no_account})
    where, params = "", ()
    if trainee is not None:
        named = {t.id: t for t in trainees.values()
                 if not t.archived and t.name.casefold() == trainee.casefold()}
        if len(named) != 1:
            found = "no trainee" if not named else f"{len(named)} trainees"
            raise UnknownTraineeError(f"the class has {found} named {trainee!r}")
        where, params = "WHERE a.trainee_id = ANY(%s)", ([t for t in trainees if trainees[t].id in named],)
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(f"SELECT a.* FROM attempts a {where} ORDER BY a.started, a.id", params).fetchall()
        findings = cur.execute(f"SELECT f.* FROM findings f JOIN attempts a ON a.id = f.attempt_id {where} "
                               "ORDER BY f.id", params).fetchall()
        skills = cur.execute(f"SELECT s.attempt_id, s.skill FROM attempt_skills s JOIN attempts a "
                             f"ON a.id = s.attempt_id {where} ORDER BY s.attempt_id, s.skill",
                             params).fetchall()
        hidden = retracted(conn)
    names = {tid: t.name for tid, t in trainees.items()}
    attempts = readable(rows, findings, skills, hidden, [] if left_out is None else left_out, names)
    return [Line(trainees[a.trainee_id], a) for a in attempts
            if person.get(a.trainee_id, a.trainee_id) not in refused]


def class_lines(address: ClassAddress, trainee: str | None = None, *,
                left_out: list[str] | None = None, accounts: dict[str, str] | None = None,
                refused_names: set[str] | None = None) -> list[Line]:
    """`server_lines` of the class at `address`; a server that cannot be reached or refuses
    gives ClassServerError with one line saying why."""
    try:
        with connect(address) as conn:
            return server_lines(conn, trainee, left_out=left_out, accounts=accounts,
                                refused_names=refused_names)
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError(f"the class at {address.shown}: the login {address.user} may not read "
                               "the class (a workstation's or a trainee's): give the instructor's or "
                               "the supervisor's address") from None
    except psycopg.OperationalError as e:
        raise ClassServerError(f"the class at {address.shown}: {said(e, address.user, address.database)}") \
            from None
    except psycopg.Error as e:
        raise ClassServerError(f"the class at {address.shown}: {reason(e)}") from None
