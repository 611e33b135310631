"""Grading a recorded action log with no app (`dealer-trainer grade SCENARIO --log LOG.json`).

The log is what the app records for an attempt: a list of logged actions (Performed.to_json()),
or an object holding one under "log" (an attempt of a results file), with optional
"automation" and "elapsed" (seconds). Instructors re-grade with it; tests use it to show that
every order the regulation allows scores 100.
"""

from __future__ import annotations

import math
from decimal import Decimal

from trainer.errors import RequestError, key_name
from trainer.games.three_dice_football import read_markers
from trainer.grading import Result, grade
from trainer.policy import rule, why_not
from trainer.procedure import Automation, Do, Performed, build
from trainer.scenario import Scenario

#: the most actions one log may hold (a whole Props & Hops session is a few hundred)
MAX_ACTIONS = 10_000
FIELDS = ("do", "round", "seat", "bet", "amount", "value", "at", "by_trainer")
_ACTIONS = frozenset(d.value for d in Do)


def read_log(raw: object) -> tuple[list[Performed], dict]:
    """(the actions, the settings the file gives: automation, elapsed); RequestError names the
    field of anything that is not a logged action."""
    settings: dict = {}
    if isinstance(raw, dict):
        if "log" not in raw:
            raise RequestError("log", "missing: expected a list of actions, or an object with "
                                      "\"log\"")
        if "automation" in raw:
            value = raw["automation"]
            if not isinstance(value, str) or value not in {a.value for a in Automation}:
                raise RequestError("automation", f"{value!r} is not one of "
                                   f"{', '.join(a.value for a in Automation)}")
            settings["automation"] = Automation(value)
        if "elapsed" in raw:
            settings["elapsed"] = _seconds(raw["elapsed"], "elapsed")
        raw = raw["log"]
    if not isinstance(raw, list):
        raise RequestError("log", f"expected a list of actions, got {type(raw).__name__}")
    if len(raw) > MAX_ACTIONS:
        raise RequestError("log", f"{len(raw)} actions; at most {MAX_ACTIONS:,} are read")
    return [_action(item, f"log[{i}]") for i, item in enumerate(raw)], settings


def _action(item: object, where: str) -> Performed:
    if not isinstance(item, dict):
        raise RequestError(where, "expected an object such as {\"do\": \"pay\", \"round\": 1, ...}")
    if extra := sorted(set(item).difference(FIELDS)):
        raise RequestError(f"{where}.{key_name(extra[0])}", "unknown field")
    do = item.get("do")
    if not isinstance(do, str) or do not in _ACTIONS:
        raise RequestError(f"{where}.do", f"{do!r} is not a dealer action")
    throw = _whole(item.get("round"), f"{where}.throw", 0, 10_000)
    seat = None if item.get("seat") is None else _whole(item["seat"], f"{where}.seat", 1, 99)
    amount = (None if item.get("amount") is None
              else _whole(item["amount"], f"{where}.amount", 0, 10**12))
    for name in ("bet", "value"):
        text = item.get(name)
        if text is not None and not isinstance(text, str):
            raise RequestError(f"{where}.{name}", f"expected text, got {text!r}")
        # isprintable() is False for a lone surrogate (category Cs) and for NUL
        if text is not None and (len(text) > 200 or not text.isprintable()):
            raise RequestError(f"{where}.{name}", "not a bet id or a call (too long, or "
                                                  "characters that cannot be printed)")
    if do == Do.MOVE_MARKERS.value and isinstance(item.get("value"), str):
        try:
            read_markers(item["value"])
        except ValueError:
            raise RequestError(f"{where}.value", "not a move of the markers (a yard line, or "
                               "\"13 · 2nd Down · play 3\")") from None
    if not isinstance(item.get("by_trainer", False), bool):
        raise RequestError(f"{where}.by_trainer", "expected true or false")
    return Performed(Do(do), throw, seat, item.get("bet"), amount, item.get("value"),
                     _seconds(item.get("at", 0), f"{where}.at"), item.get("by_trainer", False))


def _whole(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(where, f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise RequestError(where, f"{value} is out of range {low}–{high:,}")
    return value


def _seconds(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise RequestError(where, f"expected seconds, got {value!r}")
    try:
        seconds = float(value)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds) or not 0 <= seconds <= 86_400:
        raise RequestError(where, f"{value} is not a time in seconds (0–86,400)")
    return seconds


def regrade(scenario: Scenario, log: list[Performed], automation: Automation | None = None,
            elapsed: float | None = None) -> Result:
    """Grade a finished log of a scenario, as the app grades it at the end of a round."""
    if elapsed is None:
        elapsed = max((p.at for p in log), default=0.0)
    return grade(build(scenario), log, automation=automation or scenario.automation,
                 game=scenario.game, target_seconds=scenario.target_seconds, elapsed=elapsed)


def result_json(scenario: Scenario, result: Result, automation: Automation) -> dict:
    return {"scenario": scenario.id, "automation": automation.value,
            "score": result.score.to_json(), "findings": [f.to_json() for f in result.findings]}


def render(scenario: Scenario, result: Result, automation: Automation) -> str:
    s = result.score
    verdict = "PASS" if s.passed else "FAIL"
    out = [f"{scenario.title} ({scenario.id}) · the trainee does: {automation.value}",
           f"{verdict}: total {s.total} (procedure {s.procedure}, payouts {s.payouts}, "
           f"speed {s.speed})" + "".join(f" · {why}" for why in
                                         why_not((f.severity for f in result.findings), s.total)),
           f"Graded under {rule(s.rule).title}."]
    if not result.findings:
        out.append("No findings: every step done right and in an order the regulation allows.")
    for n, f in enumerate(result.findings, start=1):
        out.append(f"{n:>3}. [{f.severity.value}] {f.kind.value}: {f.message} ({f.cite})")
    return "\n".join(out)
