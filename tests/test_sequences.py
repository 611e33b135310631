"""Scripted multi-throw sequences, with expected values worked out from the regulations.

Sources: ../shared/regulations (ch. 668a, 577, 675a) and the binding readings in
../shared/spec/interpretations.md. Every expected number below was computed by hand (or by the small
oracle in this file) from those texts, never taken from the engine.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from trainer.errors import RequestError
from trainer.settle import settle

_MONEY = re.compile(r"^\d+\.\d\d$")

# --- helpers ---------------------------------------------------------------------------------------


def cents(text: object) -> int:
    assert isinstance(text, str) and _MONEY.match(text), f"not a dollar string: {text!r}"
    whole, frac = text.split(".")
    return int(whole) * 100 + int(frac)


def c(dollars: str) -> int:
    """Cents of a hand-written dollar figure: c("5.60") == 560."""
    return cents(dollars if "." in dollars else dollars + ".00")


def lines(throw: dict) -> dict:
    """{(seat, bet): ("collect", amount) | ("pay", amount, payout)} over the throw's steps."""
    out: dict = {}
    for step in throw.get("steps", []):
        action = step.get("action")
        if action not in ("collect", "pay"):
            continue
        for line in step.get("lines", []):
            key = (line["seat"], line["bet"])
            assert key not in out, f"{key} settled twice in one throw"
            assert line.get("cite"), f"{key}: line without a cite"
            if action == "collect":
                out[key] = ("collect", cents(line["amount"]))
            else:
                out[key] = ("pay", cents(line["amount"]), cents(line["payout"]))
    return out


def col(amount: str) -> tuple:
    return ("collect", c(amount))


def pay(amount: str, payout: str) -> tuple:
    return ("pay", c(amount), c(payout))


def step_of(throw: dict, seat: int, bet: str) -> int:
    """Index of the step that settles (seat, bet) in this throw."""
    for i, step in enumerate(throw.get("steps", [])):
        for line in step.get("lines", []) or []:
            if (line["seat"], line["bet"]) == (seat, bet):
                return i
    raise AssertionError(f"seat {seat} {bet} is not settled in this throw")


def actions(throw: dict) -> list[str]:
    return [s.get("action") for s in throw.get("steps", [])]


def keys(entries: list[dict]) -> set[tuple[int, str]]:
    return {(e["seat"], e["bet"]) for e in entries}


def W(seat: int, bet: str, amount: str) -> dict:
    return {"seat": seat, "bet": bet, "amount": amount}


# === Props & Hops: the Six Eight Shake cycle (§ 668a.2(f)(8), § 668a.3(e), (i)) ================

SIX_EIGHT = [[1, 5], [2, 4], [3, 3], [2, 6], [3, 5], [4, 4]]


def ph(wagers: list[dict], throws: list[dict]) -> dict:
    return settle({"game": "props-and-hops", "options": {}, "wagers": wagers, "throws": throws})


def test_six_eight_shake_wins_after_all_six_lammers():
    """§ 668a.2(f)(8): wins if each combination of 6 and of 8 is thrown before a 7; 150 to 1."""
    throws = [
        {"dice": [5, 1]},
        {"dice": [1, 1]},  # not a 6 or 8: nothing happens
        {"dice": [4, 2]},
        {"dice": [3, 3]},
        {"dice": [6, 6]},
        {"dice": [6, 2]},
        {"dice": [5, 3]},
        {"dice": [4, 4]},  # the sixth lammer
    ]
    r = ph([W(1, "six-eight-shake", "2"), W(4, "six-eight-shake", "3.35")], throws)
    for i, t in enumerate(r["throws"][:-1]):
        assert lines(t) == {}, f"throw {i} settled something"
    assert lines(r["throws"][-1]) == {
        (1, "six-eight-shake"): pay("2", "300"),
        (4, "six-eight-shake"): pay("3.35", "502.50"),
    }
    assert r["refused"] == [] and r["open"] == []


@pytest.mark.parametrize("seven", [[1, 6], [5, 2], [3, 4]])
def test_six_eight_shake_loses_on_a_seven(seven):
    """§ 668a.2(f)(8): a 7 before all six loses; collected before any winner is paid (668a.3(i))."""
    r = ph(
        [W(2, "six-eight-shake", "5")],
        [
            {"dice": [2, 4]},
            {"dice": [3, 5]},
            {"dice": seven, "wagers": [W(4, "any-" + "-".join(map(str, sorted(seven))), "1"),
                                       W(5, "field", "2")]},
        ],
    )
    assert lines(r["throws"][0]) == {} and lines(r["throws"][1]) == {}
    last = r["throws"][2]
    pair = "-".join(map(str, sorted(seven)))
    assert lines(last) == {
        (2, "six-eight-shake"): col("5"),
        (5, "field"): col("2"),
        (4, f"any-{pair}"): pay("1", "15"),
    }
    assert last["steps"][step_of(last, 2, "six-eight-shake")]["action"] == "collect"
    assert step_of(last, 2, "six-eight-shake") < step_of(last, 4, f"any-{pair}")
    assert r["open"] == []


def test_six_eight_shake_seven_before_any_lammer():
    r = ph([W(3, "six-eight-shake", "1")], [{"dice": [6, 1]}])
    assert lines(r["throws"][0]) == {(3, "six-eight-shake"): col("1")}


