"""`dealer-trainer key`: a scenario's expected procedure, numbered and cited, for instructors."""

from __future__ import annotations

import json

from tests.support.command import run_command, run_here
from tests.support.paths import ROOT
from trainer.cite import is_citation

FIRST = ROOT / "scenarios" / "props-and-hops" / "01-first-shake.toml"


def test_the_text_key_numbers_and_cites_every_step():  # the program; the other cases in-process
    done = run_command("key", str(FIRST))
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Answer key: First shake" in text
    # bets by the names the layout prints, never by their ids
    assert "Pay seat 2 Six the Hardway (3-3) $150.00" in text and "§ 668a.2(d)(3)" in text
    assert "double-3-3" not in text
    steps = [line for line in text.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert len(steps) >= 6
    assert text.index("Collect seat 1 Field") < text.index("Pay seat 2 Six the Hardway")


def test_the_key_finds_a_bundled_scenario_by_id():
    assert run_here("key", "ph-first-shake").stdout == run_here("key", str(FIRST)).stdout


def test_the_json_key_marks_what_the_trainee_does():
    data = json.loads(run_here("key", str(FIRST), "--json").stdout)
    assert data["scenario"] == "ph-first-shake" and data["automation"] == "payouts"
    actions = [a for stage in data["stages"] for a in stage]
    assert {a["do"] for a in actions if a["trainee"]} == {"pay"}
    assert all(is_citation(a["cite"]) for a in actions)


def test_an_unknown_scenario_is_one_line():
    done = run_here("key", "no-such-scenario")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("no-such-scenario:1: ")
