"""Supervise items in a sitting issued in a class: sealed under the start code and the class
server's share, each answer (the supervisor's flags) streamed to the server as it is given,
`certify --class` from the server's record, and the certificate verified with the public key.
A flag list the server holds that no reader of flags takes (a dealer's log sent for a supervise
item, say) is graded as wrong, named, and the class certified all the same."""

from __future__ import annotations

import json

import psycopg
import pytest

from tests.support.class_server import server_clock_moves_on
from tests.support.command import run_here
from tests.support.exams import code_of, issuer, sent
from trainer.classes.server import ledger as server_ledger
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import issue_sitting, sign_form, sitting_form
from trainer.exams.examples import supervisor_form
from trainer.exams.keys import InstructorKey, write_public_key
from trainer.exams.proof import link, proof_key
from trainer.exams.submission import SealedSitting, certify_class, open_sitting_file, write_sitting_file
from trainer.policy import Severity
from trainer.progress import Store
from trainer.supervise.scoring import Flag


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def caught(rnd) -> list[Flag]:
    return [Flag(f.at + 2, f.target, f.type.id) for f in rnd.faults]


def watched(sat) -> float:
    """Seconds to watch every round of a form as a sitting dealt it, whole, at its pace."""
    return sum(len(sat.round(p).log) * sat.round(p).pace for p in range(len(sat.items)))


def class_sitting(tmp_path, ivy, joined, exam, trainee: str) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, trainee, classroom=joined("instructor"))


