"""The class's export is read and written as the server sends it: `export-results --class` held
the whole class in memory (the fourth cold review: 544 MB of logs took 1.19 GB), since every
attempt, its log parsed, was read before the first was written. Now the attempts come through
server-side cursors a few at a time (trainer.classes.workstation.results.streamed) and each is
written as it comes (trainer.progress.handoff), and what is written is what the export held
whole wrote. The memory measured on a large class: tests/benchmarks/export_memory.py."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

from tests.support.class_server import T0, attempt, push_all
from tests.support.export_memory import exported, findings, peak
from trainer.classes.server.retractions import retract
from trainer.classes.workstation import results
from trainer.classes.workstation.results import class_lines, server_lines
from trainer.progress.handoff import Certified, Line, file_lines, one_person_each, statements, write
from trainer.progress.store import Store


def a_class(tmp_path, klass, counts: dict[str, int], **more) -> None:
    """These trainees' attempts (attempt n of each started at T0 + 60 n s) pushed to the class."""
    path = tmp_path / "ws.db"
    with Store.open(path) as store:
        for name, count in counts.items():
            tid = store.add_trainee(name)
            for n in range(count):
                store.record_attempt(attempt(tid, n, **more))
    assert push_all(path, klass) == sum(counts.values())


def certificate(trainee: str, minute: float, total: int) -> Certified:
    return Certified(trainee=trainee, result=f"result-{trainee}-{minute}", form="Floor exam",
                     form_uid="floor-1", certified=T0 + 86400,
                     status="passed" if total >= 80 else "failed", passed=total >= 80, total=total,
                     signer="Ivy Park", fingerprint="ab12", code="ABCD-EFGH", sat=T0 + 60 * minute)


def test_the_streamed_export_is_what_the_export_held_whole_wrote(tmp_path, klass, monkeypatch):
    """A small class read two rows at a time, so that an attempt's findings and skills are met
    across the cursors' fetches; one attempt retracted; certificates sat between attempts, at
    the same minute as one, and after all of them; statements replacing those of another base."""
    monkeypatch.setattr(results, "ITERSIZE", 2, raising=False)  # none before the stream
    a_class(tmp_path, klass, {"Ana": 7, "Bo": 5})
    with klass.connect("instructor") as conn:
        whole = server_lines(conn)
        retract(conn, whole[3].attempt.uid, "played by her brother")
        left_whole: list[str] = []
        accounts_whole: dict[str, str] = {}
        whole = server_lines(conn, left_out=left_whole, accounts=accounts_whole)
    certs = [certificate("Bo", 2.5, 91), certificate("Ana", 3, 60), certificate("Ana", 99, 85)]
    base, before = "https://lms.example.com/dt/", ("https://old.example.com/", "https://old.example.com/dt/")
    expected = json.dumps(statements(whole, certified=certs, activity_base=base, replaces=before,
                                     accounts=accounts_whole), ensure_ascii=False, indent=1) + "\n"
    left: list[str] = []
    accounts: dict[str, str] = {}
    out = io.StringIO()
    n = write(class_lines(klass.address("instructor"), left_out=left, accounts=accounts), out, "xapi",
              certified=certs, activity_base=base, replaces=before, accounts=accounts)
    assert out.getvalue() == expected and n == len(json.loads(expected)) == 11 + 3 + 14
    assert left == left_whole and len(left) == 1 and "played by her brother" in left[0]

    out = io.StringIO(newline="")
    write(class_lines(klass.address("instructor")), out, "csv", certified=certs)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    # oldest first: each attempt by its start, each certificate by when it was sat, an attempt
    # before a certificate sat in the same second
    when = sorted([(line.attempt.started, 0, i, line.attempt.uid) for i, line in enumerate(whole)]
                  + [(c.sat_at, 1, i, c.result) for i, c in enumerate(certs)])
    assert [r["Attempt id"] for r in rows] == [uid for *_, uid in when]
    assert [r["Trainee"] for r in rows if r["Mode"] == "Certified exam"] == ["Bo", "Ana", "Ana"]


def test_the_export_holds_a_few_attempts_not_the_class(tmp_path, klass, monkeypatch):
    """40 attempts of 20 findings of 4,000 characters each (the longest the class keeps; the
    export reads no log): the export, run in this process, holds the attempts of a fetch or two
    of five, not the forty."""
    monkeypatch.setattr(results, "ITERSIZE", 5, raising=False)  # none before the stream
    a_class(tmp_path, klass, {"Ana": 20, "Bo": 20}, findings=findings())
    with klass.connect("instructor") as conn:
        whole = peak(lambda: server_lines(conn))  # the class held whole, as the export did
    done, held = exported("--class", klass.address("instructor").url, "--format", "csv",
                          "--out", str(tmp_path / "class.csv"))
    assert done.returncode == 0 and "40 attempts" in done.stdout, done.stderr
    assert held < whole / 3, f"the export took {held:,} bytes at most; the class held whole {whole:,}"


