"""The games, by the id the settle contract knows them by (docs/settle.md)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
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


#: where each game is described: (its module, the descriptor there); a game's module is imported
#: when the game is first asked for, so that settling one game loads only that game
MODULES = {"props-and-hops": ("trainer.games.props_and_hops", "GAME"),
           "three-dice-football": ("trainer.games.three_dice_football", "GAME"),
           "high-roll-dice": ("trainer.games.high_roll_dice", "GAME"),
           "high-roll-dice-6": ("trainer.games.high_roll_dice", "GAME_6"),
           "pai-gow-dice": ("trainer.games.pai_gow_dice", "GAME")}


def get(game_id: object, where: str = "game") -> Game:
    """The game with this id, or a RequestError naming the choices."""
    if game_id not in GAME_IDS:
        raise RequestError(where, f"unknown game {game_id!r}; expected one of {', '.join(GAME_IDS)}")
    return _loaded(game_id)


@cache
def _loaded(game_id: str) -> Game:
    """A game's descriptor, its module imported the first time (an id of GAME_IDS only)."""
    module, name = MODULES[game_id]
    return getattr(import_module(module), name)


@cache
def bet_names() -> dict[str, str]:
    """Every bet's name by its id, as the layouts print it (a Pai Gow bet without the paytable
    its name carries: the same bet on every paytable). For words shown to people, never ids."""
    names: dict[str, str] = {}
    for game_id in GAME_IDS:
        game = get(game_id)
        for bet_id, bet in game.catalogue(game.parse_options({})).items():
            names.setdefault(bet_id, bet.name.split(" (paytable")[0])
    return names


def bet_name(bet: str | None) -> str:
    """A bet as people read it: its name on the layout, never its id ("" for no bet)."""
    return bet_names().get(bet, bet) if bet is not None else ""
