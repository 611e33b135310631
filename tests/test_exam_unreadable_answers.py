"""An answer a trainee sends for his own sitting that the instructor's re-grading cannot read.

The attacks (the third cold review): with his OWN sitting and code, a trainee answers an item with
a log nested 3,000 arrays deep, or holding a 5,000-digit number, or a lone surrogate, then ends
the sitting. `certify --class` stopped with "internal error (RecursionError…)", exit 70, wrote no
certificates file, and every later run failed; the surrogate made certify refuse his (failing)
sitting on every run, so his fail was never certified. Now the class server refuses such an
answer at the door, and one it holds from before (or that no log of actions reads) is graded as
wrong: the sitting is certified, a fail, the item named, and every other sitting with it."""

from __future__ import annotations

import json

import psycopg
import pytest

from tests.support.command import run_command
from tests.support.exams import code_of, form, issuer, sent, sit
from trainer import files
from trainer.classes import ClassServerError
from trainer.classes.server import ledger as server_ledger
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import issue_sitting
from trainer.exams.keys import InstructorKey, write_private_key
from trainer.exams.proof import link, proof_key
from trainer.exams.submission import certify_class
from trainer.progress import Store

DEEP = '[{"do": "pay", "round": 1, "at": 1.0, "x": ' + "[" * 3000 + "]" * 3000 + "}]"
DIGITS = '[{"do": "pay", "round": 1, "at": 1.0, "amount": 1' + "0" * 5000 + "}]"
SURROGATE = '[{"do": "pay", "round": 1, "at": 1.0, "seat": "\\ud800"}]'
NOT_A_LOG = '[{"do": "pay", "round": 1, "at": 1.0, "bogus": 1}]'  # JSON, but no logged action

#: each attack, and what the certificate says of it
ATTACKS = {"deep": (DEEP, "nested deeper than"), "digits": (DIGITS, "a number too long to read"),
           "surrogate": (SURROGATE, "a lone surrogate"), "not a log": (NOT_A_LOG, "unknown field")}


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def issued(tmp_path, ivy, joined, exam, trainee: str) -> dict:
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        return issue_sitting(ledger, ivy, exam, trainee, classroom=joined("instructor"))


def own_sitting_answered(tmp_path, joined, exam, token, first: str) -> None:
    """Tom starts his own sitting as the app does (the proctor typed the code), then sends with
    the proof key the app held: `first` for item 1, an empty log for the others, and the end."""
    with Store.open(tmp_path / "tom.sqlite") as store:
        store.add_trainee("Tom Reyes")
        start_exam(store, exam, store.find_trainee("Tom Reyes").id, installation_key(tmp_path / "k"),
                   sitting=token, classroom=joined.seat(), start_code=code_of(token))
    key, n = proof_key(code_of(token), token["nonce"]), len(exam.items)
    with psycopg.connect(joined.seat().address.url, autocommit=True) as conn:
        for p in range(n):
            said = server_ledger.sitting_step(conn, token["nonce"], 2 + p, link(key, n, 2 + p), position=p,
                                              log=first if p == 0 else "[]")
            assert said == "recorded", said
        assert server_ledger.sitting_step(conn, token["nonce"], 2 + n, link(key, n, 2 + n),
                                          ending="finished") == "recorded"


def ana_sits(tmp_path, joined, exam, token) -> None:
    with Store.open(tmp_path / "ana.sqlite") as store:
        store.add_trainee("Ana Ruiz")
        sit(store, installation_key(tmp_path / "k2"), store.find_trainee("Ana Ruiz").id, exam,
            sitting=token, classroom=joined.seat())
        sent(store, joined.seat())


