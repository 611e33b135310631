"""The class's catch rates: each trainee's supervised rounds (migration s037), per fault class
and per game, and the class's weakest fault class, as the instructor's Class tab shows them beside
the skills grid (ui.classroom.catching). A trainee is her person (trainer.classes.server.people,
as classview groups them): the rounds of every trainee id of hers are counted together, less those
an instructor retracted (s041)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import psycopg

from trainer.progress.supervised import SEEN_ENOUGH
from trainer.supervise.catalogue import FaultClass

Pair = tuple[int, int]  # (caught, faults seen)


@dataclass(frozen=True)
class CatchRow:
    """One trainee's catch rates: (caught, seen) per fault class and per game, and her rounds."""

    trainee_id: int  # the id she is shown by (her person's lowest)
    name: str
    by_class: dict[str, Pair]
    by_game: dict[str, Pair]
    rounds: int


@dataclass(frozen=True)
class ClassCatchRates:
    """Every trainee's row (in the order of the trainees given, those with a round), the class's
    (caught, seen) per fault class, and its weakest class: the lowest rate among the classes whose
    faults the class has seen SEEN_ENOUGH times (None before)."""

    rows: list[CatchRow]
    by_class: dict[str, Pair]
    weakest: str | None


def _add(table: dict, key, pair: Pair) -> None:
    old = table.get(key, (0, 0))
    table[key] = (old[0] + pair[0], old[1] + pair[1])


def weakest(by_class: dict[str, Pair]) -> str | None:
    """The fault class of the lowest catch rate seen SEEN_ENOUGH times (the first in FaultClass's
    order of those tied); None when none was seen so often."""
    order = [c.value for c in FaultClass]
    seen = [c for c in order if by_class.get(c, (0, 0))[1] >= SEEN_ENOUGH]
    return min(seen, key=lambda c: (Fraction(*by_class[c]), order.index(c)), default=None)


def class_catch_rates(conn: psycopg.Connection, trainees: list, members: dict[int, list[int]]
                      ) -> ClassCatchRates:
    """The catch rates of `trainees` (classview's people; `members`: each one's trainee ids), in
    one query; a class whose server has no supervised rounds yet (before s037) has none."""
    if (conn.execute("SELECT to_regclass('supervised_rounds')").fetchone() or (None,))[0] is None:
        return ClassCatchRates([], {}, None)
    person = {m: pid for pid, ms in members.items() for m in ms}
    # a round an instructor retracted (s041) is not counted
    kept = ("WHERE NOT EXISTS (SELECT 1 FROM supervised_retractions x WHERE x.round_id = r.id)"
            if (conn.execute("SELECT to_regclass('supervised_retractions')").fetchone() or (None,))[0]
            is not None else "")
    faults = conn.execute(
        "SELECT r.trainee_id, r.game, f.fault_class, count(*) FILTER (WHERE f.caught), count(*) "
        f"FROM supervised_faults f JOIN supervised_rounds r ON r.id = f.round_id {kept} "
        "GROUP BY 1, 2, 3").fetchall()
    rounds = conn.execute(f"SELECT r.trainee_id, count(*) FROM supervised_rounds r {kept} "
                          "GROUP BY 1").fetchall()
    by_class: dict[int, dict[str, Pair]] = {}
    by_game: dict[int, dict[str, Pair]] = {}
    whole: dict[str, Pair] = {}
    counted: dict[int, int] = {}
    for tid, game, cls, caught, seen in faults:
        if (pid := person.get(tid)) is None:  # an instructor's own row, or an archived person's
            continue
        _add(by_class.setdefault(pid, {}), cls, (caught, seen))
        _add(by_game.setdefault(pid, {}), game, (caught, seen))
        _add(whole, cls, (caught, seen))
    for tid, n in rounds:
        if (pid := person.get(tid)) is not None:
            counted[pid] = counted.get(pid, 0) + n
    rows = [CatchRow(t.id, t.name, by_class.get(t.id, {}), by_game.get(t.id, {}), counted[t.id])
            for t in trainees if t.id in counted]
    return ClassCatchRates(rows, whole, weakest(whole))
