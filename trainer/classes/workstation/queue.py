"""The workstation's side of a class: its progress file is the queue.

An attempt is written to the file first, as always (Store.record_attempt). It is *waiting* for
a class until the file has a `class_sent` row for it and that class (migration m013); that row is
written only after the server has committed the attempt. A crash between the two leaves the
attempt waiting, and it is pushed again: the server keeps one copy (its uid), so nothing is lost
and nothing doubled.

An attempt the class server refused (a row it does not keep, or a different attempt under its
uid there: trainer.classes.server.tables, s010) is *set aside* for that class: a `class_refused`
row with the server's reason (m016). It stays in the file, no longer waits, and is not sent to
that class again, so one refused attempt never stops the others. An exam's attempts never wait:
an exam reaches the class as its certificate, not as attempts (they stay in the file).

An exam sat under a class's sitting sends each answer and its end the same way: the session
writes each step to `exam_stream` (migration m017) with its link (trainer.exams.proof), and it
waits there until the server has answered it (`sent`, and the server's `reply`).

`Queue` has a connection of its own to the file (the app's Store keeps its own); the pusher's
thread and the app's `waiting()` share it under a lock.

**The file's full check.** Given the app's Store of the same file (`store`), the queue keeps the
store's rules for writing: nothing is written while the store's full check runs in the background
(`may_write` is False: the pusher sends nothing meanwhile, since what it sent it must mark), and
nothing ever again once the check found the file damaged. Then the queue's connection is made
read-only (closing a read-write one would checkpoint its -wal into the file), and the pusher stops
sending from this file: what a damaged file holds is not to be trusted, and what it cannot mark
sent it would send again and again. What waits is still counted, and stays in the file (and the
results recorded since, in the store's journal) for when the file is restored.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time

from trainer.classes.errors import ClassServerError
from trainer.progress.columns import ATTEMPTS, FINDINGS, TRAINEES
from trainer.progress.errors import DamagedDatabaseError
from trainer.progress.opening import read_only_instead
from trainer.progress.records import clean_name
from trainer.progress.store import BUSY_TIMEOUT, Store

_TRAINEE = [c for c in TRAINEES.names(local=False) if c != "id"]
_ATTEMPT = [c for c in ATTEMPTS.names(local=False) if c != "trainee_id"]
_FINDING = [c for c in FINDINGS.names() if c != "attempt_id"]
#: an attempt waiting for the class (its uid the one parameter): not sent, not set aside, no exam's
_WAITING = ("a.mode <> 'exam' "
            "AND NOT EXISTS (SELECT 1 FROM class_sent s WHERE s.class_uid = ?1 AND s.attempt_id = a.id) "
            "AND NOT EXISTS (SELECT 1 FROM class_refused r WHERE r.class_uid = ?1 AND r.attempt_id = a.id)")


def _trainee(t: sqlite3.Row) -> dict:
    """A trainee row as push_attempts takes it: its shared columns, and the salt her login made
    its id with when it has one (`salt`, m024), which proves her login's push of it (s043)."""
    row = {c: t[c] for c in _TRAINEE}
    if t["uid_salt"] is not None:
        row["salt"] = t["uid_salt"]
    return row


#: an attempt the class (its uid the first parameter) refused, not sent since, of the trainees
#: whose ids are the parameters from the third on
_SET_ASIDE = ("a.mode <> 'exam' AND a.trainee_id IN ({}) "
              "AND EXISTS (SELECT 1 FROM class_refused r WHERE r.class_uid = ?1 AND r.attempt_id = a.id) "
              "AND NOT EXISTS (SELECT 1 FROM class_sent s WHERE s.class_uid = ?1 AND s.attempt_id = a.id)")

#: an attempt the class (its uid the first parameter) refused for a reason holding the third
#: parameter's words, not sent since, of the trainees whose ids (uids) are the parameters from the
#: fourth on; driven from the refusals, which are few, not from the trainees' attempts (the `+`
#: keeps SQLite from starting at the trainees' uids, then reading every attempt of theirs)
_SET_ASIDE_FOR = ("a.id IN (SELECT r.attempt_id FROM class_refused r WHERE r.class_uid = ?1 "
                  "AND instr(r.reason, ?3) > 0) AND a.mode <> 'exam' AND +t.uid IN ({}) "
                  "AND NOT EXISTS (SELECT 1 FROM class_sent s "
                  "WHERE s.class_uid = ?1 AND s.attempt_id = a.id)")


