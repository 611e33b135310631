"""The grading policy held over every bundled scenario and random rounds of every game
(trainer.policy): a pass means a competent dealer.

For each round, worked whole by the trainee:
(a) the perfect log, and logs in other orders the procedure's partial order allows (sampled), pass
    with no finding;
(b) each single mutation of a money step fails with a critical finding on that step: a winner
    left unpaid, a winner collected instead of paid, a payment $0.01 short, a loser paid, a loser
    left uncollected, a wager collected while it still works; a settlement left until the dice
    were thrown again fails too, on that step (critical, or major past an extra roll);
(c) each single mutation of a call or record step fails with a major finding on that step: left
    undone, or done with another value (the dice, the pointer, the markers, the down, the seat the
    dice go to, ...). A lost die with no new set is critical (§ 577.4(d)).

The counts are printed (`pytest -s tests/test_grading_mutations.py`) for the notes.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.support.paths import ROOT
from trainer.drills import random_round
from trainer.grading import Kind, Severity, correct_log, grade, standing
from trainer.procedure import Automation, Do, Performed, build
from trainer.scenario import Scenario, load

WHOLE = Automation.WHOLE_ROUND
GAMES = ("props-and-hops", "three-dice-football", "high-roll-dice", "high-roll-dice-6",
         "pai-gow-dice")
BUNDLED = sorted((ROOT / "scenarios").glob("*/*.toml"))
RANDOM_ROUNDS = 8  # per game and difficulty 1, 3 and 5
ORDERS = 4  # allowed orders sampled per round, beside the perfect one
MONEY = (Do.PAY, Do.COLLECT)
#: a settlement left until the dice were thrown again: critical (the wager stood in action
#: through that throw), or major past the extra point roll or the extra roll (the order of
#: § 577.6(f)(1) or § 675a.4(g)), which decide only the wagers held for them
LATE = (Severity.CRITICAL, Severity.MAJOR)
COUNTS: Counter = Counter()
#: in a parallel run (make test) the whole module runs in one worker, in order, so that
#: test_the_counts sees what every round tried
pytestmark = pytest.mark.xdist_group("grading-mutations")


def rounds() -> list[Scenario]:
    out = [load(p) for p in BUNDLED]
    for game in GAMES:
        for difficulty in (1, 3, 5):
            out += [random_round(game, difficulty, f"mutations:{n}") for n in range(RANDOM_ROUNDS)]
    return out


ROUNDS = rounds()


def graded(s: Scenario, proc, log: list[Performed]):
    return grade(proc, log, automation=WHOLE, game=s.game, target_seconds=s.target_seconds,
                 elapsed=0.0)


def allowed_order(proc, rng: random.Random) -> list[Performed]:
    """A log in an order the stages' partial order allows: a random stage whose stages before it
    are all done, its actions shuffled."""
    done: set[int] = set()
    todo = list(range(len(proc.stages)))
    out: list[Performed] = []
    while todo:
        ready = [i for i in todo if proc.after[i] <= done]
        i = rng.choice(ready)
        todo.remove(i)
        done.add(i)
        stage = list(proc.stages[i])
        rng.shuffle(stage)
        out += [Performed(e.do, e.throw, e.seat, e.bet, e.amount, e.value) for e in stage]
    return out


def other_value(p: Performed, s: Scenario) -> str | None:
    """Another value a dealer could give the step: a wrong call, box, marker, seat or reason."""
    if p.value is None:
        return None
    if p.do is Do.OFFER_DICE or p.do in (Do.OFFER_SHAKER, Do.PASS_SHAKER):
        seats = sorted(s.players) or [1]
        later = [x for x in seats if str(x) != p.value]
        return str(later[0]) if later else str(int(p.value) % 16 + 1)
    if p.do is Do.NO_ROLL:
        return "die-on-die" if p.value != "die-on-die" else "cocked-multiple-sides"
    if p.do is Do.MOVE_MARKERS:
        yard, *rest = p.value.split(" · ")
        return " · ".join([str(int(yard) + 1), *rest])
    return p.value + " (wrong)"


def money_mutations(s: Scenario, proc, log: list[Performed]):
    """(name, mutated log, a test of the finding that must be there) for every money step."""
    for i, p in enumerate(log):
        if p.do is Do.PAY:
            yield ("winner unpaid", log[:i] + log[i + 1:],
                   lambda f, p=p: f.kind is Kind.MISSING and f.expected.key == p.key)
            collected = Performed(Do.COLLECT, p.throw, p.seat, p.bet)
            yield ("winner collected", [*log[:i], collected, *log[i + 1:]],
                   lambda f, c=collected: f.actual == c)
            if p.amount:
                short = Performed(Do.PAY, p.throw, p.seat, p.bet, p.amount - 1)
                yield ("paid a cent short", [*log[:i], short, *log[i + 1:]],
                       lambda f, c=short: f.kind is Kind.WRONG_AMOUNT and f.actual == c)
        elif p.do is Do.COLLECT:
            yield ("loser uncollected", log[:i] + log[i + 1:],
                   lambda f, p=p: f.kind is Kind.MISSING and f.expected.key == p.key)
            paid = Performed(Do.PAY, p.throw, p.seat, p.bet, p.amount or 100)
            yield ("loser paid", [*log[:i], paid, *log[i + 1:]], lambda f, c=paid: f.actual == c)
    rounds = sorted({p.throw for p in log})
    for i, p in enumerate(log):  # settled only after the dice were thrown again
        later = [r for r in rounds if r > p.throw]
        if p.do in MONEY and later:
            j = next(j for j, q in enumerate(log) if q.throw == later[0])
            late = Performed(p.do, later[0], p.seat, p.bet, p.amount, p.value)
            yield ("settled after the next throw", [*log[:i], *log[i + 1:j + 1], late, *log[j + 1:]],
                   lambda f, c=late: f.actual == c, LATE)
    for view in proc.throws:  # a wager still working, collected after its throw's own steps
        last = max((i for i, p in enumerate(log) if p.throw == view.throw), default=None)
        if last is None:
            continue
        for w in view.layout:
            grab = Performed(Do.COLLECT, view.throw, w.seat, w.bet)
            if standing(grab, proc, s.game) is not None:
                yield ("working wager collected", [*log[:last + 1], grab, *log[last + 1:]],
                       lambda f, c=grab: f.actual == c)


def record_mutations(s: Scenario, log: list[Performed]):
    """(name, mutated log, severity, finding test) for every call or record step."""
    for i, p in enumerate(log):
        if p.do in MONEY or p.do in (Do.ACCEPT, Do.REFUSE, Do.TAKE_DOWN):
            continue
        severity = Severity.CRITICAL if p.do is Do.NEW_DICE else Severity.MAJOR
        yield (f"{p.do.value} left undone", log[:i] + log[i + 1:], severity,
               lambda f, p=p: f.kind is Kind.MISSING and f.expected.key == p.key)
        value = other_value(p, s)
        if value is not None:
            wrong = Performed(p.do, p.throw, p.seat, p.bet, p.amount, value)
            # the step done wrong, or the same step of the throw it took the place of (the dice
            # offered to seat 4 first, when seat 4 is offered them next: the second offer is off)
            yield (f"{p.do.value} done wrong", [*log[:i], wrong, *log[i + 1:]], Severity.MAJOR,
                   lambda f, c=wrong: f.actual == c or (f.kind in (Kind.WRONG_CALL, Kind.WRONG_RECORD)
                                                        and f.actual.do is c.do
                                                        and f.actual.throw == c.throw))


@pytest.mark.parametrize("s", ROUNDS, ids=lambda s: s.id)
def test_every_allowed_order_passes_and_every_mutation_fails_as_the_policy_says(s):
    proc = build(s)
    perfect = correct_log(proc, WHOLE)
    rng = random.Random(s.id)
    wrong: list[str] = []
    for log in [perfect, *(allowed_order(proc, rng) for _ in range(ORDERS))]:
        result = graded(s, proc, log)
        COUNTS["allowed orders"] += 1
        if result.findings or not result.score.passed:
            wrong.append(f"an allowed order: {[f.message for f in result.findings]}")
    for name, log, test, *severities in money_mutations(s, proc, perfect):
        allowed = severities[0] if severities else (Severity.CRITICAL,)
        result = graded(s, proc, log)
        COUNTS[f"money: {name}"] += 1
        if result.score.passed or not any(f.severity in allowed and test(f) for f in result.findings):
            wrong.append(f"{name}: {[(f.severity.value, f.message) for f in result.findings]}")
    for name, log, severity, test in record_mutations(s, perfect):
        result = graded(s, proc, log)
        COUNTS[f"call or record: {name}"] += 1
        if result.score.passed or not any(f.severity is severity and test(f) for f in result.findings):
            wrong.append(f"{name}: {[(f.severity.value, f.message) for f in result.findings]}")
    assert not wrong, "\n".join(wrong[:5])


def test_the_counts(capsys):
    """Runs last in the file's order: what the test above tried (printed with -s)."""
    if not COUNTS:
        pytest.skip("run with the mutation test (not alone) to count")
    with capsys.disabled():
        total = sum(v for k, v in COUNTS.items() if k != "allowed orders")
        print(f"\n{len(ROUNDS)} rounds; {COUNTS['allowed orders']} allowed orders; {total} mutations:")
        for k, v in sorted(COUNTS.items()):
            print(f"  {k}: {v}")
    assert COUNTS["allowed orders"] >= len(ROUNDS)
