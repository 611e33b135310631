"""Exam forms: a list of scenarios, a time limit, a pass mark and the attempts allowed.

A form embeds each scenario's TOML text rather than naming a file, so that it is self-contained:
exported to another workstation, or kept after the bundled library changes, it is still the same
exam. A form is checked when it is built: every embedded scenario is read (trainer.scenario) and
played through the rules engine (trainer.procedure.build), and a problem names the item
(`items[2] (ph-first-shake):12: ...`). Its `digest` (SHA-256 of its content) is copied into every
result taken on it, so a result says exactly which exam was sat.

Form file (`write_form`, `read_form`), JSON::

    {"format": "dealer-trainer-exam-form", "version": 1, "uid": ..., "name": ...,
     "time_limit_seconds": 600, "pass_mark": 80, "attempts_allowed": 2, "created": <seconds>,
     "created_by": ..., "items": [{"scenario": "ph-first-shake", "toml": "schema_version = 1 ..."}]}

An item may instead be a **supervise item**: the scenario's round played by a dealer who makes
faults, which the trainee watches and flags (trainer.supervise). Its entry adds
`"supervise": {"faults": n, "seed": "...", "pace": seconds, "dealt": sha256}`: n faults dealt
from the seed beside those the scenario scripts ([[fault]]), the dealer's seconds between
actions, and the SHA-256 of the faults so dealt (`dealt_digest`). The faults are never written
in the form, which the trainee's workstation opens: the seed deals them again, the check refuses
a form whose faults deal otherwise (another version of the engine), and the form's digest, which
every result and certificate carries, commits to them through "dealt". Its answer is the
supervisor's flags (trainer.supervise.scoring), not a dealer's log, and its id on a result is the
supervised round's (`ExamForm.key`, "supervise-v1:SCENARIO:FAULTS:SEED"). The seed in the form is
anyone's to read, so a sitting deals its own faults (`ExamForm.dealt_for`, from the seed its start
code gives: trainer.exams.proof `deal_seed`); the form commits to each item's scenario, fault
count and pace, and its own seed deals a form sat with no sitting and a sitting issued before.

with an optional `"draw": n`: the items are a pool, and each sitting draws n of them (kept in
the form's order; `ExamForm.drawn`). The instructor makes the draw when issuing the sitting
(trainer.exams.certify), so a workstation only ever receives the items it will show; a form
sat without a sitting draws at its start. A form without "draw" (or with 0) is sat whole.

The example forms, one per game, are such files in resources/exams/ (`bundled_forms`).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from trainer import files
from trainer.errors import shown
from trainer.exams.canonical import check_header
from trainer.exams.canonical import digest as content_digest
from trainer.exams.errors import FormError, FormFileError
from trainer.paths import atomic_text, resources_dir
from trainer.procedure import build
from trainer.scenario import MAX_CHARS, Scenario, ScenarioError, parse

if TYPE_CHECKING:
    from trainer.supervise.rounds import SupervisedRound

FORMAT, VERSION = "dealer-trainer-exam-form", 1
MAX_TIME_LIMIT = 24 * 3600  # seconds: an exam is sat in one sitting
MAX_ITEMS = 100  # scenarios in one form
MAX_ATTEMPTS = 100
LATEST = 4_102_444_800  # 2100-01-01 UTC
#: the largest form file read: MAX_ITEMS scenarios of the most characters any has, each written
#: as a JSON escape of six
MAX_FILE_BYTES = MAX_ITEMS * MAX_CHARS * 6 + 2**20


#: the most characters of a supervise item's seed; its slowest dealer, in seconds an action
MAX_SEED = 64
SLOWEST_PACE = 60


@dataclass(frozen=True, slots=True)
class Supervised:
    """How a supervise item's round is dealt: `faults` more than the scenario scripts, from
    `seed`, one dealer's action every `pace` seconds; `dealt`, the SHA-256 of the faults so
    dealt (`dealt_digest`), which the form's digest commits to."""

    faults: int
    seed: str
    pace: float
    dealt: str

    def to_json(self) -> dict:
        return {"faults": self.faults, "seed": self.seed, "pace": self.pace, "dealt": self.dealt}


