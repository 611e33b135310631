"""Benchmark of `export-results --class`'s memory on a large class.

Run: `.venv/bin/python tests/benchmarks/export_memory.py [--attempts 2000] [--actions 2000]
[--rounds 1000] [--no-claim] [--tree DIR ...]`.

It starts a real PostgreSQL (the packaged server), makes a class and pushes `--attempts`
practice attempts of two trainees through the shared workstation login, each with a log of
`--actions` actions (2,000, the most the class keeps, is about 110 KB of log), and `--rounds`
supervised rounds of theirs (four faults each, three flags); then, unless `--no-claim`, the
second trainee's id is claimed by another trainee's own login and the instructor settles it the
claimant's, so that the xAPI export voids a statement of each of that id's attempts. It then runs
`dealer-trainer export-results --class` as a program of its own, once as a CSV transcript and
once as xAPI statements, and prints for each its peak resident memory (the kernel's count for
that process, from wait4), its time and its CPU (user and system, from wait4: on a shared
machine, the measure to compare). The program runs from this tree, or from each `--tree DIR`
(other checkouts: their exports measured against the same class). Times are wall-clock.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psycopg
from psycopg.types.json import Jsonb

from tests.support.class_server import T0, Class, start_server

BATCH = 50


def attempts(count: int, actions: int):
    """`count` practice attempts of two trainees, as a workstation sends them."""
    log = [{"do": "pay", "round": 1 + i // 20, "at": 2.5 + i, "amount": 500 + i} for i in range(actions)]
    trainees = [dict(name=name, created=T0 - 86400, archived=0, archived_at=None, instructor=0,
                     uid=uuid.uuid4().hex) for name in ("Ana Ruiz", "Bo Chen")]
    batch: list[dict] = []
    for n in range(count):
        started = T0 + 60 * n
        batch.append(dict(uid=uuid.uuid4().hex, item_id="ph-seven-out", game="props-and-hops",
                          mode="scenario",
                          seed=None, started=started, ended=started + 30, duration=30, target=45,
                          procedure=90, payouts=90, speed=90, total=90, passed=1, critical=0, abandoned=0,
                          log=json.dumps(log), source="Table 1", rule=2, trainee_uid=trainees[n % 2]["uid"],
                          skills=["payouts"], findings=[]))
        if len(batch) == BATCH or n == count - 1:
            yield {"trainees": trainees, "attempts": batch}
            batch = []


def supervised(count: int, trainees: list[dict]):
    """`count` supervised rounds of the trainees in turn, as a workstation sends them, in batches
    of at most 1,000 (push_supervised's bound): a scripted round with four faults, two caught,
    and a false alarm (s041's checks: the deal's id, the round's uid, the faults of the
    catalogue, a flag for each fault caught and each false alarm)."""
    from trainer.progress.supervised import round_uid

    batch: list[dict] = []
    for n in range(count):
        flags = [{"at": 3.5 + k, "target": "player-1", "kind": "ph-loser-paid"} for k in range(3)]
        faults = [{"n": k, "kind": "ph-loser-paid", "fault_class": "money", "caught": k < 2,
                   "seconds": 1.5 if k < 2 else None} for k in range(4)]
        trainee, finished = trainees[n % 2]["uid"], T0 + 60 * n + 45
        deal = f"supervise-v1:ph-first-shake:4:{n}"
        batch.append({"uid": round_uid(trainee, deal, finished), "trainee_uid": trainee,
                      "round_uid": deal, "game": "props-and-hops", "difficulty": 2,
                      "finished": finished, "pace": 1.5, "score": "3/4", "d_prime": 1.25,
                      "false_alarms": 1, "flags": json.dumps(flags), "faults": faults})
        if len(batch) == 1000 or n == count - 1:
            yield batch
            batch = []


def settled(klass: Class, uid: str) -> None:
    """The trainee id `uid` claimed by Cy Park's own login, and settled hers by the instructor."""
    from trainer.classes.server.logins import class_login
    from trainer.classes.server.people import settle
    from trainer.classes.workstation.connection import ClassLedger

    with klass.connect("instructor") as instructor:
        cy = class_login(instructor, "Cy Park", "cy-park-password")
    said = ClassLedger(klass.address()).claim_profile("Cy Park", uid, T0 - 86400, "cy-park-password")
    if said != "held":
        raise SystemExit(f"the claim was not held: {said}")
    with klass.connect("instructor") as instructor:
        settle(instructor, uid, cy, "the sign-in sheet has Cy at that table")


def measured(tree: Path, args: list[str]) -> tuple[float, float, float]:
    """The program's peak resident memory (MB), its time (s) and its CPU (s: user and system),
    run from `tree`."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "trainer", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(tree)},
                             cwd=tree)  # `-m` puts the folder it runs in first
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"export-results failed ({child.returncode}): {child.stderr.read().decode()}")
    return usage.ru_maxrss / 1024, took, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--no-claim", action="store_true", help="no trainee id settled a claimant's")
    parser.add_argument("--tree", type=Path, action="append",
                        help="a checkout whose export-results is measured (default: this one; may be "
                             "given more than once)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dealer-trainer-bench-"))
    folder.chmod(0o755)
    server = start_server(folder / "class")
    try:
        klass = Class(server)
        trainees: list[dict] = []
        with klass.connect("workstation") as conn:
            for batch in attempts(args.attempts, args.actions):
                trainees = batch["trainees"]
                with conn.transaction():
                    conn.execute("SELECT push_attempts(%s)", (Jsonb(batch),))
            for rounds in supervised(args.rounds, trainees):
                with conn.transaction():
                    conn.execute("SELECT push_attempts(%s)", (Jsonb({"trainees": trainees, "attempts": []}),))
                    conn.execute("SELECT push_supervised(%s)", (Jsonb({"rounds": rounds}),))
        if not args.no_claim:
            settled(klass, trainees[1]["uid"])
        with klass.admin() as conn:
            logs = conn.execute("SELECT sum(octet_length(log::text)) FROM attempts").fetchone()[0]
        print(f"{args.attempts:,} attempts, {logs / 1e6:.0f} MB of logs, {args.rounds:,} supervised rounds, "
              + ("no claim settled" if args.no_claim else f"{trainees[1]['name']}'s id settled Cy Park's"))
        url = klass.address("instructor").url
        for tree in args.tree or [Path(__file__).resolve().parents[2]]:
            print(f"export-results of {tree}")
            for fmt in ("csv", "xapi"):
                out = folder / f"class.{fmt}"
                rss, took, cpu = measured(tree, ["export-results", "--class", url, "--format", fmt,
                                                 "--out", str(out)])
                print(f"  {fmt}: peak RSS {rss:,.0f} MB in {took:.1f} s ({cpu:.1f} s of CPU); "
                      f"{out.stat().st_size / 1e6:.1f} MB "
                      f"written, {hashlib.sha256(out.read_bytes()).hexdigest()[:12]}")
    except psycopg.Error as e:
        raise SystemExit(f"the class could not be made: {e}") from None
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
