"""Every worked example in ../shared/spec/examples agrees with the engine.

Compared as ../shared/spec/check_examples.py does: per throw, valid or not, and the collected
and paid lines as multisets; then refused and open wagers; and Three Dice Football's yard lines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from tests.support.paths import EXAMPLES, SHARED
from trainer.settle import settle

FILES = sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"no worked examples at {EXAMPLES}")


def cents(text: str) -> int:
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def lines(throw: dict, action: str, money: str) -> Counter:
    return Counter((ln["seat"], ln["bet"], cents(ln[money]))
                   for step in throw["steps"] if step["action"] == action for ln in step["lines"])


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_worked_example(path):
    example = json.loads(path.read_text())
    got, want = settle(example["request"]), example["expected"]
    assert len(got["throws"]) == len(want["throws"])
    for i, (g, w) in enumerate(zip(got["throws"], want["throws"], strict=True)):
        assert g["valid"] == w["valid"], f"throw {i}"
        wcol = Counter((x["seat"], x["bet"], cents(x["amount"])) for x in w["collect"])
        wpay = Counter((x["seat"], x["bet"], cents(x["payout"])) for x in w["pay"])
        assert lines(g, "collect", "amount") == wcol, f"throw {i} collections"
        assert lines(g, "pay", "payout") == wpay, f"throw {i} payments"
    for key in ("refused", "open"):
        assert sorted((x["seat"], x["bet"]) for x in got[key]) == \
            sorted((x["seat"], x["bet"]) for x in want[key]), key
    if "yard_lines" in want:
        yards = [t["result"]["yard_line"] for t in got["throws"]
                 if t["valid"] and not t["result"].get("extra_point")]
        assert yards == want["yard_lines"]


def test_every_line_is_cited():
    for path in FILES:
        got = settle(json.loads(path.read_text())["request"])
        for throw in got["throws"]:
            for step in throw["steps"]:
                for line in step.get("lines", []):
                    assert line["cite"].startswith("58 Pa. Code § "), (path.name, line)
        for refusal in got["refused"]:
            assert refusal["cite"].startswith("58 Pa. Code § ") and refusal["reason"]


def test_check_examples_script_agrees(dealer_trainer):
    script = SHARED / "spec" / "check_examples.py"
    if not script.is_file():
        pytest.skip(f"{script} is absent")
    done = subprocess.run([sys.executable, str(script), dealer_trainer], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(FILES)}/{len(FILES)} worked examples agree" in done.stdout