# --------------------------------------------------------------------------- one person each, streamed
def test_the_two_name_check_reads_the_trainees_not_the_lines(tmp_path):
    """handoff.one_person_each refuses an account that carries two names (Bo Chen's practice sent
    under the trainee id "Madonna1", and a certificate of one Madonna1) from the trainees whose
    practice is written, before a line is read: merged with the streamed export, it held every
    line in memory to find them. The lines it gives are those of the others, read
    only as they are written."""
    path = tmp_path / "ws.db"
    with Store.open(path) as store:
        for name, count in {"Bo Chen": 1, "Di": 2}.items():
            tid = store.add_trainee(name)
            for n in range(count):
                store.record_attempt(attempt(tid, n))
        lines = [Line(replace(t, uid="Madonna1") if t.name == "Bo Chen" else t, a)
                 for t, a in file_lines(store)]
    read: list[Line] = []

    def reading():
        for line in lines:
            read.append(line)
            yield line

    trainees = list({line.trainee.uid: line.trainee for line in lines}.values())
    certs = [certificate("Madonna1", 5, 90), certificate("Di", 6, 85)]
    kept, certified, said = one_person_each(reading(), certs, trainees)
    assert read == []
    assert said == ["trainee id Madonna1 carries two names (Bo Chen, Madonna1): its attempts and "
                    "certificates left out, so that no actor is two people"]
    assert [c.trainee for c in certified] == ["Di"]
    assert [line.trainee.name for line in kept] == ["Di", "Di"] and len(read) == 3
    kept, certified, said = one_person_each(iter(lines), certs[1:], trainees)  # nobody's two
    assert said == [] and certified == certs[1:] and len(list(kept)) == 3


def test_an_attempt_sent_by_a_trainee_not_yet_checked_is_named_not_written(tmp_path, klass):
    """The trainees are read, and checked, before the attempts' snapshot is taken: Eve's first
    attempt, sent in between, is of a trainee the export never checked. It is left out and named
    (the export of the class held whole took it in the same read; streamed, it raised KeyError)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a_class(tmp_path / "a", klass, {"Ana": 2})
    left: list[str] = []
    practising: list = []
    with klass.connect("instructor") as conn:
        lines = results.streamed(conn, left_out=left, practising=practising)
        assert [t.name for t in practising] == ["Ana"]
        a_class(tmp_path / "b", klass, {"Eve": 1})
        assert [line.trainee.name for line in lines] == ["Ana", "Ana"]
    assert len(left) == 1 and left[0].endswith(": sent while the class was read, by a trainee the export "
                                               "had not checked; export again to write it"), left



def test_a_settled_claims_voiding_and_the_rounds_written_as_the_list_of_statements_says(tmp_path):
    """What `formerly` voids and the supervised rounds, written as the lines go by, are what the
    export held whole wrote (handoff.statements, main's): the voiding statements first, once each
    however many bases made them, oldest first; then every statement by its time. In the
    transcript each round takes its place by when it was finished, after an attempt started and a
    certificate sat at that time."""
    from fractions import Fraction

    from trainer.progress.handoff import Formerly
    from trainer.progress.handoff_supervised import SupervisedLine

    path = tmp_path / "ws.db"
    with Store.open(path) as store:
        for name, count in {"Ana": 4, "Bo": 3}.items():
            tid = store.add_trainee(name)
            for n in range(count):
                store.record_attempt(attempt(tid, n))
        lines = file_lines(store)
    ana = next(line.trainee for line in lines if line.trainee.name == "Ana")
    bo = next(line.trainee for line in lines if line.trainee.name == "Bo")
    # Ana's row was Bo's actor before the claim was settled; the certificates of "Bo" had his account
    formerly = Formerly(actors={ana.id: replace(ana, name="Bo", uid=bo.uid)}, accounts={"Bo": "bo-before"})
    faults = [(1, (("short-pay", "money", True),)), (2.5, ()),
              (99, (("no-call", "calls", False), ("late", "order", True)))]
    rounds = [SupervisedLine(bo, f"{n:064x}", f"deal-{n}", "props-and-hops", 2, T0 + 60 * minute,
                             Fraction(3, 4), caught) for n, (minute, caught) in enumerate(faults)]
    certs = [certificate("Bo", 2.5, 91), certificate("Ana", 3, 60), certificate("Ana", 99, 85)]
    base, before = "https://lms.example.com/dt/", ("https://old.example.com/", "https://old.example.com/dt/")
    for replaces in (None, before):
        expected = json.dumps(statements(lines, certified=certs, activity_base=base, replaces=replaces,
                                         formerly=formerly, supervised=rounds), ensure_ascii=False, indent=1)
        out = io.StringIO()
        n = write(iter(lines), out, "xapi", certified=certs, activity_base=base, replaces=replaces,
                  formerly=formerly, supervised=rounds)
        said = json.loads(out.getvalue())
        assert out.getvalue() == expected + "\n" and n == len(said)
        voided = [s["object"]["id"] for s in said if s["verb"]["id"].endswith("/voided")]
        # Bo's actor on Ana's four attempts and Bo's account on his certificate, under each base
        # sent; and under the old base, the seven attempts, three certificates and the rounds' four
        # statements (one for each fault class of a round, one for the round without a fault)
        assert len(voided) == len(set(voided)) == (5 if replaces is None else 2 * 5 + 7 + 3 + 4)

    out = io.StringIO(newline="")
    write(iter(lines), out, "csv", certified=certs, supervised=rounds)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    when = sorted([(line.attempt.started, 0, i, line.attempt.uid) for i, line in enumerate(lines)]
                  + [(c.sat_at, 1, i, c.result) for i, c in enumerate(certs)]
                  + [(r.finished, 2, i, r.uid) for i, r in enumerate(rounds)])
    assert [r["Attempt id"] for r in rows] == [uid for *_, uid in when]
    assert [r["Mode"] for r in rows].count("Supervised round") == 3
