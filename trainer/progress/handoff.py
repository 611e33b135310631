"""Hand-off to the employer: a trainee's (or the class's) attempts as xAPI statements for the
casino's learning record store, and as a CSV transcript for the personnel file (product.md, "One
class, many workstations").

Both read the same `Line`s: each attempt with its trainee, from a progress file (`file_lines`)
or from the class server (trainer.classes.workstation.results.server_lines), oldest first.

**xAPI** (`statements`, `write_statements`): one Statement (xAPI 1.0.3) per attempt, a JSON list
as an LRS's statements resource takes it:
- `id`: uuid5 of the attempt's uid, so exporting again gives the same ids and the LRS keeps one;
- `actor`: an Agent identified by an account, {homePage: the school's address, name: the
  trainee's uid}, with the trainee's name;
- `verb`: ADL's `passed` or `failed` for a graded round (every round is graded against its pass
  mark, in every mode), `terminated` for an abandoned one (it was not graded);
- `object`: an Activity whose IRI names the game and the item (scenario or drill) under the
  school's activity base (`activity_base`, `export-results --activity-base IRI`; without it,
  a placeholder base under dealer-trainer.invalid, which `PLACEHOLDER_NOTE` says), titled as the
  app titles it; an assessment for an exam, a simulation otherwise;
- `result`: score {scaled, raw, min 0, max 100} (scaled is the total over 100, exact to the
  hundredth), success, completion, duration (ISO 8601, to the hundredth of a second), and the
  part scores as an extension; an abandoned attempt has completion false and no score;
- `context`: the game as the parent activity, and extensions naming the mode, the workstation
  and the regulation sections the findings cite;
- `timestamp`: when the attempt ended, ISO 8601 in UTC.

**Transcript** (`transcript_rows`, `write_transcript`): a header and one row per attempt, every
cell quoted. A cell that a spreadsheet would read as a formula (it starts with = + - @, a tab or a
carriage return) is written after a single quote, as OWASP's CSV injection guidance says, so a
trainee named "=HYPERLINK(...)" is shown as text, never run.
"""

from __future__ import annotations

import csv
import json
import re
import uuid
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import IO, NamedTuple
from urllib.parse import quote, urlsplit

from trainer.progress.classroom import MODE_NAMES, item_title
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.exchange import iso
from trainer.progress.records import Attempt, Trainee
from trainer.progress.store import Store

FORMATS = ("xapi", "csv")
#: the trainees' accounts are on this system unless the school names its own (--home-page)
HOME_PAGE = "https://dealer-trainer.invalid/"
#: the extensions (and, unless the school gives its own base, the activities) are named under the
#: trainer's own IRI, the same for every school
IRI = "https://dealer-trainer.invalid/xapi/"
#: said on stderr when statements are written with the placeholder activity base
PLACEHOLDER_NOTE = (f"note: the xAPI activity IRIs are placeholders under {IRI}; give your learning "
                    "system's own base with --activity-base IRI (e.g. "
                    "https://lms.example-casino.com/dealer-trainer/)")
#: what an IRI cannot hold (RFC 3987: white space, controls, and these)
NOT_IN_IRI = re.compile(r"[\s\x00-\x1f\x7f<>\"{}|\\^`]")
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, IRI + "statements")
ADL_VERBS = "http://adlnet.gov/expapi/verbs/"
ASSESSMENT = "http://adlnet.gov/expapi/activities/assessment"
SIMULATION = "http://adlnet.gov/expapi/activities/simulation"
LANGUAGE = "en-US"
SCORE_MAX = 100
EXTENSIONS = {name: f"{IRI}extensions/{name}"
              for name in ("part-scores", "critical", "mode", "workstation", "regulation-sections")}
TRANSCRIPT_COLUMNS = ("Trainee", "Date and time (UTC)", "Game", "Scenario or drill", "Mode", "Score",
                      "Result", "Duration (s)", "Findings", "Sections cited", "Attempt id")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Line(NamedTuple):
    """One attempt and whose it is."""

    trainee: Trainee
    attempt: Attempt


