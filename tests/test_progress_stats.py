"""Statistics on small hand-built logs, checked against numbers worked out by hand."""

from __future__ import annotations

import pytest

from tests.support.progress import DAY1, played_round
from trainer.procedure import Skill
from trainer.progress import (
    AttemptRecord,
    Mode,
    Store,
    accuracy_by_game,
    accuracy_by_skill,
    attempts_per_day,
    class_overview,
    next_drill_skill,
    payout_times,
    progress_report,
    skill_table,
    weakest_skills,
)

H = 3600.0
DAY = 24 * H


def finding(skill: str, severity: str = "major") -> dict:
    return {"kind": "wrong call", "severity": severity, "message": "wrong", "cite": "§ 668a.3",
            "skill": skill}


def add(store: Store, trainee: int, started: float, skills=(), misses=(), *, duration=30.0, target=40.0,
        game="props-and-hops", mode=Mode.SCENARIO, item="s1", passed=True, critical=False, abandoned=False,
        at=(), by_trainer=()) -> int:
    log = [{"do": "pay", "round": 1, "at": a} for a in at]
    log += [{"do": "collect", "round": 1, "at": a, "by_trainer": True} for a in by_trainer]
    return store.record_attempt(AttemptRecord(
        trainee_id=trainee, item_id=item, game=game, mode=mode, started=started, ended=started + duration,
        duration=duration, target=target, procedure=100, payouts=100, speed=100, total=100 if passed else 50,
        passed=passed, critical=critical, abandoned=abandoned, skills=tuple(skills),
        findings=tuple(finding(s, "critical" if critical else "major") for s in misses), log=tuple(log)))


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


@pytest.fixture
def ana(store):
    t = store.add_trainee("Ana")
    add(store, t, DAY1 + 10 * H, ["payouts", "calls"], ["payouts"], passed=False, critical=True)  # A1
    add(store, t, DAY1 + 11 * H, ["payouts"], mode=Mode.PAYOUT_DRILL, duration=30)  # A2
    add(store, t, DAY1 + DAY + 9 * H, ["calls", "markers"], ["calls", "calls"],  # A3: one miss
        game="three-dice-football", passed=False)
    add(store, t, DAY1 + DAY + 10 * H, ["payouts"], ["payouts"], mode=Mode.PAYOUT_DRILL, duration=50,
        abandoned=True, passed=False)  # A4: counts in no accuracy and no time
    add(store, t, DAY1 + DAY + 12 * H, ["payouts"], mode=Mode.PAYOUT_DRILL, duration=60)  # A5
    return t


def rows(points):
    return [(p.key, p.period, p.exercises, p.right) for p in points]


def test_accuracy_by_skill_and_by_game_per_day(store, ana):
    assert rows(accuracy_by_skill(store, ana, utc_offset=0)) == [
        ("calls", "2023-11-14", 1, 1), ("payouts", "2023-11-14", 2, 1),
        ("calls", "2023-11-15", 1, 0), ("markers", "2023-11-15", 1, 1), ("payouts", "2023-11-15", 1, 1)]
    assert rows(accuracy_by_game(store, ana, utc_offset=0)) == [
        ("props-and-hops", "2023-11-14", 3, 2), ("three-dice-football", "2023-11-15", 2, 1),
        ("props-and-hops", "2023-11-15", 1, 1)]
    assert accuracy_by_game(store, ana, utc_offset=0)[0].accuracy == pytest.approx(2 / 3)
    assert rows(accuracy_by_skill(store, ana, utc_offset=0, since=DAY1 + DAY)) == rows(
        accuracy_by_skill(store, ana, utc_offset=0))[2:]


def test_accuracy_per_attempt(store, ana):
    assert rows(accuracy_by_skill(store, ana, per="attempt")) == [
        ("calls", "1", 1, 1), ("payouts", "1", 1, 0), ("payouts", "2", 1, 1), ("calls", "3", 1, 0),
        ("markers", "3", 1, 1), ("payouts", "5", 1, 1)]
    with pytest.raises(ValueError):
        accuracy_by_skill(store, ana, per="week")


