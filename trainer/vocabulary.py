"""The words settlement, scenarios, procedures and progress share: the dealer's actions (`Do`),
what an action trains (`Skill`) and how much of a round the trainee works (`Automation`). They
sit below the games and the procedure, so that neither has to import the other for them."""

from __future__ import annotations

from enum import StrEnum


class Do(StrEnum):
    """Every dealer action the trainer knows; the values are the action bar's stable ids."""

    ACCEPT = "accept"
    REFUSE = "refuse"
    NO_MORE_BETS = "no-more-bets"
    PLACE_SIX_EIGHT = "place-six-eight-shake"
    PLACE_LAMMERS = "place-lammers"
    OFFER_SHAKER = "offer-shaker"
    RECOVER_SHAKER = "re-cover-shaker"
    UNCOVER = "uncover"
    NO_ROLL = "no-roll"
    ANNOUNCE = "announce"
    PLACE_POINTER = "place-pointer"
    COLLECT = "collect"
    MOVE_LAMMER = "move-lammer"
    PAY = "pay"
    COVER_AND_SHAKE = "cover-and-shake"
    PASS_SHAKER = "pass-shaker"
    SET_MARKERS = "set-markers"
    OFFER_DICE = "offer-dice"
    NEW_DICE = "new-dice"
    MOVE_MARKERS = "move-markers"
    ANNOUNCE_DOWN = "announce-down"
    EXTRA_POINT_ROLL = "extra-point-roll"
    LOCK_OUT_EXTRA_ROLL = "lock-out-extra-roll"
    SHAKE_AND_THROW = "shake-and-throw"
    MOVE_DICE = "move-dice-to-throw-box"
    EXTRA_ROLL = "extra-roll"
    TAKE_DOWN = "take-down"
    USE_SHAKER = "use-shaker"
    #: not a dealer action: the trainee left the rest of a throw undone (logged, so that a
    #: re-grade from the log knows what was skipped)
    SKIP_THROW = "skip-throw"
    #: not a dealer action: the trainee took back their last action of the throw (logged, so
    #: that a replay shows it and a re-grade from the log leaves out what was taken back; its
    #: value is UNDO_TOLD where the feedback had already told the action's grade)
    UNDO = "undo"


#: the value of an undo logged after the feedback told the trainee the grade of what it took back
UNDO_TOLD = "told"


class Skill(StrEnum):
    """What an action trains; progress and drills are kept per skill. Values are the tags
    scenario files use."""

    WAGERS = "wagers"
    NO_MORE_BETS = "no-more-bets"
    SIX_EIGHT_SHAKE = "six-eight-shake"
    SHAKER = "shaker"
    NO_ROLL = "no-roll"
    CALLS = "calls"
    COLLECTING = "collecting"
    PAYOUTS = "payouts"
    MARKERS = "markers"
    END_OF_GAME = "end-of-game"
    EXTRA_ROLL = "extra-roll"

    # a skill's title is its name in words, which the screens show; str.title (title case) is
    # never wanted of a skill, so the property hides it on purpose
    @property
    def title(self) -> str:  # type: ignore[override]
        return SKILL_TITLES[self]


SKILL_TITLES = {
    Skill.WAGERS: "Accepting and refusing wagers",
    Skill.NO_MORE_BETS: "No more bets",
    Skill.SIX_EIGHT_SHAKE: "Six Eight Shake lammers",
    Skill.SHAKER: "Shaker and dice handling",
    Skill.NO_ROLL: "No-roll calls",
    Skill.CALLS: "Calling the dice",
    Skill.COLLECTING: "Collecting losing wagers",
    Skill.PAYOUTS: "Paying winning wagers",
    Skill.MARKERS: "Down Puck, Yard Marker and Game Length Puck",
    Skill.END_OF_GAME: "End-of-game settlement order",
    Skill.EXTRA_ROLL: "Extra roll partial settlement",
}


class Automation(StrEnum):
    """How much of a round the trainee works; the trainer does the rest (difficulty is data)."""

    PAYOUTS = "payouts"  # the trainee pays; the trainer does everything else
    SETTLEMENT = "settlement"  # + collecting, lammers and markers
    CALLS = "calls"  # + calling the dice and no rolls
    WHOLE_ROUND = "whole-round"  # every step, wagers and shaker included


#: the highest difficulty at which the trainer tells the trainee about the round: the scenario's
#: own briefing (the irregular throws, the calls, the payouts) and the name of an irregular throw
#: once it is called. Above it (and in exams) the trainee is told only what a dealer knows before
#: the round, and noticing what happens is the trainee's work
TOLD_UP_TO = 2

#: the automation a difficulty starts with, when a scenario does not say
BY_DIFFICULTY = {1: Automation.PAYOUTS, 2: Automation.SETTLEMENT, 3: Automation.CALLS,
                 4: Automation.WHOLE_ROUND, 5: Automation.WHOLE_ROUND}
