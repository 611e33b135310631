"""The exam ledger on the class server (migration s002_exam_ledger): the sittings an instructor
issued and the sittings used, as rows only ever added. The number of attempts a trainee has had
at a form is the number of sittings issued to them: no workstation, and no role of the server,
can take one back (the rows cannot be changed or removed), and a sitting is used once (its use
is a row keyed by its nonce).

These are the server's halves of trainer.exams.certify's `issue_sitting` (which counts the
attempts used, then records the signed token) and `certify` (which marks a sitting used).
"""

from __future__ import annotations

import time

import psycopg

from trainer.progress.columns import EXAM_SITTINGS
from trainer.progress.errors import ClassServerError

SITTING_COLUMNS = EXAM_SITTINGS.names(local=False)


def attempts_used(conn: psycopg.Connection, trainee_name: str, form_uid: str) -> int:
    return conn.execute("SELECT count(*) FROM exam_sittings WHERE trainee_name = %s AND form_uid = %s",
                        (trainee_name, form_uid)).fetchone()[0]


def record_sitting(conn: psycopg.Connection, sitting: dict) -> None:
    """Add an issued sitting (its columns as trainer.progress.columns.EXAM_SITTINGS's). Its
    attempt number must be the next: two instructors issuing the same attempt at once, one is
    refused."""
    values = [sitting.get(c) for c in SITTING_COLUMNS]
    try:
        with conn.transaction():
            conn.execute(f"INSERT INTO exam_sittings ({', '.join(SITTING_COLUMNS)}) "
                         f"VALUES ({', '.join(['%s'] * len(values))})", values)
    except psycopg.errors.UniqueViolation:
        raise ClassServerError(f"attempt {sitting.get('attempt')} of {sitting.get('trainee_name')!r} at "
                               "this form was already issued") from None


def use_sitting(conn: psycopg.Connection, nonce: str, result_uid: str, *, at: float | None = None) -> None:
    """Mark a sitting used, for this result; ClassServerError if it was used before or never
    issued."""
    try:
        with conn.transaction():
            conn.execute("INSERT INTO exam_sitting_uses (nonce, result_uid, used) VALUES (%s, %s, %s)",
                         (nonce, result_uid, time.time() if at is None else at))
    except psycopg.errors.UniqueViolation:
        raise ClassServerError("this sitting was already used") from None
    except psycopg.errors.ForeignKeyViolation:
        raise ClassServerError("this sitting was not issued by this class's ledger") from None
