"""Supervised rounds reach the class with the attempts (migration s037, m023;
trainer.classes.workstation.supervised), on a real PostgreSQL: the same pusher and queue, one row
per round by its uid, checked and bounded by the server, charged to the login's quota, and sent
only by a login that may send its trainee's rows."""

from __future__ import annotations

import contextlib
import json
import threading
from fractions import Fraction

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import progress_file, until
from trainer.classes.server.ledger import class_uid
from trainer.classes.server.logins import class_login
from trainer.classes.workstation.classview import follow, read_class
from trainer.classes.workstation.push import Pusher, connect, push_trainees, send_waiting
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.supervised import batch, waiting
from trainer.progress import Store, record_supervised
from trainer.progress.supervised import round_uid
from trainer.supervise.playback import deal
from trainer.supervise.scoring import Flag, score

#: when the rounds were finished (the class keeps times between 2000 and 2100, s041)
T = 1_780_000_000.0


def faulty(game: str, start: int = 1):
    """A round of `game` with two faults or more (the first seed from `start` that deals one)."""
    seed = next(s for s in range(start, start + 80) if len(deal(game, 2, s).faults) >= 2)
    return deal(game, 2, seed)


def supervise(path, name: str, game: str, seed: int, finished: float) -> None:
    """`name` supervises a round of `game` in the file: catches its first fault, misses the rest."""
    rnd = faulty(game, seed)
    first = rnd.faults[0]
    with Store.open(path) as store:
        found = store.find_trainee(name)
        tid = found.id if found else store.add_trainee(name)
        record_supervised(store, tid, rnd, score(rnd, [Flag(first.at + 1.0, first.target, first.type.id)]),
                          2, finished=finished)


def send(path, address, conn=None) -> int:
    """What a pusher sends of the file, on a connection of its own or on `conn` (kept open)."""
    with contextlib.closing(Queue(path)) as queue, \
            (contextlib.nullcontext(conn) if conn is not None else connect(address)) as conn:
        uid = class_uid(conn)
        queue.remember(uid, address.shown)
        push_trainees(conn, queue)
        return send_waiting(conn, queue, uid)


def one_round(path) -> dict:
    with contextlib.closing(Queue(path)) as queue:
        return batch(queue, "any class", 1)[1][0]


def test_rounds_reach_the_class_once_with_their_faults(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1})
    supervise(path, "Ana", "props-and-hops", 1, T)
    supervise(path, "Ana", "pai-gow-dice", 9, T + 60)
    assert send(path, klass.address()) == 3  # an attempt and two rounds
    with klass.admin() as admin:
        rounds = admin.execute("SELECT r.game, r.round_uid, r.finished, t.name FROM supervised_rounds r "
                               "JOIN trainees t ON t.id = r.trainee_id ORDER BY r.finished").fetchall()
        faults = admin.execute("SELECT r.game, f.n, f.caught FROM supervised_faults f "
                               "JOIN supervised_rounds r ON r.id = f.round_id "
                               "ORDER BY r.finished, f.n").fetchall()
    assert [(g, t, n) for g, _, t, n in rounds] == [("props-and-hops", T, "Ana"),
                                                    ("pai-gow-dice", T + 60, "Ana")]
    assert rounds[0][1] == faulty("props-and-hops", 1).id
    expected = [(g, n, n == 0) for g, s in (("props-and-hops", 1), ("pai-gow-dice", 9))
                for n in range(len(faulty(g, s).faults))]
    assert faults == expected
    with contextlib.closing(Queue(path)) as queue:
        assert waiting(queue, class_uid(klass.connect())) == 0
    # sent again from a copy of the file that never heard back: the class keeps one row each
    with Store.open(path) as store, store.write() as db:
        db.execute("DELETE FROM class_supervised")
    assert send(path, klass.address()) == 2
    assert klass.count("supervised_rounds") == 2 and klass.count("supervised_faults") == len(expected)


