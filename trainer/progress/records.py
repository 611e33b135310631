"""The records the store keeps: a trainee, and one attempt with its findings, skills and log.

`AttemptRecord` is what the app hands to `Store.record_attempt` when a round ends (built from the
grading `Result` by `AttemptRecord.from_result`); `Attempt` is the same read back, with its id.
Both are checked when built, so that a bad value fails here, loudly, and never reaches the file.

- `item_id` names the item without its seed: a scenario id, or for a random round
  `drill:<game>:<difficulty>` (`drill_item_id`), so that the class overview can rank items by
  pass rate; the seed that deals the round again goes in `seed`.
- Times are seconds since 1970 (UTC): `started`, `ended`; `duration` and `target` are seconds.
- `skills` are the skills the round graded (the skills of the expected actions the trainee had to
  do, `skills_of`); the skill of every finding is added. An abandoned attempt was not graded, so
  it exercises no skill and counts in no accuracy.
- `log` is the trainee's action log, `Performed.to_json()` dicts; `findings` are
  `Finding.to_json()` dicts.
"""

from __future__ import annotations

import math
import platform
import unicodedata
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from trainer.errors import shown
from trainer.grading import Finding, Kind, Result, Severity
from trainer.procedure.model import Automation, Do, Performed, Procedure, Skill

FINDING_KEYS = ("kind", "severity", "message", "cite", "skill", "expected", "actual")


class Mode(StrEnum):
    PRACTICE = "practice"  # a random round
    SCENARIO = "scenario"  # a scripted round from scenarios/
    DRILL = "drill"  # a procedure drill, or a round aimed at a skill
    PAYOUT_DRILL = "payout-drill"  # timed payouts on a settled throw
    EXAM = "exam"


def workstation() -> str:
    return platform.node() or "unknown"


def drill_item_id(game: str, difficulty: int) -> str:
    return f"drill:{game}:{difficulty}"


def skills_of(procedure: Procedure, automation: Automation) -> tuple[Skill, ...]:
    """The skills a round grades: those of the expected actions the trainee must do."""
    seen = dict.fromkeys(e.skill for _, e in procedure.for_trainee(automation).actions())
    return tuple(seen)


def clean_name(name: str) -> str:
    """A display name as stored, compared and shown: NFKC, no invisible (format, control or
    unassigned) characters, single spaces. "Ivy" and "Ivy" + a zero-width space are one name."""
    text = name
    for _ in range(2):  # a character removed can leave a mark to compose: normalized again
        text = unicodedata.normalize("NFKC", text)
        text = "".join(ch for ch in text if unicodedata.category(ch) not in INVISIBLE)
    return " ".join(text.split())


#: the characters no name keeps (format, control, private-use, unassigned, surrogates)
INVISIBLE = ("Cf", "Cc", "Co", "Cn", "Cs")
#: the longest name a trainee is given here, typed or imported; a class server keeps 200 (its
#: s010), room for what an import adds to a name taken already: " (workstation 2)"
NAME_LONGEST = 100


def long_name(name: str) -> str | None:
    """Why a (cleaned) name is too long to keep, or None."""
    if len(name) <= NAME_LONGEST:
        return None
    return f"a name of {NAME_LONGEST} characters at most, please (this one has {len(name):,})"


@dataclass(frozen=True, slots=True)
class Trainee:
    id: int
    name: str
    created: float
    archived: bool
    archived_at: float | None
    instructor: bool
    has_passphrase: bool
    public_key: str | None = None  # an instructor key's public half (hex), when made with one
    key_path: str | None = None  # where that key's sealed file was
    uid: str = ""  # made where the profile was made; how results files find the trainee


