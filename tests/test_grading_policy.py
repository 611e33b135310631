"""The grading policy against the regulation's own words (../shared/spec/grading-policy.md).

Each order below is worked from the text quoted in the test, on the bundled corner scenarios
(checked by hand against the chapters: those numbered 13 and up in each folder of scenarios/),
not from the key under test: a log is the perfect one with its last settlement put in the order
the test names.
"""

from __future__ import annotations

import pytest

from tests.support.paths import ROOT
from trainer import policy
from trainer.exams.scoring import Ending, exam_score, verdict
from trainer.grading import Kind, Severity, correct_log
from trainer.procedure import Automation, Do, Performed, build
from trainer.regrade import regrade
from trainer.scenario import load

WHOLE = Automation.WHOLE_ROUND
TDF_STAND = "three-dice-football/17-five-play-stand"  # no touchdown: § 577.6(f)(2)
TDF_SCORE = "three-dice-football/16-third-and-goal-score"  # a touchdown on play 6: § 577.6(f)(1)
PGD_FIVE = "pai-gow-dice/14-sum-b-beat-it-c-five-seats"
HRD_HELD = "high-roll-dice/13-six-fives-held-like-kinds"
PH_WIN = "props-and-hops/14-six-eight-shake-on-four-four"


def bundled(name: str):
    return load(ROOT / "scenarios" / f"{name}.toml")


def graded(s, log):
    return regrade(s, log, WHOLE, elapsed=1.0)


def settling(p: Performed) -> bool:
    return p.do in (Do.COLLECT, Do.PAY) and p.bet != "extra-roll"


def with_round(log: list[Performed], r: int, order) -> list[Performed]:
    """The log with throw r's collections and payments put in the order `order` gives them (a
    function of the list), every other action kept where it is."""
    at = [i for i, p in enumerate(log) if p.throw == r and settling(p)]
    placed = order([log[i] for i in at])
    assert sorted(map(id, placed)) == sorted(id(log[i]) for i in at)
    out = list(log)
    for i, p in zip(at, placed, strict=True):
        out[i] = p
    return out


def last_round(log):
    return max(p.throw for p in log if settling(p))


def perfect(result) -> bool:
    return result.findings == [] and result.score.passed


# --- § 577.6(f)(2): no touchdown --------------------------------------------------------------


def test_f2_defense_paid_first_then_every_other_wager_in_any_order_is_right():
    """"the dealer shall first collect all Touchdown and Extra Point Wagers and pay out winning
    Defense Wagers. The dealer shall then settle all single play wagers ... and the remaining full
    game wagers": Defense paid before Touchdown is collected, then single play and full game
    wagers interleaved, payments before collections."""
    s = bundled(TDF_STAND)
    log = correct_log(build(s), WHOLE)
    r = last_round(log)

    def order(ps):
        first = [p for p in ps if p.bet in ("touchdown", "extra-point", "defense")]
        rest = [p for p in ps if p not in first]
        first.sort(key=lambda p: p.bet != "defense")  # Defense paid before anything is collected
        rest.sort(key=lambda p: (p.do is Do.COLLECT, -(p.seat or 0)))  # pays first, by seat
        return first + rest

    reordered = with_round(log, r, order)
    assert reordered != log
    assert perfect(graded(s, reordered)), graded(s, reordered).findings


def test_f2_defense_paid_after_a_single_play_collection_is_out_of_order_under_f2():
    """"Every collection, then every payment" is a house convention: under (f)(2) it pays Defense
    after the single play collections, which the text puts after Defense."""
    s = bundled(TDF_STAND)
    log = correct_log(build(s), WHOLE)
    r = last_round(log)
    collect_first = with_round(log, r, lambda ps: sorted(ps, key=lambda p: p.do is Do.PAY))
    result = graded(s, collect_first)
    assert not result.score.passed
    assert result.findings and all(f.kind is Kind.OUT_OF_ORDER and f.severity is Severity.MAJOR
                                   for f in result.findings)
    assert all(f.cite == "58 Pa. Code § 577.6(f)(2)" for f in result.findings)
    assert any("Defense" in f.message and "must come first" in f.message for f in result.findings)


# --- § 577.6(f)(1): a touchdown ---------------------------------------------------------------


