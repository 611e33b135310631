"""Citations: every rule, line and finding names the section of 58 Pa. Code behind it."""

from trainer.readings import BY_ID

CODE = "58 Pa. Code"


def cite(section: str) -> str:
    """cite("668a.3(g)") -> "58 Pa. Code § 668a.3(g)"."""
    return f"{CODE} § {section}"


READING = "Dealer Trainer reading"


def reading(reading_id: str) -> str:
    """A citation of one of the engine's readings (trainer.readings), for rules the text leaves open."""
    return f"{READING} '{reading_id}'"


def is_citation(text: str) -> bool:
    """True for "58 Pa. Code § ..." or a reading that exists, alone or joined by "; "."""
    for part in text.split("; "):
        if part.startswith(f"{CODE} § "):
            continue
        if not (part.startswith(f"{READING} '") and part.endswith("'")
                and part[len(READING) + 2:-1] in BY_ID):
            return False
    return bool(text)