def _score(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
        raise ValueError(f"{name}: must be a whole number from 0 to 100, not {v!r}")
    return v


#: the moments an attempt may carry (2000-01-01 to 2100-01-01 UTC), and the longest it may last:
#: anything else is a damaged or made-up file, and would break every chart and export after it
EARLIEST, LATEST = 946_684_800.0, 4_102_444_800.0
LONGEST = 7 * 86_400.0


def _number(name: str, v: Any, *, optional: bool = False, high: float = LONGEST) -> float | None:
    """Seconds: a finite number from 0 to `high`."""
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
        raise ValueError(f"{name}: must be a number of seconds, not {shown(v)}")
    if v > high:
        raise ValueError(f"{name}: {shown(v)} seconds is more than this trainer accepts ({high:,.0f})")
    return float(v)


def moment(name: str, v: Any) -> float:
    """A time of day as seconds since 1970, between 2000 and 2100."""
    seconds = _number(name, v, high=LATEST)
    if seconds is None or seconds < EARLIEST:  # None: not a number at all (already refused)
        raise ValueError(f"{name}: {shown(v)} is not a time between 2000 and 2100")
    return seconds


def _flag(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"{name}: must be true or false, not {v!r}")
    return v


def _text(name: str, v: Any, *, optional: bool = False, empty: bool = False) -> str | None:
    """Text the progress file can store and a class server can take: no NUL, and no lone
    surrogate (which a results file can carry as an escape, "\\ud800", and UTF-8 cannot)."""
    if v is None and optional:
        return None
    if not isinstance(v, str) or not (v or empty):
        raise ValueError(f"{name}: must be a non-empty text, not {shown(v)}")
    if "\x00" in v or not _utf8(v):
        raise ValueError(f"{name}: {shown(v)} holds a NUL or a lone surrogate, which no text may")
    return v


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _enum(name: str, cls: type[StrEnum], v: Any):
    try:
        return cls(v)
    except ValueError:
        raise ValueError(f"{name}: {v!r} is not one of {', '.join(m.value for m in cls)}") from None


def finding_json(f: Finding | dict, where: str = "finding") -> dict:
    """A finding as stored: Finding.to_json()'s keys, each value checked."""
    d = f.to_json() if isinstance(f, Finding) else f
    if not isinstance(d, dict):
        raise ValueError(f"{where}: must be an object, not {d!r}")
    out = {"kind": _enum(f"{where}.kind", Kind, d.get("kind")).value,
           "severity": _enum(f"{where}.severity", Severity, d.get("severity")).value,
           "message": _text(f"{where}.message", d.get("message")),
           "cite": d.get("cite") or "",
           "skill": _enum(f"{where}.skill", Skill, d.get("skill")).value,
           "expected": _text(f"{where}.expected", d.get("expected"), optional=True),
           "actual": d.get("actual")}
    _text(f"{where}.cite", out["cite"], empty=True)
    if out["actual"] is not None:
        out["actual"] = action_json(out["actual"], f"{where}.actual")
    return out


#: the actions' ids, for the common case of action_json
_DOS = frozenset(d.value for d in Do)
#: an action's fields that are stored as they are, when given (Performed.to_json)
_AS_GIVEN = ("seat", "bet", "amount", "value")


def action_json(p: Performed | dict, where: str = "log") -> dict:
    """A logged action as stored: Performed.to_json(), checked by reading it back. An action as
    the app writes it (an action's id, a whole round, a time within bounds) is stored without
    being read back, which gives the same: an export or a Class tab reads every action of every
    log through here, and reading each back took four fifths of that. Every other is read back
    (`_read_back`), and refused as it was."""
    if type(p) is dict:
        do, throw, at, by_trainer = p.get("do"), p.get("round"), p.get("at", 0.0), p.get("by_trainer", False)
        if (type(do) is str and do in _DOS and type(throw) is int and type(by_trainer) is bool
                and type(at) in (float, int) and 0 <= at <= LONGEST):
            out = {"do": do, "round": throw, "at": round(float(at), 3)}
            for name in _AS_GIVEN:
                if (v := p.get(name)) is not None:
                    out[name] = v
            if by_trainer:
                out["by_trainer"] = True
            return out
    return _read_back(p, where)


def _read_back(p: Performed | dict, where: str) -> dict:
    """action_json of any action: Performed.to_json() of what Performed.from_json reads."""
    if isinstance(p, Performed):
        return p.to_json()
    if not isinstance(p, dict):
        raise ValueError(f"{where}: must be an object, not {p!r}")
    try:
        action = Performed.from_json(p)
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        raise ValueError(f"{where}: not a logged action ({type(e).__name__}: {e})") from None
    _number(f"{where}.at", action.at)
    return action.to_json()


@dataclass(frozen=True, kw_only=True)
class AttemptRecord:
    """One finished (or abandoned) attempt, as the app records it. `uid` makes import idempotent."""

    trainee_id: int
    item_id: str
    game: str
    mode: Mode
    started: float
    ended: float
    procedure: int
    payouts: int
    speed: int
    total: int
    passed: bool
    critical: bool
    duration: float | None = None  # default: ended - started
    target: float | None = None  # the target time in seconds, if the item has one
    seed: str | None = None
    abandoned: bool = False
    skills: tuple[Skill, ...] = ()
    findings: tuple[dict, ...] = ()
    log: tuple[dict, ...] = ()
    source: str = field(default_factory=workstation)
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)
    #: the pass rule it was graded under (trainer.policy); a row recorded before rules were kept
    #: reads as rule 1
    rule: int | None = None

    def __post_init__(self) -> None:
        put = lambda name, v: object.__setattr__(self, name, v)  # noqa: E731
        if isinstance(self.trainee_id, bool) or not isinstance(self.trainee_id, int):
            raise ValueError(f"trainee_id: must be a trainee id, not {self.trainee_id!r}")
        for name in ("item_id", "game", "uid"):
            _text(name, getattr(self, name))
        _text("source", self.source, empty=True)
        put("mode", _enum("mode", Mode, self.mode))
        if self.seed is not None:
            if isinstance(self.seed, bool) or not isinstance(self.seed, int | str):
                raise ValueError(f"seed: must be text or a whole number, not {shown(self.seed)}")
            put("seed", _text("seed", str(self.seed)))
        put("started", moment("started", self.started))
        put("ended", moment("ended", self.ended))
        if self.ended < self.started:
            raise ValueError(f"ended: {self.ended} is before started {self.started}")
        put("duration", _number("duration", self.duration, optional=True))
        if self.duration is None:
            put("duration", self.ended - self.started)
        put("target", _number("target", self.target, optional=True))
        for name in ("procedure", "payouts", "speed", "total"):
            _score(name, getattr(self, name))
        for name in ("passed", "critical", "abandoned"):
            _flag(name, getattr(self, name))
        if self.rule is not None and (isinstance(self.rule, bool) or not isinstance(self.rule, int)
                                      or self.rule < 1):
            raise ValueError(f"rule: must be a pass rule's number, not {self.rule!r}")
        findings = tuple(finding_json(f, f"findings[{i}]") for i, f in enumerate(self.findings))
        put("findings", findings)
        put("log", tuple(action_json(p, f"log[{i}]") for i, p in enumerate(self.log)))
        skills: dict[Skill, None] = {}
        if not self.abandoned:
            for i, s in enumerate(self.skills):
                skills[_enum(f"skills[{i}]", Skill, s)] = None
            for f in findings:
                skills[Skill(f["skill"])] = None
        put("skills", tuple(skills))

    @classmethod
    def from_result(cls, *, trainee_id: int, item_id: str, game: str, mode: Mode, result: Result,
                    log: Sequence[Performed], skills: Iterable[Skill], started: float, ended: float,
                    target: float | None = None, seed: str | int | None = None,
                    abandoned: bool = False, **more: Any) -> AttemptRecord:
        s = result.score
        return cls(trainee_id=trainee_id, item_id=item_id, game=game, mode=mode, started=started,
                   ended=ended, procedure=s.procedure, payouts=s.payouts, speed=s.speed, total=s.total,
                   passed=s.passed, critical=s.critical, target=target,
                   seed=None if seed is None else str(seed), abandoned=abandoned, skills=tuple(skills),
                   findings=tuple(f.to_json() for f in result.findings),
                   log=tuple(p.to_json() for p in log), rule=s.rule,
                   **more)

    def regraded(self, result: Result, skills: Iterable[Skill], target: float | None) -> AttemptRecord:
        """This attempt with the scores, findings and skills of a grade of its log, done here
        (trainer.progress.regrade); its log, checked when it was made, is not checked again."""
        s = result.score
        again = replace(
            self, procedure=s.procedure, payouts=s.payouts, speed=s.speed, total=s.total,
            passed=s.passed, critical=s.critical, findings=tuple(f.to_json() for f in result.findings),
            rule=s.rule,
            skills=tuple(skills), target=target, log=())
        object.__setattr__(again, "log", self.log)
        return again

    def performed(self) -> list[Performed]:
        return [Performed.from_json(p) for p in self.log]


