"""The instructor settles a claimed trainee id, on a real PostgreSQL (migration s036_claims_settled).

The stage is the fourth cold review's #95 (tests/test_class_identity.py): Table 4's login sent a
round of "Bo Chen", who has no login, under Ana Ruiz's trainee id, and Ana's own login claimed the
id. Until the instructor settles it, the exports leave the id out. `dealer-trainer settle-claim`
gives the id to the claimant (its results are hers from then on) or to the row (the claim
rejected), with a reason; the claim and its settling are both kept, nobody changes either, and only
an instructor's login settles. An export of the class sent to an LRS before the claim put that
round on the row's actor: the export after a settling the claimant's voids that statement."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import T0, progress_file, push_all
from tests.support.command import run_here
from tests.support.export_memory import exported, peak, pushed_findings
from tests.support.live_class import WITHIN, fast_pushes, instructor_window  # noqa: F401 (a fixture)
from tests.support.progress import trainee_uid
from tests.test_class_identity import an_attempt, squat
from tests.test_class_supervised import send, supervise
from trainer.classes.server.logins import class_login, enrol_workstation
from trainer.classes.workstation import results
from trainer.classes.workstation.classview import server_class_overview
from trainer.classes.workstation.connection import ClassLedger
from trainer.classes.workstation.push import connect
from trainer.classes.workstation.queue import Queue
from trainer.classes.workstation.supervised import batch
from trainer.progress import Store
from trainer.progress.supervised import round_uid

REASON = "Ana trained at Table 4 on 3 March; the sign-in sheet has her, not Bo"


@pytest.fixture
def claimed(tmp_path, klass):
    """Table 4 sent a round of Bo Chen's under Ana's trainee id ("b" * 32, the round's uid), Di
    sent two rounds of her own, and Ana's login claimed the id: {"uid": the id, the logins, ...}."""
    with klass.connect("instructor") as instructor:
        ana = class_login(instructor, "Ana Ruiz", "ana-password")
        table_4 = enrol_workstation(instructor, "Table 4", "table-4-password")
    table_1 = progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 1})
    bo_file = progress_file(tmp_path / "table-4.db", {"Bo Chen": 2})
    hers = trainee_uid(table_1, "Ana Ruiz")
    table_4_address = klass.address(table_4, "table-4-password")
    assert squat(table_4_address, "Bo Chen", hers,
                 (an_attempt(bo_file, "Bo Chen", "b" * 32) | {"trainee_uid": hers},)) == "pushed"
    assert push_all(progress_file(tmp_path / "table-9.db", {"Di": 2}, start=5), klass) == 2
    with Store.open(table_1) as store:
        made = store.find_trainee("Ana Ruiz").created
    return {"uid": hers, "ana": ana, "table 4": table_4, "table 4 address": table_4_address,
            "bo file": bo_file, "made": made, "table 1": table_1}


def claim(klass, stage) -> None:
    ledger = ClassLedger(stage["table 4 address"])
    assert ledger.claim_profile("Ana Ruiz", stage["uid"], stage["made"], "ana-password") == "held"


def export(klass, fmt: str, *more: str):
    done = run_here("export-results", "--class", klass.address("instructor").url, "--format", fmt, *more)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done


def settle(url: str, *args: str):
    return run_here("settle-claim", *args, "--class", url)


