"""Hand-off to the employer: a trainee's (or the class's) attempts as xAPI statements for the
casino's learning record store, and as a CSV transcript for the personnel file (product.md, "One
class, many workstations").

Both read the same `Line`s: each attempt with its trainee, from a progress file (`file_lines`)
or from the class server (trainer.classes.workstation.results.server_lines), oldest first. An
exam reaches the employer only as its certificate (`Certified`, which trainer.exams.employer
makes from a certificate checked with the instructor's public key): the attempts of exam mode are
left out (`practice`), since any workstation can write such a row, and everything else is
labelled practice. Attempts and certificates are written together, oldest first.

**xAPI** (`statements`, `write_statements`): one Statement (xAPI 1.0.3) per attempt, a JSON list
as an LRS's statements resource takes it:
- `id`: uuid5 of the attempt's uid and of all the statement says (`with_id`), so exporting the same
  again gives the same ids and the LRS keeps one, and a statement that says something else (another
  base) has an id of its own, which an LRS takes; `--replaces-base` voids those sent before;
- `actor`: an Agent identified by an account, {homePage: the school's address, name: the
  trainee's uid}, with the trainee's name;
- `verb`: ADL's `passed` or `failed` for a graded round (every round is graded against its pass
  mark, in every mode) or a certified exam, `terminated` for an abandoned round (not graded);
- `object`: an Activity whose IRI names the game and the item (scenario or drill) under the
  school's activity base (`activity_base`, `export-results --activity-base IRI`; without it,
  a placeholder base under dealer-trainer.invalid, which `PLACEHOLDER_NOTE` says), titled as the
  app titles it, a simulation; for a certificate, the exam form, an assessment;
- `result`: score {scaled, raw, min 0, max 100} (scaled is the total over 100, exact to the
  hundredth), success, completion, duration (ISO 8601, to the hundredth of a second), and the
  part scores as an extension; an abandoned attempt has completion false and no score;
- `context`: the game as the parent activity, `practice` or `certified-exam` as the category,
  and extensions naming the mode, the workstation and the regulation sections the findings cite
  (for a certificate: its signer, the signer's key fingerprint and its verification code);
- `timestamp`: when the attempt ended (a certificate: when it was signed), ISO 8601 in UTC.

**Transcript** (`transcript_rows`, `write_transcript`): a header and one row per attempt or
certificate, every cell quoted, for a spreadsheet: the trainee's id beside the name, the date and
time in the exporting machine's zone (a date the spreadsheet reads as one) with the zone's offset
in its own column, the workstation as it named itself (its word, which nothing checks: the
column's header says so), and whether the row is certified; a certificate's row is dated when
the exam was sat (as the certificate signs it) and names its signer and verification code; a
file begins with the byte order mark. A cell that a spreadsheet would read as a formula (it
starts with = + - @, a tab or a carriage return) is written after a single quote, as OWASP's CSV
injection guidance says, so a trainee named "=HYPERLINK(...)" is shown as text, never run.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import re
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import IO, NamedTuple
from urllib.parse import quote, urlsplit

from trainer.progress.classroom import MODE_NAMES, item_title
from trainer.progress.errors import UnknownTraineeError
from trainer.progress.exchange import iso
from trainer.progress.records import Attempt, Mode, Trainee, clean_name
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
              for name in ("part-scores", "critical", "mode", "workstation", "regulation-sections",
                           "signer", "signer-key", "verification-code")}
#: what an item is to the employer: practice (every attempt written), or a certified exam
CATEGORIES = {name: {"objectType": "Activity", "id": f"{IRI}categories/{name}"}
              for name in ("practice", "certified-exam")}
#: the workstation's column: the name the workstation gave itself, which nothing checks (the pushing
#: login may be any workstation's, or a trainee's own), so the header says whose word it is
WORKSTATION = "Workstation (as it named itself)"
TRANSCRIPT_COLUMNS = ("Trainee", "Trainee id", "Date and time", "UTC offset", "Game", "Scenario or drill",
                      "Mode", "Certification", "Score", "Result", "Duration (s)", "Findings",
                      "Sections cited", WORKSTATION, "Attempt id", "Certified by", "Verification code")
#: the Certification column: what the instructor signed, or what a workstation says
CERTIFICATION = {"practice": "Practice, not certified", "certified-exam": "Certified by the instructor"}
CERTIFIED_MODE = "Certified exam"
#: said on stderr when exam attempts were left out of an export
EXAMS_NOTE = "{n} exam attempt{s} left out: an exam reaches the employer only as its certificate"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Line(NamedTuple):
    """One attempt and whose it is."""

    trainee: Trainee
    attempt: Attempt


class Certified(NamedTuple):
    """An exam result as its certificate says, the certificate checked by the caller with the
    instructor's public key (trainer.exams.employer.certified)."""

    trainee: str
    result: str  # the result's uid
    form: str  # the form's name
    form_uid: str
    certified: float  # when it was signed
    status: str  # how the exam ended: passed, failed, expired, abandoned
    passed: bool
    total: int
    signer: str  # the instructor's name, as their key names them
    fingerprint: str  # of the instructor's key
    code: str  # the verification code printed on the certificate
    sat: float | None = None  # when the exam was sat, as the certificate signs it (None: it names none)

    @property
    def sat_at(self) -> float:
        """When the exam was sat; when it was signed, for a certificate that names no date."""
        return self.sat if self.sat is not None else self.certified

    @property
    def outcome(self) -> str:
        return "passed" if self.passed else self.status if self.status != "passed" else "failed"


