"""The scenario library read once while its files stay as they are: each call hands out its own
copies, and a file added, edited or removed is read at the next call."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

import trainer.library
from tests.support.library import bundled
from tests.support.paths import ROOT
from trainer.library import load_library
from trainer.scenario import Offer


@pytest.fixture
def folder(tmp_path):
    """A scenario folder of one game, the bundled Pai Gow dice scenarios copied."""
    shutil.copytree(ROOT / "scenarios" / "pai-gow-dice", tmp_path / "pai-gow-dice")
    return tmp_path


@pytest.fixture
def reads(monkeypatch):
    """Each scenario file read, by name."""
    read = []
    real = trainer.library.load
    monkeypatch.setattr(trainer.library, "load", lambda path: read.append(path.name) or real(path))
    return read


def test_a_folder_unchanged_is_read_once(folder, reads):
    first = load_library(folder)
    assert len(reads) == len(first.scenarios) > 0
    again = load_library(folder)
    assert len(reads) == len(first.scenarios)
    assert [s.id for s in again.scenarios] == [s.id for s in first.scenarios]
    assert again.scenarios == first.scenarios


def test_a_scenario_changed_by_one_caller_is_not_changed_for_the_next(folder):
    mine = load_library(folder)
    scenario = mine.scenarios[0]
    title, wagers, throw = scenario.title, list(scenario.wagers), dict(scenario.events[0].throw)
    scenario.title = "Changed"
    scenario.wagers.append(Offer(seat=1, bet="sum", amount=500))
    scenario.events[0].throw["changed"] = True
    scenario.players[9] = "Nobody"
    mine.problems.append("mine")
    theirs = load_library(folder)
    other = theirs.by_id(scenario.id)
    assert other is not scenario
    assert (other.title, other.wagers, other.events[0].throw) == (title, wagers, throw)
    assert 9 not in other.players and theirs.problems == []


def mutable_parts(value, found: dict[int, object]) -> dict[int, object]:
    """Every list, dict and set reachable from `value` (through lists, tuples, dicts and the
    fields of dataclasses), by identity."""
    if isinstance(value, list | dict | set):
        if id(value) in found:
            return found
        found[id(value)] = value
    if isinstance(value, dict):
        for k, v in value.items():
            mutable_parts(k, found)
            mutable_parts(v, found)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            mutable_parts(v, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            mutable_parts(getattr(value, f.name), found)
    return found


def test_two_copies_of_the_whole_library_are_equal_and_share_nothing_that_can_change():
    """Each game's bundled scenarios, handed out twice: equal in every field, and no list, dict
    or set of one (a throw's dice, the options, the players, the wagers) is one of the other, at
    any depth: what the frozen wagers, events and faults share is what cannot change."""
    first, second = load_library(), load_library()
    assert {s.game for s in first.scenarios} == {"props-and-hops", "three-dice-football",
                                                 "high-roll-dice", "high-roll-dice-6", "pai-gow-dice"}
    assert first.scenarios == second.scenarios == bundled().scenarios
    mine, theirs = mutable_parts(first.scenarios, {}), mutable_parts(second.scenarios, {})
    assert len(mine) > 3 * len(first.scenarios)  # the walk reached into the events' throws
    assert mine.keys().isdisjoint(theirs.keys())


def test_a_file_edited_added_or_removed_is_read_at_the_next_call(folder, reads):
    games = folder / "pai-gow-dice"
    first = load_library(folder)
    edited = sorted(games.glob("*.toml"))[0]
    scenario = next(s for s in first.scenarios if s.path.endswith(edited.name))
    edited.write_text(edited.read_text().replace(f'"{scenario.title}"', '"A title edited"', 1))
    assert load_library(folder).by_id(scenario.id).title == "A title edited"

    (games / "99-broken.toml").write_text('schema_version = 1\nid = "x"\nwagr = 1\n')
    added = load_library(folder)
    assert [p for p in added.problems if p.startswith("pai-gow-dice/99-broken.toml:3:")]
    assert len(added.scenarios) == len(first.scenarios)

    edited.unlink()
    removed = load_library(folder)
    assert removed.by_id(scenario.id) is None
    assert len(removed.scenarios) == len(first.scenarios) - 1
    assert len(reads) == 4 * len(first.scenarios) + 1  # every file again at each change
