"""Seeded random rounds: practice for every game at every difficulty, and drills aimed at a skill.

The same (game, difficulty, seed, skill) always deals the same round. Difficulty sets the size of
the table, the amounts (round at 1–2, odd amounts where breakage matters from 3), the improper
wagers and irregular throws the trainee meets, and how much of the round the trainee works
(trainer.vocabulary.BY_DIFFICULTY).
"""

from __future__ import annotations

import random

from trainer import games
from trainer.dice import SeededDice
from trainer.games.base import Throw
from trainer.procedure import build
from trainer.procedure.model import TRAINEE_DOES
from trainer.scenario import Event, Offer, Scenario
from trainer.vocabulary import BY_DIFFICULTY, Skill

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lu", "Max",
         "Nia", "Oz", "Pia")
ROUND_AMOUNTS = (500, 1000, 2500, 500, 1000)
ODD_AMOUNTS = (335, 750, 1225, 700, 333, 1800, 2500, 575)
SECONDS_PER_ACTION = 4
#: the game a skill is drilled on when none is chosen
SKILL_GAMES = {Skill.SIX_EIGHT_SHAKE: "props-and-hops", Skill.MARKERS: "three-dice-football",
               Skill.END_OF_GAME: "three-dice-football", Skill.EXTRA_ROLL: "high-roll-dice"}


#: the least a trainee must work for a drilled skill's steps to be theirs
SKILL_AUTOMATION = {
    Skill.PAYOUTS: "payouts", Skill.COLLECTING: "settlement", Skill.SIX_EIGHT_SHAKE: "settlement",
    Skill.MARKERS: "settlement", Skill.END_OF_GAME: "settlement", Skill.EXTRA_ROLL: "settlement",
    Skill.CALLS: "calls", Skill.NO_ROLL: "calls", Skill.WAGERS: "whole-round",
    Skill.NO_MORE_BETS: "whole-round", Skill.SHAKER: "whole-round",
}
LEVELS = ("payouts", "settlement", "calls", "whole-round")


def random_round(game_id: str, difficulty: int, seed: int | str,
                 skill: Skill | None = None) -> Scenario:
    """A playable round: re-dealt (deterministically) until the trainee has something to do."""
    for attempt in range(50):
        s = _deal(game_id, difficulty, seed if attempt == 0 else f"{seed}+{attempt}", skill)
        mine = TRAINEE_DOES[s.automation]
        if any(a.do in mine for _, a in build(s).actions()):
            return s
    return s