def test_f1_single_play_and_full_game_wagers_in_any_order_after_defense():
    """"first collect all Defense Wagers then settle all single play wagers ... and all full game
    wagers ... with the exception of the Touchdown and Extra Point Wagers"."""
    s = bundled(TDF_SCORE)
    log = correct_log(build(s), WHOLE)
    touchdown = next(p.throw for p in log if p.do is Do.EXTRA_POINT_ROLL)

    def order(ps):
        defense = [p for p in ps if p.bet == "defense"]
        rest = sorted((p for p in ps if p.bet != "defense"), key=lambda p: (p.do is Do.COLLECT, p.seat))
        return defense + rest

    reordered = with_round(log, touchdown, order)
    assert reordered != log
    assert perfect(graded(s, reordered)), graded(s, reordered).findings


def test_f1_defense_collected_after_another_settlement_is_out_of_order_under_f1():
    s = bundled(TDF_SCORE)
    log = correct_log(build(s), WHOLE)
    touchdown = next(p.throw for p in log if p.do is Do.EXTRA_POINT_ROLL)
    late = with_round(log, touchdown, lambda ps: sorted(ps, key=lambda p: p.bet == "defense"))
    result = graded(s, late)
    assert not result.score.passed
    assert {f.cite for f in result.findings} == {"58 Pa. Code § 577.6(f)(1)"}
    assert all(f.kind is Kind.OUT_OF_ORDER for f in result.findings)


def test_f1_a_touchdown_paid_before_the_extra_point_roll_is_an_order_error_not_an_unearned_pay():
    """"If any player at the table has placed an Extra Point Wager, the Quarterback shall then
    throw an extra point roll. The dealer shall then pay out winning Touchdown Wagers": the
    Touchdown had won; paying it early breaks (f)(1)'s order."""
    s = bundled(TDF_SCORE)
    log = correct_log(build(s), WHOLE)
    roll = next(i for i, p in enumerate(log) if p.do is Do.EXTRA_POINT_ROLL)
    pay = next(i for i, p in enumerate(log) if p.do is Do.PAY and p.bet == "touchdown")
    early = Performed(Do.PAY, log[roll].throw, log[pay].seat, "touchdown", log[pay].amount)
    moved = [*log[:roll], early, *log[roll:pay], *log[pay + 1:]]
    result = graded(s, moved)
    [finding] = result.findings
    assert finding.kind is Kind.OUT_OF_ORDER and finding.severity is Severity.MAJOR
    assert finding.cite == "58 Pa. Code § 577.6(f)(1)"
    assert "Extra point roll" in finding.message and "has not won" not in finding.message
    assert not result.score.passed
    # paid early and short: the money is wrong as well
    short = [*log[:roll], Performed(Do.PAY, early.throw, early.seat, "touchdown", early.amount - 100),
             *log[roll:pay], *log[pay + 1:]]
    kinds = {f.kind for f in graded(s, short).findings}
    assert kinds == {Kind.OUT_OF_ORDER, Kind.WRONG_AMOUNT}


# --- Pai Gow: § 645c.2(g) sets no order ------------------------------------------------------------


def test_pai_gow_settled_player_by_player_paying_first_is_right():
    """"settle the player's Sum wager, Match wager and Beat It wager by collecting losing wagers
    and paying out winning wagers"."""
    s = bundled(PGD_FIVE)
    log = correct_log(build(s), WHOLE)
    r = last_round(log)
    by_player = with_round(log, r, lambda ps: sorted(ps, key=lambda p: (-(p.seat or 0), p.do is Do.COLLECT)))
    assert [p.do for p in by_player if settling(p)] != [p.do for p in log if settling(p)]
    assert perfect(graded(s, by_player)), graded(s, by_player).findings


# --- High Roll Dice: (f)(1), (2), (3) in order; "collect ... and pay out" within each -------------


def test_high_roll_pip_street_paid_before_its_loser_is_collected_is_right():
    """§ 675a.4(f)(1): "collect the player's losing Pip Street Wagers and pay out all winning Pip
    Street Wagers"."""
    s = bundled(HRD_HELD)
    log = correct_log(build(s), WHOLE)
    first = min(p.throw for p in log if settling(p))

    def order(ps):  # each player's Pip Street payment before the same player's Pip collection
        groups = {"pip": 0, "lik": 1, "mil": 2}
        return sorted(ps, key=lambda p: (p.seat, groups[p.bet[:3]], p.do is Do.COLLECT))

    paid_first = with_round(log, first, order)
    assert paid_first != log
    assert perfect(graded(s, paid_first)), graded(s, paid_first).findings


