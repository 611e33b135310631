"""One person, one trainee id, on a real PostgreSQL (migration s032_login_claims): the fourth cold
review's #95 kept as tests. A workstation's login registered a classmate with no login ("Bo
Chen") under a trainee id the class had never seen but that was another trainee's (Ana Ruiz's,
read from a progress file where her profile sat); the xAPI export then put Bo's certificates,
one a pass, on Ana's actor, and Ana's own login was refused her own id.

- (a) once Ana proves her class login in New trainee…, her profile's id is sent with her login
  at once, so no workstation's login takes it first;
- (b) an id a login owns is sent only by that login: a profile made before she had a login is
  claimed by it (File › Send my results with my class login…); an id the class holds under
  another name is kept as her claim, and no workstation's login sends under it any more;
- (c) `export-results` (CSV and xAPI) refuses, by name, an id that carries two names, and
  never gives one actor two people."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import progress_file, push_all
from tests.support.command import run_here
from tests.support.progress import trainee_uid
from trainer.classes import ClassServerError, LoginRefusedError
from trainer.classes.server.logins import class_login, committed_uid, enrol_workstation
from trainer.classes.workstation.address import ClassAddress
from trainer.classes.workstation.classview import server_class_overview
from trainer.classes.workstation.connection import ClassConnection, ClassLedger
from trainer.classes.workstation.push import connect
from trainer.progress import Store


def squat(address: ClassAddress, name: str, uid: str, attempts: tuple = ()) -> str:
    """The review's uid_squat.py: a workstation's login sends a trainee of its own choosing,
    `name`, under the trainee id `uid` (another's, read from a progress file), and `attempts`
    under it. "pushed" or the server's refusal."""
    from tests.support.class_server import T0

    batch = {"trainees": [dict(name=name, created=T0 - 86400, archived=0, archived_at=None, instructor=0,
                               uid=uid)],
             "attempts": list(attempts)}
    try:
        with connect(address) as conn, conn.transaction():
            conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),))
        return "pushed"
    except psycopg.Error as e:
        return "refused: " + str(e).splitlines()[0]


def an_attempt(path, name: str, uid: str) -> dict:
    """An attempt of the file's trainee `name`, as a push sends it, renamed `uid`."""
    from trainer.classes.workstation.queue import Queue

    with contextlib.closing(Queue(path)) as queue:
        _, batch = queue.batch("any class", 500)
    trainee = trainee_uid(path, name)
    mine = next(a for a in batch["attempts"] if a["trainee_uid"] == trainee)
    return {**mine, "uid": uid}


def names_of(klass, uid: str) -> list[str]:
    return [n for (n,) in klass.read("SELECT name FROM trainees WHERE uid = %s", (uid,))]


@pytest.fixture
def stage(klass):
    """The review's stage: Ana Ruiz and Tom Reyes with logins of their own, Bo Chen with none;
    Table 1 and Table 4 enrolled."""
    with klass.connect("instructor") as instructor:
        logins = {"ana": class_login(instructor, "Ana Ruiz", "ana-password"),
                  "tom": class_login(instructor, "Tom Reyes", "tom-password"),
                  "table 1": enrol_workstation(instructor, "Table 1", "table-1-password"),
                  "table 4": enrol_workstation(instructor, "Table 4", "table-4-password")}
    return {**logins, "table 1 address": klass.address(logins["table 1"], "table-1-password"),
            "table 4 address": klass.address(logins["table 4"], "table-4-password")}


