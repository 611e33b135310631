"""Grading a dealer can be certified on: every order the regulation allows scores 100, a missed
call fails, the key has every step the regulation requires, and each citation says what it is
cited for. Expected orders and sections come from the regulation texts (../shared/regulations),
not from the key under test."""

from __future__ import annotations

import pytest

from tests.support.paths import ROOT
from tests.support.scenario_text import no_roll, players, scenario, throw, wager
from trainer.cite import reading
from trainer.grading import Kind, Severity, correct_log
from trainer.procedure import Automation, Do, Performed, build
from trainer.regrade import regrade
from trainer.scenario import ScenarioError, load

WHOLE = Automation.WHOLE_ROUND


def bundled(name: str):
    return load(ROOT / "scenarios" / f"{name}.toml")


def regraded(s, log):
    return regrade(s, log, WHOLE, elapsed=1.0)


def perfect(result) -> bool:
    return result.findings == [] and result.score.total == 100 and result.score.passed


def settling(p: Performed) -> bool:
    """A collection or payment after the throw (an Extra Roll purchase is collected before)."""
    return p.do in (Do.COLLECT, Do.PAY) and p.bet != "extra-roll"


def reorder(log: list[Performed], key) -> list[Performed]:
    """The log with each throw's collections and payments sorted by `key` (stable), every
    other action kept where it is."""
    out = list(log)
    for r in {p.throw for p in log}:
        at = [i for i, p in enumerate(log) if p.throw == r and settling(p)]
        for i, p in zip(at, sorted((log[i] for i in at), key=key), strict=True):
            out[i] = p
    return out


# --- orders the regulation allows -----------------------------------------------------------------


def test_high_roll_dice_players_may_be_settled_in_any_order():
    """§ 675a.4(f) orders the wagers within one player, never between players."""
    s = bundled("high-roll-dice/08-full-table")
    log = correct_log(build(s), WHOLE)
    backwards = reorder(log, key=lambda p: -(p.seat or 0))
    assert [p.seat for p in backwards if p.do is Do.PAY] != [p.seat for p in log if p.do is Do.PAY]
    assert perfect(regraded(s, backwards))


def test_within_one_player_the_order_still_counts():
    s = bundled("high-roll-dice/08-full-table")
    log = correct_log(build(s), WHOLE)
    # a player's Like Kind before the same player's Pip Street breaks § 675a.4(f)(1)-(2)
    seat = next(p.seat for p in log if p.bet and p.bet.startswith("like-kind-") and p.do is Do.PAY)
    bad = reorder(log, key=lambda p: (p.seat != seat, not (p.bet or "").startswith("like-kind-")))
    result = regraded(s, bad)
    assert any(f.kind is Kind.OUT_OF_ORDER and f.severity is Severity.MAJOR for f in result.findings)


def test_an_extra_roll_buyer_may_be_paid_before_the_hopeless_wagers_are_collected():
    """§ 675a.4(f)(2)(ii): "pay out any winning Like Kind ... and collect ... that have no
    possibility of winning"; its own example pays first."""
    s = bundled("high-roll-dice/03-extra-roll-partial-settlement")
    log = correct_log(build(s), WHOLE)
    first_roll = [p for p in log if p.throw == 1]
    paid_first = reorder(first_roll, key=lambda p: (p.seat, not (p.bet or "").startswith("pip-"),
                                                    p.do is Do.COLLECT))
    paid_first += [p for p in log if p.throw != 1]
    buyer = [p for p in paid_first if p.seat == 2 and p.throw == 1 and settling(p)
             and p.bet.startswith("like-")]
    assert buyer[0].do is Do.PAY and buyer[-1].do is Do.COLLECT
    assert perfect(regraded(s, paid_first))


