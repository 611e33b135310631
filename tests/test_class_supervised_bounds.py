"""The sixth cold review's breaks of supervised rounds in a class (migration s041), each kept as
its attack on a real PostgreSQL:

- #121: a trainee's own login sent one round scored "1/0", and `export-results --class` died for
  the whole class (ZeroDivisionError, exit 70), with no way to retract the row. Now the server
  refuses the score; a row kept from before is retracted by the migration and the exports name
  it; every reader names a row it cannot use; and an instructor retracts a supervised round as
  an attempt (`dealer-trainer retract`), insert-only with the reason.
- #115: Tom's own login sent his round first under Bo's pending round's uid (sha256 of Bo's id,
  the deal and the time, read from Bo's progress file); Bo's real round was then refused. Now a
  round goes under its own uid only.
- #116: after `settle-claim`, the settled id's rounds were refused for good (from the row's
  workstation after a 'row' settling; from the claimant's login after a 'claimant' one). Now they
  follow the attempts' rules.
(#122, the other fields, is tests/test_class_supervised.py `HOSTILE`.)"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from fractions import Fraction

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import Class, made_under_login, progress_file
from tests.support.command import run_here
from tests.test_class_claims_settled import REASON, claim, claimed, settle  # noqa: F401 (a fixture)
from tests.test_class_supervised import T, one_round, send, supervise
from trainer.classes.server.logins import class_login, enrol_workstation
from trainer.classes.workstation.classview import read_class
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.supervised import batch
from trainer.progress.handoff_supervised import lines_of
from trainer.progress.records import Trainee
from trainer.progress.supervised import round_uid


def export(klass, fmt: str):
    return run_here("export-results", "--class", klass.address("instructor").url, "--format", fmt)


def transcript_rounds(done) -> list[dict]:
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    return [r for r in rows if r["Mode"] == "Supervised round"]


def own_round(conn: psycopg.Connection, rnd: dict, **change) -> int:
    """The review's sup_hostile.py: one's own program sends `rnd` changed, under its own uid."""
    r = {**rnd, **change}
    r["uid"] = round_uid(r["trainee_uid"], r["round_uid"], r["finished"])
    return conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [r]}),)).fetchone()[0]


@pytest.fixture
def tom(tmp_path, klass):
    """Tom Reyes with a login of his own, his profile's id and one round of his in the class:
    {"login", "conn" (his login's), "round" (a round of his as his app sends it)}."""
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Tom Reyes", "tom-password")
    path = made_under_login(tmp_path / "tom.db", klass, "Tom Reyes", login, "tom-password", 1)
    supervise(path, "Tom Reyes", "props-and-hops", 1, T)
    address = klass.address(login, "tom-password")
    assert send(path, address) == 2
    with klass.connect(login, "tom-password") as conn:
        yield {"login": login, "conn": conn, "round": one_round(path), "path": path}


# --------------------------------------------------------------------------- #121
@pytest.mark.parametrize("score", ["1/0", "0/0"])
def test_a_score_no_reader_can_use_is_refused_at_push(tom, klass, score):
    with pytest.raises(psycopg.errors.CheckViolation, match="its score is not a fraction from 0 to 1"):
        own_round(tom["conn"], tom["round"], score=score, finished=T + 5)
    assert klass.count("supervised_rounds") == 1
    for fmt in ("csv", "xapi"):
        done = export(klass, fmt)
        assert done.returncode == 0, done.stderr


def test_a_row_kept_before_the_check_is_retracted_and_named_and_the_class_exports(tmp_path, server):
    """A class of s037 took Tom's "1/0" round (the review's stage); brought up to date, the
    migration retracts it with its check, and the exports write the rest of the class."""
    klass = Class(server, upto="s037_supervised_rounds")
    with klass.connect("instructor") as instructor:
        login = class_login(instructor, "Tom Reyes", "tom-password")
    path = progress_file(tmp_path / "tom.db", {"Tom Reyes": 1})
    supervise(path, "Tom Reyes", "props-and-hops", 1, T)
    assert send(path, klass.address(login, "tom-password")) == 2
    with klass.connect(login, "tom-password") as conn:
        assert own_round(conn, one_round(path), score="1/0", finished=T + 5) == 1
    bad = round_uid(one_round(path)["trainee_uid"], one_round(path)["round_uid"], T + 5)
    klass.install()
    for fmt in ("csv", "xapi"):
        done = export(klass, fmt)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert (f"1 supervised round of the class left out: supervised round {bad} of 'Tom Reyes': "
                "retracted by the class server (s041): stored before the class server checked its "
                "supervised rounds (s041): its score is not a fraction from 0 to 1") in done.stderr
    assert [r["Attempt id"] for r in transcript_rounds(export(klass, "csv"))] == [
        round_uid(one_round(path)["trainee_uid"], one_round(path)["round_uid"], T)]


def test_a_reader_names_a_row_it_cannot_use_and_reads_the_rest():
    """The per-row conversion of the exports (a class server's rows, or a file's): a row that is
    no round is named, never raised."""
    ana = Trainee(id=1, name="Ana", created=T, archived=False, archived_at=None, instructor=False,
                  has_passphrase=False, uid="a" * 32)
    good = {"id": 1, "trainee_id": 1, "uid": "1" * 64, "round_uid": "supervise-v1:x:0:1",
            "game": "pai-gow-dice", "difficulty": 2, "finished": T, "score": "1/2"}
    rows = [good, {**good, "id": 2, "uid": "2" * 64, "score": "1/0"},
            {**good, "id": 3, "uid": "3" * 64, "score": "3/2"},
            {**good, "id": 4, "uid": "4" * 64, "finished": float("nan")},
            {**good, "id": 5, "uid": "5" * 64, "finished": 1e300},
            {**good, "id": 6, "uid": "6" * 64}]
    left_out: list[str] = []
    lines = lines_of({1: ana}, rows, [], left_out, {6: "retracted by instructor: a test"})
    assert [line.uid for line in lines] == ["1" * 64]
    said = {why.split(":")[0].split()[2][0]: why for why in left_out}
    assert sorted(said) == list("23456") and len(left_out) == 5
    assert all(why.startswith(f"supervised round {n * 64} of 'Ana': ") for n, why in said.items())
    assert said["6"].endswith("retracted by instructor: a test")
    assert all("not readable as a supervised round" in said[n] for n in "2345")


def test_an_instructor_retracts_a_supervised_round_once_with_its_reason(tom, klass):
    uid = tom["round"]["uid"]
    url = klass.address("instructor").url
    # only an instructor: Tom's own login cannot hide his round, nor anyone's
    his = klass.address(tom["login"], "tom-password").url
    done = run_here("retract", uid, "--reason", "mine", "--class", his)
    assert done.returncode == 2 and "only an instructor's login retracts" in done.stderr
    with pytest.raises(psycopg.Error):
        tom["conn"].execute("INSERT INTO supervised_retractions (round_id, reason) "
                            "SELECT id, 'mine' FROM supervised_rounds")
    with klass.connect("instructor") as conn:
        assert [r.name for r in read_class(conn).catching.rows] == ["Tom Reyes"]
    done = run_here("retract", uid, "--reason", "sent from the wrong seat", "--class", url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Supervised round {uid} retracted in ")
    again = run_here("retract", uid, "--reason", "twice", "--class", url)
    assert again.returncode == 2
    assert f"supervised round {uid} was retracted already, by instructor" in again.stderr
    nothing = run_here("retract", "f" * 64, "--reason", "r", "--class", url)
    assert nothing.returncode == 2 and f"no attempt or supervised round {'f' * 64}" in nothing.stderr
    csv_done = export(klass, "csv")
    assert csv_done.returncode == 0 and transcript_rounds(csv_done) == []
    assert f"supervised round {uid} of 'Tom Reyes': retracted by instructor: sent from the wrong seat" in (
        csv_done.stderr)
    assert not [s for s in json.loads(export(klass, "xapi").stdout) if "/supervise/" in s["object"]["id"]]
    with klass.connect("instructor") as conn:
        assert read_class(conn).catching.rows == []  # the class view counts it no more
    with klass.admin() as admin:
        assert admin.execute("SELECT reason, retracted_by FROM supervised_retractions").fetchall() == [
            ("sent from the wrong seat", "instructor")]
        for statement in ("UPDATE supervised_retractions SET reason = 'x'",
                          "DELETE FROM supervised_retractions", "TRUNCATE supervised_retractions"):
            with pytest.raises(psycopg.Error, match=r"append-only|refuse"):
                admin.execute(statement)
    assert klass.count("supervised_rounds") == 1  # hidden, never removed


# --------------------------------------------------------------------------- #115
def test_a_classmates_pending_round_cannot_be_taken_under_its_uid(tmp_path, klass, tom):
    """Bo Chen (no login) supervised a round at Table 2, not yet sent. Tom reads its uid from
    Bo's progress file and sends his own round under it first; then Table 2 sends Bo's."""
    with klass.connect("instructor") as instructor:
        table_2 = enrol_workstation(instructor, "Table 2", "table-2-password")
    table_2_address = klass.address(table_2, "table-2-password")
    bo_file = progress_file(tmp_path / "bo_t2.db", {"Bo Chen": 1})
    assert send(bo_file, table_2_address) == 1
    supervise(bo_file, "Bo Chen", "props-and-hops", 3, T + 30)
    with contextlib.closing(Queue(bo_file)) as queue:
        bos = batch(queue, "any class", 1)[1][0]
    forged = {**tom["round"], "uid": bos["uid"], "score": "1"}  # his round, her uid
    with pytest.raises(psycopg.errors.CheckViolation, match="its id is not its own"):
        tom["conn"].execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [forged]}),))
    # the uid's own round, under her id: not his to send
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only their own"):
        tom["conn"].execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [{**bos, "score": "1"}]}),))
    assert send(bo_file, table_2_address) == 1  # Bo's round goes, not set aside
    rounds = {r["Attempt id"]: r for r in transcript_rounds(export(klass, "csv"))}
    assert rounds[bos["uid"]]["Trainee"] == "Bo Chen"
    assert rounds[bos["uid"]]["Score"] == str(round(100 * Fraction(bos["score"])))


