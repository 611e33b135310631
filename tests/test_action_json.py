"""A logged action is stored as what reading it back gives (trainer.progress.records.action_json):
an action as the app writes it is stored without being read back, and must come out the same,
key for key and in the same order; every other action must be read back and refused as before."""

from __future__ import annotations

import json

import pytest

from tests.support.hostile import Mutator, dumps
from trainer.procedure.model import Do, Performed
from trainer.progress.records import LONGEST, _read_back, action_json

#: one action of each kind, with each of the fields a log carries
ACTIONS = [{"do": do.value, "round": n % 4, "at": 0.25 * n + 0.0004, "seat": n % 7, "bet": "hard-6",
            "amount": 500 + n, "value": "4", "by_trainer": n % 2 == 0} for n, do in enumerate(Do)]
EDGES = [
    {"do": "pay", "round": 1},  # no time: 0
    {"do": "pay", "round": 1, "at": 0}, {"do": "pay", "round": 1, "at": -0.0},
    {"do": "pay", "round": 1, "at": LONGEST}, {"do": "pay", "round": 1, "at": LONGEST + 0.001},
    {"do": "pay", "round": 1, "at": int(LONGEST)}, {"do": "pay", "round": 1, "at": 10**400},
    {"do": "pay", "round": 1, "at": -1e-9}, {"do": "pay", "round": 1, "at": float("nan")},
    {"do": "pay", "round": 1, "at": float("inf")}, {"do": "pay", "round": 1, "at": "2.5"},
    {"do": "pay", "round": 1, "at": True}, {"do": "pay", "round": True}, {"do": "pay", "round": 1.9},
    {"do": "pay", "round": "3"}, {"do": "pay", "round": -2}, {"do": "pay", "round": 10**30},
    {"do": "pay", "round": None}, {"do": "pay"}, {"round": 1}, {"do": "PAY", "round": 1},
    {"do": ["pay"], "round": 1}, {"do": None, "round": 1}, {"do": "pay", "round": 1, "by_trainer": 1},
    {"do": "pay", "round": 1, "by_trainer": None}, {"do": "pay", "round": 1, "by_trainer": False},
    {"do": "pay", "round": 1, "seat": None, "bet": None, "amount": None, "value": None},
    {"do": "pay", "round": 1, "seat": [1], "bet": {"a": 1}, "amount": "five", "value": 0},
    {"do": "pay", "round": 1, "extra": "left out", "by_trainer": True},
    [], "pay", None, 7,
]


def outcome(read, action) -> tuple:
    try:
        out = read(action, "log[3]")
    except ValueError as e:
        return ("refused", str(e))
    return ("stored", repr(out))  # key order and types too: 0 is not 0.0, nor True 1


@pytest.mark.parametrize("action", ACTIONS + EDGES, ids=repr)
def test_an_action_is_stored_as_reading_it_back_stores_it(action):
    assert outcome(action_json, action) == outcome(_read_back, action)


def test_hostile_actions_are_stored_or_refused_as_reading_them_back_does():
    """2,000 actions broken by the hostile-input mutator (types swapped, numbers out of range,
    keys written twice or left out), read as JSON as a file or a class server gives them."""
    mutator, compared = Mutator(28), 0
    for n in range(2000):
        try:
            action = json.loads(dumps(mutator.json_doc(ACTIONS[n % len(ACTIONS)])))
        except (ValueError, RecursionError):  # no JSON reader gives it
            continue
        assert outcome(action_json, action) == outcome(_read_back, action), action
        compared += 1
    assert compared > 1500


def test_a_performed_action_is_its_own_json():
    p = Performed(Do.PAY, 2, seat=3, bet="any-7", amount=400, at=1.23456, by_trainer=True)
    assert action_json(p) == p.to_json() == {"do": "pay", "round": 2, "at": 1.235, "seat": 3,
                                            "bet": "any-7", "amount": 400, "by_trainer": True}