def test_a_claim_settled_hers_makes_the_id_hers_in_the_exports_and_the_class_view(klass, claimed):
    hers = claimed["uid"]
    claim(klass, claimed)
    url = klass.address("instructor").url
    listed = settle(url, "--list")
    assert listed.returncode == 0, listed.stderr
    assert f"{hers}\tBo Chen\tclaimed by Ana Ruiz (login {claimed['ana']})\topen" in listed.stdout
    done = settle(url, hers, "--to", "claimant", "--reason", REASON)
    assert done.returncode == 0, done.stderr
    assert f"Trainee id {hers} settled the claimant's (login {claimed['ana']})" in done.stdout
    # the transcript: the round under her name and id, Di's as before, the settling named
    done = export(klass, "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert sorted((r["Trainee"], r["Trainee id"]) for r in rows
                  if r["Trainee"] != "Di") == [("Ana Ruiz", hers)]
    assert len(rows) == 3
    assert "carries two names" not in done.stderr
    assert (f"note: trainee id {hers}, claimed by the login of 'Ana Ruiz' while the class held it under "
            f"'Bo Chen', settled by instructor the claimant's: its results are written as hers; "
            f"reason: {REASON}") in done.stderr
    # the statements: one actor, Ana's, for the round; nothing on the row's name
    said = json.loads(export(klass, "xapi").stdout)
    assert {(s["actor"]["name"], s["actor"]["account"]["name"]) for s in said
            if s["actor"]["name"] != "Di" and not voiding(s)} == {("Ana Ruiz", hers)}
    with klass.connect("instructor") as instructor:
        names = [t.name for t in server_class_overview(instructor).trainees]
    assert "Ana Ruiz" in names and "Bo Chen" not in names
    # the id is hers: still nothing more from a workstation's login under it
    said = squat(claimed["table 4 address"], "Bo Chen", hers,
                 (an_attempt(claimed["bo file"], "Bo Chen", "c" * 32) | {"trainee_uid": hers},))
    assert said.startswith(f"refused: refused trainee {hers}: a trainee's own login claims this trainee id")


