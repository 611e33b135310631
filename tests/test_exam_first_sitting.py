"""A certificate only for the person who sat, the first time:

- in a class, the class server checks the start code when a sitting is started, answered and
  ended (s012), without holding the code or the instructor's key: a token read from someone's
  sitting file spends, starts, abandons and answers nothing there;
- in a class, the server keeps the sitting as it was first sat (its own start, each answer as it
  is given, first wins) and `certify --class` certifies that record, never a re-sit handed in;
- outside a class, the app refuses a second sitting of one token on any file it can see;
- a pool's token says nothing of its draw before the start code is given.

Each attack is kept in its test."""

from __future__ import annotations

import itertools
import json
import os
import secrets
import threading
from pathlib import Path

import psycopg
import pytest

from tests.support.class_server import free_port, server_rows, until
from tests.support.command import run_command, run_here
from tests.support.exams import code_of, form, issuer, sent, sit
from trainer.classes import ClassServerError
from trainer.classes.server import ledger as server_ledger
from trainer.classes.workstation.address import class_address
from trainer.classes.workstation.connection import ClassConnection
from trainer.exams import classledger, installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, issue_sitting, sign_form, sitting_form
from trainer.exams.errors import AwaitingClassError, ClassLedgerError, ExamError
from trainer.exams.forms import new_form
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link, proof_key, prove
from trainer.exams.records import portable_record
from trainer.exams.seen import SatBeforeError, SittingsSeen
from trainer.exams.submission import read_sitting_file, write_sitting_file
from trainer.library import load_library
from trainer.progress import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def workstation_file(path: Path, *names: str) -> Path:
    with Store.open(path) as store:
        for name in names or ("Sam Lee",):
            store.add_trainee(name)
    return path


def issued(tmp_path, ivy, joined, exam, trainee: str = "Sam Lee", **more) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, trainee, classroom=joined("instructor"), **more)


def certified(tmp_path, ivy, joined, record: dict, token: dict) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return certify(ledger, ivy, record, token, classroom=joined("instructor"))


def steps(klass, table: str = "exam_sitting_steps") -> list[tuple]:
    return server_rows(klass, table)


# --------------------------------------------------------------------------- property 1, the server's half
def test_a_token_read_from_a_sitting_file_spends_nothing_on_the_class_server(tmp_path, klass, joined, ivy):
    """Ana's sitting file is readable to a classmate at the shared workstation: its token (nonce,
    trainee, form) is all they have, with the workstation login. Nothing they send with it
    starts, spends or abandons her sitting: not the start as the app makes it without the code,
    nor the call the app made before, nor a made-up link. Then Ana sits it and is certified."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    table = joined.seat()
    nonce, digest = token["nonce"], exam.digest  # the form itself is known: the attacker sat it
    with pytest.raises(ClassServerError, match="start code was not proven"):
        table.start_sitting(nonce, "Ana Ruiz", digest, "f" * 32)  # no proof
    with pytest.raises(ClassServerError, match="start code was not proven"):
        table.start_sitting(nonce, "Ana Ruiz", digest, "f" * 32, secrets.token_bytes(32))
    with klass.connect(klass.seat()) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT use_exam_sitting(%s, 'Ana Ruiz', %s, %s)", (nonce, digest, "e" * 32))
    with klass.connect(klass.seat()) as conn, pytest.raises(ClassServerError, match="came before step 1"):
        # "abandoned, 0": an end with a made-up link
        server_ledger.sitting_step(conn, nonce, 2, secrets.token_bytes(32), ending="left")
    assert server_rows(klass, "exam_sitting_uses") == [] and steps(klass) == []

    path = workstation_file(tmp_path / "ws.sqlite", "Ana Ruiz")
    with Store.open(path) as store:
        result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Ana Ruiz").id, exam,
                     sitting=token, classroom=table)
        record = portable_record(store, result.id)
    assert certified(tmp_path, ivy, joined, record, token)["passed"]


def test_a_started_sitting_takes_no_step_without_the_next_link(tmp_path, klass, joined, ivy):
    """Once Sam's sitting is started, a classmate with his token, and anyone who read the links
    already spent (the server's tables, the traffic), still cannot answer or end it."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    path = workstation_file(tmp_path / "ws.sqlite")
    with Store.open(path) as store:
        session = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                      sitting=token, classroom=joined.seat(), stop_after=1)
        sent(store, joined.seat())
        spent = [bytes(r[2]) for r in steps(klass)]  # step 1 (the start) and step 2 (item 1)
        assert [r[1] for r in steps(klass)] == [1, 2]
        with klass.connect(klass.seat()) as conn:
            for made_up in (*spent, secrets.token_bytes(32)):
                with pytest.raises(ClassServerError, match="does not prove the sitting's start code"):
                    server_ledger.sitting_step(conn, token["nonce"], 3, made_up, position=1, log="[]")
                with pytest.raises(ClassServerError, match="does not prove the sitting's start code"):
                    server_ledger.sitting_step(conn, token["nonce"], 3, made_up, ending="left")
        assert [r[1] for r in steps(klass)] == [1, 2] and steps(klass, "exam_sitting_refusals") == []
        session.abandon()
        sent(store, joined.seat())
    assert [(r[1], r[3], r[8]) for r in steps(klass)] == [(1, "start", None), (2, "answer", None),
                                                         (3, "end", "left")]


