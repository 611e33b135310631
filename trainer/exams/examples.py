"""The example forms shipped in resources/exams/, one per game: what each holds, and how to
write them again (`python -m trainer.exams.examples`) after their bundled scenarios change.

Each embeds four bundled scenarios (High Roll Dice's includes one of the 6-dice variation,
§ 675a.6), allows two attempts, passes at 80, and gives twice the scenarios' target times, in
whole minutes: time to work each round with care, not to look anything up.
"""

from __future__ import annotations

import sys
from pathlib import Path

from trainer.exams.forms import ExamForm, new_form, write_form
from trainer.library import load_library
from trainer.paths import resources_dir

CREATED = 1767225600.0  # 2026-01-01 00:00 UTC: fixed, so that writing them again changes nothing
EXAMPLES = {
    "props-and-hops": ("Props & Hops: dealer certification (example)",
                       ("ph-first-shake", "ph-no-roll-calls", "ph-six-eight-shake-pays",
                        "ph-improper-wagers")),
    "three-dice-football": ("Three Dice Football: dealer certification (example)",
                            ("tdf-opening-drive", "tdf-turnover-third-down", "tdf-no-roll-drill-throws",
                             "tdf-improper-wagers")),
    "high-roll-dice": ("High Roll Dice: dealer certification (example)",
                       ("hrd-four-fives", "hrd-extra-roll-partial", "hrd-wager-rules", "hrd6-three-pairs")),
    "pai-gow-dice": ("Pai Gow dice wagers: dealer certification (example)",
                     ("pgd-sum-a-sixteen", "pgd-beat-it-by-four", "pgd-no-rolls", "pgd-improper-wagers")),
}


def example_forms() -> dict[str, ExamForm]:
    """The example forms built from the bundled scenarios as they are now, by game."""
    lib = load_library()
    out = {}
    for game, (name, ids) in EXAMPLES.items():
        scenarios = [lib.by_id(i) for i in ids]
        missing = [i for i, s in zip(ids, scenarios, strict=True) if s is None]
        if missing:
            raise LookupError(f"the example form for {game} uses scenarios not in the library: {missing}")
        limit = -(-2 * sum(s.target_seconds for s in scenarios) // 60) * 60
        out[game] = new_form(name, scenarios, time_limit_seconds=limit, pass_mark=80, attempts_allowed=2,
                             created_by="Dealer Trainer (example form)", uid=f"example-{game}-1",
                             created=CREATED)
    return out


def write_examples(folder: Path | None = None) -> list[Path]:
    folder = folder or resources_dir() / "exams"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, form in example_forms().items():
        write_form(form, folder / f"{game}.json")
        written.append(folder / f"{game}.json")
    return written


if __name__ == "__main__":
    for path in write_examples(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(path)