def test_high_roll_like_kind_before_pip_street_is_out_of_order():
    s = bundled(HRD_HELD)
    log = correct_log(build(s), WHOLE)
    first = min(p.throw for p in log if settling(p))
    like_kind_first = lambda p: (p.seat, not p.bet.startswith("like"))  # noqa: E731
    backwards = with_round(log, first, lambda ps: sorted(ps, key=like_kind_first))
    result = graded(s, backwards)
    assert not result.score.passed
    assert any(f.kind is Kind.OUT_OF_ORDER and "675a.4(f)" in f.cite for f in result.findings)


def test_high_roll_collecting_a_held_like_kind_before_the_extra_roll_is_critical():
    """§ 675a.4(f)(2)(ii): "leave the player's wager ... on the table layout until it is resolved"."""
    s = bundled(HRD_HELD)
    proc = build(s)
    log = correct_log(proc, WHOLE)
    view = next(v for v in proc.throws if v.valid)
    seat, bet = sorted(view.state["held"])[0]
    roll = next(i for i, p in enumerate(log) if p.do is Do.EXTRA_ROLL)
    grab = Performed(Do.COLLECT, log[roll].throw, seat, bet)
    result = graded(s, [*log[:roll], grab, *log[roll:]])
    assert any(f.severity is Severity.CRITICAL and f.actual == grab and "still working" in f.message
               for f in result.findings)
    assert not result.score.passed


# --- Props & Hops: § 668a.3(i) imposes collect, then pay -------------------------------------------


def test_props_and_hops_a_winner_paid_before_a_loser_is_collected_is_out_of_order():
    """"the dealer shall then collect all losing wagers before paying out winning wagers"."""
    s = bundled(PH_WIN)
    log = correct_log(build(s), WHOLE)
    r = last_round(log)
    paid_first = with_round(log, r, lambda ps: sorted(ps, key=lambda p: p.do is Do.COLLECT))
    result = graded(s, paid_first)
    assert not result.score.passed
    assert result.findings and all(f.kind is Kind.OUT_OF_ORDER and f.cite.endswith("668a.3(i)")
                                   for f in result.findings)


def test_props_and_hops_six_eight_shake_unpaid_is_critical_whatever_the_score():
    s = bundled(PH_WIN)
    log = correct_log(build(s), WHOLE)
    unpaid = [p for p in log if not (p.do is Do.PAY and p.bet == "six-eight-shake")]
    result = graded(s, unpaid)
    assert result.score.total >= policy.PASS_MARK  # the score alone would pass
    assert not result.score.passed
    assert [f.severity for f in result.findings] == [Severity.CRITICAL] * 2
    assert all("won and was not paid" in f.message for f in result.findings)


# --- severities ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, bet", [(HRD_HELD, "like-kind-6"), (TDF_SCORE, "extra-point"),
                                       (PGD_FIVE, "beat-it"), (PH_WIN, "hop-center")])
def test_a_winner_collected_is_critical_in_every_game(name, bet):
    s = bundled(name)
    log = correct_log(build(s), WHOLE)
    i = next(i for i, p in enumerate(log) if p.do is Do.PAY and p.bet == bet)
    taken = Performed(Do.COLLECT, log[i].throw, log[i].seat, bet)
    result = graded(s, [*log[:i], taken, *log[i + 1:]])
    assert not result.score.passed
    assert any(f.severity is Severity.CRITICAL and f.actual == taken for f in result.findings)


@pytest.mark.parametrize("do", [Do.MOVE_LAMMER, Do.PLACE_LAMMERS, Do.MOVE_MARKERS, Do.SET_MARKERS,
                                Do.MOVE_DICE, Do.PLACE_POINTER, Do.ANNOUNCE_DOWN])
