"""The fault catalogue of supervised rounds (trainer.supervise.catalogue) against the grader.

Every fault type is put, alone, into rounds of its game (every bundled scenario and dealt rounds
at difficulties 1, 3 and 5), at up to SITES places a round; the grader then judges the faulty log
and must report exactly that fault: every finding is of the fault's own step, and one of them is
of the kind, the severity and a section the catalogue says. Every type must go in somewhere.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.paths import ROOT
from trainer.drills import random_round
from trainer.policy import Severity
from trainer.scenario import load
from trainer.supervise.catalogue import CATALOGUE, FaultClass, of_game
from trainer.supervise.rounds import inject, setting

GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
         "pai-gow-dice")
SITES = 2  # per fault type and round
DEALT = 3  # per game and difficulty


def rounds_of(game: str):
    out = [load(p) for p in sorted((ROOT / "scenarios" / game).glob("*.toml"))]
    for difficulty in (1, 3, 5):
        out += [random_round(game, difficulty, f"supervise:{n}") for n in range(DEALT)]
    return out


def test_the_catalogue_has_forty_types_six_a_game_and_every_class():
    assert len(CATALOGUE) >= 40
    for game in GAMES:
        mine = of_game(game)
        assert len(mine) >= 6, game
    assert {t.fault_class for t in CATALOGUE.values()} == set(FaultClass)
    for t in CATALOGUE.values():
        assert t.sections and all(s.startswith("58 Pa. Code § ") for s in t.sections), t.id
        assert t.words and t.should, t.id
        # money and security faults are the policy's critical ones, calls, records and orders major,
        # except a no roll called valid, which is a call (the issue files it under security)
        if t.fault_class is FaultClass.MONEY:
            assert t.severity is Severity.CRITICAL, t.id
        if t.fault_class in (FaultClass.CALLS, FaultClass.RECORDS, FaultClass.ORDER):
            assert t.severity is Severity.MAJOR, t.id


@pytest.mark.parametrize("game", GAMES)
def test_the_grader_reports_exactly_each_fault_the_catalogue_puts_in(game):
    tried: Counter = Counter()
    wrong: list[str] = []
    for s in rounds_of(game):
        rnd = setting(s)
        assert not inject(rnd, [], "none", 1.0).graded().findings, s.id  # the correct dealer
        for kind in of_game(game):
            for site in kind.sites(rnd)[:SITES]:
                faulty = inject(rnd, [(kind, site)], "one", 1.0)
                fault = faulty.faults[0]
                found = faulty.graded().findings
                mine = [f for f in found if fault.concerns(f)]
                tried[kind.id] += 1
                if len(mine) != len(found) or not any(
                        f.kind is kind.finding and f.severity is kind.severity
                        and any(section in f.cite for section in kind.sections) for f in mine):
                    wrong.append(f"{kind.id} at {site.id(rnd)} of {s.id}: "
                                 f"{[(f.kind.value, f.severity.value, f.cite) for f in found]}")
    never = [k.id for k in of_game(game) if not tried[k.id]]
    assert not never, f"fault types no round of {game} had a place for: {never}"
    assert not wrong, "\n".join(wrong[:5])