def dealt_digest(rnd: SupervisedRound) -> str:
    """The SHA-256 of a supervised round's faults: each one's kind, step, target and when it
    shows, in the order they show."""
    return content_digest([{"kind": f.type.id, "step": f.step, "target": f.target, "at": f.at}
                           for f in rnd.faults])


@dataclass(frozen=True, slots=True)
class FormItem:
    """One scenario of a form: its id and its whole TOML text; for a supervise item, how its
    faults are dealt (`supervise`)."""

    scenario_id: str
    text: str
    supervise: Supervised | None = None

    @property
    def key(self) -> str:
        """The item's id on a result: the scenario's, or for a supervise item its round's."""
        if self.supervise is None:
            return self.scenario_id
        from trainer.supervise.rounds import round_id  # supervising is loaded when a form has it

        return round_id(self.scenario_id, self.supervise.faults, self.supervise.seed)

    def to_json(self) -> dict:
        return {"scenario": self.scenario_id, "toml": self.text,
                **({"supervise": self.supervise.to_json()} if self.supervise is not None else {})}

    @classmethod
    def supervised(cls, scenario: Scenario, faults: int, seed: str, pace: float = 2.0) -> FormItem:
        """A supervise item of a scenario: `faults` dealt from `seed` beside its scripted ones."""
        from trainer.supervise.rounds import SuperviseError, supervise

        if not scenario.text:
            raise FormError(f"scenario {scenario.id}: its text is not known; read it with "
                            "trainer.scenario.load or parse")
        try:
            rnd = supervise(scenario, faults, seed, pace)
        except SuperviseError as e:
            raise FormError(f"scenario {scenario.id}: {e}") from None
        return cls(scenario.id, scenario.text, Supervised(faults, seed, float(pace), dealt_digest(rnd)))

    @classmethod
    def of(cls, scenario: Scenario) -> FormItem:
        """The item for a scenario read from the library or a file (its text is kept in it)."""
        if not scenario.text:
            raise FormError(f"scenario {scenario.id}: its text is not known; read it with "
                            "trainer.scenario.load or parse")
        return cls(scenario.id, scenario.text)

    def scenario(self, position: int = 0) -> Scenario:
        """The scenario, read again from the embedded text (the form was checked when built)."""
        return parse(self.text, f"items[{position}] ({self.scenario_id})")