# --------------------------------------------------------------------------- (a) New trainee…
def test_her_new_profiles_id_is_hers_in_the_class_before_any_workstation_can_take_it(
        qtbot, tmp_path, klass, stage, monkeypatch):
    """Ana makes her profile at Table 1 and proves her class login; the class holds no row of her
    yet. Before: her profile got an id of Table 1's own, which the class never saw, and Table 4
    registered Bo Chen under it ("pushed"), after which her own login was refused her own id.
    Now the id is sent with her login as the profile is made: Table 4's push is refused, and
    her own results go in under it."""
    from ui.qt import QInputDialog, QPushButton, Qt
    from ui.shell.profiles import CLASS_IDENTITY_TAKEN, ProfileDialog

    table_1 = tmp_path / "table-1.db"
    store = Store.open(table_1)
    dialog = ProfileDialog(store, classroom=ClassLedger(stage["table 1 address"]))
    qtbot.addWidget(dialog)
    dialog.show()
    [new] = [b for b in dialog.findChildren(QPushButton) if b.text() == "New trainee…"]
    typed = iter(["Ana Ruiz", "ana-password"])
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: (next(typed), True))
    qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
    assert dialog.message.text() == CLASS_IDENTITY_TAKEN.format(name="Ana Ruiz")
    hers = store.find_trainee("Ana Ruiz").uid
    assert names_of(klass, hers) == ["Ana Ruiz"]
    with klass.admin() as admin:
        assert admin.execute("SELECT login, how FROM trainee_workstations WHERE trainee_uid = %s",
                             (hers,)).fetchall() == [(stage["ana"], "registered")]
        class_id = admin.execute("SELECT uid FROM class_info").fetchone()[0]
    # the profile keeps the salt her login made its id with (m024), which her push carries (s043)
    [(salt,)] = store.db.execute("SELECT uid_salt FROM trainees WHERE uid = ?", (hers,)).fetchall()
    assert committed_uid(class_id, stage["ana"], salt) == hers
    # the attack, as the review ran it, with her id read from Table 1's file
    said = squat(stage["table 4 address"], "Bo Chen", trainee_uid(table_1, "Ana Ruiz"))
    assert said.startswith("refused: refused trainee "), said
    assert names_of(klass, hers) == ["Ana Ruiz"] and klass.count("trainees") == 1
    # her own practice at Table 1 reaches the class under her id, with her login
    from tests.support.class_server import attempt

    store.record_attempt(attempt(store.find_trainee("Ana Ruiz").id, 1))
    assert push_all(table_1, klass, address=stage["table 1 address"]) == 0  # set aside: hers to send
    station = ClassConnection(str(table_1), stage["table 1 address"])
    try:
        assert station.send_set_aside("Ana Ruiz", "ana-password") == (1, 0)
    finally:
        station.close()
    with klass.admin() as admin:
        assert admin.execute("SELECT t.uid, t.name FROM attempts a JOIN trainees t ON t.id = a.trainee_id"
                             ).fetchall() == [(hers, "Ana Ruiz")]
    dialog.close()
    store.close()


def test_her_id_is_asked_of_the_class_and_made_only_with_her_password(klass, stage, joined):
    """class_identity with a wrong password makes nothing; with hers, on a class with no row of
    her, the id it answers (with the salt her login made it with, which her profile keeps) is
    hers in the class at once, and asked again it is the same one."""
    table = joined("workstation")
    with pytest.raises(LoginRefusedError):
        table.class_identity("Ana Ruiz", "tom-password")
    assert klass.count("trainees") == 0
    made = table.class_identity("Ana Ruiz", "ana-password")
    assert made is not None and made.salt is not None and names_of(klass, made.uid) == ["Ana Ruiz"]
    assert table.class_identity("Ana Ruiz", "ana-password") == (made.uid, None)  # held now: no salt
    assert table.class_identity("Bo Chen", "any password") is None  # no login: the workstation's own
    assert klass.count("trainees") == 1


# --------------------------------------------------------------------------- (b) an id a login owns
def test_a_profile_made_before_her_login_is_claimed_by_it_and_no_workstation_takes_it(tmp_path, klass,
                                                                                    stage):
    """Cy Park's profile at Table 1 was made before she had a login, and nothing of hers reached
    the class. Her login claims it (File › Send my results with my class login…): her login did
    not make the id, so the claim is kept for the instructor (s039: any login could have read the
    id from the file); settled hers, her claim registers it, the class holds it as hers from then
    on, and Table 4 cannot register Bo under it; a second claim says it is hers already; another
    trainee's login cannot claim it; no other login calls the claim."""
    table_1 = progress_file(tmp_path / "table-1.db", {"Cy Park": 1})
    with klass.connect("instructor") as instructor:
        cy = class_login(instructor, "Cy Park", "cy-password")
    ledger = ClassLedger(stage["table 1 address"])
    with Store.open(table_1) as store:
        profile = store.find_trainee("Cy Park")
    with pytest.raises(LoginRefusedError):
        ledger.claim_profile("Cy Park", profile.uid, profile.created, "ana-password")
    with pytest.raises(ClassServerError, match="no login of their own"):
        ledger.claim_profile("Bo Chen", profile.uid, profile.created, "ana-password")
    assert klass.count("trainees") == 0
    assert ledger.claim_profile("Cy Park", profile.uid, profile.created, "cy-password") == "kept"
    assert klass.count("trainees") == 0
    done = run_here("settle-claim", profile.uid, "--to", "claimant", "--reason", "Cy's own profile",
                    "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    assert ledger.claim_profile("Cy Park", profile.uid, profile.created, "cy-password") == "registered"
    assert ledger.claim_profile("Cy Park", profile.uid, profile.created, "cy-password") == "hers"
    assert names_of(klass, profile.uid) == ["Cy Park"]
    said = squat(stage["table 4 address"], "Bo Chen", profile.uid)
    assert said.startswith("refused: "), said
    with pytest.raises(ClassServerError, match="another trainee's, who has a login of their own"):
        ledger.claim_profile("Tom Reyes", profile.uid, profile.created, "tom-password")
    for login in ("workstation", "instructor", "supervisor"):
        with klass.connect(login) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege), \
                conn.transaction():
            conn.execute("SELECT claim_trainee_uid(%s, %s)", (profile.uid, profile.created))
    with klass.admin() as admin:
        assert admin.execute("SELECT login FROM trainee_workstations WHERE trainee_uid = %s",
                             (profile.uid,)).fetchall() == [(cy,)]
        assert admin.execute("SELECT trainee_uid, login, held FROM trainee_claims").fetchall() == [
            (profile.uid, cy, False)]


