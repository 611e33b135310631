"""Statistics for the Progress screen, computed from the log tables on every call.

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

**The Progress screen** (`progress_report`): accuracy per day by game and by skill, attempts
per day (over the last `CHART_DAYS` = 90 days by default; `days=None` for all time), payout time
against the target (the last 200 payout drills), the skill table, the weakest skills and the
skill to drill next.

Days are calendar days at a fixed UTC offset (default: this machine's current one).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from datetime import date

from trainer.procedure.model import Skill
from trainer.progress.store import Store

WINDOW = 20
MASTERY_ACCURACY = 0.9
LEECH_WINDOW, LEECH_MISSES = 8, 3
REVIEW_DAYS = 7
CHART_DAYS = 90  # the Progress screen's charts show the last 90 days unless asked for more
DAY = 86400.0

RIGHT_SQL = ("NOT EXISTS (SELECT 1 FROM findings f WHERE f.attempt_id = s.attempt_id "
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


@dataclass(frozen=True, slots=True)
class TraineeLog:
    """One trainee's attempts since a time, read once (two index range scans and the findings of
    those attempts), from which the Progress screen's charts are computed."""

    attempts: list[tuple]  # (id, started, game, passed, abandoned), by start
    skills: dict[int, list[str]]  # attempt id -> the skills it exercised
    misses: dict[int, set[str]]  # attempt id -> the skills it has a finding on

    @classmethod
    def load(cls, store: Store, trainee_id: int, since: float | None = None) -> TraineeLog:
        db, since = store.db, -1e300 if since is None else since
        attempts = db.execute(
            "SELECT id, started, game, passed, abandoned FROM attempts INDEXED BY attempts_trainee "
            "WHERE trainee_id = ? AND started >= ? ORDER BY started", (trainee_id, since)).fetchall()
        skills: dict[int, list[str]] = {}
        for attempt_id, skill in db.execute(
                "SELECT attempt_id, skill FROM attempt_skills WHERE trainee_id = ? AND started >= ?",
                (trainee_id, since)):
            skills.setdefault(attempt_id, []).append(skill)
        misses: dict[int, set[str]] = {}
        for attempt_id, skill in db.execute(
                "SELECT f.attempt_id, f.skill FROM attempts a INDEXED BY attempts_trainee "
                "JOIN findings f ON f.attempt_id = a.id WHERE a.trainee_id = ? AND a.started >= ?",
                (trainee_id, since)):
            misses.setdefault(attempt_id, set()).add(skill)
        return cls(attempts, skills, misses)


_EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()


