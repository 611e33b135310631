"""An exam's answers are never refused for a storage quota someone else spent (the fourth cold
review, #88 and #89), a refused answer holds its sitting at `certify --class`, and the instructor
gives a workstation's login its quota back; on a real PostgreSQL.

The attacks: Tom fills Table 1's login's quota (or the shared workstation login's) with attempts
of his own; then Ana sits her exam honestly at that workstation. Every answer of hers was
refused, "the class keeps no more from login ...", the server kept no refusal, and `certify
--class` signed "did not pass (0), timed out"; re-enrolling Table 1 kept its quota, and no command
gave it back."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.support.class_server import progress_file, push_all
from tests.support.command import run_command, run_here
from tests.support.exams import code_of, form, issuer, sent, sit
from tests.test_class_server_quota import forged, quota_of
from trainer.classes.server import ledger as server_ledger
from trainer.classes.server.logins import enrol_workstation
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link, proof_key
from trainer.exams.submission import certify_class
from trainer.grading import grade
from trainer.procedure import build
from trainer.progress import Store

PASSWORD = "table-1-password"


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def push(conn: psycopg.Connection, batch: dict) -> int:
    with conn.transaction():
        return conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),)).fetchone()[0]


def spend_quota(tmp_path, klass, address) -> None:
    """Tom, at the workstation `address`, pushes attempts of his own until its login's quota (made
    small: 12 rows) refuses the next."""
    assert push_all(progress_file(tmp_path / "tom.sqlite", {"Tom Reyes": 1}), klass, address=address) == 1
    with klass.admin() as admin:
        tom = admin.execute("SELECT uid FROM trainees WHERE name = 'Tom Reyes'").fetchone()[0]
    quota_of(klass, 12, 10 ** 9)
    with psycopg.connect(address.url, autocommit=True) as conn, pytest.raises(
            psycopg.errors.RaiseException, match="the class keeps no more from login"):
        for n in range(100, 120):
            push(conn, {"trainees": [], "attempts": [forged(n, tom)]})


@pytest.mark.parametrize("where", ["Table 1", "shared"])
def test_a_spent_quota_refuses_no_classmates_exam_answer(tmp_path, klass, joined, ivy, where):
    if where == "shared":  # spent by the shared login; exams are sat at an enrolled workstation (s040)
        address, sat_at = klass.address("workstation"), klass.address(klass.seat())
    else:
        address = sat_at = klass.address(klass.seat(where))
    spend_quota(tmp_path, klass, address)
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Ana Ruiz", classroom=joined("instructor"))
    with Store.open(tmp_path / "ana.sqlite") as store:
        ana = store.add_trainee("Ana Ruiz")
        sit(store, installation_key(tmp_path / "k"), ana, exam, sitting=token,
            classroom=joined(address=sat_at))
        replies = [r["reply"] for r in store.query("SELECT reply FROM exam_stream ORDER BY step")]
    assert replies == ["recorded"] * (len(exam.items) + 1)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    [certificate] = summary.certificates
    assert certificate["trainee"] == "Ana Ruiz" and certificate["passed"]
    assert certificate["status"] == "passed"


def tom_sitting_with_a_refused_answer(tmp_path, klass, joined, ivy) -> tuple[dict, object]:
    """Tom's sitting of three items: item 1 answered at step 2; his answer to item 2 refused at
    step 3 and kept (put in as the server's owner: today's server refuses nothing there that it
    keeps, but a server before s038 kept any refused step, and what it kept stays), then the end
    taken as step 3. An answer to item 2 sent again as step 2 (its link spent: what the traffic
    carried) is refused and keeps nothing (s038). An answer sent after the end's own step holds
    nothing (the seventh cold review, #140: test_exam_refusals_replayed)."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Tom Reyes", classroom=joined("instructor"))
    with Store.open(tmp_path / "tom.sqlite") as store:
        store.add_trainee("Tom Reyes")
        start_exam(store, exam, store.find_trainee("Tom Reyes").id, installation_key(tmp_path / "k"),
                   sitting=token, classroom=joined.seat(), start_code=code_of(token))
    key, nonce = proof_key(code_of(token), token["nonce"]), token["nonce"]
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        assert server_ledger.sitting_step(conn, nonce, 2, link(key, 3, 2), position=0, log="[]") == "recorded"
        said = server_ledger.sitting_step(conn, nonce, 2, link(key, 3, 2), position=1, log="[]")
        assert said.startswith("refused: step 2 was taken first (item 1)")
    with klass.admin() as admin:
        admin.execute("INSERT INTO exam_sitting_refusals (nonce, step, kind, position, reason, login) "
                      "VALUES (%s, 3, 'answer', 1, 'kept by an older server', %s)", (nonce, klass.seat()))
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        assert server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), ending="finished") == "recorded"
    return token, exam