@dataclass(frozen=True, kw_only=True)
class ExamForm:
    uid: str
    name: str
    items: tuple[FormItem, ...]
    time_limit_seconds: int
    pass_mark: int
    attempts_allowed: int
    created: float
    created_by: str
    archived: bool = False
    draw: int = 0  # 0: every item, in order; n: each sitting draws n of the items (a pool)
    _scenarios: tuple[Scenario, ...] = field(default=(), repr=False, compare=False)
    _rounds: tuple[SupervisedRound | None, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        put = lambda name, v: object.__setattr__(self, name, v)  # noqa: E731
        for name in ("uid", "name"):
            v = getattr(self, name)
            if not isinstance(v, str) or not v.split():
                raise FormError(f"{name}: must be a non-empty text, not {v!r}")
        put("name", " ".join(self.name.split()))
        if not isinstance(self.created_by, str):
            raise FormError(f"created_by: must be text, not {self.created_by!r}")
        for name in ("uid", "name", "created_by"):
            _storable(name, getattr(self, name))
        _whole("time_limit_seconds", self.time_limit_seconds, 1, MAX_TIME_LIMIT)
        _whole("pass_mark", self.pass_mark, 0, 100)
        _whole("attempts_allowed", self.attempts_allowed, 1, MAX_ATTEMPTS)
        if isinstance(self.created, bool) or not isinstance(self.created, int | float) \
                or not 0 <= self.created <= LATEST or self.created != self.created:
            raise FormError(f"created: must be a time in seconds since 1970 (before 2100), not "
                            f"{shown(self.created)}")
        put("created", float(self.created))
        items = tuple(self.items)
        if not items:
            raise FormError("items: a form needs at least one scenario")
        if len(items) > MAX_ITEMS:
            raise FormError(f"items: {len(items):,} scenarios; a form holds at most {MAX_ITEMS}")
        scenarios: list[Scenario] = []
        rounds: list[SupervisedRound | None] = []
        seen: set[str] = set()
        for i, item in enumerate(items):
            if not isinstance(item, FormItem):
                raise FormError(f"items[{i}]: must be a FormItem, not {item!r}")
            if not isinstance(item.scenario_id, str) or not item.scenario_id:
                raise FormError(f"items[{i}].scenario: must be a scenario id, not {item.scenario_id!r}")
            if not isinstance(item.text, str) or not item.text.strip():
                raise FormError(f"items[{i}] ({item.scenario_id}): the scenario text is empty")
            _storable(f"items[{i}].scenario", item.scenario_id)
            _storable(f"items[{i}] ({item.scenario_id})", item.text)
            _check_supervised(f"items[{i}].supervise", item.supervise)
            if item.key in seen:
                raise FormError(f"items[{i}] ({item.key}): this "
                                f"{'round' if item.supervise else 'scenario'} is already in the form")
            seen.add(item.key)
            try:
                s = _checked_scenario(i, item)
            except ScenarioError as e:
                raise FormError(str(e)) from None
            scenarios.append(s)
            rounds.append(_dealt(i, s, item.supervise))
        put("items", items)
        put("_scenarios", tuple(scenarios))
        put("_rounds", tuple(rounds))
        _whole("draw", self.draw, 0, len(items))

    @property
    def sat_items(self) -> int:
        """How many items one sitting shows."""
        return self.draw or len(self.items)

    def drawn(self, positions) -> ExamForm:
        """The form one sitting shows: the items at `positions` (a draw from the pool, as
        `draw_positions` makes one), in the form's order, everything else the same."""
        positions = list(positions)
        if len(positions) != self.sat_items or sorted(set(positions)) != positions or any(
                isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < len(self.items)
                for p in positions):
            raise FormError(f"a draw of {self.name!r} is {self.sat_items} different items of its "
                            f"{len(self.items)}, in order, not {shown(positions)}")
        if not self.draw:
            return self
        return ExamForm(uid=self.uid, name=self.name, items=tuple(self.items[p] for p in positions),
                        time_limit_seconds=self.time_limit_seconds, pass_mark=self.pass_mark,
                        attempts_allowed=self.attempts_allowed, created=self.created,
                        created_by=self.created_by, archived=self.archived)

    def draw_positions(self, rng: random.Random | None = None) -> list[int]:
        """A draw for one sitting, from the operating system's randomness unless `rng` is given."""
        if not self.draw:
            return list(range(len(self.items)))
        return sorted((rng or random.SystemRandom()).sample(range(len(self.items)), self.draw))

    @property
    def scenarios(self) -> tuple[Scenario, ...]:
        return self._scenarios

    def round(self, position: int) -> SupervisedRound | None:
        """The supervised round of a supervise item, faults and all (None for a dealer's item):
        for grading and the debrief, never for the trainee's screen while the exam runs."""
        return self._rounds[position]

    def key(self, position: int) -> str:
        """The id of the item at `position` on a result: a dealer's item's scenario, a supervise
        item's round as this form deals it (its own seed's, or a sitting's: `dealt_for`)."""
        rnd = self._rounds[position]
        return rnd.id if rnd is not None else self.items[position].key

    def round_named(self, position: int, item_id: object) -> SupervisedRound | None:
        """The supervise item's round as a result's answer names it (`item_id`, `key` as it was
        sat: the form's own deal, or a sitting's, whose seed the id carries), for the result's
        debrief; None for a dealer's item, or an id that is not a deal of this item."""
        rnd, spec = self._rounds[position], self.items[position].supervise
        if rnd is None or spec is None or item_id == rnd.id:
            return rnd
        from trainer.supervise.rounds import SuperviseError, round_id, supervise

        prefix = round_id(self.items[position].scenario_id, spec.faults, "")
        seed = item_id[len(prefix):] if isinstance(item_id, str) and item_id.startswith(prefix) else ""
        if not seed or len(seed) > MAX_SEED:
            return None
        try:
            return supervise(self._scenarios[position], spec.faults, seed, float(spec.pace))
        except SuperviseError:
            return None

    def dealt_for(self, key: bytes) -> ExamForm:
        """The form as one sitting deals it: each supervise item's faults dealt again from a seed
        the sitting's `key` gives (trainer.exams.proof `deal_seed`: its proof key, which only the
        start code gives), so that nobody knows them before the sitting starts and the instructor
        deals the same at certification. Its items, content and digest are the form's: the form
        commits to each item's scenario, fault count and pace, the sitting to its faults."""
        if not self.supervised:
            return self
        rounds = tuple(None if it.supervise is None else
                       _dealt_for(p, self._scenarios[p], it.supervise, key)
                       for p, it in enumerate(self.items))
        sat = copy.copy(self)
        object.__setattr__(sat, "_rounds", rounds)
        return sat

    @property
    def supervised(self) -> frozenset[int]:
        """The positions of the supervise items."""
        return frozenset(p for p, it in enumerate(self.items) if it.supervise is not None)

    @property
    def roles(self) -> list[str]:
        """The roles a certificate of this form certifies: "dealer" for dealer's items,
        "supervisor" for supervise items."""
        kinds = {it.supervise is not None for it in self.items}
        return [role for role, supervise in (("dealer", False), ("supervisor", True)) if supervise in kinds]

    @property
    def games(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.game for s in self._scenarios))

    def content(self) -> dict:  # its keys: CONTENT_FIELDS
        """What the form is (archiving changes nothing of it): the digest's input, and the file."""
        return {"uid": self.uid, "name": self.name, "time_limit_seconds": self.time_limit_seconds,
                "pass_mark": self.pass_mark, "attempts_allowed": self.attempts_allowed,
                "created": self.created, "created_by": self.created_by,
                "items": [it.to_json() for it in self.items],
                **({"draw": self.draw} if self.draw else {})}

    @property
    def digest(self) -> str:
        return content_digest(self.content())

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, **self.content()}