def test_a_class_sitting_with_supervise_items_is_streamed_certified_and_verified(tmp_path, klass, joined,
                                                                                 ivy):
    exam = supervisor_form()
    token = class_sitting(tmp_path, ivy, joined, exam, "Sam Lee")
    assert token["form"]["supervise_items"] == 4  # the start dialog knows before the items open
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = tmp_path / "sam.sitting"
    code = write_sitting_file(path, token, signed, key=ivy)
    _, opened_token, sealed = open_sitting_file(path, code)
    assert isinstance(sealed, SealedSitting) and sealed.ahead.supervised == 4
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        session = start_exam(store, sealed, sam, installation_key(tmp_path / "k"), sitting=opened_token,
                             classroom=joined.seat(), start_code=code)
        sat = session.form  # its faults dealt for this sitting
        for p in range(len(exam.items)):
            flags = caught(sat.round(p))[:-1] if p == 0 else caught(sat.round(p))  # one fault missed
            session.record_flags(p, flags)
        sent(store, joined.seat())
        assert session.result is not None and not session.result.passed
    server_clock_moves_on(klass, token["nonce"], watched(sat))  # the rounds took their time
    with klass.admin() as admin:  # each answer reached the server as the flags given
        kept = admin.execute("SELECT position, answer FROM exam_sitting_steps WHERE nonce = %s AND "
                             "kind = 'answer' ORDER BY position", (token["nonce"],)).fetchall()
    assert [json.loads(a) for _, a in kept] == [
        [f.to_json() for f in (caught(sat.round(p))[:-1] if p == 0 else caught(sat.round(p)))]
        for p in range(4)]

    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    (certificate,) = summary.certificates
    assert certificate["roles"] == ["supervisor"] and certificate["passed"] is False
    first = certificate["answers"][0]
    missed = sat.round(0).faults[-1]  # every fault of these games is critical or major: it fails
    assert first["passed"] is False and first["critical"] is (missed.type.severity is Severity.CRITICAL)
    assert [f["caught_at"] is None for f in first["supervise"]["faults"]] == [False, True]
    assert all(a["passed"] for a in certificate["answers"][1:])

    write_public_key(tmp_path / "ivy.pub", ivy.public)
    (tmp_path / "certs.json").write_text(json.dumps([certificate]), encoding="utf-8")
    done = run_here("verify-results", str(tmp_path / "certs.json"), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 0 and "1 certificate verified" in done.stdout, done.stdout + done.stderr
    certificate["answers"][0]["supervise"]["flags"].append(
        {"at": sat.round(0).faults[-1].at + 2, "target": sat.round(0).faults[-1].target,
         "kind": sat.round(0).faults[-1].type.id})  # the missed fault's flag, added afterwards
    (tmp_path / "certs.json").write_text(json.dumps([certificate]), encoding="utf-8")
    done = run_here("verify-results", str(tmp_path / "certs.json"), "--public-key", str(tmp_path / "ivy.pub"))
    assert done.returncode == 1 and "signature does not verify" in done.stdout


def test_a_dealers_log_sent_for_a_supervise_item_is_graded_wrong_and_named(tmp_path, klass, joined, ivy):
    """With his own sitting and code, Tom sends the server a dealer's log (no flags) for the
    first supervise item and flags for the rest: certify --class grades that item as wrong, names
    it, and certifies the sitting."""
    exam = supervisor_form()
    token = class_sitting(tmp_path, ivy, joined, exam, "Tom Reyes")
    with Store.open(tmp_path / "tom.sqlite") as store:
        tom = store.add_trainee("Tom Reyes")
        sat = start_exam(store, exam, tom, installation_key(tmp_path / "k"), sitting=token,
                         classroom=joined.seat(), start_code=code_of(token)).form
    key, n = proof_key(code_of(token), token["nonce"]), len(exam.items)
    a_log = json.dumps([{"do": "announce", "round": 1, "at": 1.0, "value": "7"}])
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        for p in range(n):
            given = a_log if p == 0 else json.dumps([f.to_json() for f in caught(sat.round(p))])
            said = server_ledger.sitting_step(conn, token["nonce"], 2 + p, link(key, n, 2 + p), position=p,
                                              log=given)
            assert said == "recorded", said
        assert server_ledger.sitting_step(conn, token["nonce"], 2 + n, link(key, n, 2 + n),
                                          ending="finished") == "recorded"
    server_clock_moves_on(klass, token["nonce"], watched(sat))
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    (certificate,) = summary.certificates
    assert certificate["passed"] is False
    assert [i["position"] for i in certificate["unusable"]["items"]] == [0]
    assert "too_soon" not in certificate
    assert "log[0]: must be an object with exactly" in certificate["unusable"]["items"][0]["why"]
    assert [a["position"] for a in certificate["answers"]] == [1, 2, 3]
    assert all(a["passed"] for a in certificate["answers"])


def test_flags_sent_sooner_than_the_rounds_could_be_watched_are_not_answered(tmp_path, klass, joined, ivy):
    """The review's program: with his own sitting and code, Tom starts it with the app's engine,
    reads each round's faults from the workstation's memory and sends a flag on every one at
    once, the whole sitting answered within a second of the server's start. The server's clock
    says no round was watched up to its flags: certify --class counts them not answered, names
    them, and the certificate is not a pass. The same flags, reaching the server once the
    rounds could have been watched, pass."""
    exam = supervisor_form()
    certified = []
    for trainee, waits in (("Tom Reyes", 0.0), ("Ana Ruiz", 1.0)):
        token = class_sitting(tmp_path, ivy, joined, exam, trainee)
        with Store.open(tmp_path / f"{trainee}.sqlite") as store:
            who = store.add_trainee(trainee)
            session = start_exam(store, exam, who, installation_key(tmp_path / "k"), sitting=token,
                                 classroom=joined.seat(), start_code=code_of(token))
            sat = session.form
            for p in range(len(exam.items)):
                session.record_flags(p, caught(sat.round(p)))
            sent(store, joined.seat())
            assert session.result is not None and session.result.passed  # the workstation's verdict
        if waits:
            server_clock_moves_on(klass, token["nonce"], watched(sat) * waits)
        with Store.open(tmp_path / "instructor.sqlite") as ledger:
            summary = certify_class(ledger, ivy, joined("instructor"))
        assert summary.refused == []
        (certificate,) = summary.certificates
        certified.append(certificate)
    tom, ana = certified
    assert tom["passed"] is False and tom["total"] == 0
    assert [i["position"] for i in tom["too_soon"]["items"]] == [0, 1, 2, 3]
    assert "sooner than the rounds could be watched" in tom["too_soon"]["why"]
    assert tom["answers"] == []  # none counted answered
    assert ana["passed"] is True and ana["total"] == 100 and "too_soon" not in ana
