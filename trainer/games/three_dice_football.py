"""Three Dice Football, 58 Pa. Code ch. 577: a drive of up to six plays, read from two green
(offense) dice and one red (defense) die, with full game and single play wagers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from trainer.cite import cite, reading
from trainer.games.base import (
    Bet,
    Game,
    Options,
    Throw,
    WagerKind,
    add_chips,
    dice_variants,
    no_options,
    read_dice,
    read_die,
    read_throw,
    refuse,
    settle_each,
)
from trainer.paytables import paytable
from trainer.readings import GOAL_TO_GO_LINE, MAX_PLAYS, PENALTY_YARDS, SEATS, YARD_MARKER_START
from trainer.settlement import Line, Refusal, Step, ThrowReport, ThrowResult, Wager, joined, settle_together
from trainer.vocabulary import Do

ID = "three-dice-football"
NAME = "Three Dice Football"
CHAPTER = "577"

NO_ROLLS = {
    "die-off-table": "577.5(b)",
    "die-on-die": "577.5(b)",
    "not-simultaneous": "577.5(c)(1)",
    "missed-far-end": "577.5(c)(2)",
    "on-bank-chips": "577.5(c)(3)",
    "in-dice-cup": "577.5(c)(4)",
    "on-rail": "577.5(c)(4)",
    "cheating-device": "577.5(c)(5)",
    "improper": "577.5(c)(6)",
    "cocked-multiple-sides": "577.5(f)",
}
NO_ROLL_NAMES = {
    "die-off-table": "A die went off the table",
    "die-on-die": "One die came to rest on top of another",
    "not-simultaneous": "The dice did not leave the hand together",
    "missed-far-end": "A die missed the far end of the table",
    "on-bank-chips": "A die came to rest on the bank's chips",
    "in-dice-cup": "A die came to rest in the dice cup",
    "on-rail": "A die came to rest on a rail",
    "cheating-device": "A cheating device or technique",
    "improper": "The stickperson finds the throw improper",
    "cocked-multiple-sides": "A die is cocked, resting on more than one side",
}
DOWNS = ("1st Down", "2nd Down", "3rd Down")
GOAL_DOWNS = ("1st & Goal", "2nd & Goal", "3rd & Goal")


class PlayKind(StrEnum):
    TRIPS = "trips"
    TURNOVER = "turnover"
    PENALTY = "penalty"
    NO_GAIN = "no-gain"
    GAIN = "gain"


#: the section that decides each kind of play
PLAY_CITES = {
    PlayKind.GAIN: "577.6(c)(1)",
    PlayKind.PENALTY: "577.6(c)(2)",
    PlayKind.NO_GAIN: "577.6(c)(3)",
    PlayKind.TURNOVER: "577.6(c)(4)",
    PlayKind.TRIPS: "577.6(c)(5)",
}


@dataclass(frozen=True, slots=True)
class Play:
    kind: PlayKind
    yards: int  # yards gained on the dice: green total - red when positive, else 0


def read_play(green: tuple[int, int], red: int) -> Play:
    """Read a throw in the order of reading "tdf-reading-order"."""
    offense = green[0] + green[1]
    yards = max(offense - red, 0)
    if green[0] == green[1] == red:
        kind = PlayKind.TRIPS
    elif red == 6 and offense in (2, 3):
        kind = PlayKind.TURNOVER
    elif offense < red:
        kind = PlayKind.PENALTY
    elif offense == red:
        kind = PlayKind.NO_GAIN
    else:
        kind = PlayKind.GAIN
    return Play(kind, yards)


def single_play_result(bet: str, play: Play) -> str | None:
    """The paying result of a single play wager on this play (None: it loses), § 577.3(d)."""
    k = play.kind
    match bet:
        case "trips-td":
            return "win" if k is PlayKind.TRIPS else None
        case "penalty":
            return "win" if k in (PlayKind.PENALTY, PlayKind.TURNOVER) else None
        case "turnover":
            return "win" if k is PlayKind.TURNOVER else None
        case "cover-three":
            return "win" if k in (PlayKind.TRIPS, PlayKind.PENALTY, PlayKind.TURNOVER) else None
        case "no-gain":
            return "win" if k in (PlayKind.NO_GAIN, PlayKind.PENALTY, PlayKind.TURNOVER) else None
        case "big-play":
            return "win" if k is PlayKind.TRIPS or (k is PlayKind.GAIN and play.yards >= 7) else None
        case "over-four-yards":
            if k is PlayKind.TRIPS:
                return "Trips TD"
            return "5 or more yards" if k is PlayKind.GAIN and play.yards >= 5 else None
        case "under-four-yards":
            return "win" if k is not PlayKind.TRIPS and play.yards <= 3 else None
    raise KeyError(bet)


def extra_point_result(dice: tuple[int, int, int]) -> str | None:
    """The paying result of the Extra Point wager on the extra point roll, § 577.3(b)(3)."""
    ones = dice.count(1)
    if dice[0] == dice[1] == dice[2]:
        return "a triple of 1s" if ones == 3 else "any other triple"
    return {2: "a 1 on two dice", 1: "a 1 on one die"}.get(ones)


def yard_place(yard: int) -> str:
    """The name of the field's area for a yard line (0: the end zone), where the Yard Marker goes."""
    return f"yard-{yard}"


