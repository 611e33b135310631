"""Scenario files: a scripted round in TOML (scenarios/<game>/*.toml), read strictly.

Every problem is reported as `file:line: message`, with the line found in the file's text and
a "did you mean" for a misspelt key. A scenario that reads well is then played through the
rules engine (trainer.procedure.builder), which refuses events that cannot happen under the rules.

    schema_version = 1
    id = "ph-first-round"            title, briefing, game, difficulty (1-5), skills,
    target_seconds = 60              automation (optional), [options]
    [[players]]  seat, name, shooter (optional)
    [[wagers]]   seat, bet, amount, cash / seated (optional: improper wagers to refuse)
    [[events]]   type = "throw" | "no-roll" | "wager" | "take-down" | "reject-dice" |
                 "lost-die" | "extra-roll", with the fields of its type
    [[fault]]    step, kind: a fault a supervised dealer makes at a step (trainer.supervise,
                 which checks the kind and the step against the round)
"""

from __future__ import annotations

import copy
import difflib
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from trainer import games
from trainer.errors import OneLine, RequestError
from trainer.frozen import quick_init
from trainer.money import parse_amount
from trainer.vocabulary import BY_DIFFICULTY, TOLD_UP_TO, Automation, Skill

if TYPE_CHECKING:
    from trainer.games.base import Options

SCHEMA_VERSION = 1
#: the longest scenario text read: the longest bundled one is under 4,000 characters, and the
#: TOML reader takes seconds over megabytes
MAX_CHARS = 200_000
TOP_KEYS = ("schema_version", "id", "title", "briefing", "game", "difficulty", "skills",
            "target_seconds", "automation", "options", "players", "wagers", "events", "fault")
REQUIRED = ("schema_version", "id", "title", "briefing", "game", "difficulty", "skills",
            "target_seconds")
PLAYER_KEYS = ("seat", "name", "shooter")
WAGER_KEYS = ("seat", "bet", "amount", "cash", "seated")
FAULT_KEYS = ("step", "kind")
#: events only some games have (each game lists its own in `Game.events`)
GAME_EVENTS = ("take-down", "reject-dice", "lost-die", "extra-roll")
EVENT_TYPES = ("throw", "no-roll", "wager", *GAME_EVENTS)


class ScenarioError(OneLine, ValueError):
    """A problem in a scenario file, at a line."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@quick_init
@dataclass(frozen=True, slots=True)
class Offer:
    """A wager offered at the table; `cash`, `seated` and `late` mark improper ones."""

    seat: int
    bet: str
    amount: int
    cash: bool = False
    seated: bool = True
    late: bool = False
    where: str = ""  # its field in the file, such as "events[3]"

    def __deepcopy__(self, memo: dict) -> Offer:
        """Itself: nothing in it can change (frozen, of numbers, text and truth values), so a
        copy of a scenario shares it, as it shares a string (trainer.library hands out copies)."""
        return self


@quick_init
@dataclass(frozen=True, slots=True)
class Event:
    type: str
    where: str  # e.g. "events[3]"
    throw: dict = field(default_factory=dict)  # the throw in the settle contract's form
    cocked: int | None = None  # index of a die resting cocked on chips, read by its top face
    seat: int | None = None
    bet: str | None = None
    offer: Offer | None = None

    def __deepcopy__(self, memo: dict) -> Event:
        """A copy whose throw is its own: the throw (a dict, as read from the file) is the one
        part of a frozen event that can change; the rest is shared, as `Offer`'s copy is."""
        return replace(self, throw=copy.deepcopy(self.throw, memo))


@dataclass(frozen=True, slots=True)
class ScriptedFault:
    """A [[fault]] entry: the fault type's id (`kind`) and the id of the step it goes in, as the
    answer key names it (`step`, "r4:pay:seat1:any-2-5")."""

    step: str
    kind: str
    where: str  # its field in the file, such as "fault[0]"

    def __deepcopy__(self, memo: dict) -> ScriptedFault:
        """Itself, as `Offer`'s: frozen, and of text only."""
        return self


