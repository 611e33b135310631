"""A step link sent again keeps nothing on the class server (migration s038_replayed_refusals): the
fifth cold review's #106, on a real PostgreSQL.

The attack: Ana sits her exam and answers item 1; the link of that step is on the classroom's
wire. Tom sends it again, 105 times, under his own login (or the shared workstation login, which
s040 refuses every step anyway), with an answer to an item she has not answered, oversized
or not. The server kept each refusal: her sitting's 100 refusals were used up, and once she left
with item 2 unanswered `certify --class` held her sitting ("refused 100 answers of item 2")
instead of certifying what she did. Now a refusal is kept only for a step not taken yet, from the
login that started the sitting, and only once."""

from __future__ import annotations

import psycopg
import pytest

from tests.support.exams import code_of, form, issuer, sent, sit
from trainer.classes.server import ledger as server_ledger
from trainer.classes.server.logins import class_login
from trainer.exams import installation_key
from trainer.exams.certify import issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.exams.proof import link, proof_key
from trainer.exams.submission import certify_class
from trainer.progress import Store

#: an answer over the 262,144 bytes an item's log may hold (s023, s034)
BIG = '"' + "x" * 300_000 + '"'


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def ana_answers_item_1(tmp_path, joined, ivy) -> tuple[dict, object, Store]:
    """Ana's sitting of three items at Table 1 (an enrolled workstation: no exam is sat on the
    shared login, s040), item 1 answered and sent: her token, the open session and her progress
    file (open)."""
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Ana Ruiz", classroom=joined("instructor"))
    store = Store.open(tmp_path / "ana.sqlite")
    ana = store.add_trainee("Ana Ruiz")
    session = sit(store, installation_key(tmp_path / "k"), ana, exam, sitting=token,
                  classroom=joined.seat(), stop_after=1)
    sent(store, joined.seat())
    return token, session, store


def wire(klass, nonce: str, step: int) -> bytes:
    """The link of a step taken, as the classroom's traffic carried it (read here by the staff)."""
    with klass.connect("supervisor") as conn:
        return bytes(conn.execute("SELECT link FROM exam_sitting_steps WHERE nonce = %s AND step = %s",
                                  (nonce, step)).fetchone()[0])


def replay(url: str, nonce: str, step: int, proof: bytes, times: int) -> list[str]:
    """The review's oversized_hold.py replay: the link of `step` sent again as that step, with an
    answer to item 2 or 3 (oversized every other time); the server's replies."""
    said = []
    with psycopg.connect(url, autocommit=True) as conn:
        for i in range(times):
            try:
                said.append(server_ledger.sitting_step(conn, nonce, step, proof, position=1 + i % 2,
                                                       log=BIG if i % 4 < 2 else "[]"))
            except psycopg.errors.InsufficientPrivilege as e:  # the shared login steps no exam (s040)
                said.append(f"refused: {e}")
    return said


def refusals(klass, nonce: str) -> list[tuple]:
    return klass.read("SELECT step, position, login FROM exam_sitting_refusals WHERE nonce = %s "
                      "ORDER BY id", (nonce,))


@pytest.mark.parametrize("who", ["Tom's own login", "the shared login"])
def test_a_replayed_step_link_keeps_nothing_and_holds_no_classmates_sitting(tmp_path, klass, joined, ivy,
                                                                           who):
    token, session, store = ana_answers_item_1(tmp_path, joined, ivy)
    nonce = token["nonce"]
    if who == "the shared login":
        url = klass.address("workstation").url
    else:
        with klass.connect("instructor") as instructor:
            url = klass.address(class_login(instructor, "Tom Reyes", "tom-password"), "tom-password").url
    said = replay(url, nonce, 2, wire(klass, nonce, 2), 105)
    assert all(s.startswith("refused: ") for s in said), said[:3]  # refused, as before
    assert refusals(klass, nonce) == []
    # Ana leaves with items 2 and 3 unanswered: certified as what she did, not held
    session.abandon()
    sent(store, joined.seat())
    store.close()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    [c] = summary.certificates
    assert c["trainee"] == "Ana Ruiz" and not c["passed"] and "held" not in c["recorded"]


def test_a_refusal_of_a_step_not_taken_is_kept_once_and_only_from_the_sittings_login(tmp_path, klass,
                                                                                   joined, ivy):
    """The sitting's own refusal (a step whose link is not spent: an answer after its end) is kept,
    once however often it is sent; the same link from another login keeps nothing."""
    token, _, store = ana_answers_item_1(tmp_path, joined, ivy)
    store.close()
    nonce = token["nonce"]
    key = proof_key(code_of(token), nonce)
    with psycopg.connect(klass.address(klass.seat()).url, autocommit=True) as conn:
        assert server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), ending="left") == "recorded"
        for _ in range(3):
            said = server_ledger.sitting_step(conn, nonce, 4, link(key, 3, 4), position=1, log="[]")
            assert said == "refused: the sitting had ended (first wins)"
    with klass.connect("instructor") as instructor:
        tom = klass.address(class_login(instructor, "Tom Reyes", "tom-password"), "tom-password").url
    assert replay(tom, nonce, 4, link(key, 3, 4), 4)[0].startswith("refused: ")
    assert refusals(klass, nonce) == [(4, 1, klass.seat())]


def test_an_answer_sent_after_ones_own_end_holds_nothing_and_the_fail_is_certified(tmp_path, klass,
                                                                                   joined, ivy):
    """The seventh cold review's #140: her own program (the proof key her start code gives) ends
    the sitting after item 1 and then answers item 2. The server refuses that answer and keeps the
    refusal (its step was not taken, from the sitting's login), but the app sends nothing after its
    end, so it holds nothing: `certify --class` certifies what she did (items 2 and 3 not
    answered), never "held" with a void offered that would give the attempt back."""
    token, _, store = ana_answers_item_1(tmp_path, joined, ivy)
    store.close()
    nonce = token["nonce"]
    key = proof_key(code_of(token), nonce)
    with psycopg.connect(klass.address(klass.seat()).url, autocommit=True) as conn:
        assert server_ledger.sitting_step(conn, nonce, 3, link(key, 3, 3), ending="finished") == "recorded"
        said = server_ledger.sitting_step(conn, nonce, 4, link(key, 3, 4), position=1, log="[]")
    assert said == "refused: the sitting had ended (first wins)"
    assert refusals(klass, nonce) == [(4, 1, klass.seat())]  # kept, as the record of what came
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    [c] = summary.certificates
    assert c["trainee"] == "Ana Ruiz" and not c["passed"] and "held" not in c["recorded"]