def test_six_eight_shake_new_wager_refused_after_a_lammer_moved():
    """§ 668a.3(e) / interpretations: a new wager only while no lammer has moved this cycle."""
    r = ph(
        [W(1, "six-eight-shake", "5")],
        [
            {"dice": [1, 1], "wagers": [W(2, "six-eight-shake", "5")]},  # no lammer yet: accepted
            {"dice": [3, 3]},  # a lammer moves
            {"dice": [2, 2], "wagers": [W(3, "six-eight-shake", "5"),
                                        W(1, "six-eight-shake", "5"),  # an addition, also refused
                                        W(3, "field", "5")]},
            {"dice": [4, 3]},
        ],
    )
    refused = {(e["seat"], e["bet"]): e for e in r["refused"]}
    assert set(refused) == {(3, "six-eight-shake"), (1, "six-eight-shake")}
    for e in refused.values():
        assert "668a.3(e)" in e["cite"]
    assert lines(r["throws"][2]) == {(3, "field"): pay("5", "5")}  # 4 is a field number
    # the 7: the two accepted wagers lose, each at its own amount (the addition was refused)
    assert lines(r["throws"][3]) == {
        (1, "six-eight-shake"): col("5"),
        (2, "six-eight-shake"): col("5"),
    }


def test_six_eight_shake_take_down():
    """§ 668a.2(f)(8): a player may remove the wager at any time prior to a 7."""
    r = ph(
        [W(1, "six-eight-shake", "5"), W(2, "six-eight-shake", "10")],
        [
            {"dice": [1, 5]},
            {"dice": [2, 2], "take_down": [{"seat": 2, "bet": "six-eight-shake"}]},
            {"dice": [5, 2]},
        ],
    )
    assert lines(r["throws"][1]) == {}
    assert lines(r["throws"][2]) == {(1, "six-eight-shake"): col("5")}
    assert r["open"] == []


def test_six_eight_shake_take_down_of_a_missing_wager_is_an_error():
    with pytest.raises(RequestError):
        ph([W(1, "six-eight-shake", "5")],
           [{"dice": [1, 1], "take_down": [{"seat": 2, "bet": "six-eight-shake"}]}])


def test_last_take_down_ends_the_cycle_and_a_new_one_starts_fresh():
    """Interpretations: when the last wager is taken down the cycle ends; a new one has 6 lammers."""
    r = ph(
        [W(1, "six-eight-shake", "5")],
        [
            {"dice": [1, 5]},  # 1-5 lammer moves in cycle 1
            {"dice": [1, 1], "take_down": [{"seat": 1, "bet": "six-eight-shake"}]},
            {"dice": [1, 2], "wagers": [W(2, "six-eight-shake", "1")]},  # new cycle: accepted
            {"dice": [2, 4]}, {"dice": [3, 3]}, {"dice": [2, 6]}, {"dice": [3, 5]},
            {"dice": [4, 4]},  # five of six: 1-5 has not been thrown in this cycle
            {"dice": [5, 1]},  # now it wins
        ],
    )
    assert r["refused"] == []
    for i in range(8):
        assert lines(r["throws"][i]) == {}, f"throw {i}"
    assert lines(r["throws"][8]) == {(2, "six-eight-shake"): pay("1", "150")}


def test_no_roll_settles_nothing_and_wagers_stand():
    """Interpretations: a no roll settles nothing; the same wagers stand for the next throw."""
    r = ph(
        [W(1, "six-eight-shake", "5"), W(2, "field", "5"), W(3, "double-2-2", "1")],
        [
            {"dice": [2, 4]},
            {"no_roll": "die-fell-out", "wagers": [W(4, "hop-top", "2")]},
            {"no_roll": "not-flat"},
            {"dice": [3, 3], "wagers": [W(2, "field", "5"), W(5, "field", "1")]},
        ],
    )
    # throw 0 settles the one-roll wagers placed before it
    assert lines(r["throws"][0]) == {(2, "field"): col("5"), (3, "double-2-2"): col("1")}
    for i in (1, 2):
        assert r["throws"][i]["valid"] is False
        assert lines(r["throws"][i]) == {}
    # the wagers carried by the throw after a no roll are late: the dice are shaken again while
    # "no more bets" stands (§ 668a.3(g)-(h); settle-contract.md)
    assert lines(r["throws"][3]) == {
        (4, "hop-top"): col("2"),  # 3-3 is not in the default layout's top row
    }
    assert {(x["seat"], x["bet"]) for x in r["refused"]} == {(2, "field"), (5, "field")}
    for x in r["refused"]:  # wagers before the shake (§ 668a.2(a)); shaken again (§ 668a.3(h))
        assert "§ 668a.2(a)" in x["cite"] and "§ 668a.3(h)" in x["cite"]
    assert keys(r["open"]) == {(1, "six-eight-shake")}


def test_no_roll_at_the_end_leaves_the_wagers_open():
    r = ph([W(1, "field", "5"), W(2, "six-eight-shake", "1")],
           [{"dice": [3, 3]}, {"no_roll": "die-on-die", "wagers": [W(1, "field", "2")]}])
    assert {(e["seat"], e["bet"], cents(e["amount"])) for e in r["open"]} == {
        (1, "field", 200), (2, "six-eight-shake", 100)}


def test_repeated_lammer_combination_does_nothing():
    r = ph(
        [W(1, "six-eight-shake", "1")],
        [{"dice": [2, 4]}, {"dice": [4, 2]}, {"dice": [1, 5]}, {"dice": [3, 3]},
         {"dice": [6, 2]}, {"dice": [3, 5]}, {"dice": [2, 4]}, {"dice": [4, 4]}],
    )
    assert "move-lammer" in actions(r["throws"][0])
    assert "move-lammer" not in actions(r["throws"][1])  # 2-4 again: its lammer already moved
    assert "move-lammer" not in actions(r["throws"][6])
    for i in range(7):
        assert lines(r["throws"][i]) == {}, f"throw {i}"
    assert lines(r["throws"][7]) == {(1, "six-eight-shake"): pay("1", "150")}