def practice_only(lines: Iterable[Line]) -> Iterator[Line]:
    """The attempts the employer gets, one at a time, as `practice` keeps them."""
    return (line for line in lines if line.attempt.mode is not Mode.EXAM)


def practice(lines: Iterable[Line]) -> tuple[list[Line], int]:
    """The attempts the employer gets, all practice, and how many exam attempts were left out (an
    exam reaches the employer only as its certificate: a row of exam mode is what a workstation
    says, not what an instructor signed)."""
    lines = list(lines)
    kept = [line for line in lines if line.attempt.mode is not Mode.EXAM]
    return kept, len(lines) - len(kept)


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
    return {"objectType": "Activity",
            "id": f"{base}games/{quote(attempt.game, safe='')}/items/{quote(attempt.item_id, safe='/:')}",
            "definition": {"name": {LANGUAGE: title(attempt, titles)}, "type": SIMULATION}}


def actor(name: str, account: str, home_page: str) -> dict:
    return {"objectType": "Agent", "name": name, "account": {"homePage": home_page, "name": account}}


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
    return with_id(a.uid, {
        "actor": actor(trainee.name, trainee.uid, home_page),
        "verb": {"id": ADL_VERBS + verb, "display": {LANGUAGE: verb}},
        "object": item_activity(a, {} if titles is None else titles, activity_base),
        "result": result,
        "context": {"platform": "Dealer Trainer", "language": LANGUAGE,
                    "contextActivities": {"parent": [game_activity(a.game, activity_base)],
                                          "category": [CATEGORIES["practice"]]},
                    "extensions": {EXTENSIONS["mode"]: a.mode.value, EXTENSIONS["workstation"]: a.source,
                                   EXTENSIONS["regulation-sections"]: sections(a)}},
        "timestamp": iso(a.ended).replace("+00:00", "Z"),
    })


def certified_statement(c: Certified, *, accounts: dict[str, str], home_page: str = HOME_PAGE,
                        activity_base: str = IRI) -> dict:
    """A certified exam result as an xAPI Statement: the form as an assessment, the verdict and
    total the certificate signs, its signer and verification code. The trainee's account is the
    one their attempts name (`accounts`: clean name to uid), else their name."""
    verb = "passed" if c.passed else "failed"
    return with_id("certificate:" + c.result, {
        "actor": actor(c.trainee, accounts.get(clean_name(c.trainee), c.trainee), home_page),
        "verb": {"id": ADL_VERBS + verb, "display": {LANGUAGE: verb}},
        "object": {"objectType": "Activity", "id": f"{activity_base}exams/{quote(c.form_uid, safe='')}",
                   "definition": {"name": {LANGUAGE: c.form}, "type": ASSESSMENT}},
        "result": {"completion": True, "success": c.passed,
                   "score": {"scaled": scaled(c.total), "raw": c.total, "min": 0, "max": SCORE_MAX}},
        "context": {"platform": "Dealer Trainer", "language": LANGUAGE,
                    "contextActivities": {"category": [CATEGORIES["certified-exam"]]},
                    "extensions": {EXTENSIONS["mode"]: "exam", EXTENSIONS["signer"]: c.signer,
                                   EXTENSIONS["signer-key"]: c.fingerprint,
                                   EXTENSIONS["verification-code"]: c.code}},
        "timestamp": iso(c.certified).replace("+00:00", "Z"),
    })


