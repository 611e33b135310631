"""Requests the engine cannot read: `settle()` raises RequestError naming the field, and
`dealer-trainer settle` exits 2 with one line on stderr that starts with that field, prints nothing
on stdout and never a traceback (settle-contract.md, "Errors").

A field is matched as a path prefix: an expected ``throws[0].dice`` is met by ``throws[0].dice`` or
a deeper path such as ``throws[0].dice[2]``.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fuzz import run_cli
from trainer.errors import RequestError
from trainer.settle import settle

ROOT = Path(__file__).resolve().parents[1]
SETTLE = [sys.executable, "-m", "trainer", "settle"]


class Raw(str):
    """Request text sent as is (not JSON-encoded); only the command can be given it."""


def field_matches(got: str, want: str) -> bool:
    return got == want or got.startswith((want + ".", want + "["))


# --- valid requests, one per game, that the cases below break in one place -----------------------

PH = {"game": "props-and-hops", "options": {},
      "wagers": [{"seat": 1, "bet": "field", "amount": "5"}],
      "throws": [{"dice": [3, 4]}]}
TDF = {"game": "three-dice-football", "options": {},
       "wagers": [{"seat": 1, "bet": "touchdown", "amount": "10"}],
       "throws": [{"green": [2, 2], "red": 3}]}
HRD = {"game": "high-roll-dice", "options": {},
       "wagers": [{"seat": 1, "bet": "pip-6", "amount": "5"}],
       "throws": [{"dice": [6, 4, 6, 2, 1, 4, 6, 2, 4, 1]}]}
HRD6 = {"game": "high-roll-dice-6", "options": {},
        "wagers": [{"seat": 1, "bet": "pip-ace", "amount": "5"}],
        "throws": [{"dice": [4, 1, 6, 2, 5, 3]}]}
PGD = {"game": "pai-gow-dice", "options": {},
       "wagers": [{"seat": 1, "bet": "sum", "amount": "5"}],
       "throws": [{"red": 2, "blue": [2, 4]}]}
VALID = {"ph": PH, "tdf": TDF, "hrd": HRD, "hrd6": HRD6, "pgd": PGD}


def with_(base: dict, **changes) -> dict:
    out = copy.deepcopy(base)
    out.update(copy.deepcopy(changes))
    return out


def wager(base: dict, **changes) -> dict:
    """`base` with its first wager changed."""
    out = copy.deepcopy(base)
    out["wagers"][0].update(changes)
    return out


CASES = [
    # the request as a whole
    ("bad-json", Raw('{"game": "props-and-hops", "wagers": ['), "request"),
    ("bad-json-trailing-comma", Raw('{"game": "pai-gow-dice",}'), "request"),
    ("not-an-object-list", [PH], "request"),
    ("not-an-object-string", "props-and-hops", "request"),
    ("not-an-object-number", 5, "request"),
    # game
    ("unknown-game", with_(PH, game="craps"), "game"),
    ("unknown-game-case", with_(PH, game="Props-And-Hops"), "game"),
    ("game-not-a-string", with_(PH, game=5), "game"),
    # bet ids
    ("unknown-bet", wager(PH, bet="double-7-7"), "wagers[0].bet"),
    ("unknown-bet-any-reversed", wager(PH, bet="any-5-1"), "wagers[0].bet"),
    ("bet-of-another-game", wager(PH, bet="touchdown"), "wagers[0].bet"),
    ("hrd6-has-no-millionaire-row", wager(HRD6, bet="millionaire-9", amount="1"), "wagers[0].bet"),
    ("hrd6-has-no-extra-roll", with_(HRD6, wagers=[
        {"seat": 1, "bet": "pip-ace", "amount": "5"},
        {"seat": 1, "bet": "like-kind-2", "amount": "5"},
        {"seat": 1, "bet": "extra-roll", "amount": "5"}]), "wagers[2].bet"),
    ("hrd10-has-no-like-kind-none", wager(HRD, bet="like-kind-none"), "wagers[0].bet"),
    ("hrd10-has-no-like-kind-9", wager(HRD, bet="like-kind-9"), "wagers[0].bet"),
    ("unknown-bet-on-a-throw", with_(PH, throws=[
        {"dice": [1, 1]}, {"dice": [3, 4], "wagers": [{"seat": 2, "bet": "hop-bottom", "amount": "1"}]},
    ]), "throws[1].wagers[0].bet"),
    # options
    ("unknown-option", with_(PH, options={"foo": 1}), "options.foo"),
    ("unknown-option-pgd", with_(PGD, options={"sum_table": "A"}), "options.sum_table"),
    ("option-of-another-game-ph", with_(PH, options={"sum_paytable": "A"}), "options.sum_paytable"),
    ("option-of-another-game-tdf", with_(TDF, options={"beat_it_paytable": "A"}),
     "options.beat_it_paytable"),
    ("option-of-another-game-pgd", with_(PGD, options={"hop_regions": {"top": ["1-2"]}}),
     "options.hop_regions"),
    ("bad-sum-paytable", with_(PGD, options={"sum_paytable": "E"}), "options.sum_paytable"),
    ("bad-beat-it-paytable", with_(PGD, options={"beat_it_paytable": "D"}),
     "options.beat_it_paytable"),
    ("paytable-not-a-letter", with_(PGD, options={"sum_paytable": 1}), "options.sum_paytable"),
    # seats
    ("seat-0", wager(PH, seat=0), "wagers[0].seat"),
    ("seat-7-props-and-hops", wager(PH, seat=7), "wagers[0].seat"),
    ("seat-7-high-roll-dice", wager(HRD, seat=7), "wagers[0].seat"),
    ("seat-7-pai-gow", wager(PGD, seat=7), "wagers[0].seat"),
    ("seat-17-three-dice-football", wager(TDF, seat=17), "wagers[0].seat"),
    ("seat-as-string", wager(PH, seat="1"), "wagers[0].seat"),
    ("seat-negative", wager(TDF, seat=-1), "wagers[0].seat"),
    ("seat-boolean", wager(PH, seat=True), "wagers[0].seat"),
    ("seat-on-a-throw-wager", with_(PH, throws=[
        {"dice": [3, 4], "wagers": [{"seat": 7, "bet": "field", "amount": "5"}]}]),
     "throws[0].wagers[0].seat"),
    # amounts
    ("amount-negative", wager(PH, amount="-5"), "wagers[0].amount"),
    ("amount-zero", wager(PH, amount="0"), "wagers[0].amount"),
    ("amount-zero-cents", wager(TDF, amount="0.00"), "wagers[0].amount"),
    ("amount-not-a-number", wager(PH, amount="five"), "wagers[0].amount"),
    ("amount-nan", wager(PGD, amount="NaN"), "wagers[0].amount"),
    ("amount-empty", wager(PH, amount=""), "wagers[0].amount"),
    ("amount-finer-than-a-cent", wager(PH, amount="1.005"), "wagers[0].amount"),
    ("amount-absurd", wager(PH, amount="1e12"), "wagers[0].amount"),
    ("amount-boolean", wager(PH, amount=True), "wagers[0].amount"),
    ("amount-list", wager(PH, amount=["5"]), "wagers[0].amount"),
    ("amount-on-a-throw-wager", with_(TDF, throws=[
        {"green": [2, 2], "red": 3, "wagers": [{"seat": 2, "bet": "penalty", "amount": "-1"}]}]),
     "throws[0].wagers[0].amount"),
    # dice
    ("die-0", with_(PH, throws=[{"dice": [0, 4]}]), "throws[0].dice"),
    ("die-7", with_(PH, throws=[{"dice": [3, 7]}]), "throws[0].dice"),
    ("die-2.5", with_(PH, throws=[{"dice": [2.5, 4]}]), "throws[0].dice"),
    ("die-string", with_(PH, throws=[{"dice": ["3", 4]}]), "throws[0].dice"),
    ("die-7-later-throw", with_(PH, throws=[{"dice": [1, 1]}, {"no_roll": "die-on-die"},
                                            {"dice": [1, 2]}, {"dice": [7, 2]}]), "throws[3].dice"),
    ("tdf-red-7", with_(TDF, throws=[{"green": [2, 2], "red": 7}]), "throws[0].red"),
    ("tdf-green-0", with_(TDF, throws=[{"green": [0, 2], "red": 3}]), "throws[0].green"),
    ("tdf-green-string", with_(TDF, throws=[{"green": [2, "2"], "red": 3}]), "throws[0].green"),
    ("pgd-blue-7", with_(PGD, throws=[{"red": 2, "blue": [7, 4]}]), "throws[0].blue"),
    ("pgd-red-0", with_(PGD, throws=[{"red": 0, "blue": [1, 4]}]), "throws[0].red"),
    ("hrd-die-7", with_(HRD, throws=[{"dice": [6, 4, 6, 2, 1, 4, 6, 2, 4, 7]}]), "throws[0].dice"),
    ("hrd6-die-0", with_(HRD6, throws=[{"dice": [0, 1, 6, 2, 5, 3]}]), "throws[0].dice"),
    # the wrong number of dice
    ("ph-3-dice", with_(PH, throws=[{"dice": [3, 4, 5]}]), "throws[0].dice"),
    ("ph-1-die", with_(PH, throws=[{"dice": [3]}]), "throws[0].dice"),
    ("hrd-9-dice", with_(HRD, throws=[{"dice": [6, 4, 6, 2, 1, 4, 6, 2, 4]}]), "throws[0].dice"),
    ("hrd-11-dice", with_(HRD, throws=[{"dice": [6, 4, 6, 2, 1, 4, 6, 2, 4, 1, 1]}]),
     "throws[0].dice"),
    ("hrd6-10-dice", with_(HRD6, throws=[{"dice": [4, 1, 6, 2, 5, 3, 1, 2, 3, 4]}]),
     "throws[0].dice"),
    ("hrd-extra-roll-10-dice", with_(HRD, wagers=[
        {"seat": 1, "bet": "pip-6", "amount": "5"},
        {"seat": 1, "bet": "like-kind-5", "amount": "5"},
        {"seat": 1, "bet": "extra-roll", "amount": "5"}],
        # three 6s win the first roll, so the extra roll throws 7 dice, not 10
        throws=[{"dice": [6, 4, 6, 2, 1, 4, 6, 2, 4, 1]}, {"dice": [6, 3, 6, 5, 1, 2, 2, 4, 4, 4]}]),
     "throws[1].dice"),
    ("tdf-green-3-dice", with_(TDF, throws=[{"green": [1, 2, 3], "red": 3}]), "throws[0].green"),
    ("pgd-blue-1-die", with_(PGD, throws=[{"red": 2, "blue": [4]}]), "throws[0].blue"),
    # the wrong throw shape for the game
    ("ph-green-red", with_(PH, throws=[{"green": [1, 2], "red": 3}]), "throws[0]"),
    ("tdf-dice", with_(TDF, throws=[{"dice": [1, 2, 3]}]), "throws[0]"),
    ("pgd-dice", with_(PGD, throws=[{"dice": [1, 2, 3]}]), "throws[0]"),
    ("hrd-red-blue", with_(HRD, throws=[{"red": 1, "blue": [1, 2]}]), "throws[0]"),
    ("throw-not-an-object", with_(PH, throws=[[3, 4]]), "throws[0]"),
    # no-roll reasons
    ("no-roll-unknown", with_(PH, throws=[{"no_roll": "sneezed"}, {"dice": [3, 4]}]),
     "throws[0].no_roll"),
    ("no-roll-of-another-game-ph", with_(PH, throws=[{"no_roll": "die-off-table"}, {"dice": [3, 4]}]),
     "throws[0].no_roll"),
    ("no-roll-of-another-game-tdf", with_(TDF, throws=[{"no_roll": "lid-removed"},
                                                       {"green": [2, 2], "red": 3}]),
     "throws[0].no_roll"),
    ("no-roll-of-another-game-hrd", with_(HRD, throws=[{"no_roll": "not-flat"},
                                                       HRD["throws"][0]]), "throws[0].no_roll"),
    ("no-roll-of-another-game-pgd", with_(PGD, throws=[{"no_roll": "improper"},
                                                       PGD["throws"][0]]), "throws[0].no_roll"),
    # a throw after the round is over
    ("pgd-second-throw", with_(PGD, throws=[{"red": 2, "blue": [2, 4]}, {"red": 5, "blue": [1, 1]}]),
     "throws[1]"),
    ("tdf-after-trips-td", with_(TDF, throws=[{"green": [2, 2], "red": 2},
                                              {"green": [6, 5], "red": 1}]), "throws[1]"),
    ("tdf-after-turnover", with_(TDF, throws=[{"green": [1, 2], "red": 6},
                                              {"green": [6, 5], "red": 1}]), "throws[1]"),
    # a touchdown with no Extra Point wager: no extra point roll, so a fourth throw is too many
    ("tdf-after-touchdown-without-extra-point", with_(TDF, throws=[
        {"green": [6, 6], "red": 1}, {"green": [6, 6], "red": 1}, {"green": [1, 1], "red": 4}]),
     "throws[2]"),
    ("tdf-after-defense-wins", with_(TDF, throws=[
        {"green": [1, 1], "red": 2}, {"green": [1, 1], "red": 2}, {"green": [1, 1], "red": 2},
        {"green": [6, 6], "red": 1}]), "throws[3]"),
    ("tdf-after-extra-point-roll", with_(TDF, wagers=[{"seat": 1, "bet": "extra-point", "amount": "5"}],
                                         throws=[{"green": [3, 3], "red": 3},
                                                 {"green": [1, 1], "red": 4},
                                                 {"green": [1, 2], "red": 4}]), "throws[2]"),
    ("hrd-second-throw-without-extra-roll", with_(HRD, throws=[
        HRD["throws"][0], {"dice": [6, 3, 6, 5, 1, 2, 2]}]), "throws[1]"),
    ("hrd6-second-throw", with_(HRD6, throws=[HRD6["throws"][0], HRD6["throws"][0]]), "throws[1]"),
    # take_down of a wager that is not on the layout
    ("take-down-never-placed", with_(PH, throws=[
        {"dice": [1, 1], "take_down": [{"seat": 3, "bet": "six-eight-shake"}]}]),
     "throws[0].take_down"),
    ("take-down-after-seven", with_(PH, wagers=[{"seat": 2, "bet": "six-eight-shake", "amount": "5"}],
                                    throws=[{"dice": [3, 4]},
                                            {"dice": [2, 2],
                                             "take_down": [{"seat": 2, "bet": "six-eight-shake"}]}]),
     "throws[1].take_down"),
    ("take-down-twice", with_(PH, wagers=[{"seat": 2, "bet": "six-eight-shake", "amount": "5"},
                                          {"seat": 3, "bet": "six-eight-shake", "amount": "5"}],
                              throws=[{"dice": [1, 1],
                                       "take_down": [{"seat": 2, "bet": "six-eight-shake"}]},
                                      {"dice": [1, 2],
                                       "take_down": [{"seat": 2, "bet": "six-eight-shake"}]}]),
     "throws[1].take_down"),
    ("take-down-in-three-dice-football", with_(TDF, throws=[
        {"green": [2, 2], "red": 3, "take_down": [{"seat": 1, "bet": "touchdown"}]}]),
     "throws[0].take_down"),
]

API_CASES = [pytest.param(req, field, id=name) for name, req, field in CASES
             if not isinstance(req, Raw)]
CLI_CASES = [pytest.param(req, field, id=name) for name, req, field in CASES]


def test_the_base_requests_are_valid():
    for name, req in VALID.items():
        resp = settle(copy.deepcopy(req))
        assert len(resp["throws"]) == len(req["throws"]), name


@pytest.mark.parametrize("request_, field", API_CASES)
def test_settle_raises_request_error(request_, field):
    with pytest.raises(RequestError) as info:
        settle(copy.deepcopy(request_))
    err = info.value
    assert field_matches(err.field, field), f"field {err.field!r}, expected {field!r}: {err}"
    assert str(err).startswith(f"{err.field}: "), str(err)


def run_settle(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*SETTLE, *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def assert_rejected(p: subprocess.CompletedProcess, field: str | None) -> None:
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == "", p.stdout
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    if field is not None:
        head = lines[0].split(": ", 1)[0]
        assert field_matches(head, field), f"stderr {lines[0]!r}, expected field {field!r}"


def settle_here(stdin: str, *args: str) -> subprocess.CompletedProcess:
    """`dealer-trainer settle` through the command's entry in this process (trainer.cli.main,
    stdin and stdout redirected): the same answer as the program's, without starting one."""
    rc, out, err = run_cli(["settle", *args], stdin.encode())
    return subprocess.CompletedProcess(["settle", *args], rc, out, err)


