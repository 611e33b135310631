"""The Class screen (instructor): how every trainee is doing, from the log tables on every call.

**The class overview** (`class_overview`) covers active trainees who are not instructors: a
trainees × skills table of recent accuracy (each cell: the skill's last 20 attempts), who needs
help (lowest recent accuracy over all skills, then most critical errors in the last `days` days),
the hardest items (lowest pass rate in the last `days` days, at least `min_attempts` attempts), and
each trainee's median time to answer (per action, over their last 10 attempts; see
`records.answer_gaps`).

Accuracy is the Progress screen's (trainer.progress.stats): the share of a skill's exercises with
no finding on that skill.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field

from trainer.procedure.model import Skill
from trainer.progress.records import Trainee, answer_gaps
from trainer.progress.rows import trainee_from_row
from trainer.progress.stats import DAY, RIGHT_SQL, WINDOW
from trainer.progress.store import Store

ANSWER_ATTEMPTS = 10  # time to answer: over each trainee's last 10 attempts


@dataclass(frozen=True, slots=True)
class Cell:
    exercises: int
    right: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.exercises if self.exercises else None


@dataclass(frozen=True, slots=True)
class HelpRow:
    trainee: Trainee
    recent_accuracy: float | None  # all skills' last-20 windows pooled
    attempts: int  # in the last `days` days
    critical: int  # attempts with a critical error in the last `days` days
    passed: int


@dataclass(frozen=True, slots=True)
class ItemRow:
    item_id: str
    game: str
    attempts: int
    passed: int

    @property
    def pass_rate(self) -> float:
        return self.passed / self.attempts


@dataclass(frozen=True)
class ClassOverview:
    trainees: list[Trainee]
    skills: list[Skill]
    cells: dict[tuple[int, Skill], Cell] = field(default_factory=dict)
    needs_help: list[HelpRow] = field(default_factory=list)  # most in need first
    hardest: list[ItemRow] = field(default_factory=list)  # lowest pass rate first
    answer_seconds: dict[int, float | None] = field(default_factory=dict)  # median per action


def class_overview(store: Store, *, now: float | None = None, days: float = 30, min_attempts: int = 3,
                   items: int = 10, answers: int = ANSWER_ATTEMPTS) -> ClassOverview:
    now = time.time() if now is None else now
    since = now - days * DAY
    db = store.db
    trainees = [trainee_from_row(r) for r in store.query(
        "SELECT * FROM trainees WHERE archived = 0 AND instructor = 0 ORDER BY name COLLATE NOCASE, id")]
    skills = list(Skill)
    values = ", ".join(f"('{s.value}')" for s in skills)
    cells: dict[tuple[int, Skill], Cell] = {}
    for tid, skill, counts in db.execute(
            f"WITH k (skill) AS (VALUES {values}) "
            f"SELECT t.id, k.skill, (SELECT json_array(count(*), total(ok)) FROM ("
            f"  SELECT {RIGHT_SQL} AS ok FROM attempt_skills s "
            f"  WHERE s.trainee_id = t.id AND s.skill = k.skill "
            f"  ORDER BY s.started DESC, s.attempt_id DESC LIMIT {WINDOW})) "
            f"FROM trainees t, k WHERE t.archived = 0 AND t.instructor = 0"):
        n, right = json.loads(counts)
        cells[tid, Skill(skill)] = Cell(n, int(right))
    recent = {tid: json.loads(counts) for tid, counts in db.execute(
        "SELECT t.id, (SELECT json_array(count(*), total(critical), total(passed)) "
        "  FROM attempts a INDEXED BY attempts_trainee "
        "  WHERE a.trainee_id = t.id AND a.started >= :since AND a.abandoned = 0) "
        "FROM trainees t WHERE t.archived = 0 AND t.instructor = 0", {"since": since})}
    help_rows = []
    for t in trainees:
        n = sum(cells[t.id, s].exercises for s in skills)
        right = sum(cells[t.id, s].right for s in skills)
        attempts, critical, passed = (int(v) for v in recent[t.id])
        help_rows.append(HelpRow(t, right / n if n else None, attempts, critical, passed))
    help_rows.sort(key=lambda h: (h.recent_accuracy is None, h.recent_accuracy or 0, -h.critical,
                                  h.trainee.name.lower()))
    # the items: a loose index scan (each next item id found by one index search), then each
    # item's range of the last `days` days
    hardest = []
    for item, counts in db.execute(
            "WITH RECURSIVE i (item) AS (SELECT min(item_id) FROM attempts "
            "  UNION ALL SELECT (SELECT min(item_id) FROM attempts WHERE item_id > i.item) FROM i "
            "  WHERE i.item IS NOT NULL) "
            "SELECT item, (SELECT json_array(count(*), total(passed), min(game)) "
            "  FROM attempts INDEXED BY attempts_item "
            "  WHERE item_id = i.item AND started >= :since AND abandoned = 0) "
            "FROM i WHERE item IS NOT NULL", {"since": since}):
        n, passed, game = json.loads(counts)
        if n >= min_attempts:
            hardest.append(ItemRow(item, game, n, int(passed)))
    hardest.sort(key=lambda i: (i.pass_rate, -i.attempts, i.item_id))
    del hardest[items:]
    # time to answer: each trainee action's gap from the action before it (records.answer_gaps)
    gaps: dict[int, list[float]] = {t.id: [] for t in trainees}
    for tid, log in db.execute(
            "SELECT a.trainee_id, a.log FROM trainees t JOIN attempts a ON a.id IN ("
            "  SELECT id FROM attempts INDEXED BY attempts_trainee WHERE trainee_id = t.id AND abandoned = 0 "
            f"  ORDER BY started DESC LIMIT {int(answers)}) "
            "WHERE t.archived = 0 AND t.instructor = 0"):
        gaps[tid].extend(answer_gaps(json.loads(log)))
    answer = {tid: statistics.median(g) if g else None for tid, g in gaps.items()}
    return ClassOverview(trainees, skills, cells, help_rows, hardest, answer)