def test_attempts_per_day_and_payout_times(store, ana):
    assert [tuple(vars_(d)) for d in attempts_per_day(store, ana, utc_offset=0)] == [
        ("2023-11-14", 2, 1, 0), ("2023-11-15", 3, 1, 1)]
    # eleven hours west of UTC, A1 falls on the 13th and A3 and A4 on the 14th
    assert [(d.day, d.attempts) for d in attempts_per_day(store, ana, utc_offset=-11 * H)] == [
        ("2023-11-13", 1), ("2023-11-14", 3), ("2023-11-15", 1)]
    times = payout_times(store, ana)
    assert [(t.attempt_id, t.duration, t.target, t.ratio) for t in times] == [(2, 30, 40, 0.75),
                                                                              (5, 60, 40, 1.5)]
    both = payout_times(store, ana, modes=("scenario", "payout-drill"))
    assert [t.attempt_id for t in both] == [1, 2, 3, 5]


def vars_(d):
    return (d.day, d.attempts, d.passed, d.abandoned)


@pytest.fixture
def bo(store):
    """A trainee whose skills each show one case of the scheduler's rule."""
    t = store.add_trainee("Bo")
    clock = iter(DAY1 + 60 * k for k in range(1000))

    def run(skill, misses_newest_first, n, duration=30.0):
        for k in reversed(range(n)):  # oldest first; k counts back from the newest (0)
            missed = [skill] if k in misses_newest_first else []
            add(store, t, next(clock), [skill], missed, duration=duration)

    run("payouts", {19}, 21)  # 19/20 in the window, fast: mastered
    run("calls", {0, 2, 5}, 8)  # 3 misses in the last 8: a leech
    run("collecting", {3}, 4)  # a miss, not a leech
    run("no-roll", set(), 5)  # no miss, too few attempts
    run("shaker", set(), 20, duration=50)  # no miss, 20 attempts, too slow (50 s against 40 s)
    return t


def test_skill_table_mastery_leeches_and_priority(store, bo):
    last = store.attempts(bo, newest_first=True, limit=1)[0].started
    now = last + 3.5 * DAY
    table = {r.skill: r for r in skill_table(store, bo, now=now)}
    pay, calls, coll = table[Skill.PAYOUTS], table[Skill.CALLS], table[Skill.COLLECTING]
    assert (pay.attempts, pay.recent, pay.recent_right, pay.recent_accuracy) == (21, 20, 19, 0.95)
    assert pay.mastered and not pay.leech and pay.time_ratio == 0.75
    payouts_last = DAY1 + 60 * 20
    assert pay.priority == pytest.approx(0.9 * (now - payouts_last) / (7 * DAY))
    assert (calls.recent, calls.recent_right, calls.recent_misses, calls.leech) == (8, 5, 3, True)
    assert calls.weighted_misses == 1 + 0.25 + 0.03125 and calls.priority == 4.28125
    assert not calls.mastered
    assert (coll.recent_misses, coll.leech, coll.weighted_misses, coll.priority) == (1, False, 0.125, 2.25)
    assert table[Skill.NO_ROLL].priority == 1 + (1 - 5 / 20) / 2 and not table[Skill.NO_ROLL].mastered
    shaker = table[Skill.SHAKER]
    assert (shaker.recent_accuracy, shaker.time_ratio, shaker.mastered, shaker.priority) == (
        1, 1.25, False, 1)
    never = table[Skill.MARKERS]
    assert (never.attempts, never.recent_accuracy, never.priority, never.last_practised) == (
        0, None, 1.5, None)
    assert next_drill_skill(store, bo, now=now) is Skill.CALLS
    assert [r.skill for r in weakest_skills(store, bo, 5)] == [Skill.CALLS, Skill.COLLECTING, Skill.PAYOUTS]
    assert [r.skill for r in weakest_skills(store, bo, 1)] == [Skill.CALLS]


