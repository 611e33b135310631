"""Seeded random rounds: practice for every game at every difficulty, and drills aimed at a skill.

The same (game, difficulty, seed, skill) always deals the same round. Difficulty sets the size of
the table, the amounts (round at 1–2, odd amounts where breakage matters from 3), the improper
wagers and irregular throws the trainee meets, and how much of the round the trainee works
(trainer.vocabulary.BY_DIFFICULTY). Each game deals its own rounds (`GameSteps.deal`, with the
shared draws in trainer.procedure.dealing); this module seats the players and names the round.

A round's id names the dealer version that dealt it: "drill-v2-<game>-<difficulty>-<seed>
[~<skill>]", "payout-drill-v2-<game>-<seed>". A new draw changes every draw after it, so what a
dealer deals never changes: new dealing is a new version (`DEALER`), and an id without a version
(every results file written before versions) is dealt again by dealer 1, the dealing of then.
Version 2 adds the lost die and the die cocked on chips to the irregular throws.
"""

from __future__ import annotations

import random
import re

from trainer import games
from trainer.dice import SeededDice
from trainer.procedure import build, game_steps
from trainer.procedure.dealing import DEALT, ODD_AMOUNTS, Deal
from trainer.procedure.model import TRAINEE_DOES, Automation, Do, Procedure
from trainer.scenario import Event, Offer, Scenario
from trainer.vocabulary import BY_DIFFICULTY, Skill

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lu", "Max",
         "Nia", "Oz", "Pia")
SECONDS_PER_ACTION = 4
#: the dealer that deals new rounds, and every dealer this trainer can deal an id's round with
DEALER = 2
DEALERS = (1, 2)


class UnknownRound(ValueError):
    """A round id this trainer cannot deal again; the message names the id and why."""


def _versioned(dealer: int) -> str:
    """The id's version segment: none for dealer 1 (ids before versions), "v2-" for dealer 2."""
    if dealer not in DEALERS:
        raise UnknownRound(f"dealer version v{dealer} is not one this trainer deals (it deals "
                           f"{' and '.join(f'v{d}' for d in DEALERS)}): a newer Dealer Trainer "
                           "dealt the round")
    return "" if dealer == 1 else f"v{dealer}-"


def _skill_games() -> dict[Skill, str]:
    out: dict[Skill, str] = {}
    for game in games.GAME_IDS:
        for skill in game_steps(game).own_skills:
            out.setdefault(skill, game)
    return out


#: the game a skill is drilled on when none is chosen: the first whose rounds alone have it
SKILL_GAMES = _skill_games()


#: the least a trainee must work for a drilled skill's steps to be theirs
SKILL_AUTOMATION = {
    Skill.PAYOUTS: "payouts", Skill.COLLECTING: "settlement", Skill.SIX_EIGHT_SHAKE: "settlement",
    Skill.MARKERS: "settlement", Skill.END_OF_GAME: "settlement", Skill.EXTRA_ROLL: "settlement",
    Skill.CALLS: "calls", Skill.NO_ROLL: "calls", Skill.WAGERS: "whole-round",
    Skill.NO_MORE_BETS: "whole-round", Skill.SHAKER: "whole-round",
}
LEVELS = ("payouts", "settlement", "calls", "whole-round")


def random_round(game_id: str, difficulty: int, seed: int | str,
                 skill: Skill | None = None, dealer: int = DEALER) -> Scenario:
    """A playable round: re-dealt (deterministically) until the trainee has something to do."""
    return _random_round(game_id, difficulty, seed, skill, dealer)[0]


def random_round_built(game_id: str, difficulty: int, seed: int | str, skill: Skill | None = None,
                       dealer: int = DEALER) -> tuple[Scenario, Procedure]:
    """`random_round` and its procedure, built once: for a caller that would build it again."""
    return _random_round(game_id, difficulty, seed, skill, dealer)


def _random_round(game_id: str, difficulty: int, seed: int | str, skill: Skill | None,
                  dealer: int) -> tuple[Scenario, Procedure]:
    """`random_round`, with the round's procedure (built once per deal)."""
    for attempt in range(50):
        s, proc, theirs = _dealt(game_id, difficulty, seed if attempt == 0 else f"{seed}+{attempt}",
                                 skill, dealer)
        if theirs:
            return s, proc
    return s, proc


