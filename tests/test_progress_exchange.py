"""CSV of attempts, and results files exported on one workstation and imported on another."""

from __future__ import annotations

import csv
import io
import json

import pytest

from trainer.progress import (
    AttemptRecord,
    Mode,
    ResultsFileError,
    Store,
    export_csv,
    export_results,
    import_results,
)
from trainer.progress.exchange import CSV_COLUMNS
from trainer.progress.records import workstation

T0 = 1_700_000_000.123456


#: the scenarios the fixture's attempts were played on: bundled, so any machine re-grades them
SCENARIOS = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive")


def bundled(scenario_id: str):
    from tests.support import library

    return library.bundled().by_id(scenario_id)


def record(trainee: int, n: int, **more) -> AttemptRecord:
    """A real attempt: a bundled scenario worked right (odd n: one payout a dollar off, a
    critical finding), graded as the app grades it."""
    import dataclasses

    from trainer.grading import correct_log, grade
    from trainer.procedure import Do, build
    from trainer.progress import skills_of

    s = bundled(SCENARIOS[n % 3])
    proc = build(s)
    log = correct_log(proc, s.automation, seconds_each=2.5)
    if n % 2:
        k = next(i for i, a in enumerate(log) if a.do is Do.PAY)
        log[k] = dataclasses.replace(log[k], amount=log[k].amount + 100)
    started, ended = T0 + 97.3 * n, T0 + 97.3 * n + 41.7
    result = grade(proc, log, automation=s.automation, game=s.game, target_seconds=s.target_seconds,
                   elapsed=ended - started)
    made = AttemptRecord.from_result(
        trainee_id=trainee, item_id=s.id, game=s.game, mode=Mode.SCENARIO, result=result, log=log,
        skills=skills_of(proc, s.automation), started=started, ended=ended,
        target=float(s.target_seconds), source="station-7")
    return dataclasses.replace(made, **more) if more else made


@pytest.fixture
def station(tmp_path):
    """A workstation with two trainees (and an archived one) and their attempts."""
    with Store.open(tmp_path / "station.db") as s:
        ana, ben, old = s.add_trainee("Ana"), s.add_trainee("Ben"), s.add_trainee("Old")
        for n in range(5):
            s.record_attempt(record(ana, n))
        for n in range(5, 8):
            s.record_attempt(record(ben, n))
        s.record_attempt(record(ben, 8, abandoned=True))
        s.record_attempt(record(old, 9))
        s.archive_trainee(old)
        yield s


def comparable(store: Store, name: str) -> list[dict]:
    t = store.find_trainee(name)
    out = []
    for a in store.attempts(t.id):
        d = {k: getattr(a, k) for k in AttemptRecord.__dataclass_fields__ if k != "trainee_id"}
        d["skills"] = set(d["skills"])
        out.append(d)
    return out


def test_export_then_import_reproduces_the_attempts_and_twice_adds_nothing(station, tmp_path):
    path = tmp_path / "results.json"
    assert export_results(station, path) == 9  # the archived trainee is not in the class
    with Store.open(tmp_path / "instructor.db") as desk:
        desk.add_trainee("ana")  # another person of the same name: never merged by name
        summary = import_results(desk, path)
        ana_there = f"Ana ({workstation()})"
        assert (summary.added, summary.already_present) == (9, 0)
        assert summary.trainees_created == [ana_there, "Ben"]
        assert comparable(desk, ana_there) == comparable(station, "Ana")
        assert comparable(desk, "Ben") == comparable(station, "Ben")
        assert desk.attempts(desk.find_trainee("ana").id) == []
        assert sorted(t.name for t in desk.trainees()) == sorted([ana_there, "ana", "Ben"])
        assert {t.uid for t in desk.trainees()} >= {station.find_trainee(n).uid for n in ("Ana", "Ben")}
        assert not any(t.instructor for t in desk.trainees())
        again = import_results(desk, path)
        assert (again.added, again.already_present, again.trainees_created) == (0, 9, [])
        assert desk.query("SELECT count(*) AS n FROM attempts")[0]["n"] == 9
        assert desk.query("SELECT count(*) AS n FROM findings")[0]["n"] == 4
        assert desk.integrity_check() == ["ok"]


