"""Certification exams without Qt: forms (built, stored, filed, bundled), sitting one (pass, fail,
time-out, abandon, a real crash), attempts allowed, and who sees what."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from trainer import policy
from trainer.exams import (
    ExamAccess,
    ExamError,
    ExamOverError,
    FormError,
    FormFileError,
    FormItem,
    LockedError,
    NoAttemptsLeftError,
    Status,
    TimeUpError,
    add_bundled_forms,
    add_form,
    archive_form,
    attempts_left,
    bundled_forms,
    close_interrupted,
    exam_score,
    export_form,
    form_summaries,
    get_form,
    get_result,
    import_form,
    installation_key,
    list_forms,
    new_form,
    read_form,
    restore_form,
    results_for,
    start_exam,
    verify_results,
)
from trainer.exams.examples import EDITION, EXAMPLES, SUPERVISOR_EDITION, example_forms
from trainer.grading import correct_log, grade
from trainer.library import load_library
from trainer.procedure import Do, build
from trainer.progress import Store

ROOT = Path(__file__).resolve().parents[1]
T0 = 1_700_000_000.0
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "pai-gow-dice")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


@pytest.fixture
def key(tmp_path):
    return installation_key(tmp_path / "secret.key")


@pytest.fixture
def people(store):
    return {"ana": store.add_trainee("Ana"), "ben": store.add_trainee("Ben"),
            "ivy": store.add_trainee("Ivy", instructor=True, passphrase="correct horse")}


def small_form(**more):
    lib = load_library()
    ids = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive", "hrd-four-fives")
    fields = dict(time_limit_seconds=600, created_by="Ivy", pass_mark=80, attempts_allowed=2, created=T0)
    return new_form("Mixed certification", [lib.by_id(i) for i in ids], **{**fields, **more})


def answer(session, position: int, *, wrong_payout: bool = False, skip_last: int = 0):
    """Work an item as a trainee would and record it: perfectly, with one payout a dollar off (a
    critical error), or leaving the last actions undone."""
    s = session.scenario(position)
    proc = build(s)
    log = correct_log(proc, s.automation)
    if wrong_payout:
        k = next(i for i, p in enumerate(log) if p.do is Do.PAY)
        log[k] = dataclasses.replace(log[k], amount=log[k].amount + 100)
    if skip_last:
        log = log[:-skip_last]
    result = grade(proc, log, automation=s.automation, game=s.game, target_seconds=s.target_seconds)
    return session.record(position, result, log), result


# ------------------------------------------------------------------ forms
def test_a_form_round_trips_through_the_database_and_a_file(store, tmp_path):
    form = small_form()
    assert add_form(store, form) is True
    assert add_form(store, form) is False  # the same form again: nothing added
    back = get_form(store, form.uid)
    assert back == form and back.digest == form.digest
    assert [s.id for s in back.scenarios] == [it.scenario_id for it in form.items]
    assert back.games == ("props-and-hops", "pai-gow-dice", "three-dice-football", "high-roll-dice")

    path = tmp_path / "form.json"
    export_form(store, form.uid, path)
    with Store.open(tmp_path / "other.db") as other:
        imported, added = import_form(other, path)
        assert added and imported.digest == form.digest
        assert import_form(other, path)[1] is False  # importing twice adds it once
        assert [f.uid for f in list_forms(other)] == [form.uid]

    archive_form(store, form.uid)
    assert list_forms(store) == [] and [f.uid for f in list_forms(store, archived=True)] == [form.uid]
    restore_form(store, form.uid)
    assert [s.item_count for s in form_summaries(store)] == [4]


def test_a_stored_form_is_read_once_and_read_again_when_its_row_changes(store, tmp_path):
    """Certifying many sittings of one form reads it each time (its items played again): the
    same stored row gives the same form, read once; an archived form is read as archived."""
    form = small_form()
    add_form(store, form)
    first = get_form(store, form.uid)
    assert get_form(store, form.uid) is first
    with Store.open(tmp_path / "other.db") as other:
        add_form(other, form)
        assert get_form(other, form.uid) is first  # the same row in another file: the same form
    archive_form(store, form.uid)
    archived = get_form(store, form.uid)
    assert archived.archived and not first.archived and archived.digest == first.digest
    restore_form(store, form.uid)
    assert not get_form(store, form.uid).archived


def test_a_different_form_under_a_taken_uid_is_refused(store):
    add_form(store, small_form(uid="f1"))
    with pytest.raises(FormError, match="another form with the id f1"):
        add_form(store, small_form(uid="f1", pass_mark=70))


def test_a_stored_form_never_changes(store):
    import sqlite3

    form = small_form()
    add_form(store, form)
    with pytest.raises(sqlite3.IntegrityError, match="never changes"), store.write() as db:
        db.execute("UPDATE exam_forms SET pass_mark = 10")
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"), store.write() as db:
        db.execute("DELETE FROM exam_forms")


def test_a_form_is_checked_when_built_and_a_problem_names_the_item():
    lib = load_library()
    good = FormItem.of(lib.by_id("ph-first-shake"))
    broken = FormItem("pgd-sum-a-sixteen", lib.by_id("pgd-sum-a-sixteen").text.replace(
        'game = "pai-gow-dice"', 'game = "pai-gow-dicee"'))
    with pytest.raises(FormError, match=r"^items\[1\] \(pgd-sum-a-sixteen\):\d+: .*pai-gow-dicee"):
        new_form("F", [good, broken], time_limit_seconds=60, created_by="Ivy")
    with pytest.raises(FormError, match=r"items\[1\] \(other-id\): the embedded scenario's id"):
        new_form("F", [good, FormItem("other-id", lib.by_id("pgd-sum-a-sixteen").text)],
                 time_limit_seconds=60, created_by="Ivy")
    with pytest.raises(FormError, match="already in the form"):
        new_form("F", [good, good], time_limit_seconds=60, created_by="Ivy")
    with pytest.raises(FormError, match="pass_mark: must be a whole number from 0 to 100"):
        new_form("F", [good], time_limit_seconds=60, created_by="Ivy", pass_mark=101)
    with pytest.raises(FormError, match="attempts_allowed"):
        new_form("F", [good], time_limit_seconds=60, created_by="Ivy", attempts_allowed=0)
    with pytest.raises(FormError, match="items: a form needs at least one scenario"):
        new_form("F", [], time_limit_seconds=60, created_by="Ivy")


def test_a_form_read_again_is_checked_as_the_first_time_and_shares_nothing():
    """A form's scenarios, once read and played, are not read and played again for the same text
    at the same place (trainer.exams.forms `_checked`): the form read again equals the first and
    its scenarios equal a fresh read of their text; each form has its own, so a change to one
    reaches no other; a text that fails fails each time, naming its own place, before and after
    the good text it differs from was read."""
    from trainer.scenario import parse

    lib = load_library()
    first = small_form(uid="f1")
    again = small_form(uid="f1")
    assert again == first and again.digest == first.digest
    fresh = tuple(parse(it.text, f"items[{i}] ({it.scenario_id})") for i, it in enumerate(first.items))
    assert again.scenarios == fresh == first.scenarios
    assert all(a is not b for a, b in zip(again.scenarios, first.scenarios, strict=True))
    again.scenarios[0].wagers.clear()
    again.scenarios[0].title = "changed"
    assert small_form(uid="f1").scenarios == fresh != again.scenarios
    text = lib.by_id("pgd-sum-a-sixteen").text
    broken = FormItem("pgd-sum-a-sixteen", text.replace('game = "pai-gow-dice"', 'game = "pai-gow-dicee"'))
    for at in (1, 0, 1):  # the good text read at each place in turn, the broken one after it
        good = [FormItem.of(lib.by_id("ph-first-shake"))] if at else []
        new_form("F", [*good, FormItem("pgd-sum-a-sixteen", text)], time_limit_seconds=60,
                 created_by="Ivy")
        with pytest.raises(FormError, match=rf"^items\[{at}\] \(pgd-sum-a-sixteen\):\d+: .*dicee"):
            new_form("F", [*good, broken], time_limit_seconds=60, created_by="Ivy")
        with pytest.raises(FormError, match=rf"items\[{at}\] \(other\): the embedded scenario's id"):
            new_form("F", [*good, FormItem("other", text)], time_limit_seconds=60, created_by="Ivy")
    moved = new_form("F", [FormItem("pgd-sum-a-sixteen", text)], time_limit_seconds=60,
                     created_by="Ivy")
    assert moved.scenarios[0].path == "items[0] (pgd-sum-a-sixteen)"


def test_a_scenario_read_from_a_file_is_embedded(tmp_path):
    text = (ROOT / "scenarios" / "pai-gow-dice" / "02-sum-b-eight.toml").read_text(encoding="utf-8")
    copy = tmp_path / "mine.toml"
    copy.write_text(text, encoding="utf-8")
    from trainer.scenario import load

    form = new_form("From a file", [load(copy)], time_limit_seconds=120, created_by="Ivy")
    copy.unlink()  # the form does not need the file any more
    assert form.items[0].text == text and form.scenarios[0].id == "pgd-sum-b-eight"


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(pass_mark="eighty"), r"form\.json: pass_mark: must be a whole number"),
    (lambda d: d.pop("items"), r"form\.json: missing 'items'"),
    (lambda d: d.update(colour="red"), r"form\.json: unknown field 'colour'"),
    (lambda d: d["items"][1].update(toml="schema_version = 1\nid = "),
     r"form\.json: items\[1\] \(pgd-sum-a-sixteen\):1: TOML syntax error"),
    (lambda d: d["items"][0].pop("toml"), r"form\.json: items\[0\]: must be an object with exactly"),
    (lambda d: d.update(format="something"), r"not a Dealer Trainer exam form"),
    (lambda d: d.update(version=2), r"newer version"),
])
def test_a_malformed_form_file_names_the_field(tmp_path, edit, message):
    doc = small_form().to_json()
    edit(doc)
    path = tmp_path / "form.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormFileError, match=message):
        read_form(path)


def test_a_form_file_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "form.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(FormFileError, match=r"form\.json: not an exam form \(not JSON"):
        read_form(path)
    with pytest.raises(FormFileError, match="cannot be read"):
        read_form(tmp_path / "missing.json")


def dealer_forms() -> list:
    """The example dealers' forms: the bundled ones but the floor supervisor's."""
    return [f for f in bundled_forms() if not f.supervised]


def test_the_example_forms_one_per_game_build_and_can_be_passed(store):
    forms = dealer_forms()
    assert len(forms) == 4 and len(bundled_forms()) == 5
    assert [f.uid for f in bundled_forms() if f.supervised] == [f"example-supervisor-{SUPERVISOR_EDITION}"]
    assert {f.uid for f in forms} == {f"example-{g}-{EDITION}" for g in GAMES}
    for f in forms:
        game = f.uid.removeprefix("example-").removesuffix(f"-{EDITION}")
        assert 3 <= len(f.items) <= 4 and f.pass_mark == 80
        assert {g.removesuffix("-6") for g in f.games} == {game}
        assert 60 <= f.time_limit_seconds <= 3600
        for s in f.scenarios:  # every embedded scenario builds, and a perfect round passes it
            proc = build(s)
            result = grade(proc, correct_log(proc, s.automation), automation=s.automation, game=s.game,
                           target_seconds=s.target_seconds)
            assert result.score.passed and result.score.total == 100, s.id
    assert any(g == "high-roll-dice-6" for f in forms for g in f.games)
    assert add_bundled_forms(store) == 5 and add_bundled_forms(store) == 0  # the supervisor's too
    # offered after the dealers' forms, though its file's name comes first
    assert [f.uid for f in list_forms(store)][-1] == f"example-supervisor-{SUPERVISOR_EDITION}"


def test_the_example_files_are_what_their_generator_writes():
    """If this fails, an exam item changed: run `python -m trainer.exams.examples` (and raise
    EDITION: a form never changes, so new content takes a new uid)."""
    made = example_forms()
    assert set(made) == set(EXAMPLES)
    for f in dealer_forms():
        game = f.uid.removeprefix("example-").removesuffix(f"-{EDITION}")
        assert f.digest == made[game].digest, game


# ------------------------------------------------------------------ sitting an exam
def test_an_exam_worked_correctly_passes_and_keeps_every_answer(store, key, people):
    form = small_form()
    clock = Clock()
    session = start_exam(store, form, people["ana"], key, clock=clock)
    row = get_result(store, session.result_id)
    assert row.status is Status.IN_PROGRESS and row.total is None and row.answers == ()
    for p in range(4):
        assert session.next_position() == p
        clock.now += 60
        answer(session, p)
    assert session.over and session.next_position() is None
    r = session.result
    assert r.status is Status.PASSED and r.passed and not r.critical
    assert (r.procedure, r.payouts, r.speed, r.total) == (100, 100, 100, 100)
    assert r.ended == T0 + 240 and r.started == T0
    assert [a.item_id for a in r.answers] == [it.scenario_id for it in form.items]
    assert r.answers[0].log and r.answers[0].title == "First shake: the Field and a hardway"
    assert r.form_digest == form.digest and r.trainee_name == "Ana"
    assert get_result(store, r.id) == r
    with pytest.raises(ExamOverError):
        answer(session, 0)
    assert verify_results(store, key) == []


def test_a_critical_error_fails_the_exam_even_with_a_high_score(store, key, people):
    session = start_exam(store, small_form(), people["ana"], key, clock=Clock())
    for p in range(4):
        rec, result = answer(session, p, wrong_payout=(p == 0))
        if p == 0:
            assert result.score.critical and rec.critical
            assert any(f["severity"] == "critical" and f["cite"] for f in rec.findings)
    r = session.result
    assert r.total >= 90 and r.total >= r.pass_mark
    assert r.status is Status.FAILED and not r.passed and r.critical
    debrief = r.findings
    assert debrief and all("§" in f["cite"] for _, f in debrief)  # every finding shows its citation


def test_a_low_score_fails(store, key, people):
    session = start_exam(store, small_form(pass_mark=100), people["ana"], key, clock=Clock())
    answer(session, 0, skip_last=1)
    for p in range(1, 4):
        answer(session, p)
    assert session.result.status is Status.FAILED and session.result.total < 100


def test_when_time_runs_out_the_rest_is_unanswered(store, key, people):
    clock = Clock()
    session = start_exam(store, small_form(time_limit_seconds=300), people["ana"], key, clock=clock)
    assert session.remaining() == 300
    answer(session, 0)
    answer(session, 1)
    clock.now += 301
    assert session.remaining() == 0
    with pytest.raises(TimeUpError) as e:
        answer(session, 2)  # worked after the time ran out: not counted
    r = e.value.result
    assert r is session.result and r.status is Status.TIMED_OUT
    assert [a.position for a in r.answers] == [0, 1] and r.unanswered == (2, 3)
    assert (r.total, r.procedure, r.payouts, r.speed) == (50, 50, 50, 50)
    assert not r.passed and r.ended == T0 + 300
    assert verify_results(store, key) == []


def test_the_timer_ends_the_exam_and_an_item_left_unanswered_fails_it(store, key, people):
    """The one pass rule (trainer.policy): an exam passes only when every item passes, so a time-out
    with an item not answered fails it, even with a total at the pass mark."""
    form = small_form(pass_mark=75)
    clock = Clock()
    session = start_exam(store, form, people["ana"], key, clock=clock)
    for p in range(3):
        answer(session, p)
    clock.now += 600
    r = session.time_out()
    assert r.status is Status.TIMED_OUT and r.total == 75 and not r.passed
    assert r.rule == policy.RULE
    assert session.time_out() is r and session.finish() is r


def test_handing_in_early_counts_the_rest_as_zero(store, key, people):
    session = start_exam(store, small_form(), people["ana"], key, clock=Clock())
    answer(session, 0)
    r = session.finish()
    assert r.status is Status.FAILED and r.total == 25 and r.unanswered == (1, 2, 3)


def test_leaving_the_exam_is_recorded_as_abandoned_with_the_answers_kept(store, key, people):
    session = start_exam(store, small_form(), people["ana"], key, clock=Clock())
    answer(session, 0)
    answer(session, 1)
    r = session.abandon()
    assert r.status is Status.ABANDONED and not r.passed and r.total == 50
    assert len(r.answers) == 2


def test_an_answer_is_refused_twice_and_for_a_position_not_in_the_form(store, key, people):
    session = start_exam(store, small_form(), people["ana"], key, clock=Clock())
    answer(session, 2)
    with pytest.raises(ExamError, match="already answered"):
        answer(session, 2)
    with pytest.raises(ExamError, match="no item 7"):
        session.record(7, None, [])
    assert session.next_position() == 0


CRASH = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    from trainer.exams import bundled_forms, installation_key, start_exam
    from trainer.grading import correct_log, grade
    from trainer.procedure import build
    from trainer.progress import Store

    store = Store.open({db!r})
    key = installation_key({secret!r})
    session = start_exam(store, {form_uid!r}, store.find_trainee("Ana").id, key)
    s = session.scenario(0)
    proc = build(s)
    log = correct_log(proc, s.automation)
    session.record(0, grade(proc, log, automation=s.automation, game=s.game,
                            target_seconds=s.target_seconds), log)
    print(session.result_id, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the app dies mid-exam: no abandon(), no close
""")