def test_the_class_server_holds_no_start_code_and_no_key(tmp_path, klass, joined, ivy):
    """What the server keeps of a sitting (its token, the verifier, the links spent) holds
    neither the start code nor anything the proof key can be had from without it."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    code = code_of(token)
    key = proof_key(code, token["nonce"])
    with klass.admin() as conn:
        kept = b"".join(json.dumps([list(map(_plain, r)) for r in conn.execute(f"SELECT * FROM {t}")])
                        .encode() for t in ("exam_sittings", "exam_sitting_links"))
    for secret in (code.encode(), code.replace("-", "").encode(), key.hex().encode(), key):
        assert secret not in kept
    assert bytes.fromhex(_plain(server_rows(klass, "exam_sitting_links")[0][2])) == link(key, 3, 0)


def _plain(v):
    return v.hex() if isinstance(v, bytes | memoryview) else v if isinstance(v, int | float | str) else str(v)


def test_an_old_token_without_proof_starts_and_is_certified_as_before(tmp_path, klass, joined, ivy):
    """A sitting issued without a proof (before proofs; `proof=False`) has no verifier on the
    server: it starts with its token alone, as it always did, and its result is certified from
    the file handed in (the weakness the issue names stays with such sittings)."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam, proof=False)
    assert "proof" not in token
    path = workstation_file(tmp_path / "ws.sqlite")
    with Store.open(path) as store:
        result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                     sitting=token, classroom=joined.seat())
        record = portable_record(store, result.id)
    assert "class_start" not in record and steps(klass) == []
    assert len(server_rows(klass, "exam_sitting_uses")) == 1
    assert certified(tmp_path, ivy, joined, record, token)["passed"]


# --------------------------------------------------------------------------- property 2, in a class
def modified_engine(monkeypatch):
    """A workstation whose engine skips the class server's count of the start."""
    monkeypatch.setattr("trainer.exams.classledger.count_start", lambda *args, **kwargs: None)


