"""The games, by their settle-contract id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainer.errors import RequestError

if TYPE_CHECKING:
    from trainer.games.base import Game

GAME_IDS = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
            "pai-gow-dice")
#: the games' names, for menus that should not load the rules to show them
GAME_NAMES = {"props-and-hops": "Props & Hops", "three-dice-football": "Three Dice Football",
              "high-roll-dice": "High Roll Dice", "high-roll-dice-6": "High Roll Dice (6 dice)",
              "pai-gow-dice": "Pai Gow Poker dice wagers"}


def get(game_id: object, where: str = "game") -> Game:
    """The game with this id, or a RequestError naming the choices."""
    if game_id not in GAME_IDS:
        raise RequestError(where, f"unknown game {game_id!r}; expected one of {', '.join(GAME_IDS)}")
    if game_id == "props-and-hops":
        from trainer.games.props_and_hops import GAME
    elif game_id == "three-dice-football":
        from trainer.games.three_dice_football import GAME
    elif game_id == "high-roll-dice":
        from trainer.games.high_roll_dice import GAME
    elif game_id == "high-roll-dice-6":
        from trainer.games.high_roll_dice import GAME_6 as GAME
    else:
        from trainer.games.pai_gow_dice import GAME
    return GAME