def test_recent_misses_come_back_first(store):
    t = store.add_trainee("Cy")
    clock = iter(DAY1 + 60 * k for k in range(100))
    for skill, misses in (("calls", {5, 6, 7}), ("no-roll", {0, 1, 2})):  # same count, newer misses
        for k in reversed(range(8)):
            add(store, t, next(clock), [skill], [skill] if k in misses else [])
    table = {r.skill: r for r in skill_table(store, t)}
    assert table[Skill.CALLS].leech and table[Skill.NO_ROLL].leech
    assert table[Skill.NO_ROLL].priority == 3 + 1.75 > table[Skill.CALLS].priority
    assert next_drill_skill(store, t) is Skill.NO_ROLL
    for _ in range(3):  # three right in a row: only misses 3, 4 and 5 attempts ago are left
        add(store, t, next(clock), ["no-roll"])
    table = {r.skill: r for r in skill_table(store, t)}
    assert table[Skill.NO_ROLL].weighted_misses == 0.125 + 0.0625 + 0.03125


def test_progress_report_puts_it_together(store, ana):
    report = progress_report(store, ana, utc_offset=0, now=DAY1 + 2 * DAY)
    assert rows(report.by_skill) == rows(accuracy_by_skill(store, ana, utc_offset=0))
    assert [t.attempt_id for t in report.payout_times] == [2, 5]
    assert [d.attempts for d in report.per_day] == [2, 3]
    assert [r.skill for r in report.weakest] == [Skill.CALLS, Skill.PAYOUTS]  # 1/2, then 2/3
    assert report.next_skill is Skill.CALLS  # a miss in its last attempt: 2 + 1/2
    later = progress_report(store, ana, utc_offset=0, now=DAY1 + 100 * DAY)  # the charts: 90 days
    assert (later.by_skill, later.by_game, later.per_day) == ([], [], [])
    all_time = progress_report(store, ana, utc_offset=0, now=DAY1 + 100 * DAY, days=None)
    assert later.skills == all_time.skills and [d.attempts for d in all_time.per_day] == [2, 3]


def test_best_totals_and_filters(store, ana):
    assert store.best_totals(ana) == {"s1": 100}
    assert [a.id for a in store.attempts(ana, mode="payout-drill")] == [2, 4, 5]
    assert [a.id for a in store.attempts(ana, game="three-dice-football")] == [3]
    assert [a.id for a in store.attempts(ana, newest_first=True, limit=2)] == [5, 4]
    assert [a.id for a in store.attempts(ana, since=DAY1 + DAY, until=DAY1 + DAY + 11 * H)] == [3, 4]
    assert store.attempt(3).findings[0]["skill"] == "calls" and len(store.attempt(3).findings) == 2


