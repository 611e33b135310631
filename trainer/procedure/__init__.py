"""The dealer's procedure: expected actions as a partial order (model), built from a scenario by
playing it through the rules engine (builder), one module per game for what happens around the
throw, on what they share (steps)."""

from __future__ import annotations

from trainer.procedure.builder import build, game_steps
from trainer.procedure.model import (
    Automation,
    Do,
    Expected,
    Performed,
    Procedure,
    Skill,
)

__all__ = ["Automation", "Do", "Expected", "Performed", "Procedure", "Skill", "build", "game_steps"]
