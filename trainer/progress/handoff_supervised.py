"""Supervised rounds in the hand-off to the employer (trainer.progress.handoff): always practice,
never a certificate (a supervised round is what a workstation says, as a practice attempt is).

- **xAPI**: for each round, one Statement per fault class the round held, its object an Activity
  of that class in that game (`<base>supervise/<game>/<fault class>`, a simulation), verb ADL's
  `scored`, result the faults caught (raw) of those shown (max), scaled, and no success (a catch
  rate passes nothing); its category `practice`, and extensions naming the mode (`supervise`),
  the round's id and its difficulty. A round with no fault has one Statement of the round itself
  (`<base>supervise/<game>`), scored as the supervisor's score.
- **Transcript**: one row per round, mode "Supervised round", "Practice, not certified", its
  score out of 100 (rounded), and the faults caught of each class in the Result column.

Each round is known by its uid (trainer.progress.supervised `round_uid`), the statements' ids
made from it as an attempt's are."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple
from urllib.parse import quote

from trainer.errors import shown
from trainer.games import GAME_NAMES
from trainer.progress.handoff import (
    ADL_VERBS,
    CATEGORIES,
    CERTIFICATION,
    IRI,
    LANGUAGE,
    SIMULATION,
    actor,
    iso,
    local_time,
    with_id,
)
from trainer.progress.records import Trainee
from trainer.progress.store import Store
from trainer.progress.supervised import round_uid

MODE = "Supervised round"
EXTENSIONS = ("supervised-round", "difficulty", "fault-class")


class SupervisedLine(NamedTuple):
    """One supervised round and whose it is."""

    trainee: Trainee
    uid: str  # round_uid
    round: str  # the deal's id: dealt again, the same round with the same faults
    game: str
    difficulty: int
    finished: float
    score: Fraction
    faults: tuple[tuple[str, str, bool], ...]  # (kind, fault class, caught), in the round's order
    row: int | None = None  # the trainee row it was sent under (an attempt's `trainee_id`)

    def by_class(self) -> dict[str, tuple[int, int]]:
        """(caught, shown) per fault class, in the order the classes first show."""
        out: dict[str, tuple[int, int]] = {}
        for _, cls, caught in self.faults:
            c, s = out.get(cls, (0, 0))
            out[cls] = (c + caught, s + 1)
        return out


def lines_of(trainees: dict[int, Trainee], rounds, faults, left_out: list[str] | None = None,
             hidden: dict[int, str] | None = None) -> list[SupervisedLine]:
    """The lines of rows read from a progress file or a class server (`trainees`: each row's
    trainee by its trainee_id; rows of a trainee not given are left out), oldest first. A class
    server's row has its uid; a file's is made from its own trainee's (`round_uid`). A row
    `hidden` ({id: why}: retracted) and one that cannot be read as a round (a score that is no
    fraction from 0 to 1, a time no calendar holds) is left out and named in `left_out`
    ("supervised round <uid> of <trainee>: why"), never raised."""
    found: dict[int, list[tuple[str, str, bool]]] = {}
    for f in faults:
        found.setdefault(f["round_id"], []).append((f["kind"], f["fault_class"], bool(f["caught"])))
    out = []
    for r in sorted(rounds, key=lambda r: (_when(r["finished"]), r["id"])):
        if (t := trainees.get(r["trainee_id"])) is None:
            continue
        why = (hidden or {}).get(r["id"])
        if why is None:
            try:
                out.append(_line(t, r, tuple(found.get(r["id"], []))))
                continue
            except (ValueError, TypeError, KeyError, ZeroDivisionError, OverflowError, OSError) as e:
                why = f"not readable as a supervised round ({e})"
        if left_out is not None:
            uid = r.get("uid") or "(no id)"
            left_out.append(f"supervised round {str(uid)[:64]} of {shown(t.name)}: {why}")
    return out


def _when(finished: object) -> float:
    """A row's time to sort by: 0 for one that is no finite number (left out later, named)."""
    return finished if isinstance(finished, int | float) and math.isfinite(finished) else 0.0


