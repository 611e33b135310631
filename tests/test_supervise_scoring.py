"""Scoring a supervisor's flags by signal detection (trainer.supervise.scoring), on rounds worked
by hand: the faults, their times and the dealer's actions are set here, and every expected number
is worked from the definitions (hits, misses, false alarms; the log-linear correction of Hautus
1995; z from a table of the standard normal distribution; the weights critical 4, major 2, a
misnamed catch half, a false alarm -1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from trainer.procedure.model import Do, Performed
from trainer.supervise.catalogue import CATALOGUE
from trainer.supervise.rounds import Fault, SupervisedRound
from trainer.supervise.scoring import Flag, score

SHORT = CATALOGUE["ph-short-pay"]  # critical
CALL = CATALOGUE["ph-wrong-call"]  # major
WAGER = "seat 2 double-3-3"


def a_round(actions: int, *faults: Fault) -> SupervisedRound:
    """A round of `actions` dealer actions, each fault one of them."""
    log = [Performed(Do.COVER_AND_SHAKE, 1, at=float(n)) for n in range(actions)]
    return SupervisedRound("hand", None, None, [], log, list(faults), 1.0)  # type: ignore[arg-type]


def fault(kind, target: str, at: float, cents: int = 0) -> Fault:
    done = (Performed(Do.PAY, 1, 2, "double-3-3", 12000, at=at),)
    return Fault(kind, "step", target, 1, None, done, at, int(at), cents)


def test_one_hit_one_miss_one_false_alarm():
    rnd = a_round(51, fault(SHORT, WAGER, 10.0, 3000), fault(CALL, "call", 20.0))
    s = score(rnd, [Flag(13.0, WAGER, "ph-short-pay"), Flag(40.0, "pointer", "ph-pointer-wrong")])
    assert (s.hits, len(s.missed), len(s.false_alarms), s.noise) == (1, 1, 1, 49)
    assert s.hit_rate == Fraction(1, 2) and s.false_alarm_rate == Fraction(1, 49)
    # H = 1.5 / 3 = 0.5, F = 1.5 / 50 = 0.03: z(0.5) = 0, z(0.03) = -1.8808
    assert s.corrected == (Fraction(1, 2), Fraction(3, 100))
    assert s.d_prime == pytest.approx(1.8808, abs=1e-4)
    # earned: 4 for the short pay, -1 for the false alarm, of 4 + 2
    assert s.earned == 3 and s.possible == 6 and s.score == Fraction(1, 2)
    assert s.mean_seconds == 3.0
    assert s.missed_cents == 0  # a call moves no money


def test_every_fault_caught_one_misnamed():
    rnd = a_round(52, fault(SHORT, WAGER, 10.0), fault(CALL, "call", 20.0))
    s = score(rnd, [Flag(11.0, WAGER, "ph-overpay"), Flag(25.0, "call", "ph-wrong-call")])
    assert (s.hits, len(s.missed), len(s.false_alarms)) == (2, 0, 0)
    assert sum(c.named for c in s.caught) == 1
    # earned: 4 * 1/2 (caught, named wrong) + 2, of 6
    assert s.score == Fraction(2, 3)
    # H = 2.5 / 3 = 0.8333, F = 0.5 / 51 = 0.0098: z = 0.9674 and -2.3335
    assert s.d_prime == pytest.approx(0.9674 + 2.3335, abs=1e-3)
    assert s.mean_seconds == 3.0  # (1 + 5) / 2


def test_a_missed_short_pay_weighs_more_than_a_missed_call_and_its_money_is_counted():
    rnd = a_round(20, fault(SHORT, WAGER, 10.0, 40000), fault(CALL, "call", 20.0))
    only_pay = score(rnd, [Flag(10.0, WAGER, "ph-short-pay")])
    only_call = score(rnd, [Flag(20.0, "call", "ph-wrong-call")])
    assert only_pay.score == Fraction(4, 6) and only_call.score == Fraction(2, 6)
    assert only_call.missed_cents == 40000 and only_pay.missed_cents == 0


def test_a_flag_counts_from_the_fault_to_the_end_of_the_window():
    rnd = a_round(30, fault(CALL, "call", 10.0))
    assert score(rnd, [Flag(25.0, "call", "ph-wrong-call")]).hits == 1  # 15 s after: in time
    late = score(rnd, [Flag(25.5, "call", "ph-wrong-call")])
    assert (late.hits, len(late.missed), len(late.false_alarms)) == (0, 1, 1)
    early = score(rnd, [Flag(9.5, "call", "ph-wrong-call")])  # before the dealer did it
    assert (early.hits, len(early.false_alarms)) == (0, 1)
    elsewhere = score(rnd, [Flag(11.0, "pointer", "ph-wrong-call")])
    assert (elsewhere.hits, len(elsewhere.false_alarms)) == (0, 1)


def test_one_flag_catches_one_fault_and_prefers_the_one_it_names():
    first, second = fault(CALL, "call", 10.0), fault(CATALOGUE["ph-no-roll-reason"], "call", 12.0)
    rnd = a_round(30, first, second)
    s = score(rnd, [Flag(13.0, "call", "ph-no-roll-reason")])
    assert [c.fault for c in s.caught] == [second] and list(s.missed) == [first]
    twice = score(rnd, [Flag(13.0, "call", "ph-wrong-call"), Flag(14.0, "call", "ph-wrong-call")])
    assert twice.hits == 2 and not twice.false_alarms


def test_a_round_with_no_fault():
    rnd = a_round(40)
    quiet = score(rnd, [])
    assert quiet.score == 1 and quiet.signals == 0
    # H = 0.5 / 1 = 0.5, F = 0.5 / 41: z(0.0122) = -2.2513
    assert quiet.d_prime == pytest.approx(2.2513, abs=1e-3)
    jumpy = score(rnd, [Flag(3.0, "call", "ph-wrong-call")])
    assert jumpy.score == 0 and len(jumpy.false_alarms) == 1


def test_false_alarms_never_take_the_score_below_zero():
    rnd = a_round(30, fault(CALL, "call", 10.0))
    s = score(rnd, [Flag(float(t), "pointer", "ph-pointer-wrong") for t in range(5)])
    assert s.earned == -5 and s.score == 0


def test_a_dealt_round_flagged_at_every_fault_scores_whole_and_unflagged_loses_its_money():
    from trainer.supervise.rounds import dealt

    rnd = dealt("three-dice-football", 4, "score", 4)
    assert len(rnd.faults) == 4
    every = score(rnd, [Flag(f.at + 1.0, f.target, f.type.id) for f in rnd.faults])
    assert every.hits == 4 and every.score == 1 and not every.false_alarms
    assert every.mean_seconds == 1.0 and every.missed_cents == 0
    silent = score(rnd, [])
    assert silent.score == 0 and len(silent.missed) == 4
    assert silent.missed_cents == sum(f.cents for f in rnd.faults)
    assert silent.noise == len(rnd.log) - sum(len(f.done) for f in rnd.faults)


def test_more_false_alarms_than_other_actions_count_every_one_flagged_and_score_nothing():
    """The sixth cold review's #120: 25 presses of Flag on a round of 11 actions (one a fault)
    made F = 25.5 / 11 > 1 and d′ raise, so a failed exam item could not be certified. Each
    other action is flagged at most once: F = (10 + 0.5) / (10 + 1), d′ finite; every false alarm
    still costs its point."""
    rnd = a_round(11, fault(CALL, "call", 5.0))
    flood = [Flag(float(t) / 2, "pointer", "ph-pointer-wrong") for t in range(25)]
    s = score(rnd, flood)
    assert (s.hits, len(s.false_alarms), s.noise) == (0, 25, 10)
    assert s.false_alarm_rate == 1
    # H = 0.5 / 2 = 0.25, F = 10.5 / 11 = 0.954545: z(0.25) = -0.6745, z(0.954545) = 1.6906
    assert s.corrected == (Fraction(1, 4), Fraction(21, 22))
    assert s.d_prime == pytest.approx(-0.6745 - 1.6906, abs=1e-3)
    assert s.earned == -25 and s.score == 0
    assert s.to_json()["false_alarms"] == 25  # what was done is kept whole