def with_id(uid: str, body: dict) -> dict:
    """A statement with its id: a uuid5 of what it records (an attempt's or a certificate's uid)
    and of everything it says. Exporting the same again gives the same id, which the LRS keeps
    once; a statement that says something else (another activity base or home page, an item
    renamed) gets an id of its own, since an LRS refuses a known id with other content (409
    Conflict, xAPI 1.0.3 part three, 2.1.1)."""
    said = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return {"id": str(uuid.uuid5(NAMESPACE, f"{uid}\n{hashlib.sha256(said.encode()).hexdigest()}")), **body}


def voiding(old: dict, home_page: str) -> dict:
    """The statement that voids the statement `old` (xAPI 1.0.3 part two, 2.3.2), as the trainer
    says it: its id made from the id voided, so that exporting again sends the same one, and its
    timestamp the voided one's (without one, an LRS stamps its own time, and the same voiding
    sent again is another statement of a known id: 409 Conflict, as Ralph answers)."""
    return {"id": str(uuid.uuid5(NAMESPACE, "voided\n" + old["id"])),
            "actor": actor("Dealer Trainer", "dealer-trainer", home_page),
            "verb": {"id": ADL_VERBS + "voided", "display": {LANGUAGE: "voided"}},
            "object": {"objectType": "StatementRef", "id": old["id"]},
            "timestamp": old["timestamp"]}


@dataclass
class Formerly:
    """The actors an export gave before a class's instructor settled a claimed trainee id the
    claimant's (trainer.classes.server.people "Claims settled"): `actors`, the person a trainee
    row's attempts and supervised rounds were given then, by the row's id (an attempt's
    `trainee_id`, a round's `row`), for the rows whose actor changed; `accounts`, the names'
    accounts as they were then (clean name to uid); `settled`, a line naming each claim settled,
    as the export says it. Filled by the class's
    reader from its trainees and the claims, before any attempt is read: the attempts' actors of
    before are known as they go by, and never held."""

    actors: dict[int, Trainee] = field(default_factory=dict)
    accounts: dict[str, str] = field(default_factory=dict)
    settled: list[str] = field(default_factory=list)


def statements(lines: Iterable[Line], *, certified: Iterable[Certified] = (), home_page: str = HOME_PAGE,
               activity_base: str = IRI, replaces: tuple[str, str] | None = None,
               accounts: dict[str, str] | None = None, formerly: Formerly | None = None,
               supervised: Iterable = ()) -> list[dict]:
    """The practice attempts' and the certificates' statements, oldest first (an exam attempt
    is left out: see `practice`). `replaces`: the (home page, activity base) of an export sent
    before: the statements it sent that these replace are voided first. `accounts`: more names'
    accounts (clean name to uid), for the certificates (a class's names merged into a person's).
    `formerly`: the actors a claim's settling changed; the statements that gave those attempts
    and certificates (and supervised rounds, by the row they were sent under) their actors of
    before (under this export's base and home page, and the replaced one's) put one person's
    results on another's actor, and are voided first too.
    `supervised`: the supervised rounds' lines, practice (trainer.progress.handoff_supervised)."""
    kept, _ = practice(lines)
    certified = list(certified)
    supervised = list(supervised)
    titles: dict = {}
    accounts = {**(accounts or {}), **{clean_name(t.name): t.uid for t, _ in kept if t.uid}}

    def made(home: str, base: str) -> list[dict]:
        return ([statement(line, home_page=home, titles=titles, activity_base=base) for line in kept]
                + [certified_statement(c, accounts=accounts, home_page=home, activity_base=base)
                   for c in certified]
                + [s for r in supervised
                   for s in supervised_statements(r, home_page=home, activity_base=base)])

    def made_then(home: str, base: str) -> list[dict]:
        if formerly is None:
            return []
        then = {**accounts, **formerly.accounts}
        return ([statement(Line(formerly.actors[a.trainee_id], a), home_page=home, titles=titles,
                           activity_base=base) for _, a in kept if a.trainee_id in formerly.actors]
                + [certified_statement(c, accounts=then, home_page=home, activity_base=base)
                   for c in certified if clean_name(c.trainee) in formerly.accounts]
                + [s for r in supervised if r.row in formerly.actors
                   for s in supervised_statements(r._replace(trainee=formerly.actors[r.row]),
                                                  home_page=home, activity_base=base)])

    found = sorted(made(home_page, activity_base), key=lambda s: s["timestamp"])
    now = {s["id"] for s in found}
    sent = [(home_page, activity_base)] + ([replaces] if replaces is not None else [])
    before = sorted([s for home, base in sent for s in made_then(home, base)]
                    + (made(*replaces) if replaces is not None else []), key=lambda s: s["timestamp"])
    void = {s["id"]: s for s in before if s["id"] not in now}
    return [voiding(old, home_page) for old in void.values()] + found


