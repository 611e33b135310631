"""Grading: the trainee's action log against the expected procedure, with the regulation behind
every finding.

Matching is per round (throw attempt): a logged action matches an unmatched expected action of
the same round with the same key (action, seat, bet, value). An action done while an earlier
stage still has work left is out of order. What matches nothing is classified (a payment on a
losing wager, settling on a no roll, accepting a wager that must be refused, ...). Everything is
deterministic: the same log always gets the same findings and score.

The score has three parts, each 0–100: procedure (every non-payment step done right and in
order), payouts (every payment right to the cent), and speed (against the scenario's target
time). The total weighs them 50/35/15. What each finding weighs and what passes is the grading
policy's (trainer.policy): a round passes with no critical and no major finding and its total at
PASS_MARK.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from enum import StrEnum

from trainer import games
from trainer.cite import cite
from trainer.games import bet_name
from trainer.games.three_dice_football import as_before_pucks, logged_before_pucks
from trainer.money import fmt_dollars
from trainer.policy import RULE, SPOKEN, Severity, missed, passes, uncalled
from trainer.procedure.model import Automation, Do, Expected, Performed, Procedure, Skill, describe
from trainer.vocabulary import UNDO_TOLD

WEIGHTS = (0.50, 0.35, 0.15)  # procedure, payouts, speed
EXTRA_PENALTY = 5  # procedure points per extra action


class Kind(StrEnum):
    MISSING = "missing"
    OUT_OF_ORDER = "out of order"
    WRONG_CALL = "wrong call"
    WRONG_RECORD = "wrong record"  # a marker, puck, pointer, lammer or the dice put wrong
    LATE = "settled late"  # an earlier throw's settlement, done after the dice were thrown again
    WRONG_AMOUNT = "wrong amount"
    SHOULD_HAVE_REFUSED = "should have refused"
    ACCEPTED_IMPROPER = "accepted an improper wager"
    EXTRA = "extra action"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    severity: Severity
    message: str
    cite: str
    skill: Skill
    expected: Expected | None = None
    actual: Performed | None = None

    @property
    def critical(self) -> bool:
        return self.severity is Severity.CRITICAL

    def to_json(self) -> dict:
        return {"kind": self.kind.value, "severity": self.severity.value, "message": self.message,
                "cite": self.cite, "skill": self.skill.value,
                "expected": self.expected.id if self.expected else None,
                "actual": self.actual.to_json() if self.actual else None}


@dataclass(frozen=True, slots=True)
class Score:
    procedure: int
    payouts: int
    speed: int
    total: int
    passed: bool
    critical: bool
    rule: int = RULE  # the pass rule it was graded under (trainer.policy)

    def to_json(self) -> dict:
        return {"procedure": self.procedure, "payouts": self.payouts, "speed": self.speed,
                "total": self.total, "passed": self.passed, "critical": self.critical,
                "rule": self.rule}


@dataclass
class Result:
    findings: list[Finding]
    score: Score
    matched: dict[int, int] = field(default_factory=dict)  # log index -> expected index
    remaining: list[Expected] = field(default_factory=list)  # unmatched, in stage order

    @property
    def next_expected(self) -> Expected | None:
        return self.remaining[0] if self.remaining else None


def as_expected_before_pucks(e: Expected) -> Expected:
    """A move of the markers as it was expected before the pucks were placed apart."""
    if e.value is None:
        return e
    value, note = as_before_pucks(e.value, e.note)
    return replace(e, value=value, note=note)


def grade(procedure: Procedure, log: list[Performed], *, automation: Automation, game: str,
          target_seconds: float, elapsed: float | None = None, final: bool = True,
          skipped: AbstractSet[int] = frozenset(), told: bool = True) -> Result:
    """Grade a log. `skipped` holds id()s of expected actions the trainee chose to leave: they
    hold up no later step (no out-of-order finding), and are missing at the end. `told`: keep
    the findings the feedback told of actions an undo took back (reading "undo")."""
    return _graded(Walk(procedure, log, automation, game, skipped), procedure, log,
                   automation=automation, game=game, target_seconds=target_seconds,
                   elapsed=elapsed, final=final, skipped=skipped, told=told)


class LiveGrade:
    """A round's log graded after every action, as it grows: the actions already matched are not
    matched again (the walk over the log is kept), so grading an action costs what that action
    adds. The result is `grade`'s, finding for finding: the walk starts again from the first
    action whenever the log is not the last one grown (an undo takes back an earlier action,
    a move of the markers changes how the whole log reads, the skipped steps change)."""

    def __init__(self, procedure: Procedure, *, automation: Automation, game: str,
                 target_seconds: float):
        self.procedure, self.automation, self.game = procedure, automation, game
        self.target_seconds = target_seconds
        self._walk: Walk | None = None

    def grade(self, log: list[Performed], *, skipped: AbstractSet[int] = frozenset(),
              elapsed: float | None = None, final: bool = False) -> Result:
        walk = self._walk
        if walk is None or not walk.grows_to(log, skipped):
            walk = Walk(self.procedure, log, self.automation, self.game, skipped)
        else:
            walk.take(log)
        self._walk = walk
        return _graded(walk, self.procedure, log, automation=self.automation, game=self.game,
                       target_seconds=self.target_seconds, elapsed=elapsed, final=final,
                       skipped=skipped, told=True)


class Walk:
    """The matching of a log against the trainee's expected actions, action by action: what
    each matched, and the findings of those that matched nothing. `take` goes on with the
    actions appended since."""

    def __init__(self, procedure: Procedure, log: list[Performed], automation: Automation,
                 game: str, skipped: AbstractSet[int]):
        self.procedure, self.game = procedure, game
        mine = procedure.for_trainee(automation)
        expected = list(mine.actions())  # (stage, action)
        self.before_pucks = logged_before_pucks([p.value for p in log if p.do is Do.MOVE_MARKERS])
        if self.before_pucks:
            # a log from before the pucks were placed apart is graded as it was then: the yard line
            expected = [(s, as_expected_before_pucks(e) if e.do is Do.MOVE_MARKERS and e.value else e)
                        for s, e in expected]
        self.expected = expected
        self.open_ = [True] * len(expected)
        self.closed_at: dict[int, int] = {}  # expected index -> the log index that closed it
        self.settles, self.no_rolls = procedure.settled_throws(), procedure.no_rolls()
        self.findings: list[Finding] = []
        self.matched: dict[int, int] = {}
        self.paid_wagers: set[tuple[int | None, str | None]] = set()
        self.extras = 0
        self.by_throw: dict[int, list[int]] = {}  # throw -> its expected actions (indices, in order)
        for k, (_, e) in enumerate(expected):
            self.by_throw.setdefault(e.throw, []).append(k)
        self.paid_later = games.get(game).paid_later
        self.chosen, self.skipped = frozenset(skipped), set(skipped)
        self.undone = taken_back(log)
        self.log: list[Performed] = []
        self.take(log)

    def grows_to(self, log: list[Performed], skipped: AbstractSet[int]) -> bool:
        """Whether `log` is this walk's log with actions appended that leave what came before
        as it was read: no undo among them, the same reading of the markers, the same skipped
        steps."""
        seen = len(self.log)
        return (len(log) >= seen and skipped == self.chosen
                and all(a is b for a, b in zip(self.log, log[:seen], strict=True))
                and not any(p.do is Do.UNDO for p in log[seen:])
                and (self.before_pucks or not logged_before_pucks(
                    [p.value for p in log[seen:] if p.do is Do.MOVE_MARKERS])))

    def find(self, p: Performed, test) -> int | None:
        open_, expected = self.open_, self.expected
        for k in self.by_throw.get(p.throw, ()):
            if open_[k] and test(expected[k][1]):
                return k
        return None

    def early(self, p: Performed) -> int | None:
        return next((k for k, (_, e) in enumerate(self.expected)
                     if self.open_[k] and e.throw > p.throw and e.key == p.key), None)

    def late(self, p: Performed) -> int | None:  # the latest earlier throw's, where there are several
        return next((k for k, (_, e) in reversed(list(enumerate(self.expected)))
                     if self.open_[k] and e.throw < p.throw and e.key == p.key), None)

    def take(self, log: list[Performed]) -> None:
        """Match the actions of `log` after those already taken."""
        expected, open_, closed_at, findings = self.expected, self.open_, self.closed_at, self.findings
        procedure, game, undone, skipped = self.procedure, self.game, self.undone, self.skipped
        for n in range(len(self.log), len(log)):
            p = log[n]
            self.log.append(p)
            if p.do is Do.UNDO or n in undone:  # taken back: graded below, where it was told
                continue
            if p.do is Do.SKIP_THROW:  # what of that throw is still open is left, not out of order
                skipped |= {id(e) for k, (_, e) in enumerate(expected)
                            if open_[k] and e.throw == p.throw}
                continue
            if p.by_trainer:
                continue
            k = self.find(p, lambda e, p=p: e.key == p.key)
            if k is None and p.do is Do.PAY and p.bet in self.paid_later:
                k = self.early(p)  # decided, but paid after a later throw: graded as out of order
            settled_late = False
            if k is None and p.do in (Do.PAY, Do.COLLECT):
                k = self.late(p)
                settled_late = k is not None
            if k is not None:
                e = expected[k][1]
                if settled_late:  # no later step waits for it: the one finding says what happened
                    findings.append(late_finding(p, e, procedure))
                    skipped.add(id(e))
                if e.do is Do.PAY and p.amount != e.amount:
                    findings.append(Finding(
                        Kind.WRONG_AMOUNT, Severity.CRITICAL,
                        f"paid {fmt_dollars(p.amount or 0)} on seat {e.seat} {bet_name(e.bet)}; the "
                        f"payout is {fmt_dollars(e.amount or 0)}: {e.note}",
                        f"{e.pays_cite}; {e.cite}" if e.pays_cite else e.cite, e.skill, e, p))
                if e.do is Do.PAY:
                    self.paid_wagers.add((e.seat, e.bet))
                open_[k], closed_at[k] = False, n
                if not settled_late:
                    self.matched[n] = k
                continue
            finding, consumed = classify(p, expected, open_, self.find, self.settles, self.no_rolls,
                                         self.paid_wagers, game, procedure)
            if consumed is not None:
                open_[consumed], closed_at[consumed] = False, n
            if finding.kind is Kind.EXTRA and not finding.critical:
                self.extras += 1
            findings.append(finding)


def _graded(walk: Walk, procedure: Procedure, log: list[Performed], *, automation: Automation,
            game: str, target_seconds: float, elapsed: float | None, final: bool,
            skipped: AbstractSet[int], told: bool) -> Result:
    """The result of a log walked to its end: the findings of its actions, those an undo took
    back after they were told, what was out of order and (at the end) what is missing."""
    expected, open_ = walk.expected, walk.open_
    findings = list(walk.findings)
    # an action taken back after the feedback told its grade keeps the findings it was told
    # (reading "undo"): what the trainee was shown cannot be untold. Those of the actions taken
    # back before it do not change what it was told, so they are left out of that grade
    # (`told=False`), which keeps a log of many undos to one grade each
    for n in sorted(k for k, was_told in walk.undone.items() if was_told and told):
        then = grade(procedure, log[:n + 1], automation=automation, game=game,
                     target_seconds=target_seconds, final=False, skipped=skipped, told=False)
        findings += [f for f in then.findings if f.actual is log[n]]
    # out of order: done while a stage before it had work left that was done afterwards (work
    # never done is "missing" instead, so one skipped step does not flag everything after it)
    findings += out_of_order(procedure, expected, log, walk.matched, walk.closed_at, walk.skipped,
                             final)
    remaining = [e for k, (_, e) in enumerate(expected) if open_[k]]
    if final:
        for e in remaining:
            if e.do is Do.REFUSE:
                findings.append(Finding(Kind.SHOULD_HAVE_REFUSED, Severity.CRITICAL,
                                        f"seat {e.seat} {bet_name(e.bet)} must be refused: {e.note}", e.cite,
                                        e.skill, e))
            else:
                findings.append(Finding(Kind.MISSING, missed(e.do), missing_message(e), e.cite,
                                        e.skill, e))
    return Result(findings, score(expected, open_, findings, walk.extras, target_seconds, elapsed),
                  dict(walk.matched), remaining)


def taken_back(log: list[Performed]) -> dict[int, bool]:
    """The log's actions an undo took back (reading "undo"), by index: for each undo, the
    trainee's latest action of the same throw not already taken back, with whether the feedback
    had told its grade. An undo with nothing of the trainee's before it in its throw takes back
    nothing."""
    out: dict[int, bool] = {}
    for n, p in enumerate(log):
        if p.do is not Do.UNDO or p.by_trainer:  # the trainer takes nothing back
            continue
        k = next((j for j in range(n - 1, -1, -1)
                  if j not in out and not log[j].by_trainer and log[j].throw == p.throw
                  and log[j].do not in (Do.UNDO, Do.SKIP_THROW)), None)
        if k is not None:
            out[k] = p.value == UNDO_TOLD
    return out


def out_of_order(procedure: Procedure, expected, log, matched, closed_at, skipped,
                 final: bool) -> list[Finding]:
    """A finding for every action done while a stage the regulation puts before it had work
    left that was done afterwards; it cites the section that imposes the order."""
    # stage -> the log index by which every action of the stages before it was closed (the
    # log's length while one is open): an action done after it has nothing pending, which is
    # most of a log, so only the others look through the stages before theirs
    closes = [-1] * len(procedure.after)  # stage -> the log index by which its own were closed
    open_at = len(log)
    get = closed_at.get
    for j, (s, x) in enumerate(expected):
        if (c := get(j, open_at)) > closes[s] and id(x) not in skipped:
            closes[s] = c
    settled: list[int] = []
    through: list[int] = []  # stage -> by when it and every stage before it were closed
    for s, parents in enumerate(procedure.after):  # a stage waits only for earlier ones
        done = -1  # (Procedure.ancestors)
        for p in parents:
            if through[p] > done:
                done = through[p]
        settled.append(done)
        through.append(done if done > closes[s] else closes[s])
    by_stage: dict[int, list[int]] = {}  # stage -> its expected actions (indices, in order)
    waits: dict[int, list[int]] = {}  # stage -> the expected actions of the stages before it, in order
    done_at: dict[int, int] = {}
    out = []
    for n, k in sorted(matched.items()):
        stage = expected[k][0]
        if settled[stage] <= n:  # nothing before it was open when it was done
            continue
        if not done_at:  # the first action done with work before it open: read what it needs
            done_at = {k: n for n, k in matched.items()}
            for j, (s, x) in enumerate(expected):
                if id(x) not in skipped:
                    by_stage.setdefault(s, []).append(j)
        if (before := waits.get(stage)) is None:
            before = waits[stage] = sorted(j for s in procedure.ancestors(stage)
                                           for j in by_stage.get(s, ()))
        pending = [j for j in before if closed_at.get(j, len(log)) > n]
        late = next((j for j in pending if done_at.get(j, -1) > n), None)
        if late is None and pending and not final and n == len(log) - 1:
            late = pending[0]  # live feedback: it must come first, whether or not it comes later
        if late is not None:
            e, earlier = expected[k][1], expected[late][1]
            out.append(Finding(
                Kind.OUT_OF_ORDER, Severity.MAJOR,
                f"{e.label} came before “{earlier.label}”, which must come first",
                e.order_cite or earlier.cite, e.skill, earlier, log[n]))
    return out


#: throws that decide only the wagers held for them: a settlement of the throw before, done after
#: one, has waited past its turn but was never in action on it
HELD_FOR = (Do.EXTRA_POINT_ROLL, Do.EXTRA_ROLL)


def late_finding(p: Performed, e: Expected, procedure: Procedure) -> Finding:
    """A settlement of throw e.throw done after the dice were thrown again (p.throw). Where the
    throws between decide only held wagers (the extra point roll, the extra roll), it is the
    order the text imposes, broken: major, citing the section that puts that throw after it.
    Otherwise the wager stood on the layout, in action, through another throw: critical."""
    what = describe(p.do, p.seat, p.bet, p.amount, None)
    gate = next((a for _, a in procedure.actions() if a.throw == e.throw and a.do in HELD_FOR), None)
    between = [v for v in procedure.throws if e.throw < v.throw <= p.throw]
    if gate is not None and all(v.result.get("extra_point") or v.result.get("extra_roll")
                                or not v.valid for v in between):
        return Finding(Kind.OUT_OF_ORDER, Severity.MAJOR,
                       f"{what} came after “{gate.label}”, which comes after it", gate.cite,
                       e.skill, gate, p)
    stood = "a winner left unpaid" if e.do is Do.PAY else "a losing wager left on the layout"
    return Finding(Kind.LATE, Severity.CRITICAL,
                   f"{what} was done only after the dice were thrown again: {stood} through the "
                   f"next throw; it belongs to throw {e.throw}", e.order_cite or e.cite, e.skill, e, p)


def missing_message(e: Expected) -> str:
    """What leaving an expected step undone did, in the dealer's words."""
    if e.do is Do.PAY:
        return f"seat {e.seat} {bet_name(e.bet)} won and was not paid: {e.label} ({e.note})"
    if e.do is Do.COLLECT:
        return f"seat {e.seat} {bet_name(e.bet)} lost and was not collected ({e.note})"
    return f"{e.label} was not done ({e.note})"