def down_place(down: str) -> str:
    """The name of the layout's area for a down ("1st Down", "2nd & Goal"), where the Down Puck goes."""
    return "down-" + down.lower().replace(" & ", "-and-").replace(" ", "-")


def play_place(play: int) -> str:
    """The name of the layout's area for a play (1–6), where the Game Length Puck goes."""
    return f"play-{play}"


#: between the three places of the markers in the logged value of moving them
MARKERS_JOIN = " · "
#: how the note of the move that ends the game begins (trainer.procedure.steps writes it)
GAME_ENDED = "the game ended on play"


def markers_value(yard: int, down: str, play: int) -> str:
    """Where the markers go after a play, as the move is logged and graded: "13 · 2nd Down · play 3"
    (the Yard Marker's yard line, the Down Puck's down, the Game Length Puck's play)."""
    return MARKERS_JOIN.join((str(yard), down, f"play {play}"))


def read_markers(value: str) -> tuple[int, str | None, int | None]:
    """The yard line, down and play of a logged move of the markers. A move logged before the
    pucks were placed apart names the yard line alone: its down and play are None."""
    parts = value.split(MARKERS_JOIN)
    if len(parts) == 1:
        return int(parts[0]), None, None
    yard, down, play = parts
    return int(yard), down, int(play.removeprefix("play "))


def logged_before_pucks(values: list[str | None]) -> bool:
    """Whether a log's moves of the markers are from before the pucks were placed apart (each
    names the yard line alone). Such a log is graded as it was then, on the yard line, so results
    files and exam results recorded then re-grade to the same score and findings."""
    return any(v is not None and MARKERS_JOIN not in v for v in values)


def as_before_pucks(value: str, note: str) -> tuple[str, str]:
    """An expected move of the markers as it was expected before the pucks were placed apart:
    the yard line alone, and the note of then, word for word (old logs re-grade to the same
    findings, which a replay compares with those recorded)."""
    yard, down, play = read_markers(value)
    if down is None:
        return value, note
    if note.startswith(GAME_ENDED):
        return str(yard), f"Yard Marker to the {yard}, {GAME_ENDED} {play}, Down Puck: game over"
    return str(yard), f"Yard Marker to the {yard}, Game Length Puck to play {play}, Down Puck: {down}"


def extra_point_call(dice: tuple[int, ...]) -> str:
    """The call of the extra point roll (§ 577.5(e)): the dice, and what the Extra Point wins."""
    g1, g2, red = dice
    return f"Extra point roll {g1}-{g2}-{red}: " + (extra_point_result((g1, g2, red)) or "no good")


