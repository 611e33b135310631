"""Supervised rounds (trainer.supervise.rounds): the correct dealer with faults put in, seeded,
scripted by a scenario's [[fault]] entries, and judged by the grader."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.paths import ROOT
from trainer.drills import random_round
from trainer.scenario import ScenarioError, load
from trainer.supervise.rounds import SuperviseError, again, dealt, supervise

FIRST = ROOT / "scenarios" / "props-and-hops" / "01-first-shake.toml"
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
         "pai-gow-dice")


def shape(rnd) -> list:
    return [[p.to_json() for p in rnd.log], [(f.type.id, f.step, f.at) for f in rnd.faults]]


def test_the_same_seed_deals_the_same_round_and_faults_another_does_not():
    s = load(FIRST)
    one, two = supervise(s, 3, "a"), supervise(load(FIRST), 3, "a")
    assert shape(one) == shape(two) and len(one.faults) == 3
    others = {json.dumps(shape(supervise(s, 3, seed))) for seed in ("b", "c", "d", "e")}
    assert others - {json.dumps(shape(one))}, "every seed dealt the same faults"


def test_an_id_deals_its_round_again():
    rnd = dealt("three-dice-football", 4, "17", 2)
    assert rnd.id == "supervise-v1:drill-v2-three-dice-football-4-17:2:17"
    assert shape(again(rnd.id)) == shape(rnd)
    bundled = supervise(load(FIRST), 2, 9)
    assert shape(again(bundled.id)) == shape(bundled)
    for bad in ("supervise-v1:ph-first-shake:x:1", "other:ph-first-shake:1:1",
                "supervise-v1:no-such:1:1", "supervise-v1:drill-v9-props-and-hops-1-1:1:1"):
        with pytest.raises(SuperviseError):
            again(bad)


def test_another_process_with_another_hash_seed_deals_the_same():
    """The program, run twice with different hash seeds (set and dict orders of strings change):
    the same round, the same faults, as this process deals them."""
    argv = [sys.executable, "-m", "trainer", "supervise", "deal:props-and-hops:5", "--seed", "x",
            "--faults", "4", "--json"]
    outs = {subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1
    data, r = json.loads(outs.pop()), dealt("props-and-hops", 5, "x", 4)
    assert data["log"] == [p.to_json() for p in r.log]
    assert [(f["kind"], f["step"]) for f in data["faults"]] == [(f.type.id, f.step) for f in r.faults]


def test_a_round_can_have_no_fault():
    rnd = supervise(load(FIRST), 0)
    assert rnd.faults == [] and not rnd.graded().findings
    assert [p.at for p in rnd.log] == [2.0 * n for n in range(len(rnd.log))]


@pytest.mark.parametrize("game", GAMES)
def test_every_fault_of_a_round_is_found_as_itself_and_nothing_else(game):
    """Several faults in one round: each gets the grader's findings of its own type, and every
    finding belongs to one of them."""
    for seed in range(6):
        scenario = random_round(game, 3 + seed % 3, f"faults:{seed}")
        rnd = supervise(scenario, 4, seed)
        assert len(rnd.faults) == 4
        steps = [f.step for f in rnd.faults]
        assert len(set(steps)) == 4
        found = rnd.graded().findings
        for fault, mine in rnd.debrief():
            assert any(f.kind is fault.type.finding and f.severity is fault.type.severity
                       for f in mine), (scenario.id, fault.type.id, [f.message for f in found])
        assert all(any(fault.concerns(f) for fault in rnd.faults) for f in found)
        assert [f.at for f in rnd.faults] == sorted(f.at for f in rnd.faults)


def test_too_many_faults_or_a_bad_pace_is_one_line():
    s = load(FIRST)
    with pytest.raises(SuperviseError, match=r"^ph-first-shake has room for only \d+ faults, not 50$"):
        supervise(s, 50)
    with pytest.raises(SuperviseError, match="0 to 50"):
        supervise(s, -1)
    for pace in (0.0, -2.0, float("nan"), float("inf")):
        with pytest.raises(SuperviseError, match="positive pace"):
            supervise(s, 1, pace=pace)


def scripted(tmp_path, *faults: str):
    """The first bundled scenario (53 lines) with [[fault]] entries after it: the first entry's
    header on line 55, its keys from 56; the second's header on line 59."""
    path = tmp_path / "scripted.toml"
    path.write_text(FIRST.read_text(encoding="utf-8") + "".join(f"\n[[fault]]\n{f}\n" for f in faults),
                    encoding="utf-8")
    return path


def test_a_scenario_names_its_faults(tmp_path):
    path = scripted(tmp_path, 'step = "r1:pay:seat2:double-3-3"\nkind = "ph-short-pay"',
                    'step = "r1:no-more-bets"\nkind = "ph-no-more-bets-missed"')
    rnd = supervise(load(path))
    assert [(f.type.id, f.step, f.scripted) for f in rnd.faults] == [
        ("ph-no-more-bets-missed", "r1:no-more-bets", True),
        ("ph-short-pay", "r1:pay:seat2:double-3-3", True)]
    # Six the Hardway pays 30 to 1 on $5: $150; a fifth short is $30
    short = next(f for f in rnd.faults if f.type.id == "ph-short-pay")
    assert short.done[0].amount == 12000 and short.cents == 3000
    more = supervise(load(path), 2, "s")
    assert len(more.faults) == 4 and sum(f.scripted for f in more.faults) == 2


@pytest.mark.parametrize(("fault", "line", "message"), [
    ('step = "r1:no-more-bets"\nkind = "ph-no-more-bet-missed"', 57,
     'unknown fault kind "ph-no-more-bet-missed" — did you mean "ph-no-more-bets-missed"?'),
    ('step = "r1:no-more-bets"\nkind = "tdf-down-missed"', 57,
     '"tdf-down-missed" is a fault of three-dice-football, not of props-and-hops'),
    ('step = "r2:no-more-bets"\nkind = "ph-no-more-bets-missed"', 56, 'no step "r2:no-more-bets"'),
    ('step = "r1:announce:Six, three-three"\nkind = "ph-short-pay"', 56,
     '"ph-short-pay" cannot go in step "r1:announce:Six, three-three"'),
    ('kind = "ph-short-pay"', 55, 'missing "step"'),
    ('step = 3\nkind = "ph-short-pay"', 56, '"step" must be'),
    ('step = "r1:no-more-bets"\nkind = "ph-no-more-bets-missed"\nwhen = 3', 58, 'unknown key "when"'),
])
def test_a_bad_fault_entry_names_the_file_the_line_and_the_problem(tmp_path, fault, line, message):
    path = scripted(tmp_path, fault)
    with pytest.raises(ScenarioError) as e:
        supervise(load(path))
    assert str(e.value).startswith(f"{path}:{line}: ") and message in str(e.value)
    assert "\n" not in str(e.value)


def test_two_faults_at_one_step_are_refused(tmp_path):
    path = scripted(tmp_path, 'step = "r1:pay:seat2:double-3-3"\nkind = "ph-short-pay"',
                    'step = "r1:pay:seat2:double-3-3"\nkind = "ph-overpay"')
    with pytest.raises(ScenarioError, match=r":60: step \"r1:pay:seat2:double-3-3\" already has a fault"):
        supervise(load(path))
