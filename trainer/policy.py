"""The grading policy: what a finding weighs, and what a pass means.

This is the one place the grader, the exam, certification and the Rules screen read the policy
from (../shared/spec/grading-policy.md is its contract). One rule serves practice, payout drills,
exam items, whole exams and certification; an exam adds only its form's pass mark.

- **Critical**: the money or the game's security is wrong (a payment wrong by any amount or on a
  wager that has not won, a winner left unpaid or collected, a wager collected while it still
  works or on a no roll, a wager that must be refused left in action, play going on after a
  lost die without a new set).
- **Major**: a call or a record of the game missing or wrong (the dice, "no more bets", a no roll,
  the down and distance; the pointer, lammers, Yard Marker, pucks, matching dice, shaker; the dice
  or shaker to the wrong player), or an order the text imposes, broken.
- **Minor**: a step done that no text asks for and that changes nothing (an announcement made
  again), and speed.

Results keep the rule they were graded under (`RULE`): a result recorded under rule 1 keeps its
scores and verdict as recorded, and anything graded again is graded under the rule in force.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from trainer.vocabulary import Do

#: the rule every new result is graded under; results store it, certificates state it
RULE = 2
#: a round, drill or exam item passes at this total (with no critical and no major finding)
PASS_MARK = 80


class Severity(StrEnum):
    CRITICAL = "critical"
    MAJOR = "major"
    MINOR = "minor"


@dataclass(frozen=True, slots=True)
class Rule:
    number: int
    name: str
    text: str  # the pass rule in a dealer's words

    @property
    def title(self) -> str:
        return f"Pass rule {self.number}: {self.name}" if self.number else f"Pass {self.name}"


RULES = {
    1: Rule(1, "no critical finding, no missed or wrong call, total at least 80",
            "Graded before the grading policy of November 2026: a missed winner, a collected "
            "winner and a wrong record were major and could pass, and an exam looked only at "
            "its total and its critical findings. Kept as recorded."),
    2: Rule(2, "no critical and no major finding, and the total at the pass mark",
            "A round, a drill or an exam item passes when nothing critical and nothing major "
            f"was found and its total is at least {PASS_MARK}. An exam passes when every item "
            "passes so and its total reaches the form's pass mark."),
}


def rule(number: object) -> Rule:
    """The rule a result was graded under: a result that names none was graded under rule 1; a
    number this version does not know (a newer app's, or a damaged file's) is named as such."""
    if number is None:
        return RULES[1]
    if isinstance(number, bool) or not isinstance(number, int) or number not in RULES:
        shown = number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else "?"
        return Rule(0, f"rule {shown}, which this version of Dealer Trainer does not know",
                    "Graded by another version; kept as recorded.")
    return RULES[number]


#: what each severity means, in the words the Rules screen and reports use
MEANING = {
    Severity.CRITICAL: "The money or the game's security is wrong: a payment wrong by any amount, "
                       "or made on a wager that has not won; a winner left unpaid or collected; a "
                       "wager collected while it still works, or on a no roll; a wager that must "
                       "be refused left in action; play going on after a lost die without a new "
                       "set of dice. The round does not pass.",
    Severity.MAJOR: "A call or a record of the game is missing or wrong: the dice, \"no more "
                    "bets\", a no roll and its reason, the down and distance, the extra point "
                    "and Extra Roll calls; the pointer, the lammers, the Yard Marker, the Down "
                    "and Game Length Pucks, the matching dice, the shaker; the dice or the shaker "
                    "to the wrong player; or an order the regulation imposes, broken. The round "
                    "does not pass.",
    Severity.MINOR: "Noted, and the round can still pass: a step no text asks for that changes "
                    "nothing (an announcement made again), or speed.",
}

#: the order rule, in a dealer's words
ORDER_RULE = ("The grader asks for an order only where the regulation imposes one (\"first\", "
              "\"then\", \"before\"). Wagers the text lists with \"and\" may be settled in any "
              "order among themselves: collecting and paying, player by player, single play and "
              "full game. Collecting every loser before paying any winner is a house "
              "convention, not the regulation, and is never required.")

#: the calls the dealer speaks; the other steps that are not money keep a record of the game on
#: the layout (pointer, lammers, markers, pucks, matching dice) or hand the dice or shaker on
SPOKEN = frozenset({Do.ANNOUNCE, Do.NO_MORE_BETS, Do.NO_ROLL, Do.ANNOUNCE_DOWN})
#: steps whose omission leaves the money wrong: a winner unpaid, a loser kept, a take-down not
#: returned, a wager that must be refused left in action
MONEY = frozenset({Do.PAY, Do.COLLECT, Do.TAKE_DOWN, Do.REFUSE})
#: steps whose omission leaves the game's security wrong (§ 577.4(d): a lost die, a new set)
SECURITY = frozenset({Do.NEW_DICE})
#: steps that change nothing when done again or where none was called for
HARMLESS_AGAIN = frozenset({Do.ANNOUNCE, Do.NO_MORE_BETS, Do.ANNOUNCE_DOWN, Do.REFUSE})


def missed(do: Do) -> Severity:
    """What leaving a required step undone weighs."""
    return Severity.CRITICAL if do in MONEY or do in SECURITY else Severity.MAJOR


def uncalled(do: Do) -> Severity:
    """What a step done where none was called for weighs (a payment or collection of its own is
    judged by what it did to the money, in trainer.grading)."""
    if do in (Do.PAY, Do.COLLECT):
        return Severity.CRITICAL
    return Severity.MINOR if do in HARMLESS_AGAIN else Severity.MAJOR


def passes(severities: Iterable[Severity], total: int, pass_mark: int = PASS_MARK) -> bool:
    """The one pass rule: no critical, no major finding, and the total at the pass mark."""
    return total >= pass_mark and not any(s is not Severity.MINOR for s in severities)


def exam_passes(items_passed: Iterable[bool], item_count: int, total: int, pass_mark: int) -> bool:
    """An exam passes when every one of its `item_count` items passed by the rule (an item not
    answered has not) and its total reaches the form's pass mark."""
    passed = list(items_passed)
    return len(passed) == item_count and all(passed) and total >= pass_mark


def why_not(severities: Iterable[Severity], total: int, pass_mark: int = PASS_MARK) -> list[str]:
    """Why a round did not pass, one reason a line, in the rule's words ([] when it passed)."""
    found = list(severities)
    what = {Severity.CRITICAL: "the money or the game's security was wrong",
            Severity.MAJOR: "a call, a record or an order was wrong"}
    out = [f"{n} {s.value} finding{'s' if n > 1 else ''}: {what[s]}"
           for s in (Severity.CRITICAL, Severity.MAJOR) if (n := found.count(s))]
    if total < pass_mark:
        out.append(f"a total of {total}, under the pass mark of {pass_mark}")
    return out