def write_statements(lines: Iterable[Line], out: IO[str], *, certified: Iterable[Certified] = (),
                     home_page: str = HOME_PAGE, activity_base: str = IRI,
                     replaces: tuple[str, str] | None = None, accounts: dict[str, str] | None = None,
                     formerly: Formerly | None = None, supervised: Iterable = ()) -> int:
    """Write `statements` as one JSON list (those voided first); how many. The lines are read one
    at a time and each statement is set aside in a temporary file as it is made, then written
    in its place: what is held is a few numbers a statement, never the class's attempts. What
    `formerly` voids is known from each line's trainee row as it goes by (`Formerly.actors`),
    and from the certificates' names; `supervised`, the rounds, are made after the lines (a
    round's actor of before known by its row as an attempt's)."""
    certified = list(certified)
    titles: dict = {}
    accounts = dict(accounts or {})
    now: list[tuple[str, int, int, int, str]] = []  # each statement's timestamp, place, bytes in `spool`, id
    # each statement sent before that these replace: its timestamp, what made it (as `statements`
    # orders them: the actors of before under each base sent, then the replaced base's), place, id
    before: list[tuple[str, int, int, str]] = []
    sent = [(home_page, activity_base)] + ([replaces] if replaces is not None else [])
    then = formerly if formerly is not None else Formerly()
    with tempfile.TemporaryFile() as spool:

        def set_aside(found: dict) -> None:
            said = json.dumps(found, ensure_ascii=False, indent=1).encode()
            now.append((found["timestamp"], len(now), spool.tell(), len(said), found["id"]))
            spool.write(said)

        def replaced(old: dict, made_by: int) -> None:
            before.append((old["timestamp"], made_by, len(before), old["id"]))

        for line in practice_only(lines):
            if line.trainee.uid:
                accounts[clean_name(line.trainee.name)] = line.trainee.uid
            set_aside(statement(line, home_page=home_page, titles=titles, activity_base=activity_base))
            was = then.actors.get(line.attempt.trainee_id)
            if was is not None:  # the statements sent before gave the attempt this actor
                for made_by, (home, base) in enumerate(sent):
                    replaced(statement(Line(was, line.attempt), home_page=home, titles=titles,
                                       activity_base=base), made_by)
            if replaces is not None:
                replaced(statement(line, home_page=replaces[0], titles=titles, activity_base=replaces[1]), 2)
        accounts_then = {**accounts, **then.accounts}
        for c in certified:  # with every name's account, as the attempts gave them
            set_aside(certified_statement(c, accounts=accounts, home_page=home_page,
                                          activity_base=activity_base))
            if clean_name(c.trainee) in then.accounts:  # and this certificate that account
                for made_by, (home, base) in enumerate(sent):
                    replaced(certified_statement(c, accounts=accounts_then, home_page=home,
                                                 activity_base=base), made_by)
            if replaces is not None:
                replaced(certified_statement(c, accounts=accounts, home_page=replaces[0],
                                             activity_base=replaces[1]), 2)
        for r in supervised:
            for found in supervised_statements(r, home_page=home_page, activity_base=activity_base):
                set_aside(found)
            was = then.actors.get(r.row) if r.row is not None else None
            if was is not None:  # as an attempt's: the statements sent before gave the round this actor
                for made_by, (home, base) in enumerate(sent):
                    for sent_before in supervised_statements(r._replace(trainee=was), home_page=home,
                                                             activity_base=base):
                        replaced(sent_before, made_by)
            if replaces is not None:
                for sent_before in supervised_statements(r, home_page=replaces[0],
                                                         activity_base=replaces[1]):
                    replaced(sent_before, 2)
        now.sort()
        kept = {found[4] for found in now}
        void: dict[str, str] = {}  # each statement voided, once, and its timestamp
        for when, _, _, uid in sorted(before):
            if uid not in kept:
                void.setdefault(uid, when)
        items = [json.dumps(voiding({"id": uid, "timestamp": when}, home_page), ensure_ascii=False,
                            indent=1).encode() for uid, when in void.items()]
        if not items and not now:
            out.write("[]\n")
            return 0
        first = True  # as json.dump writes a list with indent=1: each item one more space in
        for said in itertools.chain(items, _spooled(spool, now)):
            out.write(("[\n " if first else ",\n ") + said.decode().replace("\n", "\n "))
            first = False
        out.write("\n]\n")
    return len(items) + len(now)


