"""The answer key never disagrees with `settle`, so that a dealer graded by it can be certified.

Every bundled scenario, and hundreds of seeded random rounds per game and difficulty, is turned
into a settle request (../shared/spec/settle-contract.md) and answered by `settle`. The key's
wagers refused by the rules must be exactly settle's `refused`, and the key's collections and
payments of each throw exactly settle's lines for that throw. Offers refused for how they were
made (cash, not seated, late by the scenario's word) are the dealer's call, not the engine's,
so they are left out of the request and of the comparison.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.paths import ROOT
from trainer.drills import DEALER, _random_round, random_round
from trainer.money import fmt
from trainer.procedure import Do, Procedure, build
from trainer.scenario import Scenario, load
from trainer.settle import settle

GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
         "pai-gow-dice")
BUNDLED = sorted((ROOT / "scenarios").glob("*/*.toml"))
ROUNDS_PER_DIFFICULTY = 100  # 500 random rounds per game


def improper(offer) -> bool:
    return offer.cash or not offer.seated or offer.late


def request_of(s: Scenario) -> dict | None:
    """The scenario as a settle request; None when a throw's offers come before its take-downs
    in the file (a request puts take-downs first, so the two could rightly differ)."""
    req: dict = {"game": s.game, "options": plain(s.options), "wagers": [], "throws": []}
    wagers = [o for o in s.wagers if not improper(o)]
    req["wagers"] = [{"seat": o.seat, "bet": o.bet, "amount": fmt(o.amount)} for o in wagers]
    pending: dict = {}
    for e in s.events:
        if e.type == "wager":
            if not improper(e.offer):
                pending.setdefault("wagers", []).append(
                    {"seat": e.offer.seat, "bet": e.offer.bet, "amount": fmt(e.offer.amount)})
        elif e.type == "take-down":
            if pending.get("wagers"):
                return None
            pending.setdefault("take_down", []).append({"seat": e.seat, "bet": e.bet})
        elif e.type != "reject-dice":
            req["throws"].append({**e.throw, **pending})
            pending = {}
    return req


def plain(options):
    """Parsed options back as JSON (hop regions are read into sets)."""
    if isinstance(options, dict):
        return {k: plain(v) for k, v in options.items()}
    return sorted(options) if isinstance(options, frozenset | set) else options


def key_of(s: Scenario, proc: Procedure | None = None) -> tuple[Counter, list[Counter]]:
    """The key's refusals and each throw's lines, from `proc` (build(s), made here if not given)."""
    proc = build(s) if proc is None else proc
    made_wrong = {(o.seat, o.bet, o.amount) for o in
                  [*s.wagers, *(e.offer for e in s.events if e.offer)] if improper(o)}
    refused: Counter = Counter()
    lines: list[Counter] = [Counter() for _ in range(len(proc.throws) + 1)]
    for _, a in proc.actions():
        if a.do is Do.REFUSE and (a.seat, a.bet, a.amount) not in made_wrong:
            refused[(a.seat, a.bet, fmt(a.amount))] += 1
        elif a.do in (Do.COLLECT, Do.PAY):
            # an Extra Roll purchase is collected at "no more bets" (§ 675a.4(a)), before the
            # throw; settle lists it with the first valid throw: compare it over the round
            at = 0 if a.bet == "extra-roll" else a.throw
            lines[at][(a.do.value, a.seat, a.bet, fmt(a.amount))] += 1
    return refused, lines


def answer_of(response: dict) -> tuple[Counter, list[Counter]]:
    refused = Counter((r["seat"], r["bet"], r["amount"]) for r in response["refused"])
    lines: list[Counter] = [Counter()]  # [0]: Extra Roll purchases, whichever throw has them
    for throw in response["throws"]:
        found: Counter = Counter()
        for step in throw["steps"]:
            for line in step.get("lines", []):
                money = line["amount"] if step["action"] == "collect" else line["payout"]
                at = lines[0] if line["bet"] == "extra-roll" else found
                at[(step["action"], line["seat"], line["bet"], money)] += 1
        lines.append(found)
    return refused, lines


def assert_agrees(s: Scenario, proc: Procedure | None = None) -> bool:
    req = request_of(s)
    if req is None:
        return False
    key_refused, key_lines = key_of(s, proc)
    refused, lines = answer_of(settle(req))
    assert key_refused == refused, f"{s.id}: key refuses {key_refused}, settle {refused}"
    assert len(key_lines) == len(lines)
    for n, (mine, theirs) in enumerate(zip(key_lines, lines, strict=True), start=1):
        assert mine == theirs, f"{s.id} throw {n}: key {sorted(mine)} vs settle {sorted(theirs)}"
    return True


@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.stem}" for p in BUNDLED])
def test_every_bundled_scenario(path):
    s = load(path)
    if not assert_agrees(s):
        pytest.skip("an offer before a take-down in one throw: the file's order is the key's")


@pytest.mark.parametrize("game", GAMES)
def test_random_rounds(game):
    compared = rebuilt = 0
    for difficulty in range(1, 6):
        for seed in range(ROUNDS_PER_DIFFICULTY):
            # the round as random_round deals it, with the procedure the deal built (build(s)
            # of the same round, which the deal builds to count the trainee's actions)
            compared += assert_agrees(*_random_round(game, difficulty, seed, None, DEALER))
            if seed % 25 == 0:  # and, for some, the key built again from the scenario alone, so
                rebuilt += assert_agrees(random_round(game, difficulty, seed))  # drift shows
    assert compared >= 4 * ROUNDS_PER_DIFFICULTY
    assert rebuilt >= 4 * ROUNDS_PER_DIFFICULTY // 25


def test_the_wager_rules_scenario_keys_its_refusals():
    """High Roll Dice: wagers refused at "no more bets" are keyed Refuse (they were keyed Accept
    when refusals were matched by object identity)."""
    s = load(ROOT / "scenarios" / "high-roll-dice" / "05-wager-rules.toml")
    keyed = [a for _, a in build(s).actions() if a.do is Do.REFUSE]
    assert len(keyed) >= 6
    assert {(a.seat, a.bet) for a in keyed} >= {
        (r["seat"], r["bet"]) for r in settle(request_of(s))["refused"]}
