"""Demonstration exam results (screenshots): a few trainees sit the example forms with the
mistakes of trainer.progress.demo, and the instructor signs some off."""

from __future__ import annotations

import random

from trainer.exams.formstore import list_forms
from trainer.exams.session import start_exam
from trainer.exams.trust import sign_off
from trainer.grading import correct_log, grade
from trainer.procedure import build
from trainer.progress.demo import flawed
from trainer.progress.store import Store


def sit_demo_exams(store: Store, key: bytes, trainees: dict[str, int], instructor: int,
                   passphrase: str, seed: int = 2) -> list[int]:
    rng = random.Random(seed)
    done = []
    forms = list_forms(store)
    for n, (_, tid) in enumerate(sorted(trainees.items())[:4]):
        form = forms[n % len(forms)]
        session = start_exam(store, form, tid, key)
        for p in range(len(form.items)):
            s = session.scenario(p)
            proc = build(s)
            log = flawed(correct_log(proc, s.automation, seconds_each=3.0), rng, 0.03 * n)
            result = grade(proc, log, automation=s.automation, game=s.game,
                           target_seconds=s.target_seconds, elapsed=s.target_seconds * 0.8)
            session.record(p, result, log)
        done.append(session.result.id)
        if n % 2 == 0:
            sign_off(store, session.result.id, instructor, passphrase, key)
    return done