def test_an_id_taken_before_her_claim_is_kept_as_her_claim_and_no_workstation_sends_under_it(
        tmp_path, klass, stage):
    """The review's order: Table 4 took Ana's id for Bo first (the class could not know), and
    sent a result of Bo's under it. Her login's claim cannot make Bo's row hers (the server
    cannot tell which is true): it is kept, and from then on Table 4 sends nothing under that id;
    the staff read the claim, the workstations do not, and nobody changes it."""
    table_1 = progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 1})
    bo_file = progress_file(tmp_path / "table-4.db", {"Bo Chen": 2})
    hers = trainee_uid(table_1, "Ana Ruiz")
    assert squat(stage["table 4 address"], "Bo Chen", hers,
                 (an_attempt(bo_file, "Bo Chen", "b" * 32) | {"trainee_uid": hers},)) == "pushed"
    with Store.open(table_1) as store:
        made = store.find_trainee("Ana Ruiz").created
    table_1_ledger = ClassLedger(stage["table 1 address"])
    assert table_1_ledger.claim_profile("Ana Ruiz", hers, made, "ana-password") == "held"
    said = squat(stage["table 4 address"], "Bo Chen", hers,
                 (an_attempt(bo_file, "Bo Chen", "c" * 32) | {"trainee_uid": hers},))
    assert said.startswith(f"refused: refused trainee {hers}: a trainee's own login claims this "
                           "trainee id"), said
    assert klass.count() == 1
    with klass.connect("instructor") as instructor:
        assert instructor.execute("SELECT trainee_uid, login, name FROM trainee_claims").fetchall() == [
            (hers, stage["ana"], "Ana Ruiz")]
    with klass.connect(stage["table 4"], "table-4-password") as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM trainee_claims")
    with klass.admin() as admin:
        for statement in ("UPDATE trainee_claims SET name = 'Bo Chen'", "DELETE FROM trainee_claims",
                          "TRUNCATE trainee_claims"):
            with pytest.raises(psycopg.Error, match="append-only"):
                admin.execute(statement)


# --------------------------------------------------------------------------- (c) the export
@pytest.fixture
def ivy():
    from tests.support.exams import issuer
    from trainer.exams.keys import InstructorKey

    return issuer(InstructorKey.generate("Ivy Park"))


def bo_passed(tmp_path, ivy, name: str = "Bo Chen") -> dict:
    from tests.test_handoff_certificates import certified_exam

    return certified_exam(tmp_path, ivy, tmp_path / "instructor.sqlite", name)


def public_key(tmp_path, ivy):
    from trainer.exams.keys import write_public_key

    path = tmp_path / "ivy.pub"
    write_public_key(path, ivy.public)
    return path