def _spooled(spool: IO[bytes], where: list[tuple[str, int, int, int, str]]) -> Iterator[bytes]:
    for _, _, at, size, _ in where:
        spool.seek(at)
        yield spool.read(size)


# --------------------------------------------------------------------------- one actor, one person
def shared_accounts(trainees: Iterable[Trainee], certified: Iterable[Certified] = (),
                    accounts: dict[str, str] | None = None) -> dict[str, list[str]]:
    """{account: its names} of each account (a trainee id, as the statements' actors and the
    transcript's "Trainee id" name them) that would carry two names not known as one person: a
    certificate's name with no row of its own is its own account, which a trainee id may spell
    too. `trainees` are those whose practice attempts are written (the lines' own, or from a
    first pass over the attempts' trainees: never the attempts themselves, so that a class is
    checked before it is streamed). Names are one person when `accounts` (and those trainees)
    give each of them that account: a class's merged rows, a login's name."""
    trainees = list(trainees)
    known = {**(accounts or {}), **{clean_name(t.name): t.uid for t in trainees if t.uid}}
    names: dict[str, dict[str, str]] = {}
    for t in trainees:
        names.setdefault(t.uid, {}).setdefault(clean_name(t.name), t.name)
    for c in certified:
        name = clean_name(c.trainee)
        names.setdefault(known.get(name, c.trainee), {}).setdefault(name, c.trainee)
    return {account: list(found.values()) for account, found in names.items()
            if len(found) > 1 and any(known.get(n) != account for n in found)}


def one_person_each(lines: Iterable[Line], certified: list[Certified], trainees: Iterable[Trainee],
                    accounts: dict[str, str] | None = None
                    ) -> tuple[Iterable[Line], list[Certified], list[str]]:
    """The attempts (as they come: `lines` is not read here) and the certificates less those on
    an account that carries two names (`shared_accounts` of `trainees`, those whose practice
    attempts `lines` carry), and a line naming each such account: the export refuses the
    account rather than give one actor two people."""
    trainees = list(trainees)
    shared = shared_accounts(trainees, certified, accounts)
    if not shared:
        return lines, certified, []
    known = {**(accounts or {}), **{clean_name(t.name): t.uid for t in trainees if t.uid}}
    kept = (line for line in lines if line.trainee.uid not in shared)
    certified = [c for c in certified if known.get(clean_name(c.trainee), c.trainee) not in shared]
    return kept, certified, [f"trainee id {account} carries two names ({', '.join(names)}): its attempts "
                             "and certificates left out, so that no actor is two people"
                             for account, names in shared.items()]