def test_a_resit_at_home_with_the_same_result_id_is_refused_naming_why(tmp_path, monkeypatch, klass, joined,
                                                                      ivy):
    """Sam fails his sitting in class (a payout a dollar over on item 1). At home, with the code
    he saw and an engine that skips the server's count, he sits it again on a fresh file and
    passes: the same result id. certify --class refuses it, and certifies the fail the server
    kept; the pass, once more, is refused as the sitting's second certificate."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    key = installation_key(tmp_path / "k")
    with Store.open(workstation_file(tmp_path / "class.sqlite")) as store:
        failed = sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token,
                     classroom=joined.seat(), critical_at=0)
        first = portable_record(store, failed.id)
    assert not failed.passed
    with monkeypatch.context() as m, Store.open(workstation_file(tmp_path / "home.sqlite")) as store:
        modified_engine(m)
        passed = sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token,
                     classroom=joined.seat())
        again = portable_record(store, passed.id)
    assert passed.passed and again["uid"] == first["uid"] == token["nonce"]
    with pytest.raises(CertifyError, match=f"sitting {token['nonce']}: the result handed in is not "
                                           "the one the class server started.*sat again apart"):
        certified(tmp_path, ivy, joined, again, token)
    # the server's start copied from the first file, and the proof written again with the code
    again["class_start"] = first["class_start"]
    again["proof"] = prove(proof_key(code_of(token), token["nonce"]), again)
    with pytest.raises(CertifyError, match=r"differs from the class server's record of it \(item 1\)"):
        certified(tmp_path, ivy, joined, again, token)
    certificate = certified(tmp_path, ivy, joined, first, token)
    assert not certificate["passed"] and certificate["answers"][0]["critical"]


def test_a_second_answer_to_an_item_is_refused_and_recorded_first_wins(tmp_path, klass, joined, ivy):
    """Mid-sitting, Sam reads the proof key from his progress file and sends a better answer to
    item 1 than the one he gave: the server keeps the first, refuses the second and records the
    refusal; the sitting goes on, and what is certified is the first answer."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with Store.open(workstation_file(tmp_path / "ws.sqlite")) as store:
        sam = store.find_trainee("Sam Lee").id
        session = sit(store, installation_key(tmp_path / "k"), sam, exam, sitting=token,
                      classroom=joined.seat(), stop_after=1, critical_at=0)
        sent(store, joined.seat())
        held = bytes.fromhex(store.query("SELECT proof_key FROM exam_results")[0]["proof_key"])
        better = store.query("SELECT log FROM exam_answers")[0]["log"].replace('"amount": ', '"amount":')
        with klass.connect(klass.seat()) as conn:
            said = server_ledger.sitting_step(conn, token["nonce"], 3, link(held, 3, 3), position=0,
                                              log=better)
            assert said == "refused: item 1 was answered first, at step 2 (first wins)"
        refusals = steps(klass, "exam_sitting_refusals")
        assert [(r[1], r[2], r[4], r[7]) for r in refusals] == [
            (token["nonce"], 3, 0, "item 1 was answered first, at step 2")]
        result = sit_rest(session)
        sent(store, joined.seat())
        record = portable_record(store, result.id)
    assert [r[1] for r in steps(klass)] == [1, 2, 3, 4, 5]
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert certificate["answers"][0]["critical"] and not certificate["passed"]


def sit_rest(session):
    """Answer the items a session has not, correctly; the ended result."""
    from trainer.grading import correct_log, grade
    from trainer.procedure import build

    while (p := session.next_position()) is not None:
        s = session.scenario(p)
        proc = build(s)
        log = correct_log(proc, s.automation)
        session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), log)
    return session.result


def test_the_same_step_sent_again_is_kept_once(tmp_path, klass, joined, ivy):
    """A workstation whose answer reached the server but whose reply was lost sends it again:
    the server says "recorded" and keeps one."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with Store.open(workstation_file(tmp_path / "ws.sqlite")) as store:
        sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam, sitting=token,
            classroom=joined.seat())
        waited = store.query("SELECT s.step, s.link, a.position, a.log FROM exam_stream s "
                             "JOIN exam_answers a ON a.id = s.answer_id ORDER BY s.step")
    with klass.connect(klass.seat()) as conn:
        for w in waited:
            assert server_ledger.sitting_step(conn, token["nonce"], w["step"], bytes.fromhex(w["link"]),
                                              position=w["position"], log=w["log"]) == "recorded"
    assert len(steps(klass)) == 5 and steps(klass, "exam_sitting_refusals") == []


def test_a_sitting_issued_in_a_class_is_certified_only_with_the_class(tmp_path, joined, ivy):
    """Certifying without the class (no --class) would take the file handed in on trust."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with Store.open(workstation_file(tmp_path / "ws.sqlite")) as store:
        result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                     sitting=token, classroom=joined.seat())
        record = portable_record(store, result.id)
    with Store.open(tmp_path / "instructor.sqlite") as ledger, \
            pytest.raises(CertifyError, match="issued in a class: its result is certified with the class"):
        certify(ledger, ivy, record, token)


def answer(session, p: int, *, dollar_over: bool = False):
    """Answer item `p` right, or with a dollar over on its first payout; the log given."""
    import dataclasses

    from trainer.grading import correct_log, grade
    from trainer.procedure import build

    s = session.scenario(p)
    proc = build(s)
    log = correct_log(proc, s.automation)
    if dollar_over:
        k = next(i for i, a in enumerate(log) if a.do.name == "PAY")
        log[k] = dataclasses.replace(log[k], amount=log[k].amount + 100)
    session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                            target_seconds=s.target_seconds), log)
    return log


