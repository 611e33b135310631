"""`dealer-trainer supervise`: a supervised round printed for an instructor, and its bad input as
one line (exit 2)."""

from __future__ import annotations

import json

import pytest

from tests.support.command import run_command, run_here
from tests.support.paths import ROOT
from trainer.cite import is_citation

FIRST = ROOT / "scenarios" / "props-and-hops" / "01-first-shake.toml"


def test_the_text_shows_each_step_and_at_each_fault_its_kind_section_and_severity(tmp_path):
    path = tmp_path / "scripted.toml"
    path.write_text(FIRST.read_text(encoding="utf-8")
                    + '\n[[fault]]\nstep = "r1:pay:seat2:double-3-3"\nkind = "ph-short-pay"\n'
                    + '\n[[fault]]\nstep = "r1:place-pointer:3-3"\nkind = "ph-pointer-missed"\n',
                    encoding="utf-8")
    done = run_command("supervise", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Supervised round supervise-v1:ph-first-shake:0:0"
    assert "2 faults · a dealer action every 2 s" in lines[1]
    # the short pay: $150 (30 to 1 on $5) paid as $120, one step after the other
    paid = lines.index(next(x for x in lines if "Pay seat 2 Six the Hardway (3-3) $120.00" in x))
    assert lines[paid].startswith("!")
    assert lines[paid + 1].strip() == ("FAULT ph-short-pay (money, critical): Short pay: paid less "
                                       "than the paytable's odds")
    assert "should: Pay seat 2 Six the Hardway (3-3) $150.00" in lines[paid + 2]
    assert "58 Pa. Code § 668a.4" in lines[paid + 3]
    assert "point at: seat 2 Six the Hardway (3-3) · step r1:pay:seat2:double-3-3 · $30.00" in lines[paid + 4]
    pointer = lines.index(next(x for x in lines if "(not done) Place pointer on 3-3" in x))
    assert "FAULT ph-pointer-missed (records, major)" in lines[pointer + 1]
    assert "58 Pa. Code § 668a.3(h)" in lines[pointer + 3]
    # every step of the correct dealer but the one left out is there
    assert sum(1 for x in lines if x[3:8].count(":") == 1 and "(not done)" not in x) == 15 - 1


def test_the_json_is_the_round_and_its_faults():
    done = run_here("supervise", "ph-seven-out-six-eight", "--faults", "3", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["id"] == "supervise-v1:ph-seven-out-six-eight:3:7" and len(data["faults"]) == 3
    for fault in data["faults"]:
        assert fault["severity"] in ("critical", "major") and fault["findings"]
        assert all(is_citation(f["cite"]) for f in fault["findings"])
        assert fault["section"].startswith("58 Pa. Code § ")
    assert run_here("supervise", "ph-seven-out-six-eight", "--faults", "3", "--seed", "7",
                    "--json").stdout == done.stdout
    assert run_here("supervise", "ph-seven-out-six-eight", "--faults", "3", "--seed", "8",
                    "--json").stdout != done.stdout


def test_a_dealt_round_from_its_game_difficulty_and_seed():
    done = run_here("supervise", "deal:high-roll-dice-6:3", "--seed", "4", "--faults", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["scenario"] == "drill-v2-high-roll-dice-6-3-4" and len(data["faults"]) == 2
    again = run_here("supervise", "drill-v2-high-roll-dice-6-3-4", "--seed", "4", "--faults", "2",
                     "--json")
    assert again.stdout == done.stdout


def test_no_fault():
    done = run_here("supervise", "ph-first-shake", "--faults", "0")
    assert done.returncode == 0 and "No fault in this round" in done.stdout and "FAULT" not in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("no-such-scenario",), "no-such-scenario:1: no such file"),
    (("ph-first-shake", "--faults", "40"), "ph-first-shake: ph-first-shake has room for only"),
    (("ph-first-shake", "--faults", "-1"), "a round takes 0 to 50 faults"),
    (("ph-first-shake", "--faults", "two"), "argument --faults: invalid int value"),
    (("ph-first-shake", "--pace", "nan"), "needs a positive pace"),
    (("deal:no-game:3",), "no game 'no-game'"),
    (("deal:pai-gow-dice:9",), "difficulty '9' is not 1 to 5"),
    (("drill-v9-props-and-hops-1-1",), "dealer version v9"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    done = run_here("supervise", *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and not done.stdout


def test_a_bad_fault_entry_through_the_command(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(FIRST.read_text(encoding="utf-8") + '\n[[fault]]\nstep = "r1:uncover"\nkind = "nope"\n',
                    encoding="utf-8")
    done = run_command("supervise", str(path))
    assert done.returncode == 2 and done.stderr.startswith(f"{path}:57: unknown fault kind \"nope\"")


def test_check_reads_the_fault_entries_too(tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    text = FIRST.read_text(encoding="utf-8")
    good.write_text(text + '\n[[fault]]\nstep = "r1:uncover"\nkind = "ph-no-more-bets-missed"\n'
                    .replace("r1:uncover", "r1:no-more-bets"), encoding="utf-8")
    bad.write_text(text + '\n[[fault]]\nstep = "r1:uncover"\nkind = "ph-short-pay"\n', encoding="utf-8")
    done = run_here("check", str(good), str(bad))
    assert done.returncode == 2 and done.stdout == "1 of 2 scenario files are good\n"
    assert done.stderr == (f'{bad}:56: "ph-short-pay" cannot go in step "r1:uncover"; in this round it '
                           'goes in r1:pay:seat2:double-3-3, r1:pay:seat4:hop-center\n')
