"""Dealer versions: a drill's id names the dealer that dealt it, so that a results file's round
is dealt again exactly, whatever later dealers add."""

from __future__ import annotations

import pytest

from tests.dealing_support import digest
from trainer.games import GAME_IDS

#: tests/dealing_support.py's digests of 454 rounds per game (400 practice rounds, 80 per
#: difficulty; 44 aimed at a skill; 10 payout drills), made from the dealing code before dealer
#: versions; its docstring says how they were made and how to make them again
DEALER_1_DIGESTS = {
    "props-and-hops": "d90d1ee25cc00d86a675ff859345d96ebf6f72a8b5d9e41241d45688f2474dee",
    "three-dice-football": "7f79dc36685dac6ab758fd46b7fbc2c5903419b455e7ce2f4b9ee63050941b32",
    "high-roll-dice": "a6fa09ac02d54414af6302b18209e1af0e2d676019ae836755f3ae9a8b622b65",
    "high-roll-dice-6": "b65568d4b717278dcc31cb8412f99e2a4203a736c1ca7f5a47c7d0acc8654b93",
    "pai-gow-dice": "b4df1511b7ef8128923864100a4d243254531ce53c5c48c7c7824efa4be1fc91",
}


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_id_without_a_version_deals_as_it_always_did(game):
    assert digest(game, dealer=1) == DEALER_1_DIGESTS[game]