def _line(t: Trainee, r, faults: tuple[tuple[str, str, bool], ...]) -> SupervisedLine:
    """One row as a line; ValueError (and the like) when it cannot be one."""
    score = Fraction(r["score"])
    if not 0 <= score <= 1:
        raise ValueError(f"a score of {score}, not from 0 to 1")
    finished = r["finished"]
    if isinstance(finished, bool) or not isinstance(finished, int | float) or not math.isfinite(finished):
        raise ValueError(f"finished at {finished!r}, not a time")
    iso(finished)  # a time no calendar holds raises here, not in the middle of a transcript
    local_time(finished)
    if not all(isinstance(r[k], str) for k in ("round_uid", "game")) or not isinstance(r["difficulty"], int):
        raise ValueError("its deal, game or difficulty is not what a round holds")
    return SupervisedLine(t, r.get("uid") or round_uid(t.uid, r["round_uid"], finished), r["round_uid"],
                          r["game"], r["difficulty"], finished, score, faults, r["trainee_id"])


def file_rounds(store: Store, trainee: Trainee | None = None,
                left_out: list[str] | None = None) -> list[SupervisedLine]:
    """The supervised rounds of a progress file: one trainee's, or everyone's (those that cannot
    be read named in `left_out`)."""
    where, params = ("WHERE trainee_id = ?", (trainee.id,)) if trainee is not None else ("", ())
    trainees = ({trainee.id: trainee} if trainee is not None
                else {t.id: t for t in store.trainees(include_archived=True)})
    rounds = store.query(f"SELECT * FROM supervised_rounds {where}", params)
    faults = store.query(f"SELECT * FROM supervised_faults WHERE round_id IN "
                         f"(SELECT id FROM supervised_rounds {where}) ORDER BY round_id, n", params)
    return lines_of(trainees, rounds, faults, left_out)


def statements(s: SupervisedLine, *, home_page: str, activity_base: str) -> list[dict]:
    """The round's statements (see the module docstring), without their ids' order."""
    game = GAME_NAMES.get(s.game, s.game)
    ext = {name: f"{IRI}extensions/{name}" for name in EXTENSIONS}

    def one(key: str, path: str, title: str, raw: int, most: int, cls: str | None) -> dict:
        extensions = {f"{IRI}extensions/mode": "supervise", ext["supervised-round"]: s.round,
                      ext["difficulty"]: s.difficulty}
        if cls is not None:
            extensions[ext["fault-class"]] = cls
        return with_id(f"supervised:{s.uid}:{key}", {
            "actor": actor(s.trainee.name, s.trainee.uid, home_page),
            "verb": {"id": ADL_VERBS + "scored", "display": {LANGUAGE: "scored"}},
            "object": {"objectType": "Activity", "id": f"{activity_base}supervise/{path}",
                       "definition": {"name": {LANGUAGE: title}, "type": SIMULATION}},
            "result": {"completion": True,
                       "score": {"scaled": round(raw / most, 4) if most else 0.0, "raw": raw, "min": 0,
                                 "max": most}},
            "context": {"platform": "Dealer Trainer", "language": LANGUAGE,
                        "contextActivities": {"category": [CATEGORIES["practice"]]},
                        "extensions": extensions},
            "timestamp": iso(s.finished).replace("+00:00", "Z"),
        })

    home = quote(s.game, safe="")
    if not s.faults:
        return [one("round", home, f"Supervising {game}", round(100 * s.score), 100, None)]
    return [one(cls, f"{home}/{quote(cls, safe='')}", f"Supervising {game}: {cls} faults", caught,
                shown, cls) for cls, (caught, shown) in s.by_class().items()]


def transcript_row(s: SupervisedLine) -> tuple[object, ...]:
    """The round's transcript row (handoff.TRANSCRIPT_COLUMNS), before its cells are made safe."""
    caught = "; ".join(f"{cls} {c} of {n}" for cls, (c, n) in s.by_class().items())
    result = f"faults caught: {caught}" if caught else "no fault in the round"
    return (s.trainee.name, s.trainee.uid, *local_time(s.finished), GAME_NAMES.get(s.game, s.game),
            s.round, MODE, CERTIFICATION["practice"], round(100 * s.score), result, "", len(s.faults),
            "", "", s.uid, "", "")
