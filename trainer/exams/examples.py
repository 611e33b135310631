"""The example forms shipped in resources/exams/, one per game: what each holds, and how to
write them again (`python -m trainer.exams.examples`) after their exam items change.

Each embeds four exam items of its own (resources/exams/items/, never practice scenarios; High
Roll Dice's includes one of the 6-dice variation, § 675a.6), allows two attempts, passes at 80,
and gives twice the items' target times, in whole minutes: time to work each round with care,
not to look anything up.

Beside them, an example floor supervisor's form (`SUPERVISOR`): one supervise item of each
game's exam items, the dealer's faults dealt from a fixed seed (anyone prints them: a sitting of
the form deals its own, trainer.exams.proof `deal_seed`), and twice the time the dealers take,
in whole minutes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from trainer.exams.forms import ExamForm, FormItem, new_form, write_form
from trainer.paths import resources_dir
from trainer.scenario import Scenario, load
from trainer.supervise.rounds import PACE, supervise

CREATED = 1767225600.0  # 2026-01-01 00:00 UTC: fixed, so that writing them again changes nothing
#: the forms' version: a form never changes, so new content takes a new uid (add_bundled_forms
#: archives the examples it replaces)
EDITION = 2
EXAMPLES = {
    "props-and-hops": ("Props & Hops: dealer certification (example)",
                       ("exam-ph-01", "exam-ph-02", "exam-ph-03", "exam-ph-04")),
    "three-dice-football": ("Three Dice Football: dealer certification (example)",
                            ("exam-tdf-01", "exam-tdf-02", "exam-tdf-03", "exam-tdf-04")),
    "high-roll-dice": ("High Roll Dice: dealer certification (example)",
                       ("exam-hrd-01", "exam-hrd-02", "exam-hrd-03", "exam-hrd6-04")),
    "pai-gow-dice": ("Pai Gow dice wagers: dealer certification (example)",
                     ("exam-pgd-01", "exam-pgd-02", "exam-pgd-03", "exam-pgd-04")),
}

#: the example floor supervisor's form: its name, and each supervise item's exam item and the
#: faults dealt into it beside those it scripts. Edition 2 dealt the Pai Gow item one fault: of
#: the few dozen ways to deal it, the commonest came up about one sitting in nine (26 deals over
#: 300 sittings); with three, 249 (each of 58 Pa. Code § 645c.2(e), (f) or (g), or § 645c.2
#: whole for a wager paid twice: trainer.supervise.catalogue)
SUPERVISOR = ("Floor supervisor: catch the dealer (example)",
              (("exam-ph-03", 2), ("exam-tdf-03", 2), ("exam-hrd-03", 2), ("exam-pgd-03", 3)))
#: the floor supervisor's form's own edition (its uid's number), raised when its items change:
#: a sitting issued on an earlier one is certified on it (the instructor's file keeps it, archived)
SUPERVISOR_EDITION = 3
SUPERVISOR_SEED = "example"
SUPERVISOR_FILE = "floor-supervisor.json"


def exam_items(folder: Path | None = None) -> dict[str, Scenario]:
    """The exam items (resources/exams/items/<game>/*.toml) by id: scenarios of their own, never
    practice scenarios, with no briefing that gives the answer."""
    folder = folder or resources_dir() / "exams" / "items"
    return {s.id: s for s in (load(p) for p in sorted(folder.glob("*/*.toml")))}


def example_forms() -> dict[str, ExamForm]:
    """The example forms built from the exam items as they are now, by game."""
    items = exam_items()
    out = {}
    for game, (name, ids) in EXAMPLES.items():
        missing = [i for i in ids if i not in items]
        if missing:
            raise LookupError(f"the example form for {game} uses exam items that are not there: {missing}")
        scenarios = [items[i] for i in ids]
        limit = -(-2 * sum(s.target_seconds for s in scenarios) // 60) * 60
        out[game] = new_form(name, scenarios, time_limit_seconds=limit, pass_mark=80, attempts_allowed=2,
                             created_by="Dealer Trainer (example form)", uid=f"example-{game}-{EDITION}",
                             created=CREATED)
    return out


def supervisor_form() -> ExamForm:
    """The example floor supervisor's form, built from the exam items as they are now."""
    items = exam_items()
    name, picked = SUPERVISOR
    made = [FormItem.supervised(items[i], faults, SUPERVISOR_SEED, PACE) for i, faults in picked]
    watched = sum(len(supervise(items[i], faults, SUPERVISOR_SEED, PACE).log) * PACE for i, faults in picked)
    return new_form(name, made, time_limit_seconds=int(-(-2 * watched // 60) * 60), pass_mark=80,
                    attempts_allowed=2, created_by="Dealer Trainer (example form)",
                    uid=f"example-supervisor-{SUPERVISOR_EDITION}", created=CREATED)


def write_examples(folder: Path | None = None) -> list[Path]:
    folder = folder or resources_dir() / "exams"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, form in example_forms().items():
        write_form(form, folder / f"{game}.json")
        written.append(folder / f"{game}.json")
    write_form(supervisor_form(), folder / SUPERVISOR_FILE)
    written.append(folder / SUPERVISOR_FILE)
    return written


if __name__ == "__main__":
    for path in write_examples(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(path)