def _catalogue() -> dict[str, Bet]:
    full = [
        ("touchdown", "Touchdown", "577.3(b)(1)", "Wins if a touchdown or Trips TD is scored."),
        ("defense", "Defense", "577.3(b)(2)", "Wins if no touchdown or Trips TD is scored."),
        ("extra-point", "Extra Point", "577.3(b)(3)",
         "Wins after a touchdown if the extra point roll shows a 1, or any triple."),
        ("quick-strike", "Quick Strike TD", "577.3(b)(4)",
         "Wins if a touchdown or Trips TD is scored in 4 plays or fewer; pays more the sooner."),
        ("game-changer", "Game Changer", "577.3(b)(5)", "Wins if a Trips TD or a turnover occurs."),
    ]
    roman = ("i", "ii", "iii", "iv", "v", "vi")
    full += [(f"game-length-{n}", f"Game Length {n}", f"577.3(b)(6)({roman[n - 1]})",
              f"Wins if the game lasts exactly {n} play{'s' if n > 1 else ''}.")
             for n in range(1, 7)]
    single = [
        ("trips-td", "Trips TD", "577.3(d)(1)", "Wins if all three dice show the same number."),
        ("penalty", "Penalty", "577.3(d)(2)",
         "Wins if the green total is below the red die, or on a turnover."),
        ("turnover", "Turnover", "577.3(d)(3)", "Wins if the red die is 6 and the green dice total 2 or 3."),
        ("cover-three", "Cover Three", "577.3(d)(4)", "Wins on a Trips TD, a penalty or a turnover."),
        ("no-gain", "No Gain", "577.3(d)(5)",
         "Wins if the green total equals the red die, or on a penalty or turnover."),
        ("big-play", "Big Play", "577.3(d)(6)", "Wins on a gain of 7 yards or more, or a Trips TD."),
        ("over-four-yards", "Over Four Yards", "577.3(d)(7)",
         "Wins on a gain of 5 yards or more (1 to 1), or a Trips TD (7 to 1)."),
        ("under-four-yards", "Under Four Yards", "577.3(d)(8)",
         "Wins on a gain of 3 yards or less, a penalty or a turnover; not on a Trips TD."),
    ]
    bets = {b: Bet(b, n, cite(s), w, b, WagerKind.FULL_GAME) for b, n, s, w in full}
    bets |= {b: Bet(b, n, cite(s), w, b, WagerKind.SINGLE_PLAY) for b, n, s, w in single}
    return bets


CATALOGUE = _catalogue()
#: settled in § 577.6(f)(1)'s step with the single play wagers, before any extra point roll
DECIDED_BY_THE_TOUCHDOWN = ("quick-strike", "game-changer", *(f"game-length-{n}" for n in range(1, 7)))


def parse_throw(raw: Mapping[str, object], where: str) -> Throw:
    return read_throw(raw, where, game="Three Dice Football", fields={"green": 2, "red": None},
                      reasons=NO_ROLLS)


def call(green: tuple[int, int], red: int, play: Play) -> str:
    head = f"Green {green[0]}-{green[1]}, red {red}"
    text = {
        PlayKind.TRIPS: "Trips TD!",
        PlayKind.TURNOVER: "turnover",
        PlayKind.PENALTY: "penalty, back 1 yard",
        PlayKind.NO_GAIN: "no gain",
        PlayKind.GAIN: f"gain of {play.yards}",
    }[play.kind]
    return f"{head}: {text}"