#: the cases the program itself is run on: one of each kind (text that is not a request, a
#: game, a bet, an option, a seat, an amount, dice, a throw, a take-down) and of each game
AS_A_PROGRAM = {"bad-json", "not-an-object-list", "unknown-game", "unknown-bet", "unknown-option-pgd",
                "seat-7-high-roll-dice", "amount-nan", "tdf-red-7", "hrd6-10-dice", "no-roll-unknown",
                "take-down-twice"}


@pytest.mark.parametrize("request_, field", CLI_CASES)
def test_command_rejects(request_, field):
    stdin = request_ if isinstance(request_, Raw) else json.dumps(request_)
    assert_rejected(settle_here(stdin), field)


@pytest.mark.parametrize("request_, field", [c for c in CLI_CASES if c.id in AS_A_PROGRAM])
def test_the_program_rejects(request_, field):
    """What the command answers in this process, the program answers in its own: exit 2, one line
    on stderr naming the field, nothing on stdout."""
    stdin = request_ if isinstance(request_, Raw) else json.dumps(request_)
    assert_rejected(run_settle(stdin), field)


def test_command_rejects_empty_stdin():
    assert_rejected(run_settle(""), None)


# --- --jsonl ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad, field", [
    (json.dumps(with_(PH, game="craps")), "game"),
    (json.dumps(with_(PH, throws=[{"dice": [3, 7]}])), "throws[0].dice"),
    (json.dumps(wager(TDF, seat=17)), "wagers[0].seat"),
    ('{"game": "props-and-hops", "wagers": [', "request"),
], ids=["unknown-game", "bad-die", "bad-seat", "bad-json"])
def test_jsonl_answers_every_line(bad, field):
    first, last = PH, with_(TDF, throws=[{"green": [2, 2], "red": 2}])
    stdin = "\n".join([json.dumps(first), bad, json.dumps(last)]) + "\n"
    p = settle_here(stdin, "--jsonl")
    assert "Traceback" not in p.stderr, p.stderr
    out = p.stdout.splitlines()
    assert len(out) == 3, p.stdout
    answers = [json.loads(line) for line in out]
    assert answers[0] == settle(copy.deepcopy(first))
    assert answers[2] == settle(copy.deepcopy(last))
    assert set(answers[1]) == {"error"}, answers[1]
    head = answers[1]["error"].split(": ", 1)[0]
    assert field_matches(head, field), answers[1]
    assert "\n" not in answers[1]["error"]