def test_a_crash_mid_exam_leaves_an_abandoned_attempt_with_its_answer_kept(tmp_path):
    db, secret = tmp_path / "p.db", tmp_path / "secret.key"
    with Store.open(db) as store:
        store.add_trainee("Ana")
        form = dealer_forms()[0]
        add_form(store, form)
    code = CRASH.format(root=str(ROOT), db=str(db), secret=str(secret), form_uid=form.uid)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == -9, done.stderr
    result_id = int(done.stdout.split()[0])
    key = installation_key(secret)
    with Store.open(db) as store:  # the next start of the app
        assert get_result(store, result_id).status is Status.IN_PROGRESS
        assert close_interrupted(store, key) == [result_id]
        r = get_result(store, result_id)
        assert r.status is Status.ABANDONED and not r.passed
        assert [a.position for a in r.answers] == [0] and r.answers[0].total == 100
        assert r.ended == r.answers[0].answered
        assert r.total == 100 // len(form.items)
        assert close_interrupted(store, key) == []
        assert verify_results(store, key) == []


def test_close_interrupted_spares_an_exam_being_sat_in_this_process(store, key, people):
    session = start_exam(store, small_form(), people["ana"], key)
    assert close_interrupted(store, key) == []
    answer(session, 0)
    assert not session.over


