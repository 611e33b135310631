"""Table views: one per game, drawn with QGraphicsScene from layout data in resources/layouts."""

from __future__ import annotations

from importlib import import_module

#: each game's view, by game id (module, class): the registry of table views, imported when a
#: game's table is first shown
VIEWS = {
    "props-and-hops": ("ui.table.props_and_hops", "PropsAndHopsView"),
    "three-dice-football": ("ui.table.football", "FootballView"),
    "high-roll-dice": ("ui.table.high_roll", "HighRollView"),
    "high-roll-dice-6": ("ui.table.high_roll", "HighRollView"),
    "pai-gow-dice": ("ui.table.pai_gow", "PaiGowView"),
}


def view_class(game_id: str):
    module, name = VIEWS[game_id]
    return getattr(import_module(module), name)


def table_view(game_id: str, options: dict | None = None, parent=None):
    """The view that draws a game's table."""
    return view_class(game_id)(game_id, options or {}, parent)


def game_actions(game_id: str):
    """A game's dealer actions in round order, each with its key: (Do, key) pairs."""
    return view_class(game_id).actions_for(game_id)