def test_three_dice_football_defense_is_still_collected_first_after_a_touchdown():
    s = bundled("three-dice-football/02-trips-td-first-play")
    log = correct_log(build(s), WHOLE)
    late_defense = reorder(log, key=lambda p: (p.do is Do.PAY, p.bet == "defense"))
    result = regraded(s, late_defense)
    assert any(f.kind is Kind.OUT_OF_ORDER for f in result.findings)


def test_the_lammer_may_move_before_the_collections_and_after_the_payments():
    """§ 668a.3(i): collect, then pay, "provided that" the lammer moves: no order of its own. The
    Six Eight Shake is paid once the sixth lammer is in the circles."""
    s = bundled("props-and-hops/11-busy-six-seats")
    log = correct_log(build(s), WHOLE)
    early = list(log)
    for r in {p.throw for p in log}:
        lammer = [i for i, p in enumerate(early) if p.throw == r and p.do is Do.MOVE_LAMMER]
        collects = [i for i, p in enumerate(early) if p.throw == r and p.do is Do.COLLECT]
        if lammer and collects and collects[0] < lammer[0]:
            early.insert(collects[0], early.pop(lammer[0]))
    assert early != log
    assert perfect(regraded(s, early))
    # after the payments too, where the Six Eight Shake is not among them
    late = list(log)
    i = max(i for i, p in enumerate(late) if p.do is Do.MOVE_LAMMER)
    moved = late.pop(i)
    last_pay = max(j for j, p in enumerate(late) if p.do is Do.PAY and p.throw == moved.throw)
    late.insert(last_pay + 1, moved)
    assert not any(p.bet == "six-eight-shake" and p.throw == moved.throw for p in log if p.do is Do.PAY)
    assert perfect(regraded(s, late))


def test_the_six_eight_shake_is_paid_only_after_the_sixth_lammer_moves():
    s = bundled("props-and-hops/14-six-eight-shake-on-four-four")
    log = correct_log(build(s), WHOLE)
    sixth = max(i for i, p in enumerate(log) if p.do is Do.MOVE_LAMMER)
    pays = [i for i, p in enumerate(log) if p.do is Do.PAY and p.bet == "six-eight-shake"]
    assert pays and all(i > sixth for i in pays)
    moved = log[sixth]
    after = [p for p in log if p is not moved]
    after.insert(max(pays), moved)  # after both Six Eight Shake payments (the list is one shorter)
    result = regraded(s, after)
    assert [f.kind for f in result.findings] == [Kind.OUT_OF_ORDER] * len(pays)
    assert all(f.actual.bet == "six-eight-shake" and f.cite.endswith("668a.3(i)")
               for f in result.findings)
    assert not result.score.passed


def test_a_turnover_ends_the_game_without_a_marker_move():
    """§ 577.6(c)(4): "the dealer shall announce the turnover and end the game"."""
    s = bundled("three-dice-football/03-turnover-on-third-down")
    proc = build(s)
    last = proc.throws[-1]
    assert last.result["kind"] == "turnover"
    assert not any(a.do is Do.MOVE_MARKERS for _, a in proc.actions() if a.throw == last.throw)
    assert any(a.do is Do.ANNOUNCE and "turnover" in a.value for _, a in proc.actions()
               if a.throw == last.throw)


# --- calls ------------------------------------------------------------------------------------------


ONE_THROW = scenario("props-and-hops", players(1, 2) + wager(1, "field", 10)
                     + wager(2, "double-3-3", 5) + throw(dice=[3, 3]))


@pytest.mark.parametrize("call", [Do.ANNOUNCE, Do.PLACE_POINTER, Do.NO_MORE_BETS])
def test_a_missed_call_is_major_and_the_round_does_not_pass(call):
    log = [p for p in correct_log(build(ONE_THROW), WHOLE) if p.do is not call]
    result = regrade(ONE_THROW, log, WHOLE, elapsed=1.0)
    [finding] = result.findings
    assert finding.kind is Kind.MISSING and finding.severity is Severity.MAJOR
    assert result.score.total >= 80  # the score alone would pass
    assert not result.score.passed