def test_a_sitting_whose_answer_was_refused_is_held_and_named_not_certified(tmp_path, klass, joined, ivy):
    token, _ = tom_sitting_with_a_refused_answer(tmp_path, klass, joined, ivy)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
        assert summary.certificates == []
        [held] = summary.refused
        assert held.startswith(f"sitting {token['nonce']} (Tom Reyes): held, "
                               "not certified: the class server refused 1 answer of item 2, which it "
                               "holds no answer of (step 3: kept by an older server)")
        assert f"dealer-trainer void-sitting {token['nonce']}" in held
        # held, not spent: asked again, it is held again; certified as recorded when the instructor says
        assert len(certify_class(ledger, ivy, joined("instructor")).refused) == 1
        [c] = certify_class(ledger, ivy, joined("instructor"), held_too=True).certificates
    assert not c["passed"] and c["recorded"]["held"].startswith("the class server refused 1 answer of item 2")


def test_an_oversized_answer_is_graded_not_answered_and_never_held(tmp_path, klass, joined, ivy):
    """A hostile client with the sitting's proof key pushes a log of 300,000 bytes as item 2. The
    server keeps the refusal (its size, never its text, s034). The app never sends such an
    answer (trainer.practice ends a round first), so it is the trainee's own doing: certified,
    item 2 not answered and named with its size, and no void offered (the fifth cold review,
    #105)."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Tom Reyes", classroom=joined("instructor"))
    with Store.open(tmp_path / "tom.sqlite") as store:
        store.add_trainee("Tom Reyes")
        start_exam(store, exam, store.find_trainee("Tom Reyes").id, installation_key(tmp_path / "k"),
                   sitting=token, classroom=joined.seat(), start_code=code_of(token))
    key, nonce = proof_key(code_of(token), token["nonce"]), token["nonce"]
    huge = "[" + " " * 299_998 + "]"
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        assert server_ledger.sitting_step(conn, nonce, 2, link(key, 3, 2), position=0, log="[]") == "recorded"
        said = server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), position=1, log=huge)
        assert said.startswith("refused: an answer's log is 300000 bytes")
        assert server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), position=2, log="[]") == "recorded"
        assert server_ledger.sitting_step(conn, nonce, 4, link(key, 3, 4), ending="finished") == "recorded"
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    [c] = summary.certificates
    assert c["sitting"] == nonce and not c["passed"] and "held" not in c["recorded"]
    assert c["unusable"]["items"] == [{"position": 1,
                                       "why": "an answer larger than the app sends (300000 bytes)"}]


def test_a_sure_fail_is_not_made_voidable_by_oversized_answers(tmp_path, klass, joined, ivy):
    """The review's attack (#105): Tom answers items 1 and 2 of a three-item sitting wrong (a
    critical error each) through the app, then his own program sends a 300 KB answer to item 3
    and the end. `certify --class` held the sitting and offered to void it (the attempt given
    back, the fail never certified); now it certifies the fail, item 3 not answered."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Tom Reyes", classroom=joined("instructor"))
    key, nonce = proof_key(code_of(token), token["nonce"]), token["nonce"]
    with Store.open(tmp_path / "tom.sqlite") as store:
        tom = store.add_trainee("Tom Reyes")
        session = sit(store, installation_key(tmp_path / "k"), tom, exam, sitting=token,
                      classroom=joined.seat(), stop_after=1, critical_at=0)
        s = session.scenario(1)  # item 2 handed in with nothing done
        session.record(1, grade(build(s), [], automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), [])
        sent(store, joined.seat())
    big = '"' + "x" * 300_000 + '"'
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        said = server_ledger.sitting_step(conn, nonce, 4, link(key, 3, 4), position=2, log=big)
        assert said.startswith("refused: an answer's log is 300002 bytes")
        assert server_ledger.sitting_step(conn, nonce, 4, link(key, 3, 4), ending="finished") == "recorded"
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert not any("void-sitting" in line for line in summary.refused), summary.refused
    [c] = summary.certificates
    assert c["sitting"] == nonce and c["trainee"] == "Tom Reyes" and not c["passed"]
    assert c["unusable"]["items"] == [{"position": 2,
                                       "why": "an answer larger than the app sends (300002 bytes)"}]


