"""Scoring a supervisor by signal detection.

Every action of the dealer the supervisor watches is a trial: a fault is a signal, any other
action noise. A flag (when, what it points at, which fault it names) is matched to a fault when
it points at the fault's target no earlier than the fault showed and at most WINDOW seconds
after; among several, the fault it names comes first, then the earliest. A fault no flag matches
is a miss; a flag that matches no fault is a false alarm.

- Hit rate H = hits / faults, false-alarm rate F = false alarms / the dealer's other actions (a
  flag is not tied to one action: false alarms beyond the other actions count as all of them
  flagged, so F is at most 1; each still costs its FALSE_ALARM in the score).
- d′ = z(H) − z(F), z the inverse of the standard normal distribution, with the log-linear
  correction of Hautus (1995), "Corrections for extreme proportions and their biasing effects on
  estimated values of d′", Behavior Research Methods, Instruments, & Computers 27(1), 46–52:
  0.5 is added to the hits and to the false alarms and 1 to the faults and to the other actions,
  in every round, so that a rate of 0 or 1 (or a round with no fault) still has a finite d′.
  d′ is a float: it is not money.
- The score weighs each fault by its severity (WEIGHTS: a critical fault, such as a $2,000 short
  pay, 4; a major one, such as a missed announcement, 2; a minor one 1). A hit earns its fault's
  weight, half of it when the flag names another fault (MISNAMED); each false alarm costs
  FALSE_ALARM. The score is what was earned over the weight of every fault, at least 0, as an
  exact Fraction; a round with no fault scores 1 with no false alarm and 0 with any.
- The money the missed faults moved wrongly is summed in cents (`missed_cents`).

A supervised round sat as an exam item is judged by the grading policy's one pass rule
(`judged`; reading "supervise-items" in trainer.readings): each fault no flag caught is the
grader's own finding of it, at its severity, and the item's total is the score over 100.

Flags come from a trainee's file or the class server as JSON (`flags_from_json`): at most
MOST_FLAGS, each a time within a day and a target and a fault kind of at most MOST_CHARACTERS
letters, digits, spaces, "-", "_" or "." (what every target and fault id is written in), so
that the longest list fits the class server's bound on an item's answer (262,144 bytes, s030).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from trainer.errors import shown
from trainer.grading import Finding, Result
from trainer.grading import Score as ItemScore
from trainer.policy import PASS_MARK, RULE, Severity, passes
from trainer.supervise.rounds import Fault, SupervisedRound

WEIGHTS = {Severity.CRITICAL: 4, Severity.MAJOR: 2, Severity.MINOR: 1}
FALSE_ALARM = 1
MISNAMED = Fraction(1, 2)
#: how long after a fault shows a flag on its target still catches it, in seconds
WINDOW = 15.0
#: the log-linear correction (Hautus 1995): added to each count, and twice to each number of trials
CORRECTION = Fraction(1, 2)


@dataclass(frozen=True)
class Flag:
    """A supervisor's flag: seconds into the round, what it points at (a wager "seat 2 hop-top",
    or "call", "pointer", "markers" ...: trainer.supervise.catalogue.TARGETS) and the fault type
    it names."""

    at: float
    target: str
    kind: str

    def to_json(self) -> dict:
        return {"at": self.at, "target": self.target, "kind": self.kind}


@dataclass(frozen=True)
class Catch:
    fault: Fault
    flag: Flag

    @property
    def named(self) -> bool:
        return self.flag.kind == self.fault.type.id

    @property
    def seconds(self) -> float:
        """Time to flag: from when the fault showed to the flag."""
        return self.flag.at - self.fault.at


@dataclass(frozen=True)
class Score:
    caught: tuple[Catch, ...]
    missed: tuple[Fault, ...]
    false_alarms: tuple[Flag, ...]
    noise: int  # the dealer's actions that were no fault's

    @property
    def hits(self) -> int:
        return len(self.caught)

    @property
    def signals(self) -> int:
        return len(self.caught) + len(self.missed)

    @property
    def hit_rate(self) -> Fraction:
        return Fraction(self.hits, self.signals) if self.signals else Fraction(0)

    @property
    def noise_flagged(self) -> int:
        """The other actions counted flagged: one per false alarm, at most every one of them (a
        flag is not tied to one action, so a supervisor may raise more false alarms than the
        dealer made other actions; a rate is at most 1 all the same)."""
        return min(len(self.false_alarms), self.noise)

    @property
    def false_alarm_rate(self) -> Fraction:
        return Fraction(self.noise_flagged, self.noise) if self.noise else Fraction(0)

    @property
    def corrected(self) -> tuple[Fraction, Fraction]:
        """H and F with the log-linear correction: each strictly between 0 and 1."""
        return ((self.hits + CORRECTION) / (self.signals + 2 * CORRECTION),
                (self.noise_flagged + CORRECTION) / (self.noise + 2 * CORRECTION))

    @property
    def d_prime(self) -> float:
        h, f = self.corrected
        z = NormalDist().inv_cdf
        return z(float(h)) - z(float(f))

    @property
    def mean_seconds(self) -> float | None:
        """The mean time to flag of the hits (None with no hit)."""
        return sum(c.seconds for c in self.caught) / len(self.caught) if self.caught else None

    @property
    def possible(self) -> int:
        return sum(WEIGHTS[f.type.severity] for f in (*(c.fault for c in self.caught), *self.missed))

    @property
    def earned(self) -> Fraction:
        credit = (WEIGHTS[c.fault.type.severity] * (Fraction(1) if c.named else MISNAMED)
                  for c in self.caught)
        return sum(credit, Fraction(0)) - FALSE_ALARM * len(self.false_alarms)

    @property
    def score(self) -> Fraction:
        if not self.possible:
            return Fraction(0 if self.false_alarms else 1)
        return max(Fraction(0), self.earned / self.possible)

    @property
    def missed_cents(self) -> int:
        return sum(f.cents for f in self.missed)

    def to_json(self) -> dict:
        h, f = self.corrected
        return {"hits": self.hits, "misses": len(self.missed), "false_alarms": len(self.false_alarms),
                "faults": self.signals, "other_actions": self.noise,
                "hit_rate": str(self.hit_rate), "false_alarm_rate": str(self.false_alarm_rate),
                "corrected": [str(h), str(f)], "d_prime": round(self.d_prime, 4),
                "mean_seconds_to_flag": self.mean_seconds, "named": sum(c.named for c in self.caught),
                "earned": str(self.earned), "possible": self.possible, "score": str(self.score),
                "missed_cents": self.missed_cents}


def score(rnd: SupervisedRound, flags: list[Flag], window: float = WINDOW) -> Score:
    """The supervisor's flags on a round, scored (see the module's docstring)."""
    faults = sorted(rnd.faults, key=lambda f: f.at)
    open_ = list(faults)
    caught: list[Catch] = []
    false: list[Flag] = []
    for flag in sorted(flags, key=lambda f: f.at):
        fits = [f for f in open_ if f.target == flag.target and f.at <= flag.at <= f.at + window]
        if not fits:
            false.append(flag)
            continue
        fault = next((f for f in fits if f.type.id == flag.kind), fits[0])
        open_.remove(fault)
        caught.append(Catch(fault, flag))
    faulty = sum(len(f.done) for f in rnd.faults)
    return Score(tuple(caught), tuple(open_), tuple(false), max(0, len(rnd.log) - faulty))


#: the most flags one round's answer holds, and the most characters of a flag's target or kind
MOST_FLAGS = 1000
MOST_CHARACTERS = 64
#: a flag's latest time, in seconds into the round: an exam is sat within a day
LATEST_FLAG = 24 * 3600
#: what a flag's target and kind are written in
FLAG_TEXT = re.compile(f"[A-Za-z0-9 ._-]{{1,{MOST_CHARACTERS}}}")


class FlagsError(ValueError):
    """A list of flags that cannot be read; the message names the flag and the problem."""


def flags_from_json(doc: object, where: str = "flags") -> list[Flag]:
    """The flags of a JSON list of {"at", "target", "kind"} objects (a trainee's: checked);
    FlagsError naming the first thing wrong."""
    if not isinstance(doc, list):
        raise FlagsError(f"{where}: must be a list of flags, not {shown(doc)}")
    if len(doc) > MOST_FLAGS:
        raise FlagsError(f"{where}: {len(doc):,} flags; a round's answer holds at most {MOST_FLAGS:,}")
    out = []
    for i, d in enumerate(doc):
        here = f"{where}[{i}]"
        if not isinstance(d, dict) or set(d) != {"at", "target", "kind"}:
            raise FlagsError(f"{here}: must be an object with exactly \"at\", \"target\" and \"kind\"")
        at = d["at"]
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at) \
                or not 0 <= at <= LATEST_FLAG:
            raise FlagsError(f"{here}.at: must be seconds into the round, from 0 to {LATEST_FLAG:,}, "
                             f"not {shown(at)}")
        for key in ("target", "kind"):
            v = d[key]
            if not isinstance(v, str) or not FLAG_TEXT.fullmatch(v):
                raise FlagsError(f"{here}.{key}: must be 1 to {MOST_CHARACTERS} letters, digits, "
                                 f"spaces, \"-\", \"_\" or \".\", not {shown(v)}")
        out.append(Flag(float(at), d["target"], d["kind"]))
    return out


def judged(rnd: SupervisedRound, flags: list[Flag]) -> tuple[Score, Result]:
    """The flags scored, and the round judged as an exam item by the one pass rule (reading
    "supervise-items"): the findings are the grader's own findings of each fault missed, at its
    severity; the total (and each part: a supervised round has one score) is the score over 100,
    rounded down, so that 79.9 never reads 80."""
    scored = score(rnd, flags)
    missed = {id(f) for f in scored.missed}
    findings: list[Finding] = [x for fault, found in rnd.debrief() if id(fault) in missed for x in found]
    total = math.floor(scored.score * 100)
    item = ItemScore(procedure=total, payouts=total, speed=total, total=total,
                     passed=passes((f.severity for f in findings), total, PASS_MARK),
                     critical=any(f.critical for f in findings), rule=RULE)
    return scored, Result(findings, item)
