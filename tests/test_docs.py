"""The documents that describe the engine's interface agree with the engine.

- docs/readings.md holds every reading of trainer/readings.py and no other: the part below its
  marker line is written from that module (ids, titles, texts, sections, and the constants the
  code takes from the readings), so a reading added, removed or reworded without the page fails
  here. Write that part again, and read the difference before committing it, with

      PYTHONPATH=. python -m tests.test_docs

- docs/settle.md names every game (with its seats), option, bet id and no-roll reason `settle`
  takes, and nothing it does not take. Its examples are what the command answers: they were made
  by running `dealer-trainer settle`, and checked by hand against the regulation (the Field loses
  on 3-3, a total of 6, § 668a.2(f)(1); a Double pays 30 to 1, § 668a.4, so $2 wins $60.00; the
  wager offered with the throw after a no roll is refused; a Match on two dice pays 6 to 1).
"""

from __future__ import annotations

import ast
import json
import re

import pytest

from tests.support.paths import ROOT
from trainer import games, readings
from trainer.errors import RequestError
from trainer.settle import settle

READINGS_DOC = ROOT / "docs" / "readings.md"
SETTLE_DOC = ROOT / "docs" / "settle.md"
MARK = "<!-- written from trainer/readings.py by tests/test_docs.py: edit the readings there -->"


# --- docs/readings.md -----------------------------------------------------------------------------


def _family(game_id: str) -> str:
    """The game whose readings a game shows (the 6-dice High Roll shows High Roll Dice's)."""
    shown = {r.game for r in readings.for_game(game_id)} - {"all"}
    return shown.pop() if shown else game_id


def _heading(key: str) -> list[str]:
    if key == "all":
        return ["## All games", ""]
    game = games.get(key)
    out = [f"## {game.name} (58 Pa. Code ch. {game.chapter})", ""]
    also = [games.GAME_NAMES[g] for g in games.GAME_IDS if g != key and _family(g) == key]
    if also:
        out += [f"These apply to {' and '.join(also)} too.", ""]
    return out


def _constants() -> list[str]:
    """The constants of trainer/readings.py, each with the `#:` comment above its group, which
    names its readings, and its value."""
    source = (ROOT / "trainer" / "readings.py").read_text(encoding="utf-8")
    lines = source.splitlines()
    rows, about = [], ""
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()]
        if not names or names[0] in ("READINGS", "BY_ID"):
            continue
        if (above := lines[node.lineno - 2].strip()).startswith("#:"):
            about = above[2:].strip()
        rows.append(f"| `{names[0]}` | `{getattr(readings, names[0])!r}` | {about} |")
    return ["## The values the code takes from the readings", "",
            "Constants of `trainer/readings.py`, each named after its reading:", "",
            "| constant | value | what it is |", "| --- | --- | --- |", *rows]


def readings_part() -> str:
    """The part of docs/readings.md written from trainer/readings.py."""
    out: list[str] = []
    current = None
    for r in readings.READINGS:
        if r.game != current:
            current = r.game
            out += _heading(current)
        sections = (", ".join(f"§ {s}" for s in r.sections) if r.sections
                    else "none: it holds for every chapter alike" if r.game == "all" else "none")
        out += [f"### `{r.id}`: {r.title}", "", r.text, "", f"*Sections read:* {sections}", ""]
    out += _constants()
    return "\n".join(out).strip("\n") + "\n"


def _ids_in(text: str) -> set[str]:
    return set(re.findall(r"^### `([a-z0-9-]+)`", text, flags=re.MULTILINE))


def test_readings_doc_lists_every_reading_and_no_other():
    page = READINGS_DOC.read_text(encoding="utf-8")
    assert MARK in page, f"{READINGS_DOC.name} has lost its marker line; write it again"
    documented = _ids_in(page.split(MARK, 1)[1])
    in_code = {r.id for r in readings.READINGS}
    assert not in_code - documented, f"missing from the page: {sorted(in_code - documented)}"
    assert not documented - in_code, f"not in the code: {sorted(documented - in_code)}"


def test_readings_doc_says_what_the_code_says():
    page = READINGS_DOC.read_text(encoding="utf-8")
    written = page.split(MARK, 1)[1].strip("\n") + "\n"
    assert written == readings_part(), ("docs/readings.md differs from trainer/readings.py: "
                                        "write it again with PYTHONPATH=. python -m tests.test_docs")


def test_every_game_shows_its_readings_under_one_heading():
    # the page groups the readings by game: a reading out of its group would be shown twice
    keys = [r.game for r in readings.READINGS]
    assert keys == sorted(keys, key=keys.index), "keep each game's readings together in READINGS"


