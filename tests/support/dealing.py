"""A fixed set of dealt rounds as canonical text, and one digest of them per game: how
tests/test_dealer_versions.py shows that an id without a dealer version (every results file,
exam and test written before versions) still deals exactly the round it always dealt.

Only the trainer's public dealing is called (`random_round`, `payout_drill`), with `deal`'s
keywords (none for the code before versions; `dealer=1` after), so this file runs unchanged
against older code. The digests committed in the test were made from the dealing code before
dealer versions (commit d149502), in a separate worktree, so that nothing in the working tree
is touched:

    git worktree add /tmp/dealer-v1 d149502
    PYTHONHASHSEED=0 PYTHONPATH=/tmp/dealer-v1 .venv/bin/python tests/support/dealing.py
    git worktree remove /tmp/dealer-v1

It prints the trainer it dealt with (check that it is the worktree's) and one digest per game.
The text is the round as dealt (id, wagers, events, players, options, automation, target), not
its wording (title, briefing), so rewording a briefing does not change a digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from trainer.drills import payout_drill, random_round
from trainer.games import GAME_IDS
from trainer.vocabulary import Skill

SEEDS = 80  # plain rounds per difficulty
SKILL_SEEDS = 4  # rounds per drilled skill, at difficulty 3
PAYOUT_SEEDS = 10
#: the skills a drill could aim at when versions came in (fixed, so a new skill changes nothing)
SKILLS = ("payouts", "collecting", "six-eight-shake", "markers", "end-of-game", "extra-roll",
          "calls", "no-roll", "wagers", "no-more-bets", "shaker")


def rounds(game: str, **deal) -> Iterator:
    """The rounds of the set, for one game."""
    for difficulty in range(1, 6):
        for seed in range(SEEDS):
            yield random_round(game, difficulty, seed, **deal)
    for skill in SKILLS:
        for seed in range(SKILL_SEEDS):
            yield random_round(game, 3, seed, Skill(skill), **deal)
    for seed in range(PAYOUT_SEEDS):
        yield payout_drill(game, seed, **deal)


def _offer(o) -> list | None:
    return None if o is None else [o.seat, o.bet, o.amount, o.cash, o.seated, o.late, o.where]


def canonical(s) -> str:
    """One round as one line of text: everything dealt, nothing worded."""
    return json.dumps(
        [s.id, s.game, s.difficulty, [k.value for k in s.skills], s.target_seconds,
         s.automation.value, s.options, sorted(s.players.items()), s.shooter,
         [_offer(w) for w in s.wagers],
         [[e.type, e.where, e.throw, e.cocked, e.seat, e.bet, _offer(e.offer)] for e in s.events]],
        sort_keys=True, default=_plain)


def _plain(value) -> object:
    """A value JSON has no form for (a set of hop combinations): sorted, so that it reads the
    same whatever the interpreter's hash seed."""
    return sorted(value) if isinstance(value, set | frozenset) else str(value)


def digest(game: str, **deal) -> str:
    lines = "\n".join(canonical(s) for s in rounds(game, **deal))
    return hashlib.sha256(lines.encode()).hexdigest()


if __name__ == "__main__":
    import trainer

    print("dealt with", trainer.__file__)
    for game in GAME_IDS:
        print(f"{game!r}: {digest(game)!r},")