@dataclass
class Table:
    """The drive: Yard Marker, Down Puck and Game Length Puck, and the wagers on the layout."""

    yard_line: int = YARD_MARKER_START
    goal: bool = False
    down: int = 0  # index into DOWNS or GOAL_DOWNS
    plays: int = 0
    touchdown: bool = False
    extra_point_roll: bool = False
    over: bool = False
    dice_count = 3
    full_game: dict[tuple[int, str], int] = field(default_factory=dict)
    single_play: dict[tuple[int, str], int] = field(default_factory=dict)

    @property
    def down_name(self) -> str:
        return (GOAL_DOWNS if self.goal else DOWNS)[self.down]

    def offer(self, wager: Wager) -> Refusal | None:
        if self.extra_point_roll:  # a full game wager is placed before the first throw
            full = CATALOGUE[wager.bet].kind is WagerKind.FULL_GAME
            return Refusal(wager, "the game is over: no wager may be placed on the extra point "
                                  "roll", f"{cite('577.3(c)')}; {reading('tdf-extra-point')}" if full
                           else reading("tdf-extra-point"))
        key = (wager.seat, wager.bet)
        if CATALOGUE[wager.bet].kind is WagerKind.FULL_GAME:
            if self.plays:
                return refuse(wager, "full game wagers are placed before the first throw of the game",
                              "577.3(c)")
            add_chips(self.full_game, key, wager.amount)
        else:
            add_chips(self.single_play, key, wager.amount)
        return None

    def no_more_bets(self) -> list[Refusal]:
        return []

    parse_throw = staticmethod(parse_throw)

    def take_down(self, seat: int, bet: str) -> bool:
        return False  # § 577.3(c): full game wagers may not be withdrawn; single play ones settle at once

    def open_wagers(self) -> list[Wager]:
        standing = [*self.full_game.items(), *self.single_play.items()]
        return sorted((Wager(s, b, a) for (s, b), a in standing), key=lambda w: (w.seat, w.bet))

    def throw(self, throw: Throw) -> ThrowReport:
        if throw.no_roll is not None:
            return ThrowReport(False, "No roll", no_roll=throw.no_roll,
                               cite=cite(NO_ROLLS[throw.no_roll]))
        g1, g2, red = throw.dice
        if self.extra_point_roll:
            return self._extra_point((g1, g2, red))
        green = (g1, g2)
        play = read_play(green, red)
        down_played = self.down_name
        self.plays += 1
        ended = self._advance(play)
        result: ThrowResult = {"green": list(green), "red": red, "play": self.plays,
                               "kind": str(play.kind), "yards": play.yards,
                               "yard_line": self.yard_line,
                               "next_down": None if ended else self.down_name}
        # the pucks go to the next down and play; a play that ends the game leaves them on the
        # down played and the play the game ended on (reading "tdf-pucks")
        steps = [Step(Do.MOVE_MARKERS, cite=cite(PLAY_CITES[play.kind]),
                      detail={"yard_line": self.yard_line, "play": self.plays,
                              "down": None if ended else self.down_name,
                              "down_puck": down_played if ended else self.down_name,
                              "game_length_puck": self.plays if ended else self.plays + 1})]
        if not ended:
            steps += self._settle_single(play)
        elif self.touchdown:
            steps += self._end_with_touchdown(play)
        else:
            steps += self._end_with_defense(play)
        return ThrowReport(True, call(green, red, play), result, tuple(steps),
                           cite=cite(PLAY_CITES[play.kind]))

    def _advance(self, play: Play) -> bool:
        """Move the markers for one play (§ 577.6(c), (e)); True when the game is over."""
        if play.kind is PlayKind.TURNOVER:
            return True
        if play.kind is PlayKind.TRIPS or self.yard_line - play.yards <= 0:
            self.yard_line, self.touchdown = 0, True
            return True
        if play.kind is PlayKind.PENALTY:
            self.yard_line += PENALTY_YARDS
        elif play.kind is PlayKind.GAIN:
            self.yard_line -= play.yards
        if not self.goal and self.yard_line <= GOAL_TO_GO_LINE:
            self.goal, self.down = True, 0
        elif self.down == 2 or self.plays >= MAX_PLAYS:
            return True
        else:
            self.down += 1
        return False

    def _take(self, book: dict, bets: tuple[str, ...] | None = None) -> list[Wager]:
        keys = [k for k in book if bets is None or k[1] in bets]
        return [Wager(s, b, book.pop((s, b))) for s, b in keys]

    def _settle_single(self, play: Play, section: str = "577.6(d)") -> list[Step]:
        """The single play wagers, settled after the down (§ 577.6(d)), or at the end of the game
        in the group the end's section puts them in (§ 577.6(f))."""
        losers, winners = settle_each(self._take(self.single_play), CATALOGUE, paytable(ID),
                                      lambda bet: single_play_result(bet, play))
        return settle_together(losers, winners, cite(section))

    def _settle_full(self, wagers: list[Wager], play: Play) -> tuple[list[Line], list[Line]]:
        game_changer = play.kind in (PlayKind.TRIPS, PlayKind.TURNOVER)

        def resolve(bet: str) -> str | None:
            if bet == "touchdown":
                return "win" if self.touchdown else None
            if bet == "defense":
                return None if self.touchdown else "win"
            if bet == "quick-strike":
                return f"play {self.plays}" if self.touchdown and self.plays <= 4 else None
            if bet == "game-changer":
                return "win" if game_changer else None
            if bet.startswith("game-length-"):
                return "win" if int(bet.rsplit("-", 1)[1]) == self.plays else None
            return None  # extra-point, when no touchdown was scored

        return settle_each(wagers, CATALOGUE, paytable(ID), resolve)

    def _end_with_touchdown(self, play: Play) -> list[Step]:
        """§ 577.6(f)(1): first collect every Defense wager; then settle the single play wagers
        and the full game wagers other than Touchdown and Extra Point (one group: the text joins
        them with "and"); then the extra point roll, if an Extra Point wager stands; then pay the
        Touchdown wagers (and settle the Extra Point ones, on that roll)."""
        section = cite("577.6(f)(1)")
        defense_lost, _ = self._settle_full(self._take(self.full_game, ("defense",)), play)
        single = self._settle_single(play, "577.6(f)(1)")
        others = self._take(self.full_game, DECIDED_BY_THE_TOUCHDOWN)
        losers, winners = self._settle_full(others, play)
        steps = [Step(Do.COLLECT, tuple(defense_lost), cite=section),
                 *joined([*single, *settle_together(losers, winners, section)])]
        if any(b == "extra-point" for _, b in self.full_game):
            self.extra_point_roll = True
            steps.append(Step(Do.EXTRA_POINT_ROLL, cite=section))
        else:
            _, touchdown_won = self._settle_full(self._take(self.full_game), play)
            steps.append(Step(Do.PAY, tuple(touchdown_won), cite=section))
            self.over = True
        return steps

    def _end_with_defense(self, play: Play) -> list[Step]:
        """§ 577.6(f)(2): first collect every Touchdown and Extra Point wager and pay the winning
        Defense wagers (one group); then settle the single play wagers and the remaining full
        game wagers (one group)."""
        section = cite("577.6(f)(2)")
        lost, _ = self._settle_full(self._take(self.full_game, ("touchdown", "extra-point")), play)
        _, defense_won = self._settle_full(self._take(self.full_game, ("defense",)), play)
        single = self._settle_single(play, "577.6(f)(2)")
        losers, winners = self._settle_full(self._take(self.full_game), play)
        self.over = True
        return [*settle_together(lost, defense_won, section),
                *joined([*single, *settle_together(losers, winners, section)])]

    def _extra_point(self, dice: tuple[int, int, int]) -> ThrowReport:
        section = cite("577.6(f)(1)")
        _, touchdown_won = settle_each(self._take(self.full_game, ("touchdown",)), CATALOGUE,
                                       paytable(ID), lambda bet: "win")
        key = extra_point_result(dice)
        losers, winners = settle_each(self._take(self.full_game), CATALOGUE, paytable(ID),
                                      lambda bet: key)
        self.extra_point_roll, self.over = False, True
        result: ThrowResult = {"green": list(dice[:2]), "red": dice[2], "extra_point": True,
                               "ones": dice.count(1), "yard_line": 0, "next_down": None}
        text = extra_point_call(dice)
        # "pay out winning Touchdown Wagers and settle the Extra Point Wagers": one group
        return ThrowReport(True, text, result, tuple(joined([
            Step(Do.PAY, tuple(touchdown_won), cite=section),
            *settle_together(losers, winners, section),
        ])), cite=cite("577.5(e)"))