def write_readings_doc() -> None:
    page = READINGS_DOC.read_text(encoding="utf-8")
    head = page.split(MARK, 1)[0] if MARK in page else page.rstrip("\n") + "\n\n"
    READINGS_DOC.write_text(f"{head}{MARK}\n\n{readings_part()}", encoding="utf-8")
    print(f"wrote {READINGS_DOC.relative_to(ROOT)}: {len(readings.READINGS)} readings")


# --- docs/settle.md -------------------------------------------------------------------------------


def _section(text: str, title: str) -> str:
    """The text of a section of the page, from its heading to the next heading of any level."""
    start = re.search(rf"^#+ {re.escape(title)}\n", text, flags=re.MULTILINE)
    assert start, f"docs/settle.md has no section {title!r}"
    rest = text[start.end():]
    end = re.search(r"^#+ ", rest, flags=re.MULTILINE)
    return rest[:end.start()] if end else rest


def _rows(section: str) -> list[list[str]]:
    """A section's table rows (header and rule left out), as cells."""
    rows = [line.strip().strip("|").split("|") for line in section.splitlines()
            if line.startswith("|")]
    return [[c.strip() for c in row] for row in rows[2:]]


def _ids(cell: str) -> set[str]:
    """The ids a cell names: each `code` span, and every id of a run written `x-1` … `x-6` (the
    numbers of the first and last id rising together)."""
    out = set(re.findall(r"`([^`]+)`", cell))
    for first, last in re.findall(r"`([^`]+)` … `([^`]+)`", cell):
        a, b = re.findall(r"\d+", first), re.findall(r"\d+", last)
        skeleton = re.sub(r"\d+", "{}", first)
        assert skeleton == re.sub(r"\d+", "{}", last) and len(set(a)) == len(set(b)) == 1, cell
        out |= {skeleton.format(*[n] * len(a)) for n in range(int(a[0]), int(b[0]) + 1)}
    return out


def _by_game(section: str) -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for row in _rows(section):
        for game_id in _ids(row[0]):
            table.setdefault(game_id, set()).update(_ids(row[1]))
    return table


@pytest.fixture(scope="module")
def page() -> str:
    return SETTLE_DOC.read_text(encoding="utf-8")


def test_settle_doc_names_every_game_and_its_seats(page):
    section = _section(page, "Games, and what one request holds")
    rows = {row[0].strip("`"): row[2] for row in _rows(section)}
    assert set(rows) == set(games.GAME_IDS)
    for game_id, seats in rows.items():
        assert seats == f"1–{games.get(game_id).seats}", game_id


def test_settle_doc_names_every_option(page):
    documented: dict[str, set[str]] = {}
    for row in _rows(_section(page, "Options")):
        documented.setdefault(row[1].strip("`"), set()).add(row[0].strip("`"))
    for game_id in games.GAME_IDS:
        taken = set(games.get(game_id).parse_options({}))
        assert documented.get(game_id, set()) == taken, game_id


def test_settle_doc_names_every_bet_id(page):
    documented = _by_game(_section(page, "Bet ids"))
    for game_id in games.GAME_IDS:
        game = games.get(game_id)
        assert documented.get(game_id) == set(game.catalogue(game.parse_options({}))), game_id


def test_settle_doc_names_every_no_roll_reason(page):
    section = _section(page, "A throw")
    reasons = _by_game(section.split("An invalid throw", 1)[1])
    for game_id in games.GAME_IDS:
        assert reasons.get(game_id) == set(games.get(game_id).no_rolls), game_id


def test_settle_doc_example_is_what_settle_answers(page):
    block = _section(page, "An example").split("```sh\n", 1)[1]
    request = block.split("$ cat round.json\n", 1)[1].split("$ dealer-trainer settle", 1)[0]
    answer = block.split("$ dealer-trainer settle < round.json\n", 1)[1].split("$ echo $?", 1)[0]
    assert settle(json.loads(request)) == json.loads(answer)


def test_settle_doc_jsonl_example_is_what_settle_answers(page):
    block = _section(page, "An example").split("```sh\n", 2)[2].split("```", 1)[0]
    requests = re.findall(r"'(\{.*?\})'", block)
    answers = [json.loads(line) for line in block.splitlines() if line.startswith("{")]
    assert len(requests) == len(answers) == 2
    got = []
    for text in requests:
        try:
            got.append(settle(json.loads(text)))
        except RequestError as e:
            got.append({"error": str(e)})
    assert got == answers


if __name__ == "__main__":
    write_readings_doc()
