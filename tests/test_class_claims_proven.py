"""A new trainee id is registered only by the login that made it, on a real PostgreSQL (migrations
s039_claims_proven, by a claim; s043_pushes_proven, by a push): the fifth cold review's #104 kept
as tests.

The attack: Tom Reyes's own login claimed the id of a classmate's profile the class did not hold
yet, read from a shared progress file (Bo Chen's new profile at Table 2, not pushed yet; or Ana
Ruiz's, made before she had a login). The class registered it as Tom's: Table 2's push of Bo was
then refused "Tom Reyes has a login of their own" (the attacker named as the owner), and Ana's own
claim was refused for good. Now a trainee's login registers a new id only when it is its own
commitment (the class, the login and a salt the claim reveals: logins.committed_uid), or when the
instructor settled its claim hers; any other claim of an id the class does not hold is kept for the
instructor and blocks nobody. And Tom's login pushing one row of his own name under Bo's unsent id
registered it as Tom's just the same (first wins): now a trainee's login's push registers a new id
only with the salt that proves the login made it (the profile keeps it, m024), or once the
instructor settled the login's claim of it hers; any other is refused by its id."""

from __future__ import annotations

import csv
import io
import secrets
import time

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import attempt, progress_file, push_all
from tests.support.command import run_here
from tests.support.progress import trainee_uid
from tests.test_class_identity import names_of, squat
from tests.test_class_supervised import T, send, supervise
from trainer.classes import ClassServerError
from trainer.classes.server.logins import class_login, committed_uid, enrol_workstation
from trainer.classes.workstation.connection import ClassConnection, ClassLedger
from trainer.progress import Store


@pytest.fixture
def stage(klass):
    """Ana Ruiz and Tom Reyes with logins of their own, Bo Chen with none; Table 1 and Table 2
    enrolled: {who: login}, {who + " url": the address of that login}."""
    passwords = {"ana": "ana-password", "tom": "tom-password", "table 1": "table-1-password",
                 "table 2": "table-2-password"}
    with klass.connect("instructor") as instructor:
        logins = {"ana": class_login(instructor, "Ana Ruiz", passwords["ana"]),
                  "tom": class_login(instructor, "Tom Reyes", passwords["tom"]),
                  "table 1": enrol_workstation(instructor, "Table 1", passwords["table 1"]),
                  "table 2": enrol_workstation(instructor, "Table 2", passwords["table 2"])}
    return {**logins, **{f"{who} address": klass.address(logins[who], passwords[who]) for who in logins}}


def claim(address, uid: str, made: float, *salt: str) -> str:
    """The review's claim_dispute.py: `claim_trainee_uid` called by the login of `address` (with
    a salt, the call of s039); its answer or the server's refusal."""
    args = ", %s" * (1 + len(salt))
    try:
        with psycopg.connect(address.url, autocommit=True) as conn:
            return conn.execute(f"SELECT claim_trainee_uid(%s{args})", (uid, made, *salt)).fetchone()[0]
    except psycopg.Error as e:
        return "refused: " + str(e).splitlines()[0]


def made_of(path, name: str) -> float:
    with Store.open(path) as store:
        return store.find_trainee(name).created


def listed(klass) -> str:
    done = run_here("settle-claim", "--list", "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_classmates_new_id_read_from_a_shared_file_is_no_use_to_tom(tmp_path, klass, stage):
    """Bo's new profile at Table 2, not pushed yet: Tom's claim of its id is kept for the
    instructor, not registered; Table 2's push of Bo then goes in, under his name, and the
    instructor settles Tom's claim rejected."""
    table_2 = progress_file(tmp_path / "table-2.db", {"Bo Chen": 1})
    bo = trainee_uid(table_2, "Bo Chen")
    made = made_of(table_2, "Bo Chen")
    assert claim(stage["tom address"], bo, made) == "kept"
    assert claim(stage["tom address"], bo, made, secrets.token_hex(16)) == "kept"
    assert names_of(klass, bo) == []
    assert push_all(table_2, klass, address=stage["table 2 address"]) == 1
    assert names_of(klass, bo) == ["Bo Chen"]
    # his supervised rounds go in too: a claim kept before the class held the id blocks none (s044)
    supervise(table_2, "Bo Chen", "props-and-hops", 1, T)
    assert send(table_2, stage["table 2 address"]) == 1
    assert f"{bo}\tBo Chen\tclaimed by Tom Reyes (login {stage['tom']})\topen" in listed(klass)
    # the instructor rejects Tom's claim: Bo's id is Bo's row's, and Table 2 goes on sending
    done = run_here("settle-claim", bo, "--to", "row", "--reason", "Bo's profile; Tom read it off a file",
                    "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    with Store.open(table_2) as store:
        store.record_attempt(attempt(store.find_trainee("Bo Chen").id, 5))
    assert push_all(table_2, klass, address=stage["table 2 address"]) == 1


def test_her_profile_made_before_her_login_is_no_use_to_tom_and_hers_once_settled(tmp_path, klass, stage):
    """Ana's profile at Table 1 was made before she had a login, and nothing of it was sent. Tom
    claims its id first: kept. Her own claim is kept too, never refused; the instructor settles it
    hers, and then her claim registers it and her login sends her results under it, while Tom's
    login cannot."""
    table_1 = progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 1})
    hers = trainee_uid(table_1, "Ana Ruiz")
    made = made_of(table_1, "Ana Ruiz")
    assert claim(stage["tom address"], hers, made) == "kept"
    ledger = ClassLedger(stage["table 1 address"])
    assert ledger.claim_profile("Ana Ruiz", hers, made, "ana-password") == "kept"
    assert names_of(klass, hers) == []
    claims = listed(klass)
    assert f"{hers}\t(no row in the class yet)\tclaimed by Tom Reyes (login {stage['tom']})" in claims
    assert f"{hers}\t(no row in the class yet)\tclaimed by Ana Ruiz (login {stage['ana']})" in claims
    station = ClassConnection(str(table_1), stage["table 1 address"])
    try:
        assert push_all(table_1, klass, address=stage["table 1 address"]) == 0  # hers to send
        done = run_here("settle-claim", hers, "--to", "claimant", "--login", stage["ana"], "--reason",
                        "Ana's own profile, made on her first day",
                        "--class", klass.address("instructor").url)
        assert done.returncode == 0, done.stderr
        assert "2 claims" in done.stdout
        assert ledger.claim_profile("Ana Ruiz", hers, made, "ana-password") == "registered"
        assert station.send_set_aside("Ana Ruiz", "ana-password") == (1, 0)
    finally:
        station.close()
    assert names_of(klass, hers) == ["Ana Ruiz"]
    said = claim(stage["tom address"], hers, made)
    assert said.startswith("refused: refused trainee ") and said.endswith("who has a login of their own")
    assert squat(stage["table 2 address"], "Bo Chen", hers).startswith("refused: ")


