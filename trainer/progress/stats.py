"""Statistics for the Progress and Class screens, computed from the log tables on every call.

**Accuracy.** An attempt *exercises* a skill if the skill is among those it graded (an
`attempt_skills` row: the skills of the trainee's expected actions, plus the skill of any finding).
It *gets the skill right* if it has no finding on that skill. The accuracy of any group of
exercises (a skill on a day, a game on a day, a skill's last 20 attempts) is the share got right.
Abandoned attempts are not graded and count in no accuracy.

**The scheduler** (Anki's leech, and the common "90% over the last N"), per trainee and skill:
- *mastered*: at least `WINDOW` (20) attempts of the skill, at least 90% of the last 20 right, and
  the median of duration / target over those attempts within the target (≤ 1; attempts without a
  target time are not timed);
- *leech* ("keeps coming back"): 3 or more misses in its last 8 attempts;
- *priority* (highest is drilled next by `next_drill_skill`), the first rule that applies:
  - a leech: 3 + its recency-weighted misses (the last attempt weighs 1, the one before 0.5,
    then 0.25 ...), so the most recent misses come first;
  - mastered: 0.9 × min(1, days since last practised / 7), so it comes back for review when cold;
  - any miss in the last 20: 2 + (1 − recent accuracy);
  - never practised: 1.5;
  - else (no recent miss, but too few attempts or too slow): 1 + (1 − attempts in the window / 20) / 2.

**The class overview** (`class_overview`) covers active trainees who are not instructors: a
trainees × skills table of recent accuracy (each cell: the skill's last 20 attempts), who needs
help (lowest recent accuracy over all skills, then most critical errors in the last `days` days),
the hardest items (lowest pass rate in the last `days` days, at least `min_attempts` attempts), and
each trainee's median time to answer (per action, over their last 20 attempts; see
`records.answer_gaps`).

Days are calendar days at a fixed UTC offset (default: this machine's current one).
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field

from trainer.procedure.model import Skill
from trainer.progress.records import Trainee, answer_gaps
from trainer.progress.store import Store, _trainee

WINDOW = 20
MASTERY_ACCURACY = 0.9
LEECH_WINDOW, LEECH_MISSES = 8, 3
REVIEW_DAYS = 7
DAY = 86400.0

_RIGHT = ("NOT EXISTS (SELECT 1 FROM findings f WHERE f.attempt_id = s.attempt_id "
          "AND f.skill = s.skill)")


def local_offset() -> float:
    return float(time.localtime().tm_gmtoff)


@dataclass(frozen=True, slots=True)
class AccuracyPoint:
    key: str  # the game or skill
    period: str  # "YYYY-MM-DD", or the attempt id
    started: float  # the first attempt of the period
    exercises: int
    right: int

    @property
    def accuracy(self) -> float:
        return self.right / self.exercises


@dataclass(frozen=True, slots=True)
class DayCount:
    day: str
    attempts: int
    passed: int
    abandoned: int


@dataclass(frozen=True, slots=True)
class TimePoint:
    attempt_id: int
    started: float
    item_id: str
    game: str
    duration: float
    target: float

    @property
    def ratio(self) -> float:
        return self.duration / self.target if self.target else float("inf")


@dataclass(frozen=True, slots=True)
class SkillRow:
    skill: Skill
    attempts: int  # all time
    recent: int  # in the window (the last 20)
    recent_right: int
    recent_misses: int  # in the last 8
    weighted_misses: float
    time_ratio: float | None  # median duration / target over the window
    last_practised: float | None
    mastered: bool
    leech: bool
    priority: float

    @property
    def recent_accuracy(self) -> float | None:
        return self.recent_right / self.recent if self.recent else None


@dataclass(frozen=True, slots=True)
class ProgressReport:
    """Everything the Progress screen shows for one trainee."""

    by_game: list[AccuracyPoint]
    by_skill: list[AccuracyPoint]
    payout_times: list[TimePoint]
    per_day: list[DayCount]
    skills: list[SkillRow]
    weakest: list[SkillRow]
    next_skill: Skill | None


def _accuracy(store: Store, trainee_id: int, key: str, per: str, utc_offset: float | None,
              since: float | None, join: str = "") -> list[AccuracyPoint]:
    if per not in ("day", "attempt"):
        raise ValueError(f"per must be 'day' or 'attempt', not {per!r}")
    off = local_offset() if utc_offset is None else utc_offset
    period = "date(s.started + :off, 'unixepoch')" if per == "day" else "CAST(s.attempt_id AS TEXT)"
    rows = store.db.execute(
        f"SELECT {key}, {period} AS period, min(s.started) AS first, count(*), sum({_RIGHT}) "
        f"FROM attempt_skills s {join} WHERE s.trainee_id = :t AND s.started >= :since "
        f"GROUP BY period, {key} ORDER BY first, {key}",
        {"t": trainee_id, "off": off, "since": -1e300 if since is None else since}).fetchall()
    return [AccuracyPoint(*r) for r in rows]


def accuracy_by_skill(store: Store, trainee_id: int, *, per: str = "day", utc_offset: float | None = None,
                      since: float | None = None) -> list[AccuracyPoint]:
    """Accuracy per skill, per day (or per attempt), for the trainee's chart."""
    return _accuracy(store, trainee_id, "s.skill", per, utc_offset, since)