def test_the_export_gives_bo_s_pass_to_no_actor_of_ana_s_id(tmp_path, klass, stage, ivy):
    """The review's #95 end to end: Table 4 registered Bo under Ana's id with a practice round,
    and Bo passed an exam, certified in the class. Ana's login claimed her id. The xAPI export
    and the transcript refuse that id by name: no statement's actor and no row is Ana's id, Bo's
    certificate is not written under it, and what else the class holds is written."""
    table_1 = progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 1})
    bo_file = progress_file(tmp_path / "table-4.db", {"Bo Chen": 1})
    hers = trainee_uid(table_1, "Ana Ruiz")
    assert squat(stage["table 4 address"], "Bo Chen", hers,
                 (an_attempt(bo_file, "Bo Chen", "b" * 32) | {"trainee_uid": hers},)) == "pushed"
    assert push_all(progress_file(tmp_path / "table-9.db", {"Di": 2}, start=5), klass) == 2
    cert = bo_passed(tmp_path, ivy)
    ClassLedger(klass.address("instructor")).add_certificate(cert)
    with Store.open(table_1) as store:
        made = store.find_trainee("Ana Ruiz").created
    table_1_ledger = ClassLedger(stage["table 1 address"])
    assert table_1_ledger.claim_profile("Ana Ruiz", hers, made, "ana-password") == "held"
    url = klass.address("instructor").url
    key = str(public_key(tmp_path, ivy))
    done = run_here("export-results", "--class", url, "--format", "xapi", "--public-key", key)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert hers not in {s["actor"]["account"]["name"] for s in said}
    assert {s["actor"]["name"] for s in said} == {"Di"}
    assert (f"note: trainee id {hers} carries two names in the class: 'Bo Chen', its row's, and "
            "'Ana Ruiz', claimed by a trainee's own login") in done.stderr
    assert "1 certificate left out, sent under a trainee id that carries two names: Bo Chen" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_here("export-results", "--class", url, "--format", "csv", "--public-key", key)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert {r["Trainee"] for r in rows} == {"Di"} and len(rows) == 2
    assert hers not in {r["Trainee id"] for r in rows}
    assert f"trainee id {hers} carries two names" in done.stderr
    with klass.connect("instructor") as instructor:  # the class view shows whose row it is, disputed
        assert f"Bo Chen ⚑ disputed: Ana Ruiz's login claims trainee id {hers[:8]}…" in [
            t.name for t in server_class_overview(instructor).trainees]


def test_a_certificate_s_name_is_never_the_actor_of_another_trainee_s_id(tmp_path, klass, stage, ivy):
    """A trainee whose one-word name has no row in the class ("Madonna1", a certificate only) is
    her certificate's own actor, named by her name. A workstation registered Bo under the id
    "Madonna1": before, Bo's practice and her pass were one actor in the statements. Now that
    account carries two names, and the export refuses it by name in both formats."""
    bo_file = progress_file(tmp_path / "table-4.db", {"Bo Chen": 1})
    assert squat(stage["table 4 address"], "Bo Chen", "Madonna1",
                 (an_attempt(bo_file, "Bo Chen", "b" * 32) | {"trainee_uid": "Madonna1"},)) == "pushed"
    ClassLedger(klass.address("instructor")).add_certificate(bo_passed(tmp_path, ivy, "Madonna1"))
    assert push_all(progress_file(tmp_path / "table-9.db", {"Di": 1}, start=5), klass) == 1
    url = klass.address("instructor").url
    key = str(public_key(tmp_path, ivy))
    done = run_here("export-results", "--class", url, "--format", "xapi", "--public-key", key)
    assert done.returncode == 0, done.stderr
    people: dict[str, set[str]] = {}
    for s in json.loads(done.stdout):
        people.setdefault(s["actor"]["account"]["name"], set()).add(s["actor"]["name"])
    assert all(len(names) == 1 for names in people.values()), people
    assert "Madonna1" not in people and len(people) == 1
    assert "trainee id Madonna1 carries two names (Bo Chen, Madonna1)" in done.stderr
    done = run_here("export-results", "--class", url, "--format", "csv", "--public-key", key)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert [r["Trainee"] for r in rows] == ["Di"]
    assert "trainee id Madonna1 carries two names" in done.stderr