# --------------------------------------------------------------------------- the transcript
def cell(value: object) -> str:
    """A value as a transcript cell: text a spreadsheet would take for a formula is prefixed
    with a single quote (OWASP, CSV injection)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def local_time(t: float) -> tuple[str, str]:
    """When, as a spreadsheet reads a date and time ("2026-11-25 14:05:09", in the exporting
    machine's time zone) and that zone's offset from UTC then ("UTC-05:00": words, which a
    spreadsheet neither computes nor takes for a formula), in a column of its own so that the
    date stays a date."""
    when = datetime.fromtimestamp(t).astimezone()
    offset = when.strftime("%z")
    return when.strftime("%Y-%m-%d %H:%M:%S"), f"UTC{offset[:3]}:{offset[3:]}"


def transcript_rows(lines: Iterable[Line], certified: Iterable[Certified] = (),
                    supervised: Iterable = ()) -> Iterator[list[str]]:
    """The header, then a row per practice attempt, certificate or supervised round (practice:
    trainer.progress.handoff_supervised), oldest first: the lines are taken oldest first (by when
    they started), one at a time, and the certificates (by when they were sat) and the rounds (by
    when they were finished) put among them, after the attempts that started then, a round after
    a certificate of the same time."""
    from trainer.games import GAME_NAMES

    titles: dict[tuple[str, str], str] = {}
    waiting = sorted([(c.sat_at, 0, n, _signed(c)) for n, c in enumerate(certified)]
                     + [(r.finished, 1, n, supervised_row(r)) for n, r in enumerate(supervised)],
                     key=lambda w: w[:3])
    waiting.reverse()  # the next one last
    yield list(TRANSCRIPT_COLUMNS)
    for trainee, a in practice_only(lines):
        while waiting and waiting[-1][0] < a.started:
            yield [cell(v) for v in waiting.pop()[3]]
        yield [cell(v) for v in (trainee.name, trainee.uid, *local_time(a.started),
                                 GAME_NAMES.get(a.game, a.game), title(a, titles),
                                 MODE_NAMES.get(a.mode.value, a.mode.value), CERTIFICATION["practice"],
                                 "" if a.abandoned else a.total, outcome(a), f"{a.duration:.2f}",
                                 len(a.findings), "; ".join(sections(a)), a.source, a.uid, "", "")]
    while waiting:
        yield [cell(v) for v in waiting.pop()[3]]


def _signed(c: Certified) -> tuple[object, ...]:
    """A certificate's transcript row, before its cells are made safe."""
    return (c.trainee, "", *local_time(c.sat_at), "", c.form, CERTIFIED_MODE, CERTIFICATION["certified-exam"],
            c.total, c.outcome, "", "", "", "", c.result, f"{c.signer} (key {c.fingerprint})", c.code)


def write_transcript(lines: Iterable[Line], out: IO[str], certified: Iterable[Certified] = (), *,
                     bom: bool = False, supervised: Iterable = ()) -> int:
    """Write the transcript as CSV (every cell quoted, CRLF line ends as RFC 4180 has them);
    how many rows under the header. `bom`: begin with the byte order mark, by which a
    spreadsheet on Windows knows the file is UTF-8 (without it "§" reads "Â§")."""
    if bom:
        out.write("\ufeff")
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    rows = transcript_rows(lines, certified, supervised)
    writer.writerow(next(rows))  # the header
    n = 0
    for row in rows:
        writer.writerow(row)
        n += 1
    return n


def write(lines: Iterable[Line], out: IO[str], fmt: str, *, certified: Iterable[Certified] = (),
          home_page: str = HOME_PAGE, activity_base: str = IRI, bom: bool = False,
          replaces: tuple[str, str] | None = None, accounts: dict[str, str] | None = None,
          formerly: Formerly | None = None, supervised: Iterable = ()) -> int:
    """Write the practice attempts, the certified exams and the supervised rounds (practice) in
    a format of FORMATS; how many items were written. `bom`: a transcript begins with the byte
    order mark (a file, not a pipe); `accounts`, `formerly`: as `statements` takes them."""
    if fmt == "xapi":
        return write_statements(lines, out, certified=certified, home_page=home_page,
                                activity_base=activity_base, replaces=replaces, accounts=accounts,
                                formerly=formerly, supervised=supervised)
    if fmt == "csv":
        return write_transcript(lines, out, certified, bom=bom, supervised=supervised)
    raise ValueError(f"no format {fmt!r}; the formats are {', '.join(FORMATS)}")


def supervised_statements(line, *, home_page: str, activity_base: str) -> list[dict]:
    """A supervised round's statements (trainer.progress.handoff_supervised)."""
    from trainer.progress.handoff_supervised import statements as made  # it imports this module

    return made(line, home_page=home_page, activity_base=activity_base)


def supervised_row(line) -> tuple[object, ...]:
    """A supervised round's transcript row (trainer.progress.handoff_supervised)."""
    from trainer.progress.handoff_supervised import transcript_row  # it imports this module

    return transcript_row(line)