def test_a_refused_answer_to_an_item_answered_first_holds_nothing(tmp_path, klass, joined, ivy):
    """A second answer to an item the server holds an answer of changes nothing: first wins."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Tom Reyes", classroom=joined("instructor"))
    with Store.open(tmp_path / "tom.sqlite") as store:
        tom = store.add_trainee("Tom Reyes")
        sit(store, installation_key(tmp_path / "k"), tom, exam, sitting=token,
            classroom=joined.seat())
    key, nonce = proof_key(code_of(token), token["nonce"]), token["nonce"]
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        said = server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), position=0, log="[]")
        assert said.startswith("refused: step 3 was taken first")
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == [] and summary.certificates[0]["passed"]


def stored(conn) -> tuple[int, int]:
    return conn.execute("SELECT rows, quota_rows FROM login_stored()").fetchone()


def test_the_instructor_resets_a_workstations_quota(tmp_path, klass):
    """Table 1's login has its quota spent (the class's real quota, 50,000 rows); enrolled again it
    keeps it, and says so; `class-workstation reset-quota` gives it back, with a reason the class
    keeps; a workstation's login cannot reset one."""
    with klass.connect("instructor") as instructor:
        table = enrol_workstation(instructor, "Table 1", PASSWORD)
    address = klass.address(table, PASSWORD)
    assert push_all(progress_file(tmp_path / "tom.sqlite", {"Tom Reyes": 1}), klass, address=address) == 1
    with klass.admin() as admin:
        tom = admin.execute("SELECT uid FROM trainees WHERE name = 'Tom Reyes'").fetchone()[0]
    with psycopg.connect(address.url, autocommit=True) as conn:
        push(conn, {"trainees": [], "attempts": [forged(100, tom)]})
        held, quota = stored(conn)
        assert quota == 50_000
    with klass.admin() as admin:  # the rest of its quota spent, as 50,000 rows of pushes would
        admin.execute("INSERT INTO login_storage (login, what, rows, bytes) VALUES (%s, 'attempts', %s, 0)",
                      (table, 50_000 - held))
        if admin.execute("SELECT to_regclass('login_totals') IS NOT NULL").fetchone()[0]:
            admin.execute("UPDATE login_totals SET rows = 50000 WHERE login = %s", (table,))
    with psycopg.connect(address.url, autocommit=True) as conn, pytest.raises(
            psycopg.errors.RaiseException, match=f"the class keeps no more from login {table}"):
        push(conn, {"trainees": [], "attempts": [forged(101, tom)]})
    url = klass.address("instructor").url
    again = run_command("class-workstation", "add", "Table 1", "--class", url)
    assert again.returncode == 0, again.stderr
    assert ("A workstation enrolled again keeps its trainees, its results and what counts against "
            "its quota") in again.stdout
    new_password = again.stdout.split(f"{table}:", 1)[1].split("@", 1)[0]
    address = klass.address(table, new_password)
    with psycopg.connect(address.url, autocommit=True) as conn:
        assert stored(conn) == (50_000, 50_000)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM reset_login_quota('Table 1', 'mine')")
    refused = run_here("class-workstation", "reset-quota", "Table 1", "--reason", "  ", "--class", url)
    assert refused.returncode == 2 and "resetting a quota needs a reason" in refused.stderr
    assert "Traceback" not in refused.stderr
    nobody = run_here("class-workstation", "reset-quota", "Table 9", "--reason", "x", "--class", url)
    assert nobody.returncode == 2 and "no workstation named Table 9 is enrolled" in nobody.stderr
    done = run_command("class-workstation", "reset-quota", "Table 1", "--reason",
                       "Tom filled it on purpose", "--class", url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"The quota of Table 1 (login {table}) is whole again: 50,000 rows (")
    with psycopg.connect(address.url, autocommit=True) as conn:
        assert push(conn, {"trainees": [], "attempts": [forged(101, tom)]}) == 1
        assert stored(conn) == (50_003, 100_000)
    shared = run_here("class-workstation", "reset-quota", "--shared", "--reason", "a new term",
                      "--class", url)
    assert shared.returncode == 0, shared.stderr
    assert "The quota of the shared workstation login (workstation) is whole again: 0 rows" in shared.stdout
    with klass.connect("instructor") as instructor:
        kept = instructor.execute("SELECT login, rows, reason FROM login_quota_resets ORDER BY id").fetchall()
    assert kept == [(table, 50_000, "Tom filled it on purpose"), ("workstation", 0, "a new term")]


def test_an_answer_of_too_many_actions_is_named_with_the_servers_reason():
    """Refused for its 2,001 actions (under 262,144 bytes), an answer is named with its size and
    the server's words; an item answered after such a refusal keeps its answer (first kept wins)."""
    from trainer.exams.classledger import kept_answers, refused_unanswered

    why = "an answer's log is 2001 actions, more than the 2,000 an item's log may hold"
    kept = {"answers": {0: "[]"}, "refused_answers": [
        {"step": 3, "position": 1, "why": why, "bytes": 40_000},
        {"step": 2, "position": 0, "why": why, "bytes": 40_000}]}
    _, unusable = kept_answers(kept)
    said = f"an answer larger than the app sends (40000 bytes: {why})"
    assert unusable["items"] == [{"position": 1, "why": said}]
    assert refused_unanswered(kept, "n") is None
