"""Benchmark of a class sitting one exam at once on its class server: from the start to
the certificates, with each answer sent to the server as it is given.

Run: `.venv/bin/python tests/benchmarks/exam_class.py [--trainees 30] [--items 6]
[--item-seconds 2] [--from-record] [--folder DIR]`.

It starts a real PostgreSQL on this machine (the packaged server, as `dealer-trainer class-server`
does) and makes a class, then:

1. the instructor issues one sitting of a form of `--items` items to each trainee, recorded on the
   class server (its verifier too), from the instructor's own file;
2. each trainee is a process with its own progress file and the app's class connection (the
   background pusher, `ClassConnection`): at one moment they all start their sitting with its
   start code (`start_exam`, which proves the code to the server and is counted there), then
   answer each item (`ExamSession.record`; the answers are graded before the clock starts, and
   a trainee takes `--item-seconds` an item), and wait until the file has nothing left to send;
3. the instructor certifies the class's results (`certify_submission --class`): each checked
   against the server's record of its sitting, re-graded and signed, and kept on the server;
   with `--from-record`, nothing is handed in and each sitting is certified from the server's
   record alone (`certify_class`, `dealer-trainer certify --class` with no submission).

Reported, p50 and p95 over the class: the time to start, from the start code typed (the call to
`start_exam`, every trainee at once) to the class server's record of the start (its own receipt
time, same machine) and to the first item ready to show (its scenario opened from the sealed
sitting and its expected procedure built, what the practice screen draws from; the drawing
itself is the table benchmarks'); the time from an answer given (the call to `record`) to the
class server holding it, with the time `record` itself takes (the answer in the file and, sat
online, sent and acknowledged before it returns); the time to certify the class, in all and a
result. The machine's load (1-minute load average, and the cores) is printed before and after:
times are wall-clock on a shared machine: compare the ratios, not the milliseconds, across runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.class_server import Class, start_server
from trainer.classes.workstation.connection import ClassConnection, ClassLedger
from trainer.exams.certify import issue_sitting, sitting_form
from trainer.exams.forms import new_form, read_form, write_form
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import start_code
from trainer.exams.records import portable_record
from trainer.exams.session import start_exam
from trainer.exams.submission import SUBMISSION, certify_class, certify_submission
from trainer.exams.trust import installation_key
from trainer.grading import correct_log, grade
from trainer.library import load_library
from trainer.procedure import build
from trainer.progress.store import Store

ITEMS = ("ph-first-shake", "pgd-sum-a-sixteen", "tdf-opening-drive", "hrd-four-fives", "ph-hop-breakage",
         "pgd-sum-b-eight", "hrd-tie-goes-to-ace", "ph-four-hop-regions", "pgd-beat-it-by-four",
         "hrd-pairs-only", "ph-under-and-over", "pgd-sum-c-pair")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def line(label: str, value: str, note: str = "") -> None:
    print(f"{label:<62}{value:>12}  {note}")


def exam_form(items: int):
    lib = load_library()
    chosen = [lib.by_id(i) for i in ITEMS[:items]]
    return new_form("Benchmark exam", chosen, time_limit_seconds=3600, created_by="Ivy",
                    attempts_allowed=3, uid="bench-1")


def load(when: str) -> str:
    """The machine's load: its 1-, 5- and 15-minute load averages and its cores."""
    one, five, fifteen = os.getloadavg()
    return f"load {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {os.cpu_count()} cores"


# --------------------------------------------------------------------------- a trainee's workstation
def trainee(k: int, folder: str, url: str, item_seconds: float, start_at: float) -> None:
    """One workstation: its progress file and class connection; the sitting started at
    `start_at`, each item answered `item_seconds` apart, then waits for the queue to empty."""
    run = Path(folder)
    sitting = json.loads((run / f"sitting-{k:02d}.json").read_text())
    token, code = sitting["token"], sitting["code"]
    exam = read_form(run / f"form-{k:02d}.json")
    path = run / f"ws-{k:02d}.db"
    store = Store.open(path)
    tid = store.add_trainee(token["trainee"])
    key = installation_key(run / f"ws-{k:02d}.key")
    answers = []
    for s in exam.scenarios:  # graded before the clock starts: the answers are what is timed
        proc = build(s)
        log = correct_log(proc, s.automation)
        answers.append((grade(proc, log, automation=s.automation, game=s.game,
                              target_seconds=s.target_seconds), log))
    conn = ClassConnection(str(path), url, poll=30.0)
    conn.start()
    time.sleep(max(0.0, start_at - time.monotonic()))
    typed = time.time()  # the start code typed: the same clock as the server's receipt times
    t = time.perf_counter()
    session = start_exam(store, exam, tid, key, sitting=token, start_code=code, classroom=conn)
    started = time.perf_counter() - t
    first = session.scenario(0)
    build(first)  # the first item, ready for the practice screen to draw
    shown = time.time()
    given = []
    for p, (result, log) in enumerate(answers):
        time.sleep(item_seconds)
        at = time.time()
        t = time.perf_counter()
        session.record(p, result, log)
        given.append({"position": p, "at": at, "record": time.perf_counter() - t})
    deadline = time.monotonic() + 120
    while conn.waiting() and time.monotonic() < deadline:
        time.sleep(0.02)
    waiting = conn.waiting()
    conn.close()
    record = portable_record(store, session.result.id)
    store.close()
    (run / f"ws-{k:02d}.json").write_text(json.dumps({
        "nonce": token["nonce"], "start": started, "typed": typed, "shown": shown, "given": given,
        "waiting": waiting,
        "result": {"record": record, "sitting": token}}))


