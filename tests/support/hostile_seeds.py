"""The valid inputs the hostile-input fuzz breaks (tests.support.fuzz): made through the engine
as the app makes them, never typed in, so that each is what a trainee's machine really hands over.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

#: bundled scenarios whose logs are graded and exported: one of each game, the Three Dice
#: Football ones at automations where the trainee moves the markers
SCENARIOS = ("ph-take-down-and-refusal", "tdf-rejected-dice-lost-die", "tdf-goal-line-stand",
             "hrd-extra-roll-partial", "hrd6-five-sixes", "pgd-no-rolls")
T0 = 1_700_000_000.0


def settle_requests() -> list[dict]:
    """Valid settle requests of every game, with options, no rolls and take-downs."""
    from tests.benchmarks.rounds import mixed_rounds

    extra = [
        {"game": "props-and-hops", "options": {"hop_regions": {"top": ["1-2", "1-3"], "left": [],
                                                               "right": [], "center": []}},
         "wagers": [{"seat": 1, "bet": "field", "amount": "5"},
                    {"seat": 3, "bet": "six-eight-shake", "amount": "5"}],
         "throws": [{"no_roll": "die-fell-out"}, {"dice": [3, 4]},
                    {"dice": [2, 2], "wagers": [{"seat": 2, "bet": "double-2-2", "amount": "1"}],
                     "take_down": [{"seat": 3, "bet": "six-eight-shake"}]}]},
        {"game": "high-roll-dice-6", "wagers": [{"seat": 1, "bet": "like-kind-none", "amount": "2.50"}],
         "throws": [{"dice": [4, 1, 6, 2, 5, 3]}]},
        {"game": "pai-gow-dice", "options": {"sum_paytable": "C", "beat_it_paytable": "B"},
         "wagers": [{"seat": 2, "bet": "beat-it", "amount": "10"}],
         "throws": [{"no_roll": "die-on-die"}, {"red": 6, "blue": [6, 6]}]},
    ]
    return mixed_rounds(24, seed=29) + extra


def correct(scenario_id: str, automation=None, seconds_each: float = 2.5):
    """(the scenario, its log done right at `automation`, or its own, and the grade)."""
    from tests.support.library import bundled
    from trainer.grading import correct_log, grade
    from trainer.procedure import build

    s = bundled().by_id(scenario_id)
    automation = automation or s.automation
    proc = build(s)
    log = correct_log(proc, automation, seconds_each=seconds_each)
    return s, log, grade(proc, log, automation=automation, game=s.game,
                         target_seconds=s.target_seconds, elapsed=seconds_each * len(log))


def graded_logs() -> list[tuple[str, str, object]]:
    """(scenario id, its text, a log file's JSON): every scenario of SCENARIOS worked right at
    the whole round, in the two shapes `grade --log` reads (a list, or an object with "log")."""
    from trainer.procedure import Automation, Do

    out = []
    for sid in SCENARIOS:
        s, log, _ = correct(sid, Automation.WHOLE_ROUND)
        actions = [a.to_json() for a in log]
        out.append((sid, s.text, {"log": actions, "automation": "whole-round", "elapsed": 61.5}))
        k = next(i for i, a in enumerate(log) if a.do is Do.PAY)
        wrong = [*actions[:k], {**actions[k], "amount": actions[k]["amount"] + 100}, *actions[k + 1:]]
        out.append((sid, s.text, wrong))
    return out


def dealt_rounds() -> list:
    """A practice round and a payout drill, dealt as the app deals them (their ids are seeds)."""
    from trainer.drills import payout_drill, random_round

    return [random_round("props-and-hops", 3, 17), payout_drill("three-dice-football", 5)]


def results_file(path: Path) -> dict:
    """A results file of one trainee, as exported: an attempt at each scenario of SCENARIOS
    (every other one with a payout a dollar off) and at each dealt round of dealt_rounds."""
    import io

    from trainer.practice import PracticeRound
    from trainer.procedure import Do
    from trainer.progress import Store, attempt_of, export_results

    with Store.open(path) as store:
        ana = store.add_trainee("Ana Ruiz")
        from tests.support.library import bundled

        rounds = [bundled().by_id(sid) for sid in SCENARIOS] + dealt_rounds()
        for n, scenario in enumerate(rounds):
            clock = iter(float(k) for k in range(10_000))
            worked = PracticeRound(scenario, clock=lambda clock=clock: next(clock))
            short = n % 2
            while (e := worked.next_expected()) is not None:
                amount = e.amount
                if e.do is Do.PAY and short:
                    amount, short = amount - 100, False
                worked.perform(e.do, seat=e.seat, bet=e.bet, amount=amount, value=e.value)
            record = attempt_of(worked, worked.finish(), trainee_id=ana, ended=T0 + 100 * n + 40)
            store.record_attempt(dataclasses.replace(record, source="station-7"))
        out = io.StringIO()
        export_results(store, out)
    return json.loads(out.getvalue())


def form_file(*, supervise: bool = False) -> dict:
    """An exam form file of two items; with `supervise`, a third: a supervise item (its faults
    dealt from a seed, trainer.exams.forms)."""
    from tests.support.library import bundled
    from trainer.exams import FormItem, new_form

    lib = bundled()
    items = [lib.by_id("ph-first-shake"), lib.by_id("tdf-goal-line-stand")]
    if supervise:
        items.append(FormItem.supervised(lib.by_id("pgd-sum-a-sixteen"), 1, "hostile"))
    return new_form("Hostile input exam", items, time_limit_seconds=900, created_by="Ivy",
                    attempts_allowed=2, uid="hostile-1", created=T0).to_json()


def _exam(items=("ph-take-down-and-refusal", "tdf-rejected-dice-lost-die"), supervised=()):
    from tests.support.exams import form

    return form(ids=items, supervised=supervised)


def sitting_files(folder: Path) -> tuple[list[tuple[dict, str]], object]:
    """A sealed and an unsealed sitting file (their JSON and start codes), and a key of the
    trainee's own to sign a forged one with."""
    from tests.support.exams import issuer
    from trainer.exams.certify import issue_sitting, sign_form, sitting_form
    from trainer.exams.keys import InstructorKey
    from trainer.exams.submission import write_sitting_file
    from trainer.progress import Store

    ivy = issuer(InstructorKey.generate("Ivy Park"))
    exam = _exam()
    files = []
    with Store.open(folder / "sittings-ledger.sqlite") as ledger:
        for sealed in (True, False):
            token = issue_sitting(ledger, ivy, exam, "Sam Lee")
            path = folder / f"seed-{sealed}.sitting"
            code = write_sitting_file(path, token, sign_form(sitting_form(ledger, exam, token), ivy),
                                      sealed=sealed, key=ivy)
            files.append((json.loads(path.read_text(encoding="utf-8")), code))
    return files, InstructorKey.generate("Sam Lee's own key")


def submission(folder: Path):
    """An exam submission of two results sat under sittings (one with a payout a dollar off), on a
    form with a supervise item, the instructor's key, the ledger's path, each sitting's start code
    by nonce, and a moment at which the sittings can still be certified."""
    import time

    from tests.support.exams import code_of, issuer, sit
    from trainer.exams import installation_key
    from trainer.exams.certify import issue_sitting
    from trainer.exams.keys import InstructorKey
    from trainer.exams.submission import export_submission
    from trainer.progress import Store

    ivy = issuer(InstructorKey.generate("Ivy Park"))
    exam = _exam(supervised=(("pgd-sum-a-sixteen", 1, "hostile"),))  # its flags are hostile too
    ledger_path = folder / "ledger.sqlite"
    now = time.time()
    with Store.open(ledger_path) as ledger:
        tokens = [issue_sitting(ledger, ivy, exam, "Sam Lee", now=now) for _ in range(2)]
    with Store.open(folder / "workstation.sqlite") as ws:
        sam = ws.add_trainee("Sam Lee")
        secret = installation_key(folder / "installation.key")
        for n, token in enumerate(tokens):
            sit(ws, secret, sam, exam, sitting=token, critical_at=0 if n else None)
        export_submission(ws, folder / "submission.json")
    doc = json.loads((folder / "submission.json").read_text(encoding="utf-8"))
    return doc, ivy, ledger_path, {t["nonce"]: code_of(t) for t in tokens}, now


def certificates(folder: Path):
    """A certificates file (the two results of `submission` certified), its signer's public key
    file, and the signer (to sign a forged one with the trusted key, as if it were stolen)."""
    from trainer.exams.keys import write_public_key
    from trainer.exams.submission import certify_submission
    from trainer.progress import Store

    _, ivy, ledger_path, _, now = submission(folder)
    path = folder / "submission.json"
    with Store.open(ledger_path) as ledger:
        summary = certify_submission(ledger, ivy, path, now=now)
    assert len(summary.certificates) == 2, summary.refused
    public = folder / "ivy.pub"
    write_public_key(public, ivy.public)
    return summary.certificates, public, ivy