def kept_from_before_the_door(klass):
    """The class server as it was before it refused such answers (its records are kept)."""
    with klass.admin() as c:
        c.execute("ALTER TABLE exam_sitting_steps "
                  "DROP CONSTRAINT IF EXISTS exam_sitting_steps_answer_readable")


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_an_answer_no_one_can_re_grade_is_graded_wrong_and_the_class_certified(tmp_path, klass, joined, ivy,
                                                                               attack):
    given, says = ATTACKS[attack]
    exam = form()
    tom = issued(tmp_path, ivy, joined, exam, "Tom Reyes")
    ana = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    if attack != "not a log":
        kept_from_before_the_door(klass)
    own_sitting_answered(tmp_path, joined, exam, tom, given)
    ana_sits(tmp_path, joined, exam, ana)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert summary.refused == []
    by_name = {c["trainee"]: c for c in summary.certificates}
    assert set(by_name) == {"Tom Reyes", "Ana Ruiz"}
    assert by_name["Ana Ruiz"]["passed"] and "unusable" not in by_name["Ana Ruiz"]
    toms = by_name["Tom Reyes"]
    assert not toms["passed"] and toms["status"] == "failed"
    assert [i["position"] for i in toms["unusable"]["items"]] == [0]
    assert says in toms["unusable"]["items"][0]["why"] and "graded as wrong" in toms["unusable"]["why"]
    assert [a["position"] for a in toms["answers"]] == [1, 2]  # item 1 not answered