class ThreeDiceFootball:
    id = ID
    name = NAME
    chapter = CHAPTER
    seats = SEATS[ID]
    dice = 3
    no_rolls: Mapping[str, str] = NO_ROLLS
    no_roll_names: Mapping[str, str] = NO_ROLL_NAMES
    yard_place = staticmethod(yard_place)
    down_place = staticmethod(down_place)
    play_place = staticmethod(play_place)
    read_markers = staticmethod(read_markers)
    cannot_happen: Mapping[str, str] = {}  # no-roll reasons a scenario may not deal
    regulation_file = "577-three-dice-football.txt"
    throw_fields: tuple[str, ...] = ("green", "red")
    events = frozenset({"reject-dice", "lost-die"})  # the dice offered from seat 1; a new set
    shooter = False
    cocked_dice = True
    settles_in = "577.6"
    stands_until: str | None = "577.6(f)"  # a full game wager stands until the game ends
    paid_later = frozenset({"touchdown"})  # after the extra point roll, § 577.6(f)(1)
    step_sections: Mapping[Do, str] = {Do.EXTRA_POINT_ROLL: "577.6(f)(1)", Do.NEW_DICE: "577.4(d)"}
    odds_options: tuple[Mapping[str, object], ...] = ({},)

    def catalogue(self, options: Options | None = None) -> Mapping[str, Bet]:
        return CATALOGUE

    def dice_of(self, throw: Mapping[str, object]) -> tuple[int, ...]:
        return (*read_dice(throw["green"], 2, "green"), read_die(throw["red"], "red"))

    def throw_of(self, dice: tuple[int, ...]) -> dict:
        return {"green": list(dice[:2]), "red": dice[2]}

    def paid_once(self, bet: str) -> str | None:
        return None

    def call_of(self, dice: tuple[int, ...]) -> str:
        green, red = (dice[0], dice[1]), dice[2]
        return call(green, red, read_play(green, red))

    def calls_like(self, result: ThrowResult, dice: tuple[int, ...],
                   rng: random.Random) -> list[str]:
        read = extra_point_call if result.get("extra_point") else self.call_of
        return [read(d) for d in dice_variants(dice, rng)]

    def parse_options(self, raw: Mapping[str, object]) -> Options:
        return no_options(raw, ID)

    def new_table(self, options: Options) -> Table:
        return Table()


GAME: Game = ThreeDiceFootball()  # typed: mypy holds the descriptor to the protocol