# --------------------------------------------------------------------------- reading
def file_lines(store: Store, trainee: str | None = None) -> list[Line]:
    """The attempts of a progress file, oldest first: one trainee's (an active trainee of this
    name), or everyone's, archived trainees' included (their attempts happened)."""
    if trainee is not None:
        found = store.find_trainee(trainee)
        if found is None:
            raise UnknownTraineeError(f"{store.path}: no trainee is named {trainee!r}", path=store.path)
        return [Line(found, a) for a in store.attempts(found.id)]
    trainees = {t.id: t for t in store.trainees(include_archived=True)}
    return [Line(trainees[a.trainee_id], a) for a in store.attempts()]


# --------------------------------------------------------------------------- the parts of both
def sections(attempt: Attempt) -> list[str]:
    """The regulation sections the attempt's findings cite, each once, in the findings' order."""
    return list(dict.fromkeys(f["cite"] for f in attempt.findings if f.get("cite")))


def outcome(attempt: Attempt) -> str:
    return "abandoned" if attempt.abandoned else "passed" if attempt.passed else "failed"


def iso_duration(seconds: float) -> str:
    """ISO 8601 duration to the hundredth of a second (xAPI's precision): PT1M5.25S."""
    hundredths = round(seconds * 100)
    minutes, rest = divmod(hundredths, 6000)
    hours, minutes = divmod(minutes, 60)
    whole, part = divmod(rest, 100)
    text = "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    if rest or not (hours or minutes):
        text += f"{whole}.{part:02d}S" if part else f"{whole}S"
    return text


def scaled(total: int) -> float:
    """The total over 100: a decimal of two places at most, which a float's shortest form
    (what JSON writes) gives exactly."""
    return float(Fraction(total, SCORE_MAX))


# --------------------------------------------------------------------------- xAPI
def activity_base(text: str) -> str:
    """The school's base for activity ids, checked: an absolute IRI (a scheme, and for http(s) a
    server), with no query or fragment since names are added to it; a `/` is added when it ends
    in neither `/` nor `:`. ValueError says what is wrong, in one line."""
    where = f"the activity base {text!r}"
    if not text or NOT_IN_IRI.search(text):
        raise ValueError(f"{where} is not an IRI (it is empty or holds white space or one of <>\"{{}}|\\^`)")
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:.", text):
        raise ValueError(f"{where} is not an absolute IRI: give a scheme and a server, "
                         "e.g. https://lms.example-casino.com/dealer-trainer/")
    if re.search(r"%(?![0-9A-Fa-f]{2})", text):
        raise ValueError(f"{where} has a % that is not followed by two hex digits")
    if "?" in text or "#" in text:
        raise ValueError(f"{where} has a query or fragment (? or #): activity names are added to it")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a port that is not a number is refused here)
    except ValueError as e:
        raise ValueError(f"{where} is not an absolute IRI ({e})") from None
    if len(parts.scheme) == 1:
        raise ValueError(f"{where} is a file's path, not an IRI: give a web address, "
                         "e.g. https://lms.example-casino.com/dealer-trainer/")
    if parts.scheme.lower() in ("http", "https") and not parts.hostname:
        raise ValueError(f"{where} names no server ({parts.scheme}://SERVER/...)")
    return text if text.endswith(("/", ":")) else text + "/"


def game_activity(game: str, base: str = IRI) -> dict:
    from trainer.games import GAME_NAMES

    return {"objectType": "Activity", "id": f"{base}games/{quote(game, safe='')}",
            "definition": {"name": {LANGUAGE: GAME_NAMES.get(game, game)}}}


def title(attempt: Attempt, titles: dict[tuple[str, str], str]) -> str:
    """The item's title as the app shows it (trainer.progress.classroom.item_title), looked up
    once per item in `titles`."""
    key = (attempt.item_id, attempt.mode.value)
    if key not in titles:
        titles[key] = item_title(*key)
    return titles[key]


def item_activity(attempt: Attempt, titles: dict[tuple[str, str], str], base: str = IRI) -> dict:
    kind = ASSESSMENT if attempt.mode.value == "exam" else SIMULATION
    return {"objectType": "Activity",
            "id": f"{base}games/{quote(attempt.game, safe='')}/items/{quote(attempt.item_id, safe='/:')}",
            "definition": {"name": {LANGUAGE: title(attempt, titles)}, "type": kind}}


