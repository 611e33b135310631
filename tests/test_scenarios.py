"""The bundled scenario library: every file checks, plays perfectly with the right log, and
together they cover every event the games have."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from tests.support.paths import ROOT
from trainer.cite import is_citation
from trainer.games import GAME_IDS, get
from trainer.grading import correct_log, grade
from trainer.procedure import Automation, Do, build
from trainer.regulations import quote
from trainer.scenario import load

SCENARIOS = ROOT / "scenarios"
FILES = sorted(SCENARIOS.glob("*/*.toml"))
LOADED = {path: load(path) for path in FILES}


def by_game(*game_ids):
    return [s for s in LOADED.values() if s.game in game_ids]


@pytest.mark.parametrize("games", [("props-and-hops",), ("three-dice-football",),
                                   ("high-roll-dice", "high-roll-dice-6"), ("pai-gow-dice",)])
def test_at_least_twelve_scenarios_per_game(games):
    assert len(by_game(*games)) >= 12


def test_ids_are_unique_and_folders_name_the_game():
    ids = [s.id for s in LOADED.values()]
    assert len(ids) == len(set(ids))
    for path, s in LOADED.items():
        assert path.parent.name == s.game, path


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_correct_log_gets_a_perfect_score(path):
    s = LOADED[path]
    proc = build(s)
    for automation in (s.automation, Automation.WHOLE_ROUND):
        result = grade(proc, correct_log(proc, automation), automation=automation, game=s.game,
                       target_seconds=s.target_seconds, elapsed=s.target_seconds)
        assert result.findings == [], [f.message for f in result.findings]
        assert result.score.total == 100 and result.score.passed
    for _, a in proc.actions():  # every step cites a section the bundled text has, or a reading
        assert is_citation(a.cite) and quote(a.cite), (a.label, a.cite)


def events(*game_ids):
    out = defaultdict(set)
    for s in by_game(*game_ids):
        for e in s.events:
            out[e.type].add(e.throw.get("no_roll") if e.type in ("no-roll", "lost-die") else
                            "cocked" if e.cocked is not None else None)
        for o in [*s.wagers, *(e.offer for e in s.events if e.offer)]:
            out["improper"] |= {k for k in ("cash", "late") if getattr(o, k)}
            if not o.seated:
                out["improper"].add("not seated")
    return out


def actions(*game_ids):
    return [a for s in by_game(*game_ids) for _, a in build(s).actions()]


@pytest.mark.parametrize("game", ["props-and-hops", "three-dice-football", "high-roll-dice",
                                  "pai-gow-dice"])
def test_every_no_roll_cause_comes_up(game):
    ids = (game, f"{game}-6") if game == "high-roll-dice" else (game,)
    seen = events(*ids)["no-roll"] | events(*ids)["lost-die"]
    assert set(get(game).no_rolls) - set(get(game).cannot_happen) <= seen


def test_improper_wagers_come_up_in_every_game():
    for ids in (("props-and-hops",), ("three-dice-football",), ("high-roll-dice",),
                ("pai-gow-dice",)):
        assert {"cash", "not seated"} <= events(*ids)["improper"], ids


def test_the_irregular_events_come_up():
    ph, tdf, hrd = events("props-and-hops"), events("three-dice-football"), events("high-roll-dice")
    assert "take-down" in ph and "wager" in ph
    assert {"reject-dice", "lost-die"} <= set(tdf) and "cocked" in tdf["throw"]
    assert "extra-roll" in hrd and "cocked" in hrd["throw"]


def test_the_procedure_events_come_up():
    ph = actions("props-and-hops")
    assert any(a.do is Do.PASS_SHAKER for a in ph), "a shooter sevening out"
    assert any(a.do is Do.RECOVER_SHAKER for a in ph), "a player lifting the lid"
    assert any(a.do is Do.REFUSE and "668a.3(e)" in a.cite for a in ph), "a late Six Eight Shake"
    assert any(a.do is Do.PAY and a.bet == "six-eight-shake" for a in ph)
    tdf = actions("three-dice-football")
    assert any(a.do is Do.REFUSE and "577.3(c)" in a.cite for a in tdf), "a late full game wager"
    assert any(a.do is Do.EXTRA_POINT_ROLL for a in tdf)
    assert any(a.do is Do.NEW_DICE for a in tdf)
    hrd = actions("high-roll-dice")
    assert any(a.do is Do.REFUSE and "675a.2(a)" in a.cite for a in hrd), "a late Extra Roll"
    assert any(a.do is Do.EXTRA_ROLL for a in hrd)
    assert any(a.do is Do.PAY and "675a.4(h)" in a.cite for a in hrd), "a held wager paid"


@pytest.mark.parametrize(("game", "event"), [(g, e) for g in ("props-and-hops", "three-dice-football",
                                                              "high-roll-dice", "high-roll-dice-6",
                                                              "pai-gow-dice")
                                             for e in ("take-down", "reject-dice", "lost-die",
                                                       "extra-roll")])
def test_an_event_a_game_does_not_have_is_refused_naming_the_games_that_do(game, event):
    """The games' own events come from each game's descriptor (Game.events), not a list here."""
    from tests.support.scenario_text import one_player_scenario
    from trainer import games
    from trainer.scenario import GAME_EVENTS, ScenarioError, parse

    assert event in GAME_EVENTS
    g = games.get(game)
    throw = {"type": "throw", **g.throw_of((1, 2, 3, 4, 5, 6, 1, 2, 3, 4)[:g.dice])}
    extra = {"take-down": {"seat": 1, "bet": "six-eight-shake"}, "reject-dice": {"seat": 1},
             "extra-roll": {k: v for k, v in throw.items() if k != "type"}}.get(event, {})
    text = one_player_scenario(game, [throw, {"type": event, **extra}])
    if event in g.events:
        return  # this game has it: the bundled scenarios play it
    with pytest.raises(ScenarioError, match=re.escape(f"{g.name} has no {event} event; only ")) as e:
        parse(text, "t.toml")
    having = [games.get(i).name for i in games.GAME_IDS if event in games.get(i).events]
    assert having and all(name in str(e.value) for name in having)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_no_roll_reason_has_a_name_from_the_regulation(game):
    g = get(game)
    assert set(g.no_roll_names) == set(g.no_rolls)
    for reason, name in g.no_roll_names.items():
        assert name[0].isupper() and name.lower() != reason and "-" not in name
