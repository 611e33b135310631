"""`dealer-trainer check` on broken files: each names its file and line, and never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.command import run_command, run_here
from tests.support.paths import ROOT
from trainer.procedure import build
from trainer.scenario import ScenarioError, load

BROKEN = ROOT / "tests" / "data" / "broken"

#: file -> (line, words the message must contain)
EXPECTED = {
    "syntax-error.toml": (12, "TOML syntax error"),
    "unknown-key.toml": (14, 'unknown key "wagr" — did you mean "wagers"?'),
    "misspelt-field.toml": (17, 'unknown key "amout" — did you mean "amount"?'),
    "impossible-extra-roll.toml": (23, "an extra roll, but no player bought one"),
    "wrong-die-count.toml": (21, "expected 2 dice, got 3"),
    "bad-amount.toml": (17, "finer than a cent"),
    "throw-after-the-round.toml": (24, "round is already over"),
    "take-down-nothing.toml": (19, "no six-eight-shake wager from seat 3"),
    "newer-schema.toml": (1, "schema_version 2 is not supported"),
    "unknown-bet.toml": (16, 'unknown bet "pip-sixx" for high-roll-dice — did you mean "pip-6"?'),
    "binary.toml": (1, "cannot read the file"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_broken_file_is_named_with_its_line(name):
    line, words = EXPECTED[name]
    with pytest.raises(ScenarioError) as caught:
        build(load(BROKEN / name))
    assert caught.value.line == line, str(caught.value)
    assert words in caught.value.message


def test_the_command_reports_every_file_and_exits_2():  # the program; the others in-process
    done = run_command("check", str(BROKEN))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == len(EXPECTED)
    for name, (line, _) in EXPECTED.items():
        assert any(x.startswith(f"{BROKEN / name}:{line}: ") for x in lines), name
    assert f"0 of {len(EXPECTED)} scenario files are good" in done.stdout


def test_a_missing_path_is_reported_not_raised(tmp_path):
    done = run_here("check", str(tmp_path / "nowhere.toml"))
    assert done.returncode == 2 and "no such file" in done.stderr and "Traceback" not in done.stderr


def test_good_files_pass(tmp_path):
    good = Path(ROOT / "scenarios" / "props-and-hops" / "01-first-shake.toml")
    done = run_here("check", str(good))
    assert done.returncode == 0 and "1 of 1 scenario files are good" in done.stdout


def test_the_readme_example_scenario_checks(tmp_path):
    text = (ROOT / "README.md").read_text()
    start = text.index("```toml\nschema_version") + len("```toml\n")  # the scenario's, not a config's
    example = tmp_path / "example.toml"
    example.write_text(text[start:text.index("```", start)])
    done = run_here("check", str(example))
    assert done.returncode == 0, done.stderr


def test_every_bundled_scenario_passes_the_command():
    done = run_here("check", str(ROOT / "scenarios"))
    assert done.returncode == 0, done.stderr
    assert "48 of 48" in done.stdout or " of " in done.stdout


def test_a_scenario_nested_too_deeply_or_with_a_huge_number_is_named(tmp_path):
    from trainer.scenario import ScenarioError, load

    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 20_000 + "]" * 20_000 + "\n")  # under the size cap (MAX_CHARS)
    huge = tmp_path / "huge.toml"
    huge.write_text("schema_version = " + "9" * 5000 + "\n")
    for path, says in ((deep, "nested too deeply"), (huge, "a number that cannot be read")):
        with pytest.raises(ScenarioError, match=says):
            load(path)
