"""Retractions (migration s010_checked_pushes_and_retractions): an instructor hides an attempt
of the class from the exports and the class view, with a reason. A retraction is a row only
ever added, by an instructor's login (who and when are the server's: `retracted_by` is the
login, `retracted` the server's clock); nobody changes or removes one, so the attempt and why it
was hidden both stay on the server. The rows s010 found stored before it checked what it keeps
were retracted by it, each with the check it fails.

- `retract(conn, uid, reason)`: an instructor retracts an attempt or a supervised round (s041)
  by its uid (the "Attempt id" of the transcript); which it was, "attempt" or "supervised round";
  ClassServerError says why not (no such attempt or round, retracted already, a reason the class
  does not keep, a login that is not an instructor's);
- `retracted(conn)`: the attempts retracted, {server id: why, in words}, as the connection's role
  may read them ({} on a class before s010); `retracted_rounds(conn)` the same of the
  supervised rounds ({} on a class before s041).
"""

from __future__ import annotations

import psycopg

from trainer.classes.errors import ClassServerError
from trainer.classes.server.sql import value
from trainer.progress.records import clean_name

#: the longest reason the class keeps (s010)
REASON_LONGEST = 500


def retract(conn: psycopg.Connection, uid: str, reason: str) -> str:
    why = clean_name(" ".join(reason.split()))
    if not why:
        raise ClassServerError("a retraction needs a reason (it is kept with it)")
    if len(why) > REASON_LONGEST:
        raise ClassServerError(f"the reason is {len(why):,} characters; the class keeps "
                               f"{REASON_LONGEST} at most")
    try:
        try:
            with conn.transaction():
                conn.execute("SELECT retract_attempt(%s, %s)", (uid, why))
            return "attempt"
        except psycopg.errors.NoDataFound:
            if not _kept(conn, "supervised_retractions"):
                raise
        try:
            with conn.transaction():
                conn.execute("SELECT retract_supervised_round(%s, %s)", (uid, why))
            return "supervised round"
        except psycopg.errors.NoDataFound:
            raise ClassServerError(f"no attempt or supervised round {uid[:64]} is on the class "
                                   "server") from None
    except psycopg.errors.UndefinedFunction:
        raise ClassServerError("this class server keeps no retractions yet: start it with this "
                               "version (dealer-trainer class-server) to bring it up to date") from None
    except (psycopg.errors.NoDataFound, psycopg.errors.UniqueViolation) as e:
        raise ClassServerError(str(e).strip().splitlines()[0]) from None
    except psycopg.errors.InsufficientPrivilege:
        raise ClassServerError("only an instructor's login retracts an attempt or a supervised "
                               "round") from None


def _kept(conn: psycopg.Connection, table: str) -> bool:
    return bool(value(conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,))))


def retracted(conn: psycopg.Connection) -> dict[int, str]:
    if value(conn.execute("SELECT to_regclass('retractions') IS NULL")):
        return {}
    return {attempt_id: f"retracted by {by}: {reason}" for attempt_id, by, reason in conn.execute(
        "SELECT attempt_id, retracted_by, reason FROM retractions ORDER BY attempt_id")}


def retracted_rounds(conn: psycopg.Connection) -> dict[int, str]:
    if not _kept(conn, "supervised_retractions"):
        return {}
    return {round_id: f"retracted by {by}: {reason}" for round_id, by, reason in conn.execute(
        "SELECT round_id, retracted_by, reason FROM supervised_retractions ORDER BY round_id")}