def statement(line: Line, *, home_page: str = HOME_PAGE, titles: dict | None = None,
              activity_base: str = IRI) -> dict:
    """One attempt as an xAPI Statement (see the module docstring); its activities' ids under
    `activity_base` (checked by `activity_base()`)."""
    trainee, a = line
    verb = "terminated" if a.abandoned else "passed" if a.passed else "failed"
    result: dict = {"completion": not a.abandoned, "duration": iso_duration(a.duration)}
    if not a.abandoned:
        result |= {"score": {"scaled": scaled(a.total), "raw": a.total, "min": 0, "max": SCORE_MAX},
                   "success": a.passed,
                   "extensions": {EXTENSIONS["part-scores"]: {"procedure": a.procedure, "payouts": a.payouts,
                                                              "speed": a.speed},
                                  EXTENSIONS["critical"]: a.critical}}
    return {
        "id": str(uuid.uuid5(NAMESPACE, a.uid)),
        "actor": {"objectType": "Agent", "name": trainee.name,
                  "account": {"homePage": home_page, "name": trainee.uid}},
        "verb": {"id": ADL_VERBS + verb, "display": {LANGUAGE: verb}},
        "object": item_activity(a, {} if titles is None else titles, activity_base),
        "result": result,
        "context": {"platform": "Dealer Trainer", "language": LANGUAGE,
                    "contextActivities": {"parent": [game_activity(a.game, activity_base)]},
                    "extensions": {EXTENSIONS["mode"]: a.mode.value, EXTENSIONS["workstation"]: a.source,
                                   EXTENSIONS["regulation-sections"]: sections(a)}},
        "timestamp": iso(a.ended).replace("+00:00", "Z"),
    }


def statements(lines: Iterable[Line], *, home_page: str = HOME_PAGE, activity_base: str = IRI) -> list[dict]:
    titles: dict = {}
    return [statement(line, home_page=home_page, titles=titles, activity_base=activity_base)
            for line in lines]


def write_statements(lines: Iterable[Line], out: IO[str], *, home_page: str = HOME_PAGE,
                     activity_base: str = IRI) -> int:
    """Write the statements as one JSON list; how many."""
    found = statements(lines, home_page=home_page, activity_base=activity_base)
    json.dump(found, out, ensure_ascii=False, indent=1)
    out.write("\n")
    return len(found)


# --------------------------------------------------------------------------- the transcript
def cell(value: object) -> str:
    """A value as a transcript cell: text a spreadsheet would take for a formula is prefixed
    with a single quote (OWASP, CSV injection)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def transcript_rows(lines: Iterable[Line]) -> Iterator[list[str]]:
    """The header, then a row per attempt."""
    from trainer.games import GAME_NAMES

    titles: dict[tuple[str, str], str] = {}
    yield list(TRANSCRIPT_COLUMNS)
    for trainee, a in lines:
        row = (trainee.name, iso(a.started).replace("+00:00", "Z"), GAME_NAMES.get(a.game, a.game),
               title(a, titles), MODE_NAMES.get(a.mode.value, a.mode.value),
               "" if a.abandoned else a.total, outcome(a), f"{a.duration:.2f}", len(a.findings),
               "; ".join(sections(a)), a.uid)
        yield [cell(v) for v in row]


def write_transcript(lines: Iterable[Line], out: IO[str]) -> int:
    """Write the transcript as CSV (every cell quoted, CRLF line ends as RFC 4180 has them);
    how many attempts."""
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    rows = transcript_rows(lines)
    writer.writerow(next(rows))  # the header
    n = 0
    for row in rows:
        writer.writerow(row)
        n += 1
    return n


def write(lines: Iterable[Line], out: IO[str], fmt: str, *, home_page: str = HOME_PAGE,
          activity_base: str = IRI) -> int:
    """Write the attempts in a format of FORMATS; how many attempts were written."""
    if fmt == "xapi":
        return write_statements(lines, out, home_page=home_page, activity_base=activity_base)
    if fmt == "csv":
        return write_transcript(lines, out)
    raise ValueError(f"no format {fmt!r}; the formats are {', '.join(FORMATS)}")