def test_the_pusher_sends_rounds_as_it_sends_attempts(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 0})
    pusher = Pusher(str(path), klass.address(), poll=0.05, idle=0.5)
    pusher.start()
    try:
        supervise(path, "Ana", "three-dice-football", 1, T)
        pusher.wake()
        until(lambda: klass.count("supervised_rounds") == 1, what="the round sent")
        until(lambda: pusher.waiting() == 0, what="nothing waiting")
    finally:
        pusher.close()


def test_a_round_the_class_refuses_is_set_aside_and_the_others_go(tmp_path, klass):
    """Ana has a login of her own: the shared workstation's login may not send her round, which
    is set aside with the reason; Bo's goes."""
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1, "Bo": 1})
    send(path, klass.address())
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana", "ana-password")
    supervise(path, "Ana", "props-and-hops", 1, T)
    supervise(path, "Bo", "props-and-hops", 5, T + 1)
    assert send(path, klass.address()) == 1
    with klass.admin() as admin:
        assert admin.execute("SELECT t.name FROM supervised_rounds r JOIN trainees t ON t.id = r.trainee_id"
                             ).fetchall() == [("Bo",)]
    with Store.open(path) as store:
        (why,) = [r["reason"] for r in store.query(
            "SELECT reason FROM class_supervised WHERE reason IS NOT NULL")]
    assert "Ana has a login of their own" in why
    with contextlib.closing(Queue(path)) as queue:
        assert waiting(queue, class_uid(klass.connect())) == 0


def test_a_trainee_login_sends_only_her_own_rounds(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1, "Bo": 1})
    send(path, klass.address())
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Ana", "ana-password")
    supervise(path, "Bo", "props-and-hops", 1, T)
    bos = one_round(path)
    with klass.connect(login, "ana-password") as ana, pytest.raises(psycopg.Error, match="only their own"):
        ana.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [bos]}),))
    assert klass.count("supervised_rounds") == 0


def other_kind(rnd: dict) -> dict:
    """The round with its first fault named as a fault of another game."""
    return {"faults": [{**rnd["faults"][0], "kind": "pgd-short-pay"}, *rnd["faults"][1:]]}


def own_uid(rnd: dict, **change) -> dict:
    """The change, under the uid the app would give the round changed (so that only the change
    is refused)."""
    r = {**rnd, **change}
    return {**change, "uid": round_uid(r["trainee_uid"], r["round_uid"], r["finished"])}


