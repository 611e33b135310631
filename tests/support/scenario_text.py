"""Scenario files written in a test: a head and its parts (players, wagers, throws, no rolls),
parsed with `scenario`, and a one-player scenario's whole text."""

from __future__ import annotations

from trainer.scenario import parse

HEAD = """schema_version = 1
id = "t"
title = "t"
briefing = "t"
difficulty = 4
skills = ["payouts"]
target_seconds = 60
"""


def scenario(game: str, body: str):
    return parse(HEAD + f'game = "{game}"\n' + body, "test.toml")


def players(*seats: int) -> str:
    return "".join(f'[[players]]\nseat = {s}\nname = "P{s}"\n' for s in seats)


def wager(seat, bet, amount, table="wagers", **extra) -> str:
    more = "".join(f"{k} = {v}\n" for k, v in extra.items())
    kind = 'type = "wager"\n' if table == "events" else ""
    return f'[[{table}]]\n{kind}seat = {seat}\nbet = "{bet}"\namount = "{amount}"\n{more}'


def throw(**fields) -> str:
    return '[[events]]\ntype = "throw"\n' + "".join(f"{k} = {v}\n" for k, v in fields.items())


def no_roll(reason) -> str:
    return f'[[events]]\ntype = "no-roll"\nreason = "{reason}"\n'


def one_player_scenario(game: str, events: list[dict], *, difficulty: int = 1,
                        skills: str = '["payouts"]') -> str:
    """A scenario file's text: one seated player (seat 1) and these events, each a dict of its
    fields (a throw written as the settle contract writes it, e.g. from Game.throw_of)."""
    import json

    blocks = "".join("\n[[events]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in e.items())
                     for e in events)
    return (f'schema_version = 1\nid = "t"\ntitle = "t"\nbriefing = "t"\ngame = "{game}"\n'
            f"difficulty = {difficulty}\nskills = {skills}\ntarget_seconds = 30\n\n"
            f'[[players]]\nseat = 1\nname = "Ana"\n{blocks}')