def test_one_trainees_results_and_a_merge_of_two_stations(station, tmp_path):
    ben = station.find_trainee("Ben").id
    buf = io.StringIO()
    assert export_results(station, buf, trainee_id=ben) == 4
    doc = json.loads(buf.getvalue())
    assert (doc["format"], doc["version"], [t["name"] for t in doc["trainees"]]) == (
        "dealer-trainer-results", 2, ["Ben"])
    with Store.open(tmp_path / "desk.db") as desk:
        buf.seek(0)
        assert import_results(desk, buf).added == 4
        with Store.open(tmp_path / "other.db") as other:  # Ben's profile, carried to another station
            buf.seek(0)
            import_results(other, buf)
            b = other.find_trainee("Ben").id
            other.record_attempt(record(b, 20))
            stranger = other.add_trainee("Ana")  # someone else, who never had Ana's profile
            other.record_attempt(record(stranger, 21))
            out = io.StringIO()
            export_results(other, out)
        out.seek(0)
        summary = import_results(desk, out)
        assert (summary.added, summary.already_present) == (2, 4)
        assert len(desk.attempts(desk.find_trainee("Ben").id)) == 5  # one trainee, by id


def test_a_renamed_trainee_is_still_found_by_id_and_never_by_name(station, tmp_path):
    buf = io.StringIO()
    export_results(station, buf, trainee_id=station.find_trainee("Ben").id)
    with Store.open(tmp_path / "desk.db") as desk:
        buf.seek(0)
        import_results(desk, buf)
        desk.db.execute("UPDATE trainees SET name = 'Benjamin' WHERE name = 'Ben'")
        buf.seek(0)
        again = import_results(desk, buf)
        assert (again.added, again.already_present, again.trainees_created) == (0, 4, [])
        doc = json.loads(buf.getvalue())
        doc["version"] = 1
        for t in doc["trainees"]:
            del t["uid"]
        for a in doc["attempts"]:
            a["uid"] += "-v1"
        desk.add_trainee("Ben")  # a version 1 file has no ids: never merged by name
        summary = import_results(desk, io.StringIO(json.dumps(doc)))
        assert (summary.added, summary.trainees_created) == (4, [f"Ben ({doc['source']})"])
        assert desk.attempts(desk.find_trainee("Ben").id) == []
        ivy = desk.add_trainee("Ivy", instructor=True, passphrase="a long class passphrase")
        doc = json.loads(buf.getvalue())
        doc["trainees"][0]["uid"] = desk.trainee(ivy).uid  # practice pinned on the instructor
        with pytest.raises(ResultsFileError, match="an instructor's profile here"):
            import_results(desk, io.StringIO(json.dumps(doc)))