# --------------------------------------------------------------------------- #116
def bo_round(claimed_stage, finished: float) -> dict:
    """A round of the row's trainee (Bo Chen, Table 4) under the claimed id, as Table 4 sends it."""
    supervise(claimed_stage["bo file"], "Bo Chen", "pai-gow-dice", 9, finished)
    with contextlib.closing(Queue(claimed_stage["bo file"])) as queue:
        rnd = next(r for r in batch(queue, "any class", 100)[1] if r["finished"] == finished)
    r = {**rnd, "trainee_uid": claimed_stage["uid"]}
    return {**r, "uid": round_uid(r["trainee_uid"], r["round_uid"], r["finished"])}


def test_after_a_settling_the_rows_the_workstation_sends_its_rounds_again(klass, claimed):  # noqa: F811
    claim(klass, claimed)
    rnd = bo_round(claimed, T)
    with klass.connect(claimed["table 4"], "table-4-password") as table_4:
        with pytest.raises(psycopg.errors.CheckViolation, match="own login claims this trainee id"):
            table_4.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [rnd]}),))
        url = klass.address("instructor").url
        done = settle(url, claimed["uid"], "--to", "row", "--reason", "Bo's profile came first")
        assert done.returncode == 0, done.stderr
        assert table_4.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [rnd]}),)).fetchone() == (1,)