# --------------------------------------------------------------------------- the class
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainees", type=int, default=30)
    ap.add_argument("--items", type=int, default=6, help=f"at most {len(ITEMS)}")
    ap.add_argument("--item-seconds", type=float, default=2.0, help="the time a trainee takes an item")
    ap.add_argument("--from-record", action="store_true", help="hand nothing in: certify every "
                    "sitting from the class server's record")
    ap.add_argument("--folder", type=Path, help="where the server and the files go (default: a "
                    "temporary folder, removed afterwards)")
    args = ap.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="exam-class-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    run = folder / "run"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir()
    print(f"{args.trainees} trainees sit one exam of {args.items} items at once, one item every "
          f"{args.item_seconds:g} s")
    print(load("before"))
    server = start_server(folder / "server")
    try:
        klass = Class(server)
        ivy = InstructorKey.generate("Ivy Park")
        exam = exam_form(args.items)
        instructor = ClassLedger(klass.address("instructor"))
        ledger = Store.open(run / "instructor.db")
        t = time.perf_counter()
        for k in range(args.trainees):
            token = issue_sitting(ledger, ivy, exam, f"Trainee {k:02d}", classroom=instructor)
            write_form(sitting_form(ledger, exam, token), run / f"form-{k:02d}.json")
            (run / f"sitting-{k:02d}.json").write_text(json.dumps(
                {"token": token, "code": start_code(ivy, token["nonce"])}))
        issued = time.perf_counter() - t

        spawn = multiprocessing.get_context("spawn")
        start_at = time.monotonic() + 5 + 0.2 * args.trainees  # every process up, its file made
        url = klass.address("workstation").url
        processes = [spawn.Process(target=trainee, args=(k, str(run), url, args.item_seconds, start_at))
                     for k in range(args.trainees)]
        for p in processes:
            p.start()
        for p in processes:
            p.join()
        done = [json.loads((run / f"ws-{k:02d}.json").read_text()) for k in range(args.trainees)]

        with klass.admin() as admin:
            received = {(n, p): at for n, p, at in admin.execute(
                "SELECT nonce, position, received FROM exam_sitting_steps WHERE kind = 'answer'")}
            refusals = admin.execute("SELECT count(*) FROM exam_sitting_refusals").fetchone()[0]
            opened = dict(admin.execute(
                "SELECT nonce, received FROM exam_sitting_steps WHERE kind = 'start'").fetchall())
        reach = [received[(d["nonce"], g["position"])] - g["at"] for d in done for g in d["given"]
                 if (d["nonce"], g["position"]) in received]
        records = [g["record"] for d in done for g in d["given"]]
        starts = [d["start"] for d in done]
        to_server = [opened[d["nonce"]] - d["typed"] for d in done if d["nonce"] in opened]
        to_shown = [d["shown"] - d["typed"] for d in done]

        submission = run / "submission.json"
        submission.write_text(json.dumps({"format": SUBMISSION, "version": 1, "exported": time.time(),
                                          "source": "bench", "results": [d["result"] for d in done]}))
        t = time.perf_counter()
        if args.from_record:  # nothing handed in: every sitting from the server's record
            summary = certify_class(ledger, ivy, instructor)
        else:
            summary = certify_submission(ledger, ivy, submission, classroom=instructor)
        certifying = time.perf_counter() - t
        ledger.close()

        given = sum(len(d["given"]) for d in done)
        print(f"\n{given} answers given, {len(reach)} on the server, {refusals} refused, "
              f"{sum(d['waiting'] for d in done)} still waiting; {len(summary.certificates)} "
              f"certified, {len(summary.refused)} refused")
        for why in summary.refused[:3]:
            print(f"  refused: {why}")
        line("issue the class's sittings (on the server too), each",
             f"{1000 * issued / args.trainees:.0f} ms")
        line("code typed to the server's start recorded, p50", f"{1000 * percentile(to_server, 50):.0f} ms")
        line("code typed to the server's start recorded, p95", f"{1000 * percentile(to_server, 95):.0f} ms",
             f"max {1000 * max(to_server):.0f} ms")
        line("code typed to the first item shown, p50", f"{1000 * percentile(to_shown, 50):.0f} ms")
        line("code typed to the first item shown, p95", f"{1000 * percentile(to_shown, 95):.0f} ms",
             f"max {1000 * max(to_shown):.0f} ms")
        line("start a sitting (start_exam, proven and counted), median",
             f"{1000 * statistics.median(starts):.0f} ms")
        line("an answer given to the server holding it, p50", f"{1000 * percentile(reach, 50):.0f} ms")
        line("an answer given to the server holding it, p95", f"{1000 * percentile(reach, 95):.0f} ms",
             f"max {1000 * max(reach):.0f} ms")
        line("record (in the file, sent and acknowledged), median",
             f"{1000 * statistics.median(records):.1f} ms")
        line("record, p95", f"{1000 * percentile(records, 95):.1f} ms")
        how = ", nothing handed in" if args.from_record else ""
        line(f"certify the class (--class{how}), all", f"{certifying:.2f} s",
             f"{1000 * certifying / max(1, len(done)):.0f} ms a result")
        print(load("after"))
    finally:
        server.stop()
        if args.folder is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