def rewrite_answers(path: Path, exam, held: bytes) -> None:
    """The attack's second half, on the trainee's own file: every answer rewritten right, the
    append-only triggers dropped and put back, the result's proof written again with the key
    read from the file while the attempt ran."""
    import sqlite3

    from trainer.exams.records import portable
    from trainer.exams.session import action_json
    from trainer.grading import correct_log, grade
    from trainer.procedure import build

    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    kept = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN "
                       "('exam_answers_no_update', 'exam_results_close_once')").fetchall()
    for t in kept:
        con.execute(f"DROP TRIGGER {t['name']}")
    rid = con.execute("SELECT id FROM exam_results").fetchone()[0]
    for p, s in enumerate(exam.scenarios):
        proc = build(s)
        log = correct_log(proc, s.automation)
        r = grade(proc, log, automation=s.automation, game=s.game, target_seconds=s.target_seconds)
        text = json.dumps([action_json(a, f"log[{i}]") for i, a in enumerate(log)], ensure_ascii=False)
        con.execute("UPDATE exam_answers SET log = ?, total = ?, passed = ?, critical = ?, findings = '[]' "
                    "WHERE result_id = ? AND position = ?",
                    (text, r.score.total, int(r.score.passed), int(r.score.critical), rid, p))
    row = dict(con.execute("SELECT * FROM exam_results WHERE id = ?", (rid,)).fetchone())
    answers = [dict(a) for a in con.execute("SELECT * FROM exam_answers WHERE result_id = ?", (rid,))]
    row["status"] = "passed"
    con.execute("UPDATE exam_results SET status = 'passed', passed = 1, critical = 0, proof = ? WHERE id = ?",
                (prove(held, portable(row, answers)), rid))
    for t in kept:
        con.execute(t["sql"])
    con.commit()
    con.close()