def test_after_a_settling_the_claimants_her_login_sends_the_ids_rounds(klass, claimed):  # noqa: F811
    claim(klass, claimed)
    rnd = bo_round(claimed, T)
    url = klass.address("instructor").url
    assert settle(url, claimed["uid"], "--to", "claimant", "--reason", REASON).returncode == 0
    with klass.connect(claimed["ana"], "ana-password") as ana:
        assert ana.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [rnd]}),)).fetchone() == (1,)
    later = bo_round(claimed, T + 9)
    with klass.connect(claimed["table 4"], "table-4-password") as table_4, \
            pytest.raises(psycopg.errors.CheckViolation, match="own login claims this trainee id"):
        table_4.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [later]}),))


# --------------------------------------------------------------------------- #131
def test_a_claim_of_an_id_settled_already_is_answered_as_it_stands(klass, claimed):  # noqa: F811
    """Ana's login claims the id again after the instructor settled her claim: she is told what
    is true ("hers", or refused as the row's), not "held"."""
    from trainer.classes.errors import ClassServerError
    from trainer.classes.workstation.connection import ClassLedger

    claim(klass, claimed)
    url = klass.address("instructor").url
    assert settle(url, claimed["uid"], "--to", "row", "--reason", "Bo's profile came first").returncode == 0
    ledger = ClassLedger(claimed["table 4 address"])
    with pytest.raises(ClassServerError, match=r"settled this login's claim of trainee id .* the row's"):
        ledger.claim_profile("Ana Ruiz", claimed["uid"], claimed["made"], "ana-password")
    with klass.admin() as admin:  # nothing changed: one claim, one settling
        assert admin.execute("SELECT count(*) FROM trainee_claims").fetchone() == (1,)
        assert admin.execute("SELECT count(*) FROM trainee_claim_settlements").fetchone() == (1,)


def test_a_claim_settled_hers_is_answered_hers(klass, claimed):  # noqa: F811
    from trainer.classes.workstation.connection import ClassLedger

    claim(klass, claimed)
    assert settle(klass.address("instructor").url, claimed["uid"], "--to", "claimant",
                  "--reason", REASON).returncode == 0
    ledger = ClassLedger(claimed["table 4 address"])
    assert ledger.claim_profile("Ana Ruiz", claimed["uid"], claimed["made"], "ana-password") == "hers"