#: each refused by the class (the sixth cold review's #121 and #122 among them), by what it says
HOSTILE = {
    "game": (lambda r: {"game": "roulette"}, "its game is not one of the class's games"),
    "difficulty": (lambda r: {"difficulty": 9}, "its difficulty is not 1 to 5"),
    "pace 0": (lambda r: {"pace": 0}, "its pace is not"),
    "pace 3600": (lambda r: {"pace": 3600.0}, "its pace is not"),
    "score 1e9": (lambda r: {"score": "1e9"}, "its score is not a fraction from 0 to 1"),
    "score 1/0": (lambda r: {"score": "1/0"}, "its score is not a fraction from 0 to 1"),
    "score 0/0": (lambda r: {"score": "0/0"}, "its score is not a fraction from 0 to 1"),
    "score 3/2": (lambda r: {"score": "3/2"}, "its score is not a fraction from 0 to 1"),
    "score 2/4": (lambda r: {"score": "2/4"}, "its score is not a fraction from 0 to 1"),
    "score huge": (lambda r: {"score": "9999999999999999999"}, "its score is not a fraction from 0 to 1"),
    "finished 1970": (lambda r: own_uid(r, finished=0.0), "finished at a time between 2000 and"),
    "finished 5138": (lambda r: own_uid(r, finished=1e11), "finished at a time between 2000 and"),
    "round id RLO ESC CR LF": (lambda r: own_uid(r, round_uid="supervise-v1:\u202egnp.exe\x1b[31m\r\nx:2:1"),
                               "its deal's id is not one the app deals"),
    "round id a formula": (lambda r: own_uid(r, round_uid='=HYPERLINK("http://x.example/","Click")'),
                           "its deal's id is not one the app deals"),
    "round id 99 faults": (lambda r: own_uid(r, round_uid="supervise-v1:ph-first-shake:99:1"),
                           "its deal's id is not one the app deals"),
    "flags long": (lambda r: {"flags": "x" * 70_000}, "its flags are not JSON"),
    "flags not JSON": (lambda r: {"flags": "{{{not json"}, "its flags are not JSON"),
    "flags 5,000 deep": (lambda r: {"flags": "[" * 5000 + "]" * 5000}, "its flags are not a list of"),
    "flags a control character": (lambda r: {"flags": '[{"at": 1, "target": "call\\u001b", "kind": "x"}]'},
                                  "its flags are not a list of"),
    "more false alarms than flags": (lambda r: {"false_alarms": 5}, "more false alarms than flags"),
    "101 faults": (lambda r: {"faults": [{**r["faults"][0], "n": n} for n in range(101)]}, "at most 100"),
    "a fault of another game": (other_kind, "not a type of the catalogue of its game"),
    "a fault's class not its kind's": (
        lambda r: {"faults": [{**r["faults"][0], "fault_class": next(
            c for c in ("order", "money") if c != r["faults"][0]["fault_class"])}, *r["faults"][1:]]},
        "not a type of the catalogue of its game"),
    "a fault's class unknown": (lambda r: {"faults": [{**f, "fault_class": "luck"} for f in r["faults"]]},
                                "not a type of the catalogue of its game"),
    "faults numbered twice": (lambda r: {"faults": [{**f, "n": 0} for f in r["faults"]]},
                              "not numbered 0, 1, 2"),
    "more faults than dealt": (lambda r: {"faults": [*r["faults"], {**r["faults"][-1], "n": len(r["faults"]),
                                                                   "caught": False, "seconds": None}]},
                               "other than the faults its deal"),
    "a catch with no flag": (lambda r: {"faults": [{**f, "caught": True, "seconds": 1.0}
                                                   for f in r["faults"]]},
                             "its flags are not its faults caught and its false alarms"),
    "seconds of a fault missed": (lambda r: {"faults": [r["faults"][0], {**r["faults"][1], "seconds": 2.0},
                                                        *r["faults"][2:]]}, "seconds_check"),
    "uid not a digest": (lambda r: {"uid": "not a digest"}, "its id is not a SHA-256 digest"),
    "uid another round's": (lambda r: {"uid": round_uid(r["trainee_uid"], r["round_uid"], r["finished"] + 1)},
                            "its id is not its own"),
    "trainee not in the class": (lambda r: {"trainee_uid": "nobody"}, "not in the class"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_the_server_checks_every_round(tmp_path, klass, case):
    change, says = HOSTILE[case]
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1})
    # one connection of the workstation's login, as a pusher holds it, for the trainee's push,
    # the hostile round and the round as the app wrote it: a connection for each cost the server
    # a process, a login and the push's functions compiled and planned again, each time
    with connect(klass.address()) as conn:
        send(path, klass.address(), conn)
        supervise(path, "Ana", "props-and-hops", 1, T)
        rnd = one_round(path)
        hostile = {**rnd, **change(rnd)}
        with pytest.raises(psycopg.errors.CheckViolation, match=says):
            conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [hostile]}),))
        assert klass.count("supervised_rounds") == 0
        # the round as the app wrote it goes, after the refusal, as a pusher's next batch does
        assert conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [rnd]}),)).fetchone() == (1,)


def test_a_different_round_under_a_held_uid_is_refused_and_rows_never_change(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1})
    supervise(path, "Ana", "props-and-hops", 1, T)
    send(path, klass.address())
    forged = {**one_round(path), "score": "1"}
    with klass.connect("workstation") as conn:
        with pytest.raises(psycopg.errors.CheckViolation, match="a different round under this id"):
            conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [forged]}),))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE supervised_rounds SET score = '1'")
    with klass.admin() as admin, pytest.raises(psycopg.Error, match=r"append-only|never|refuse"):
        admin.execute("DELETE FROM supervised_faults")


