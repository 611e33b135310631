"""The words people read for the engine's ids: one place.

Ids (a no-roll reason "die-fell-out", a reading "pgd-no-roll", an automation "whole-round", a
paytable entry "hop-top") are what files, logs and the settle contract keep; every screen, report
and message shows the words here instead, in the regulation's terms where it has them.
"""

from __future__ import annotations

import re
from functools import cache

from trainer import games
from trainer.cite import READING
from trainer.readings import BY_ID
from trainer.vocabulary import Automation

#: how much of a round the trainee works, as the screens say it
AUTOMATION_WORDS = {
    Automation.PAYOUTS: "the payouts",
    Automation.SETTLEMENT: "the settlement (collecting, paying, lammers and markers)",
    Automation.CALLS: "the calls and the settlement",
    Automation.WHOLE_ROUND: "the whole round",
}


def automation_words(automation: Automation | str) -> str:
    return AUTOMATION_WORDS.get(Automation(automation), str(automation))


@cache
def _no_roll_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for game_id in games.GAME_IDS:
        for reason, words in games.get(game_id).no_roll_names.items():
            names.setdefault(reason, words)
    return names


def no_roll_words(reason: str | None, game: str | None = None) -> str:
    """A no-roll reason in the regulation's words (the game's own, where a game is named)."""
    if reason is None:
        return ""
    if game in games.GAME_IDS and reason in games.get(game).no_roll_names:
        return games.get(game).no_roll_names[reason]
    return _no_roll_names().get(reason, reason)


_EXAM_PREFIX = re.compile(r"^\s*exam\s*[:\-—–]\s*", re.IGNORECASE)


def part_title(title: str, game: str | None) -> str:
    """An exam part's title naming its game, so that two parts of one form never read the same
    ("Exam: calling the dice" of Props & Hops and of Pai Gow: "Props & Hops: calling the dice",
    "Pai Gow Poker dice wagers: calling the dice"); a title that names its game already is kept."""
    if game not in games.GAME_IDS:
        return title
    name = games.get(game).name
    if name.casefold() in title.casefold():
        return title
    return f"{name}: {_EXAM_PREFIX.sub('', title) or title}"


_READING = re.compile(re.escape(READING) + r" '([a-z0-9-]+)'")


def readable(text: str) -> str:
    """A text with every reading cited by its id ("Dealer Trainer reading 'pgd-no-roll'") cited
    by its title instead ("Dealer Trainer reading “No rolls in a closed shaker”")."""
    return _READING.sub(lambda m: f"{READING} “{BY_ID[m[1]].title}”" if m[1] in BY_ID else m[0], text)


def paytable_entry_words(game_id: str, entry: str) -> str:
    """A paytable entry by the names of the wagers it pays ("hop-top": "Hop the Top")."""
    game = games.get(game_id)
    names = sorted({b.name for b in game.catalogue(game.parse_options({})).values() if b.pays == entry})
    if not names:  # an entry of a paytable a property chooses: its wagers under any paytable
        for options in _all_options(game_id):
            names = sorted({b.name for b in game.catalogue(options).values() if b.pays == entry})
            if names:
                break
    if len(names) == 1:
        return names[0]
    common = []  # the family's name, where its wagers share one: "Pip Street", "Like Kind"
    for words in zip(*(n.split() for n in names), strict=False):
        if len(set(words)) > 1:
            break
        common.append(words[0])
    return " ".join(common) if common else entry.replace("-", " ").capitalize()


def _all_options(game_id: str) -> list:
    game = games.get(game_id)
    if "sum_paytable" not in game.parse_options({}):
        return []
    return [game.parse_options({"sum_paytable": s, "beat_it_paytable": b})
            for s in "ABCD" for b in "ABC"]