def test_attempts_allowed_count_abandoned_attempts(store, key, people):
    form = small_form(attempts_allowed=2)
    ana = people["ana"]
    assert attempts_left(store, ana, form) == 2
    start_exam(store, form, ana, key).abandon()
    assert attempts_left(store, ana, form) == 1
    session = start_exam(store, form.uid, ana, key)
    for p in range(4):
        answer(session, p, wrong_payout=(p == 0))
    assert session.result.status is Status.FAILED
    with pytest.raises(NoAttemptsLeftError, match="Ana has used 2 of the 2 attempts allowed"):
        start_exam(store, form, ana, key)
    assert start_exam(store, form, people["ben"], key).abandon().status is Status.ABANDONED


def test_a_retake_after_a_failure_can_pass(store, key, people):
    form = small_form(attempts_allowed=2)
    first = start_exam(store, form, people["ana"], key)
    answer(first, 0, wrong_payout=True)
    assert first.finish().status is Status.FAILED
    second = start_exam(store, form, people["ana"], key)
    for p in range(4):
        answer(second, p)
    assert second.result.status is Status.PASSED
    assert [r.status for r in results_for(store, people["ana"])] == [Status.FAILED, Status.PASSED]


def test_an_archived_form_cannot_be_sat(store, key, people):
    form = small_form()
    add_form(store, form)
    archive_form(store, form.uid)
    with pytest.raises(FormError, match="archived"):
        start_exam(store, form.uid, people["ana"], key)