# --------------------------------------------------------------------------- (b) in the app
def test_a_profile_made_before_her_login_becomes_her_logins_trainee_in_the_app(qtbot, tmp_path, klass):
    """Ana practised at Table 1 before she had a login (the class holds that row under her name),
    and made a profile at Table 2 too, with nothing sent from it. Once she has a login, File ›
    Send my results with my class login… at Table 2 takes her password with nothing to send:
    a wrong one is refused and claims nothing; hers claims the profile, kept for the instructor
    (her login did not make its id, s039); settled hers, the same dialog makes the profile her
    login's trainee, so the class shows one person for her, and no workstation can then register
    Bo under its id. Before, the dialog had nothing to do, and the profile's id stayed Table 2's
    own."""
    from tests.support.screens import window_for
    from ui.classroom.own_login import CLAIMED_SAYS
    from ui.qt import Qt

    with klass.connect("instructor") as instructor:
        table_2 = enrol_workstation(instructor, "Table 2", "table-2-password")
        table_4 = enrol_workstation(instructor, "Table 4", "table-4-password")
    assert push_all(progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 2}), klass) == 2
    path = tmp_path / "table-2.db"
    with Store.open(path) as store:
        store.add_trainee("Ana Ruiz")
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana Ruiz", "ana-password")
    store = Store.open(path)
    profile = store.find_trainee("Ana Ruiz")
    w = window_for(qtbot, store, profile)[0]
    w.rejoin_class(klass.address(table_2, "table-2-password"))
    qtbot.waitUntil(lambda: w.send_own_action.isEnabled(), timeout=10_000)
    w.send_own_action.trigger()
    ask = w.send_own_dialog
    qtbot.waitExposed(ask)
    assert "No result of <b>Ana Ruiz</b> waits" in ask.intro.text()
    assert "make this profile the trainee of that login" in ask.intro.text()
    assert ask.password.isEnabled() and not ask.send_button.isEnabled()
    qtbot.keyClicks(ask.password, "not her password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    assert ask.status.text().startswith("Not sent: the class refuses this password")
    assert names_of(klass, profile.uid) == []
    qtbot.keyClicks(ask.password, "ana-password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    assert ask.status.text() == CLAIMED_SAYS["kept"]
    assert ask.status.objectName() == "wrong"
    ask.grab().save(str(tmp_path / "kept.png"))
    assert names_of(klass, profile.uid) == []
    ask.reject()
    done = run_here("settle-claim", profile.uid, "--to", "claimant", "--reason", "Ana's Table 2 profile",
                    "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    w.send_own_action.trigger()
    ask = w.send_own_dialog
    qtbot.waitExposed(ask)
    qtbot.keyClicks(ask.password, "ana-password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    assert ask.status.text() == CLAIMED_SAYS["registered"]
    ask.grab().save(str(tmp_path / "claimed.png"))
    assert not ask.password.isEnabled()
    assert names_of(klass, profile.uid) == ["Ana Ruiz"]
    with klass.connect("instructor") as instructor:
        assert [t.name for t in server_class_overview(instructor).trainees] == ["Ana Ruiz"]
    said = squat(klass.address(table_4, "table-4-password"), "Bo Chen", profile.uid)
    assert said.startswith("refused: "), said
    assert names_of(klass, profile.uid) == ["Ana Ruiz"]
    ask.reject()
    w.close()
    store.close()


def test_the_export_refuses_the_two_name_id_and_still_holds_a_few_attempts(tmp_path, klass, stage, ivy,
                                                                           monkeypatch):
    """The refusal of an id that carries two names needs no line of the export in memory.
    Table 4 registered Bo under "Madonna1", a certificate's own name; Cy and Di sent 40 attempts
    of 20 findings of 4,000 characters each (the export reads no log). The xAPI export, run in
    this process, refuses "Madonna1" by name and writes the others' attempts, holding a fetch or
    two of five of them, never the class."""
    from tests.support.class_server import attempt
    from tests.support.export_memory import exported, findings, peak
    from trainer.classes.workstation import results

    monkeypatch.setattr(results, "ITERSIZE", 5)
    path = tmp_path / "table-9.db"
    with Store.open(path) as store:
        for name in ("Cy", "Di"):
            tid = store.add_trainee(name)
            for n in range(20):
                store.record_attempt(attempt(tid, n, findings=findings()))
    assert push_all(path, klass) == 40
    bo_file = progress_file(tmp_path / "table-4.db", {"Bo Chen": 1})
    assert squat(stage["table 4 address"], "Bo Chen", "Madonna1",
                 (an_attempt(bo_file, "Bo Chen", "b" * 32) | {"trainee_uid": "Madonna1"},)) == "pushed"
    ClassLedger(klass.address("instructor")).add_certificate(bo_passed(tmp_path, ivy, "Madonna1"))
    with klass.connect("instructor") as conn:
        whole = peak(lambda: results.server_lines(conn))  # the class held whole
    out = tmp_path / "class.json"
    done, held = exported("--class", klass.address("instructor").url, "--format", "xapi", "--out", str(out),
                          "--public-key", str(public_key(tmp_path, ivy)))
    assert done.returncode == 0, done.stderr
    assert "40 attempts and 0 certificates" in done.stdout
    assert "trainee id Madonna1 carries two names (Bo Chen, Madonna1)" in done.stderr
    actors = {(s["actor"]["account"]["name"], s["actor"]["name"]) for s in json.loads(out.read_text())}
    assert {name for _, name in actors} == {"Cy", "Di"} and len(actors) == 2
    assert held < whole / 3, f"the export took {held:,} bytes at most; the class held whole {whole:,}"
