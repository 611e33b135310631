"""The bundled library covers the situations a dealer must have practised, found by playing every
scenario through the rules engine (not by file name); and the example exam forms never reuse a
practice scenario."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

from tests.support.library import bundled
from trainer.exams import bundled_forms
from trainer.paths import resources_dir, scenarios_dir
from trainer.procedure import Do, build

LIBRARY = bundled()
PLAYED = {s.id: (s, build(s)) for s in LIBRARY.scenarios}
RANK = (1, 6, 5, 4, 3, 2)  # § 675a.2(d): ace, 6, 5, 4, 3, 2
FACE_KEY = {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}


def test_the_library_loads_every_bundled_file():
    assert LIBRARY.problems == []
    assert len(LIBRARY.scenarios) == len(list(scenarios_dir().glob("*/*.toml")))


def actions(proc, do: Do, round_: int | None = None, bet: str | None = None):
    return [a for _, a in proc.actions() if a.do is do and (round_ is None or a.throw == round_)
            and (bet is None or a.bet == bet)]


def offered(s, bet: str) -> list:
    return [o for o in [*s.wagers, *(e.offer for e in s.events if e.offer)] if o.bet == bet]


# --- what each scenario shows, read from its events and the engine's results ------------------

def high_roll_dice(s, proc) -> set[str]:
    found = set()
    rounds = proc.throws
    kinds = [e.type for e in s.events if e.type in ("throw", "no-roll", "extra-roll")]
    for i, r in enumerate(rounds):
        if r.valid and not r.result.get("extra_roll"):  # a first roll
            dice, count = r.result["dice"], r.result["count"]
            faces = Counter(dice)
            if count == 2 and len(faces) == 5 and set(faces.values()) == {2}:
                top = next(f for f in RANK if f in faces)
                if r.result["face"] == FACE_KEY[top] and actions(proc, Do.PAY, r.throw, "like-kind-2"):
                    found.add("pairs only on ten dice, the highest rank wins")
            if count == 8 and max(faces.values()) == 8 and actions(proc, Do.PAY, r.throw, "like-kind-8"):
                found.add("eight of a kind")
            if (count == 10 and offered(s, "extra-roll") and actions(proc, Do.COLLECT, bet="extra-roll")
                    and actions(proc, Do.PAY, r.throw, "millionaire-10")
                    and not actions(proc, Do.EXTRA_ROLL) and i == len(rounds) - 1
                    and r.state["over"] and not r.state["extra_roll"]):
                found.add("ten of a kind, an Extra Roll bought and none thrown")
        if (not r.valid and r.event.type == "no-roll" and i > 0 and rounds[i - 1].state["extra_roll"]
                and any(later.valid and later.result.get("extra_roll") for later in rounds[i + 1:])):
            found.add("a no roll on the Extra Roll")
    # the same, read from the file's events: a first throw, a no roll, then the extra roll
    if "a no roll on the Extra Roll" in found:
        first = kinds.index("throw")
        assert "no-roll" in kinds[first + 1:kinds.index("extra-roll")], s.id
    return found


def three_dice_football(s, proc) -> set[str]:
    found = set()
    goal_downs = False  # the play about to be thrown is a goal down
    rounds = proc.throws
    for i, r in enumerate(rounds):
        if not r.valid:
            if i > 0 and rounds[i - 1].state["extra_point_roll"] and r.event.type == "no-roll" and any(
                    later.valid and later.result.get("extra_point") for later in rounds[i + 1:]):
                found.add("a no roll on the extra point roll")
            continue
        res = r.result
        if res.get("extra_point"):
            continue
        touchdown = res["yard_line"] == 0 and r.state["touchdown"]
        if goal_downs and res["kind"] == "turnover":
            found.add("a turnover in the goal downs")
        if goal_downs and touchdown:
            found.add("a touchdown in the goal downs")
        if res["play"] == 1 and res["next_down"] == "1st & Goal":
            found.add("1st & Goal earned on play 1")
        if res["play"] == 6 and touchdown:
            found.add("a touchdown on play 6")
        goal_downs = bool(res["next_down"]) and res["next_down"].endswith("& Goal")
    return found


def props_and_hops(s, proc) -> set[str]:
    found = set()
    for win in actions(proc, Do.PAY, bet="six-eight-shake"):
        later = [r for r in proc.throws if r.throw > win.throw]
        restart = next((r for r in later if actions(proc, Do.PLACE_LAMMERS, r.throw)
                        and actions(proc, Do.ACCEPT, r.throw, "six-eight-shake")), None)
        if restart is None:
            continue
        moved = next((r.state for r in later if r.throw >= restart.throw and r.state["lammers_moved"]), None)
        if moved and len(moved["lammers_moved"]) == 1 and len(moved["lammers_left"]) == 5:
            found.add("a Six Eight Shake win, then a new cycle with fresh lammers")
    return found


def pai_gow_dice(s, proc) -> set[str]:
    found = set()
    table = s.options.get("beat_it_paytable")
    stakes = {o.seat: o.amount for o in offered(s, "beat-it")}
    for r in proc.throws:
        if r.valid and table in ("A", "B") and r.result["red"] == sum(r.result["blue"]):
            paid = actions(proc, Do.PAY, r.throw, "beat-it")
            if paid and all(a.amount == stakes[a.seat] for a in paid):  # 1 to 1
                found.add(f"a Beat It tie under paytable {table}")
    return found


COVERAGE = {"high-roll-dice": high_roll_dice, "three-dice-football": three_dice_football,
            "props-and-hops": props_and_hops, "pai-gow-dice": pai_gow_dice}
SITUATIONS = {
    "high-roll-dice": ("a no roll on the Extra Roll", "pairs only on ten dice, the highest rank wins",
                       "eight of a kind", "ten of a kind, an Extra Roll bought and none thrown"),
    "three-dice-football": ("a turnover in the goal downs", "a touchdown in the goal downs",
                            "1st & Goal earned on play 1", "a touchdown on play 6",
                            "a no roll on the extra point roll"),
    "props-and-hops": ("a Six Eight Shake win, then a new cycle with fresh lammers",),
    "pai-gow-dice": ("a Beat It tie under paytable A", "a Beat It tie under paytable B"),
}


def shown() -> dict[str, list[str]]:
    out = defaultdict(list)
    for sid, (s, proc) in PLAYED.items():
        if s.game in COVERAGE:
            for situation in COVERAGE[s.game](s, proc):
                out[situation].append(sid)
    return out


SHOWN = shown()


@pytest.mark.parametrize("game,situation", [(g, x) for g, xs in SITUATIONS.items() for x in xs])
def test_the_library_covers(game, situation):
    assert SHOWN.get(situation), f"no bundled {game} scenario shows {situation}"


# --- exams never reuse practice rounds ---------------------------------------------------------

ITEMS = resources_dir() / "exams" / "items"
AMOUNTS_OR_ODDS = re.compile(r"\$|\d+(,\d{3})* to \d+")


def signature(s) -> str:
    return repr((s.game, s.wagers, s.events))


def test_no_exam_item_is_a_practice_scenario():
    forms = bundled_forms()
    assert forms
    practice = {s.id: s for s in LIBRARY.scenarios}
    texts = {s.text.strip() for s in practice.values()}
    rounds = {signature(s) for s in practice.values()}
    sources = {p.read_text(encoding="utf-8").strip(): p for p in sorted(ITEMS.glob("*/*.toml"))}
    used = set()
    for form in forms:
        for i, (item, s) in enumerate(zip(form.items, form.scenarios, strict=True)):
            where = f"{form.uid} items[{i}] ({item.scenario_id})"
            assert item.scenario_id not in practice, f"{where}: a practice scenario's id"
            assert item.text.strip() not in texts, f"{where}: a practice scenario's TOML"
            assert signature(s) not in rounds, f"{where}: a practice round's wagers and dice"
            assert item.text.strip() in sources, f"{where}: not one of the files in {ITEMS}"
            used.add(sources[item.text.strip()])
            assert not AMOUNTS_OR_ODDS.search(s.title + " " + s.briefing), f"{where}: exams show no hints"
    assert used == set(sources.values()), "an exam item file that no example form uses"
    assert not any(i.startswith("exam-") for i in practice), "exam items live in resources/exams/items"