def test_exam_scores_are_means_rounded_down_over_every_item():
    a = lambda total, critical=False: {"procedure": total, "payouts": total, "speed": 100,  # noqa: E731
                                       "total": total, "critical": critical,
                                       "passed": total >= 80 and not critical}
    s = exam_score([a(80), a(79)], 2, 80)
    assert s.total == 79 and not s.passed  # 79.5 reads 79: never a pass that reads as a fail
    assert exam_score([a(80), a(80)], 2, 80).passed
    assert not exam_score([a(100), a(79)], 2, 80).passed  # 89 overall, but one item did not pass
    assert exam_score([a(100), a(100)], 4, 50).total == 50  # two items unanswered
    assert not exam_score([a(100), a(100, critical=True)], 2, 80).passed


# ------------------------------------------------------------------ who sees what
def test_trainees_see_only_their_own_results_and_forms_only_when_unlocked(store, key, people):
    form = small_form()
    for who in ("ana", "ben"):
        start_exam(store, form, people[who], key).abandon()
    assert [r.trainee_name for r in results_for(store, people["ana"])] == ["Ana"]
    assert [r.trainee_name for r in results_for(store, people["ivy"])] == ["Ana", "Ben"]

    ana = ExamAccess(store, people["ana"])
    assert [r.trainee_name for r in ana.results()] == ["Ana"]
    ben_result = results_for(store, people["ben"])[0].id
    with pytest.raises(LockedError):
        ana.result(ben_result)
    [available] = ana.available()
    assert (available.name, available.item_count, available.attempts_left) == ("Mixed certification", 4, 1)
    assert not hasattr(available, "items")
    with pytest.raises(LockedError, match="ask an instructor"):
        ana.forms()
    with pytest.raises(LockedError):
        ana.answer_key(form.uid, 0)
    assert ana.unlock(people["ivy"], "wrong") is False and not ana.unlocked
    assert ana.unlock(people["ben"], "correct horse") is False  # not an instructor
    assert ana.unlock(people["ivy"], "correct horse") is True
    assert [f.uid for f in ana.forms()] == [form.uid]
    key_json = ana.answer_key(form.uid, 0)
    assert key_json["scenario"] == "ph-first-shake" and key_json["stages"]
    ana.lock()
    with pytest.raises(LockedError):
        ana.form(form.uid)

    ivy = ExamAccess(store, people["ivy"])
    assert ivy.unlocked and ivy.form(form.uid) == form
    assert {r.trainee_name for r in ivy.results()} == {"Ana", "Ben"}


