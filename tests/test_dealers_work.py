"""The table changes when the dealer does the work, not when the dice land:
High Roll's wagers show HELD once the throw is called, and stay held through the extra roll; the
shooter's badge moves when the shaker is passed, not when the 7 shows."""

from __future__ import annotations

from tests.support.library import bundled
from trainer import Automation, Do, Mark, PracticeRound

LIBRARY = bundled()


def steps(scenario_id: str):
    """(the next step, the table before it) for every step of a round worked right."""
    r = PracticeRound(LIBRARY.by_id(scenario_id), Automation.WHOLE_ROUND)
    while not r.finished:
        e = r.next_expected()
        yield e, r.table_state()
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)


def held(state) -> set:
    return {k for k, m in state.marks.items() if m is Mark.HELD}


def test_high_roll_holds_wagers_for_the_extra_roll_only_once_the_throw_is_called():
    seen = [(e, held(s)) for e, s in steps("hrd-extra-roll-partial")]
    first_call = next(i for i, (e, _) in enumerate(seen) if e.do is Do.ANNOUNCE)
    assert all(not h for _, h in seen[:first_call + 1]), "nothing is held before the call"
    after = seen[first_call + 1][1]
    assert after == {(2, "like-kind-5"), (2, "like-kind-6"), (5, "like-kind-7")}
    second_call = next(i for i, (e, _) in enumerate(seen) if e.do is Do.ANNOUNCE and i > first_call)
    assert all(h == after for _, h in seen[first_call + 1:second_call + 1]), \
        "the held wagers stay held until the extra roll is called"


def test_the_shooter_badge_moves_when_the_shaker_is_passed():
    seen = list(steps("ph-seven-out-six-eight"))
    passing = next(i for i, (e, _) in enumerate(seen) if e.do is Do.PASS_SHAKER)
    seven = max(i for i, (e, _) in enumerate(seen[:passing]) if e.do is Do.ANNOUNCE)
    before = seen[seven][1].shooter
    assert before is not None
    assert all(s.shooter == before for _, s in seen[seven:passing + 1]), \
        "the 7 is on the table, but the shaker has not been passed yet"
    r = PracticeRound(LIBRARY.by_id("ph-seven-out-six-eight"), Automation.WHOLE_ROUND)
    while not r.finished:
        e = r.next_expected()
        r.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
    assert r.table_state().shooter != before, "passed: the next shooter has the shaker"


def test_the_lammers_show_once_placed_and_stand_until_one_is_moved():
    """On the first throw of a cycle the lammers the dealer placed are on the
    layout when the trainee is asked to move one."""
    seen = list(steps("ph-seven-out-six-eight"))
    placed = next(i for i, (e, _) in enumerate(seen) if e.do is Do.PLACE_LAMMERS)
    assert not seen[placed][1].state.get("lammers_left"), "none before they are placed"
    move = next(i for i, (e, _) in enumerate(seen) if e.do is Do.MOVE_LAMMER)
    assert all(len(s.state["lammers_left"]) == 6 for _, s in seen[placed + 1:move + 1])


def test_the_markers_show_once_set():
    seen = list(steps("tdf-opening-drive"))
    setting = next(i for i, (e, _) in enumerate(seen) if e.do is Do.SET_MARKERS)
    assert "yard_line" not in seen[setting][1].state, "nothing on the field before the markers"
    assert seen[setting + 1][1].state["yard_line"] == 20  # reading "tdf-yard-marker"
