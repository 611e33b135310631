"""`dealer-trainer supervise SCENARIO --faults N --seed S [--json]`: a supervised round dealt for an
instructor preparing a class: every step the dealer does, and at each fault what was done, the
fault (its kind, class and severity), what the dealer should have done and the section it breaks
(trainer.supervise)."""

from __future__ import annotations

import json
import sys

from trainer.commands._shared import EXIT_BAD_INPUT, find_scenario

NAME = "supervise"
HELP = "deal a supervised round: the dealer's steps with faults put in, for an instructor"
#: SCENARIO naming a dealt round: deal:GAME:DIFFICULTY (the seed is --seed)
DEAL = "deal:"


def add_arguments(parser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO",
                        help="a scenario file, a bundled scenario's id, a dealt round's id "
                             "(drill-v2-…), or deal:GAME:DIFFICULTY to deal one from the seed")
    parser.add_argument("--faults", type=int, metavar="N", default=None,
                        help="how many faults to put in beside the scenario's [[fault]] entries "
                             "(default: 3, or none when the scenario names its own)")
    parser.add_argument("--seed", default="0", metavar="S",
                        help="the seed: the same seed deals the same faults on any machine")
    parser.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                        help="seconds between the dealer's actions (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args) -> int:
    from trainer.drills import UnknownRound
    from trainer.supervise.rounds import PACE, SuperviseError, supervise

    try:
        scenario = _scenario(args.scenario, args.seed)
        rnd = supervise(scenario, args.faults, args.seed, PACE if args.pace is None else args.pace)
    except (SuperviseError, UnknownRound) as e:
        print(f"{args.scenario}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        sys.stdout.write(json.dumps(as_json(rnd), indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(as_text(rnd) + "\n")
    return 0


def _scenario(arg: str, seed: str):
    from trainer import games
    from trainer.drills import deal_again, random_round
    from trainer.supervise.rounds import SuperviseError

    if arg.startswith(DEAL):
        game, _, difficulty = arg.removeprefix(DEAL).partition(":")
        if game not in games.GAME_IDS:
            raise SuperviseError(f"no game {game!r}; the games are {', '.join(games.GAME_IDS)}")
        if difficulty not in ("1", "2", "3", "4", "5"):
            raise SuperviseError(f"difficulty {difficulty!r} is not 1 to 5 (deal:GAME:DIFFICULTY)")
        return random_round(game, int(difficulty), seed)
    if arg.startswith(("drill-", "payout-drill-")):
        return deal_again(arg)
    return find_scenario(arg)


def clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def as_text(rnd) -> str:
    from trainer import games
    from trainer.procedure.model import describe

    s = rnd.scenario
    debrief = rnd.debrief()
    out = [f"Supervised round {rnd.id}",
           f"{games.get(s.game).name} · {s.title} ({s.id}) · {len(rnd.faults)} "
           f"fault{'' if len(rnd.faults) == 1 else 's'} · a dealer action every {rnd.pace:g} s", ""]
    shown_at: dict[int, list] = {}  # log index -> the faults that show there
    for fault, found in debrief:
        shown_at.setdefault(fault.index, []).append((fault, found))
    throw = None
    for n in range(len(rnd.log) + 1):
        here = shown_at.get(n, [])
        for fault, found in here:
            if not fault.done:
                out.append(f"!  {clock(fault.at)}  (not done) {fault.expected.label}")
                out += _fault_lines(fault, found)
        if n == len(rnd.log):
            break
        p = rnd.log[n]
        if p.throw != throw:
            throw = p.throw
            out.append("Before the first throw" if throw == 0 else f"Throw {throw}")
        mark = "!" if any(p is d for f in rnd.faults for d in f.done) else " "
        out.append(f"{mark}  {clock(p.at)}  {describe(p.do, p.seat, p.bet, p.amount, p.value)}")
        for fault, found in here:
            if fault.done:
                out += _fault_lines(fault, found)
    if not rnd.faults:
        out += ["", "No fault in this round: the dealer works it as the regulation says."]
    return "\n".join(out)


def _fault_lines(fault, found) -> list[str]:
    from trainer.money import fmt_dollars
    from trainer.supervise.catalogue import target_words

    t = fault.type
    lines = [f"      FAULT {t.id} ({t.fault_class.value}, {t.severity.value}): {t.words}"]
    if fault.expected is not None:
        lines.append(f"      should: {fault.expected.label} ({t.should})")
    else:
        lines.append(f"      should: {t.should}")
    cites = list(dict.fromkeys(f.cite for f in found)) or [t.section]
    lines.append(f"      breaks: {'; '.join(cites)}")
    lines.append(f"      point at: {target_words(fault.target)} · step {fault.step}"
                 + (f" · {fmt_dollars(fault.cents)} moved wrongly" if fault.cents else ""))
    return lines


def as_json(rnd) -> dict:
    s = rnd.scenario
    return {"id": rnd.id, "scenario": s.id, "game": s.game, "title": s.title, "pace": rnd.pace,
            "faults": [{**fault.to_json(), "findings": [f.to_json() for f in found]}
                       for fault, found in rnd.debrief()],
            "log": [p.to_json() for p in rnd.log]}