def test_a_wrong_call_fails_the_round():
    log = correct_log(build(ONE_THROW), WHOLE)
    wrong = [Performed(p.do, p.throw, value="Six, one-five") if p.do is Do.ANNOUNCE else p
             for p in log]
    result = regrade(ONE_THROW, wrong, WHOLE, elapsed=1.0)
    assert [f.kind for f in result.findings] == [Kind.WRONG_CALL]
    assert not result.score.passed


# --- steps the regulation requires ------------------------------------------------------------


def actions(s):
    return [a for _, a in build(s).actions()]


def test_props_and_hops_shakes_before_play_and_re_covers_after_a_no_roll():
    s = scenario("props-and-hops", players(1) + wager(1, "field", 5) + no_roll("die-fell-out")
                 + throw(dice=[2, 2]))
    acts = actions(s)
    assert acts[0].do is Do.COVER_AND_SHAKE and acts[0].cite.endswith("668a.3(d)")
    no_roll_round = [a.do for a in acts if a.throw == 1]
    assert no_roll_round[-2:] == [Do.NO_ROLL, Do.RECOVER_SHAKER]
    assert [a.do for a in acts if a.throw == 2].count(Do.OFFER_SHAKER) == 1


def test_pai_gow_uses_the_shaker_after_no_more_bets_and_again_after_a_no_roll():
    s = scenario("pai-gow-dice", players(1) + wager(1, "sum", 5) + no_roll("die-on-die")
                 + throw(red=4, blue=[6, 6]))
    acts = actions(s)
    first = [a.do for a in acts if a.throw == 1]
    assert first.index(Do.NO_MORE_BETS) < first.index(Do.USE_SHAKER) < first.index(Do.NO_ROLL)
    second = [a.do for a in acts if a.throw == 2]
    assert Do.NO_MORE_BETS not in second and second[0] is Do.USE_SHAKER


def test_a_take_down_after_the_last_throw_is_refused_with_a_message():
    text = (players(1) + wager(1, "six-eight-shake", 5) + throw(dice=[1, 5])
            + '[[events]]\ntype = "take-down"\nseat = 1\nbet = "six-eight-shake"\n')
    with pytest.raises(ScenarioError, match="take-down after the last throw"):
        build(scenario("props-and-hops", text))


# --- event order -----------------------------------------------------------------------------


def test_an_offer_before_a_take_down_is_judged_before_it():
    """A Six Eight Shake offered while a lammer has moved is refused even when the only other
    Six Eight Shake is taken down after it in the file (reading "event-order")."""
    body = (players(1, 2) + wager(1, "six-eight-shake", 5) + throw(dice=[1, 5])
            + wager(2, "six-eight-shake", 5, table="events")
            + '[[events]]\ntype = "take-down"\nseat = 1\nbet = "six-eight-shake"\n'
            + throw(dice=[2, 4]))
    acts = actions(scenario("props-and-hops", body))
    [refused] = [a for a in acts if a.do is Do.REFUSE]
    assert refused.seat == 2 and "lammer" in refused.note and "668a.3(e)" in refused.cite
    assert not any(a.do is Do.PLACE_LAMMERS for a in acts if a.throw == 2)


# --- citations -------------------------------------------------------------------------------