def test_class_overview(store):
    ann, ben, cal = (store.add_trainee(n) for n in ("Ann", "Ben", "Cal"))
    boss = store.add_trainee("Boss", instructor=True, passphrase="pw")
    gone = store.add_trainee("Gone")
    now = DAY1 + 40 * DAY
    for k in range(3):  # long ago: in the skill table, not in the last 30 days
        add(store, ann, DAY1 + k * H, ["wagers"], ["wagers"], item="s3", passed=False)
    add(store, ann, now - 3 * DAY, ["payouts"], item="s1", at=(2, 5))
    add(store, ann, now - 2 * DAY, ["payouts", "calls"], ["payouts"], item="s1", passed=False, critical=True,
        at=(4, 10), by_trainer=(1,))
    add(store, ann, now - DAY, ["calls"], item="s2", at=(4,))
    add(store, ben, now - 2 * DAY, ["calls"], ["calls"], item="s1", passed=False, at=(1, 2))
    add(store, ben, now - DAY, ["payouts"], ["payouts"], item="s2", passed=False, critical=True)
    for t in (boss, gone):
        add(store, t, now - DAY, ["payouts"], ["payouts"], item="s2", passed=False)
    store.archive_trainee(gone)

    c = class_overview(store, now=now, min_attempts=2)
    assert [t.name for t in c.trainees] == ["Ann", "Ben", "Cal"]
    cell = lambda t, s: (c.cells[t, s].exercises, c.cells[t, s].right)  # noqa: E731
    assert [cell(ann, Skill.PAYOUTS), cell(ann, Skill.CALLS), cell(ann, Skill.WAGERS)] == [
        (2, 1), (2, 2), (3, 0)]
    assert [cell(ben, Skill.CALLS), cell(ben, Skill.PAYOUTS), cell(cal, Skill.CALLS)] == [
        (1, 0), (1, 0), (0, 0)]
    assert c.cells[cal, Skill.CALLS].accuracy is None
    assert [(h.trainee.name, h.recent_accuracy, h.attempts, h.critical, h.passed) for h in c.needs_help] == [
        ("Ben", 0.0, 2, 1, 0), ("Ann", 3 / 7, 3, 1, 2), ("Cal", None, 0, 0, 0)]
    # s1: Ann passed, Ann failed, Ben failed; s2: Ann passed, Ben failed (Boss and Gone not counted
    # in the class, but their attempts are the items' too: s2 also failed twice more)
    assert [(i.item_id, i.attempts, i.passed) for i in c.hardest] == [("s2", 4, 1), ("s1", 3, 1)]
    assert [i.item_id for i in class_overview(store, now=now, min_attempts=4).hardest] == ["s2"]
    # time to answer: Ann 2, 3 | 3 (after the trainer's action at 1 s), 6 | 4; Ben 1, 1
    assert c.answer_seconds == {ann: 3, ben: 1, cal: None}


# --- the charts' bins and smoothing ------------------------------------------------------------------


def test_a_sparse_history_is_charted_by_week_and_a_dense_one_by_day(store):
    from trainer.progress import chart_bin_days

    sparse = [DAY1 + d * DAY + 10 * H for d in (0, 9, 20, 33, 47)]  # 5 days in 8 weeks
    assert chart_bin_days(sparse, DAY1 + 50 * DAY, utc_offset=0) == 7
    dense = [DAY1 + d * DAY + 10 * H for d in range(0, 50, 2)]  # every other day: 3.5 a week
    assert chart_bin_days(dense, DAY1 + 50 * DAY, utc_offset=0) == 1
    assert chart_bin_days(sparse[:2], DAY1 + 13 * DAY, utc_offset=0) == 1  # two weeks: always by day
    t = store.add_trainee("Sol")
    for s in sparse:
        add(store, t, s, ["calls"])
    report = progress_report(store, t, utc_offset=0, now=DAY1 + 50 * DAY)
    assert report.bin_days == 7
    # weeks from Monday: 2023-11-14 was a Tuesday, so its week starts on Monday the 13th
    assert [b.start for b in report.bins] == ["2023-11-13", "2023-11-20", "2023-12-04", "2023-12-11",
                                             "2023-12-25"]
    assert report.bins[0].x == DAY1 - DAY + 3.5 * DAY  # the middle of the week
    assert report.x_range == (DAY1 - DAY, DAY1 - DAY + 8 * 7 * DAY)  # to the end of this week


