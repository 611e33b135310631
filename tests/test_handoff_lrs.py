"""The class's xAPI statements sent to a Ralph LRS (tests.support.ralph_lrs: Ralph's own API
server, started for the test) as an employer's import would: once, then again. An LRS keeps a
statement id once and answers a known id with other content 409 Conflict, refusing the whole
batch (xAPI 1.0.3, Communication 2.1.2); so exporting the class again must give the same
statements, and exporting it with another activity base statements of their own."""

from __future__ import annotations

import json

from tests.support.class_server import progress_file, push_all
from tests.support.command import run_here
from tests.support.ralph_lrs import ralph_lrs

BASE = "https://casino.example/training/"


def exported(klass, out, *more: str) -> list[dict]:
    """`dealer-trainer export-results --class URL --format xapi`, as the instructor runs it."""
    done = run_here("export-results", "--class", klass.address("instructor").url, "--format", "xapi",
                    "--out", str(out), *more)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_class_exported_twice_is_accepted_and_kept_once_by_ralph(tmp_path, klass):
    push_all(progress_file(tmp_path / "ws.db", {"Ana": 6, "Bo": 4}), klass)
    first = exported(klass, tmp_path / "first.json")
    again = exported(klass, tmp_path / "again.json")
    other_base = exported(klass, tmp_path / "other-base.json", "--activity-base", BASE)
    assert len(first) == 10
    with ralph_lrs(tmp_path / "lrs") as lrs:
        assert lrs.post(first) == (200, [s["id"] for s in first])
        # the export made again: the same statements, which the LRS has already (204, nothing new)
        assert lrs.post(again) == (204, None)
        kept = lrs.stored()
        assert sorted(s["id"] for s in kept) == sorted(s["id"] for s in first), "each statement once"
        # with another base: other statements, of ids of their own, taken as well; and again, nothing
        assert lrs.post(other_base) == (200, [s["id"] for s in other_base])
        assert lrs.post(other_base) == (204, None)
        assert len(lrs.stored()) == 2 * len(first)
        # the rule the ids are made for is the LRS's: a known id with other content refuses the batch
        graded = next(s for s in first if "success" in s["result"])
        changed = dict(graded, result={**graded["result"], "success": not graded["result"]["success"]})
        status, answer = lrs.post([changed])
        assert status == 409 and graded["id"] in answer["detail"]
        assert len(lrs.stored()) == 2 * len(first)