@dataclass
class Scenario:
    id: str
    title: str
    briefing: str
    game: str
    difficulty: int
    skills: tuple[Skill, ...]
    target_seconds: int
    automation: Automation
    options: Options  # as the game read them, defaults filled in
    players: dict[int, str]  # seat -> name
    shooter: int | None
    wagers: list[Offer]
    events: list[Event]
    path: str = ""
    text: str = ""
    faults: tuple[ScriptedFault, ...] = ()

    def line_of(self, where: str) -> int:
        return Locator(self.text).line_of(where) if self.text else 1

    @property
    def walked_through(self) -> bool:
        """Up to TOLD_UP_TO the trainee is told the round before it (briefing, title, how many
        throws); above it only what a dealer at the table knows."""
        return self.difficulty <= TOLD_UP_TO

    @property
    def heading(self) -> str:
        """The title the table shows while the round is worked: the scenario's own up to
        TOLD_UP_TO; above it the game and the difficulty only (a title such as "Three no rolls,
        then a hard ten" would tell what is coming)."""
        if self.walked_through:
            return self.title
        return f"{games.get(self.game).name}, difficulty {self.difficulty}"

    @property
    def told(self) -> str:
        """The briefing the trainee reads before the round. Up to TOLD_UP_TO it is the
        scenario's own, which may walk through the round; above it, only what a dealer at the
        table knows before the round: the game, the players, the bets up and the paytable."""
        if self.walked_through:
            return self.briefing
        game = games.get(self.game)
        bets = game.catalogue(self.options)
        seats = ", ".join(f"seat {seat} {name}" for seat, name in sorted(self.players.items()))
        up: dict[int, list[str]] = {}
        for w in self.wagers:
            up.setdefault(w.seat, []).append(bets[w.bet].name if w.bet in bets else games.bet_name(w.bet))
        wagers = "; ".join(f"seat {seat}: {', '.join(names)}" for seat, names in sorted(up.items()))
        return (f"{game.name}, difficulty {self.difficulty}. At the table: {seats or 'no players'}. "
                f"Bets up: {wagers or 'none yet'}. The paytable is printed on the layout (and "
                "under Rules › Paytables). Deal the round as the regulation says: what happens "
                "is for you to see.")


# --- locating a field in the file's text ---------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?")
_KEY = re.compile(r"^\s*\"?([A-Za-z0-9_-]+)\"?\s*=")


