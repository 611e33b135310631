"""The xAPI 1.0.3 data model, as the hand-off tests check statements against it: a JSON Schema of
the Statement subset Dealer Trainer writes (tests/data/xapi-statement.schema.json), and the rules
a schema cannot say (a score's raw between its min and max, and min below max)."""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache

from jsonschema import Draft202012Validator, FormatChecker

from tests.support.paths import ROOT

SCHEMA = ROOT / "tests" / "data" / "xapi-statement.schema.json"


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    formats = FormatChecker()

    @formats.checks("date-time", raises=ValueError)
    def date_time(text) -> bool:  # a real date and time, with its time zone
        return not isinstance(text, str) or datetime.fromisoformat(text).tzinfo is not None

    return Draft202012Validator(schema, format_checker=formats)


def problems(statement: dict) -> list[str]:
    """What makes `statement` not an xAPI 1.0.3 Statement of this subset; [] when it is one."""
    found = [f"{'/'.join(map(str, e.absolute_path)) or 'statement'}: {e.message}"
             for e in validator().iter_errors(statement)]
    score = (statement.get("result") or {}).get("score")
    if isinstance(score, dict):
        low, high, raw = score.get("min"), score.get("max"), score.get("raw")
        if low is not None and high is not None and not low < high:
            found.append(f"result/score: min {low} is not below max {high}")
        if raw is not None and ((low is not None and raw < low) or (high is not None and raw > high)):
            found.append(f"result/score: raw {raw} is outside [{low}, {high}]")
    return found
