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

**The charts' bins** (`chart_bin_days`): a chart shows one bar and one point per *day* while the
trainee trains on at least `WEEKLY_BELOW` (3) days a week on average over the span charted (from
the first attempt charted to today); below that, one per *week* (Monday to Sunday), so that a
sparse history is not a row of lone bars. A span of `MIN_SPAN_DAYS` (14) days or less is always
charted by day. A chart spans the data: from the first bin with an attempt to today's; a span of
fewer than `MIN_CHART_BINS` (3) bins gets one more bin before and after, so that one day of
practice stands in the middle of three, never at the edge of two empty weeks.

**Smoothing** (`Series.smooth`): beside each bin's own accuracy (the raw points), the rolling
accuracy over the trailing `SMOOTH_DAYS` (7) days by day, or the trailing 3 weeks by week: the
exercises of those bins pooled (a sum of rights over a sum of exercises, not a mean of means). The
payout times are smoothed by the median of the last `SMOOTH_DRILLS` (5) drills.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from datetime import date

from trainer.procedure.model import Skill
from trainer.progress.store import Store

WINDOW = 20
MASTERY_ACCURACY = 0.9
LEECH_WINDOW, LEECH_MISSES = 8, 3
REVIEW_DAYS = 7
CHART_DAYS = 90  # the Progress screen's charts show the last 90 days unless asked for more
DAY = 86400.0
WEEKLY_BELOW = 3  # practice days a week, on average, below which the charts bin by week
MIN_SPAN_DAYS = 14  # a history of up to 14 days is binned by day
MIN_CHART_BINS = 3  # a chart of fewer bins gets one more on each side
SMOOTH_DAYS = 7  # by day: the rolling accuracy pools the last 7 days
SMOOTH_WEEKS = 3  # by week: the last 3 weeks
SMOOTH_DRILLS = 5  # the payout times' rolling median

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
class Series:
    """One line of the accuracy chart (a game or a skill), binned: each bin's own accuracy (the
    raw points) and the rolling accuracy (the line), at the middle of each bin with exercises."""

    key: str
    x: list[float]  # the middle of each bin, seconds since 1970
    raw: list[float]  # the bin's accuracy, 0 to 1
    exercises: list[int]
    smooth: list[float]  # the trailing window's exercises pooled, 0 to 1


@dataclass(frozen=True, slots=True)
class BinCount:
    """Attempts in one bin of the attempts chart."""

    start: str  # "YYYY-MM-DD": the day, or the Monday of the week
    x: float  # the middle of the bin, seconds since 1970
    attempts: int
    passed: int


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
    # the charts: binned by day or by week (`chart_bin_days`), over `x_range` (seconds since 1970)
    bin_days: int = 1
    game_series: list[Series] = field(default_factory=list)
    skill_series: list[Series] = field(default_factory=list)
    bins: list[BinCount] = field(default_factory=list)
    x_range: tuple[float, float] = (0.0, 0.0)
    payout_smooth: list[float] = field(default_factory=list)  # rolling median of duration / target
    attempts: int = 0  # graded or not, in the charts' span
    utc_offset: float = 0.0  # the days' offset from UTC, in seconds, for the charts' date axis


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


# --- the charts' bins ------------------------------------------------------------------------------


def _offset(utc_offset: float | None) -> float:
    return local_offset() if utc_offset is None else utc_offset