def test_the_accuracy_line_pools_the_last_7_days_beside_each_days_own(store):
    t = store.add_trainee("Ida")
    add(store, t, DAY1 + 10 * H, ["calls"])  # day 0: 1 of 1
    add(store, t, DAY1 + DAY + 10 * H, ["calls"], ["calls"])  # day 1: 0 of 1
    add(store, t, DAY1 + DAY + 11 * H, ["calls"], ["calls"])  # day 1: 0 of 2
    add(store, t, DAY1 + 9 * DAY + 10 * H, ["calls"])  # day 9: 1 of 1; day 0 and 1 are out of its week
    report = progress_report(store, t, utc_offset=0, now=DAY1 + 10 * DAY)
    [calls] = report.skill_series
    assert calls.raw == [1.0, 0.0, 1.0]
    assert calls.smooth == [1.0, 1 / 3, 1.0]  # day 1: (1 + 0 + 0) / 3 exercises, not a mean of means
    assert calls.x == [DAY1 + 12 * H, DAY1 + DAY + 12 * H, DAY1 + 9 * DAY + 12 * H]
    assert report.x_range == (DAY1, DAY1 + 11 * DAY)  # the first day charted to today, no more


def test_one_day_of_practice_is_charted_in_the_middle_of_three_days(store):
    """Not two weeks of empty grid with the day at the right edge: the day before and the day
    after stand either side of it."""
    t = store.add_trainee("New")
    add(store, t, DAY1 + 10 * H, ["calls"])
    report = progress_report(store, t, utc_offset=0, now=DAY1 + 15 * H)
    assert report.x_range == (DAY1 - DAY, DAY1 + 2 * DAY)
    [calls] = report.skill_series
    lo, hi = report.x_range
    assert calls.x == [(lo + hi) / 2]


def test_the_payout_line_is_the_median_of_the_last_5():
    from trainer.progress import rolling_median

    assert rolling_median([5.0, 1.0, 3.0, 9.0, 2.0, 2.0, 8.0]) == [5.0, 3.0, 3.0, 4.0, 3.0, 2.0, 3.0]


# --- one trainee's attempts, and a round replayed --------------------------------------------------


def test_a_recorded_round_replays_exactly_with_its_findings_on_their_steps(store):
    from trainer.progress import replay, trainee_attempts

    t = store.add_trainee("Rae")
    r, states, attempt_id = played_round(store, t)
    [line] = trainee_attempts(store, t)
    assert (line.title, line.mode, line.game) == ("First shake: the Field and a hardway", "Scenario",
                                                 "Props & Hops")
    rp = replay(store, attempt_id)
    assert rp.exact and rp.notes == [] and rp.dealt is not None
    from trainer.procedure.model import describe

    assert [(s.number, s.text, s.by_trainer, s.at) for s in rp.steps] == [
        (n, describe(p.do, p.seat, p.bet, p.amount, p.value), p.by_trainer, p.at)
        for n, p in enumerate(r.log, start=1)]  # the recorded log, the trainer's steps included
    trainee_steps = [s for s in rp.steps if not s.by_trainer]
    assert [s.table for s in trainee_steps] == states  # the table after each of the trainee's steps
    [short] = [s for s in rp.steps if s.findings]
    assert short.text.startswith("Pay seat") and short.findings[0]["cite"].startswith("58 Pa. Code § ")
    assert short.findings[0]["kind"] == "wrong amount" and rp.missing == []
    assert rp.expected and all(cite.startswith("58 Pa. Code § ") for _, _, cite in rp.expected)


def test_a_round_this_machine_cannot_deal_again_is_replayed_without_its_table(store):
    from trainer.progress import replay

    t = store.add_trainee("Uma")
    attempt_id = add(store, t, DAY1, ["payouts"], ["payouts"], item="a-scenario-since-removed",
                     at=(1.0, 2.0), passed=False)
    rp = replay(store, attempt_id)
    assert rp.dealt is None and not rp.exact and rp.expected == []
    assert "cannot deal the scenario “a-scenario-since-removed” again" in rp.notes[0]
    assert [(s.number, s.at, s.table) for s in rp.steps] == [(1, 1.0, None), (2, 2.0, None)]
    assert rp.missing and rp.missing[0]["cite"] == "§ 668a.3"  # a finding on no step is kept
    with pytest.raises(KeyError):
        replay(store, 9999)
