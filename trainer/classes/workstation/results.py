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
from trainer.classes.server.people import claimed_names, disputed, people, settled_claims
from trainer.classes.server.retractions import retracted
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.push import connect, reason, said
from trainer.errors import shown
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.handoff import Formerly, Line
from trainer.progress.handoff_supervised import lines_of
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
                 refused_names: set[str] | None = None, formerly: Formerly | None = None,
                 rounds: list | None = None) -> list[Line]:
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
    them), whose certificates the caller leaves out too. A trainee id the instructor settled a
    claimant's is hers (trainer.classes.server.people "Claims settled"): `formerly` is given the
    actor each of its attempts had before, and the accounts of before, so that the statements
    that put her results on the row's actor are voided (trainer.progress.handoff.statements).
    The supervised rounds of the same people go into `rounds`
    (trainer.progress.handoff_supervised.SupervisedLine), practice."""
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
    then: dict[int, Trainee] = {}  # each row settled a claimant's: its person before the settling
    if formerly is not None:
        formerly.settled.extend(
            f"trainee id {c.uid}, claimed by the login of {shown(c.name)} while the class held it under "
            f"{shown(c.row_name)}, settled by {c.by} "
            + ("the claimant's: its results are written as hers" if c.outcome == "claimant" else
               f"the row's (the claim rejected): written under {shown(c.row_name)} as before")
            + f"; reason: {' '.join(c.reason.split())}" for c in settled_claims(conn)
            if c.row_name is not None)
    if formerly is not None and claimed:
        before = _shown(sent_as, people(conn, claims_settled=False))
        then = {tid: before[tid] for tid, t in sent_as.items() if t.uid in claimed}
        formerly.accounts.update(_accounts(sent_as, before, set()))
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
        kept_here = (conn.execute("SELECT to_regclass('supervised_rounds')").fetchone() or (None,))[0]
        if rounds is not None and kept_here is not None:  # a class from before s037 keeps none
            held = {tid: t for tid, t in trainees.items() if person.get(tid, tid) not in refused}
            mine = where.replace("a.", "r.")
            kept = cur.execute(f"SELECT r.* FROM supervised_rounds r {mine}", params).fetchall()
            faults = cur.execute(f"SELECT f.* FROM supervised_faults f JOIN supervised_rounds r "
                                 f"ON r.id = f.round_id {mine} ORDER BY f.round_id, f.n", params).fetchall()
            rounds.extend(lines_of(held, kept, faults))
    names = {tid: t.name for tid, t in trainees.items()}
    attempts = readable(rows, findings, skills, hidden, [] if left_out is None else left_out, names)
    if formerly is not None:
        formerly.actors.update({a.uid: then[a.trainee_id] for a in attempts if a.trainee_id in then})
    return [Line(trainees[a.trainee_id], a) for a in attempts
            if person.get(a.trainee_id, a.trainee_id) not in refused]


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
                refused_names: set[str] | None = None, formerly: Formerly | None = None,
                rounds: list | None = None) -> list[Line]:
    """`server_lines` of the class at `address`; a server that cannot be reached or refuses
    gives ClassServerError with one line saying why."""
    try:
        with connect(address) as conn:
            return server_lines(conn, trainee, left_out=left_out, accounts=accounts,
                                refused_names=refused_names, formerly=formerly,
                                rounds=rounds)
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError(f"the class at {address.shown}: the login {address.user} may not read "
                               "the class (a workstation's or a trainee's): give the instructor's or "
                               "the supervisor's address") from None
    except psycopg.OperationalError as e:
        raise ClassServerError(f"the class at {address.shown}: {said(e, address.user, address.database)}") \
            from None
    except psycopg.Error as e:
        raise ClassServerError(f"the class at {address.shown}: {reason(e)}") from None
