"""The dealer's procedure: expected actions as a partial order (model), built from a scenario by
playing it through the rules engine (build), one module per game for what happens around the
throw."""

from __future__ import annotations

from trainer.procedure.model import (
    Automation,
    Do,
    Expected,
    Performed,
    Procedure,
    Skill,
)

__all__ = ["Automation", "Do", "Expected", "Performed", "Procedure", "Skill", "build", "game_steps"]


def build(scenario) -> Procedure:
    """The expected procedure of a scenario (see trainer.procedure.builder)."""
    from trainer.procedure.builder import build as _build

    return _build(scenario)


def game_steps(game_id: str):
    """The game's own steps around each throw."""
    if game_id == "props-and-hops":
        from trainer.procedure.props_and_hops import PropsAndHopsSteps
        return PropsAndHopsSteps()
    if game_id == "three-dice-football":
        from trainer.procedure.three_dice_football import ThreeDiceFootballSteps
        return ThreeDiceFootballSteps()
    if game_id.startswith("high-roll-dice"):
        from trainer.procedure.high_roll_dice import HighRollDiceSteps
        return HighRollDiceSteps(six=game_id.endswith("-6"))
    from trainer.procedure.pai_gow_dice import PaiGowDiceSteps
    return PaiGowDiceSteps()
