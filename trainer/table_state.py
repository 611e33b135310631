"""What the table shows at one moment of a round: a typed snapshot, with no Qt. The round being
worked makes it (trainer.practice.PracticeRound.table_state) and the screen hands it to the
game's table view (ui.table), which draws it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypedDict

from trainer.settlement import Wager


class Mark(StrEnum):
    """What has been done to a wager in the current round, as the table shows it."""

    OFFERED = "offered"  # offered, not yet accepted or refused
    ACCEPTED = "accepted"
    REFUSED = "refused"
    COLLECTED = "collected"
    PAID = "paid"
    HELD = "held"  # High Roll Dice: a wager that stands for the extra roll

#: TableState.irregular for a die cocked on chips: a valid throw, read by the die's top face
COCKED = "cocked"


class TableSnapshot(TypedDict, total=False):
    """What a game's table holds besides the wagers at one moment of a round: its lammers,
    markers, winning face. Each game's procedure steps make it (`GameSteps.snapshot`), the round's
    view keeps it (`ThrowView.state`, `ThrowView.before`) and the game's table view draws it."""

    over: bool  # the round (or the game) has ended
    # Props & Hops (§ 668a.3): the shooter, the red lammers still on their boxes and those moved
    # to the Six Eight Shake circles (in order), and the Six Eight Shake wagers by seat
    shooter: int
    lammers_left: list[str]
    lammers_moved: list[str]
    six_eight_shake: dict[int, int]
    # High Roll Dice (§ 675a.4): the winning face and how many dice show it, the (seat, bet) of
    # the Like Kind wagers held for the extra roll, and whether the extra roll is still to come
    face: int
    count: int
    held: list[tuple[int, str]]
    extra_roll: bool
    # Three Dice Football (§ 577.6): the Yard Marker's yard line, the Down Puck's down (None once
    # the game is over), the plays made, the Quarterback, a touchdown, the extra point roll
    yard_line: int
    down: str | None
    plays: int
    quarterback: int | None
    touchdown: bool
    extra_point_roll: bool


@dataclass
class TableState:
    players: dict[int, str]  # seat -> name
    wagers: list[Wager] = field(default_factory=list)  # chips standing on the layout
    # (seat, bet) -> what has been done to it this round; paid chips show `payouts`
    marks: dict[tuple[int, str], Mark] = field(default_factory=dict)
    payouts: dict[tuple[int, str], int] = field(default_factory=dict)  # cents paid beside the wager
    dice: tuple[int, ...] | None = None  # TDF: (green, green, red); Pai Gow: (red, blue, blue)
    dice_visible: bool = False  # the shaker is uncovered / the dice have come to rest
    # an irregular throw to draw so the trainee must notice it: a no-roll reason of the game
    # ("die-fell-out", "die-on-die", "not-flat", "lid-removed", "die-off-table",
    # "cocked-multiple-sides", ...), "lost-die", or COCKED: a die resting cocked on chips, read
    # by its top face, which is `cocked_die` (its place in `dice`)
    irregular: str | None = None
    cocked_die: int | None = None
    # the irregularity may be named now (a caption, a pulse): in practice at difficulty 1–2, once
    # the call is made. Otherwise it is only drawn, and the trainee must notice it
    named: bool = False
    # what the dealer placed on the layout this throw, by action (Do values), right or wrong: the
    # Props & Hops pointer's box, the face box High Roll's matching dice were moved to
    placed: dict[str, str] = field(default_factory=dict)
    shooter: int | None = None  # Props & Hops shooter, Three Dice Football Quarterback
    state: TableSnapshot = field(default_factory=lambda: TableSnapshot())  # lammers, markers, face ...
    selected: tuple[int, str] | None = None  # the wager the trainee clicked
    # the place on the layout (a box, a yard line, a puck's area) the trainee has chosen with
    # the keys while placing something, ringed until it is put there
    highlighted: str | None = None