def test_certify_class_writes_the_file_and_names_the_wrong_answer(tmp_path, klass, joined, ivy):
    """The command the instructor runs: exit 0, every certificate in the file, Tom's fail among
    them with why; and a second run has nothing left to certify rather than failing again."""
    exam = form()
    tom = issued(tmp_path, ivy, joined, exam, "Tom Reyes")
    ana = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    kept_from_before_the_door(klass)
    own_sitting_answered(tmp_path, joined, exam, tom, DEEP)
    ana_sits(tmp_path, joined, exam, ana)
    write_private_key(tmp_path / "ivy.key", ivy, "plum kettle orbit 58 lantern")
    done = run_command("certify", "--class", klass.address("instructor").url,
                       "--key", str(tmp_path / "ivy.key"), "--ledger", str(tmp_path / "instructor.sqlite"),
                       "--out", str(tmp_path / "certs.json"),
                       "--passphrase-env", "IVY_PASS", env={"IVY_PASS": "plum kettle orbit 58 lantern"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "internal error" not in done.stdout + done.stderr
    assert "graded as wrong" in done.stdout and "nested deeper than" in done.stdout
    written = json.loads((tmp_path / "certs.json").read_text())
    assert sorted((c["trainee"], c["passed"]) for c in written) == [("Ana Ruiz", True), ("Tom Reyes", False)]


@pytest.mark.parametrize("attack", ["deep", "digits", "surrogate"])
def test_the_class_server_refuses_an_answer_no_one_can_re_grade_at_the_door(tmp_path, klass, joined, ivy,
                                                                            attack):
    given, _ = ATTACKS[attack]
    exam = form()
    tom = issued(tmp_path, ivy, joined, exam, "Tom Reyes")
    with pytest.raises(ClassServerError, match="an answer the instructor cannot re-grade is refused: it "):
        own_sitting_answered(tmp_path, joined, exam, tom, given)
    with klass.admin() as c:
        assert c.execute("SELECT count(*) FROM exam_sitting_steps WHERE kind = 'answer'").fetchone() == (0,)


def test_an_answer_the_app_writes_passes_the_door(tmp_path, klass, joined, ivy):
    """The door's bounds leave every answer the app gives (the honest sitting is certified)."""
    exam = form()
    ana = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    ana_sits(tmp_path, joined, exam, ana)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        [c] = certify_class(ledger, ivy, joined("instructor")).certificates
    assert c["passed"]


@pytest.mark.parametrize("text, says", [
    ("[" * 3000 + "]" * 3000, "nested deeper than 64 levels"),
    ("[" * 65 + "]" * 65, "nested deeper than 64"),
    ("[1" + "0" * 5000 + "]", "a number too long to read"), ('["\\udfff"]', "a lone surrogate"),
    ('{"\\ud800": 1}', "a lone surrogate"), ('{"a": 1, "a": 2}', 'the key "a" appears twice'),
    ("[1, ", "not JSON"), ("[" + "1," * 10 + "1]", "larger than 20 bytes")])
def test_the_reader_for_hostile_data_refuses_by_name(text, says):
    with pytest.raises(files.FileRefused, match=says.replace("[", r"\[")):
        files.loads_bounded(text, cap=20 if "larger" in says else 1 << 20)
    assert files.loads_bounded("[" * 64 + "]" * 64, cap=1 << 20) is not None


def test_the_apps_certify_certifies_the_class_and_names_the_wrong_answer(qtbot, tmp_path, klass, joined, ivy):
    """The attack through the instructor's window: Certify… with no submission threw out of its
    handler (RecursionError) with no dialog. Now its dialog lists both certificates, Tom's fail
    with the item graded as wrong, and the file is written."""
    from tests.support.screens import answer, window
    from trainer.exams.roles import new_instructor

    exam = form()
    tom = issued(tmp_path, ivy, joined, exam, "Tom Reyes")
    ana = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    kept_from_before_the_door(klass)
    own_sitting_answered(tmp_path, joined, exam, tom, DEEP)
    ana_sits(tmp_path, joined, exam, ana)
    passphrase = "plum kettle orbit 58 lantern"
    write_private_key(tmp_path / "ivy.key", ivy, passphrase)
    store = Store.open(tmp_path / "instructor.sqlite")
    lee, _ = new_instructor(store, "Ivy Park", passphrase, tmp_path, key_file=tmp_path / "ivy.key")
    w = window(qtbot, store, installation_key(tmp_path / "k3"), lee)
    try:
        w.rejoin_class(klass.address("instructor"))
        page = w.show_screen("exam")
        seen: list = []
        answer({"button": "No"}, {"button": "OK"}, seen=seen)  # no submission: the class's record
        summary = page.certification.certify(out=str(tmp_path / "certs.json"),
                                             key_path=str(tmp_path / "ivy.key"), passphrase=passphrase)
        assert summary is not None
        assert "2 certified, 0 refused" in seen[1]
        assert "Tom Reyes, Floor supervisor exam: did not pass" in seen[1]
        assert "graded as wrong" in seen[1] and "item 1: nested deeper than" in seen[1]
        assert len(json.loads((tmp_path / "certs.json").read_text())) == 2
    finally:
        w.close()
        store.close()


@pytest.mark.parametrize("text, refused", [
    ("[" * 8 + "]" * 8, None), ("[" * 9 + "]" * 9, "nested more than 8 levels deep"),
    ('[{"a": [{"b": [{"c": [{"d": 1}]}]}]}]', None),
    ('[{"a": [{"b": [{"c": [{"d": []}]}]}]}]', "nested more"),
    ("[" + "9" * 40 + "]", None), ("[" + "9" * 41 + "]", "more than 40 digits"),
    ('["\\ud800"]', "not JSON the class reads"), ('[{"do": "pay", "bet": "field", "at": 1.5}]', None)])
def test_the_doors_bounds_are_the_readers(unchanged_class, text, refused):
    """The class server's door and certification's reader draw the line at one depth (8)."""
    with unchanged_class.admin() as c:
        said = c.execute("SELECT exam_answer_refused(%s)", (text,)).fetchone()[0]
    assert (said is None) == (refused is None) and (refused is None or refused in said), said
    if refused is None:
        files.loads_bounded(text, cap=1 << 20, depth=8)
    elif "digits" not in refused:
        with pytest.raises(files.FileRefused):
            files.loads_bounded(text, cap=1 << 20, depth=8)


def test_a_record_no_reader_foresaw_refuses_that_sitting_only(tmp_path, klass, joined, ivy, monkeypatch):
    """Whatever else a record of the class server may make the re-grading raise (here a
    RecursionError, as the deep answer did), `certify --class` refuses that sitting by name and
    certifies the others: one trainee's record never stops the class."""
    from trainer.exams import submission

    exam = form()
    tom = issued(tmp_path, ivy, joined, exam, "Tom Reyes")
    ana = issued(tmp_path, ivy, joined, exam, "Ana Ruiz")
    own_sitting_answered(tmp_path, joined, exam, tom, "[]")
    ana_sits(tmp_path, joined, exam, ana)
    certify_recorded = submission.certify_recorded

    def unforeseen(store, key, token, **more):
        if token["nonce"] == tom["nonce"]:
            raise RecursionError("maximum recursion depth exceeded while decoding a JSON array")
        return certify_recorded(store, key, token, **more)

    monkeypatch.setattr(submission, "certify_recorded", unforeseen)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        summary = certify_class(ledger, ivy, joined("instructor"))
    assert [c["trainee"] for c in summary.certificates] == ["Ana Ruiz"]
    [refused] = summary.refused
    assert refused.startswith(f"sitting {tom['nonce']} (Tom Reyes): the class server's record of it cannot "
                              "be read (RecursionError: maximum recursion depth")