def test_the_records_of_the_game_are_major(do):
    name = {Do.MOVE_LAMMER: PH_WIN, Do.PLACE_LAMMERS: PH_WIN, Do.PLACE_POINTER: PH_WIN,
            Do.MOVE_DICE: HRD_HELD}.get(do, TDF_STAND)
    s = bundled(name)
    log = correct_log(build(s), WHOLE)
    i = next(i for i, p in enumerate(log) if p.do is do)
    result = graded(s, log[:i] + log[i + 1:])
    assert [f.severity for f in result.findings] == [Severity.MAJOR]
    assert not result.score.passed and result.score.total >= policy.PASS_MARK


def test_a_down_puck_on_the_wrong_down_is_major_and_fails():
    s = bundled(TDF_STAND)
    log = correct_log(build(s), WHOLE)
    i = next(i for i, p in enumerate(log) if p.do is Do.MOVE_MARKERS and "2nd Down" in p.value)
    wrong = Performed(Do.MOVE_MARKERS, log[i].throw, value=log[i].value.replace("2nd Down", "3rd Down"))
    result = graded(s, [*log[:i], wrong, *log[i + 1:]])
    [finding] = result.findings
    assert finding.severity is Severity.MAJOR and "577.6" in finding.cite
    assert not result.score.passed


# --- the exam's pass rule --------------------------------------------------------------------------


def answer(total: int, passed: bool, critical: bool = False) -> dict:
    return {"procedure": total, "payouts": total, "speed": total, "total": total,
            "passed": passed, "critical": critical}


def test_an_exam_with_one_item_that_did_not_pass_does_not_pass():
    """An item with a missed call (92, not passed) beside four perfect ones: a total of 98."""
    answers = [answer(100, True)] * 4 + [answer(92, False)]
    score = exam_score(answers, 5, 80)
    assert score.total == 98 and not score.passed
    assert verdict(Ending.FINISHED, score) == (verdict(Ending.FINISHED, score)[0], False)
    assert exam_score([answer(100, True)] * 5, 5, 80).passed


def test_an_exam_with_an_item_not_answered_does_not_pass():
    score = exam_score([answer(100, True)] * 9, 10, 80)
    assert score.total == 90 and not score.passed


def test_the_rule_is_one_place_and_the_round_follows_it():
    assert policy.passes([Severity.MINOR, Severity.MINOR], 80)
    assert not policy.passes([Severity.MAJOR], 100)
    assert not policy.passes([Severity.CRITICAL], 100)
    assert not policy.passes([], 79)
    assert policy.rule(None).number == 1 and policy.rule(policy.RULE).number == policy.RULE


@pytest.mark.parametrize("number", [3, 0, -1, "2", [2], True, 2.5])
def test_a_rule_this_version_does_not_know_is_named_so_not_taken_for_another(number):
    """A certificate or result file names its rule; an unknown or damaged one reads as unknown."""
    named = policy.rule(number)
    assert named.number == 0 and "does not know" in named.title
    assert policy.rule(None).number == 1


# --- settlements left until the dice were thrown again ----------------------------------------------


def moved_after(log, i, j):
    """The log with action i moved to just after action j (j > i), as the dealer did it then:
    logged in action j's throw."""
    p = log[i]
    late = Performed(p.do, log[j].throw, p.seat, p.bet, p.amount, p.value)
    return [*log[:i], *log[i + 1:j + 1], late, *log[j + 1:]], late


def test_a_first_roll_wager_settled_after_the_extra_roll_breaks_675a_4_g_once():
    """§ 675a.4(f) settles each player's first roll wagers; (g) "If any player purchased an Extra
    Roll, the dealer shall then collect all dice ..." The extra roll decides only the held Like
    Kind wagers: a non-buyer's loser collected after it waited past its turn (major), one finding
    that says so, not "lost and was not collected"."""
    s = bundled(HRD_HELD)
    log = correct_log(build(s), WHOLE)
    roll = next(i for i, p in enumerate(log) if p.do is Do.EXTRA_ROLL)
    i = next(i for i, p in enumerate(log)
             if p.do is Do.COLLECT and p.seat == 4 and p.throw == log[roll].throw)
    after, late = moved_after(log, i, roll + 1)
    result = graded(s, after)
    [finding] = result.findings
    assert finding.kind is Kind.OUT_OF_ORDER and finding.severity is Severity.MAJOR
    assert finding.cite == "58 Pa. Code § 675a.4(g)" and finding.actual == late
    assert "Extra roll" in finding.message and not result.score.passed