@dataclass(frozen=True, kw_only=True)
class Attempt(AttemptRecord):
    """An attempt read back from the store."""

    id: int


def attempt_of(round_, result: Result, *, trainee_id: int, ended: float) -> AttemptRecord:
    """The attempt a finished practice round makes (trainer.practice.PracticeRound and its
    result): its mode and item from the round, and the id of a dealt round as its seed, so that
    another machine can deal it again and re-grade it
    (trainer.progress.regrade.regrade_attempt)."""
    s = round_.scenario
    if s.id.startswith("payout-drill-"):  # trainer.drills.payout_drill
        mode, item = Mode.PAYOUT_DRILL, drill_item_id(s.game, s.difficulty)
    elif s.id.startswith("drill-"):
        mode, item = Mode.PRACTICE, drill_item_id(s.game, s.difficulty)
    else:
        mode, item = Mode.SCENARIO, s.id
    return AttemptRecord.from_result(
        trainee_id=trainee_id, item_id=item, game=s.game, mode=mode, result=result, log=round_.log,
        skills=skills_of(round_.procedure, round_.automation), started=ended - round_.elapsed,
        ended=ended, target=s.target_seconds,
        seed=s.id if s.id.startswith(("drill-", "payout-drill-")) else None)


def answer_gaps(log: Iterable[dict]) -> list[float]:
    """Seconds the trainee took for each of their actions: from the action before it (theirs or
    the trainer's), or from the start of the round for the first. ValueError for a log that is
    not a list of actions (a damaged one)."""
    log = list(log)
    if not all(isinstance(p, dict) for p in log):
        raise ValueError("log: an action that is not an object")
    gaps, last = [], 0.0
    for p in sorted(log, key=lambda p: p.get("at", 0.0)):
        at = float(p.get("at", 0.0))
        if not p.get("by_trainer") and p.get("do") not in (Do.SKIP_THROW, Do.UNDO):  # no answers
            gaps.append(max(0.0, at - last))
        last = at
    return gaps


__all__ = ["FINDING_KEYS", "Attempt", "AttemptRecord", "Mode", "Trainee", "answer_gaps", "attempt_of",
           "drill_item_id", "skills_of", "workstation"]