def test_citations_say_what_they_are_cited_for():
    by_note = {}
    tdf = scenario("three-dice-football", players(1, 2) + wager(1, "touchdown", 5)
                   + wager(3, "defense", 5, seated="false") + throw(green="[6, 6]", red=1)
                   + throw(green="[6, 6]", red=1))
    for a in actions(tdf):
        by_note[a.note] = a.cite
    # chapter 577 has no seating rule
    assert by_note["only seated players may wager"] == reading("improper-offers")
    pgd = scenario("pai-gow-dice", players(1) + wager(1, "sum", 5, cash="true")
                   + no_roll("die-on-die") + throw(red=1, blue=[2, 3]))
    pg = actions(pgd)
    assert next(a for a in pg if a.do is Do.NO_ROLL).cite == reading("pgd-no-roll")
    assert next(a for a in pg if a.do is Do.REFUSE).cite == reading("improper-offers")
    hrd = scenario("high-roll-dice", players(1) + wager(1, "pip-ace", 5)
                   + wager(1, "like-kind-3", 5) + no_roll("die-on-die")
                   + wager(1, "extra-roll", 5, table="events")
                   + throw(dice="[1, 1, 1, 2, 3, 4, 5, 6, 2, 3]"))
    [late] = [a for a in actions(hrd) if a.do is Do.REFUSE]
    assert late.cite.endswith("675a.2(a)") and "locked out" not in late.note


def test_the_extra_point_roll_is_called_under_577_5_e():
    s = bundled("three-dice-football/02-trips-td-first-play")
    announce = [a for _, a in build(s).actions() if a.do is Do.ANNOUNCE]
    assert all(a.cite.endswith("577.5(e)") for a in announce)


def test_a_die_off_the_table_cannot_happen_in_the_pai_gow_shaker():
    """The dice are read inside the shaker (§ 645c.2(e)): a scenario may not deal it, though
    settle still reads the reason the contract lists."""
    with pytest.raises(ScenarioError, match="closed shaker"):
        scenario("pai-gow-dice", players(1) + wager(1, "sum", 5) + no_roll("die-off-table")
                 + throw(red=1, blue=[2, 3]))


def test_collecting_on_a_no_roll_is_critical_and_cites_the_no_roll():
    s = bundled("props-and-hops/05-no-roll-calls")
    log = correct_log(build(s), WHOLE)
    first = next(p for p in log if p.do is Do.NO_ROLL)
    wager = build(s).throws[0].layout[0]
    bad = [*log[:log.index(first) + 1], Performed(Do.COLLECT, first.throw, wager.seat, wager.bet),
           *log[log.index(first) + 1:]]
    result = regraded(s, bad)
    [finding] = result.findings
    assert finding.critical and "no roll" in finding.message
    assert "668a.3" in finding.cite and "577" not in finding.cite


def test_the_matching_dice_are_part_of_the_call():
    """§ 675a.4(e): after announcing, move the matching dice to their box."""
    s = bundled("high-roll-dice/01-four-fives")
    log = [p for p in correct_log(build(s), WHOLE) if p.do is not Do.MOVE_DICE]
    result = regraded(s, log)
    assert [f.severity for f in result.findings] == [Severity.MAJOR]
    assert not result.score.passed


def test_a_late_full_game_wager_cites_577_3_c():
    s = scenario("three-dice-football", players(1, 2) + wager(1, "touchdown", 5)
                 + throw(green="[2, 3]", red=1) + wager(2, "touchdown", 5, table="events", late="true")
                 + wager(2, "big-play", 5, table="events", late="true")
                 + throw(green="[6, 6]", red=1) + throw(green="[6, 6]", red=1))
    refused = {a.bet: a for a in actions(s) if a.do is Do.REFUSE}
    assert refused["touchdown"].cite.endswith("577.3(c)")
    assert refused["big-play"].cite.endswith("577.3(e)")


# --- the Down Puck and the Game Length Puck, placed by hand -------------------------------------------