def _storable(name: str, text: str) -> None:
    """Text a form can carry: UTF-8 can write it (no lone surrogate, which JSON can carry as an
    escape) and it holds no NUL."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise FormError(f"{name}: a lone surrogate at character {e.start + 1}, which no text may "
                        "hold") from None
    if (at := text.find("\x00")) >= 0:
        raise FormError(f"{name}: a NUL character at character {at + 1}, which no text may hold")


#: the longest scenario text whose check is kept (`_checked`); a longer one is checked each time
KEPT_CHARS = 64 * 1024


def _checked_scenario(i: int, item: FormItem) -> Scenario:
    """The scenario of the item at position `i`, read from its text and played through the rules
    engine (ScenarioError or FormError naming the item when it cannot be). A text checked before
    at this position is not read and played again (`_checked`)."""
    if type(item.scenario_id) is str and type(item.text) is str and len(item.text) <= KEPT_CHARS:
        return pickle.loads(_checked(item.scenario_id, item.text, i))
    return _check(item.scenario_id, item.text, i)


def _check(scenario_id: str, text: str, i: int) -> Scenario:
    """The scenario of an item's text, checked: read, its id the item's, and played through the
    rules engine."""
    s = FormItem(scenario_id, text).scenario(i)
    build(s)
    if s.id != scenario_id:
        raise FormError(f"items[{i}] ({scenario_id}): the embedded scenario's id is {s.id!r}")
    return s


@lru_cache(maxsize=128)
def _checked(scenario_id: str, text: str, i: int) -> bytes:
    """`_check` of an item, kept by its exact id, text and position (plain `str`s, compared whole):
    a form is read again and again (listed, opened, its sittings issued and certified) and its
    text does not change, while reading and playing its scenarios is most of its check. What is
    kept is pickled bytes, which nothing changes, from which each form unpickles its own
    scenario; a text that fails is not kept, and is checked again each time."""
    return pickle.dumps(_check(scenario_id, text, i), protocol=pickle.HIGHEST_PROTOCOL)



def _check_supervised(name: str, spec: Supervised | None) -> None:
    """A supervise item's dealing, each value checked (as a form file gives it)."""
    if spec is None:
        return
    from trainer.supervise.rounds import MOST_FAULTS

    if not isinstance(spec, Supervised):
        raise FormError(f"{name}: must be a Supervised, not {shown(spec)}")
    _whole(f"{name}.faults", spec.faults, 0, MOST_FAULTS)
    if not isinstance(spec.seed, str) or not spec.seed.strip() or len(spec.seed) > MAX_SEED \
            or ":" in spec.seed:
        raise FormError(f"{name}.seed: must be a text of 1 to {MAX_SEED} characters with no \":\", "
                        f"not {shown(spec.seed)}")
    _storable(f"{name}.seed", spec.seed)
    pace = spec.pace
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not 0 < pace <= SLOWEST_PACE \
            or pace != pace:
        raise FormError(f"{name}.pace: must be seconds between the dealer's actions, more than 0 and "
                        f"at most {SLOWEST_PACE}, not {shown(pace)}")
    if not isinstance(spec.dealt, str) or len(spec.dealt) != 64 \
            or any(c not in "0123456789abcdef" for c in spec.dealt):
        raise FormError(f"{name}.dealt: must be the SHA-256 of the faults dealt (64 hex digits), not "
                        f"{shown(spec.dealt)}")