def _dealt(game_id: str, difficulty: int, seed: int | str, skill: Skill | None,
           dealer: int) -> tuple[Scenario, Procedure, int]:
    """A dealt round, its procedure and how many of its actions are the trainee's: the
    procedure is built once, to count them, and handed on (building is most of a deal's work)."""
    version = _versioned(dealer)
    if not 1 <= difficulty <= 5:
        raise ValueError(f"difficulty {difficulty} is not 1 to 5")
    game = games.get(game_id)
    rng = random.Random(f"{game_id}:{difficulty}:{seed}:{skill}")
    dice = SeededDice(rng.random())
    seats = sorted(rng.sample(range(1, game.seats + 1),
                              k=min(game.seats, 1 + difficulty + (difficulty * game.seats) // 12)))
    players = {s: NAMES[s - 1] for s in seats}
    deal = Deal(rng, dice, game, difficulty, seats, skill, dealer)
    options, wagers, events = game_steps(game_id).deal(deal)
    scenario = Scenario(
        id=f"drill-{version}{game_id}-{difficulty}-{seed}" + (f"~{skill.value}" if skill else ""),
        title=f"{game.name}: practice round",
        briefing=_briefing(game.name, difficulty, skill), game=game_id, difficulty=difficulty,
        skills=(skill,) if skill else (Skill.PAYOUTS,), target_seconds=60,
        automation=_automation(difficulty, skill), options=game.parse_options(options),
        players=players, shooter=None, wagers=wagers, events=events)
    mine = TRAINEE_DOES[scenario.automation]
    proc = build(scenario)
    actions = sum(a.do in mine for stage in proc.stages for a in stage)
    scenario.target_seconds = max(20, SECONDS_PER_ACTION * actions)
    return scenario, proc, actions


def _automation(difficulty: int, skill: Skill | None):
    """The difficulty's automation, raised so that a drilled skill's steps are the trainee's."""
    level = BY_DIFFICULTY[difficulty]
    if skill is not None:
        need = SKILL_AUTOMATION[skill]
        if LEVELS.index(need) > LEVELS.index(level.value):
            level = Automation(need)
    return level


def _briefing(name: str, difficulty: int, skill: Skill | None) -> str:
    aim = f" It drills {skill.title.lower()}." if skill else ""
    return (f"A random {name} round at difficulty {difficulty}.{aim} Work it as the regulation "
            "says; every finding names its section.")


def payout_drill(game_id: str, seed: int | str, dealer: int = DEALER, *,
                 difficulty: int | None = None) -> Scenario:
    """A settled throw on a busy layout (`payout_drill_built`, without its procedure)."""
    return payout_drill_built(game_id, seed, dealer, difficulty=difficulty)[0]


def payout_drill_built(game_id: str, seed: int | str, dealer: int = DEALER, *,
                       difficulty: int | None = None) -> tuple[Scenario, Procedure]:
    """A settled throw on a busy layout: every seat full, odd amounts, several winners to pay.

    A game whose wagers stand past a throw (Three Dice Football's full game wagers) has no
    one-throw round, so its drill is a whole round (a drive, with single play wagers before every
    down). The deal is the seed's alone; `difficulty` is the one the trainee chose, which the
    drill is shown and recorded at (from 3 the trainee finds the winners too); without one, the
    drill keeps the difficulty it was dealt at, as ids dealt again always have. With the drill,
    the procedure its deal built (what is set after the build, its id, words, automation,
    difficulty and target, is nothing a procedure is built from)."""
    if difficulty is not None and not 1 <= difficulty <= 5:
        raise ValueError(f"difficulty {difficulty} is not 1 to 5")
    game = games.get(game_id)
    round_id = f"payout-drill-{_versioned(dealer)}{game_id}-{seed}"  # what `rebuild` deals again
    if game.stands_until is not None:
        s, proc = _random_round(game_id, 5, seed, Skill.PAYOUTS, dealer)
    else:
        rng = random.Random(f"payout-drill:{game_id}:{seed}")
        dice = SeededDice(rng.random())
        seats = list(range(1, game.seats + 1))
        bets = [b for b in DEALT[game_id]
                if b not in ("six-eight-shake", "extra-roll") and not b.startswith("millionaire-")]
        for _ in range(100):
            wagers = _busy_wagers(rng, game_id, seats, bets)
            throw = game.throw_of(dice.roll(game.dice))
            s = Scenario(
                id=round_id, title="", briefing="", game=game_id, difficulty=4,
                skills=(Skill.PAYOUTS,), target_seconds=60, automation=Automation.PAYOUTS,
                options=game.parse_options({}),
                players={n: NAMES[n - 1] for n in seats}, shooter=None, wagers=wagers,
                events=[Event("throw", "events[0]", throw)])
            proc = build(s)
            if sum(1 for _, a in proc.actions() if a.do is Do.PAY) >= 3:
                break
    s.automation = Automation.PAYOUTS
    s.id, s.difficulty = round_id, difficulty or s.difficulty
    s.title = f"{game.name}: payout drill"
    s.briefing = ("A settled throw on a busy layout. The losers are down; pay every winner, one "
                  "after another, to the cent and against the clock." if game.stands_until is None
                  else f"A whole {game.name} round on a busy layout: pay every winner, throw after "
                  "throw, to the cent and against the clock.")
    pays = sum(1 for _, a in proc.actions() if a.do is Do.PAY)  # what follows changes no wager
    s.target_seconds = max(15, 6 * pays)
    return s, proc


def rebuild(round_id: str) -> Scenario | None:
    """The round a practice round's or payout drill's id names, dealt again exactly (`deal_again`);
    None when it names none this trainer can deal. This is how a round recorded on one
    workstation is re-graded on another."""
    try:
        return deal_again(round_id)
    except UnknownRound:
        return None


#: an id's dealer version, after its prefix: "v2-" (none: dealer 1)
_VERSION = re.compile(r"v(\d+)-")


def deal_again(round_id: str) -> Scenario:
    """The round an id names ("[payout-]drill-[v<dealer>-]<game>-..."), dealt again exactly by
    the dealer it names; UnknownRound says why when this trainer cannot (an unknown dealer
    version, game, difficulty or skill)."""
    return deal_again_built(round_id)[0]


def deal_again_built(round_id: str) -> tuple[Scenario, Procedure]:
    """`deal_again`, with the procedure the deal built (for a re-grade, which would build it
    again)."""
    prefix = next((p for p in ("payout-drill-", "drill-") if round_id.startswith(p)), None)
    if prefix is None:
        raise UnknownRound(f"{round_id}: not the id of a practice round or payout drill")
    rest = round_id.removeprefix(prefix)
    dealer = 1
    if version := _VERSION.match(rest):
        dealer, rest = int(version[1]), rest[version.end():]
    game_id = next((g for g in sorted(games.GAME_IDS, key=len, reverse=True)
                    if rest.startswith(g + "-")), None)
    if game_id is None:
        raise UnknownRound(f"{round_id}: names no game of this trainer")
    rest = rest[len(game_id) + 1:]
    try:
        if prefix == "payout-drill-":
            scenario, proc = payout_drill_built(game_id, rest, dealer)
        else:
            difficulty, _, seed = rest.partition("-")
            seed, _, skill = seed.partition("~")
            if not difficulty.isdigit():
                raise ValueError(f"{difficulty!r} is not a difficulty")
            scenario, proc, _ = _dealt(game_id, int(difficulty), seed,
                                       Skill(skill) if skill else None, dealer)
    except ValueError as e:  # not a dealer version, a difficulty or a skill
        raise UnknownRound(f"{round_id}: {e}") from e
    if scenario.id != round_id:
        raise UnknownRound(f"{round_id}: not as this trainer writes it ({scenario.id})")
    return scenario, proc


def _busy_wagers(rng: random.Random, game_id: str, seats: list[int], bets: list[str]) -> list[Offer]:
    wagers = []
    for seat in seats:
        if any(b.startswith("pip-") for b in bets):  # High Roll Dice: pips and Like Kinds
            amount = rng.choice(ODD_AMOUNTS)
            pips = [b for b in bets if b.startswith("pip-")]
            kinds = [b for b in bets if b.startswith("like-kind-")]
            wagers += [Offer(seat, b, amount) for b in rng.sample(pips, 2) + rng.sample(kinds, 2)]
        else:
            wagers += [Offer(seat, b, rng.choice(ODD_AMOUNTS)) for b in rng.sample(bets, 3)]
    return wagers