def test_an_earlier_example_form_the_engine_now_refuses_is_archived_not_a_crash(store):
    """Edition 1 of the Pai Gow example form dealt a die off the table, which cannot happen in
    the closed shaker: a progress file that stored it still opens, lists its forms, and says why
    that one cannot be sat."""
    from trainer.exams.canonical import digest
    from trainer.exams.formstore import list_forms, unusable_forms

    old = json.loads((ROOT / "tests" / "data" / "example-pai-gow-dice-edition-1.json").read_text())
    content = {k: old[k] for k in ("uid", "name", "time_limit_seconds", "pass_mark",
                                   "attempts_allowed", "created", "created_by", "items")}
    with store.write() as db:  # as an earlier version of the app stored it
        db.execute("INSERT INTO exam_forms (uid, name, items, time_limit_seconds, pass_mark, "
                   "attempts_allowed, created, created_by, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (old["uid"], old["name"], json.dumps(old["items"]), old["time_limit_seconds"],
                    old["pass_mark"], old["attempts_allowed"], old["created"], old["created_by"],
                    digest(content)))
    [(name, why)] = unusable_forms(store)
    assert name == old["name"] and "die-off-table" in why
    assert list_forms(store) == []
    add_bundled_forms(store)
    assert unusable_forms(store) == []  # edition 1 archived, edition 2 offered
    assert {f.uid for f in list_forms(store)} == {*(f"example-{g}-{EDITION}" for g in GAMES),
                                                  f"example-supervisor-{SUPERVISOR_EDITION}"}