def standing(p: Performed, procedure: Procedure, game: str) -> str | None:
    """The section that keeps a wager on the layout, if it stands undecided in p's round (a
    round that is a no roll is judged as one instead)."""
    if p.do not in (Do.COLLECT, Do.PAY) or not 1 <= p.throw <= len(procedure.throws):
        return None
    view = procedure.throws[p.throw - 1]
    if not view.valid:
        return None
    decided = {(a.seat, a.bet) for _, a in procedure.actions() if a.throw == p.throw
               and a.do in (Do.PAY, Do.COLLECT)}
    if (p.seat, p.bet) in decided or not any((w.seat, w.bet) == (p.seat, p.bet) for w in view.layout):
        return None
    if (p.seat, p.bet) in {tuple(h) for h in view.state.get("held", [])}:
        return cite("675a.4(f)(2)(ii)")
    if p.bet == "six-eight-shake":
        return cite("668a.2(f)(8)")
    stands = games.get(game).stands_until  # Three Dice Football: a full game wager
    return cite(stands) if stands else bet_cite(game, p.bet)


def classify(p, expected, open_, find, settles, no_rolls, paid_wagers, game, procedure):
    """What a logged action that matches no expected action is: (finding, expected consumed)."""
    if p.do in (Do.COLLECT, Do.PAY) and (held := standing(p, procedure, game)) is not None:
        what = "collected" if p.do is Do.COLLECT else "paid"
        return Finding(Kind.EXTRA, Severity.CRITICAL,
                       f"{what} seat {p.seat} {bet_name(p.bet)}, which is still working: leave it on the "
                       "layout until it is decided", held,
                       Skill.COLLECTING if p.do is Do.COLLECT else Skill.PAYOUTS, None, p), None
    same_wager = lambda e: e.seat == p.seat and e.bet == p.bet  # noqa: E731
    if p.do is Do.ACCEPT and (k := find(p, lambda e: e.do is Do.REFUSE and same_wager(e))) is not None:
        e = expected[k][1]
        return Finding(Kind.ACCEPTED_IMPROPER, Severity.CRITICAL,
                       f"accepted seat {p.seat} {bet_name(p.bet)}, which must be refused: {e.note}", e.cite,
                       e.skill, e, p), k
    if p.do is Do.REFUSE and (k := find(p, lambda e: e.do is Do.ACCEPT and same_wager(e))) is not None:
        e = expected[k][1]
        return Finding(Kind.WRONG_CALL, Severity.MAJOR,
                       f"refused seat {p.seat} {bet_name(p.bet)}, a proper wager", e.cite, e.skill, e, p), k
    if p.do in (Do.PAY, Do.COLLECT):
        if p.throw in no_rolls and p.throw not in settles:
            nr = no_rolls[p.throw]
            return Finding(Kind.EXTRA, Severity.CRITICAL,
                           f"{describe(p.do, p.seat, p.bet, p.amount, None)} after a no roll: a no "
                           "roll settles nothing", nr.cite, Skill.NO_ROLL, nr, p), None
        if p.do is Do.PAY:
            k = next((j for j, (_, e) in enumerate(expected) if e.throw == p.throw
                      and e.do is Do.COLLECT and same_wager(e)), None)
            if k is not None:
                e = expected[k][1]
                return Finding(Kind.EXTRA, Severity.CRITICAL,
                               f"paid seat {p.seat} {bet_name(p.bet)}, a losing wager: collect it", e.cite,
                               Skill.PAYOUTS, e, p), None
            if (p.seat, p.bet) in paid_wagers:
                section = games.get(game).paid_once(p.bet or "") or bet_cite(game, p.bet)
                return Finding(Kind.EXTRA, Severity.CRITICAL,
                               f"paid seat {p.seat} {bet_name(p.bet)} a second time: a wager is paid once",
                               section, Skill.PAYOUTS, None, p), None
            return Finding(Kind.EXTRA, Severity.CRITICAL,
                           f"paid seat {p.seat} {bet_name(p.bet)}, which has not won", bet_cite(game, p.bet),
                           Skill.PAYOUTS, None, p), None
        k = find(p, lambda e: e.do is Do.PAY and same_wager(e))
        if k is not None:
            e = expected[k][1]
            return Finding(Kind.EXTRA, Severity.CRITICAL,
                           f"collected seat {p.seat} {bet_name(p.bet)}, a winning wager: pay it", e.cite,
                           Skill.COLLECTING, e, p), None
    if p.do is Do.ANNOUNCE and p.throw in no_rolls:
        nr = no_rolls[p.throw]
        k = find(p, lambda e: e.do is Do.NO_ROLL)
        return Finding(Kind.WRONG_CALL, Severity.MAJOR,
                       f"announced {p.value!r}, but the throw is no roll ({nr.note})", nr.cite,
                       Skill.NO_ROLL, nr, p), k
    if p.do is Do.NO_ROLL and (k := find(p, lambda e: e.do is Do.ANNOUNCE)) is not None:
        e = expected[k][1]
        return Finding(Kind.WRONG_CALL, Severity.MAJOR,
                       f"called a no roll on a valid throw; the call is “{e.value}”", e.cite,
                       Skill.NO_ROLL, e, p), k
    k = find(p, lambda e: (e.do, e.seat, e.bet) == (p.do, p.seat, p.bet))
    if k is not None:
        e = expected[k][1]
        return Finding(Kind.WRONG_CALL if p.do in SPOKEN else Kind.WRONG_RECORD, Severity.MAJOR,
                       f"{describe(p.do, p.seat, p.bet, p.amount, p.value)}: expected “{e.label}”",
                       e.cite, e.skill, e, p), k
    same = next((a for _, a in procedure.actions() if a.do is p.do), None)
    own = games.get(game).step_sections.get(p.do)
    return Finding(Kind.EXTRA, uncalled(p.do),
                   f"{describe(p.do, p.seat, p.bet, p.amount, p.value)} was not called for here",
                   same.cite if same is not None else cite(own) if own else cite_for(game),
                   Skill.WAGERS if p.do in (Do.ACCEPT, Do.REFUSE) else Skill.CALLS, None, p), None