class Locator:
    """Finds the line of a field such as `events[3].dice[0]` in a TOML text written with
    [[array]] tables (the form the bundled scenarios use)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.blocks: dict[tuple[str, int | None], tuple[int, int]] = {}
        counts: dict[str, int] = {}
        starts: list[tuple[tuple[str, int | None], int]] = []
        for n, line in enumerate(self.lines, start=1):
            if m := _HEADER.match(line):
                name = m.group(2)
                if m.group(1) == "[[":
                    index = counts.get(name, 0)
                    counts[name] = index + 1
                    starts.append(((name, index), n))
                else:
                    starts.append(((name, None), n))
        ends = [n for _, n in starts[1:]] + ([len(self.lines) + 1] if starts else [])
        top_end = starts[0][1] if starts else len(self.lines) + 1
        self.blocks[("", None)] = (1, top_end)
        for (key, start), end in zip(starts, ends, strict=True):
            self.blocks[key] = (start, end)

    def line_of(self, where: str) -> int:
        parts = [p for p in re.split(r"[.\[\]]", where) if p]
        block: tuple[str, int | None] = ("", None)
        rest = parts
        if parts and not parts[0].isdigit():
            if len(parts) > 1 and parts[1].isdigit() and (parts[0], int(parts[1])) in self.blocks:
                block, rest = (parts[0], int(parts[1])), parts[2:]
            elif (parts[0], None) in self.blocks:
                block, rest = (parts[0], None), parts[1:]
            elif (parts[0], 0) in self.blocks:
                block, rest = (parts[0], 0), parts[1:]
        start, end = self.blocks.get(block, (1, len(self.lines) + 1))
        if rest and not rest[0].isdigit():
            for n in range(start, end):
                if (m := _KEY.match(self.lines[n - 1])) and m.group(1) == rest[0]:
                    return n
        return start


def syntax_line(error: tomllib.TOMLDecodeError) -> int:
    m = re.search(r"at line (\d+)", str(error))
    return int(m.group(1)) if m else 1


# --- reading ----------------------------------------------------------------------------------


def unknown_key(key: str, allowed: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    hint = f" — did you mean \"{close[0]}\"?" if close else f"; expected one of {', '.join(allowed)}"
    return f"unknown key \"{key}\"{hint}"


class _Reader:
    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.locator = Locator(text)

    def fail(self, where: str, message: str) -> NoReturn:
        raise ScenarioError(self.path, self.locator.line_of(where), message)

    def keys(self, table: dict, allowed: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in allowed:
                self.fail(f"{where}.{key}" if where else key, unknown_key(key, allowed))

    def need(self, table: dict, key: str, kind, where: str, what: str):
        at = f"{where}.{key}" if where else key
        if key not in table:
            self.fail(where or key, f"missing \"{key}\" ({what})")
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(at, f"\"{key}\" must be a whole number ({what})")
        if kind is not int and not isinstance(value, kind):
            self.fail(at, f"\"{key}\" must be {what}")
        return value

    def flag(self, table: dict, key: str, where: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.fail(f"{where}.{key}", f"\"{key}\" must be true or false")
        return value

    def seat(self, table: dict, where: str, game) -> int:
        seat = self.need(table, "seat", int, where, f"a seat number 1–{game.seats}")
        if not 1 <= seat <= game.seats:
            self.fail(f"{where}.seat", f"seat {seat} is out of range 1–{game.seats}")
        return seat

    def offer(self, table: dict, where: str, game, bets, *, late: bool = False) -> Offer:
        seat = self.seat(table, where, game)
        bet = self.need(table, "bet", str, where, "a bet id")
        if bet not in bets:
            close = difflib.get_close_matches(bet, list(bets), n=1)
            hint = f" — did you mean \"{close[0]}\"?" if close else ""
            self.fail(f"{where}.bet", f"unknown bet \"{bet}\" for {game.id}{hint}")
        if "amount" not in table:
            self.fail(where, "missing \"amount\" (dollars, such as \"5\" or \"2.50\")")
        try:
            amount = parse_amount(table["amount"], f"{where}.amount")
        except RequestError as e:
            self.fail(e.field, f"bad amount: {e.message}")
        return Offer(seat, bet, amount, self.flag(table, "cash", where, False),
                     self.flag(table, "seated", where, True), late, where)


def load(path: Path | str) -> Scenario:
    """Read and check one scenario file; raises ScenarioError at the first problem."""
    path = Path(path)
    name = str(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_CHARS + 1)  # no further: a huge file is refused, not read whole
    except UnicodeDecodeError as e:
        raise ScenarioError(name, 1, f"cannot read the file: it is not UTF-8 text ({e.reason})") from None
    except OSError as e:
        raise ScenarioError(name, 1, f"cannot read the file ({e.__class__.__name__}: {e})") from None
    return parse(text, name)


def parse(text: str, name: str = "<scenario>") -> Scenario:
    if len(text) > MAX_CHARS:
        raise ScenarioError(name, 1, f"larger than {MAX_CHARS:,} characters, which no scenario is")
    r = _Reader(name, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise ScenarioError(name, syntax_line(e), f"TOML syntax error: {message}") from None
    except RecursionError:
        raise ScenarioError(name, 1, "nested too deeply to be a scenario") from None
    except ValueError as e:  # an integer of more digits than Python converts
        raise ScenarioError(name, 1, f"a number that cannot be read ({str(e).split(';')[0]})") from None
    r.keys(data, TOP_KEYS, "")
    for key in REQUIRED:
        if key not in data:
            r.fail("", f"missing \"{key}\"")
    version = r.need(data, "schema_version", int, "", "the scenario format version")
    if version != SCHEMA_VERSION:
        r.fail("schema_version", f"schema_version {version} is not supported (this trainer reads "
                                 f"{SCHEMA_VERSION})")
    try:
        game = games.get(data["game"])
    except RequestError as e:
        r.fail("game", e.message)
    try:
        options = game.parse_options(r.need(data, "options", dict, "", "a table") if "options" in data
                                 else {})
    except RequestError as e:
        r.fail(e.field, e.message)
    bets = game.catalogue(options)
    difficulty = r.need(data, "difficulty", int, "", "1 to 5")
    if not 1 <= difficulty <= 5:
        r.fail("difficulty", f"difficulty {difficulty} is not 1 to 5")
    skills = r.need(data, "skills", list, "", "a list of skill tags")
    for s in skills:
        if not isinstance(s, str) or s not in Skill._value2member_map_:
            r.fail("skills", unknown_key(str(s), tuple(k.value for k in Skill)).replace("key", "skill"))
    target = r.need(data, "target_seconds", int, "", "seconds")
    if target <= 0:
        r.fail("target_seconds", "target_seconds must be positive")
    automation = BY_DIFFICULTY[difficulty]
    if "automation" in data:
        if not isinstance(data["automation"], str) or data["automation"] not in Automation._value2member_map_:
            r.fail("automation", unknown_key(str(data["automation"]), tuple(a.value for a in Automation))
                   .replace("key", "automation"))
        automation = Automation(data["automation"])
    for key in ("id", "title", "briefing"):
        if not r.need(data, key, str, "", "text").strip():
            r.fail(key, f"\"{key}\" is empty")

    players: dict[int, str] = {}
    shooter = None
    listed = r.need(data, "players", list, "", "a list of [[players]] tables") if "players" in data else []
    for i, p in enumerate(listed):
        if not isinstance(p, dict):
            r.fail("players", "each player is a [[players]] table")
        where = f"players[{i}]"
        r.keys(p, PLAYER_KEYS, where)
        seat = r.seat(p, where, game)
        if seat in players:
            r.fail(f"{where}.seat", f"seat {seat} already has a player")
        players[seat] = r.need(p, "name", str, where, "the player's name")
        if r.flag(p, "shooter", where, False):
            if not game.shooter:
                r.fail(f"{where}.shooter", f"{game.name} has no shooter; only "
                                           f"{_having(lambda g: g.shooter)} has")
            if shooter is not None:
                r.fail(f"{where}.shooter", f"seat {shooter} is already the shooter")
            shooter = seat
    if not players:
        r.fail("", "a scenario needs at least one [[players]] entry")

    def checked(offer: Offer) -> Offer:
        if offer.seated and offer.seat not in players:
            r.fail(f"{offer.where}.seat", f"seat {offer.seat} has no player; add a [[players]] "
                                          "entry or mark the wager seated = false")
        return offer

    wagers = []
    for where, w in _tables(r, data, "wagers", "each wager is a [[wagers]] table"):
        r.keys(w, WAGER_KEYS, where)
        wagers.append(checked(r.offer(w, where, game, bets)))

    events = []
    for where, raw in _tables(r, data, "events", "each event is an [[events]] table"):
        kind = r.need(raw, "type", str, where, f"one of {', '.join(EVENT_TYPES)}")
        if kind not in EVENT_TYPES:
            r.fail(f"{where}.type", unknown_key(kind, EVENT_TYPES).replace("key", "event type"))
        events.append(_event(r, raw, kind, where, game, bets, checked))
    if not any(ev.type in ("throw", "no-roll", "lost-die", "extra-roll") for ev in events):
        r.fail("events" if "events" in data else "", "a scenario needs at least one throw")
    faults = []
    for where, raw in _tables(r, data, "fault", "each fault is a [[fault]] table"):
        r.keys(raw, FAULT_KEYS, where)
        faults.append(ScriptedFault(r.need(raw, "step", str, where, "a step's id from the answer key"),
                                    r.need(raw, "kind", str, where, "a fault type's id"), where))
    return Scenario(data["id"], data["title"].strip(), data["briefing"].strip(), game.id,
                    difficulty, tuple(Skill(s) for s in skills), target, automation, options,
                    players, shooter, wagers, events, name, text, tuple(faults))


def _tables(r, data: dict, key: str, each: str):
    """The scenario's [[key]] tables, each with where it is ("key[i]"); `each` says what a
    member that is not a table should have been."""
    listed = r.need(data, key, list, "", f"a list of [[{key}]] tables") if key in data else []
    for i, raw in enumerate(listed):
        if not isinstance(raw, dict):
            r.fail(key, each)
        yield f"{key}[{i}]", raw


def _event(r: _Reader, e: dict, kind: str, where: str, game, bets, checked) -> Event:
    if kind in GAME_EVENTS and kind not in game.events:
        r.fail(f"{where}.type", f"{game.name} has no {kind} event; only "
                                f"{_having(lambda g: kind in g.events)} has")
    if kind in ("throw", "extra-roll"):
        fields = game.throw_fields
        r.keys(e, ("type", *fields, "cocked"), where)
        for f in fields:
            if f not in e:
                r.fail(where, f"a {game.name} throw needs \"{f}\"")
        cocked = None
        if "cocked" in e:
            cocked = r.need(e, "cocked", int, where, "the index of the cocked die, from 0")
            if not game.cocked_dice:
                r.fail(f"{where}.cocked", f"a die cocked on chips is not part of {game.name}; "
                                          "use a no-roll event")
            count = 3 if "green" in fields else len(e["dice"]) if isinstance(e["dice"], list) else 0
            if not 0 <= cocked < count:
                r.fail(f"{where}.cocked", f"cocked = {cocked} names no die: the dice are numbered "
                                          f"0 to {count - 1}")
        return Event(kind, where, {f: e[f] for f in fields}, cocked=cocked)
    if kind == "no-roll":
        r.keys(e, ("type", "reason"), where)
        reason = r.need(e, "reason", str, where, "a no-roll reason")
        if reason not in game.no_rolls:
            r.fail(f"{where}.reason", unknown_key(reason, tuple(game.no_rolls)).replace(
                "key", "no-roll reason"))
        if reason in game.cannot_happen:
            r.fail(f"{where}.reason", f"{reason}: {game.cannot_happen[reason]}")
        return Event(kind, where, {"no_roll": reason})
    if kind == "wager":
        r.keys(e, ("type", *WAGER_KEYS, "late"), where)
        offer = r.offer(e, where, game, bets, late=r.flag(e, "late", where, False))
        return Event(kind, where, offer=checked(offer))
    if kind == "take-down":
        r.keys(e, ("type", "seat", "bet"), where)
        seat = r.seat(e, where, game)
        return Event(kind, where, seat=seat, bet=r.need(e, "bet", str, where, "a bet id"))
    if kind == "reject-dice":
        r.keys(e, ("type", "seat"), where)
        return Event(kind, where, seat=r.seat(e, where, game))
    r.keys(e, ("type",), where)  # lost-die
    return Event(kind, where, {"no_roll": "die-off-table"})


def _having(has) -> str:
    """The games with a feature, named for a message ("Props & Hops", "A or B")."""
    names = [g.name for g in (games.get(i) for i in games.GAME_IDS) if has(g)]
    return " or ".join(names) if names else "no game"


def bundled(root: Path) -> list[Path]:
    """Every scenario file under a scenarios folder, game by game."""
    return sorted(root.glob("*/*.toml"))