def test_rounds_are_charged_to_the_login(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 0})
    send(path, klass.address())
    supervise(path, "Ana", "props-and-hops", 1, T)
    rnd = one_round(path)
    with klass.admin() as admin:
        before = admin.execute("SELECT rows, bytes FROM login_totals WHERE login = 'workstation'").fetchone()
    send(path, klass.address())
    with klass.admin() as admin:
        after = admin.execute("SELECT rows, bytes FROM login_totals WHERE login = 'workstation'").fetchone()
    assert after[0] - (before[0] if before else 0) == 1 + len(rnd["faults"])
    assert after[1] - (before[1] if before else 0) >= len(json.dumps(rnd)) // 2


def test_a_rounds_uid_is_its_trainee_deal_and_time():
    assert round_uid("a", "d", 1.5) == round_uid("a", "d", 1.5)
    assert len({round_uid("a", "d", 1.5), round_uid("b", "d", 1.5), round_uid("a", "e", 1.5),
                round_uid("a", "d", 1.25)}) == 4


def expected_rates(rounds) -> dict[str, tuple[int, int]]:
    """(caught, seen) per fault class of rounds each with its first fault caught, counted here."""
    out: dict[str, tuple[int, int]] = {}
    for rnd in rounds:
        for n, f in enumerate(rnd.faults):
            c, s = out.get(f.type.fault_class.value, (0, 0))
            out[f.type.fault_class.value] = (c + (n == 0), s + 1)
    return out


def test_the_class_view_reads_catch_rates_and_the_weakest_class(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1, "Bo": 1})
    plays = {"Ana": [("props-and-hops", 1), ("pai-gow-dice", 9), ("high-roll-dice", 3)],
             "Bo": [("three-dice-football", 1)]}
    for name, games in plays.items():
        for n, (game, seed) in enumerate(games):
            supervise(path, name, game, seed, T + n)
    send(path, klass.address())
    with klass.connect("instructor") as conn:
        reading = read_class(conn)
    rows = {r.name: r for r in reading.catching.rows}
    assert set(rows) == {"Ana", "Bo"} and rows["Ana"].rounds == 3 and rows["Bo"].rounds == 1
    ana = [faulty(g, s) for g, s in plays["Ana"]]
    assert rows["Ana"].by_class == expected_rates(ana)
    assert rows["Ana"].by_game == {g: (1, len(r.faults)) for (g, _), r in zip(plays["Ana"], ana, strict=True)}
    whole = expected_rates(ana + [faulty(g, s) for g, s in plays["Bo"]])
    assert reading.catching.by_class == whole
    seen = {c: p for c, p in whole.items() if p[1] >= 3}
    lowest = min(Fraction(*p) for p in seen.values())
    assert reading.catching.weakest in {c for c, p in seen.items() if Fraction(*p) == lowest}


def listening(klass) -> bool:
    with klass.admin() as admin:
        return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                             "AND query LIKE 'LISTEN%%'").fetchone()[0] > 0


def test_a_round_announced_is_read_into_the_live_reading(tmp_path, klass):
    path = progress_file(tmp_path / "p.sqlite", {"Ana": 1})
    send(path, klass.address())
    stop = threading.Event()
    heard: list[int] = []
    listener = threading.Thread(target=lambda: heard.extend(
        n for n in follow(klass.address("instructor"), stop, wait=0.05) if n is not None))
    listener.start()
    try:
        with klass.connect("instructor") as conn:
            before = read_class(conn)
            assert before.catching.rows == []
            until(lambda: listening(klass), what="the listener's LISTEN")  # a note before it is not heard
            supervise(path, "Ana", "props-and-hops", 1, T)
            send(path, klass.address())
            until(lambda: any(n < 0 for n in heard), what="the round announced")
            after = read_class(conn, before, [n for n in heard if n < 0])
    finally:
        stop.set()
        listener.join()
    assert not after.full
    assert [(r.name, r.rounds) for r in after.catching.rows] == [("Ana", 1)]
