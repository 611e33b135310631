"""Table views: one per game, drawn with QGraphicsScene from layout data in resources/layouts."""

from __future__ import annotations


def table_view(game_id: str, options: dict | None = None, parent=None):
    """The view that draws a game's table."""
    if game_id == "props-and-hops":
        from ui.table.props_and_hops import PropsAndHopsView as View
    elif game_id == "three-dice-football":
        from ui.table.football import FootballView as View
    elif game_id.startswith("high-roll-dice"):
        from ui.table.high_roll import HighRollView as View
    else:
        from ui.table.pai_gow import PaiGowView as View
    return View(game_id, options or {}, parent)