def test_in_a_class_no_answer_is_seen_then_redone(tmp_path, klass, joined, ivy):
    """The attack: start the sitting online, cut the network, sit it (a dollar over on each
    item), see the fail, rewrite the waiting answers in the file with the proof key read from it
    while the attempt ran, and let the app's own sender send them: `certify --class` signed
    "passed (100)". Sat online, the next item opens only once the server has acknowledged the
    answer before it, and the result only once it holds every answer and the end: when the fail
    is seen, the server has it, and the rewrite gains nothing."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    conn = joined.seat()
    reachable = conn.address
    path = workstation_file(tmp_path / "ws.sqlite")
    with Store.open(path) as store:
        session = start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                             sitting=token, classroom=conn, start_code=code_of(token))
        held = bytes.fromhex(store.query("SELECT proof_key FROM exam_results")[0]["proof_key"])
        conn.address = class_address(  # the network to the class server is cut
            f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
        answer(session, 0, dollar_over=True)
        assert session.waiting and "cannot be reached" in session.problem
        with pytest.raises(AwaitingClassError, match="has not acknowledged the last answer"):
            answer(session, 1, dollar_over=True)
        assert session.result is None and sorted(session.answers) == [0]
        assert [r[3] for r in steps(klass)] == ["start"]
        conn.address = reachable  # the network is back: the answer given goes, and the exam on
        assert session.send() and not session.waiting
        for p in (1, 2):
            answer(session, p, dollar_over=True)
        result = session.result
        assert result is not None and not result.passed  # the fail is seen only now...
        assert [r[3] for r in steps(klass)] == ["start", "answer", "answer", "answer", "end"]  # ...held there
        rewrite_answers(path, exam, held)
        assert sent(store, conn) == 0  # nothing waits: every answer was acknowledged as given
        record = portable_record(store, result.id)
    assert record["status"] == "passed"  # the file says so...
    with pytest.raises(CertifyError, match="differs from the class server's record"):
        certified(tmp_path, ivy, joined, record, token)  # ...the class does not


def test_a_sitting_never_ended_is_seen_and_recorded_abandoned_as_a_fail(tmp_path, klass, joined, ivy):
    """The attack: cut the network after the start and never send; the server held the start
    only, `certify --class` said "has not ended … may still be on their way" forever, and the
    instructor issued another sitting, only that one certified. Now the instructor sees it
    ("started HH:MM, N of M answers received, not ended") and records it abandoned, a fail, with
    a reason; what is handed in for it later is not certified, sent or not."""
    import time

    from trainer.exams.classledger import unended_lines

    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    conn = joined.seat()
    reachable = conn.address
    path = workstation_file(tmp_path / "ws.sqlite")
    with Store.open(path) as store:
        session = start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                             sitting=token, classroom=conn, start_code=code_of(token))
        conn.address = class_address(  # the network is cut, and stays cut
            f"postgresql://workstation:x@127.0.0.1:{free_port()}/{klass.database}")
        answer(session, 0, dollar_over=True)
        result = session.abandon()
        assert result is None  # no verdict: the server has neither the answer nor the end
        record = portable_record(store, session.result_id)
    started = steps(klass)[0][9]
    instructor = joined("instructor")
    [line] = unended_lines(instructor)
    assert line == (f"Sam Lee, {exam.uid}, attempt 1 (sitting {token['nonce']}): started "
                    f"{time.strftime('%H:%M', time.localtime(started))}, 0 of 3 answers received, not ended")
    # the class was never given the form: the instructor's own forms name it (certify --class)
    assert unended_lines(instructor, names={exam.uid: exam.name}) == [line.replace(exam.uid, exam.name, 1)]
    with pytest.raises(CertifyError, match=r"has not ended on the class server yet.*abandon-sitting"):
        certified(tmp_path, ivy, joined, record, token)
    url = klass.address("instructor").url
    for args, says in (((token["nonce"], " \u200b "), "needs a reason"),
                       (("0" * 32, "gone"), "was never started on this class server")):
        done = run_here("abandon-sitting", args[0], "--reason", args[1], "--class", url)
        assert done.returncode == 2 and says in done.stderr, done.stderr
    done = run_here("abandon-sitting", token["nonce"], "--reason", "left with the network cut",
                    "--class", klass.address(klass.seat()).url)
    assert done.returncode == 2 and "instructor" in done.stderr, done.stderr
    with pytest.raises(ClassLedgerError, match=r"Sam Lee has a sitting of .* started on the class server and "
                                               "not ended .*: no sitting was issued.*abandon-sitting"):
        issued(tmp_path, ivy, joined, exam)  # a fresh sitting, not without a word about the first
    done = run_command("abandon-sitting", token["nonce"], "--reason", "left with the network cut",
                       "--class", url)
    assert done.returncode == 0, done.stderr
    # recorded: a new one may go, once the instructor says so over the abandoned fail not yet
    # certified (trainer.exams.certify issue_sitting; tests/test_exam_class_ended.py)
    assert issued(tmp_path, ivy, joined, exam, after_uncertified=True)["nonce"] != token["nonce"]
    [line] = unended_lines(instructor)
    recorded = time.localtime(server_rows(klass, "exam_sitting_abandonments")[0][2])
    assert line.endswith(f"; recorded abandoned by instructor at {time.strftime('%H:%M', recorded)}"
                         " (left with the network cut): a fail")
    done = run_here("abandon-sitting", token["nonce"], "--reason", "again", "--class", url)
    assert done.returncode == 2 and "recorded abandoned already" in done.stderr
    conn.address = reachable  # the network back: what waited goes, and changes nothing
    with Store.open(path) as store:
        assert sent(store, conn) == 2
    with pytest.raises(CertifyError, match="recorded abandoned on the class server by instructor "
                                           r"\(left with the network cut\): it counts as a fail"):
        certified(tmp_path, ivy, joined, record, token)
    with klass.connect("instructor") as c, pytest.raises(psycopg.Error):
        c.execute("DELETE FROM exam_sitting_abandonments")


def test_the_background_pusher_sends_each_answer_as_it_is_given(tmp_path, klass, joined, ivy):
    """The app's own path: the class connection of the progress file pushes in the background,
    woken by each answer."""
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    path = workstation_file(tmp_path / "ws.sqlite")
    conn = ClassConnection(str(path), klass.address(klass.seat()), poll=60.0)
    conn.start()
    try:
        with Store.open(path) as store:
            session = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, exam,
                          sitting=token, classroom=conn, stop_after=1)
            until(lambda: len(steps(klass)) == 2, what="item 1 on the server")
            sit_rest(session)
            until(lambda: len(steps(klass)) == 5, what="every answer and the end on the server")
            until(lambda: conn.waiting() == 0, what="the file's queue emptied")
    finally:
        conn.close()
    assert [r[3] for r in steps(klass)] == ["start", "answer", "answer", "answer", "end"]


# --------------------------------------------------------------------------- property 2, outside a class
@pytest.fixture
def token_and_form(tmp_path, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
    return token, exam


def start(path: Path, token, exam, seen, tmp_path):
    store = Store.open(path)
    try:
        return start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                          sitting=token, start_code=code_of(token), seen=seen)
    except BaseException:
        store.close()
        raise


@pytest.mark.parametrize("first, then", [("default", "elsewhere"), ("elsewhere", "default"),
                                         ("elsewhere", "fresh")])
def test_the_app_sits_a_token_once_on_any_file_it_can_see(tmp_path, token_and_form, first, then):
    """The unchanged app, a sitting sat (or being sat) on one progress file: the same token on the
    default file, on a file elsewhere (--db), or on a fresh file made to sit it again, is
    refused before anything is written, and the other file keeps no result."""
    token, exam = token_and_form
    files = {"default": tmp_path / "data" / "progress.db", "elsewhere": tmp_path / "usb" / "other.db",
             "fresh": tmp_path / "usb" / "fresh.db"}
    for p in files.values():
        p.parent.mkdir(exist_ok=True)
        workstation_file(p)
    seen = SittingsSeen(files["default"])
    session = start(files[first], token, exam, seen, tmp_path)
    session.abandon()
    session.store.close()
    with pytest.raises(SatBeforeError, match="already started on this computer"):
        start(files[then], token, exam, seen, tmp_path)
    with Store.open(files[then]) as store:
        assert store.query("SELECT count(*) AS n FROM exam_results")[0]["n"] == 0
    assert oct(os.stat(seen.list).st_mode & 0o777) == "0o600"


def test_two_copies_of_the_app_do_not_sit_one_token_side_by_side(tmp_path, token_and_form):
    token, exam = token_and_form
    default, other = tmp_path / "progress.db", tmp_path / "other.db"
    for p in (default, other):
        workstation_file(p)
    first = start(default, token, exam, SittingsSeen(default), tmp_path)  # running, not ended
    try:
        with pytest.raises(SatBeforeError, match="already started"):
            start(other, token, exam, SittingsSeen(default), tmp_path)
    finally:
        first.abandon()
        first.store.close()


def test_a_sitting_started_before_the_list_was_kept_is_found_in_the_default_file(tmp_path, token_and_form):
    token, exam = token_and_form
    default, other = tmp_path / "progress.db", tmp_path / "other.db"
    for p in (default, other):
        workstation_file(p)
    start(default, token, exam, None, tmp_path).abandon()  # an app before the list: no `seen`
    with pytest.raises(SatBeforeError, match=f"in {default}"):
        start(other, token, exam, SittingsSeen(default), tmp_path)


def test_a_refused_start_leaves_the_sitting_free(tmp_path, token_and_form):
    """A start that fails (a wrong code) does not count as a sitting sat."""
    token, exam = token_and_form
    default = workstation_file(tmp_path / "progress.db")
    seen = SittingsSeen(default)
    with Store.open(default) as store, pytest.raises(ExamError, match="start code is not right"):
        start_exam(store, exam, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                   sitting=token, start_code="AAAA-AAAA-AAAA-AAAA", seen=seen)
    start(default, token, exam, seen, tmp_path).abandon()


# --------------------------------------------------------------------------- property 6, the pool's draw
POOL = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive", "hrd-four-fives", "ph-hop-breakage")


def pool_form():
    lib = load_library()
    return new_form("Pooled exam", [lib.by_id(i) for i in POOL], time_limit_seconds=900,
                    created_by="Ivy", attempts_allowed=50, uid="pool-1", draw=2)


def test_a_pools_token_and_sealed_file_say_nothing_of_the_draw_before_the_code(tmp_path, ivy):
    """A trainee who has seen every draw of the pool (after enough sittings, each draw's digest
    and items) reads a classmate's token and sealed file before the start code is given: the
    digest matches no draw, and every sealed draw has one length. With the code, the sitting
    opens, is sat and certified."""
    exam = pool_form()
    known = {exam.drawn(list(p)).digest: p for p in itertools.combinations(range(len(POOL)), 2)}
    lengths, tokens = set(), []
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        for n in range(8):
            token = issue_sitting(ledger, ivy, exam, "Sam Lee")
            assert token["form"]["digest"] not in known
            shown = sitting_form(ledger, exam, token)
            path = tmp_path / f"s{n}.sitting"
            write_sitting_file(path, token, sign_form(shown, ivy), key=ivy, pool=exam)
            lengths.add(len(json.loads(path.read_text())["sealed_form"]["sealed"]))
            tokens.append((token, shown, path))
    assert len({tuple(it.scenario_id for it in s.items) for _, s, _ in tokens}) > 1  # draws differ
    assert len(lengths) == 1, "a sealed draw's length tells which items were drawn"
    token, shown, path = tokens[-1]
    _, read, opened = read_sitting_file(path, code_of(token))
    assert opened.digest == shown.digest
    store = Store.open(workstation_file(tmp_path / "ws.sqlite"))
    with store:
        result = sit(store, installation_key(tmp_path / "k"), store.find_trainee("Sam Lee").id, opened,
                     sitting=read)
        record = portable_record(store, result.id)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        assert certify(ledger, ivy, record, read)["passed"]


def test_a_pools_sitting_starts_only_on_its_own_draw(tmp_path, ivy):
    """The token's salted digest still binds the draw: the same sitting opened with a form of
    another draw of the pool (the easiest items, say) is refused at the start."""
    exam = pool_form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
        mine = sitting_form(ledger, exam, token)
    other = next(exam.drawn(list(p)) for p in itertools.combinations(range(len(POOL)), 2)
                 if exam.drawn(list(p)).digest != mine.digest)
    with Store.open(workstation_file(tmp_path / "ws.sqlite")) as store, \
            pytest.raises(CertifyError, match="for another exam"):
        start_exam(store, other, store.find_trainee("Sam Lee").id, installation_key(tmp_path / "k"),
                   sitting=token, start_code=code_of(token))


# --------------------------------------------------------------------------- many at once
def test_a_class_sitting_at_once_is_kept_whole(tmp_path, klass, joined, ivy):
    """A class of trainees sitting one exam at once: every start, answer and end reaches the
    server once, in order, and none is refused."""
    exam, names = form(), [f"Trainee {n:02d}" for n in range(8)]
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        tokens = {n: issue_sitting(ledger, ivy, exam, n, classroom=joined("instructor")) for n in names}
    problems: list[BaseException] = []

    def one(name: str) -> None:
        try:
            path = workstation_file(tmp_path / f"{name}.sqlite".replace(" ", "-"), name)
            with Store.open(path) as store:
                sit(store, installation_key(tmp_path / f"{name}.key"), store.find_trainee(name).id, exam,
                    sitting=tokens[name], classroom=joined.seat(f"Table {name[-2:]}"))
        except BaseException as e:  # reported below
            problems.append(e)

    threads = [threading.Thread(target=one, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert len(steps(klass)) == 5 * len(names) and steps(klass, "exam_sitting_refusals") == []


def test_a_refused_step_is_refused_by_name_not_as_a_lost_connection(tmp_path, klass, joined, ivy):
    with klass.connect(klass.seat()) as conn, \
            pytest.raises(ClassServerError, match="does not prove its start code on this class server"):
        server_ledger.sitting_step(conn, "0" * 32, 2, secrets.token_bytes(32), ending="left")
    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    with pytest.raises(ClassLedgerError, match=r"The class server refuses this: .*start code was not proven"):
        classledger.count_start(joined.seat(), token, "Sam Lee", exam.uid, exam.digest,
                                token["nonce"])


def test_a_sitting_the_app_crashed_in_ends_on_the_server_when_the_app_starts_again(tmp_path, klass, joined,
                                                                               ivy):
    """The workstation goes down after item 1: when the app starts again it closes the attempt
    as left, and that end goes to the server after the answer given; the sitting is certified as
    the server kept it (abandoned, never passed)."""
    from trainer.exams import close_interrupted
    from trainer.exams import session as sessions

    exam = form()
    token = issued(tmp_path, ivy, joined, exam)
    key = installation_key(tmp_path / "k")
    with Store.open(workstation_file(tmp_path / "ws.sqlite")) as store:
        running = sit(store, key, store.find_trainee("Sam Lee").id, exam, sitting=token,
                      classroom=joined.seat(), stop_after=1)
        sessions._LIVE.discard(running.uid)  # the app is gone: its process held these
        sessions._release(running.lock)
    with Store.open(tmp_path / "ws.sqlite") as store:  # the next start of the app
        assert close_interrupted(store, key) == [running.result_id]
        assert sent(store, joined.seat()) == 1  # the end: the answer went as it was given
        record = portable_record(store, running.result_id)
    assert [(r[1], r[3], r[8]) for r in steps(klass)] == [(1, "start", None), (2, "answer", None),
                                                         (3, "end", "left")]
    certificate = certified(tmp_path, ivy, joined, record, token)
    assert certificate["status"] == "abandoned" and not certificate["passed"]
