"""The Class screen (instructor): how every trainee is doing, from the log tables on every call.

**The class overview** (`class_overview`) covers active trainees who are not instructors: a
trainees × skills table of recent accuracy (each cell: the skill's last 20 attempts), who needs
help (lowest recent accuracy over all skills, then most critical errors in the last `days` days),
the hardest items (lowest pass rate in the last `days` days, at least `min_attempts` attempts), and
each trainee's median time to answer (per action, over their last 10 attempts; see
`records.answer_gaps`).

Accuracy is the Progress screen's (trainer.progress.stats): the share of a skill's exercises with
no finding on that skill.

**One trainee** (the drill-down): `trainee_attempts` lists their attempts with the findings as
recorded, and `replay` plays one recorded round again from its log (see `Replay`). Both are made
from the attempts themselves (`attempt_line`, `replay_of`), so that the class server's attempts of
a trainee (trainer.classes.workstation.classview.attempts_of) are listed and replayed alike.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from trainer.procedure.model import Skill
from trainer.progress.records import Attempt, Trainee, answer_gaps
from trainer.progress.rows import READ_ERRORS, stored_json, trainee_from_row
from trainer.progress.stats import DAY, RIGHT_SQL, WINDOW
from trainer.progress.store import Store

ANSWER_ATTEMPTS = 10  # time to answer: over each trainee's last 10 attempts
TRAINEE_ATTEMPTS = 500  # the drill-down: a trainee's last 500 attempts


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


def who_needs_help(trainees: list[Trainee], skills: list[Skill], cells: dict, recent: dict) -> list[HelpRow]:
    """Who needs help, from each trainee's skill cells and their recent (attempts, critical
    errors, passed): lowest recent accuracy first, then most critical errors (the file's and the
    class server's overviews alike)."""
    rows = []
    for t in trainees:
        n = sum(cells[t.id, s].exercises for s in skills)
        right = sum(cells[t.id, s].right for s in skills)
        attempts, critical, passed = (int(v) for v in recent[t.id])
        rows.append(HelpRow(t, right / n if n else None, attempts, critical, passed))
    rows.sort(key=lambda h: (h.recent_accuracy is None, h.recent_accuracy or 0, -h.critical,
                             h.trainee.name.lower()))
    return rows


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
    help_rows = who_needs_help(trainees, skills, cells, recent)
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
    for r in store.query(
            "SELECT a.id, a.trainee_id, a.log FROM trainees t JOIN attempts a ON a.id IN ("
            "  SELECT id FROM attempts INDEXED BY attempts_trainee WHERE trainee_id = t.id AND abandoned = 0 "
            f"  ORDER BY started DESC LIMIT {int(answers)}) "
            "WHERE t.archived = 0 AND t.instructor = 0"):
        try:
            gaps[r["trainee_id"]].extend(answer_gaps(stored_json(r["log"], "log")))
        except READ_ERRORS as e:  # a damaged log: named, and left out of the median
            store.note_unreadable(f"attempt {r['id']}", e)
    answer = {tid: statistics.median(g) if g else None for tid, g in gaps.items()}
    return ClassOverview(trainees, skills, cells, help_rows, hardest, answer)


# --- one trainee: their attempts, and a round replayed -----------------------------------------------

MODE_NAMES = {"practice": "Practice round", "scenario": "Scenario", "drill": "Drill",
              "payout-drill": "Payout drill", "exam": "Exam"}


def item_title(item_id: str, mode: str = "") -> str:
    """What an attempt was, in words: a scenario's title ("First shake: the Field and a hardway"),
    or for a dealt round its game and difficulty ("Props & Hops practice, difficulty 3"); an id
    this machine does not know is shown as it is."""
    from trainer.games import GAME_NAMES
    from trainer.progress.regrade import _library

    if item_id.startswith("drill:"):
        _, game, difficulty = item_id.split(":", 2)
        what = "payout drill" if mode == "payout-drill" else "practice"
        return f"{GAME_NAMES.get(game, game)} {what}, difficulty {difficulty}"
    scenario = _library().by_id(item_id)
    return scenario.title if scenario is not None else item_id


@dataclass(frozen=True, slots=True)
class AttemptLine:
    """One attempt as the drill-down lists it."""

    id: int
    started: float
    game: str  # its display name
    title: str  # item_title
    mode: str  # MODE_NAMES
    total: int
    passed: bool
    critical: bool
    abandoned: bool
    findings: tuple[dict, ...]  # as recorded: message, cite (the regulation's section), severity ...
    rule: int | None = None  # the pass rule it was graded under (trainer.policy)


def attempt_line(a: Attempt) -> AttemptLine:
    """One attempt as the drill-down lists it."""
    from trainer.games import GAME_NAMES

    return AttemptLine(a.id, a.started, GAME_NAMES.get(a.game, a.game), item_title(a.item_id, a.mode.value),
                       MODE_NAMES.get(a.mode.value, a.mode.value), a.total, a.passed, a.critical,
                       a.abandoned, a.findings, a.rule)


def trainee_attempts(store: Store, trainee_id: int, *, limit: int = TRAINEE_ATTEMPTS) -> list[AttemptLine]:
    """A trainee's attempts, newest first (the last `limit`), with their findings as recorded."""
    return [attempt_line(a) for a in store.attempts(trainee_id, newest_first=True, limit=limit)]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action of the recorded log, as the replay shows it."""

    number: int  # its place in the log, from 1
    text: str  # "Pay seat 2 Six the Hardway (3-3) $150.00"
    at: float  # seconds since the round started
    by_trainer: bool  # done by the trainer (the automation), not the trainee
    throw: int  # the throw it belongs to (0: before the first)
    findings: tuple[dict, ...]  # the recorded findings on this action
    table: Any = None  # the table after it (a TableState), None where it cannot be shown
    said: str | None = None  # what the dealer says aloud with it (trainer.spoken.stickman_says)


@dataclass(frozen=True)
class Replay:
    """A recorded round played again from its log: the round dealt again by its seed or scenario,
    each recorded action in order with the table after it and the findings recorded on it.

    What a replay shows is the record: the steps are the recorded log, the findings the recorded
    findings. Only the table is made again here, by feeding the trainee's recorded actions to the
    round dealt again; `exact` says it followed the record throughout, and `notes` say where not."""

    attempt_id: int
    title: str
    game: str
    options: dict
    dealt: Any  # the table as dealt (a TableState), None if the round cannot be dealt here
    steps: list[ReplayStep]
    missing: list[dict]  # recorded findings on no action: steps not done, the time
    expected: list[tuple[int, str, str]]  # the answer key: (throw, the trainee's step, its section)
    exact: bool
    notes: list[str]


def _same(a: dict, b: dict) -> bool:
    keys = ("do", "round", "seat", "bet", "amount", "value")
    return all(a.get(k) == b.get(k) for k in keys) and abs(a.get("at", 0) - b.get("at", 0)) < 1e-3


def replay(store: Store, attempt_id: int) -> Replay:
    """The attempt's round replayed from its log (`replay_of`); KeyError if there is no such
    attempt."""
    return replay_of(store.attempt(attempt_id))


def replay_of(a: Attempt) -> Replay:
    """An attempt's round replayed from its log (see `Replay`), wherever the attempt was read
    (a progress file, the class server). A round this machine cannot deal again (a scenario it
    does not have) is replayed without its table and answer key, and says so."""
    from trainer.practice import PracticeRound
    from trainer.procedure import Automation, Do
    from trainer.procedure.model import describe
    from trainer.progress.records import Mode
    from trainer.progress.regrade import round_of
    from trainer.spoken import stickman_says
    from trainer.vocabulary import UNDO_TOLD

    title = item_title(a.item_id, a.mode.value)
    log = a.performed()
    unplaced = list(a.findings)

    def findings_on(raw: dict) -> tuple[dict, ...]:
        mine = [f for f in unplaced if f.get("actual") is not None and _same(f["actual"], raw)]
        for f in mine:
            unplaced.remove(f)
        return tuple(mine)

    notes: list[str] = []
    try:
        scenario, procedure = round_of(a)
    except (KeyError, ValueError):
        scenario = procedure = None
    if scenario is None or scenario.game != a.game:
        what = f"the round {a.seed}" if a.seed else f"the scenario “{a.item_id}”"
        notes.append(f"This machine cannot deal {what} again (it is not in this trainer's library): "
                     "the trainee's recorded steps and findings are shown, but not the table or the "
                     "answer key.")
        steps = [ReplayStep(n, describe(p.do, p.seat, p.bet, p.amount, p.value), p.at, p.by_trainer,
                            p.throw, findings_on(raw), said=stickman_says(p.do, p.value, a.game))
                 for n, (p, raw) in enumerate(zip(log, a.log, strict=True), start=1)]
        return Replay(a.id, title, a.game, {}, None, steps, unplaced, [], False, notes)

    automation = Automation.PAYOUTS if a.mode is Mode.PAYOUT_DRILL else scenario.automation
    clock = [0.0]
    round_ = PracticeRound(scenario, automation, clock=lambda: clock[0], procedure=procedure)
    dealt = round_.table_state()
    expected = [(e.throw, e.label, e.cite) for _, e in round_.procedure.for_trainee(automation).actions()]
    exact, following = True, True
    steps = []
    for n, (p, raw) in enumerate(zip(log, a.log, strict=True), start=1):
        table = None
        if following and not p.by_trainer:  # the trainer's own steps the round does again itself
            clock[0] = p.at
            try:
                if p.do is Do.SKIP_THROW:
                    round_.skip_throw()
                elif p.do is Do.UNDO:  # the table as it was before what was taken back
                    taken = round_.undo(told=p.value == UNDO_TOLD)
                    if isinstance(taken, str):
                        raise ValueError(f"an undo with nothing to take back: {taken}")
                else:
                    while p.throw > round_.throw and not round_.finished:
                        notes.append(f"The record goes on to throw {p.throw} at step {n} with throw "
                                     f"{round_.throw} unfinished: the replay moves the table on there.")
                        exact = False
                        round_.skip_throw()
                    if round_.finished or p.throw < round_.throw:
                        raise ValueError("the round dealt here is already past this step")
                    round_.perform(p.do, seat=p.seat, bet=p.bet, amount=p.amount, value=p.value)
                table = round_.table_state()
            except (ValueError, KeyError, RuntimeError) as e:
                notes.append(f"From step {n} on the table cannot be shown: the recorded steps no "
                             f"longer follow the round as this machine deals it ({e}).")
                following = exact = False
        elif following and steps:
            table = steps[-1].table
        elif following:
            table = dealt
        steps.append(ReplayStep(n, describe(p.do, p.seat, p.bet, p.amount, p.value), p.at, p.by_trainer,
                                p.throw, findings_on(raw), table, stickman_says(p.do, p.value, a.game)))
    if following:
        again = {(f.message, f.cite) for f in round_.finish().findings}
        if again != {(f["message"], f["cite"]) for f in a.findings}:
            notes.append("Graded again on this machine, the round gives other findings than those "
                         "recorded (the rules or the grading have changed since): the recorded "
                         "findings are shown.")
    if not log:
        notes.append("No step was recorded: the round was left before the trainee acted.")
    return Replay(a.id, title, scenario.game, dict(scenario.options), dealt, steps, unplaced, expected,
                  exact, notes)
