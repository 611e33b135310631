"""Dealer versions: a drill's id names the dealer that dealt it, so that a results file's round
is dealt again exactly, whatever later dealers add. Dealer 2 adds the die cocked on chips and
the lost die to the irregular throws, in the games whose regulation has them."""

from __future__ import annotations

import io
import random
from collections import Counter
from functools import cache

import pytest

from tests.support.dealing import canonical, digest
from trainer import games
from trainer.drills import DEALER, DEALERS, UnknownRound, deal_again, payout_drill, random_round, rebuild
from trainer.games import GAME_IDS
from trainer.games.base import Bet
from trainer.practice import PracticeRound

#: tests/support/dealing.py's digests of 454 rounds per game (400 practice rounds, 80 per
#: difficulty; 44 aimed at a skill; 10 payout drills), made from the dealing code before dealer
#: versions (commit d149502); its docstring says how they were made and how to make them again
DEALER_1_DIGESTS = {
    "props-and-hops": "d90d1ee25cc00d86a675ff859345d96ebf6f72a8b5d9e41241d45688f2474dee",
    "three-dice-football": "7f79dc36685dac6ab758fd46b7fbc2c5903419b455e7ce2f4b9ee63050941b32",
    "high-roll-dice": "a6fa09ac02d54414af6302b18209e1af0e2d676019ae836755f3ae9a8b622b65",
    "high-roll-dice-6": "b65568d4b717278dcc31cb8412f99e2a4203a736c1ca7f5a47c7d0acc8654b93",
    "pai-gow-dice": "b4df1511b7ef8128923864100a4d243254531ce53c5c48c7c7824efa4be1fc91",
}
#: the same rounds by dealer 2 (commit 3a5b315, `digest(game, dealer=2)`): what a "v2" id deals
#: must never change either; new dealing is a new version
DEALER_2_DIGESTS = {
    "props-and-hops": "ab98c5ff554bc9e069cc9d990265ae42ede429418f51e497770a2ff72f153fe5",
    "three-dice-football": "939789b6c8160667e9b1eae627f083b61916b734840143498f977b8c4dac4b69",
    "high-roll-dice": "94f7590480d95957a7f28e13fdab435b979fefae704c85e7ba0dc77f291dc79a",
    "high-roll-dice-6": "c02a404579710c847ea4e82d044e5a5be017e01bbda610d450fbd086f9212233",
    "pai-gow-dice": "f5a3232207ef8963fa36854c9758dc07fc281442f31a8927631c10df0c9cb92a",
}

ROUNDS = 2000
#: the regulation's word on each: a die cocked on chips is read (§ 577.5(f), § 675a.4(c)); a lost
#: die brings a new set of dice (§ 577.4(d)); a closed shaker (§ 668a.3, § 645c.2) has neither
COCKED_IN = {"three-dice-football", "high-roll-dice", "high-roll-dice-6"}
LOST_IN = {"three-dice-football"}
#: how many of each dealer 2 deals in the 2,000 rounds (difficulty 1 to 5 in turn): fixed, as
#: every dealt round is
COUNTS = {
    "props-and-hops": (0, 0),
    "three-dice-football": (107, 93),
    "high-roll-dice": (77, 0),
    "high-roll-dice-6": (92, 0),
    "pai-gow-dice": (0, 0),
}


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_id_without_a_version_deals_as_it_always_did(game):
    assert digest(game, dealer=1) == DEALER_1_DIGESTS[game]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_v2_id_deals_as_it_did_when_dealer_2_came_in(game):
    assert digest(game, dealer=2) == DEALER_2_DIGESTS[game]


def test_new_rounds_name_their_dealer_and_old_ids_are_dealt_by_dealer_1():
    assert DEALER == 2
    new = random_round("three-dice-football", 3, 11)
    assert new.id == "drill-v2-three-dice-football-3-11"
    assert payout_drill("pai-gow-dice", 4).id == "payout-drill-v2-pai-gow-dice-4"
    old = random_round("three-dice-football", 3, 11, dealer=1)
    assert old.id == "drill-three-dice-football-3-11"
    for s in (new, old, payout_drill("three-dice-football", 2, dealer=1)):
        again = rebuild(s.id)
        assert (again.id, again.wagers, again.events, again.players) == (
            s.id, s.wagers, s.events, s.players)


#: the modules that hold a game's catalogue as CATALOGUE
READ_BY_NAME = {
    "props-and-hops": ("trainer.games.props_and_hops", "trainer.procedure.props_and_hops"),
    "three-dice-football": ("trainer.games.three_dice_football", "trainer.procedure.three_dice_football"),
}


def some_rounds(game: str) -> list[str]:
    """A few rounds of every difficulty and a few payout drills, by dealers 1 and 2, as text."""
    return [canonical(s) for dealer in DEALERS
            for s in [*(random_round(game, d, seed, dealer=dealer) for d in range(1, 6) for seed in range(4)),
                      *(payout_drill(game, seed, dealer=dealer) for seed in range(3))]]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_wager_added_to_a_game_is_dealt_by_no_dealer_there_is(game, monkeypatch):
    """A new wager in a game's catalogue (made up here, like its first bet and first in it, where
    it would shift every draw) changes no round an existing id deals: the dealers draw from their own frozen
    lists of bets (trainer.procedure.dealing.DEALT), whatever the catalogue holds."""
    before = some_rounds(game)
    g = games.get(game)
    own = dict(g.catalogue(g.parse_options({})))
    first = next(iter(own.values()))  # the new one is of its kind, and its id of its family
    new = f"{first.id}-made-up"
    made_up = {new: Bet(new, "Made Up", first.cite, "Never.", first.pays, first.kind), **own}
    monkeypatch.setattr(g, "catalogue", lambda options=None: made_up)
    for module in READ_BY_NAME.get(game, ()):  # where a dealer could read the catalogue by name
        monkeypatch.setattr(f"{module}.CATALOGUE", made_up, raising=False)
    assert some_rounds(game) == before


