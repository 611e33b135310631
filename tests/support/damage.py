"""Damaged progress files: a realistic file made through the real API (trainees, practice, payout
drills, exam attempts), copies of it with one bit flipped, rows damaged after the file was
checked, and every reader of the file run over it."""

from __future__ import annotations

import io
import random
import shutil
import sqlite3
from pathlib import Path

T0 = 1_700_000_000.0


def realistic_file(path: Path, key_path: Path) -> None:
    """Three trainees with four days of practice and payout drills, an instructor, an exam form
    and three exam attempts (passed, failed, left in progress): all through the real API."""
    from tests.support.exams import form, sit
    from trainer.exams import add_form, installation_key
    from trainer.progress import Store
    from trainer.progress.demo import NAMES, seed_demo

    key = installation_key(key_path)
    with Store.open(path) as store:
        ids = seed_demo(store, trainees=NAMES[:3], days=4, seed=7, now=T0)
        store.add_trainee("Ivy", instructor=True, passphrase="correct horse battery")
        exam = form()
        add_form(store, exam)
        sit(store, key, ids["Ana Ruiz"], exam)
        sit(store, key, ids["Ben Cole"], exam, critical_at=1)
        sit(store, key, ids["Cara Diaz"], exam, stop_after=2)


def with_wal(source: Path, dest: Path) -> None:
    """`source` copied to `dest` as a crash leaves it: its last attempts still in a -wal."""
    from tests.support.progress import rec
    from trainer.progress import Store

    work = dest.with_name(dest.name + ".work")
    shutil.copyfile(source, work)
    store = Store.open(work)
    store.db.execute("PRAGMA wal_autocheckpoint = 0")
    tid = store.trainees()[0].id
    for n in range(5):
        store.record_attempt(rec(tid, 900 + n))
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{work}{suffix}", f"{dest}{suffix}")
    store.close()
    for p in work.parent.glob(work.name + "*"):
        p.unlink()


def copy(source: Path, dest: Path) -> None:
    """A progress file and its -wal, if it has one."""
    for suffix in ("", "-wal"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{dest}{suffix}")


def flip(path: Path, rng: random.Random) -> tuple[int, int]:
    """Flip one bit of the file at a random place: (the byte, the bit)."""
    data = bytearray(path.read_bytes())
    at, bit = rng.randrange(len(data)), rng.randrange(8)
    data[at] ^= 1 << bit
    path.write_bytes(bytes(data))
    return at, bit


def flip_at(path: Path, marker: bytes, offset: int, bit: int) -> None:
    """Flip one bit of the byte `offset` bytes into `marker`, which the file holds once."""
    data = bytearray(path.read_bytes())
    at = data.find(marker)
    assert at >= 0 and data.find(marker, at + 1) < 0, f"{marker!r} is not in the file exactly once"
    data[at + offset] ^= 1 << bit
    path.write_bytes(bytes(data))


def beside(path: Path) -> dict[str, bytes]:
    """The file and everything beside it whose name starts with its name (-wal, -shm, and the
    names of any folder or file the store made beside it)."""
    return {p.name: p.read_bytes() if p.is_file() else b"<folder>" for p in path.parent.iterdir()
            if p.name.startswith(path.name) or p.name.startswith(f".{path.name}")}


def damage_rows(path: Path, *, unseen_only: bool = False) -> dict[str, int]:
    """Rows damaged after the file was checked, written past the CHECK constraints: an attempt
    whose log is not JSON, one whose log is JSON but no actions (damage no check of the file
    sees: with `unseen_only`, that one alone), an exam answer whose findings are not JSON, a
    certificate and a form that are not JSON. The ids of the rows so damaged, by what they are."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints = 1")
    columns = [r[1] for r in conn.execute("PRAGMA table_info(attempts)") if r[1] != "id"]
    ana = conn.execute("SELECT id FROM trainees WHERE name = 'Ana Ruiz'").fetchone()[0]
    ids = {}
    logs = {"not json": '[{"do": "pay", "round": 1,', "no actions": '[{"do": "collecT"}]'}
    for name, log in logs.items():
        if unseen_only and name != "no actions":
            continue
        listed = ", ".join(columns)
        chosen = ", ".join("?" if c in ("uid", "log") else c for c in columns)
        cur = conn.execute(f"INSERT INTO attempts ({listed}) SELECT {chosen} FROM attempts "
                           "WHERE trainee_id = ? ORDER BY started DESC LIMIT 1",
                           (f"damaged-{name}", log, ana))
        ids[f"attempt {name}"] = cur.lastrowid
    if unseen_only:
        conn.close()
        return ids
    cara = conn.execute("SELECT id FROM exam_results WHERE trainee_name = 'Cara Diaz'").fetchone()[0]
    answer = [r[1] for r in conn.execute("PRAGMA table_info(exam_answers)") if r[1] != "id"]
    chosen = ", ".join({"position": "2", "findings": "'[{\"kind\": '"}.get(c, c) for c in answer)
    conn.execute(f"INSERT INTO exam_answers ({', '.join(answer)}) SELECT {chosen} FROM exam_answers "
                 "WHERE result_id = ? AND position = 0", (cara,))
    ids["exam result"] = cara
    ana_result = conn.execute("SELECT uid FROM exam_results WHERE trainee_name = 'Ana Ruiz'").fetchone()[0]
    cur = conn.execute("INSERT INTO exam_certificates (result_uid, nonce, certificate, signed) "
                       "VALUES (?, 'no-such-sitting', '{\"record\": ', 0)", (ana_result,))
    ids["certificate"] = cur.lastrowid
    cur = conn.execute("INSERT INTO exam_forms (uid, name, items, time_limit_seconds, pass_mark, "
                       "attempts_allowed, created, created_by, digest) "
                       "VALUES ('damaged', 'Damaged form', '[{\"scenario\": ', 600, 80, 1, 0, 'Ivy', '')")
    ids["form"] = cur.lastrowid
    conn.close()
    return ids


def everything(store) -> int:
    """Read every row of the file through the app's readers (the exports, the exam results and
    forms, the certificates, the class overview and each trainee's attempts, the class queue's
    batch); how many records were read."""
    from trainer.classes.workstation.queue import Queue
    from trainer.exams import certificates, list_forms, results
    from trainer.progress import class_overview, export_csv, export_results, trainee_attempts

    trainees = store.trainees(include_archived=True)
    n = len(trainees) + len(store.attempts()) + len(results(store))
    n += len(list_forms(store, archived=True)) + len(list_forms(store)) + len(certificates(store))
    n += export_results(store, io.StringIO()) + export_csv(store, io.StringIO())
    class_overview(store, now=T0)
    for t in trainees:
        n += len(trainee_attempts(store, t.id))
    queue = Queue(store.path)
    try:
        n += len(queue.batch("a class", 10_000)[0]) + len(queue.trainees())
    finally:
        queue.close()
    return n
