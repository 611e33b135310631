"""Demonstration exam results (screenshots): a few trainees sit the example forms with the
mistakes of trainer.progress.demo; half sit under a sitting the instructor issued, and those
the instructor certifies."""

from __future__ import annotations

import random

from trainer.exams.certify import certify, issue_sitting, sitting_form
from trainer.exams.formstore import list_forms
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import start_code
from trainer.exams.records import portable_record
from trainer.exams.session import start_exam
from trainer.grading import correct_log, grade
from trainer.procedure import build
from trainer.progress.demo import flawed
from trainer.progress.store import Store


def sit_demo_exams(store: Store, key: bytes, trainees: dict[str, int], instructor: InstructorKey,
                   seed: int = 2) -> list[int]:
    rng = random.Random(seed)
    done = []
    forms = list_forms(store)
    for n, (name, tid) in enumerate(sorted(trainees.items())[:4]):
        form, token, code = forms[n % len(forms)], None, None
        if n % 2 == 0:  # the proctor types the start code
            token = issue_sitting(store, instructor, form, name)
            form, code = sitting_form(store, form, token), start_code(instructor, token["nonce"])
        session = start_exam(store, form, tid, key, sitting=token, start_code=code)
        for p in range(len(session.form.items)):
            s = session.scenario(p)
            proc = build(s)
            log = flawed(correct_log(proc, s.automation, seconds_each=3.0), rng, 0.03 * n)
            result = grade(proc, log, automation=s.automation, game=s.game,
                           target_seconds=s.target_seconds, elapsed=s.target_seconds * 0.8)
            session.record(p, result, log)
        rid = session.result.id
        done.append(rid)
        if token is not None:
            certify(store, instructor, portable_record(store, rid), token)
    return done