def test_a_claim_settled_the_rows_writes_the_id_as_before_and_the_workstation_sends_again(klass, claimed):
    hers = claimed["uid"]
    claim(klass, claimed)
    url = klass.address("instructor").url
    done = settle(url, hers, "--to", "row", "--reason", "Bo's profile came first; Ana mistyped")
    assert done.returncode == 0, done.stderr
    assert "settled the row's" in done.stdout and "1 claim rejected" in done.stdout
    done = export(klass, "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout.lstrip("\ufeff"))))
    assert sorted((r["Trainee"], r["Trainee id"]) for r in rows
                  if r["Trainee"] != "Di") == [("Bo Chen", hers)]
    assert "carries two names" not in done.stderr
    assert ("settled by instructor the row's (the claim rejected): written under 'Bo Chen' as before"
            in done.stderr)
    assert squat(claimed["table 4 address"], "Bo Chen", hers,
                 (an_attempt(claimed["bo file"], "Bo Chen", "c" * 32) | {"trainee_uid": hers},)) == "pushed"


def test_only_an_instructor_settles_once_and_both_rows_are_kept(klass, claimed):
    hers = claimed["uid"]
    claim(klass, claimed)
    # the attack: the workstation's login and the claimant's own login settle it their way
    for login, password, *to in ((claimed["table 4"], "table-4-password", "row"),
                                 (claimed["ana"], "ana-password", "claimant", "--login", claimed["ana"])):
        done = settle(klass.address(login, password).url, hers, "--to", *to, "--reason", "mine")
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == [
            "dealer-trainer settle-claim: only an instructor's login settles whose a claimed trainee id is"]
        with klass.connect(login, password) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT settle_trainee_claim(%s, %s, 'mine')", (hers, claimed["ana"]))
    url = klass.address("instructor").url
    for args, said in (((hers, "--to", "row", "--reason", "  "), "give the trainee id, --to claimant"),
                       ((hers, "--to", "row", "--reason", "x" * 501), "with a reason (1 to 500 characters)"),
                       (("f" * 32, "--to", "row", "--reason", "r"), f"no login claims trainee id {'f' * 32}"),
                       ((hers, "--to", "claimant", "--login", "tom", "--reason", "r"),
                        f"the login tom has no open claim of trainee id {hers}"),
                       ((hers, "--to", "row", "--login", claimed["ana"], "--reason", "r"),
                        "not with --to row")):
        done = settle(url, *args)
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
    assert settle(url, hers, "--to", "claimant", "--reason", REASON).returncode == 0
    again = settle(url, hers, "--to", "row", "--reason", "second thoughts")
    assert again.returncode == 2 and f"the claims of trainee id {hers} are settled already" in again.stderr
    with klass.connect("instructor") as instructor:
        assert instructor.execute("SELECT trainee_uid, login FROM trainee_claims").fetchall() == [
            (hers, claimed["ana"])]
        settled = instructor.execute("SELECT outcome, reason, done_by FROM trainee_claim_settlements")
        assert settled.fetchall() == [("claimant", REASON, "instructor")]
    with klass.connect(claimed["table 4"], "table-4-password") as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM trainee_claim_settlements")
    with klass.admin() as admin:
        for statement in ("UPDATE trainee_claim_settlements SET outcome = 'row'",
                          "DELETE FROM trainee_claim_settlements", "TRUNCATE trainee_claim_settlements",
                          "DELETE FROM trainee_claims", "TRUNCATE trainee_claims"):
            with pytest.raises(psycopg.Error, match="append-only"):
                admin.execute(statement)


def test_the_export_after_a_settling_voids_the_statement_that_gave_her_round_to_the_row_in_ralph(
        tmp_path, klass, claimed):
    """Sent to the school's LRS before the claim: Bo Chen's actor under the id with the round.
    The id settled Ana's, the export voids that statement first (xAPI's `voided`) and states the
    round as hers; Ralph takes both, and the statement on the row's actor is no longer among the
    statements it gives. The same export again adds nothing; one under another activity base
    (--replaces-base) voids the earlier base's statements, the row's actor's among them."""
    from tests.support.ralph_lrs import ralph_lrs

    hers = claimed["uid"]
    url = klass.address("instructor").url

    def exported(name: str, *more: str) -> list[dict]:
        out = tmp_path / name
        export(klass, "xapi", "--out", str(out), *more)
        return json.loads(out.read_text(encoding="utf-8"))

    def actors(statements: list[dict]) -> set[tuple[str, str]]:
        return {(s["actor"]["name"], s["actor"]["account"]["name"]) for s in statements
                if s["actor"]["name"] != "Di" and s["verb"]["id"].rsplit("/", 1)[1] != "voided"}

    before = exported("before.json")
    on_the_row = [s for s in before if s["actor"]["account"]["name"] == hers]
    assert actors(on_the_row) == {("Bo Chen", hers)} and len(on_the_row) == 1
    claim(klass, claimed)
    assert settle(url, hers, "--to", "claimant", "--reason", REASON).returncode == 0
    after = exported("after.json")
    voided = [s["object"]["id"] for s in after if s["verb"]["id"].endswith("/voided")]
    assert voided == [on_the_row[0]["id"]]
    assert actors(after) == {("Ana Ruiz", hers)}
    assert exported("again.json") == after
    other_base = exported("other-base.json", "--activity-base", "https://casino.example/training/",
                          "--replaces-base", "https://dealer-trainer.invalid/xapi/")
    voided_again = {s["object"]["id"] for s in other_base if s["verb"]["id"].endswith("/voided")}
    assert on_the_row[0]["id"] in voided_again
    assert {s["id"] for s in after if not s["verb"]["id"].endswith("/voided")} <= voided_again
    with ralph_lrs(tmp_path / "lrs") as lrs:
        assert lrs.post(before) == (200, [s["id"] for s in before])
        assert lrs.post(after)[0] == 200
        # Ralph lists a voided statement still (its GET does not leave them out, as xAPI asks):
        # what stands is what no voiding statement it keeps names
        assert live(lrs.stored()) == {s["id"] for s in after if not voiding(s)}
        assert actors([s for s in lrs.stored() if s["id"] in live(lrs.stored())]) == {("Ana Ruiz", hers)}
        assert lrs.post(after) == (204, None)
        assert lrs.post(other_base)[0] == 200
        assert live(lrs.stored()) == {s["id"] for s in other_base if not voiding(s)}


def voiding(statement: dict) -> bool:
    return statement["verb"]["id"] == "http://adlnet.gov/expapi/verbs/voided"


def live(kept: list[dict]) -> set[str]:
    """The ids of the statements an LRS keeps that no voiding statement it keeps voids."""
    voided = {s["object"]["id"] for s in kept if voiding(s)}
    return {s["id"] for s in kept if not voiding(s) and s["id"] not in voided}


def test_the_class_tab_marks_a_disputed_id_with_the_claims_words_until_it_is_settled(
        qtbot, tmp_path, klass, claimed):
    """The instructor sees the claim without running an export: the Class tab's row of the id
    carries the mark and the claim's words (the claimant's name, the id's start), and loses them
    once the claim is settled."""
    from ui.classroom.view import ClassView
    from ui.qt import Qt

    hers = claimed["uid"]
    claim(klass, claimed)

    def rows() -> list[str]:
        with klass.connect("instructor") as instructor:
            overview = server_class_overview(instructor)
        view = ClassView()
        qtbot.addWidget(view)
        view.show_overview(overview)
        view.resize(1366, 600)
        view.show()
        qtbot.waitExposed(view)
        view.grab().save(str(tmp_path / f"class-tab-{len(list(tmp_path.glob('class-tab-*')))}.png"))
        return [view.model.headerData(r, Qt.Orientation.Vertical) for r in range(view.model.rowCount())]

    assert sorted(rows()) == [f"Bo Chen ⚑ disputed: Ana Ruiz's login claims trainee id {hers[:8]}…", "Di"]
    assert settle(klass.address("instructor").url, hers, "--to", "row", "--reason", "Bo's").returncode == 0
    assert sorted(rows()) == ["Bo Chen", "Di"]


def test_bo_s_certificate_under_the_id_settled_hers_leaves_her_actor_and_its_old_statement_is_voided(
        tmp_path, klass, claimed):
    """Bo passed an exam, certified in the class: the export before the claim stated his pass
    under the account of the id he was sent under (Ana's, as it turned out). Settled hers, the id
    is no account of Bo's any more: his pass is stated under his own name's account, and the
    statement on her id's account is voided."""
    from tests.support.exams import issuer
    from tests.test_class_identity import bo_passed, public_key
    from trainer.exams.keys import InstructorKey

    ivy = issuer(InstructorKey.generate("Ivy Park"))
    hers = claimed["uid"]
    ClassLedger(klass.address("instructor")).add_certificate(bo_passed(tmp_path, ivy))
    key = str(public_key(tmp_path, ivy))

    def passes(statements: list[dict]) -> list[dict]:
        return [s for s in statements if "/exams/" in s["object"]["id"]]

    before = passes(json.loads(export(klass, "xapi", "--public-key", key).stdout))
    assert [(s["actor"]["name"], s["actor"]["account"]["name"]) for s in before] == [("Bo Chen", hers)]
    claim(klass, claimed)
    url = klass.address("instructor").url
    assert settle(url, hers, "--to", "claimant", "--reason", REASON).returncode == 0
    after = json.loads(export(klass, "xapi", "--public-key", key).stdout)
    assert [(s["actor"]["name"], s["actor"]["account"]["name"]) for s in passes(after)] == [
        ("Bo Chen", "Bo Chen")]
    assert before[0]["id"] in {s["object"]["id"] for s in after if voiding(s)}


# ------------------------------------------------------------------ settled claims and rounds, streamed
def settled_with_rounds(tmp_path, klass, claimed, attempts: int = 0, findings: list | None = None) -> None:
    """test_class_claims_settled's stage (Table 4 sent Bo Chen's round under Ana's id, Di two of
    hers), with `attempts` more of Bo's under the id (with these `findings`, as pushed, if given),
    sent before Ana's login claimed it; the claim settled hers. Di supervised two rounds, sent
    from her file."""
    hers = claimed["uid"]
    more = tuple(an_attempt(claimed["bo file"], "Bo Chen", f"{n:032x}")
                 | {"trainee_uid": hers, "started": T0 + 600 + 60 * n, "ended": T0 + 630 + 60 * n}
                 | ({} if findings is None else {"findings": findings}) for n in range(attempts))
    assert squat(claimed["table 4 address"], "Bo Chen", hers, more) == "pushed"
    claim(klass, claimed)
    done = settle(klass.address("instructor").url, hers, "--to", "claimant", "--reason", REASON)
    assert done.returncode == 0, done.stderr
    for n, (game, seed) in enumerate((("props-and-hops", 1), ("pai-gow-dice", 9))):
        supervise(tmp_path / "table-9.db", "Di", game, seed, T0 + 90 + 60 * n)
    assert send(tmp_path / "table-9.db", klass.address()) == 2


def test_a_settled_claims_actors_and_the_rounds_are_known_before_a_line_is_read(tmp_path, klass, claimed,
                                                                                monkeypatch):
    """Before the export was streamed, a settled claim's actors of before were kept by attempt,
    from every attempt read, and the rounds were read with the attempts, flags and all, the class
    held whole. Streamed, the actors of before are the settled rows' (from the trainees and the
    claims) and the rounds come from their own table: both are whole when `streamed` returns,
    before its first line, and no statement but the stream's own reads an attempt's row, and none
    reads its log (the export writes none)."""
    from trainer.progress.handoff import Formerly

    settled_with_rounds(tmp_path, klass, claimed)
    said: list[str] = []
    for kind in (psycopg.Cursor, psycopg.ServerCursor):
        def execute(self, query, *args, _run=kind.execute, **kw):
            said.append(query if isinstance(query, str) else query.as_string(self.connection))
            return _run(self, query, *args, **kw)
        monkeypatch.setattr(kind, "execute", execute)

    def logs_read() -> list[str]:  # whole rows of the attempts, their columns, or their logs
        return [q for q in said if "FROM attempts" in q
                and ("a.*" in q or '"a"."uid"' in q or " log" in q or "log," in q)]

    formerly, rounds, left = Formerly(), [], []
    with klass.connect("instructor") as conn:
        lines = results.streamed(conn, formerly=formerly, rounds=rounds, left_out=left)
        assert logs_read() == []
        assert [(t.name, t.uid) for t in formerly.actors.values()] == [("Bo Chen", claimed["uid"])]
        assert len(formerly.settled) == 1 and "settled by instructor the claimant's" in formerly.settled[0]
        assert formerly.accounts["Bo Chen"] == claimed["uid"]  # the certificates' account of before
        assert [(r.trainee.name, r.game) for r in rounds] == [("Di", "props-and-hops"),
                                                              ("Di", "pai-gow-dice")]
        assert all(r.faults for r in rounds)
        written = list(lines)
    # the stream's own read of the rows, which reads no log (the export writes none)
    assert len(logs_read()) == 1 and logs_read()[0].startswith('SELECT "a"."id", '), said
    assert '"a"."log"' not in logs_read()[0] and "'[]' AS log FROM attempts a" in logs_read()[0]
    assert sorted((line.trainee.name, line.trainee.uid == claimed["uid"]) for line in written) == [
        ("Ana Ruiz", True), ("Di", False), ("Di", False)]
    assert left == []


def test_a_settled_claim_and_rounds_exported_holding_a_few_attempts(tmp_path, klass, claimed, monkeypatch):
    """The export of a class whose settled id holds 40 of Bo's attempts of 20 findings of 4,000
    characters each (the export reads no log), with supervised rounds: each attempt's statement
    on the row's actor is voided, the rounds are stated, and the export, run in this process,
    holds a fetch or two of five attempts, not the forty. Exported whole (the merge of main as it
    was), it held them all."""
    monkeypatch.setattr(results, "ITERSIZE", 5)
    settled_with_rounds(tmp_path, klass, claimed, attempts=40, findings=pushed_findings())
    with klass.connect("instructor") as conn:
        whole = peak(lambda: results.server_lines(conn))  # the class held whole
    out = tmp_path / "class.json"
    done, held = exported("--class", klass.address("instructor").url, "--format", "xapi", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "43 attempts, 2 supervised rounds (practice)" in done.stdout, done.stdout
    assert "after 41 voiding the statements they replace" in done.stdout
    said = json.loads(out.read_text(encoding="utf-8"))
    voided = [s for s in said if s["verb"]["id"].endswith("/voided")]
    assert len(voided) == 41 and said[:41] == voided
    stated = {(s["actor"]["name"], s["actor"]["account"]["name"]) for s in said[41:]}
    assert ("Bo Chen", claimed["uid"]) not in stated and ("Ana Ruiz", claimed["uid"]) in stated
    assert sum(s["verb"]["id"].endswith("/scored") for s in said) >= 2
    assert held < whole / 3, f"the export took {held:,} bytes at most; the class held whole {whole:,}"


@pytest.mark.usefixtures("fast_pushes")
def test_the_instructor_settles_a_disputed_id_from_the_class_tab(qtbot, tmp_path, klass, claimed):
    """Settle claim… shows only while a row is disputed. The instructor selects Bo's row, clicks
    it, finds Bo's claimed id chosen, picks the row's with Alt+R, gives a reason and Settle: the
    class keeps the settling with her reason and the instructor's login, the status bar says it in
    settle-claim's words, and the mark and the button go once the class is read again. A second
    settling of the same id is refused in the dialog, in the class's words."""
    from ui.qt import Qt

    hers = claimed["uid"]
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: page.live.refreshes >= 1, timeout=WITHIN)
    assert not view.settle_button.isVisible(), "no claim yet: nothing to settle"
    claim(klass, claimed)
    page.live.request(in_full=True)
    qtbot.waitUntil(lambda: view.settle_button.isVisible(), timeout=WITHIN)
    bo = next(n for n, t in enumerate(view.trainees) if t.name.startswith("Bo Chen"))
    view.table.setCurrentIndex(view.model.index(bo, 0))
    qtbot.mouseClick(view.settle_button, Qt.MouseButton.LeftButton)
    ask = view.settle_dialog
    qtbot.waitExposed(ask)
    ask.activateWindow()
    qtbot.waitActive(ask)
    assert ask.claim.count() == 1
    assert ask.claim.itemText(0) == f"Bo Chen's trainee id {hers[:8]}…, claimed by Ana Ruiz's login"
    assert ask.claim.itemData(0, Qt.ItemDataRole.ToolTipRole) == (
        f"Trainee id {hers}, claimed by login {claimed['ana']}")
    # neither ticked: the claimant is the party nothing checks (the seventh cold review, #139)
    assert not ask.claimant.isChecked() and not ask.row.isChecked()
    assert not ask.button.isEnabled(), "nothing settled without a reason"
    qtbot.keyClicks(ask.reason, "Bo sat at Table 4; Ana was away that week")
    assert not ask.button.isEnabled(), "nothing settled without a choice"
    qtbot.keyClick(ask.windowHandle(), Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)  # as typed
    qtbot.waitUntil(ask.row.isChecked, timeout=WITHIN)  # a mnemonic clicks after its animation
    assert ask.button.isEnabled()
    ask.grab().save(str(tmp_path / "settle.png"))
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible()
    assert w.statusBar().currentMessage().startswith(
        f"Trainee id {hers} settled the row's in {klass.database} (1 claim rejected)")
    with klass.admin() as admin:
        assert admin.execute("SELECT outcome, reason, done_by FROM trainee_claim_settlements").fetchall() == [
            ("row", "Bo sat at Table 4; Ana was away that week", "instructor")]
    qtbot.waitUntil(lambda: not view.settle_button.isVisible(), timeout=WITHIN)
    assert not any("disputed" in t.name for t in view.trainees)

    # the dialog, opened while the row was still marked, meets a settled id: refused, in the class's words
    from ui.classroom.claims import SettleDialog
    again = SettleDialog([people_claim(hers, claimed["ana"])], page.live.settle, view)
    qtbot.addWidget(again)
    again.show()
    qtbot.keyClicks(again.reason, "again")
    qtbot.mouseClick(again.row, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(again.button, Qt.MouseButton.LeftButton)
    assert again.isVisible() and again.problem.text().startswith("Not settled: ")
    assert "settled already" in again.problem.text()
    again.close()
    w.close()
    store.close()


def people_claim(uid: str, login: str):
    """An open claim of `uid` by Ana's `login`, as trainer.classes.server.people lists it."""
    from trainer.classes.server.people import Claim

    return Claim(uid, "Bo Chen", login, "Ana Ruiz", 0.0, None)


def test_a_flood_of_claims_of_unheld_ids_does_not_bury_a_disputed_row(qtbot):
    """The seventh cold review's #142: one trainee login kept 1,000 claims of random ids the class
    holds no row of, and Settle claim… listed them first, one chosen. The disputes of a row come
    first, and nothing is ticked."""
    from tests.support.screens import press
    from trainer.classes.server.people import Claim
    from ui.classroom.claims import SettleDialog
    from ui.qt import Qt

    junk = [Claim(f"{n:032x}", None, "tom", "Tom Reyes", float(n), None) for n in range(50)]
    real = people_claim("b0" * 16, "ana")
    ask = SettleDialog([*junk, real], lambda *_: "settled", None)
    qtbot.addWidget(ask)
    ask.show()
    assert ask.claim.count() == 51
    assert ask.claim.currentText() == f"Bo Chen's trainee id {'b0' * 4}…, claimed by Ana Ruiz's login"
    assert not ask.claimant.isChecked() and not ask.row.isChecked()
    press(qtbot, ask.claim, Qt.Key.Key_Down)
    assert ask.claim.currentText().startswith("A trainee id the class holds no row of yet, 00000000")


def test_bo_s_supervised_round_under_the_id_settled_hers_has_its_old_statements_voided(tmp_path, klass,
                                                                                        claimed):
    """The attack: Table 4 sent a supervised round of Bo Chen's under Ana's trainee id, as it sent
    his attempt. The export before the claim stated the round (one statement a fault class) on
    the row's actor, Bo Chen under her id. Settled hers, the round is written as hers, and each
    statement of it on Bo's actor is voided, as the attempt's is: otherwise the LRS keeps Bo's
    catches on her account beside her own."""
    hers = claimed["uid"]
    supervise(claimed["bo file"], "Bo Chen", "props-and-hops", 1, T0 + 300)
    with contextlib.closing(Queue(claimed["bo file"])) as queue:
        (one,) = batch(queue, "any class", 5)[1]
    squatted = {**one, "trainee_uid": hers, "uid": round_uid(hers, one["round_uid"], one["finished"])}
    with connect(claimed["table 4 address"]) as conn, conn.transaction():
        conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": [squatted]}),))

    def rounds(statements: list[dict]) -> list[dict]:
        return [s for s in statements if "/supervise/" in s["object"]["id"] and not voiding(s)]

    before = rounds(json.loads(export(klass, "xapi").stdout))
    assert before and {(s["actor"]["name"], s["actor"]["account"]["name"]) for s in before} == {
        ("Bo Chen", hers)}
    claim(klass, claimed)
    url = klass.address("instructor").url
    assert settle(url, hers, "--to", "claimant", "--reason", REASON).returncode == 0
    after = json.loads(export(klass, "xapi").stdout)
    assert {(s["actor"]["name"], s["actor"]["account"]["name"]) for s in rounds(after)} == {
        ("Ana Ruiz", hers)}
    voided = {s["object"]["id"] for s in after if voiding(s)}
    assert {s["id"] for s in before} <= voided
    assert len(voided) == 1 + len(before)  # the attempt's statement and the round's
    # the voiding statements come first, each once, and the same export again is the same
    assert all(voiding(s) for s in after[:len(voided)])
    assert json.loads(export(klass, "xapi").stdout) == after


def test_a_choice_made_for_one_claim_does_not_settle_another(qtbot):
    """The seventh review's re-check, #147: an outcome ticked and a reason typed for Cy's claim
    stayed when the instructor moved to Di's, and Enter settled Di's with them. Now changing the
    claim clears both, and Enter settles nothing."""
    from trainer.classes.server.people import Claim
    from ui.classroom.claims import SettleDialog
    from ui.qt import Qt

    settled = []
    claims = [Claim("c1" * 16, "Cy Lam", "ana", "Ana Ruiz", 0.0, None),
              Claim("d1" * 16, "Di Park", "tom", "Tom Reyes", 1.0, None)]
    ask = SettleDialog(claims, lambda *a: settled.append(a) or "settled", None)
    qtbot.addWidget(ask)
    ask.show()
    qtbot.keyClicks(ask.reason, "Cy's claim: Ana's word, checked")
    qtbot.mouseClick(ask.claimant, Qt.MouseButton.LeftButton)
    assert ask.button.isEnabled()
    ask.claim.setFocus()
    qtbot.keyClick(ask.claim, Qt.Key.Key_Down)
    assert ask.claim.currentText().startswith("Di Park's")
    assert not ask.claimant.isChecked() and not ask.row.isChecked() and ask.reason.text() == ""
    qtbot.keyClick(ask.claim, Qt.Key.Key_Return)
    assert settled == [] and ask.isVisible()
    # chosen again for Di's claim, it is Di's that is settled
    qtbot.keyClicks(ask.reason, "Di's profile")
    qtbot.mouseClick(ask.row, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert settled == [("d1" * 16, None, "Di's profile")]


def test_the_selected_rows_own_claim_is_chosen_not_one_whose_name_begins_it(qtbot):
    """The re-check's #148: with the row "Gus Ortiz" selected, the dialog chose the claim of a row
    named "Gus" (matched by the start of the name). It matches the row's trainee id."""
    from trainer.classes.server.people import Claim
    from ui.classroom.claims import SettleDialog

    claims = [Claim("e3" * 16, "Gus", "tom", "Tom Reyes", 0.0, None),
              Claim("c9" * 16, "Gus Ortiz", "ana", "Ana Ruiz", 1.0, None)]
    ask = SettleDialog(claims, lambda *a: "settled", None, chosen="c9" * 16)
    qtbot.addWidget(ask)
    ask.show()
    assert ask.claim.currentText().startswith("Gus Ortiz's"), ask.claim.currentText()