def test_order_collect_then_move_lammer_then_pay():
    """§ 668a.3(i), interpretations: collect losing wagers, move lammers, then pay winners."""
    r = ph(
        [W(1, "six-eight-shake", "1")],
        [*({"dice": d} for d in SIX_EIGHT[:5]),
         {"dice": [4, 4], "wagers": [W(2, "field", "5"), W(3, "double-4-4", "1"),
                                     W(4, "three-four-and-over", "2")]}],
    )
    last = r["throws"][-1]
    assert lines(last) == {
        (2, "field"): col("5"),
        (3, "double-4-4"): pay("1", "30"),
        (4, "three-four-and-over"): pay("2", "2"),
        (1, "six-eight-shake"): pay("1", "150"),
    }
    acts = actions(last)
    moves = [i for i, a in enumerate(acts) if a == "move-lammer"]
    assert moves, acts
    assert step_of(last, 2, "field") < min(moves) <= max(moves) < step_of(last, 1, "six-eight-shake")
    collect_steps = [i for i, a in enumerate(acts) if a == "collect" and last["steps"][i]["lines"]]
    pay_steps = [i for i, a in enumerate(acts) if a == "pay" and last["steps"][i]["lines"]]
    assert max(collect_steps) < min(pay_steps)


@pytest.mark.parametrize("ending", ["win", "seven"])
def test_new_cycle_after_one_ends_accepts_wagers(ending):
    first = [{"dice": d} for d in SIX_EIGHT] if ending == "win" else [{"dice": [2, 4]},
                                                                     {"dice": [4, 3]}]
    r = ph(
        [W(1, "six-eight-shake", "5")],
        [*first,
         {"dice": [2, 4], "wagers": [W(1, "six-eight-shake", "5"), W(2, "six-eight-shake", "1")]},
         {"dice": [1, 1], "wagers": [W(3, "six-eight-shake", "1")]}],  # 2-4 moved: refused
    )
    end = lines(r["throws"][len(first) - 1])
    assert end == ({(1, "six-eight-shake"): pay("5", "750")} if ending == "win"
                   else {(1, "six-eight-shake"): col("5")})
    assert keys(r["refused"]) == {(3, "six-eight-shake")}
    assert {(e["seat"], e["bet"], cents(e["amount"])) for e in r["open"]} == {
        (1, "six-eight-shake", 500), (2, "six-eight-shake", 100)}


def test_chips_added_to_a_one_roll_bet_are_one_wager():
    """Interpretations: several wagers by one seat on the same bet are one wager of their sum."""
    r = ph([W(1, "field", "2"), W(1, "field", "3")], [{"dice": [6, 6]}])
    assert lines(r["throws"][0]) == {(1, "field"): pay("5", "10")}


# === Three Dice Football (ch. 577) ================================================================

def tdf(wagers: list[dict], throws: list[dict]) -> dict:
    return settle({"game": "three-dice-football", "options": {}, "wagers": wagers,
                   "throws": throws})


def T(g1: int, g2: int, red: int, **extra) -> dict:
    return {"green": [g1, g2], "red": red, **extra}


SINGLE_PLAY = {"trips-td", "penalty", "turnover", "cover-three", "no-gain", "big-play",
               "over-four-yards", "under-four-yards"}


def field_of(r: dict) -> list[tuple]:
    """(yard_line, next_down) of each valid, non-extra-point throw."""
    return [(t["result"]["yard_line"], t["result"]["next_down"]) for t in r["throws"]
            if t["valid"] and not t["result"].get("extra_point")]


def test_game_over_after_third_down_without_goal():
    """§ 577.6(e)(1); end order § 577.6(f)(2); Defense 4 to 5 rounded down; Game Length 3 6 to 5."""
    r = tdf(
        [W(1, "touchdown", "10"), W(2, "defense", "7"), W(3, "defense", "3.33"),
         W(4, "game-length-3", "3.35"), W(5, "game-length-4", "5"), W(6, "extra-point", "5"),
         W(7, "quick-strike", "5"), W(8, "game-changer", "5")],
        [
            T(1, 2, 2),  # gain 1 -> 19
            T(2, 2, 4, wagers=[W(9, "over-four-yards", "5")]),  # no gain; over-four loses
            T(3, 3, 1, wagers=[W(9, "over-four-yards", "5"), W(10, "no-gain", "2")]),  # gain 5
        ],
    )
    assert field_of(r) == [(19, "2nd Down"), (19, "3rd Down"), (14, None)]
    assert [t["result"]["play"] for t in r["throws"]] == [1, 2, 3]
    assert [t["result"]["kind"] for t in r["throws"]] == ["gain", "no-gain", "gain"]
    assert lines(r["throws"][0]) == {}
    assert lines(r["throws"][1]) == {(9, "over-four-yards"): col("5")}
    last = r["throws"][2]
    assert lines(last) == {
        (1, "touchdown"): col("10"),
        (6, "extra-point"): col("5"),
        (2, "defense"): pay("7", "5.60"),
        (3, "defense"): pay("3.33", "2.66"),
        (9, "over-four-yards"): pay("5", "5"),
        (10, "no-gain"): col("2"),
        (4, "game-length-3"): pay("3.35", "4.02"),
        (5, "game-length-4"): col("5"),
        (7, "quick-strike"): col("5"),
        (8, "game-changer"): col("5"),
    }
    # § 577.6(f)(2): collect Touchdown and Extra Point; pay Defense; single play; the rest.
    s = lambda seat, bet: step_of(last, seat, bet)  # noqa: E731
    assert max(s(1, "touchdown"), s(6, "extra-point")) < min(s(2, "defense"), s(3, "defense"))
    assert max(s(2, "defense"), s(3, "defense")) < min(s(9, "over-four-yards"), s(10, "no-gain"))
    assert max(s(9, "over-four-yards"), s(10, "no-gain")) < min(
        s(4, "game-length-3"), s(5, "game-length-4"), s(7, "quick-strike"), s(8, "game-changer"))
    assert r["open"] == [] and r["refused"] == []
    with pytest.raises(RequestError):  # the game is over
        tdf([W(1, "touchdown", "10")], [T(1, 2, 2), T(2, 2, 4), T(3, 3, 1), T(4, 4, 1)])


