"""Supervised rounds in a results file (trainer.progress.exchange), beside the attempts::

    "supervised": [{"trainee": 1, "round": <the round's id>, "difficulty": 2, "pace": 2.0,
                    "finished": <seconds since 1970>,
                    "flags": [{"at": 12.5, "target": "seat 2 hop-top", "kind": "short-pay"}]}]

The list is optional (a file without it has none). As an attempt is re-graded from its log, a
round is never taken as the file scores it: it is dealt again here from its id at its pace
(trainer.supervise.rounds `again`: the same id, the same faults) and the supervisor's flags scored
again (trainer.supervise.scoring); a round this machine cannot deal again is left out and named.
A round already in the file (its trainee, its id and when it was finished) is not added twice."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from trainer.errors import one_line, shown
from trainer.progress.records import moment
from trainer.progress.store import Store

#: the most flags a round may carry in a results file (a supervisor flags a handful a round)
MOST_FLAGS = 1000


@dataclass(frozen=True)
class Entry:
    """A supervised round as a results file gives it, checked."""

    trainee: int  # its trainee's key in the file
    round: str
    difficulty: int
    pace: float
    finished: float
    flags: tuple[tuple[float, str, str], ...]  # (at, target, kind)


def exported(store: Store, keys: dict[int, int]) -> list[dict]:
    """The supervised rounds of the trainees `keys` names (id here -> key in the file), oldest
    first, as a results file carries them."""
    out = []
    for tid, key in keys.items():
        for r in store.query("SELECT round_uid, difficulty, pace, finished, flags FROM supervised_rounds "
                             "WHERE trainee_id = ? ORDER BY finished, id", (tid,)):
            out.append({"trainee": key, "round": r["round_uid"], "difficulty": r["difficulty"],
                        "pace": r["pace"], "finished": r["finished"], "flags": json.loads(r["flags"])})
    return out


def parse(doc: Any, trainees: dict[int, Any]) -> list[Entry]:
    """The file's supervised rounds, checked; ValueError naming the field and the problem."""
    given = doc.get("supervised", [])
    if not isinstance(given, list):
        raise ValueError("supervised: must be a list")
    return [_entry(f"supervised[{i}]", s, trainees) for i, s in enumerate(given)]


def _entry(where: str, s: Any, trainees: dict[int, Any]) -> Entry:
    if not isinstance(s, dict):
        raise ValueError(f"{where}: must be an object")
    unknown = sorted(set(s) - {"trainee", "round", "difficulty", "pace", "finished", "flags"})
    if unknown:
        raise ValueError(f"{where}: unknown field {unknown[0]!r}")
    key = s.get("trainee")
    if isinstance(key, bool) or not isinstance(key, int) or key not in trainees:
        raise ValueError(f"{where}.trainee: {shown(key)} is not a key in trainees")
    rid = s.get("round")
    if not isinstance(rid, str) or not 1 <= len(rid) <= 400:
        raise ValueError(f"{where}.round: must be the round's id (1 to 400 characters), not {shown(rid)}")
    difficulty = s.get("difficulty")
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 1 <= difficulty <= 5:
        raise ValueError(f"{where}.difficulty: must be a whole number from 1 to 5, not {shown(difficulty)}")
    pace: Any = s.get("pace")
    if not _number(pace) or not 0 < pace <= 3600:
        raise ValueError(f"{where}.pace: must be seconds between actions (above 0, at most 3600), "
                         f"not {shown(pace)}")
    finished = moment(f"{where}.finished", s.get("finished"))
    flags = s.get("flags")
    if not isinstance(flags, list) or len(flags) > MOST_FLAGS:
        raise ValueError(f"{where}.flags: must be a list of at most {MOST_FLAGS} flags")
    return Entry(key, rid, difficulty, float(pace), finished,
                 tuple(_flag(f"{where}.flags[{n}]", f) for n, f in enumerate(flags)))


def _number(v: Any) -> bool:
    """A finite JSON number (true and false are not)."""
    return not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v)


def _flag(where: str, f: Any) -> tuple[float, str, str]:
    if not isinstance(f, dict) or set(f) != {"at", "target", "kind"}:
        raise ValueError(f"{where}: must be an object of at, target and kind")
    at, target, kind = f["at"], f["target"], f["kind"]
    if not _number(at) or not 0 <= at <= 86400:
        raise ValueError(f"{where}.at: must be seconds into the round, not {shown(at)}")
    for name, v in (("target", target), ("kind", kind)):
        if not isinstance(v, str) or not 1 <= len(v) <= 100:
            raise ValueError(f"{where}.{name}: must be 1 to 100 characters, not {shown(v)}")
    return float(at), target, kind


def regraded(entries: list[Entry]) -> tuple[list[tuple[Entry, Any, Any]], list[str]]:
    """Each round dealt again here and its flags scored again: [(entry, round, score)], and the
    rounds left out, each named with why. The bundled library is read once for the file, and a
    round named twice is dealt once."""
    from trainer.supervise.rounds import SuperviseError, again
    from trainer.supervise.scoring import Flag, score

    library: list = []  # the bundled scenarios, read at the first round that names one

    def find(scenario_id: str):
        if not library:
            from trainer.library import load_library

            library.append(load_library())
        return library[0].by_id(scenario_id)

    dealt: dict[tuple[str, float], Any] = {}
    kept, left_out = [], []
    for i, e in enumerate(entries):
        try:
            rnd = dealt.get((e.round, e.pace)) or again(e.round, find, pace=e.pace)
            dealt[e.round, e.pace] = rnd
        except (SuperviseError, ValueError) as why:
            left_out.append(one_line(f"supervised[{i}] ({e.round[:80]}): {why}"))
            continue
        kept.append((e, rnd, score(rnd, [Flag(*f) for f in e.flags])))
    return kept, left_out


def add(db, kept: list[tuple[Entry, Any, Any]], ids: dict[int, int]) -> int:
    """The rounds written in `db`'s transaction (trainee key -> id here), each unless its trainee
    has it already; how many were added."""
    from trainer.progress.supervised import insert_supervised  # the engine's rounds, loaded when used

    added = 0
    for e, rnd, s in kept:
        tid = ids[e.trainee]
        if db.execute("SELECT 1 FROM supervised_rounds WHERE trainee_id = ? AND round_uid = ? "
                      "AND finished = ?", (tid, rnd.id, e.finished)).fetchone():
            continue
        insert_supervised(db, tid, rnd, s, e.difficulty, e.finished)
        added += 1
    return added
