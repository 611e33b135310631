"""Grading: typical dealer mistakes get the right findings, with the section behind each."""

from __future__ import annotations

import pytest

from tests.support.scenario_text import no_roll, players, scenario, throw, wager
from trainer.grading import Kind, Severity, correct_log, grade
from trainer.procedure import Automation, Do, Performed, build


def run(s, log, automation=Automation.WHOLE_ROUND, elapsed=None):
    return grade(build(s), log, automation=automation, game=s.game,
                 target_seconds=s.target_seconds, elapsed=elapsed)


FIELD_AND_HARDWAY = scenario("props-and-hops", players(1, 2) + wager(1, "field", 10)
                             + wager(2, "double-3-3", 5) + throw(dice=[3, 3]))


def test_a_correct_round_scores_full_marks_at_every_automation():
    proc = build(FIELD_AND_HARDWAY)
    for automation in Automation:
        result = run(FIELD_AND_HARDWAY, correct_log(proc, automation), automation, elapsed=10)
        assert result.findings == []
        assert (result.score.procedure, result.score.payouts, result.score.speed) == (100, 100, 100)
        assert result.score.passed


def test_paying_before_collecting_is_out_of_order_under_668a_3_i():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.SETTLEMENT)
    collect, pay = log
    assert (collect.do, pay.do) == (Do.COLLECT, Do.PAY)
    result = run(FIELD_AND_HARDWAY, [pay, collect], Automation.SETTLEMENT)
    [finding] = result.findings
    assert finding.kind is Kind.OUT_OF_ORDER and finding.severity is Severity.MAJOR
    assert finding.cite == "58 Pa. Code § 668a.3(i)"
    assert "Collect seat 1 Field" in finding.message  # the bet's name, never its id
    assert result.score.payouts < 100 and not result.score.passed  # the payment came too early


def test_a_wrong_payout_is_critical_and_names_the_odds():
    [pay] = correct_log(build(FIELD_AND_HARDWAY), Automation.PAYOUTS)
    assert pay.amount == 15000  # $5 at 30 to 1, § 668a.4
    wrong = Performed(Do.PAY, pay.throw, pay.seat, pay.bet, 14500)
    result = run(FIELD_AND_HARDWAY, [wrong], Automation.PAYOUTS)
    [finding] = result.findings
    assert finding.kind is Kind.WRONG_AMOUNT and finding.critical
    # the paytable sets the payout; the wager's own section says when it wins
    assert finding.cite == "58 Pa. Code § 668a.4; 58 Pa. Code § 668a.2(d)(3)"
    assert "30 to 1" in finding.message and "$150.00" in finding.message
    assert result.score.payouts == 0 and not result.score.passed


def test_paying_a_losing_wager_is_critical():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.SETTLEMENT)
    bad = Performed(Do.PAY, 1, 1, "field", 1000)
    result = run(FIELD_AND_HARDWAY, [*log, bad], Automation.SETTLEMENT)
    [finding] = result.findings
    assert finding.critical and "losing wager" in finding.message
    assert finding.cite == "58 Pa. Code § 668a.2(f)(1)"


def test_paying_a_six_eight_shake_early_is_critical():
    s = scenario("props-and-hops", players(2, 4) + wager(2, "six-eight-shake", 5)
                 + wager(4, "field", 5) + throw(dice=[1, 5]) + throw(dice=[2, 4]))
    log = correct_log(build(s), Automation.SETTLEMENT)
    early = Performed(Do.PAY, 1, 2, "six-eight-shake", 75000)
    result = run(s, [*log[:2], early, *log[2:]], Automation.SETTLEMENT)
    [finding] = result.findings
    assert finding.kind is Kind.EXTRA and finding.critical
    assert "still working" in finding.message  # one lammer of six has moved: it has not won yet
    assert finding.cite == "58 Pa. Code § 668a.2(f)(8)"


def test_settling_after_a_no_roll_is_critical_and_cites_the_no_roll():
    s = scenario("props-and-hops", players(1) + wager(1, "field", 5) + no_roll("die-fell-out")
                 + throw(dice=[6, 6]))
    log = correct_log(build(s), Automation.SETTLEMENT)
    assert all(p.throw == 2 for p in log)  # the no roll (round 1) settles nothing
    wrong = Performed(Do.PAY, 1, 1, "field", 1000)
    result = run(s, [wrong, *log], Automation.SETTLEMENT)
    [finding] = result.findings
    assert finding.critical and "no roll" in finding.message
    assert finding.cite == "58 Pa. Code § 668a.3(g)"


def test_a_value_called_on_a_no_roll_is_a_major_wrong_call():
    """grading-policy.md: "a no roll and its reason" is a call; settling on it is what is
    critical (test_settling_after_a_no_roll_is_critical_and_cites_the_no_roll)."""
    s = scenario("props-and-hops", players(1) + wager(1, "field", 5) + no_roll("die-on-die")
                 + throw(dice=[6, 6]))
    log = correct_log(build(s), Automation.CALLS)
    no_roll_call = next(p for p in log if p.do is Do.NO_ROLL)
    announced = Performed(Do.ANNOUNCE, no_roll_call.throw, value="Seven, three-four")
    result = run(s, [announced if p is no_roll_call else p for p in log], Automation.CALLS)
    [finding] = result.findings
    assert finding.kind is Kind.WRONG_CALL and finding.severity is Severity.MAJOR
    assert finding.cite == "58 Pa. Code § 668a.3(h)"
    assert not result.score.passed


