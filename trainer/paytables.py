"""Paytables and layouts are data (resources/), read here into exact odds.

A property changes its paytable or hop regions by editing the TOML files, never the code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from trainer.cite import cite
from trainer.errors import DataError
from trainer.money import parse_odds
from trainer.paths import resources_dir


@dataclass(frozen=True, slots=True)
class PayLine:
    key: str  # the paying result, e.g. "2 or 12"
    odds: Fraction
    text: str  # as printed, e.g. "2 to 1"


@dataclass(frozen=True, slots=True)
class PayEntry:
    name: str
    cite: str
    lines: dict[str, PayLine]

    def line(self, key: str) -> PayLine:
        try:
            return self.lines[key]
        except KeyError:
            raise DataError(f"paytable '{self.name}' has no line for {key!r}") from None


def read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise DataError(f"{path}: missing") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path}: {e}") from None


@cache
def paytable(game: str) -> dict[str, PayEntry]:
    """Every paytable entry of a game, by name, from resources/paytables/<game>.toml."""
    path = resources_dir() / "paytables" / f"{game}.toml"
    entries = {}
    for name, table in read_toml(path).items():
        if not isinstance(table, dict) or "cite" not in table:
            raise DataError(f"{path}: [{name}] needs a 'cite' and its odds")
        lines = {
            key: PayLine(key, parse_odds(text, f"{path.name} [{name}] {key}"), str(text))
            for key, text in table.items()
            if key != "cite"
        }
        entries[name] = PayEntry(name, cite(table["cite"]), lines)
    return entries


@cache
def layout(game: str) -> dict:
    """The layout data of a game (resources/layouts/<game>.toml)."""
    return read_toml(resources_dir() / "layouts" / f"{game}.toml")