def test_a_new_id_registers_only_for_the_login_that_made_it(klass, stage, joined):
    """New trainee… with her password (ClassLedger.class_identity) makes an id her login registers
    at once. An id one login made with its salt registers for that login only: Ana's login
    revealing Tom's salt gets it kept, Tom's gets it registered."""
    made = joined("workstation").class_identity("Ana Ruiz", "ana-password")
    assert made is not None and made.salt is not None
    hers = made.uid
    assert names_of(klass, hers) == ["Ana Ruiz"]
    assert claim(stage["tom address"], hers, time.time()).endswith("who has a login of their own")
    with klass.admin() as admin:
        class_id = admin.execute("SELECT uid FROM class_info").fetchone()[0]
    salt = secrets.token_hex(16)
    toms = committed_uid(class_id, stage["tom"], salt)
    assert claim(stage["ana address"], toms, time.time(), salt) == "kept"
    assert names_of(klass, toms) == []
    assert claim(stage["tom address"], toms, time.time(), salt) == "registered"
    assert names_of(klass, toms) == ["Tom Reyes"]
    with pytest.raises(ClassServerError, match="no login of their own"):
        ClassLedger(stage["table 1 address"]).claim_profile("Bo Chen", toms, time.time(), "x")


def test_a_refusal_never_names_another_login_as_the_owner_of_a_row_s_id(tmp_path, klass, stage):
    """Tom's login registered Bo's id under Tom's name before this migration (the server's own
    superuser stands in for that). Table 2's push of Bo under it is refused without naming Tom;
    a push of Ana's own row from a workstation still says she sends her own."""
    table_2 = progress_file(tmp_path / "table-2.db", {"Bo Chen": 1})
    bo = trainee_uid(table_2, "Bo Chen")
    with klass.admin() as admin:
        admin.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [dict(
            name="Tom Reyes", created=time.time() - 60, archived=0, archived_at=None, instructor=0,
            uid=bo)], "attempts": []}),))
    said = squat(stage["table 2 address"], "Bo Chen", bo)
    assert said.startswith(f"refused: refused trainee {bo}: the class holds this trainee id under the "
                           "name of another trainee, who has a login of their own"), said
    assert "Tom" not in said
    assert push_all(table_2, klass, address=stage["table 2 address"]) == 0
    station = ClassConnection(str(table_2), stage["table 2 address"])
    try:
        [(_, why)] = station.refused_attempts()
    finally:
        station.close()
    assert "another trainee, who has a login of their own" in why and "Tom" not in why, why


def own_push(address, name: str, uid: str, salt: str | None = None) -> str:
    """The review's attack, by a push: the trainee login of `address` sends one row of its own
    name, `name`, under the trainee id `uid` (a classmate's, read from a shared progress file),
    with `salt` if given. "pushed" or the server's refusal."""
    row = dict(name=name, created=time.time() - 60, archived=0, archived_at=None, instructor=0, uid=uid)
    try:
        with psycopg.connect(address.url, autocommit=True) as conn, conn.transaction():
            conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": [
                {**row, **({"salt": salt} if salt else {})}], "attempts": []}),))
        return "pushed"
    except psycopg.Error as e:
        return "refused: " + str(e).splitlines()[0]


