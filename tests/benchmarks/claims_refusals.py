"""Benchmark of a workstation's push and an exam's step before and after s038 (a refusal kept only
when it can be the sitting's own, a trigger on exam_sitting_refusals) and s039 (new trainee ids
registered only by the login that made them: push_attempts checks the caller's ids).

Run: `.venv/bin/python tests/benchmarks/claims_refusals.py [--measured 50]`.

It starts a real PostgreSQL (the packaged server) and makes two classes: one of the version before
s038, one of today's. In each, the shared workstation login pushes one attempt per push (its
trainee registered first), a push in one class and then in the other, so both meet the same load;
then it sends one honest answer per step of sittings issued and started in each (three items a
sitting, a sitting in one class and then in the other). `--measured` of each are timed: the
medians and the ratios new / old. Times are wall-clock on a shared machine: compare the ratios,
not the milliseconds, across runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg

from tests.benchmarks.class_quota import model, pusher
from tests.support.class_server import Class, start_server
from tests.support.exams import code_of, form, issuer
from trainer.classes.server import ledger as server_ledger
from trainer.classes.workstation.connection import ClassConnection
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link, proof_key
from trainer.progress import Store

#: the migration before s038: a class of the version before
BEFORE = "s037_supervised_rounds"


def stepper(klass: Class, folder: Path, ivy):
    """A function that sends one honest answer of a sitting in `klass` (a new sitting of three
    items issued and started when the last is answered) and returns the seconds it took."""
    exam = form()
    n = len(exam.items)
    for queue in ("queue-i", "queue-w"):
        Store.open(folder / f"{queue}.sqlite").close()
    instructor = ClassConnection(str(folder / "queue-i.sqlite"), klass.address("instructor"))
    station = ClassConnection(str(folder / "queue-w.sqlite"), klass.address("workstation"))
    conn = psycopg.connect(klass.address("workstation").url, autocommit=True)
    state = {"left": 0, "sat": 0}

    def sitting() -> None:
        state["sat"] += 1
        with Store.open(folder / "instructor.sqlite") as ledger:
            token = issue_sitting(ledger, ivy, exam, f"Ana {state['sat']:03d}", classroom=instructor)
        with Store.open(folder / f"ws-{state['sat']}.sqlite") as store:
            trainee = store.add_trainee(f"Ana {state['sat']:03d}")
            start_exam(store, exam, trainee, installation_key(folder / "k"), sitting=token,
                       classroom=station, start_code=code_of(token))
        state.update(key=proof_key(code_of(token), token["nonce"]), nonce=token["nonce"], left=n, step=2)

    def step() -> float:
        if not state["left"]:
            sitting()
        s = state["step"]
        proof = link(state["key"], n, s)
        start = time.perf_counter()
        said = server_ledger.sitting_step(conn, state["nonce"], s, proof, position=s - 2, log="[]")
        took = time.perf_counter() - start
        assert said == "recorded", said
        state["step"] += 1
        state["left"] -= 1
        return took

    return step, lambda: (conn.close(), instructor.close(), station.close())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measured", type=int, default=50, help="pushes and steps timed in each class")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="claims-refusals-"))
    server = start_server(folder / "class")
    try:
        ivy = issuer(InstructorKey.generate("Ivy Park"))
        old, new = Class(server, upto=BEFORE), Class(server)
        trainee, attempt = model(folder)
        pushes = {"before": pusher(old, trainee, attempt)[1], "after": pusher(new, trainee, attempt)[1]}
        (folder / "old").mkdir()
        (folder / "new").mkdir()
        steps = {"before": stepper(old, folder / "old", ivy), "after": stepper(new, folder / "new", ivy)}
        for what, timed in (("push of one attempt", pushes),
                            ("exam step (one answer)", {k: s[0] for k, s in steps.items()})):
            for f in timed.values():  # warm each once
                f()
            took: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.measured):
                for version, f in timed.items():
                    took[version].append(f())
            medians = {v: statistics.median(t) * 1000 for v, t in took.items()}
            print(f"{what}: median of {args.measured}: before {medians['before']:.2f} ms, after "
                  f"{medians['after']:.2f} ms (after / before {medians['after'] / medians['before']:.2f})")
        for _, close in steps.values():
            close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
