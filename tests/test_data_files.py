"""Paytables and hop regions are data: a property edits the files, and the engine follows."""

from __future__ import annotations

import shutil

import pytest

from tests.support.command import run_command
from tests.support.paths import ROOT
from trainer import paths, paytables
from trainer.errors import DataError
from trainer.settle import settle


@pytest.fixture
def property_resources(tmp_path, monkeypatch):
    """A copy of resources/ that a test may edit, used in place of the bundled one."""
    copy = tmp_path / "resources"
    shutil.copytree(ROOT / "resources", copy)
    monkeypatch.setattr(paths, "resources_dir", lambda: copy)
    monkeypatch.setattr(paytables, "resources_dir", lambda: copy)
    clear_caches()
    yield copy
    clear_caches()


def clear_caches():
    from trainer.games import props_and_hops

    paytables.paytable.cache_clear()
    paytables.layout.cache_clear()
    props_and_hops._default_regions.cache_clear()


def field_round(dice):
    return {"game": "props-and-hops", "wagers": [{"seat": 1, "bet": "field", "amount": "10"}],
            "throws": [{"dice": dice}]}


def test_a_property_can_change_the_field_paytable(property_resources):
    path = property_resources / "paytables" / "props-and-hops.toml"
    path.write_text(path.read_text().replace('"2 or 12" = "2 to 1"', '"2 or 12" = "3 to 1"'))
    pay = settle(field_round([1, 1]))["throws"][0]["steps"][-1]["lines"][0]
    assert pay["payout"] == "30.00" and pay["odds"] == "3 to 1"


def test_a_property_can_change_its_hop_regions(property_resources):
    path = property_resources / "layouts" / "props-and-hops.toml"
    text = path.read_text().replace('top = ["1-2",', 'top = ["6-6", "1-2",')
    path.write_text(text)
    got = settle({"game": "props-and-hops", "wagers": [{"seat": 1, "bet": "hop-top", "amount": "2"}],
                  "throws": [{"dice": [6, 6]}]})
    assert got["throws"][0]["steps"][-1]["lines"][0]["payout"] == "3.00"  # 3 to 2


def test_a_broken_paytable_is_named(property_resources):
    path = property_resources / "paytables" / "props-and-hops.toml"
    path.write_text(path.read_text().replace('win = "30 to 1"', 'win = "thirty"'))
    with pytest.raises(DataError, match=r"props-and-hops.toml \[double\] win"):
        settle(field_round([1, 1]))


def test_the_default_hop_regions_match_the_drawn_grid():
    layout = paytables.layout("props-and-hops")
    grid = layout["boxes"]
    assert sorted(c for row in grid for c in row) == sorted(
        f"{a}-{b}" for a in range(1, 7) for b in range(a, 7))
    regions = layout["hop_regions"]
    assert regions["top"] == grid[0]
    assert regions["left"] == [c for row in grid for c in row[:2]]
    assert regions["right"] == [c for row in grid for c in row[5:]]
    assert regions["center"] == [c for row in grid for c in row[2:5]]


def test_the_command_reports_a_broken_data_file_in_one_line(tmp_path):
    bad = tmp_path / "trainer_data"
    shutil.copytree(ROOT / "resources", bad / "resources")
    (bad / "resources" / "paytables" / "pai-gow-dice.toml").write_text("[sum-A\n")
    code = ("import sys; from pathlib import Path; import trainer.paths as p;"
            f"p.resources_dir = lambda: Path({str(bad / 'resources')!r});"
            "import trainer.paytables as t; t.resources_dir = p.resources_dir;"
            "from trainer.cli import main; sys.exit(main(['odds', '--game', 'pai-gow-dice']))")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert "pai-gow-dice.toml" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_app_finds_its_data_in_a_checkout():
    assert (paths.resources_dir() / "paytables" / "props-and-hops.toml").is_file()
    assert paths.scenarios_dir().is_dir()
    assert run_command("odds", "--game", "high-roll-dice-6").returncode == 0
