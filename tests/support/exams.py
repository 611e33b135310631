"""An exam form of three bundled items, and sitting it through the engine."""

from __future__ import annotations

import dataclasses

from tests.support.library import bundled
from trainer.exams import FormItem, new_form, start_exam
from trainer.grading import correct_log, grade
from trainer.procedure import Do, build
from trainer.supervise.scoring import Flag

PASS = "correct horse battery"


def form(ids=("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive"), *, supervised=(), **more):
    """`supervised`: (scenario id, faults, seed) of supervise items after the dealer's items."""
    lib = bundled()
    items = [*(lib.by_id(i) for i in ids),
             *(FormItem.supervised(lib.by_id(i), faults, seed) for i, faults, seed in supervised)]
    return new_form("Floor supervisor exam", items, time_limit_seconds=900,
                    created_by="Ivy", attempts_allowed=3, uid="floor-1", **more)


#: the instructor keys the tests issue sittings with, by public key: a sitting's start code comes
#: from the key that issued it (trainer.exams.proof), and the proctor types it at the start
ISSUERS: dict[bytes, object] = {}


def issuer(key):
    """An instructor key whose sittings the tests can start (their start codes derived from it)."""
    ISSUERS[key.public.raw] = key
    return key


def code_of(token: dict | None) -> str | None:
    """The start code the proctor types for this sitting (None for a token that asks none)."""
    from trainer.exams.proof import start_code

    if not token or not token.get("proof"):
        return None
    key = ISSUERS.get(bytes.fromhex(token["signer"]["public"]))
    return start_code(key, token["nonce"]) if key is not None else None


def sit(store, key, trainee_id, exam, *, critical_at: int | None = None, stop_after: int | None = None,
        sitting: dict | None = None, classroom=None, missed_call_at: int | None = None):
    """Sit an exam (under a sitting token, if given; counted by a class, if joined to one, and
    its answers sent there); the ended result (or the session, still open, if `stop_after`).
    `critical_at`: that item pays one payout a dollar over; `missed_call_at`: that item leaves
    its first call undone. A supervise item is answered by a supervisor who flags every fault 1 s
    after it shows (at `critical_at`, all but the first)."""
    session = start_exam(store, exam, trainee_id, key, sitting=sitting, classroom=classroom,
                         start_code=code_of(sitting))
    for p in range(len(exam.items)):
        if stop_after is not None and p == stop_after:
            return session
        if session.supervises(p):
            faults = session.form.round(p).faults[1 if p == critical_at else 0:]  # as this sitting dealt it
            session.record_flags(p, [Flag(f.at + 1, f.target, f.type.id) for f in faults])
            continue
        s = session.scenario(p)
        proc = build(s)
        log = correct_log(proc, s.automation)
        if p == critical_at:  # one payout a dollar off: a critical error
            k = next(i for i, a in enumerate(log) if a.do is Do.PAY)
            log[k] = dataclasses.replace(log[k], amount=log[k].amount + 100)
        if p == missed_call_at:  # the dice never announced: a major finding
            log.remove(next(a for a in log if a.do is Do.ANNOUNCE))
        session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                                target_seconds=s.target_seconds), log)
    sent(store, classroom)
    return session.result


def sent(store, classroom) -> int:
    """Send what waits in the progress file for the class now, as the app's background pusher
    would (the tests' class connections push nothing in the background, and from a file of
    their own); how many steps and attempts were sent."""
    from trainer.classes.workstation.push import class_uid, connect, send_waiting
    from trainer.classes.workstation.queue import Queue

    if classroom is None or store.path == ":memory:":
        return 0
    queue = Queue(store.path)
    try:
        with connect(classroom.address) as conn:
            return send_waiting(conn, queue, class_uid(conn))
    finally:
        queue.close()