def _day_namer(utc_offset: float | None):
    off = local_offset() if utc_offset is None else utc_offset
    names: dict[int, str] = {}

    def name(t: float) -> str:
        n = int((t + off) // DAY)
        if n not in names:
            names[n] = date.fromordinal(_EPOCH_ORDINAL + n).isoformat()
        return names[n]
    return name


def _accuracy(log: TraineeLog, per: str, utc_offset: float | None) -> tuple[list, list]:
    """(by game, by skill), in one pass over the log."""
    if per not in ("day", "attempt"):
        raise ValueError(f"per must be 'day' or 'attempt', not {per!r}")
    day = _day_namer(utc_offset)
    games: dict[tuple[str, str], list] = {}  # (game, period) -> [first started, exercises, right]
    skills: dict[tuple[str, str], list] = {}  # (skill, period) -> the same
    no_miss: frozenset[str] = frozenset()
    for attempt_id, started, game, _, _ in log.attempts:
        exercised = log.skills.get(attempt_id)
        if not exercised:
            continue
        period = day(started) if per == "day" else str(attempt_id)
        missed = log.misses.get(attempt_id, no_miss)
        for skill in exercised:
            g = skills.get((skill, period))
            if g is None:
                g = skills[skill, period] = [started, 0, 0]
            g[1] += 1
            g[2] += skill not in missed
        n = len(exercised)
        right = n - len(missed.intersection(exercised))
        g = games.get((game, period))
        if g is None:
            games[game, period] = [started, n, right]
        else:
            g[1] += n
            g[2] += right
    out = []
    for groups in (games, skills):
        points = [AccuracyPoint(key, period, v[0], v[1], v[2]) for (key, period), v in groups.items()]
        points.sort(key=lambda p: (p.started, p.key))
        out.append(points)
    return out[0], out[1]


def accuracy_by_skill(store: Store, trainee_id: int, *, per: str = "day", utc_offset: float | None = None,
                      since: float | None = None) -> list[AccuracyPoint]:
    """Accuracy per skill, per day (or per attempt), for the trainee's chart."""
    return _accuracy(TraineeLog.load(store, trainee_id, since), per, utc_offset)[1]


def accuracy_by_game(store: Store, trainee_id: int, *, per: str = "day", utc_offset: float | None = None,
                     since: float | None = None) -> list[AccuracyPoint]:
    """Accuracy per game (all skills pooled), per day (or per attempt)."""
    return _accuracy(TraineeLog.load(store, trainee_id, since), per, utc_offset)[0]


def payout_times(store: Store, trainee_id: int, *, modes: tuple[str, ...] = ("payout-drill",),
                 limit: int | None = 200) -> list[TimePoint]:
    """Duration against target of the trainee's timed attempts (the last `limit`), oldest first."""
    marks = ", ".join("?" * len(modes))
    rows = store.db.execute(
        f"SELECT id, started, item_id, game, duration, target FROM attempts WHERE trainee_id = ? "
        f"AND mode IN ({marks}) AND target IS NOT NULL AND abandoned = 0 ORDER BY started DESC "
        f"LIMIT {-1 if limit is None else int(limit)}", (trainee_id, *modes)).fetchall()
    return [TimePoint(*r) for r in reversed(rows)]


def attempts_per_day(store: Store, trainee_id: int, *, utc_offset: float | None = None,
                     since: float | None = None, log: TraineeLog | None = None) -> list[DayCount]:
    log = log or TraineeLog.load(store, trainee_id, since)
    day = _day_namer(utc_offset)
    days: dict[str, list[int]] = {}
    for _, started, _, passed, abandoned in log.attempts:
        d = days.setdefault(day(started), [0, 0, 0])
        d[0] += 1
        d[1] += passed
        d[2] += abandoned
    return [DayCount(d, *counts) for d, counts in days.items()]


def skill_table(store: Store, trainee_id: int, *, now: float | None = None,
                skills: tuple[Skill, ...] = tuple(Skill)) -> list[SkillRow]:
    """One row per skill (practised or not), with the scheduler's verdict; see the module docstring.
    It reads each skill's last 20 attempts, whatever their age."""
    now = time.time() if now is None else now
    db = store.db
    totals = {k: (n, last) for k, n, last in db.execute(
        "SELECT skill, count(*), max(started) FROM attempt_skills WHERE trainee_id = ? GROUP BY skill",
        (trainee_id,))}
    out = []
    for skill in skills:
        n, last = totals.get(skill.value, (0, None))
        recent = db.execute(
            f"SELECT {RIGHT_SQL}, a.duration, a.target FROM attempt_skills s "
            f"JOIN attempts a ON a.id = s.attempt_id WHERE s.trainee_id = ? AND s.skill = ? "
            f"ORDER BY s.started DESC, s.attempt_id DESC LIMIT {WINDOW}",
            (trainee_id, skill.value)).fetchall() if n else []
        out.append(_row(skill, n, last, recent, now))
    return out


def _row(skill: Skill, n: int, last: float | None, recent: list, now: float) -> SkillRow:
    right = sum(r[0] for r in recent)
    misses8 = [1 - r[0] for r in recent[:LEECH_WINDOW]]
    weighted = sum(m * 0.5**i for i, m in enumerate(misses8))
    ratios = [r[1] / r[2] for r in recent if r[2]]
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
                    days: float | None = CHART_DAYS, utc_offset: float | None = None,
                    weakest: int = 3) -> ProgressReport:
    """The Progress screen: charts of the last `days` days (None: all time), the skill table (each
    skill's last 20 attempts, whatever their age), the weakest skills and the skill to drill."""
    now = time.time() if now is None else now
    log = TraineeLog.load(store, trainee_id, None if days is None else now - days * DAY)
    by_game, by_skill = _accuracy(log, "day", utc_offset)
    table = skill_table(store, trainee_id, now=now)
    return ProgressReport(
        by_game=by_game, by_skill=by_skill, payout_times=payout_times(store, trainee_id),
        per_day=attempts_per_day(store, trainee_id, utc_offset=utc_offset, log=log),
        skills=table, weakest=weakest_skills(store, trainee_id, weakest, table=table),
        next_skill=next_drill_skill(store, trainee_id, table=table))