def accuracy_by_game(store: Store, trainee_id: int, *, per: str = "day", utc_offset: float | None = None,
                     since: float | None = None) -> list[AccuracyPoint]:
    """Accuracy per game (all skills pooled), per day (or per attempt)."""
    return _accuracy(store, trainee_id, "a.game", per, utc_offset, since,
                     "JOIN attempts a ON a.id = s.attempt_id")


def payout_times(store: Store, trainee_id: int, *, modes: tuple[str, ...] = ("payout-drill",),
                 limit: int | None = 200) -> list[TimePoint]:
    """Duration against target of the trainee's timed attempts (the last `limit`), oldest first."""
    marks = ", ".join("?" * len(modes))
    rows = store.db.execute(
        f"SELECT id, started, item_id, game, duration, target FROM attempts WHERE trainee_id = ? "
        f"AND mode IN ({marks}) AND target IS NOT NULL AND abandoned = 0 ORDER BY started DESC "
        f"LIMIT {-1 if limit is None else int(limit)}", (trainee_id, *modes)).fetchall()
    return [TimePoint(*r) for r in reversed(rows)]


def attempts_per_day(store: Store, trainee_id: int, *, utc_offset: float | None = None) -> list[DayCount]:
    off = local_offset() if utc_offset is None else utc_offset
    rows = store.db.execute(
        "SELECT date(started + ?, 'unixepoch') AS day, count(*), sum(passed), sum(abandoned) "
        "FROM attempts WHERE trainee_id = ? GROUP BY day ORDER BY day", (off, trainee_id)).fetchall()
    return [DayCount(*r) for r in rows]


def skill_table(store: Store, trainee_id: int, *, now: float | None = None,
                skills: tuple[Skill, ...] = tuple(Skill)) -> list[SkillRow]:
    """One row per skill (practised or not), with the scheduler's verdict; see the module docstring."""
    now = time.time() if now is None else now
    db = store.db
    totals = {k: (n, last) for k, n, last in db.execute(
        "SELECT skill, count(*), max(started) FROM attempt_skills WHERE trainee_id = ? GROUP BY skill",
        (trainee_id,))}
    out = []
    for skill in skills:
        n, last = totals.get(skill.value, (0, None))
        recent = db.execute(
            f"SELECT {_RIGHT}, a.duration, a.target FROM attempt_skills s "
            f"JOIN attempts a ON a.id = s.attempt_id WHERE s.trainee_id = ? AND s.skill = ? "
            f"ORDER BY s.started DESC, s.attempt_id DESC LIMIT {WINDOW}",
            (trainee_id, skill.value)).fetchall() if n else []
        out.append(_row(skill, n, last, recent, now))
    return out


def _row(skill: Skill, n: int, last: float | None, recent: list, now: float) -> SkillRow:
    right = sum(r[0] for r in recent)
    misses8 = [1 - r[0] for r in recent[:LEECH_WINDOW]]
    weighted = sum(m * 0.5**i for i, m in enumerate(misses8))
    ratios = [d / t for _, d, t in recent if t]
    ratio = statistics.median(ratios) if ratios else None
    mastered = (len(recent) >= WINDOW and right >= MASTERY_ACCURACY * len(recent)
                and (ratio is None or ratio <= 1))
    leech = sum(misses8) >= LEECH_MISSES
    if leech:
        priority = 3 + weighted
    elif mastered:
        priority = 0.9 * min(1.0, (now - (last or now)) / (REVIEW_DAYS * DAY))
    elif right < len(recent):
        priority = 2 + (1 - right / len(recent))
    elif not recent:
        priority = 1.5
    else:
        priority = 1 + (1 - len(recent) / WINDOW) / 2
    return SkillRow(skill, n, len(recent), right, sum(misses8), weighted, ratio, last, mastered, leech,
                    priority)