def test_goal_downs_penalty_touchdown_on_play_five_and_extra_point():
    """Reaching the 10 gives 1st & Goal; a penalty then does not undo it; TD on play 5.

    Interpretations (Downs): "When a play ends on the 10 yard line or closer, the next play is
    1st & Goal ... A penalty during the goal downs does not undo them." (The literal § 577.6(e)
    could be read as goal downs only after three downs; interpretations.md decides otherwise.)
    """
    r = tdf(
        [W(1, "touchdown", "10"), W(2, "defense", "7"), W(3, "quick-strike", "5"),
         W(4, "game-length-5", "3.35"), W(5, "game-length-6", "5"), W(6, "extra-point", "5"),
         W(7, "game-changer", "5")],
        [
            T(2, 1, 2),  # gain 1 -> 19
            T(1, 1, 4),  # penalty -> 20
            T(6, 5, 1),  # gain 10 -> 10: 1st & Goal
            T(1, 2, 5),  # penalty -> 11, still goal downs
            T(6, 6, 1, wagers=[W(9, "big-play", "5"), W(10, "under-four-yards", "5")]),  # TD
            T(1, 1, 1),  # extra point roll: three 1s
        ],
    )
    assert field_of(r) == [(19, "2nd Down"), (20, "3rd Down"), (10, "1st & Goal"),
                           (11, "2nd & Goal"), (0, None)]
    assert [t["result"]["kind"] for t in r["throws"][:5]] == [
        "gain", "penalty", "gain", "penalty", "gain"]
    assert r["throws"][5]["result"].get("extra_point") is True
    assert not r["throws"][4]["result"].get("extra_point")
    for i in range(4):
        assert lines(r["throws"][i]) == {}, f"throw {i}"
    td = r["throws"][4]
    assert lines(td) == {
        (2, "defense"): col("7"),
        (9, "big-play"): pay("5", "20"),
        (10, "under-four-yards"): col("5"),
        (3, "quick-strike"): col("5"),  # TD on play 5: Quick Strike needs 4 downs or fewer
        (4, "game-length-5"): pay("3.35", "10.05"),
        (5, "game-length-6"): col("5"),
        (7, "game-changer"): col("5"),
    }
    # § 577.6(f)(1): first collect Defense, then single play, then the other full game wagers.
    s = lambda seat, bet: step_of(td, seat, bet)  # noqa: E731
    assert s(2, "defense") < min(s(9, "big-play"), s(10, "under-four-yards"))
    assert max(s(9, "big-play"), s(10, "under-four-yards")) < min(
        s(3, "quick-strike"), s(4, "game-length-5"), s(5, "game-length-6"), s(7, "game-changer"))
    # then the extra point roll, then Touchdown paid and Extra Point settled
    assert lines(r["throws"][5]) == {
        (1, "touchdown"): pay("10", "10"),
        (6, "extra-point"): pay("5", "250"),
    }
    assert r["open"] == [] and r["refused"] == []


def test_game_over_after_third_and_goal_and_at_most_six_plays():
    throws = [
        T(4, 4, 1),  # gain 7 -> 13
        T(2, 2, 3),  # gain 1 -> 12
        T(3, 1, 2),  # gain 2 -> 10: 1st & Goal
        T(1, 2, 4),  # penalty -> 11
        T(2, 2, 4),  # no gain
        T(3, 3, 4),  # gain 2 -> 9: 3rd & Goal failed; 6 plays
    ]
    wagers = [W(1, "defense", "3.33"), W(2, "touchdown", "5"), W(3, "game-length-6", "5"),
              W(4, "game-length-5", "5"), W(5, "quick-strike", "5")]
    r = tdf(wagers, throws)
    assert field_of(r) == [(13, "2nd Down"), (12, "3rd Down"), (10, "1st & Goal"),
                           (11, "2nd & Goal"), (11, "3rd & Goal"), (9, None)]
    assert lines(r["throws"][5]) == {
        (2, "touchdown"): col("5"),
        (1, "defense"): pay("3.33", "2.66"),
        (3, "game-length-6"): pay("5", "30"),
        (4, "game-length-5"): col("5"),
        (5, "quick-strike"): col("5"),
    }
    with pytest.raises(RequestError):
        tdf(wagers, [*throws, T(6, 6, 1)])


def test_goal_on_the_first_play_gives_only_three_more_downs():
    r = tdf(
        [W(1, "game-length-4", "5"), W(2, "defense", "5")],
        [T(6, 6, 1), T(1, 1, 3), T(2, 1, 3), T(1, 2, 2)],
    )
    assert field_of(r) == [(9, "1st & Goal"), (10, "2nd & Goal"), (10, "3rd & Goal"), (9, None)]
    assert lines(r["throws"][3]) == {(1, "game-length-4"): pay("5", "25"),
                                     (2, "defense"): pay("5", "4")}


