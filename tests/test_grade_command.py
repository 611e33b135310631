"""`dealer-trainer grade SCENARIO --log LOG.json`: re-grading a recorded log with no app.

The program itself is run on a passing log, a bad one and one that is not text; the other cases go
through the command's entry in this process (`run_here`: trainer.cli.main, which the program
calls), with the same exit status, stdout and stderr."""

from __future__ import annotations

import json

import pytest

from tests.support.command import run_command, run_here
from tests.support.paths import ROOT
from trainer.grading import correct_log
from trainer.procedure import Automation, Do, build
from trainer.scenario import load

SCENARIO = ROOT / "scenarios" / "three-dice-football" / "02-trips-td-first-play.toml"


def write(tmp_path, data, name="log.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def the_log(automation=Automation.WHOLE_ROUND):
    return [p.to_json() for p in correct_log(build(load(SCENARIO)), automation)]


def test_a_log_in_an_order_the_regulation_allows_passes(tmp_path):
    # every losing wager collected before any winner is paid: after a touchdown § 577.6(f)(1)
    # puts Defense first and leaves the rest in any order, so this order is one it allows
    log = the_log()
    settle = [i for i, p in enumerate(log) if p["do"] in ("collect", "pay") and p["round"] == 1]
    ordered = sorted((log[i] for i in settle), key=lambda p: p["do"] == "pay")
    for i, p in zip(settle, ordered, strict=True):
        log[i] = p
    done = run_command("grade", str(SCENARIO), "--log", write(tmp_path, log),
                       "--automation", "whole-round", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["findings"] == [] and out["score"]["total"] == 100 and out["score"]["passed"]


def test_the_text_report_names_each_finding_with_its_section(tmp_path):
    log = [p for p in the_log() if p["do"] != "announce"]
    done = run_here("grade", "tdf-trips-td-first-play", "--log",
                       write(tmp_path, {"log": log, "automation": "whole-round", "elapsed": 30}))
    assert done.returncode == 1, done.stdout  # a missed call fails the round
    assert "FAIL" in done.stdout
    assert "[major] missing: Announce" in done.stdout and "§ 577.5(e)" in done.stdout


def test_a_wrong_payout_cites_the_paytable(tmp_path):
    log = the_log(Automation.PAYOUTS)
    pay = next(p for p in log if p["do"] == Do.PAY.value)
    pay["amount"] += 1
    done = run_here("grade", str(SCENARIO), "--log", write(tmp_path, log), "--json",
                    "--automation", "payouts")
    assert done.returncode == 1
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["kind"] == "wrong amount" and "§ 577.8" in finding["cite"]


BAD_LOGS = [
    ([{"do": "dance", "round": 1}], "log[0].do"),
    ([{"do": "pay", "round": -1}], "log[0].throw"),
    ([{"do": "pay", "round": 1, "amount": "5"}], "log[0].amount"),
    ([{"do": "pay", "round": 1, "at": 1e308}], "log[0].at"),
    ([{"do": "pay", "round": 1, "colour": "red"}], "log[0].colour"),
    ({"actions": []}, "log"),
    ({"log": [], "automation": "everything"}, "automation"),
    ("[1, 2", "request"),
    ([[]], "log[0]"),
    ([{"do": ["pay"], "round": 1}], "log[0].do"),
    ([{"do": {}, "round": 1}], "log[0].do"),
    ({"log": [], "automation": ["payouts"]}, "automation"),
    ('[{"do": "pay", "round": ' + "9" * 5000 + "}]", "request"),
    ('[{"do": "pay", "round": 1, "bet": "\\ud800"}]', "log[0].bet"),
]


@pytest.mark.parametrize(("log", "field"), BAD_LOGS)
def test_a_bad_log_is_named_by_file_and_field(tmp_path, log, field):
    bad_log_named(run_here, tmp_path, log, field)


def test_the_program_names_a_bad_log_by_file_and_field(tmp_path):
    bad_log_named(run_command, tmp_path, *BAD_LOGS[0])


def bad_log_named(run, tmp_path, log, field) -> None:
    path = write(tmp_path, log)
    done = run("grade", str(SCENARIO), "--log", path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"{path}: {field}:"), done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_log_or_scenario_is_named(tmp_path):
    missing = run_here("grade", str(SCENARIO), "--log", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "nope.json" in missing.stderr
    unknown = run_here("grade", "no-such-scenario", "--log", write(tmp_path, []))
    assert unknown.returncode == 2 and "no-such-scenario" in unknown.stderr


def test_a_log_that_is_not_utf8_text_is_named_in_one_line(tmp_path):
    path = tmp_path / "log.json"
    path.write_bytes(b'[{"do": "pay", "round": 1, "bet": "\xff"}]')
    done = run_command("grade", str(SCENARIO), "--log", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"{path}: not a log (it is not UTF-8 text)", done.stderr


def test_a_name_two_bundled_scenarios_share_is_refused_not_guessed(tmp_path):
    done = run_here("grade", "10-improper-wagers", "--log", write(tmp_path, []))
    assert done.returncode == 2 and "more than one bundled scenario" in done.stderr
    assert "pai-gow-dice/10-improper-wagers" in done.stderr


CORNERS = ("high-roll-dice/13-six-fives-held-like-kinds", "three-dice-football/16-third-and-goal-score",
           "three-dice-football/17-five-play-stand", "props-and-hops/14-six-eight-shake-on-four-four",
           "pai-gow-dice/14-sum-b-beat-it-c-five-seats")


@pytest.mark.parametrize("name", CORNERS)
def test_grade_gives_the_policys_verdicts_on_the_corner_scenarios(tmp_path, name):
    """The corners checked by hand against the chapters (a buyer with many matching dice, a
    touchdown on the last play, a no-touchdown end with Defense, Six Eight Shake won, Pai Gow
    with five players): a perfect log passes under pass rule 2; the largest winner left unpaid
    is critical; the first call missed is major; both fail."""
    path = ROOT / "scenarios" / f"{name}.toml"
    log = [p.to_json() for p in correct_log(build(load(path)), Automation.WHOLE_ROUND)]

    def graded(entries):
        done = run_here("grade", str(path), "--log", write(tmp_path, entries), "--automation",
                        "whole-round")
        assert done.returncode in (0, 1), done.stderr
        return done.returncode, done.stdout

    code, out = graded(log)
    assert code == 0 and "PASS:" in out and "Graded under Pass rule 2" in out
    biggest = max((p for p in log if p["do"] == "pay"), key=lambda p: p["amount"])
    code, out = graded([p for p in log if p is not biggest])
    assert code == 1 and "FAIL" in out and "[critical] missing:" in out and "was not paid" in out
    call = next(p for p in log if p["do"] == "announce")
    code, out = graded([p for p in log if p is not call])
    assert code == 1 and "[major] missing: Announce" in out and "1 major finding" in out


def test_a_log_that_is_a_pipe_a_device_or_too_big_is_refused_unread(tmp_path):
    """The fourth cold review (#90): `grade --log` on a FIFO hung, and on /dev/zero read 4.1 GB in
    15 s. The log is read as every file someone else made is (trainer.files): a regular file only,
    1 MiB at most; each refusal is one line."""
    import os

    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)  # nothing ever writes to it: opening it to read would wait for ever
    for path, says in ((str(fifo), "not read: not a regular file (a named pipe)"),
                       ("/dev/zero", "not read: not a regular file (a device)"),
                       (write(tmp_path, " " * (1024 * 1024) + "[]", "big.json"),
                        "not read: larger than 1,048,576 bytes")):
        done = run_here("grade", str(SCENARIO), "--log", path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == f"{path}: {says}", done.stderr


def test_a_log_that_names_a_key_twice_is_refused(tmp_path):
    """The fourth cold review (#90): an action naming "amount" twice was graded with the last copy,
    where another reader of the same file (SQLite's json_extract) takes the first."""
    entry = json.dumps(next(a for a in the_log() if a["do"] == "pay"))
    twice = entry[:-1] + ', "amount": 1}'
    done = run_here("grade", str(SCENARIO), "--log", write(tmp_path, f"[{twice}]"))
    assert done.returncode == 2 and done.stdout == ""
    assert 'the key "amount" appears twice in one object' in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