def weakest_skills(store: Store, trainee_id: int, n: int = 3, *,
                   table: list[SkillRow] | None = None) -> list[SkillRow]:
    """Up to `n` skills with a miss among their last 20 attempts, lowest recent accuracy first
    (on a tie, the more recent misses first)."""
    rows = [r for r in (table or skill_table(store, trainee_id)) if r.recent_right < r.recent]
    rows.sort(key=lambda r: (r.recent_accuracy, -r.weighted_misses, r.skill.value))
    return rows[:n]


def next_drill_skill(store: Store, trainee_id: int, *, now: float | None = None,
                     table: list[SkillRow] | None = None) -> Skill | None:
    """The skill to drill next: the highest scheduler priority (ties: the skill order)."""
    rows = table or skill_table(store, trainee_id, now=now)
    return max(rows, key=lambda r: r.priority).skill if rows else None


def progress_report(store: Store, trainee_id: int, *, now: float | None = None,
                    utc_offset: float | None = None, weakest: int = 3) -> ProgressReport:
    table = skill_table(store, trainee_id, now=now)
    return ProgressReport(
        by_game=accuracy_by_game(store, trainee_id, utc_offset=utc_offset),
        by_skill=accuracy_by_skill(store, trainee_id, utc_offset=utc_offset),
        payout_times=payout_times(store, trainee_id), per_day=attempts_per_day(store, trainee_id,
                                                                               utc_offset=utc_offset),
        skills=table, weakest=weakest_skills(store, trainee_id, weakest, table=table),
        next_skill=next_drill_skill(store, trainee_id, table=table))


# ------------------------------------------------------------------ the class
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
                   items: int = 10, answers: int = WINDOW) -> ClassOverview:
    now = time.time() if now is None else now
    since = now - days * DAY
    db = store.db
    trainees = [_trainee(r) for r in store.query(
        "SELECT * FROM trainees WHERE archived = 0 AND instructor = 0 ORDER BY name COLLATE NOCASE, id")]
    skills = list(Skill)
    values = ", ".join(f"('{s.value}')" for s in skills)
    cells: dict[tuple[int, Skill], Cell] = {}
    for tid, skill, counts in db.execute(
            f"WITH k (skill) AS (VALUES {values}) "
            f"SELECT t.id, k.skill, (SELECT json_array(count(*), total(ok)) FROM ("
            f"  SELECT {_RIGHT} AS ok FROM attempt_skills s WHERE s.trainee_id = t.id AND s.skill = k.skill "
            f"  ORDER BY s.started DESC, s.attempt_id DESC LIMIT {WINDOW})) "
            f"FROM trainees t, k WHERE t.archived = 0 AND t.instructor = 0"):
        n, right = json.loads(counts)
        cells[tid, Skill(skill)] = Cell(n, int(right))
    recent = {r[0]: r[1:] for r in db.execute(
        "SELECT trainee_id, count(*), sum(critical), sum(passed) FROM attempts "
        "WHERE started >= ? AND abandoned = 0 GROUP BY trainee_id", (since,))}
    help_rows = []
    for t in trainees:
        n = sum(cells[t.id, s].exercises for s in skills)
        right = sum(cells[t.id, s].right for s in skills)
        attempts, critical, passed = recent.get(t.id, (0, 0, 0))
        help_rows.append(HelpRow(t, right / n if n else None, attempts, critical, passed))
    help_rows.sort(key=lambda h: (h.recent_accuracy is None, h.recent_accuracy or 0, -h.critical,
                                  h.trainee.name.lower()))
    hardest = [ItemRow(*r) for r in db.execute(
        "SELECT item_id, game, count(*) AS n, sum(passed) AS p FROM attempts WHERE started >= ? "
        "AND abandoned = 0 GROUP BY item_id, game HAVING n >= ? "
        "ORDER BY 1.0 * p / n, n DESC, item_id LIMIT ?",
        (since, min_attempts, items))]
    gaps: dict[int, list[float]] = {t.id: [] for t in trainees}
    for tid, log in db.execute(
            "SELECT a.trainee_id, a.log FROM trainees t JOIN attempts a ON a.id IN ("
            "  SELECT id FROM attempts WHERE trainee_id = t.id AND abandoned = 0 "
            f"  ORDER BY started DESC LIMIT {int(answers)}) "
            "WHERE t.archived = 0 AND t.instructor = 0"):
        gaps[tid].extend(answer_gaps(json.loads(log)))
    answer = {tid: statistics.median(g) if g else None for tid, g in gaps.items()}
    return ClassOverview(trainees, skills, cells, help_rows, hardest, answer)
