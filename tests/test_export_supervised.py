"""`export-results` hands the supervised rounds to the employer as practice, never as
certificates (trainer.progress.handoff_supervised): a transcript row per round, and xAPI
statements with an activity per fault class of each round, from a progress file and from the
class server (a real PostgreSQL), the counts worked out here from the dealt rounds."""

from __future__ import annotations

import csv
import io
import json

from tests.support.class_server import progress_file
from tests.support.command import run_here
from tests.test_class_supervised import faulty, send, supervise

T = 1_780_000_000.0
PLAYS = [("props-and-hops", 1), ("pai-gow-dice", 9)]


def ana_file(tmp_path):
    """Ana's file: an attempt, and two supervised rounds each with its first fault caught."""
    path = progress_file(tmp_path / "ana.sqlite", {"Ana": 1})
    for n, (game, seed) in enumerate(PLAYS):
        supervise(path, "Ana", game, seed, T + 60 * n)
    return path


def per_class(rnd) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for n, f in enumerate(rnd.faults):
        c, s = out.get(f.type.fault_class.value, (0, 0))
        out[f.type.fault_class.value] = (c + (n == 0), s + 1)
    return out


def check_csv(text: str) -> None:
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    supervised = [r for r in rows if r["Mode"] == "Supervised round"]
    assert [r["Scenario or drill"] for r in supervised] == [faulty(g, s).id for g, s in PLAYS]
    assert {r["Certification"] for r in supervised} == {"Practice, not certified"}
    assert all(r["Trainee"] == "Ana" for r in supervised)
    assert len(rows) == 3  # and the attempt


def check_xapi(text: str) -> None:
    base = "https://school.example/xapi/supervise/"
    found = [s for s in json.loads(text) if s["object"]["id"].startswith(base)]
    expected = {f"{base}{g}/{c}": pair
                for g, s in PLAYS for c, pair in per_class(faulty(g, s)).items()}
    scores = {s["object"]["id"]: (s["result"]["score"]["raw"], s["result"]["score"]["max"]) for s in found}
    assert scores == expected
    assert len(found) == len(expected)
    for s in found:
        assert s["verb"]["id"] == "http://adlnet.gov/expapi/verbs/scored"
        categories = s["context"]["contextActivities"]["category"]
        assert [c["id"].rsplit("/", 1)[-1] for c in categories] == ["practice"]
        assert "success" not in s["result"]
        assert s["actor"]["name"] == "Ana"


def test_a_file_exports_its_rounds_as_practice(tmp_path):
    path = ana_file(tmp_path)
    done = run_here("export-results", str(path), "--format", "csv")
    assert done.returncode == 0, done.stderr
    check_csv(done.stdout)
    done = run_here("export-results", str(path), "--format", "xapi", "--activity-base",
                    "https://school.example/xapi/", "--trainee", "Ana")
    assert done.returncode == 0, done.stderr
    check_xapi(done.stdout)


def test_the_class_exports_its_rounds_as_practice(tmp_path, klass):
    path = ana_file(tmp_path)
    send(path, klass.address())
    url = klass.address("instructor").url
    done = run_here("export-results", "--class", url, "--format", "csv")
    assert done.returncode == 0, done.stderr
    check_csv(done.stdout)
    done = run_here("export-results", "--class", url, "--format", "xapi", "--activity-base",
                    "https://school.example/xapi/")
    assert done.returncode == 0, done.stderr
    check_xapi(done.stdout)
    # the same round has the same statements from the file and from the class
    local = run_here("export-results", str(path), "--format", "xapi", "--activity-base",
                     "https://school.example/xapi/")
    ids = lambda text: {s["id"] for s in json.loads(text) if "/supervise/" in s["object"]["id"]}  # noqa: E731
    assert ids(local.stdout) == ids(done.stdout)