def bet_cite(game: str, bet: str | None) -> str:
    bets = games.get(game).catalogue(games.get(game).parse_options({}))
    return bets[bet].cite if bet is not None and bet in bets else cite_for(game)


def cite_for(game: str) -> str:
    return cite(games.get(game).settles_in)


def score(expected, open_, findings, extras, target, elapsed) -> Score:
    """Payouts: the share of payments made right, on time and in order. Procedure: the share of
    the other steps done right and in order, less EXTRA_PENALTY per extra action."""
    pays = others = paid = done = 0  # the payments and the other steps, and how many were closed
    for (_, e), is_open in zip(expected, open_, strict=True):
        if e.do is Do.PAY:
            pays += 1
            paid += not is_open
        else:
            others += 1
            done += not is_open

    def count(kinds, *, paying: bool) -> int:
        return sum(1 for f in findings if f.kind in kinds and f.actual is not None
                   and (f.actual.do is Do.PAY) == paying)

    wrong_pay = sum(1 for f in findings if f.kind is Kind.WRONG_AMOUNT)
    bad_pay = count((Kind.EXTRA,), paying=True)
    late_pay = count((Kind.OUT_OF_ORDER, Kind.LATE), paying=True)
    if pays:
        right = paid - wrong_pay - bad_pay - late_pay
        payouts = max(0, round(100 * right / pays))
    else:
        payouts = 0 if bad_pay else 100
    out_of_order = count((Kind.OUT_OF_ORDER, Kind.LATE, Kind.WRONG_CALL, Kind.WRONG_RECORD,
                          Kind.ACCEPTED_IMPROPER), paying=False)
    if others:
        procedure = max(0, round(100 * (done - out_of_order) / others) - EXTRA_PENALTY * extras)
    else:
        procedure = max(0, 100 - EXTRA_PENALTY * extras)
    speed = 100 if elapsed is None or elapsed <= target else round(100 * target / elapsed)
    total = round(WEIGHTS[0] * procedure + WEIGHTS[1] * payouts + WEIGHTS[2] * speed)
    critical = any(f.critical for f in findings)
    return Score(procedure, payouts, speed, total, passes((f.severity for f in findings), total),
                 critical)


def correct_log(procedure: Procedure, automation: Automation, seconds_each: float = 1.0) -> list[Performed]:
    """The trainee's log of a perfect round: every expected action, in stage order."""
    mine = procedure.for_trainee(automation)
    return [Performed(e.do, e.throw, e.seat, e.bet, e.amount, e.value, at=n * seconds_each)
            for n, (_, e) in enumerate(mine.actions())]