def test_a_full_game_wager_paid_after_the_extra_point_roll_breaks_577_6_f_1_once():
    s = bundled(TDF_SCORE)
    log = correct_log(build(s), WHOLE)
    roll = next(i for i, p in enumerate(log) if p.do is Do.EXTRA_POINT_ROLL)
    i = next(i for i, p in enumerate(log) if p.do is Do.PAY and p.bet == "game-length-6")
    after, late = moved_after(log, i, roll + 1)
    [finding] = graded(s, after).findings
    assert finding.kind is Kind.OUT_OF_ORDER and finding.severity is Severity.MAJOR
    assert finding.cite == "58 Pa. Code § 577.6(f)(1)" and "Extra point roll" in finding.message
    assert finding.actual == late


def test_a_one_roll_loser_collected_after_the_next_throw_stood_in_action_critical():
    """Props & Hops: a wager left on the layout is in action on the next throw (§ 668a.3(i)
    collects losers after each valid roll): collected only after it, critical, one finding."""
    s = bundled(PH_WIN)
    log = correct_log(build(s), WHOLE)
    i = next(i for i, p in enumerate(log) if p.do is Do.COLLECT and p.throw == 1)
    j = next(j for j, p in enumerate(log) if p.throw == 2)
    after, late = moved_after(log, i, j)
    result = graded(s, after)
    [finding] = result.findings
    assert finding.kind is Kind.LATE and finding.severity is Severity.CRITICAL and finding.actual == late
    assert "only after the dice were thrown again" in finding.message and "throw 1" in finding.message
    assert finding.cite.endswith("668a.3(i)") and not result.score.passed


def test_the_extra_point_roll_thrown_early_cites_577_6_f_1():
    """The extra point roll before Quick Strike is settled: the order of (f)(1), cited as such."""
    s = bundled(TDF_SCORE)
    log = correct_log(build(s), WHOLE)
    roll = next(i for i, p in enumerate(log) if p.do is Do.EXTRA_POINT_ROLL)
    first = next(i for i, p in enumerate(log) if p.throw == log[roll].throw and settling(p)
                 and p.bet != "defense")
    early = [*log[:first], log[roll], *log[first:roll], *log[roll + 1:]]
    result = graded(s, early)
    assert result.findings and all(f.kind is Kind.OUT_OF_ORDER for f in result.findings)
    assert {f.cite for f in result.findings} == {"58 Pa. Code § 577.6(f)(1)"}


def test_refusals_cite_the_sentence_that_refuses():
    from trainer.settle import settle

    hrd = settle({"game": "high-roll-dice", "wagers": [
        {"seat": 1, "bet": "pip-6", "amount": "5"}, {"seat": 1, "bet": "like-kind-3", "amount": "10"}],
        "throws": [{"dice": [6, 6, 6, 2, 3, 4, 5, 1, 2, 3]}]})
    [unequal] = hrd["refused"]
    assert "§ 675a.2(e)(2)" in unequal["cite"]  # "a Like Kind ... Wager equal to the ... Pip Street"
    tdf = settle({"game": "three-dice-football", "wagers": [
        {"seat": 1, "bet": "extra-point", "amount": "5"}],
        "throws": [{"green": [6, 6], "red": 1}, {"green": [6, 6], "red": 1},
                   {"green": [1, 2], "red": 3, "wagers": [{"seat": 2, "bet": "touchdown", "amount": "5"}]}]})
    [late] = tdf["refused"]
    assert "§ 577.3(c)" in late["cite"]  # full game wagers "prior to the start of each new game"


def test_an_extra_point_roll_thrown_with_no_extra_point_wager_is_major_citing_577_6_f_1():
    """§ 577.6(f)(1): "If any player at the table has placed an Extra Point Wager, the Quarterback
    shall then throw an extra point roll": one thrown with none up is a record of the game wrong."""
    s = bundled(TDF_STAND)
    log = correct_log(build(s), WHOLE)
    last = max(p.throw for p in log)
    result = graded(s, [*log, Performed(Do.EXTRA_POINT_ROLL, last)])
    [finding] = result.findings
    assert finding.severity is Severity.MAJOR and finding.cite == "58 Pa. Code § 577.6(f)(1)"
    assert not result.score.passed
