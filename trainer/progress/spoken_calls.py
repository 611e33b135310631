"""Call speed in the progress file (migration m026_call_speeds): the seconds from the dice at
rest to the end of each call a trainee made aloud, kept with the attempt by its uid; and the
trainee's call speed per game (the median, the count and the last), for the Progress screen."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass

from trainer.progress.store import Store

#: the longest call speed kept, in seconds (the table's CHECK): a call an hour late is no call
LONGEST = 3600.0


def record_call_speeds(store: Store, trainee_id: int, attempt_uid: str, game: str,
                       speeds: Iterable[tuple[int, float]], at: float | None = None) -> int:
    """Append an attempt's call speeds, (throw, seconds) each, in one transaction; how many.
    ValueError names a speed that is not a number of seconds from 0 to LONGEST."""
    rows = []
    for n, (throw, seconds) in enumerate(speeds):
        if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                or not math.isfinite(seconds) or not 0 <= seconds <= LONGEST):
            raise ValueError(f"call speed {n}: {seconds!r} is not a number of seconds from 0 to "
                             f"{LONGEST:.0f}")
        rows.append((attempt_uid, n, trainee_id, game, int(throw), float(seconds),
                     time.time() if at is None else at))
    if not rows:
        return 0
    with store.write() as db:
        for row in rows:
            db.execute("INSERT INTO call_speeds (attempt_uid, n, trainee_id, game, throw, seconds,"
                       " at) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
    return len(rows)


@dataclass(frozen=True)
class CallSpeed:
    """A trainee's call speed in one game: the median of every call made aloud, their count, and
    the last one's seconds."""

    game: str
    median: float
    calls: int
    last: float


def call_speeds(store: Store, trainee_id: int) -> list[CallSpeed]:
    """The trainee's call speed per game, the games in the order of their last call."""
    by_game: dict[str, list[float]] = {}
    for r in store.query("SELECT game, seconds FROM call_speeds WHERE trainee_id = ?"
                         " ORDER BY at, attempt_uid, n", (trainee_id,)):
        by_game.setdefault(r["game"], []).append(float(r["seconds"]))
    out = [CallSpeed(g, statistics.median(s), len(s), s[-1]) for g, s in by_game.items()]
    return out