def _dealt(i: int, scenario: Scenario, spec: Supervised | None) -> SupervisedRound | None:
    """A supervise item's round, dealt again from its seed, and its faults checked against the
    form's "dealt"; FormError naming the item when it cannot be dealt or deals other faults."""
    if spec is None:
        return None
    from trainer.supervise.rounds import SuperviseError, round_id, supervise

    where = f"items[{i}] ({round_id(scenario.id, spec.faults, spec.seed)})"
    try:
        rnd = supervise(scenario, spec.faults, spec.seed, float(spec.pace))
    except ScenarioError as e:  # a [[fault]] that cannot be: named at its line
        raise FormError(str(e)) from None
    except SuperviseError as e:
        raise FormError(f"{where}: {e}") from None
    if dealt_digest(rnd) != spec.dealt:
        raise FormError(f"{where}: its seed deals other faults than the form was made with (its "
                        "\"dealt\" does not match): made by another version of Dealer Trainer, or "
                        "changed")
    return rnd


#: how many seeds a sitting's key gives one supervise item before its deal is given up: the
#: faults are chosen one after another, so a seed may leave no room for the last of them
SITTING_SEEDS = 8


def _dealt_for(i: int, scenario: Scenario, spec: Supervised, key: bytes) -> SupervisedRound:
    """A supervise item's round as a sitting deals it: the first of its seeds from `key`
    (`deal_seed`, tried in turn) that deals the item's faults; FormError when none does."""
    from trainer.exams.proof import deal_seed
    from trainer.supervise.rounds import SuperviseError, supervise

    for tried in range(SITTING_SEEDS):
        try:
            return supervise(scenario, spec.faults, deal_seed(key, i, tried), float(spec.pace))
        except SuperviseError:
            continue
    raise FormError(f"items[{i}] ({scenario.id}): no room for {spec.faults} faults as this sitting "
                    "deals them")


def _whole(name: str, v, low: int, high: int | None) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
        limits = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise FormError(f"{name}: must be a whole number {limits}, not {shown(v)}")


def new_form(name: str, items: Iterable[FormItem | Scenario | tuple[str, str]], *,
             time_limit_seconds: int, created_by: str, pass_mark: int = 80, attempts_allowed: int = 1,
             uid: str | None = None, created: float | None = None, draw: int = 0) -> ExamForm:
    """A new form from scenarios (bundled or read from files), FormItems or (id, TOML text) pairs."""
    made = []
    for it in items:
        if isinstance(it, Scenario):
            it = FormItem.of(it)
        elif isinstance(it, tuple):
            it = FormItem(*it)
        made.append(it)
    return ExamForm(uid=uid or uuid.uuid4().hex, name=name, items=tuple(made),
                    time_limit_seconds=time_limit_seconds, pass_mark=pass_mark,
                    attempts_allowed=attempts_allowed, created=time.time() if created is None else created,
                    created_by=created_by, draw=draw)


# --- files ------------------------------------------------------------------------------------

FIELDS = ("format", "version", "uid", "name", "time_limit_seconds", "pass_mark", "attempts_allowed",
          "created", "created_by", "items")
OPTIONAL = ("draw",)
#: what an item of a form file holds ("supervise" only for a supervise item)
ITEM_FIELDS = {"scenario", "toml", "supervise"}
#: what a form's digest is computed over (ExamForm.content; "draw" only when the form draws)
CONTENT_FIELDS = FIELDS[2:] + OPTIONAL


