"""What a workstation set aside while a trainee's own login claimed a no-login classmate's id
reaches the class once the instructor settles the claim the row's, on a real PostgreSQL (the
seventh cold review's #138; trainer.classes.workstation.push `resend_claimed`).

The stage: Table 2 (the shared workstation login) sends Bo Chen's practice, so the class holds his
id; Ana Ruiz's own login claims that id ("held"). While the claim stands, the class refuses Table
2's pushes of Bo's attempts and supervised rounds ("a trainee's own login claims this trainee id
as hers"), and the file sets them aside. Bo has no login of his own to send them with
(send_set_aside): once `settle-claim --to row` makes the id his again, the workstation sends them
by itself with his next row the class takes, and nothing before."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3

import pytest

from tests.support.class_server import progress_file, rewritten
from tests.support.command import run_here
from tests.test_class_supervised import T, supervise
from trainer.classes.server.ledger import class_uid
from trainer.classes.server.logins import claim_trainee_uid, class_login
from trainer.classes.server.people import settle
from trainer.classes.workstation.push import connect, push_trainees, send_waiting
from trainer.classes.workstation.queue import Queue
from trainer.progress import Store

BO = "Bo Chen"
#: the class server's words refusing a workstation's push of a claimed id (s043, s044)
CLAIMED = "a trainee's own login claims this trainee id as hers"


@pytest.fixture
def claimed(tmp_path, klass):
    """Bo's first attempt sent from Table 2; Ana's login claims his id (held); then Bo works two
    attempts and supervises a round, which the class refuses and the file sets aside:
    {"file", "uid" (Bo's id), "set aside" (the attempts' uids)}."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
    path = progress_file(tmp_path / "table-2.db", {BO: 1})
    assert pushed(path, klass)[0] == 1
    with Store.open(path) as store:
        bo = store.find_trainee(BO)
    with klass.connect(ana, "ana-password") as conn:
        assert claim_trainee_uid(conn, bo.uid, bo.created) == "held"
    progress_file(path, {BO: 2}, start=1)
    supervise(path, BO, "props-and-hops", 1, T)
    assert pushed(path, klass)[0] == 0
    aside = set_aside(path)
    assert len(aside["attempts"]) == 2 and len(aside["rounds"]) == 1
    assert all(CLAIMED in why for why in [*aside["attempts"].values(), *aside["rounds"].values()])
    return {"file": path, "uid": bo.uid, "set aside": set(aside["attempts"])}


def pushed(path, klass) -> tuple[int, list[dict]]:
    """What the workstation's pusher does (send_waiting, with the shared workstation login): how
    many rows were sent, and what each push_attempts or push_supervised call carried (those with
    attempts or rounds: not the trainees sent alone)."""
    calls: list[dict] = []
    with contextlib.closing(Queue(path)) as queue, connect(klass.address()) as conn:
        execute = conn.execute

        def counted(statement, params=None, **more):
            if "push_attempts" in str(statement) or "push_supervised" in str(statement):
                carried = json.loads(params[0])
                if carried.get("attempts") or carried.get("rounds"):
                    calls.append(carried)
            return execute(statement, params, **more)

        conn.execute = counted
        uid = class_uid(conn)
        queue.remember(uid, klass.address().shown)
        push_trainees(conn, queue)
        return send_waiting(conn, queue, uid), calls