class Queue:
    def __init__(self, path: str | os.PathLike, *, busy_timeout: float = BUSY_TIMEOUT,
                 store: Store | None = None):
        """`store`: the app's Store of the same file, whose full check decides whether the file
        may be written (see the module); None where no check runs beside the queue."""
        self.path = os.fspath(path)
        self.store = store
        self.read_only = False  # the file was found damaged: this connection only reads
        if self.path == ":memory:":
            raise ClassServerError("a progress file in memory cannot be a class's queue")
        self._conn = sqlite3.connect(self.path, timeout=busy_timeout, isolation_level=None,
                                     check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self.sending_steps = threading.Lock()  # one sender of exam steps at a time: they go in order
        if not self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'class_refused'").fetchone():
            self._conn.close()
            raise ClassServerError(f"{self.path} is not an open progress file (open it with the app first)")

    def close(self) -> None:
        with self._lock:
            if self.damaged:
                self._only_read()
            self._conn.close()

    # --------------------------------------------------------------- the file's check
    @property
    def damaged(self) -> bool:
        """The store's full check found the file damaged: nothing more is written to it."""
        return self.store is not None and self.store.damaged

    def may_write(self) -> bool:
        """Whether the file may be written now: not while the store's full check runs, never once
        it found the file damaged (this connection is made read-only then)."""
        if self.damaged:
            with self._lock:
                self._only_read()
            return False
        return self.store is None or not self.store.checking

    def _only_read(self) -> None:
        """The read-write connection let go without writing the file; a read-only one instead."""
        if self.read_only:
            return
        conn = read_only_instead(self._conn, self.path)
        if conn is not None:  # None: the file cannot be read now (the closed connection says so)
            conn.row_factory = sqlite3.Row
            self._conn = conn
        self.read_only = True

    # --------------------------------------------------------------- classes
    def class_of(self, address: str) -> str | None:
        """The class last pushed to at this address (None before the first push)."""
        with self._lock:
            row = self._conn.execute("SELECT uid FROM classes WHERE address = ? ORDER BY joined DESC LIMIT 1",
                                     (address,)).fetchone()
        return row[0] if row else None

    def remember(self, class_uid: str, address: str) -> None:
        self._write("INSERT INTO classes (uid, address, joined) VALUES (?, ?, ?) "
                    "ON CONFLICT (uid) DO UPDATE SET address = excluded.address, joined = excluded.joined",
                    [(class_uid, address, time.time())])

    # --------------------------------------------------------------- attempts
    def waiting(self, class_uid: str | None) -> int:
        """Attempts in the file the class has not confirmed (all of them before the first push)."""
        with self._lock:
            return self._conn.execute(f"SELECT count(*) FROM attempts a WHERE {_WAITING}",
                                      (class_uid or "",)).fetchone()[0]

    def anything_waiting(self, class_uid: str) -> bool:
        """An attempt, an exam's step or a supervised round waits for the class (the pusher's
        look, every poll, before it connects: what its batch reads, the first row only)."""
        with self._lock:
            return (self._conn.execute(f"SELECT 1 FROM attempts a WHERE {_WAITING} LIMIT 1",
                                       (class_uid,)).fetchone() is not None
                    or self._conn.execute("SELECT 1 FROM exam_stream WHERE sent IS NULL AND class_uid = ? "
                                          "LIMIT 1", (class_uid,)).fetchone() is not None
                    or self._conn.execute("SELECT 1 FROM supervised_rounds r WHERE NOT EXISTS (SELECT 1 FROM "
                                          "class_supervised c WHERE c.class_uid = ?1 AND c.round_id = r.id) "
                                          "LIMIT 1", (class_uid,)).fetchone() is not None)

    def batch(self, class_uid: str, size: int) -> tuple[list[int], dict]:
        """The oldest `size` waiting attempts: their ids here, and the batch push_attempts takes
        (trainer.classes.server.tables): their trainees, and each attempt with its trainee's uid,
        its skills and its findings."""
        with self._lock:
            return self._batch(class_uid, size)

    def set_aside_of(self, class_uid: str, trainee_name: str) -> tuple[list[int], dict]:
        """The attempts of the file's trainees of this name (as the class writes names) that the
        class refused and that were never sent since: their ids here, and the batch push_attempts
        takes (as `batch`). What a trainee sends with her own login (push.send_set_aside)."""
        with self._lock:
            ids = [t["id"] for t in self._conn.execute("SELECT id, name FROM trainees")
                   if clean_name(t["name"]) == trainee_name]
            marks = ", ".join(f"?{n}" for n in range(3, 3 + len(ids)))
            return self._batch(class_uid, -1, _SET_ASIDE.format(marks), ids)

    def set_aside_for(self, class_uid: str, why: str, trainee_uids: list[str]) -> tuple[list[int], dict]:
        """The attempts of these trainee ids that the class refused for a reason holding `why`
        and that were never sent since: their ids here, and the batch push_attempts takes (as
        `batch`). What the pusher sends again once the reason is gone (push.resend_claimed)."""
        marks = ", ".join(f"?{n}" for n in range(4, 4 + len(trainee_uids)))
        with self._lock:
            return self._batch(class_uid, -1, _SET_ASIDE_FOR.format(marks), [why, *trainee_uids])

    def _batch(self, class_uid: str, size: int, where: str = _WAITING, more: tuple | list = ()
               ) -> tuple[list[int], dict]:
        rows = self._conn.execute(
            f"SELECT a.*, t.uid AS trainee_uid FROM attempts a JOIN trainees t ON t.id = a.trainee_id "
            f"WHERE {where} ORDER BY a.id LIMIT ?2", (class_uid, size, *more)).fetchall()
        if not rows:
            return [], {}
        ids = [r["id"] for r in rows]
        marks = ", ".join("?" * len(ids))
        findings: dict[int, list[dict]] = {}
        for f in self._conn.execute(f"SELECT * FROM findings WHERE attempt_id IN ({marks}) ORDER BY id", ids):
            findings.setdefault(f["attempt_id"], []).append({c: f[c] for c in _FINDING})
        skills: dict[int, list[str]] = {}
        for s in self._conn.execute(f"SELECT attempt_id, skill FROM attempt_skills WHERE attempt_id IN "
                                    f"({marks}) ORDER BY attempt_id, skill", ids):
            skills.setdefault(s["attempt_id"], []).append(s["skill"])
        trainee_ids = sorted({r["trainee_id"] for r in rows})
        trainees = [_trainee(t) for t in self._conn.execute(
            f"SELECT * FROM trainees WHERE id IN ({', '.join('?' * len(trainee_ids))})", trainee_ids)]
        attempts = [{**{c: r[c] for c in _ATTEMPT}, "trainee_uid": r["trainee_uid"],
                     "skills": skills.get(r["id"], []), "findings": findings.get(r["id"], [])}
                    for r in rows]
        return ids, {"trainees": trainees, "attempts": attempts}

    def trainees(self) -> list[dict]:
        """Every trainee of the file, as push_attempts takes them (a trainee who has not started
        is in the class too)."""
        with self._lock:
            rows = self._conn.execute("SELECT * FROM trainees ORDER BY id").fetchall()
        # a name stored before names were cleaned goes as the class counts names (clean_name)
        return [{**_trainee(t), "name": clean_name(t["name"])} for t in rows]

    # --------------------------------------------------------------- an exam's steps
    def steps_waiting(self, class_uid: str | None) -> int:
        """The answers and ends of exams sat under a class's sittings not yet sent to it."""
        with self._lock:
            return self._conn.execute("SELECT count(*) FROM exam_stream WHERE sent IS NULL AND "
                                      "class_uid = ?", (class_uid or "",)).fetchone()[0]

    def exam_steps(self, class_uid: str, size: int) -> list[dict]:
        """The oldest `size` steps waiting for the class, in the order they are sent (each
        sitting's in its order): the sitting's nonce, the step and its link, and the answer's
        position and log (JSON text) or the ending (trainer.exams.session writes them)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT s.result_id, s.step, s.link, s.ending, r.uid AS nonce, a.position, a.log "
                "FROM exam_stream s JOIN exam_results r ON r.id = s.result_id "
                "LEFT JOIN exam_answers a ON a.id = s.answer_id "
                "WHERE s.sent IS NULL AND s.class_uid = ? ORDER BY s.result_id, s.step LIMIT ?",
                (class_uid, size)).fetchall()
        return [dict(r) for r in rows]

    def mark_step(self, result_id: int, step: int, reply: str) -> None:
        """A step reached the server, which said `reply` ("recorded", or "refused: why")."""
        self._write("UPDATE exam_stream SET sent = ?, reply = ? WHERE result_id = ? AND step = ? "
                    "AND sent IS NULL", [(time.time(), reply, result_id, step)])

    def mark_sent(self, class_uid: str, attempt_ids: list[int]) -> None:
        now = time.time()
        self._write("INSERT INTO class_sent (class_uid, attempt_id, sent) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING", [(class_uid, i, now) for i in attempt_ids])

    def set_aside(self, class_uid: str, refused: dict[int, str]) -> None:
        """The attempts (their ids here) the class refused, each with the server's reason: they
        wait no more for that class."""
        now = time.time()
        self._write("INSERT INTO class_refused (class_uid, attempt_id, refused, reason) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING", [(class_uid, i, now, why) for i, why in refused.items()])

    def refused(self, class_uid: str | None) -> list[tuple[str, str]]:
        """The attempts the class refused and that were not sent since (a trainee sends hers with
        her own login: push.send_set_aside), newest refusal first: (uid, the server's reason)."""
        with self._lock:
            return [tuple(r) for r in self._conn.execute(
                "SELECT a.uid, r.reason FROM class_refused r JOIN attempts a ON a.id = r.attempt_id "
                "WHERE r.class_uid = ?1 AND NOT EXISTS (SELECT 1 FROM class_sent s "
                "  WHERE s.class_uid = ?1 AND s.attempt_id = r.attempt_id) "
                "ORDER BY r.refused DESC, r.attempt_id DESC", (class_uid or "",))]

    def read(self, statement: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        """The rows of a query of the file, on the queue's connection (trainer.classes.workstation.
        supervised reads its rounds so)."""
        with self._lock:
            return self._conn.execute(statement, params).fetchall()

    def write(self, statement: str, rows: list[tuple]) -> None:
        """`statement` for each of `rows` in one transaction, under the file's check's rules."""
        self._write(statement, rows)

    def _write(self, statement: str, rows: list[tuple]) -> None:
        with self._lock:
            if self.damaged:  # found so while a push was under way: its marks are not written
                self._only_read()
                problems = self.store.check_problems if self.store is not None else None
                raise DamagedDatabaseError(self.path, "; ".join((problems or [])[:3]))
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany(statement, rows)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