def test_tom_pushing_his_own_name_under_bos_unsent_id_takes_nothing(tmp_path, klass, stage):
    """The review's #104 by a push: Tom's own login sends {Tom Reyes, Bo's id} (Bo's new profile at
    Table 2, read from a shared progress file, not pushed yet), with no salt or a made-up one. It
    is refused by the id, and nothing is registered; Table 2's push of Bo then goes in under his
    name, and his workstation is never told Tom's name. (Before s043 Tom's push was taken, and
    Table 2's was refused "Tom Reyes has a login of their own".)"""
    table_2 = progress_file(tmp_path / "table-2.db", {"Bo Chen": 2})
    bo = trainee_uid(table_2, "Bo Chen")
    for salt in (None, secrets.token_hex(16)):
        said = own_push(stage["tom address"], "Tom Reyes", bo, salt)
        assert said.startswith(f"refused: refused trainee {bo}: the class does not hold this trainee id "
                               "yet, and this login did not make it"), said
    assert names_of(klass, bo) == []
    assert push_all(table_2, klass, address=stage["table 2 address"]) == 2
    assert names_of(klass, bo) == ["Bo Chen"]
    own_push(stage["tom address"], "Tom Reyes", bo)  # held now: the class's row stays Bo's
    assert names_of(klass, bo) == ["Bo Chen"]


def test_her_logins_push_registers_an_id_it_made_with_the_salt_her_profile_keeps(tmp_path, klass, stage):
    """A profile made under Ana's login keeps the salt of its id (m024), and her login's push
    carries it (the queue's `salt`): the class registers the id as hers at that push. The same id
    in a file that lost its salt, or with Tom's login and her salt, is refused."""
    with klass.admin() as admin:
        class_id = admin.execute("SELECT uid FROM class_info").fetchone()[0]
    salt = secrets.token_hex(16)
    hers = committed_uid(class_id, stage["ana"], salt)
    assert own_push(stage["ana address"], "Ana Ruiz", hers).startswith("refused: ")  # no salt
    assert own_push(stage["tom address"], "Tom Reyes", hers, salt).startswith("refused: ")
    with Store.open(tmp_path / "own.db") as store:
        ana = store.add_trainee("Ana Ruiz", uid=hers, uid_salt=salt)
        store.record_attempt(attempt(ana, 1))
    assert push_all(tmp_path / "own.db", klass, address=stage["ana address"]) == 1
    assert names_of(klass, hers) == ["Ana Ruiz"]


def test_the_list_says_what_the_server_knows_of_a_kept_claim_her_push_registered(tmp_path, klass, stage):
    """Ana's login claimed her new id without its salt (kept, the class not holding it), then her
    login's push, with the salt her profile keeps, registered it under her name. Her claim is
    still open, but nothing is in dispute: the list said "open: the exports leave it out" while
    the export wrote her attempt. Now it says what the server knows: her own login registered it
    and the exports write it as hers; and the export does. Tom's kept claim of Bo's new id, read
    off a shared file before Table 2 sent Bo, does dispute Bo's (the class holds it under another
    name than his): that line still says the exports leave it out, and the export does."""
    with klass.admin() as admin:
        class_id = admin.execute("SELECT uid FROM class_info").fetchone()[0]
    salt = secrets.token_hex(16)
    hers = committed_uid(class_id, stage["ana"], salt)
    assert claim(stage["ana address"], hers, time.time()) == "kept"
    with Store.open(tmp_path / "own.db") as store:
        ana = store.add_trainee("Ana Ruiz", uid=hers, uid_salt=salt)
        store.record_attempt(attempt(ana, 1))
    assert push_all(tmp_path / "own.db", klass, address=stage["ana address"]) == 1
    assert names_of(klass, hers) == ["Ana Ruiz"]

    def exported() -> list[str]:
        done = run_here("export-results", "--class", klass.address("instructor").url, "--format", "csv")
        assert done.returncode == 0, done.stderr
        return [r["Trainee id"] for r in csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff")))]

    lines = [line for line in listed(klass).splitlines() if line.startswith(hers)]
    assert lines == [f"{hers}\tAna Ruiz\tclaimed by Ana Ruiz (login {stage['ana']})\topen, in no dispute: "
                     f"her own login ({stage['ana']}) registered the id since; the exports write it as hers"]
    assert exported() == [hers]
    # Tom's claim of Bo's unsent id, kept, disputes it once Table 2 sends Bo: the exports leave it out
    table_2 = progress_file(tmp_path / "table-2.db", {"Bo Chen": 1})
    bo = trainee_uid(table_2, "Bo Chen")
    assert claim(stage["tom address"], bo, made_of(table_2, "Bo Chen")) == "kept"
    assert push_all(table_2, klass, address=stage["table 2 address"]) == 1
    toms = [line for line in listed(klass).splitlines() if line.startswith(bo)]
    assert toms == [f"{bo}\tBo Chen\tclaimed by Tom Reyes (login {stage['tom']})\topen: the exports "
                    "leave it out"]
    assert bo not in exported() and hers in exported()