def test_each_play_moves_the_yard_marker_and_both_pucks_and_the_last_leaves_the_pucks():
    """§ 577.6(c)(1)-(3): the Yard Marker, then "the Down Puck on the next down and the Game
    Length Puck to the next play"; after 3rd Down with no 1st & Goal the game ends (§ 577.6(e)(1))
    and the pucks stay (reading "tdf-pucks"). Worked by hand: a 7 against 2 gains 5 (20 → 15),
    a 3 against 4 is a penalty of 1 yard (→ 16), a 4 against 4 gains nothing on 3rd Down."""
    s = scenario("three-dice-football", players(1) + wager(1, "defense", "5")
                 + throw(green="[3, 4]", red=2) + throw(green="[1, 2]", red=4)
                 + throw(green="[2, 2]", red=4))
    moves = [a.value for _, a in build(s).actions() if a.do is Do.MOVE_MARKERS]
    assert moves == ["15 · 2nd Down · play 2", "16 · 3rd Down · play 3", "16 · 3rd Down · play 3"]


def test_a_touchdown_moves_the_yard_marker_to_the_end_zone_and_leaves_the_pucks():
    s = scenario("three-dice-football", players(1) + wager(1, "touchdown", "5")
                 + throw(green="[6, 6]", red=1) + throw(green="[6, 6]", red=1))
    moves = [a.value for _, a in build(s).actions() if a.do is Do.MOVE_MARKERS]
    # 12 − 1 = 11 yards: 20 → 9, a 1st & Goal; then 11 more from the 9 is a touchdown on play 2
    assert moves == ["9 · 1st & Goal · play 2", "0 · 1st & Goal · play 2"]


def test_a_wrong_puck_is_a_finding_that_names_where_each_marker_goes():
    s = scenario("three-dice-football", players(1) + wager(1, "defense", "5")
                 + throw(green="[3, 4]", red=2) + throw(green="[1, 2]", red=4)
                 + throw(green="[2, 2]", red=4))
    log = correct_log(build(s), WHOLE)
    i = next(i for i, p in enumerate(log) if p.do is Do.MOVE_MARKERS)
    wrong = list(log)
    wrong[i] = Performed(Do.MOVE_MARKERS, log[i].throw, value="15 · 3rd Down · play 2", at=log[i].at)
    result = regraded(s, wrong)
    assert not perfect(result)
    [finding] = [f for f in result.findings if f.actual is not None and f.actual.do is Do.MOVE_MARKERS]
    assert "577.6" in finding.cite
    assert "Yard Marker to the 15, Down Puck on 2nd Down, Game Length Puck on play 2" in finding.message


def test_a_log_from_before_the_pucks_were_placed_apart_grades_as_it_did():
    """Results files and exam results recorded when moving the markers logged the yard line
    alone re-grade on the yard line, as they were graded then; a wrong yard line is still wrong."""
    s = bundled("three-dice-football/03-turnover-on-third-down")
    log = correct_log(build(s), WHOLE)
    old = [Performed(p.do, p.throw, p.seat, p.bet, p.amount, p.value.split(" · ")[0], p.at, p.by_trainer)
           if p.do is Do.MOVE_MARKERS else p for p in log]
    assert old != log and perfect(regraded(s, old))
    i = next(i for i, p in enumerate(old) if p.do is Do.MOVE_MARKERS)
    off = list(old)
    off[i] = Performed(Do.MOVE_MARKERS, old[i].throw, value=str(int(old[i].value) + 1), at=old[i].at)
    result = regraded(s, off)
    assert not perfect(result)
    # its findings read as they did then: the yard line expected, no puck the trainee was never asked for
    [wrong] = [f for f in result.findings if f.actual is not None and f.actual.do is Do.MOVE_MARKERS]
    assert f"Yard Marker to the {old[i].value}”" in wrong.message and "Puck" not in wrong.message
    last = max(k for k, p in enumerate(old) if p.do is Do.MOVE_MARKERS)
    missing = old[:last] + old[last + 1:]
    findings = regraded(s, missing).findings
    assert findings and all(" · " not in (f.expected.id if f.expected else "") for f in findings)
    [gone] = [f for f in findings if f.expected is not None and f.expected.do is Do.MOVE_MARKERS]
    assert gone.message.startswith("Move markers: Yard Marker to the ")
    assert "Down Puck on" not in gone.message, "the pucks' places were not asked for then"