@cache
def dealt(game: str) -> tuple:
    return tuple(random_round(game, 1 + k % 5, f"irregular-{k}") for k in range(ROUNDS))


#: the two tests of a game that read its dealt rounds run in one worker of a parallel run, so the
#: 2,000 rounds are dealt once
DEALT = [pytest.param(game, marks=pytest.mark.xdist_group(f"dealt-{game}")) for game in GAME_IDS]


@pytest.mark.parametrize("game", DEALT)
def test_dealer_2_deals_cocked_and_lost_dice_where_the_game_has_them(game):
    g = games.get(game)
    assert (g.cocked_dice, "lost-die" in g.events) == (game in COCKED_IN, game in LOST_IN)
    cocked = [e for s in dealt(game) for e in s.events if e.cocked is not None]
    lost = [e for s in dealt(game) for e in s.events if e.type == "lost-die"]
    assert (len(cocked), len(lost)) == COUNTS[game]
    assert (bool(cocked), bool(lost)) == (game in COCKED_IN, game in LOST_IN)
    assert all(e.type == "throw" and 0 <= e.cocked < g.dice for e in cocked)
    assert {e.cocked for e in cocked} == (set(range(g.dice)) if cocked else set())
    assert all(e.throw == {"no_roll": "die-off-table"} for e in lost)
    # at the other irregularities' rate: none at difficulty 1, more as it rises
    by_difficulty = Counter(s.difficulty for s in dealt(game)
                            for e in s.events if e.cocked is not None or e.type == "lost-die")
    assert by_difficulty[1] == 0
    assert not cocked or by_difficulty[5] > by_difficulty[2]


def play(scenario, mistakes: random.Random | None = None) -> PracticeRound:
    """Every step the trainee is due, done right (or, with `mistakes`, now and then a payout a
    quarter off), to the end of the round."""
    round_ = PracticeRound(scenario)
    for _ in range(2000):
        if round_.finished:
            return round_
        e = round_.next_expected()
        assert e is not None, f"{scenario.id}: not finished, yet nothing is due"
        off = 25 if mistakes and e.amount and mistakes.random() < 0.2 else 0
        round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount and e.amount + off,
                       value=e.value)
    raise AssertionError(f"{scenario.id}: still not finished")


@pytest.mark.parametrize("game", DEALT)
def test_dealer_2_rounds_play_to_the_end(game):
    """Every one of the 2,000 rounds with a cocked or lost die, and every 10th of the others,
    worked right through the engine, scores 100."""
    for k, s in enumerate(dealt(game)):
        if k % 10 and not any(e.cocked is not None or e.type == "lost-die" for e in s.events):
            continue
        result = play(s).finish()
        assert (result.score.total, result.findings) == (100, []), s.id


def test_an_unknown_version_is_named_not_a_traceback():
    with pytest.raises(UnknownRound, match=r"drill-v9-props-and-hops-3-7: dealer version v9 is "
                                           r"not one this trainer deals \(it deals v1 and v2\)"):
        deal_again("drill-v9-props-and-hops-3-7")
    with pytest.raises(UnknownRound, match="dealer version v9"):
        random_round("props-and-hops", 3, 7, dealer=9)
    assert rebuild("drill-v9-props-and-hops-3-7") is None
    assert rebuild("payout-drill-v0-pai-gow-dice-1") is None
    with pytest.raises(UnknownRound, match="not as this trainer writes it"):
        deal_again("drill-v1-props-and-hops-3-7")  # dealer 1's ids have no version
    with pytest.raises(UnknownRound, match="'x' is not a difficulty"):
        deal_again("drill-v2-props-and-hops-x-7")


def test_an_old_results_file_imports_with_the_same_scores_and_an_unknown_version_is_left_out(
        tmp_path):
    """Rounds dealt before versions (ids with none), played with mistakes and exported, are
    dealt again by dealer 1 on import and graded to the same scores; an attempt whose id names a
    dealer this trainer does not have is left out, named, and the rest import."""
    import json

    from trainer.progress import Store, export_results, import_results
    from trainer.progress.records import attempt_of

    rng = random.Random(13)
    made = []
    for n in range(10):
        game = GAME_IDS[n % len(GAME_IDS)]
        s = random_round(game, 2 + n % 4, f"old-{n}", dealer=1)
        assert s.id.startswith(f"drill-{game}-")
        round_ = play(s, mistakes=rng)
        made.append(attempt_of(round_, round_.finish(), trainee_id=1, ended=1_790_000_000.0 + n))
    assert any(a.total < 100 for a in made)
    with Store.open(tmp_path / "station.db") as station:
        station.add_trainee("Ana")
        for a in made:
            station.record_attempt(a)
        buf = io.StringIO()
        export_results(station, buf)
    doc = json.loads(buf.getvalue())
    doc["attempts"][3]["seed"] = doc["attempts"][3]["seed"].replace("drill-", "drill-v9-")
    with Store.open(tmp_path / "desk.db") as desk:
        summary = import_results(desk, io.StringIO(json.dumps(doc)))
        assert (summary.added, summary.rescored) == (9, 0)
        assert len(summary.left_out) == 1 and "drill-v9-" in summary.left_out[0]
        there = {a.uid: a for a in desk.attempts()}
    for a in made:
        if a.uid in there:
            b = there[a.uid]
            assert (b.procedure, b.payouts, b.speed, b.total, b.passed, b.critical) == (
                a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical), a.seed