def set_aside(path) -> dict[str, dict[str, str]]:
    """The file's set-aside rows: {"attempts": {uid: reason}, "rounds": {round id: reason}}."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        attempts = dict(conn.execute(
            "SELECT a.uid, r.reason FROM class_refused r JOIN attempts a ON a.id = r.attempt_id "
            "WHERE NOT EXISTS (SELECT 1 FROM class_sent s WHERE s.attempt_id = r.attempt_id)"))
        rounds = dict(conn.execute("SELECT round_id, reason FROM class_supervised WHERE reason IS NOT NULL"))
    return {"attempts": attempts, "rounds": rounds}


def on_server(klass, uid: str) -> tuple[set[str], int]:
    """The uids of the attempts the class holds of the trainee id, and how many rounds."""
    attempts = {r[0] for r in klass.read("SELECT a.uid FROM attempts a JOIN trainees t ON "
                                         "t.id = a.trainee_id WHERE t.uid = %s", (uid,))}
    rounds = klass.read("SELECT count(*) FROM supervised_rounds r JOIN trainees t ON "
                        "t.id = r.trainee_id WHERE t.uid = %s", (uid,))[0][0]
    return attempts, rounds


def settled_rows(klass, uid: str) -> None:
    with klass.connect("instructor") as instructor:
        assert settle(instructor, uid, None, "Bo's profile came first; Ana mistyped") == 1


def test_the_rows_set_aside_for_the_claim_reach_the_class_after_settle_to_row(klass, claimed):
    uid = claimed["uid"]
    done = run_here("settle-claim", uid, "--to", "row", "--reason", "Bo's profile; Ana mistyped",
                    "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    attempts, rounds = on_server(klass, uid)
    assert len(attempts) == 1 and rounds == 0  # what the class held before the claim
    progress_file(claimed["file"], {BO: 1}, start=3)  # Bo's next attempt, after the settling
    sent, _ = pushed(claimed["file"], klass)
    assert sent == 4  # the new attempt, the two set aside, the round set aside
    attempts, rounds = on_server(klass, uid)
    assert claimed["set aside"] <= attempts and len(attempts) == 4 and rounds == 1
    assert set_aside(claimed["file"]) == {"attempts": {}, "rounds": {}}
    # the transcript: all four attempts and the round, under Bo's name and id
    done = run_here("export-results", "--class", klass.address("instructor").url, "--format", "csv",
                    "--trainee", BO)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert {(r["Trainee"], r["Trainee id"]) for r in rows} == {(BO, uid)}
    assert sorted(r["Mode"] == "Supervised round" for r in rows) == [False] * 4 + [True]
    # sent once: the next push sends nothing again
    assert pushed(claimed["file"], klass) == (0, [])  # nothing carried


def test_a_round_taken_again_sends_the_attempts_set_aside_too(klass, claimed):
    """The id sendable again is learnt from a supervised round as well as from an attempt."""
    settled_rows(klass, claimed["uid"])
    supervise(claimed["file"], BO, "pai-gow-dice", 9, T + 60)
    assert pushed(claimed["file"], klass)[0] == 4  # the new round, the round and 2 attempts set aside
    attempts, rounds = on_server(klass, claimed["uid"])
    assert claimed["set aside"] <= attempts and rounds == 2


def test_while_the_claim_stands_nothing_set_aside_is_sent_again(klass, claimed):
    path = claimed["file"]
    progress_file(path, {BO: 1, "Di": 1}, start=3)  # Di's is taken: Bo's id is not sendable
    for _ in range(3):
        _, calls = pushed(path, klass)
        carried = {a["uid"] for c in calls for a in c.get("attempts", [])}
        assert not claimed["set aside"] & carried
        assert not [c for c in calls if c.get("rounds")]
    aside = set_aside(path)
    assert len(aside["attempts"]) == 3 and len(aside["rounds"]) == 1  # Bo's new one set aside too
    assert len(on_server(klass, claimed["uid"])[0]) == 1
    # settled, the next row the class takes of Bo's sends the three, once
    settled_rows(klass, claimed["uid"])
    progress_file(path, {BO: 1}, start=4)
    assert pushed(path, klass)[0] == 5
    assert len(on_server(klass, claimed["uid"])[0]) == 5


def test_a_row_set_aside_for_another_reason_stays_set_aside(klass, claimed):
    path = claimed["file"]
    with Store.open(path) as store:
        bo = store.find_trainee(BO)
        bad = store.query("SELECT uid FROM attempts WHERE trainee_id = ? ORDER BY id", (bo.id,))[1]["uid"]
    # one of the two set aside for the claim holds what no class keeps (a NUL): refused again
    rewritten(path, bad, "source", "station\x007")
    progress_file(path, {BO: 1}, start=3)
    assert pushed(path, klass)[0] == 0
    settled_rows(klass, claimed["uid"])
    # and one set aside, after the settling, for what it holds
    progress_file(path, {BO: 2}, start=4)
    with Store.open(path) as store:
        damaged = store.query("SELECT uid FROM attempts ORDER BY id DESC LIMIT 1")[0]["uid"]
    rewritten(path, damaged, "source", "station\x008")
    sent, _ = pushed(path, klass)
    assert sent == 4  # the new good one; one set aside for the claim, the new one refused, the round
    aside = set_aside(path)["attempts"]
    assert set(aside) == {bad, damaged}
    assert CLAIMED in aside[bad]  # refused again: its first reason kept
    assert CLAIMED not in aside[damaged] and "NUL" in aside[damaged]
    # the one set aside for another reason is not sent with the next row the class takes
    progress_file(path, {BO: 1}, start=6)
    _, calls = pushed(path, klass)
    assert damaged not in {a["uid"] for c in calls for a in c.get("attempts", [])}
    assert set(set_aside(path)["attempts"]) == {bad, damaged}