def test_jsonl_run_in_a_process_that_goes_on_leaves_collection_as_it_was(monkeypatch, unfrozen):
    """--jsonl turns the collection of cycles off and freezes what the imports made while it
    answers (trainer/commands/settle.py); run in a process that goes on (a test worker, the fuzz
    targets), collection is back on and nothing left frozen after it, also when a line stops it.
    The test worker's own frozen heap (tests/support/heap.py) is thawed while this runs."""
    import gc

    assert gc.isenabled() and gc.get_freeze_count() == 0
    p = settle_here(json.dumps(PH) + "\n", "--jsonl")
    assert p.returncode == 0, p.stderr
    assert gc.isenabled() and gc.get_freeze_count() == 0
    monkeypatch.setenv("DEALER_TRAINER_DEBUG", "1")  # an internal error raised, not answered
    monkeypatch.setattr("trainer.settle.settle", lambda request: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        settle_here(json.dumps(PH) + "\n", "--jsonl")
    assert gc.isenabled() and gc.get_freeze_count() == 0
    monkeypatch.undo()
    kept = [object()]  # a caller's own: collection off, some objects frozen
    gc.disable()
    gc.freeze()
    try:
        settle_here(json.dumps(PH) + "\n", "--jsonl")
        assert not gc.isenabled() and gc.get_freeze_count() > 0  # still off, still frozen
    finally:
        gc.unfreeze()
        gc.enable()
    assert kept


def test_jsonl_empty_stdin():
    p = run_settle("", "--jsonl")
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == 0, p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("request_", [
    {"game": ["x"]},
    {"game": "props-and-hops", "wagers": [{"seat": 1, "bet": ["x"], "amount": "5"}]},
    {"game": "props-and-hops", "throws": [{"no_roll": ["x"]}]},
    {"game": "props-and-hops", "throws": [{"dice": [1, 2], "take_down": [{"seat": 1, "bet": {}}]}]},
    {"game": "pai-gow-dice", "options": {"sum_paytable": ["A"]}},
])
def test_values_of_the_wrong_type_are_named_not_crashed_on(request_):
    done = settle_here(json.dumps(request_))
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


WAGER = '{"game": "props-and-hops", "wagers": [{"seat": 1, "bet": "field", "amount": %s}], ' \
        '"throws": [{"dice": [1, 2]}]}'


@pytest.mark.parametrize(("amount", "field", "says"), [
    ("9" * 5000, "request", "more than 4,300 digits"),
    ('"1e999999"', "wagers[0].amount", "larger than the trainer's limit"),
    ("1e999999", "wagers[0].amount", "larger than the trainer's limit"),
    ("1e-999999", "wagers[0].amount", "finer than a cent"),
    # as far below zero as 1e999999 is above it: multiplied by 100, it overflowed (exit 70)
    ('"-1e999999"', "wagers[0].amount", "not a positive amount"),
    ("-1e999999", "wagers[0].amount", "not a positive amount"),
    ('"\\ud800"', "wagers[0].amount", "is not a number of dollars"),
])
def test_extreme_numbers_and_lone_surrogates_are_named_with_exit_2(amount, field, says):
    done = settle_here(WAGER % amount)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(f"{field}: ") and says in done.stderr, done.stderr


def test_a_bad_line_never_stops_the_stream():
    good = WAGER % '"5"'
    lines = [WAGER % '"\\ud800"', "x" * 1_000_050, WAGER % "1e999999", *[good] * 3]
    done = subprocess.run([sys.executable, "-m", "trainer", "settle", "--jsonl"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 6 and done.returncode == 2
    assert [("error" in a) for a in answers] == [True, True, True, False, False, False]
    assert "\\ud800" in answers[0]["error"] and "longer than 1,000,000" in answers[1]["error"]


@pytest.mark.parametrize("encoding", ["utf-8", None])
def test_bytes_that_are_not_utf8_are_named_whatever_the_locale(encoding):
    """Read strictly (PYTHONIOENCODING=utf-8, or a locale other than C.UTF-8), a byte that is not
    UTF-8 stopped the command at exit 70, and with --jsonl every line after it went unanswered.
    JSON is UTF-8: the request that holds one is refused by name, the others answered."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    good = (WAGER % '"5"').encode()
    bad = good.replace(b'"5"', b'"5\xff"')  # a byte no UTF-8 text holds
    done = subprocess.run([*SETTLE], input=bad, capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == b"", done.stderr
    assert done.stderr.decode().startswith("request: not UTF-8 text (at character "), done.stderr
    done = subprocess.run([*SETTLE, "--jsonl"], input=b"\n".join([good, bad, good]) + b"\n",
                          capture_output=True, env=env, cwd=ROOT, timeout=120)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 2 and len(answers) == 3, done.stderr
    assert "error" not in answers[0] and "error" not in answers[2]
    assert answers[1]["error"].startswith("request: not UTF-8 text")


@pytest.mark.parametrize(("key", "field"), [("", '""'), ("a b", '"a b"'), ("\ud800", '"\\ud800"')])
def test_a_key_that_is_no_name_is_still_named(key, field):
    """An unknown key "" gave the message "unknown field" with no field at all."""
    with pytest.raises(RequestError) as refused:
        settle({**PH, key: 1})
    assert str(refused.value) == f"{field}: unknown field"


def test_a_request_larger_than_the_cap_is_refused_by_name():
    done = settle_here(WAGER % ('"5"' + " " * 1_000_000))
    assert done.returncode == 2 and "larger than 1,000,000 characters" in done.stderr


def test_an_amount_read_again_answers_as_it_did_the_first_time():
    """`settle` keeps the cents of each amount text and the text of each number of cents it has
    written (trainer.money `plain_amount`, `fmt`): each text, good or bad, read again after
    the others, in another order, answers as it did the first time, and a float equal to a kept
    number of cents is still refused."""
    from trainer.money import fmt

    amounts = ["5", "\u0665", "0.001", "5.", "1000000.00", "1000000.01", "2.5", "2.50", " 5",
               "0", "00.05", "1" * 11, "3.35"]

    def answer(amount: str) -> object:
        request = copy.deepcopy(PH)
        request["wagers"][0]["amount"] = amount
        try:
            return settle(request)
        except RequestError as e:
            return e.field, e.message

    first = {a: answer(a) for a in amounts}
    assert first["2.5"] == first["2.50"] != first["5"]
    assert isinstance(first["0.001"], tuple) and isinstance(first["1000000.01"], tuple)
    for a in reversed(amounts):
        assert answer(a) == first[a], a
    assert fmt(500) == "5.00" and fmt(-1) == "-0.01"
    with pytest.raises(ValueError):
        fmt(500.0)