def test_csv_has_a_header_and_one_row_per_attempt(station, tmp_path):
    path = tmp_path / "attempts.csv"
    assert export_csv(station, path) == 10
    with open(path, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert tuple(table[0]) == CSV_COLUMNS
    assert len(table) == 11
    first = dict(zip(table[0], table[1], strict=True))
    assert first["trainee"] == "Ana" and first["started"] == "2023-11-14T22:13:20.123+00:00"
    ana_first = station.attempts(station.find_trainee("Ana").id)[0]
    assert (first["skills"], first["findings"], first["passed"], first["seed"]) == (
        ";".join(sorted(k.value for k in ana_first.skills)), "0", "1", "")
    assert sorted(r[0] for r in table[1:]) == sorted(a.uid for a in station.attempts())
    ana = station.find_trainee("Ana").id
    buf = io.StringIO()
    assert export_csv(station, buf, trainee_id=ana) == 5
    assert len(buf.getvalue().splitlines()) == 6


def good_file(station) -> dict:
    buf = io.StringIO()
    export_results(station, buf)
    return json.loads(buf.getvalue())


@pytest.mark.parametrize("spoil, message", [
    (lambda d: "{not json", r"not JSON: .* line 1"),
    (lambda d: [], "not a Dealer Trainer results file"),
    (lambda d: {**d, "format": "anki"}, "not a Dealer Trainer results file"),
    (lambda d: {**d, "version": 3}, "newer version"),
    (lambda d: d["trainees"][0].update(uid="x") and None, r"trainees\[0\]\.uid: must be the trainee's id"),
    (lambda d: d["trainees"][0].update(uid=d["trainees"][1]["uid"]) and None,
     r"trainees\[1\]\.uid: .*used once"),
    (lambda d: d["trainees"][0].pop("uid") and None, r"trainees\[0\]\.uid"),
    (lambda d: d["trainees"][0].update(created=1e308) and None, r"trainees\[0\]\.created"),
    (lambda d: d["trainees"][0].update(name="\u200b\u200b") and None, r"trainees\[0\]\.name"),
    (lambda d: {**d, "attempts": {}}, "attempts: must be a list"),
    (lambda d: d["attempts"][3].update(total=140), r"attempts\[3\]\.total: must be a whole number from 0"),
    (lambda d: d["attempts"][0].update(mode="quiz"), r"attempts\[0\]\.mode: 'quiz' is not one of"),
    (lambda d: d["attempts"][1].update(trainee=99), r"attempts\[1\]\.trainee: 99 is not a key"),
    (lambda d: d["attempts"][1].pop("game") and None, r"attempts\[1\]: missing 'game'"),
    (lambda d: d["attempts"][2].pop("uid") and None, r"attempts\[2\]\.uid"),
    (lambda d: d["attempts"][2].update(colour="red"), r"attempts\[2\]: unknown field 'colour'"),
    (lambda d: d["attempts"][1]["findings"][0].update(skill="x"), r"attempts\[1\]\.findings\[0\]\.skill"),
    (lambda d: d["attempts"][0]["log"].append({"round": 1}), r"attempts\[0\]\.log\[2\]: not a logged action"),
    (lambda d: d["trainees"][0].update(name=" "), r"trainees\[0\]\.name"),
    # numbers that would break every chart and export after them (append-only: for good)
    (lambda d: d["attempts"][0].update(started=1e308), r"attempts\[0\]\.started: 1e\+308"),
    (lambda d: d["attempts"][0].update(started=float("inf")), r"attempts\[0\]\.started"),
    (lambda d: d["attempts"][0].update(ended=float("nan")), r"attempts\[0\]\.ended"),
    (lambda d: d["attempts"][0].update(started=5, ended=6), r"not a time between 2000 and 2100"),
    (lambda d: d["attempts"][0].update(duration=1e9), r"attempts\[0\]\.duration: .* more than"),
    (lambda d: d["attempts"][0].update(target=float("inf")), r"attempts\[0\]\.target"),
    (lambda d: d["attempts"][0]["log"][0].update(at=1e308), r"attempts\[0\]\.log\[0\]\.at"),
])
def test_a_malformed_results_file_names_the_problem_and_adds_nothing(station, tmp_path, spoil, message):
    doc = good_file(station)
    spoiled = spoil(doc)
    path = tmp_path / "bad.json"
    path.write_text(spoiled if isinstance(spoiled, str) else json.dumps(doc if spoiled is None else spoiled))
    with Store.open(tmp_path / "desk.db") as desk:
        with pytest.raises(ResultsFileError, match=message) as e:
            import_results(desk, path)
        assert str(e.value).startswith(str(path)) and "\n" not in str(e.value)
        assert desk.trainees() == [] and desk.attempts() == []


def test_a_results_file_that_is_not_text(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with Store.open(tmp_path / "desk.db") as desk, pytest.raises(ResultsFileError, match="not UTF-8"):
        import_results(desk, path)


@pytest.mark.parametrize(("text", "says"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "dealer-trainer-results", "version": ' + "9" * 5000 + "}", "too long to read"),
])
def test_a_results_file_too_deep_or_too_long_is_named(tmp_path, text, says):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with Store.open(tmp_path / "desk.db") as desk, pytest.raises(ResultsFileError, match=says):
        import_results(desk, path)


# --- re-graded on import ------------------------------------------------------------------------


def test_scores_edited_in_a_results_file_are_graded_again(station, tmp_path):
    doc = good_file(station)
    forged = next(a for a in doc["attempts"] if a["critical"])  # a payout a dollar off
    forged.update(total=100, procedure=100, payouts=100, passed=True, critical=False, findings=[],
                  skills=["calls"])
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(doc))
    with Store.open(tmp_path / "desk.db") as desk:
        summary = import_results(desk, path)
        assert summary.rescored == 1 and summary.left_out == []
        here = next(a for a in desk.attempts() if a.uid == forged["uid"])
        assert here.critical and not here.passed and here.total < 100
        assert [f["kind"] for f in here.findings] == ["wrong amount"]
        assert "calls" not in {k.value for k in here.skills} or len(here.skills) > 1


def test_an_attempt_this_machine_cannot_deal_again_is_left_out_and_named(station, tmp_path):
    doc = good_file(station)
    doc["attempts"][2]["item_id"] = "my-own-scenario"
    doc["attempts"][4]["seed"] = "drill-props-and-hops-3-7~not-a-skill"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    with Store.open(tmp_path / "desk.db") as desk:
        summary = import_results(desk, path)
        assert summary.added == 7 and len(summary.left_out) == 2
        assert "attempts[2] (my-own-scenario): the scenario 'my-own-scenario' cannot be dealt" \
            in summary.left_out[0]
        assert "drill-props-and-hops-3-7~not-a-skill" in summary.left_out[1]


def test_rounds_played_in_the_app_import_elsewhere_with_the_same_scores(tmp_path):
    """Random rounds (some aimed at a skill), payout drills and a bundled scenario, worked through
    the real PracticeRound with right and wrong payouts, skipped throws and out-of-order steps:
    another machine re-grades each from its log to exactly the app's scores."""
    import random

    from trainer.drills import payout_drill, random_round
    from trainer.games import GAME_IDS
    from trainer.practice import PracticeRound
    from trainer.progress.records import attempt_of
    from trainer.vocabulary import Skill

    rng = random.Random(5)
    now = [1_790_000_000.0]

    def clock():
        now[0] += rng.uniform(0.5, 6.0)
        return now[0]

    made = []
    for n in range(60):
        game = GAME_IDS[n % len(GAME_IDS)]
        kind = n % 4
        if kind == 0:
            scenario, mode = payout_drill(game, n), "drill"
        elif kind == 1:
            scenario, mode = random_round(game, 1 + n % 5, n, rng.choice(list(Skill))), "practice"
        elif kind == 2:
            scenario, mode = random_round(game, 1 + n % 5, n), "practice"
        else:
            scenario, mode = bundled(SCENARIOS[n % 3]), "practice"
        round_ = PracticeRound(scenario, clock=clock)
        round_.mode = mode
        for _ in range(400):
            e = round_.next_expected()
            if e is None or round_.finished:
                break
            roll = rng.random()
            if roll < 0.08:
                round_.skip_throw()
            elif roll < 0.16 and e.amount:
                round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount + 25, value=e.value)
            else:
                round_.perform(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
        made.append(attempt_of(round_, round_.finish(), trainee_id=1, ended=clock()))
    assert any(p.get("do") == "skip-throw" for a in made for p in a.log)
    with Store.open(tmp_path / "station.db") as station:
        station.add_trainee("Ana")
        for a in made:
            station.record_attempt(a)
        out = tmp_path / "r.json"
        export_results(station, out)
    with Store.open(tmp_path / "desk.db") as desk:
        summary = import_results(desk, out)
        assert (summary.added, summary.left_out, summary.rescored) == (60, [], 0)
        there = {a.uid: a for a in desk.attempts()}
        for a in made:
            b = there[a.uid]
            assert (b.procedure, b.payouts, b.speed, b.total, b.passed, b.critical) == (
                a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical), a.seed or a.item_id
            assert set(b.skills) == set(a.skills)
            assert [f["kind"] for f in b.findings] == [f["kind"] for f in a.findings]


def test_a_results_file_read_in_pieces_is_what_json_reads(tmp_path):
    """loads_in_pieces (a class's file read attempt by attempt, so that the window's thread runs
    between them) gives trainer.files.loads's value (json.loads's, a key named twice refused),
    or its error at the same place, for hostile variants of a results file."""
    from tests.support.hostile import Mutator
    from tests.support.hostile_seeds import results_file
    from trainer import files
    from trainer.progress.exchange import loads_in_pieces

    def read(reader, text):
        try:
            return "value", json.dumps(reader(text))  # as text: NaN is NaN
        except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
            return type(e).__name__, str(e)

    doc = results_file(tmp_path / "station.db")
    m = Mutator(7)
    texts = [m.json_bytes(doc).decode("utf-8", "replace") for _ in range(300)]
    texts += ["", " ", "{", '{"a":1,}', "[1,]", "[1 2]", '{"a" 1}', "{1:2}", "[]x", "\ufeff{}",
              '{"a": [1, {"b": [2]}], "a": 3}', '{"a": 1, "a": [}', '[{"b": {"c": 1, "c": 2}, "b": 1}]',
              "[NaN, -Infinity]", "[" * 5000 + "]" * 5000]
    differ = [t[:80] for t in texts if read(files.loads, t) != read(loads_in_pieces, t)]
    assert not differ, differ