def test_paying_a_like_kind_twice_after_an_extra_roll_is_critical():
    s = scenario("high-roll-dice", players(1)
                 + wager(1, "pip-6", 5) + wager(1, "like-kind-3", 5) + wager(1, "like-kind-5", 5)
                 + wager(1, "extra-roll", 5)
                 + throw(dice=[6, 4, 6, 2, 1, 4, 6, 2, 4, 1])
                 + '[[events]]\ntype = "extra-roll"\ndice = [3, 3, 5, 5, 1, 2, 2]\n')
    log = correct_log(build(s), Automation.SETTLEMENT)
    first = next(p for p in log if p.do is Do.PAY and p.bet == "like-kind-3")
    assert first.amount == 300  # 3 to 5 on $5, § 675a.5(b)
    again = Performed(Do.PAY, 2, 1, "like-kind-3", 3000)
    result = run(s, [*log, again], Automation.SETTLEMENT)
    [finding] = result.findings
    assert finding.critical and "second time" in finding.message
    assert finding.cite == "58 Pa. Code § 675a.4(h)"


def test_accepting_a_late_full_game_wager_is_critical():
    s = scenario("three-dice-football", players(1, 2) + wager(1, "touchdown", 10)
                 + throw(green=[6, 5], red=2) + wager(2, "quick-strike", 5, table="events")
                 + throw(green=[1, 2], red=6))
    log = correct_log(build(s), Automation.WHOLE_ROUND)
    refuse = next(p for p in log if p.do is Do.REFUSE)
    accepted = Performed(Do.ACCEPT, refuse.throw, refuse.seat, refuse.bet, refuse.amount)
    result = run(s, [accepted if p is refuse else p for p in log])
    [finding] = result.findings
    assert finding.kind is Kind.ACCEPTED_IMPROPER and finding.critical
    assert finding.cite == "58 Pa. Code § 577.3(c)"
    assert not result.score.passed


@pytest.mark.parametrize(("flag", "section"), [("cash = true", "668a.2(b)"),
                                               ("seated = false", "668a.2(c)")])
def test_an_improper_wager_not_refused_is_critical(flag, section):
    key, value = flag.split(" = ")
    s = scenario("props-and-hops", players(1, 2) + wager(1, "field", 5)
                 + wager(2, "field", 5, **{key: value})
                 + throw(dice=[1, 1]))
    log = [p for p in correct_log(build(s), Automation.WHOLE_ROUND) if p.do is not Do.REFUSE]
    result = run(s, log)
    [finding] = result.findings
    assert finding.kind is Kind.SHOULD_HAVE_REFUSED and finding.critical
    assert finding.cite == f"58 Pa. Code § {section}"


def test_refusing_a_proper_wager_is_a_wrong_call():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.WHOLE_ROUND)
    accept = next(p for p in log if p.do is Do.ACCEPT)
    refused = Performed(Do.REFUSE, accept.throw, accept.seat, accept.bet, accept.amount)
    [finding] = run(FIELD_AND_HARDWAY, [refused if p is accept else p for p in log]).findings
    assert finding.kind is Kind.WRONG_CALL and finding.severity is Severity.MAJOR


def test_missing_steps_are_reported_at_the_end_only_when_final():
    proc = build(FIELD_AND_HARDWAY)
    partial = correct_log(proc, Automation.SETTLEMENT)[:1]
    live = grade(proc, partial, automation=Automation.SETTLEMENT, game="props-and-hops",
                 target_seconds=60, final=False)
    assert live.findings == [] and live.next_expected.do is Do.PAY
    done = grade(proc, partial, automation=Automation.SETTLEMENT, game="props-and-hops",
                 target_seconds=60)
    [finding] = done.findings
    assert finding.kind is Kind.MISSING and finding.expected.do is Do.PAY


def test_speed_is_scored_against_the_target_time():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.PAYOUTS)
    assert run(FIELD_AND_HARDWAY, log, Automation.PAYOUTS, elapsed=60).score.speed == 100
    slow = run(FIELD_AND_HARDWAY, log, Automation.PAYOUTS, elapsed=120).score
    assert slow.speed == 50 and slow.total == round(0.5 * 100 + 0.35 * 100 + 0.15 * 50)


def test_grading_is_deterministic():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.SETTLEMENT)[::-1]
    a, b = run(FIELD_AND_HARDWAY, log), run(FIELD_AND_HARDWAY, log)
    assert [f.to_json() for f in a.findings] == [f.to_json() for f in b.findings]
    assert a.score == b.score


def test_an_announcement_nobody_asked_for_is_a_minor_extra():
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.WHOLE_ROUND)
    again = next(p for p in log if p.do is Do.ANNOUNCE)
    result = run(FIELD_AND_HARDWAY, [*log, again])
    [finding] = result.findings
    assert finding.kind is Kind.EXTRA and finding.severity is Severity.MINOR
    assert finding.cite.startswith("58 Pa. Code § 668a.3")
    assert result.score.passed  # it changes nothing


def test_a_shaker_passed_where_none_was_called_for_is_major():
    """grading-policy.md: "the shaker passed to the wrong one" is major."""
    log = correct_log(build(FIELD_AND_HARDWAY), Automation.WHOLE_ROUND)
    extra = Performed(Do.PASS_SHAKER, 1, value="2")  # only on a 7, § 668a.3(k)
    result = run(FIELD_AND_HARDWAY, [*log, extra])
    [finding] = result.findings
    assert finding.kind is Kind.EXTRA and finding.severity is Severity.MAJOR
    assert not result.score.passed
