"""A workstation's supervised rounds sent to its class, with its attempts (trainer.progress.
supervised; the server's half is push_supervised, trainer.classes.server.tables s037).

A round waits for a class until the file has a `class_supervised` row for it and that class
(migration m023): written once the server has committed it, or refused it (with the server's
reason: set aside, as a refused attempt is, so that one refused round never stops the others).
Each round goes under a uid made from its trainee's id, its deal's id and when it was finished
(trainer.progress.supervised `round_uid`): the same on every machine and in every results file,
so that the class keeps one row per round however often it is sent or imported."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import psycopg

from trainer.classes.workstation.push import BATCH, UnsendableError, each_refused, resend_claimed
from trainer.classes.workstation.queue import Queue
from trainer.progress.supervised import round_uid

#: a supervised round waiting for the class (its uid the first parameter)
_WAITING = ("NOT EXISTS (SELECT 1 FROM class_supervised c WHERE c.class_uid = ?1 AND c.round_id = r.id)")
#: a supervised round the class refused (set aside) for a reason holding the third parameter's
#: words, of the trainees whose ids are the parameters from the fourth on
_SET_ASIDE_FOR = ("EXISTS (SELECT 1 FROM class_supervised c WHERE c.class_uid = ?1 AND c.round_id = r.id "
                  "AND instr(c.reason, ?3) > 0) AND t.uid IN ({})")
_ROUND = ("round_uid", "game", "difficulty", "finished", "pace", "score", "d_prime", "false_alarms", "flags")


def waiting(queue: Queue, class_uid: str | None) -> int:
    """Supervised rounds the class has not confirmed (every one before the first push)."""
    return queue.read(f"SELECT count(*) FROM supervised_rounds r WHERE {_WAITING}", (class_uid or "",))[0][0]


def batch(queue: Queue, class_uid: str, size: int, where: str = _WAITING, more: tuple | list = ()
          ) -> tuple[list[int], list[dict]]:
    """The oldest `size` waiting rounds (or those `where` names, its parameters from the third
    on `more`): their ids here, and each as push_supervised takes it."""
    rows = queue.read(f"SELECT r.*, t.uid AS trainee_uid FROM supervised_rounds r JOIN trainees t "
                      f"ON t.id = r.trainee_id WHERE {where} ORDER BY r.id LIMIT ?2",
                      (class_uid, size, *more))
    if not rows:
        return [], []
    ids = [r["id"] for r in rows]
    faults: dict[int, list[dict]] = {}
    for f in queue.read(f"SELECT * FROM supervised_faults WHERE round_id IN ({', '.join('?' * len(ids))}) "
                        "ORDER BY round_id, n", ids):
        faults.setdefault(f["round_id"], []).append(
            {"n": f["n"], "kind": f["kind"], "fault_class": f["fault_class"], "caught": bool(f["caught"]),
             "seconds": f["seconds"]})
    return ids, [{"uid": round_uid(r["trainee_uid"], r["round_uid"], r["finished"]),
                  "trainee_uid": r["trainee_uid"], **{c: r[c] for c in _ROUND},
                  "faults": faults.get(r["id"], [])} for r in rows]


def set_aside_for(queue: Queue, class_uid: str, why: str, trainee_uids: list[str]
                  ) -> tuple[list[int], list[dict]]:
    """The rounds of these trainee ids that the class refused for a reason holding `why` (set
    aside: their `class_supervised` row holds it), as `batch` gives them. What the pusher sends
    again once the reason is gone (push.resend_claimed)."""
    marks = ", ".join(f"?{n}" for n in range(4, 4 + len(trainee_uids)))
    return batch(queue, class_uid, -1, _SET_ASIDE_FOR.format(marks), [why, *trainee_uids])


def sender(conn: psycopg.Connection, queue: Queue, class_id: str) -> Callable[[list[tuple[int, dict]]], None]:
    """send(part): part's rounds ((id here, round)) pushed with their trainees in one transaction,
    then marked sent in the file (a round set aside before is sent now: its reason goes)."""
    trainees = {t["uid"]: t for t in queue.trainees()}

    def send(part: list[tuple[int, dict]]) -> None:
        named = {r["trainee_uid"] for _, r in part}
        try:
            people = json.dumps({"trainees": [trainees[u] for u in named if u in trainees], "attempts": []})
            text = json.dumps({"rounds": [r for _, r in part]})
        except (TypeError, ValueError) as e:
            raise UnsendableError(f"this workstation cannot send it ({e})") from None
        with conn.transaction():
            conn.execute("SELECT push_attempts(%s::jsonb)", (people,))
            conn.execute("SELECT push_supervised(%s::jsonb)", (text,))
        queue.write("INSERT INTO class_supervised (class_uid, round_id, at) VALUES (?, ?, ?) "
                    "ON CONFLICT DO UPDATE SET at = excluded.at, reason = NULL",
                    [(class_id, i, time.time()) for i, _ in part])

    return send


def push_rounds(conn: psycopg.Connection, queue: Queue, class_id: str, size: int = BATCH) -> tuple[int, int]:
    """Send the oldest `size` waiting rounds in one transaction, with their trainees: (sent,
    refused); (0, 0) when none waits. A round the server refuses is found (each_refused) and set
    aside with its reason, the others sent; the rows of their trainee ids set aside for a claim
    are sent with them (push.resend_claimed) and counted sent."""
    ids, rounds = batch(queue, class_id, size)
    if not ids:
        return 0, 0
    items = list(zip(ids, rounds, strict=True))
    refused = each_refused(sender(conn, queue, class_id), items)
    if refused:
        queue.write("INSERT INTO class_supervised (class_uid, round_id, at, reason) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    [(class_id, i, time.time(), why.removeprefix("refused ")) for (i, _), why in refused])
    again = resend_claimed(conn, queue, class_id, items, refused)
    return len(ids) - len(refused) + again, len(refused)