def form_from_json(doc, name: str = "the form file") -> ExamForm:
    """A form from a form file's JSON; FormFileError names the file, the field and the problem."""
    def fail(message: str):
        raise FormFileError(f"{name}: {message}", path=name)

    check_header(doc, FORMAT, VERSION, "exam form", fail)
    unknown = sorted(set(doc) - set(FIELDS) - set(OPTIONAL))
    if unknown:
        fail(f"unknown field {unknown[0]!r}")
    missing = [f for f in FIELDS if f not in doc]
    if missing:
        fail(f"missing {missing[0]!r}")
    if not isinstance(doc["items"], list):
        fail("items: must be a list of {\"scenario\": id, \"toml\": text}")
    items = []
    for i, it in enumerate(doc["items"]):
        try:
            items.append(item_from_json(it, f"items[{i}]"))
        except FormError as e:
            fail(str(e))
    try:
        return ExamForm(uid=doc["uid"], name=doc["name"], items=tuple(items),
                        time_limit_seconds=doc["time_limit_seconds"], pass_mark=doc["pass_mark"],
                        attempts_allowed=doc["attempts_allowed"], created=doc["created"],
                        created_by=doc["created_by"], draw=doc.get("draw", 0))
    except FormError as e:
        fail(str(e))


def item_from_json(it: object, where: str) -> FormItem:
    """An item of a form from its JSON (FormItem.to_json); FormError naming `where` and the
    problem. Its values are checked with the whole form (ExamForm)."""
    if not isinstance(it, dict) or not {"scenario", "toml"} <= set(it) <= ITEM_FIELDS:
        raise FormError(f"{where}: must be an object with exactly \"scenario\" and \"toml\" (and "
                        "\"supervise\" for a supervise item)")
    for key in ("scenario", "toml"):
        if not isinstance(it[key], str) or not it[key].strip():
            raise FormError(f"{where}.{key}: must be a non-empty text, not {shown(it[key])}")
    if "supervise" not in it:
        return FormItem(it["scenario"], it["toml"])
    sv = it["supervise"]
    if not isinstance(sv, dict) or set(sv) != {"faults", "seed", "pace", "dealt"}:
        raise FormError(f"{where}.supervise: must be an object with exactly \"faults\", \"seed\", "
                        "\"pace\" and \"dealt\"")
    return FormItem(it["scenario"], it["toml"], Supervised(sv["faults"], sv["seed"], sv["pace"], sv["dealt"]))


def read_form(path: str | os.PathLike) -> ExamForm:
    name = os.fspath(path)
    try:
        text = files.read_capped(path, MAX_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise FormFileError(f"{name}: not an exam form (it is not UTF-8 text)", path=name) from None
    except OSError as e:
        raise FormFileError(f"{name}: cannot be read ({e.strerror or e})", path=name) from None
    except files.FileRefused as e:
        raise FormFileError(f"{name}: {e}, which no exam form is", path=name) from None
    try:
        doc = files.loads(text)
    except json.JSONDecodeError as e:
        raise FormFileError(f"{name}: not an exam form (not JSON: {e.msg} at line {e.lineno}, "
                            f"column {e.colno})", path=name) from None
    except files.DuplicateKey as e:
        raise FormFileError(f"{name}: not an exam form ({e})", path=name) from None
    except (RecursionError, ValueError) as e:  # too deep, or an integer too long to read
        what = "nested too deeply" if isinstance(e, RecursionError) else "a number too long to read"
        raise FormFileError(f"{name}: not an exam form ({what})", path=name) from None
    return form_from_json(doc, name)


def write_form(form: ExamForm, path: str | os.PathLike) -> None:
    """Write the form file atomically (a temporary file renamed over the destination)."""
    write_atomically(path, json.dumps(form.to_json(), ensure_ascii=False, indent=1) + "\n")


def write_atomically(path: str | os.PathLike, text: str, *, private: bool = False) -> None:
    """Write a whole text file atomically (trainer.paths.atomic_text); `private`: mode 0600."""
    with atomic_text(path, private=private) as out:
        out.write(text)


def bundled_form_files(root: Path | None = None) -> list[Path]:
    folder = root or resources_dir() / "exams"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def bundled_forms(root: Path | None = None) -> list[ExamForm]:
    """The example forms shipped in resources/exams/ (one per game, and the floor supervisor's), in
    file-name order. A broken one raises FormFileError naming it: they are ours, and a test reads
    every one."""
    return [read_form(p) for p in bundled_form_files(root)]