def _deal(game_id: str, difficulty: int, seed: int | str, skill: Skill | None) -> Scenario:
    if not 1 <= difficulty <= 5:
        raise ValueError(f"difficulty {difficulty} is not 1 to 5")
    game = games.get(game_id)
    rng = random.Random(f"{game_id}:{difficulty}:{seed}:{skill}")
    dice = SeededDice(rng.random())
    deal = {"props-and-hops": _props_and_hops, "three-dice-football": _football,
            "high-roll-dice": _high_roll, "high-roll-dice-6": _high_roll,
            "pai-gow-dice": _pai_gow}[game_id]
    if deal is _high_roll:
        deal = lambda *args: _high_roll(*args, game_id)  # noqa: E731
    seats = sorted(rng.sample(range(1, game.seats + 1),
                              k=min(game.seats, 1 + difficulty + (difficulty * game.seats) // 12)))
    players = {s: NAMES[s - 1] for s in seats}
    options, wagers, events = deal(rng, dice, difficulty, seats, skill)
    scenario = Scenario(
        id=f"drill-{game_id}-{difficulty}-{seed}" + (f"~{skill.value}" if skill else ""),
        title=f"{game.name}: practice round",
        briefing=_briefing(game.name, difficulty, skill), game=game_id, difficulty=difficulty,
        skills=(skill,) if skill else (Skill.PAYOUTS,), target_seconds=60,
        automation=_automation(difficulty, skill), options=game.parse_options(options),
        players=players, shooter=None, wagers=wagers, events=events)
    mine = TRAINEE_DOES[scenario.automation]
    actions = sum(1 for _, a in build(scenario).actions() if a.do in mine)
    scenario.target_seconds = max(20, SECONDS_PER_ACTION * actions)
    return scenario


def _automation(difficulty: int, skill: Skill | None):
    """The difficulty's automation, raised so that a drilled skill's steps are the trainee's."""
    from trainer.procedure.model import Automation

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


def _amount(rng: random.Random, difficulty: int) -> int:
    return rng.choice(ODD_AMOUNTS if difficulty >= 3 else ROUND_AMOUNTS)


def _improper(rng: random.Random, difficulty: int, seat: int, bet: str, amount: int,
              where: str) -> Offer | None:
    """Now and then, at difficulty 3 and up, an offer the trainee must refuse."""
    if difficulty < 3 or rng.random() > 0.1 * (difficulty - 2):
        return None
    kind = rng.choice(("cash", "seated", "late"))
    return Offer(seat, bet, amount, cash=kind == "cash", seated=kind != "seated",
                 late=kind == "late", where=where)


def _no_roll(rng, game_id: str, difficulty: int, skill, n: int) -> Event | None:
    chance = 0.5 if skill is Skill.NO_ROLL else 0.08 * (difficulty - 1)
    if rng.random() >= chance:
        return None
    game = games.get(game_id)
    reason = rng.choice([r for r in game.no_rolls if r not in game.cannot_happen])
    return Event("no-roll", f"events[{n}]", {"no_roll": reason})


def _props_and_hops(rng, dice, difficulty, seats, skill):
    from trainer.games.props_and_hops import CATALOGUE

    one_roll = [b for b in CATALOGUE if b != "six-eight-shake"]
    wagers = []
    shake = skill is Skill.SIX_EIGHT_SHAKE or (difficulty >= 3 and rng.random() < 0.5)
    for i, seat in enumerate(seats):
        bet = "six-eight-shake" if shake and i % 2 == 0 else rng.choice(one_roll)
        wagers.append(_improper(rng, difficulty, seat, bet, _amount(rng, difficulty),
                                f"wagers[{i}]") or Offer(seat, bet, _amount(rng, difficulty)))
    events = []
    for _ in range(1 + difficulty // 2 + (4 if shake else 0)):
        if (e := _no_roll(rng, "props-and-hops", difficulty, skill, len(events))) is not None:
            events.append(e)
        events.append(Event("throw", f"events[{len(events)}]", {"dice": list(dice.roll(2))}))
        seat = rng.choice(seats)
        events.append(Event("wager", f"events[{len(events)}]",
                            offer=Offer(seat, rng.choice(one_roll), _amount(rng, difficulty))))
    events.pop()  # no wager after the last throw
    return {}, wagers, events


def _football(rng, dice, difficulty, seats, skill):
    from trainer.games.three_dice_football import CATALOGUE, Kind, Table
    from trainer.settlement import Wager

    full = [b for b, bet in CATALOGUE.items() if bet.kind is Kind.FULL_GAME]
    single = [b for b, bet in CATALOGUE.items() if bet.kind is Kind.SINGLE_PLAY]
    wagers = [Offer(s, rng.choice(full if i % 2 == 0 else single), _amount(rng, difficulty))
              for i, s in enumerate(seats)]
    table = Table()
    for w in wagers:
        table.offer(Wager(w.seat, w.bet, w.amount))
    events = []
    while not table.over:
        if (e := _no_roll(rng, "three-dice-football", difficulty, skill, len(events))) is not None:
            events.append(e)
        if difficulty >= 2 and rng.random() < 0.4:
            offer = Offer(rng.choice(seats), rng.choice(single), _amount(rng, difficulty))
            events.append(Event("wager", f"events[{len(events)}]", offer=offer))
            table.offer(Wager(offer.seat, offer.bet, offer.amount))
        g1, g2, r = dice.roll(3)
        table.throw(Throw(dice=(g1, g2, r)))
        events.append(Event("throw", f"events[{len(events)}]", {"green": [g1, g2], "red": r}))
    return {}, wagers, events


def _high_roll(rng, dice, difficulty, seats, skill, game_id):
    from trainer.settlement import Wager

    game = games.get(game_id)
    ten = game.dice == 10
    circles = [b for b in game.catalogue() if b.startswith("like-kind-")]
    faces = [b for b in game.catalogue() if b.startswith("pip-")]
    buy = ten and (skill is Skill.EXTRA_ROLL or (difficulty >= 3 and rng.random() < 0.7))
    wagers = []
    for i, seat in enumerate(seats):
        a = _amount(rng, difficulty)
        mine = [Offer(seat, f, a) for f in rng.sample(faces, k=1 + (difficulty >= 4))]
        mine += [Offer(seat, c, a) for c in rng.sample(circles, k=1 + (difficulty >= 2))]
        if buy and i % 2 == 0:
            mine.append(Offer(seat, "extra-roll", a))
        if ten and difficulty >= 2 and rng.random() < 0.3:
            mine.append(Offer(seat, f"millionaire-{rng.choice((9, 10))}", rng.choice((100, 50, 25))))
        if difficulty >= 3 and rng.random() < 0.15 * (difficulty - 2):
            k = rng.randrange(1, len(mine))  # an unequal amount the trainee must refuse
            mine[k] = Offer(seat, mine[k].bet, mine[k].amount + 500)
        wagers += mine
    table = game.new_table({})
    for w in wagers:
        table.offer(Wager(w.seat, w.bet, w.amount))
    table.no_more_bets()
    events = []
    if (e := _no_roll(rng, game_id, difficulty, skill, 0)) is not None:
        events.append(e)
    first = dice.roll(game.dice)
    events.append(Event("throw", f"events[{len(events)}]", {"dice": list(first)}))
    table.throw(Throw(dice=first))
    if table.extra_roll:
        if difficulty >= 4:
            late = Offer(seats[-1], "extra-roll", _amount(rng, difficulty))
            events.append(Event("wager", f"events[{len(events)}]", offer=late))
        events.append(Event("extra-roll", f"events[{len(events)}]",
                            {"dice": list(dice.roll(table.dice_count))}))
    return {}, wagers, events


def _pai_gow(rng, dice, difficulty, seats, skill):
    from trainer.games.pai_gow_dice import BEAT_IT_PAYTABLES, SUM_PAYTABLES

    options = {}
    if difficulty >= 3:
        options = {"sum_paytable": rng.choice(SUM_PAYTABLES),
                   "beat_it_paytable": rng.choice(BEAT_IT_PAYTABLES)}
    bets = ["sum", "beat-it", *(f"match-{n}" for n in range(1, 7))]
    wagers = []
    for i, seat in enumerate(seats):
        for bet in rng.sample(bets, k=1 + (difficulty >= 3)):
            amount = _amount(rng, difficulty)
            wagers.append(_improper(rng, difficulty, seat, bet, amount, f"wagers[{i}]")
                          or Offer(seat, bet, amount))
    events = []
    if (e := _no_roll(rng, "pai-gow-dice", difficulty, skill, 0)) is not None:
        events.append(e)
    r, a, b = dice.roll(3)
    events.append(Event("throw", f"events[{len(events)}]", {"red": r, "blue": [a, b]}))
    return options, wagers, events


def payout_drill(game_id: str, seed: int | str) -> Scenario:
    """A settled throw on a busy layout: every seat full, odd amounts, several winners to pay.

    A game whose wagers stand past a throw (Three Dice Football's full game wagers) has no
    one-throw round, so its drill is a whole round (a drive, with single play wagers before every
    down)."""
    from trainer.procedure.model import Automation, Do

    game = games.get(game_id)
    if game.stands_until is not None:
        s = random_round(game_id, 5, seed, Skill.PAYOUTS)
    else:
        rng = random.Random(f"payout-drill:{game_id}:{seed}")
        dice = SeededDice(rng.random())
        seats = list(range(1, game.seats + 1))
        bets = [b for b in game.catalogue(game.parse_options({}))
                if b not in ("six-eight-shake", "extra-roll") and not b.startswith("millionaire-")]
        for _ in range(100):
            wagers = _busy_wagers(rng, game_id, seats, bets)
            throw = game.throw_of(dice.roll(game.dice))
            s = Scenario(
                id=f"payout-drill-{game_id}-{seed}", title=f"{game.name}: payout drill",
                briefing="A settled throw on a busy layout. The losers are down; pay every winner, "
                         "one after another, to the cent and against the clock.",
                game=game_id, difficulty=4, skills=(Skill.PAYOUTS,), target_seconds=60,
                automation=Automation.PAYOUTS, options=game.parse_options({}),
                players={n: NAMES[n - 1] for n in seats}, shooter=None, wagers=wagers,
                events=[Event("throw", "events[0]", throw)])
            if sum(1 for _, a in build(s).actions() if a.do is Do.PAY) >= 3:
                break
    s.automation = Automation.PAYOUTS
    s.id = f"payout-drill-{game_id}-{seed}"  # what `rebuild` deals again
    pays = sum(1 for _, a in build(s).actions() if a.do is Do.PAY)
    s.target_seconds = max(15, 6 * pays)
    return s


def rebuild(round_id: str) -> Scenario | None:
    """The round a practice round's or payout drill's id names ("drill-<game>-<difficulty>-<seed>
    [~<skill>]", "payout-drill-<game>-<seed>"), dealt again exactly; None when it names none.
    This is how a round recorded on one workstation is re-graded on another."""
    for prefix in ("payout-drill-", "drill-"):
        if not round_id.startswith(prefix):
            continue
        rest = round_id.removeprefix(prefix)
        game_id = next((g for g in sorted(games.GAME_IDS, key=len, reverse=True)
                        if rest.startswith(g + "-")), None)
        if game_id is None:
            return None
        rest = rest[len(game_id) + 1:]
        try:
            if prefix == "payout-drill-":
                scenario = payout_drill(game_id, rest)
            else:
                difficulty, _, seed = rest.partition("-")
                seed, _, skill = seed.partition("~")
                scenario = _deal(game_id, int(difficulty), seed, Skill(skill) if skill else None)
        except ValueError:  # not a difficulty, not a skill
            return None
        return scenario if scenario.id == round_id else None
    return None


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
