"""The dealer-trainer program as a user runs it: settle, odds, and the app's switches."""

from __future__ import annotations

import json

from tests.support.command import run_command

ROUND = {"game": "props-and-hops", "wagers": [{"seat": 1, "bet": "field", "amount": "5"}],
         "throws": [{"no_roll": "die-fell-out"}, {"dice": [6, 6]}]}


def test_settle_reads_stdin_and_writes_json():
    done = run_command("settle", stdin=json.dumps(ROUND))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [t["valid"] for t in answer["throws"]] == [False, True]
    pay = answer["throws"][1]["steps"][-1]
    assert pay["action"] == "pay"
    assert pay["lines"][0]["payout"] == "10.00"  # a 12 pays 2 to 1 on the Field, § 668a.4
    assert answer["throws"][0]["call"] == "No roll"


def test_settle_jsonl_answers_every_line_in_order():
    rounds = [ROUND, {"game": "pai-gow-dice", "wagers": [], "throws": [{"red": 1, "blue": [2, 3]}]}]
    text = "\n".join(json.dumps(r) for r in rounds) + "\n"
    done = run_command("settle", "--jsonl", stdin=text)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert [a["game"] for a in answers] == ["props-and-hops", "pai-gow-dice"]


def test_python_dash_m_trainer_is_the_same_command():
    import subprocess
    import sys

    from tests.support.paths import ROOT

    done = subprocess.run([sys.executable, "-m", "trainer", "settle"], input=json.dumps(ROUND),
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads(run_command("settle", stdin=json.dumps(ROUND)).stdout)


def test_odds_prints_a_readable_table():
    done = run_command("odds", "--game", "props-and-hops")
    assert done.returncode == 0, done.stderr
    assert "Field" in done.stdout and "5.56%" in done.stdout
    assert "§ 668a.2(f)(1); § 668a.4" in done.stdout


def test_odds_without_a_game_covers_every_game_and_paytable():
    done = run_command("odds", "--json")
    reports = json.loads(done.stdout)
    assert {r["game"] for r in reports} == {"props-and-hops", "three-dice-football",
                                            "high-roll-dice", "high-roll-dice-6", "pai-gow-dice"}
    sums = {r["options"]["sum_paytable"] for r in reports if r["game"] == "pai-gow-dice"}
    beats = {r["options"]["beat_it_paytable"] for r in reports if r["game"] == "pai-gow-dice"}
    assert sums == {"A", "B", "C", "D"} and beats == {"A", "B", "C"}


def test_unknown_command_option_is_one_line_and_exit_2():
    done = run_command("odds", "--bogus")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_version():
    done = run_command("--version")
    assert done.returncode == 0 and done.stdout.startswith("dealer-trainer ")