@pytest.mark.parametrize(("text", "says"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "dealer-trainer-exam-form", "version": ' + "9" * 5000 + "}",
     "a number too long to read"),
])
def test_a_form_file_too_deep_or_too_long_is_named(tmp_path, text, says):
    path = tmp_path / "form.json"
    path.write_text(text)
    with pytest.raises(FormFileError, match=says):
        read_form(path)


@pytest.mark.parametrize(("field", "value", "says"), [
    ("created", 10**400, "created: must be a time"),
    ("created", float("inf"), "created: must be a time"),
    ("attempts_allowed", 10**30, "attempts_allowed: must be a whole number from 1 to 100"),
])
def test_a_form_with_absurd_numbers_is_named_not_crashed_on(tmp_path, field, value, says):
    doc = dealer_forms()[0].to_json()
    doc[field] = value
    path = tmp_path / "form.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(FormFileError, match=says):
        read_form(path)


def test_a_form_of_too_many_scenarios_is_refused():
    lib = load_library()
    one = lib.by_id("ph-first-shake")
    items = [(f"s{i}", one.text.replace('id = "ph-first-shake"', f'id = "s{i}"')) for i in range(101)]
    with pytest.raises(FormError, match="at most 100"):
        new_form("Too long", items, time_limit_seconds=600, created_by="Ivy")


def test_the_forms_order_is_the_instructors_and_is_kept(tmp_path):
    """Forms could not be reordered: the list was the order they were made in. An instructor
    moves a form up or down; the order is stored in the progress file and read back after the
    file is closed and opened again; a form added later goes last; retired forms keep their
    place."""
    from trainer.exams import add_bundled_forms, archive_form, list_forms, move_form
    from trainer.progress import Store

    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        assert add_bundled_forms(store) >= 3
        made = [f.uid for f in list_forms(store)]
        assert move_form(store, made[2], -1)
        assert [f.uid for f in list_forms(store)] == [made[0], made[2], made[1], *made[3:]]
        assert not move_form(store, made[0], -1), "the first cannot go further up"
        assert move_form(store, made[0], 1)
        archive_form(store, made[2])
        assert move_form(store, made[1], -1)  # past made[0]: the retired form is not in the list
    with Store.open(path) as store:
        assert [f.uid for f in list_forms(store)] == [made[1], made[0], *made[3:]]
        assert [f.uid for f in list_forms(store, archived=True)][:3] == [made[2], made[1], made[0]]
        assert not move_form(store, made[-1], 1), "the last cannot go further down"
