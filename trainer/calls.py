"""What a dealer may call: the right call of a throw and plausible wrong ones, for the announce
choices of the practice screen. The right call is the engine's own (ThrowReport.call)."""

from __future__ import annotations

import random

from trainer import games
from trainer.procedure.model import RoundView


def _variants(dice: tuple[int, ...], rng: random.Random) -> list[tuple[int, ...]]:
    out = []
    for i in range(len(dice)):
        for delta in (-1, 1, 2, -2):
            face = dice[i] + delta
            if 1 <= face <= 6:
                out.append((*dice[:i], face, *dice[i + 1:]))
    rng.shuffle(out)
    return out


def dice_of(game: str, throw: dict) -> tuple[int, ...]:
    """The dice of a throw in the settle contract's form, in the game's order (Three Dice
    Football: green, green, red; Pai Gow: red, blue, blue)."""
    return games.get(game).dice_of(throw)


def call_of(game: str, dice: tuple[int, ...]) -> str:
    """The call of a first throw with these dice (in the game's order)."""
    return games.get(game).call_of(dice)


def choices(game: str, view: RoundView, n: int = 4, seed: int = 0) -> list[str]:
    """The right call of a round's throw among n - 1 wrong ones, in a fixed order."""
    rng = random.Random(f"{game}:{view.round}:{seed}")
    right = view.call
    result = view.result
    pool: list[str] = []
    if result.get("extra_point"):
        from trainer.games.three_dice_football import extra_point_result
        for d in _variants((*result["green"], result["red"]), rng):
            pool.append(f"Extra point roll {d[0]}-{d[1]}-{d[2]}: "
                        + (extra_point_result(d) or "no good"))
    elif result.get("extra_roll"):
        from trainer.games.high_roll_dice import FACE_WORDS
        face = {"ace": 1}.get(result["face"]) or int(result["face"])
        held, rethrown = result["count"] - result["matched"], len(result["dice"])
        for m in range(0, min(5, rethrown + 1)):
            total = held + m
            word = FACE_WORDS[face][0 if m == 1 else 1]
            pool.append(f"{m or 'No'} more {word}: {total} of a kind")
    elif not view.valid:  # a no roll: every call offered is wrong, as announcing it would be
        from trainer.games import get

        right = ""
        pool = [call_of(game, tuple(rng.randint(1, 6) for _ in range(get(game).dice)))
                for _ in range(12)]
    else:
        pool = [call_of(game, d) for d in _variants(dice_of(game, view.event.throw), rng)]
    wrong = [c for c in dict.fromkeys(pool) if c != right][: n - 1 if right else n]
    out = [right, *wrong] if right else wrong
    rng.shuffle(out)
    return out


def down_choices(view: RoundView, seed: int = 0) -> list[str]:
    """The right down-and-distance call after a play, among plausible wrong ones."""
    from trainer.games.three_dice_football import DOWNS, GOAL_DOWNS

    right = f"{view.result['next_down']} on the {view.result['yard_line']}"
    rng = random.Random(f"down:{view.round}:{seed}")
    yard = view.result["yard_line"]
    pool = [f"{d} on the {y}" for d in (*DOWNS, *GOAL_DOWNS) for y in (yard - 1, yard, yard + 1)
            if y > 0]
    wrong = [c for c in pool if c != right]
    rng.shuffle(wrong)
    out = [right, *wrong[:3]]
    rng.shuffle(out)
    return out