def _day_number(t: float, off: float) -> int:
    return int((t + off) // DAY)


def _bin_start(day: int, bin_days: int) -> int:
    """The first day of a day's bin: the day, or the Monday of its week (1970-01-01 was a Thursday)."""
    return day if bin_days == 1 else day - (day + 3) % 7


def chart_bin_days(started: list[float], now: float, utc_offset: float | None = None) -> int:
    """1 (by day) or 7 (by week) for attempts started at `started`: see the module docstring."""
    if not started:
        return 1
    off = _offset(utc_offset)
    span = _day_number(now, off) - _day_number(min(started), off) + 1
    if span <= MIN_SPAN_DAYS:
        return 1
    active = len({_day_number(t, off) for t in started})
    return 1 if active * 7 >= WEEKLY_BELOW * span else 7


def chart_range(started: list[float], now: float, bin_days: int,
                utc_offset: float | None = None) -> tuple[float, float]:
    """(from, to) in seconds since 1970: the first bin with an attempt to the end of today's
    bin, one bin more on each side when that is fewer than MIN_CHART_BINS (see the module
    docstring)."""
    off = _offset(utc_offset)
    today = _day_number(now, off)
    first = min([_day_number(t, off) for t in started] + [today])
    lo = _bin_start(first, bin_days)
    hi = _bin_start(today, bin_days) + bin_days
    if hi - lo < MIN_CHART_BINS * bin_days:
        lo, hi = lo - bin_days, hi + bin_days
    return lo * DAY - off, hi * DAY - off


def _series(log: TraineeLog, bin_days: int, utc_offset: float | None) -> tuple[list[Series], list[Series]]:
    """(by game, by skill): each key's bins, with the rolling accuracy."""
    off = _offset(utc_offset)
    games: dict[str, dict[int, list[int]]] = {}  # key -> bin start day -> [exercises, right]
    skills: dict[str, dict[int, list[int]]] = {}
    no_miss: frozenset[str] = frozenset()
    for attempt_id, started, game, _, _ in log.attempts:
        exercised = log.skills.get(attempt_id)
        if not exercised:
            continue
        b = _bin_start(_day_number(started, off), bin_days)
        missed = log.misses.get(attempt_id, no_miss)
        for skill in exercised:
            g = skills.setdefault(skill, {}).setdefault(b, [0, 0])
            g[0] += 1
            g[1] += skill not in missed
        g = games.setdefault(game, {}).setdefault(b, [0, 0])
        g[0] += len(exercised)
        g[1] += len(exercised) - len(missed.intersection(exercised))
    window = SMOOTH_DAYS if bin_days == 1 else SMOOTH_WEEKS * 7
    out = []
    for groups in (games, skills):
        series = []
        for key, bins in sorted(groups.items()):
            days = sorted(bins)
            smooth = []
            for d in days:
                pooled = [bins[e] for e in days if d - window < e <= d]
                smooth.append(sum(r for _, r in pooled) / sum(n for n, _ in pooled))
            series.append(Series(key, [(d + bin_days / 2) * DAY - off for d in days],
                                 [bins[d][1] / bins[d][0] for d in days], [bins[d][0] for d in days],
                                 smooth))
        out.append(series)
    return out[0], out[1]


def _bins(log: TraineeLog, bin_days: int, utc_offset: float | None) -> list[BinCount]:
    off = _offset(utc_offset)
    counts: dict[int, list[int]] = {}
    for _, started, _, passed, _ in log.attempts:
        c = counts.setdefault(_bin_start(_day_number(started, off), bin_days), [0, 0])
        c[0] += 1
        c[1] += passed
    return [BinCount(date.fromordinal(_EPOCH_ORDINAL + d).isoformat(), (d + bin_days / 2) * DAY - off,
                     *counts[d]) for d in sorted(counts)]


def rolling_median(values: list[float], n: int = SMOOTH_DRILLS) -> list[float]:
    """Each value's median with the up to `n` - 1 values before it."""
    return [statistics.median(values[max(0, i - n + 1):i + 1]) for i in range(len(values))]


def progress_report(store: Store, trainee_id: int, *, now: float | None = None,
                    days: float | None = CHART_DAYS, utc_offset: float | None = None,
                    weakest: int = 3) -> ProgressReport:
    """The Progress screen: charts of the last `days` days (None: all time), the skill table (each
    skill's last 20 attempts, whatever their age), the weakest skills and the skill to drill."""
    now = time.time() if now is None else now
    log = TraineeLog.load(store, trainee_id, None if days is None else now - days * DAY)
    by_game, by_skill = _accuracy(log, "day", utc_offset)
    table = skill_table(store, trainee_id, now=now)
    times = payout_times(store, trainee_id)
    started = [a[1] for a in log.attempts]
    bin_days = chart_bin_days(started, now, utc_offset)
    game_series, skill_series = _series(log, bin_days, utc_offset)
    return ProgressReport(
        by_game=by_game, by_skill=by_skill, payout_times=times,
        per_day=attempts_per_day(store, trainee_id, utc_offset=utc_offset, log=log),
        skills=table, weakest=weakest_skills(store, trainee_id, weakest, table=table),
        next_skill=next_drill_skill(store, trainee_id, table=table), bin_days=bin_days,
        game_series=game_series, skill_series=skill_series, bins=_bins(log, bin_days, utc_offset),
        x_range=chart_range(started, now, bin_days, utc_offset),
        payout_smooth=rolling_median([t.ratio for t in times if t.target]), attempts=len(started),
        utc_offset=_offset(utc_offset))