QUICK_STRIKE_GAMES = {
    # play on which the TD comes: (throws, yard lines/next downs, Quick Strike odds, GL odds)
    1: ([T(3, 3, 3)], [(0, None)], (8, 1), (22, 1)),
    2: ([T(6, 6, 1), T(5, 5, 1)], [(9, "1st & Goal"), (0, None)], (5, 1), (22, 1)),
    3: ([T(6, 6, 1), T(1, 1, 3), T(6, 5, 1)],
        [(9, "1st & Goal"), (10, "2nd & Goal"), (0, None)], (3, 1), (6, 5)),
    4: ([T(1, 2, 1), T(1, 1, 3), T(6, 6, 1), T(5, 4, 1)],
        [(18, "2nd Down"), (19, "3rd Down"), (8, "1st & Goal"), (0, None)], (1, 1), (5, 1)),
}


@pytest.mark.parametrize("play", sorted(QUICK_STRIKE_GAMES))
def test_quick_strike_by_play(play):
    """§ 577.8(a): Quick Strike 8/5/3/1 to 1 on play 1-4; a gain reaching the 0 is a touchdown."""
    throws, field, qs, gl = QUICK_STRIKE_GAMES[play]
    r = tdf([W(1, "quick-strike", "3.35"), W(2, "touchdown", "7"),
             W(3, f"game-length-{play}", "3.35"), W(4, "game-changer", "5"),
             W(5, "defense", "5")], throws)
    assert field_of(r) == field
    trips = play == 1
    expected = {
        (5, "defense"): col("5"),
        (1, "quick-strike"): ("pay", 335, 335 * qs[0] // qs[1]),
        (3, f"game-length-{play}"): ("pay", 335, 335 * gl[0] // gl[1]),
        (4, "game-changer"): pay("5", "25") if trips else col("5"),
        (2, "touchdown"): pay("7", "7"),
    }
    last = r["throws"][-1]
    assert lines(last) == expected
    s = lambda seat, bet: step_of(last, seat, bet)  # noqa: E731
    # no Extra Point wager: no extra point roll; Touchdown is paid last (§ 577.6(f)(1))
    assert "extra-point-roll" not in actions(last)
    assert s(5, "defense") < min(s(1, "quick-strike"), s(3, f"game-length-{play}"))
    assert max(s(1, "quick-strike"), s(3, f"game-length-{play}"), s(4, "game-changer")) < s(
        2, "touchdown")
    with pytest.raises(RequestError):  # no Extra Point wager: the game is over
        tdf([W(2, "touchdown", "7")], [*throws, T(1, 1, 1)])


def test_turnover_ends_the_game_and_leaves_the_marker():
    r = tdf(
        [W(1, "defense", "10"), W(2, "game-changer", "5"), W(3, "game-length-2", "5"),
         W(4, "touchdown", "5"), W(5, "extra-point", "5")],
        [T(3, 3, 1), T(1, 1, 6, wagers=[W(6, "turnover", "2"), W(7, "penalty", "1")])],
    )
    assert field_of(r) == [(15, "2nd Down"), (15, None)]
    assert r["throws"][1]["result"]["kind"] == "turnover"
    assert lines(r["throws"][1]) == {
        (4, "touchdown"): col("5"), (5, "extra-point"): col("5"),
        (1, "defense"): pay("10", "8"),
        (6, "turnover"): pay("2", "120"), (7, "penalty"): pay("1", "9"),
        (2, "game-changer"): pay("5", "25"), (3, "game-length-2"): pay("5", "110"),
    }


EXTRA_POINT_ROLLS = [
    ([1, 1], 1, (50, 1)),  # three 1s
    ([4, 4], 4, (10, 1)),  # any other triple
    ([6, 6], 6, (10, 1)),
    ([1, 1], 5, (10, 1)),  # exactly two 1s
    ([3, 1], 1, (10, 1)),
    ([1, 5], 3, (1, 1)),  # exactly one 1
    ([5, 5], 1, (1, 1)),  # a pair of 5s and one 1: one 1
    ([2, 3], 4, None),
    ([6, 6], 5, None),  # a pair is not a triple
]


@pytest.mark.parametrize(("green", "red", "odds"), EXTRA_POINT_ROLLS,
                         ids=[f"{g[0]}{g[1]}-{r}" for g, r, _ in EXTRA_POINT_ROLLS])
def test_extra_point_roll(green, red, odds):
    """§ 577.3(b)(3), § 577.8(a) as read in interpretations.md (Extra point)."""
    r = tdf([W(1, "extra-point", "3.35"), W(2, "touchdown", "10")],
            [T(2, 2, 2), {"green": green, "red": red}])
    assert lines(r["throws"][0]) == {}
    ep = r["throws"][1]
    assert ep["result"].get("extra_point") is True
    want = ("collect", 335) if odds is None else ("pay", 335, 335 * odds[0] // odds[1])
    assert lines(ep) == {(1, "extra-point"): want, (2, "touchdown"): pay("10", "10")}
    assert r["open"] == []


def test_wagers_stand_until_the_extra_point_roll():
    r = tdf([W(1, "extra-point", "5"), W(2, "touchdown", "10"), W(3, "defense", "5")],
            [T(6, 6, 6)])
    assert lines(r["throws"][0]) == {(3, "defense"): col("5")}
    assert keys(r["open"]) == {(1, "extra-point"), (2, "touchdown")}


def test_wagers_on_the_extra_point_throw_are_refused():
    r = tdf(
        [W(1, "extra-point", "5"), W(2, "touchdown", "10")],
        [T(5, 5, 5), T(1, 2, 3, wagers=[W(1, "extra-point", "5"), W(3, "extra-point", "5"),
                                        W(4, "trips-td", "5")])],
    )
    assert keys(r["refused"]) == {(1, "extra-point"), (3, "extra-point"), (4, "trips-td")}
    assert lines(r["throws"][1]) == {(1, "extra-point"): pay("5", "5"),
                                     (2, "touchdown"): pay("10", "10")}


def test_late_full_game_wagers_are_refused_single_play_accepted():
    """§ 577.3(c): full game wagers before the first throw; not increased after it."""
    r = tdf(
        [W(1, "touchdown", "5"), W(2, "defense", "5")],
        [T(1, 2, 2),
         T(1, 1, 4, wagers=[W(3, "defense", "5"), W(4, "game-length-3", "5"),
                            W(1, "touchdown", "5"), W(5, "penalty", "5")]),
         T(2, 1, 4)],
    )
    refused = {(e["seat"], e["bet"]): e for e in r["refused"]}
    assert set(refused) == {(3, "defense"), (4, "game-length-3"), (1, "touchdown")}
    for e in refused.values():
        assert "577.3(c)" in e["cite"]
    assert lines(r["throws"][1]) == {(5, "penalty"): pay("5", "45")}
    assert field_of(r) == [(19, "2nd Down"), (20, "3rd Down"), (21, None)]
    assert lines(r["throws"][2]) == {(1, "touchdown"): col("5"), (2, "defense"): pay("5", "4")}


def test_a_no_roll_is_not_a_play_and_does_not_close_full_game_wagers():
    r = tdf(
        [W(1, "quick-strike", "5")],
        [{"no_roll": "missed-far-end",
          "wagers": [W(6, "penalty", "5")]},  # stands for the next valid throw
         T(2, 1, 5, wagers=[W(2, "defense", "7"), W(3, "touchdown", "5"),
                            W(4, "game-length-3", "5")]),  # still before the first valid throw
         {"no_roll": "die-off-table"},
         T(6, 6, 1),
         T(4, 4, 4)],
    )
    assert r["refused"] == []
    assert r["throws"][0]["valid"] is False and r["throws"][2]["valid"] is False
    assert lines(r["throws"][0]) == {} and lines(r["throws"][2]) == {}
    assert [t["result"]["play"] for t in r["throws"] if t["valid"]] == [1, 2, 3]
    assert lines(r["throws"][1]) == {(6, "penalty"): pay("5", "45")}  # 3 below 5: a penalty
    assert field_of(r) == [(21, "2nd Down"), (10, "1st & Goal"), (0, None)]
    assert lines(r["throws"][4]) == {
        (2, "defense"): col("7"),
        (1, "quick-strike"): pay("5", "15"),  # play 3: 3 to 1
        (4, "game-length-3"): pay("5", "6"),
        (3, "touchdown"): pay("5", "5"),
    }


# --- a random cross-check of whole games against a small oracle of the interpretations ----------

FULL_GAME_ODDS = {"quick-strike": {1: (8, 1), 2: (5, 1), 3: (3, 1), 4: (1, 1)},
                  "game-length": {1: (22, 1), 2: (22, 1), 3: (6, 5), 4: (5, 1), 5: (3, 1),
                                  6: (6, 1)}}


def oracle_game(throws: list[tuple[int, int, int]]):
    """Play a game (interpretations.md, Three Dice Football); returns per-play field and ending."""
    yard, down, goal, field = 20, 0, False, []
    touchdown = changer = False
    for plays, (g1, g2, red) in enumerate(throws, start=1):
        green = g1 + g2
        over = False
        if g1 == g2 == red:
            yard, over, touchdown, changer = 0, True, True, True
        elif red == 6 and green in (2, 3):
            over, changer = True, True
        elif green < red:
            yard += 1
        elif green > red:
            yard -= green - red
            if yard <= 0:
                yard, over, touchdown = 0, True, True
        if not over:
            if not goal and yard <= 10:
                goal, down = True, 0
            else:
                down += 1
                over = down == 3
        name = None if over else ("1st", "2nd", "3rd")[down] + (" & Goal" if goal else " Down")
        field.append((yard, name))
        if over:
            return field, plays, touchdown, changer
    raise AssertionError("game not over")


def random_game(rng: random.Random) -> list[tuple[int, int, int]]:
    throws = []
    while True:
        throws.append((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))
        try:
            oracle_game(throws)
            return throws
        except AssertionError:
            continue


def test_random_games_against_the_oracle():
    rng = random.Random(577)
    full = [W(1, "touchdown", "7"), W(2, "defense", "7"), W(3, "quick-strike", "3.35"),
            W(4, "game-changer", "3.35")] + [W(4 + n, f"game-length-{n}", "3.35")
                                             for n in range(1, 7)]
    problems = []
    for game in range(400):
        throws = random_game(rng)
        field, plays, td, changer = oracle_game(throws)
        req_throws = []
        for i, (g1, g2, red) in enumerate(throws):
            if rng.random() < 0.1:
                req_throws.append({"no_roll": "improper"})
            req_throws.append(T(g1, g2, red, wagers=[W(11 + i % 5, "under-four-yards", "5")]))
        r = tdf(full, req_throws)
        if field_of(r) != field:
            problems.append(f"game {game} {throws}: field {field_of(r)} expected {field}")
            continue
        want = {(1, "touchdown"): pay("7", "7") if td else col("7"),
                (2, "defense"): col("7") if td else pay("7", "5.60"),
                (4, "game-changer"): ("pay", 335, 1675) if changer else ("collect", 335)}
        qs = FULL_GAME_ODDS["quick-strike"].get(plays) if td else None
        want[(3, "quick-strike")] = ("pay", 335, 335 * qs[0] // qs[1]) if qs else ("collect", 335)
        for n in range(1, 7):
            gl = FULL_GAME_ODDS["game-length"][n]
            want[(4 + n, f"game-length-{n}")] = (("pay", 335, 335 * gl[0] // gl[1]) if n == plays
                                                else ("collect", 335))
        valid = [t for t in r["throws"] if t["valid"]]
        for i, ((g1, g2, red), t) in enumerate(zip(throws, valid, strict=True)):
            under = not (g1 == g2 == red) and g1 + g2 - red <= 3  # § 577.3(d)(8)
            seat = 11 + i % 5
            w = pay("5", "5") if under else col("5")
            if lines(t).get((seat, "under-four-yards")) != w:
                problems.append(f"game {game} play {i + 1} {throws[i]}: under-four-yards "
                                f"{lines(t).get((seat, 'under-four-yards'))} expected {w}")
        got = {k: v for k, v in lines(r["throws"][-1]).items() if k[1] not in SINGLE_PLAY}
        if got != want:
            problems.append(f"game {game} {throws}: full game lines {got} expected {want}")
    assert not problems, "\n".join(problems[:5])


# === High Roll Dice: the extra roll (§ 675a.4(f)(2)(ii), (g), (h); § 675a.5(d)) ==================

def hrd(wagers: list[dict], throws: list[dict]) -> dict:
    return settle({"game": "high-roll-dice", "options": {}, "wagers": wagers, "throws": throws})


def test_extra_roll_partial_settlement_then_extra_table():
    seat1 = [W(1, "pip-5", "5"), W(1, "pip-2", "5"),
             *(W(1, f"like-kind-{k}", "5") for k in range(2, 9)),
             W(1, "extra-roll", "5"), W(1, "millionaire-9", "1")]
    seat2 = [W(2, "pip-5", "3.33"), W(2, "like-kind-3", "3.33"), W(2, "like-kind-5", "3.33")]
    seat3 = [W(3, "pip-ace", "10"), W(3, "like-kind-4", "10"), W(3, "like-kind-5", "10"),
             W(3, "extra-roll", "10")]
    first = [5, 5, 5, 1, 2, 3, 4, 6, 2, 3]  # three 5s, two 2s, two 3s: 5s, count 3
    extra = [5, 5, 1, 1, 1, 1, 1]  # 10 - 3 = 7 dice; two more 5s (the five 1s do not count)
    r = hrd(seat1 + seat2 + seat3, [{"dice": first}, {"dice": extra}])
    t0, t1 = r["throws"]
    assert (t0["result"]["face"], t0["result"]["count"]) == ("5", 3)
    assert (t1["result"]["face"], t1["result"]["count"]) == ("5", 5)
    assert lines(t0) == {
        (1, "extra-roll"): col("5"),  # § 675a.4(a): collected into the inventory, never returned
        (3, "extra-roll"): col("10"),
        (1, "pip-2"): col("5"),
        (1, "pip-5"): pay("5", "20"),  # 4 to 1
        (1, "like-kind-2"): col("5"),  # below the count: no possibility of winning
        (1, "like-kind-3"): pay("5", "3"),  # first roll table: 3 to 5
        (1, "millionaire-9"): col("1"),
        (2, "pip-5"): pay("3.33", "13.32"),
        (2, "like-kind-3"): pay("3.33", "1.99"),  # 1.998 rounded down
        (2, "like-kind-5"): col("3.33"),  # no Extra Roll: settled now
        (3, "pip-ace"): col("10"),
        # held: seat 1 like-kind-4..8, seat 3 like-kind-4 and -5
    }
    # the purchase goes before any winner is paid
    pays = [i for i, s in enumerate(t0["steps"]) if s["action"] == "pay" and s.get("lines")]
    assert step_of(t0, 1, "extra-roll") < min(pays)
    assert lines(t1) == {
        (1, "like-kind-5"): pay("5", "10"),  # § 675a.5(d): 2 to 1
        (1, "like-kind-4"): col("5"), (1, "like-kind-6"): col("5"),
        (1, "like-kind-7"): col("5"), (1, "like-kind-8"): col("5"),
        (3, "like-kind-5"): pay("10", "20"),
        (3, "like-kind-4"): col("10"),
    }
    assert r["open"] == [] and r["refused"] == []


def test_held_wagers_are_open_until_the_extra_roll():
    r = hrd([W(1, "pip-4", "5"), W(1, "like-kind-3", "5"), W(1, "like-kind-6", "5"),
             W(1, "extra-roll", "5")], [{"dice": [4, 4, 4, 1, 1, 2, 3, 5, 6, 2]}])
    assert lines(r["throws"][0]) == {(1, "extra-roll"): col("5"), (1, "pip-4"): pay("5", "25"),
                                     (1, "like-kind-3"): pay("5", "3")}
    assert keys(r["open"]) == {(1, "like-kind-6")}


EXTRA_ROLL_CASES = {
    # name: (first roll, extra roll, seat 1 like-kind circles, amount,
    #        expected first-roll like-kind lines, expected extra-roll lines)
    "no-new-match-never-pays-twice": (
        [4, 4, 4, 4, 1, 2, 3, 5, 6, 2], [1, 1, 2, 2, 3, 5], [3, 4, 5], "5",
        {3: col("5"), 4: pay("5", "5")}, {5: col("5")}),
    "one-new-match": (
        [4, 4, 4, 4, 1, 2, 3, 5, 6, 2], [4, 1, 1, 2, 3, 5], [3, 4, 5], "5",
        {3: col("5"), 4: pay("5", "5")}, {5: pay("5", "10")}),
    "two-to-three": (
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 6], [1, 2, 2, 2, 2, 2, 2, 2], [2, 3, 8], "7",
        {2: pay("7", "84")}, {3: pay("7", "42"), 8: col("7")}),
    "five-to-six": (
        [6, 6, 6, 6, 6, 1, 2, 3, 4, 5], [6, 1, 1, 1, 1], [5, 6, 7], "5",
        {5: pay("5", "20")}, {6: pay("5", "20"), 7: col("5")}),
    "five-to-seven": (
        [6, 6, 6, 6, 6, 1, 2, 3, 4, 5], [6, 6, 2, 2, 2], [5, 6, 7], "5",
        {5: pay("5", "20")}, {6: col("5"), 7: pay("5", "50")}),
    "six-to-eight": (
        [6, 6, 6, 6, 6, 6, 1, 2, 3, 4], [6, 6, 1, 1], [6, 7, 8], "5",
        {6: pay("5", "150")}, {7: col("5"), 8: pay("5", "250")}),
    "seven-to-ten-matches-no-circle": (
        [6, 6, 6, 6, 6, 6, 6, 2, 3, 4], [6, 6, 6], [7, 8], "5",
        {7: pay("5", "2000")}, {8: col("5")}),
    "three-to-nine-matches-no-circle": (
        [3, 3, 3, 1, 2, 2, 4, 4, 5, 6], [3, 3, 3, 3, 3, 3, 4], [2, 4, 8], "3.35",
        {2: col("3.35")}, {4: col("3.35"), 8: col("3.35")}),
}


@pytest.mark.parametrize("case", sorted(EXTRA_ROLL_CASES))
def test_extra_roll_cases(case):
    first, extra, circles, amount, want0, want1 = EXTRA_ROLL_CASES[case]
    counts = Counter(first)
    rank = {1: 6, 6: 5, 5: 4, 4: 3, 3: 2, 2: 1}
    face = max(counts, key=lambda f: (counts[f], rank[f]))
    pip = "pip-ace" if face == 1 else f"pip-{face}"
    pip_odds = {2: 6, 3: 6, 4: 5, 5: 4, 6: 4, 1: 3}[face]
    assert len(extra) == 10 - counts[face]
    wagers = [W(1, pip, amount), *(W(1, f"like-kind-{k}", amount) for k in circles),
              W(1, "extra-roll", amount)]
    r = hrd(wagers, [{"dice": first}, {"dice": extra}])
    a = c(amount)
    exp0 = {(1, pip): ("pay", a, a * pip_odds), (1, "extra-roll"): ("collect", a)}
    exp0.update({(1, f"like-kind-{k}"): v for k, v in want0.items()})
    assert lines(r["throws"][0]) == exp0
    assert lines(r["throws"][1]) == {(1, f"like-kind-{k}"): v for k, v in want1.items()}
    new_count = counts[face] + extra.count(face)
    assert r["throws"][1]["result"]["count"] == new_count
    assert r["open"] == []


@pytest.mark.parametrize("n", [6, 8, 10])
def test_extra_roll_with_the_wrong_number_of_dice_is_an_error(n):
    """First count 3: the extra roll throws 10 - 3 = 7 dice."""
    with pytest.raises(RequestError):
        hrd([W(1, "pip-5", "5"), W(1, "like-kind-4", "5"), W(1, "extra-roll", "5")],
            [{"dice": [5, 5, 5, 1, 2, 3, 4, 6, 2, 3]}, {"dice": [5] * n}])


def test_no_extra_roll_without_a_buyer():
    with pytest.raises(RequestError):
        hrd([W(1, "pip-5", "5"), W(1, "like-kind-4", "5")],
            [{"dice": [5, 5, 5, 1, 2, 3, 4, 6, 2, 3]}, {"dice": [5] * 7}])


def test_wager_rules_refusals():
    """Interpretations, High Roll Dice wager rules (§ 675a.2(e), § 675a.1(b)(2)(iv))."""
    r = hrd(
        [
            W(1, "pip-2", "5"), W(1, "pip-3", "10"), W(1, "like-kind-4", "10"),
            W(1, "like-kind-5", "5"), W(1, "extra-roll", "10"), W(1, "millionaire-10", "1.01"),
            W(2, "like-kind-3", "5"), W(2, "extra-roll", "5"), W(2, "millionaire-9", "1"),
            W(3, "pip-4", "5"), W(3, "extra-roll", "5"),
            W(4, "pip-6", "5"), W(4, "like-kind-4", "7"), W(4, "extra-roll", "5"),
            W(5, "pip-5", "2"), W(5, "millionaire-9", "0.5"), W(5, "millionaire-10", "1"),
        ],
        [{"dice": [5, 5, 5, 5, 2, 3, 3, 1, 6, 4]}],
    )
    assert keys(r["refused"]) == {
        (1, "pip-3"), (1, "like-kind-4"), (1, "extra-roll"), (1, "millionaire-10"),
        (2, "like-kind-3"), (2, "extra-roll"), (2, "millionaire-9"),
        (3, "extra-roll"),
        (4, "like-kind-4"), (4, "extra-roll"),
    }
    assert lines(r["throws"][0]) == {
        (1, "pip-2"): col("5"), (1, "like-kind-5"): col("5"),
        (3, "pip-4"): col("5"), (4, "pip-6"): col("5"),
        (5, "pip-5"): pay("2", "8"),
        (5, "millionaire-9"): col("0.50"), (5, "millionaire-10"): col("1"),
    }
    assert r["open"] == []


def test_wagers_offered_on_the_extra_roll_are_refused():
    """§ 675a.2(a): all wagers before the dice are shaken."""
    r = hrd([W(1, "pip-5", "5"), W(1, "like-kind-4", "5"), W(1, "extra-roll", "5")],
            [{"dice": [5, 5, 5, 1, 2, 3, 4, 6, 2, 3]},
             {"dice": [5, 1, 1, 1, 2, 2, 2], "wagers": [W(2, "pip-3", "5"),
                                                        W(1, "like-kind-5", "5")]}])
    assert keys(r["refused"]) == {(2, "pip-3"), (1, "like-kind-5")}
    assert lines(r["throws"][1]) == {(1, "like-kind-4"): pay("5", "5")}
