"""Citations: every rule, line and finding names the section of 58 Pa. Code behind it."""

CODE = "58 Pa. Code"


def cite(section: str) -> str:
    """cite("668a.3(g)") -> "58 Pa. Code § 668a.3(g)"."""
    return f"{CODE} § {section}"


def reading(reading_id: str) -> str:
    """A citation of one of the engine's readings (trainer.readings), for rules the text leaves open."""
    return f"Dealer Trainer reading '{reading_id}'"
