"""Supervise items in exam forms: a supervised round (the dealer's faults dealt from a seed, which
the form's digest commits to) sat under a sealed sitting as the supervisor's flags, judged by the
one pass rule (reading "supervise-items"), certified with its flags and faults, and verified with
the public key alone; a flag list or an item changed after that fails verification."""

from __future__ import annotations

import copy
import json

import pytest

from tests.support.command import run_here
from tests.support.exams import issuer
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, issue_sitting, sign_form, sitting_form
from trainer.exams.errors import ExamError, FormError, FormFileError
from trainer.exams.examples import SUPERVISOR_FILE, exam_items, supervisor_form
from trainer.exams.forms import FormItem, dealt_digest, new_form, read_form
from trainer.exams.keys import InstructorKey, write_public_key
from trainer.exams.records import portable_record
from trainer.exams.submission import export_submission, open_sitting_file, write_sitting_file
from trainer.grading import correct_log, grade
from trainer.paths import resources_dir
from trainer.policy import Severity
from trainer.procedure import build
from trainer.progress import Store
from trainer.supervise.rounds import supervise
from trainer.supervise.scoring import FLAG_TEXT, MOST_CHARACTERS, MOST_FLAGS, Flag, flags_from_json, judged

SIGNATURE_FAILS = "signature does not verify"


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture(scope="module")
def items():
    return exam_items()


def mixed(items) -> object:
    """A dealer's item, then the example supervisor form's supervise items."""
    return new_form("Dealer and floor supervisor", [items["exam-ph-01"], *supervisor_form().items],
                    time_limit_seconds=1800, created_by="Ivy", attempts_allowed=2, uid="mixed-1")


def caught(rnd, *, late: float = 1.5) -> list[Flag]:
    """A supervisor who sees every fault: a flag on its target, naming it, `late` s after it shows."""
    return [Flag(f.at + late, f.target, f.type.id) for f in rnd.faults]


def sit_sealed(tmp_path, ivy, exam, flags_of) -> tuple[dict, dict, object, object]:
    """The instructor issues a sealed sitting of `exam`; Sam opens it with the start code, works
    the dealer's items correctly and answers each supervise item with `flags_of(position,
    round)`, the round as the sitting dealt it. (the token, the portable record, the ended
    result, the form as the sitting dealt it)"""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee")
        signed = sign_form(sitting_form(ledger, exam, token), ivy)
    path = tmp_path / "sam.sitting"
    code = write_sitting_file(path, token, signed, key=ivy)
    sealed = path.read_text(encoding="utf-8")  # nothing of the items is readable before the code
    for it in exam.items:
        assert it.text not in sealed and (it.supervise is None or it.supervise.dealt not in sealed)
    _, opened_token, opened = open_sitting_file(path, code)
    with Store.open(tmp_path / "workstation.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        session = start_exam(store, opened, sam, installation_key(tmp_path / "installation.key"),
                             sitting=opened_token, start_code=code)
        for p in range(len(exam.items)):
            if session.supervises(p):
                # the trainee watches the dealer's steps, faults among them, none named
                assert session.dealer(p) == tuple(session.form.round(p).log)
                session.record_flags(p, flags_of(p, session.form.round(p)))
                assert session.result is None or p == len(exam.items) - 1  # no verdict before the end
            else:
                s = session.scenario(p)
                proc = build(s)
                log = correct_log(proc, s.automation)
                session.record(p, grade(proc, log, automation=s.automation, game=s.game,
                                        target_seconds=s.target_seconds), log)
        result = session.result
        assert result is not None
        export_submission(store, tmp_path / "submission.json")
        return token, portable_record(store, result.id), result, session.form


def verified(tmp_path, ivy, certificates: list[dict]):
    """`dealer-trainer verify-results` on the certificates with Ivy's public key alone."""
    if not (tmp_path / "ivy.pub").exists():
        write_public_key(tmp_path / "ivy.pub", ivy.public)
    (tmp_path / "certs.json").write_text(json.dumps(certificates), encoding="utf-8")
    return run_here("verify-results", str(tmp_path / "certs.json"), "--public-key", str(tmp_path / "ivy.pub"))


# --------------------------------------------------------------------- sat, certified, verified
def test_a_form_with_supervise_items_is_sat_sealed_certified_and_verified(tmp_path, ivy, items):
    exam = mixed(items)
    ph = exam.round(1)  # the Props & Hops supervised round: two critical faults (checked here)
    assert [f.type.severity for f in ph.faults] == [Severity.CRITICAL, Severity.CRITICAL]
    alarm = Flag(0.5, "seat 6 field", "ph-short-pay")  # before any fault shows: a false alarm

    def flags_of(p, rnd):
        return [*caught(rnd), *([alarm] if p == 1 else [])]

    token, record, result, sat = sit_sealed(tmp_path, ivy, exam, flags_of)
    # every fault caught: all of the Props & Hops round's weight, less 1 for the false alarm; the
    # sitting's deal decides whether that is still the pass mark (one critical fault: 75, not)
    weight = sum(WEIGHTS[f.type.severity] for f in sat.round(1).faults)
    ph = 100 * (weight - 1) // weight
    assert [a.total for a in result.answers] == [100, ph, 100, 100, 100]
    assert [a.passed for a in result.answers] == [True, ph >= exam.pass_mark, True, True, True]
    assert result.passed is (ph >= exam.pass_mark)
    assert [a.supervised for a in result.answers] == [False, True, True, True, True]
    assert result.answers[1].item_id == sat.round(1).id  # the round as the sitting dealt it
    assert result.answers[1].item_id.startswith("supervise-v1:exam-ph-03:2:")
    assert result.answers[1].findings == ()  # nothing let through: no finding

    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is result.passed and certificate["roles"] == ["dealer", "supervisor"]
    dealer, *watched = certificate["answers"]
    assert "supervise" not in dealer and dealer["item_id"] == "exam-ph-01"
    for p, answer in enumerate(watched, start=1):
        said, rnd = answer["supervise"], sat.round(p)
        assert said["round"] == rnd.id == answer["item_id"]
        assert said["dealt"] == dealt_digest(rnd)
        assert said["flags"] == [f.to_json() for f in flags_of(p, rnd)]
        assert [(f["kind"], f["target"], f["caught_at"], f["named"]) for f in said["faults"]] == [
            (f.type.id, f.target, f.at + 1.5, True) for f in rnd.faults]
        assert all(f["section"].startswith("58 Pa. Code § ") for f in said["faults"])
    assert watched[0]["supervise"]["false_alarms"] == [alarm.to_json()]
    assert watched[0]["total"] == 100 * (weight - 1) // weight

    done = verified(tmp_path, ivy, [certificate])
    assert done.returncode == 0 and "1 certificate verified" in done.stdout, done.stdout + done.stderr

    # after signing, a flag moved into the window, a flag taken out, two items swapped, another round
    moved = copy.deepcopy(certificate)
    moved["answers"][2]["supervise"]["flags"][0]["at"] += 10
    dropped = copy.deepcopy(certificate)
    dropped["answers"][1]["supervise"]["false_alarms"] = []
    del dropped["answers"][1]["supervise"]["flags"][-1]
    swapped = copy.deepcopy(certificate)
    swapped["answers"][1], swapped["answers"][2] = swapped["answers"][2], swapped["answers"][1]
    other = copy.deepcopy(certificate)
    other["answers"][4]["supervise"]["round"] = "supervise-v1:exam-pgd-03:1:another"
    for changed in (moved, dropped, swapped, other):
        done = verified(tmp_path, ivy, [changed])
        assert done.returncode == 1 and SIGNATURE_FAILS in done.stdout, done.stdout


def test_flags_raised_more_often_than_the_dealer_acts_are_certified_as_a_fail(tmp_path, ivy, items):
    """The sixth cold review's #120: an item flagged more times than the dealer made other
    actions could not be re-graded (d′ raised), so `certify` refused the sitting on every run and
    the fail never reached a certificate. It is certified now, failed, the flood counted whole."""
    exam = mixed(items)

    def others(rnd) -> int:
        return len(rnd.log) - sum(len(f.done) for f in rnd.faults)

    def flags_of(p, rnd):
        flood = [Flag(0.5 + n / 100, "seat 6 field", "ph-short-pay") for n in range(others(rnd) + 5)]
        return [*caught(rnd), *(flood if p == 1 else [])]

    token, record, result, sat = sit_sealed(tmp_path, ivy, exam, flags_of)
    assert result.passed is False and result.answers[1].total == 0
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is False and certificate["answers"][1]["total"] == 0
    assert len(certificate["answers"][1]["supervise"]["false_alarms"]) == others(sat.round(1)) + 5
    done = verified(tmp_path, ivy, [certificate])
    assert done.returncode == 0 and "0 passed, 1 did not pass" in done.stdout, done.stdout + done.stderr


def test_a_flag_list_changed_in_the_submission_is_refused_at_certification(tmp_path, ivy, items):
    """The workstation's copy changed after the sitting ended (a missed fault's flag added, the
    answers of two supervise items swapped): the result no longer proves its start code."""
    exam = mixed(items)
    token, record, result, sat = sit_sealed(tmp_path, ivy, exam,
                                            lambda p, rnd: caught(rnd)[:-1 if p == 4 else None])
    assert not result.passed  # the Pai Gow round's last fault (major or critical) was let through
    let = sat.round(4).faults[-1]  # as the sitting dealt it
    added = copy.deepcopy(record)
    added["answers"][4]["log"] = [f.to_json() for f in caught(sat.round(4))]
    swapped = copy.deepcopy(record)
    a, b = swapped["answers"][2], swapped["answers"][3]
    a["log"], b["log"] = b["log"], a["log"]
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        for changed in (added, swapped):
            with pytest.raises(CertifyError, match="does not prove"):
                certify(ledger, ivy, changed, token)
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is False and certificate["answers"][4]["passed"] is False
    (missed,) = [f for f in certificate["answers"][4]["supervise"]["faults"] if f["caught_at"] is None]
    assert missed["caught_at"] is None and missed["severity"] == let.type.severity.value
    assert missed["kind"] == let.type.id and let.type.severity in (Severity.MAJOR, Severity.CRITICAL)
    # the grader's own findings of the fault missed (one fault may be found twice: a winner
    # collected is a collect too many and a pay missing)
    findings = certificate["answers"][4]["findings"]
    assert let.type.severity.value in {f["severity"] for f in findings}
    assert all(f["cite"].startswith("58 Pa. Code § 645c.") for f in findings)  # Pai Gow dice wagers


# ------------------------------------------------------------------------ the pass rule's reading
WEIGHTS = {Severity.CRITICAL: 4, Severity.MAJOR: 2, Severity.MINOR: 1}  # as the reading says


def long_round(items):
    """A Props & Hops round dealt with ten faults weighing 20 or more (checked): one critical
    fault missed leaves a total at or above the pass mark, (W - 4) / W >= 80 %."""
    rnd = supervise(items["exam-ph-03"], 10, "weights")
    assert sum(WEIGHTS[f.type.severity] for f in rnd.faults) >= 20
    assert any(f.type.severity is Severity.CRITICAL for f in rnd.faults)
    return rnd


def test_a_missed_critical_fault_fails_the_item_whatever_its_total(items):
    rnd = long_round(items)
    possible = sum(WEIGHTS[f.type.severity] for f in rnd.faults)
    critical = next(f for f in rnd.faults if f.type.severity is Severity.CRITICAL)
    flags = [g for g, f in zip(caught(rnd), rnd.faults, strict=True) if f is not critical]
    scored, result = judged(rnd, flags)
    assert scored.missed == (critical,)
    assert result.score.total == (possible - 4) * 100 // possible >= 80  # the total would pass...
    assert not result.score.passed and result.score.critical  # ...the missed critical fault does not
    # the grader's own findings of that fault (a winner collected is also a winner unpaid)
    assert result.findings and {f.severity for f in result.findings} == {Severity.CRITICAL}
    assert all(critical.concerns(f) and f.cite.startswith("58 Pa. Code § ") for f in result.findings)
    # every fault caught, one on its target naming another fault: caught for half its weight
    misnamed = [Flag(g.at, g.target, "ph-short-pay" if g.kind != "ph-short-pay" else "ph-overpay")
                if f is critical else g for g, f in zip(caught(rnd), rnd.faults, strict=True)]
    scored, result = judged(rnd, misnamed)
    assert not scored.missed and result.findings == []
    assert result.score.total == (possible - 2) * 100 // possible and result.score.passed


def test_a_flag_too_late_or_on_another_target_catches_nothing(items):
    rnd = supervise(items["exam-pgd-03"], 1, "example")
    (fault,) = rnd.faults
    for flag in (Flag(fault.at + 15.5, fault.target, fault.type.id),  # after the 15 s window
                 Flag(fault.at + 1, "seat 1 sum", fault.type.id)):  # pointing elsewhere
        scored, result = judged(rnd, [flag])
        assert scored.missed == (fault,) and not result.score.passed
        assert result.score.total == 0  # nothing earned, one point off, never below 0
    _, result = judged(rnd, [])
    assert result.score.total == 0 and [f.severity for f in result.findings] == [Severity.MAJOR]


def test_a_round_with_no_fault_passes_only_with_no_false_alarm(items):
    rnd = supervise(items["exam-pgd-03"], 0, "none")
    assert rnd.faults == []
    assert judged(rnd, [])[1].score.total == 100 and judged(rnd, [])[1].score.passed
    _, result = judged(rnd, [Flag(3, "call", "pgd-wrong-call")])
    assert result.score.total == 0 and not result.score.passed and result.findings == []


# ------------------------------------------------------------------------ the session's answers
def test_each_item_takes_its_own_kind_of_answer_and_bad_flags_are_named(tmp_path, items):
    exam = mixed(items)
    with Store.open(tmp_path / "ws.sqlite") as store:
        sam = store.add_trainee("Sam Lee")
        session = start_exam(store, exam, sam, installation_key(tmp_path / "k"))
        with pytest.raises(ExamError, match=r"Item 2 .* is a supervise item: its answer is the supervisor's"):
            session.record(1, None, [])
        with pytest.raises(ExamError, match="a dealer's item: its answer is the dealer's log"):
            session.record_flags(0, [])
        with pytest.raises(ExamError, match="a dealer's item: it has no dealer to watch"):
            session.dealer(0)
        flag = {"at": 1, "target": "call", "kind": "pgd-wrong-call"}
        bad = [[{**flag, "at": -1}], [{**flag, "target": ""}], [{**flag, "more": 1}], [{**flag, "at": True}],
               [{**flag, "target": "call\x00"}], [{**flag, "target": "c" * 65}], [{**flag, "kind": '"x'}],
               [{**flag, "at": 86401}], [flag] * (MOST_FLAGS + 1), "not a list", [[flag]]]
        for flags in bad:
            with pytest.raises(ExamError) as said:
                session.record_flags(1, flags)
            assert "\n" not in str(said.value) and str(said.value).startswith("flags")
        assert store.query("SELECT count(*) AS n FROM exam_answers")[0]["n"] == 0
        session.abandon()


def test_the_longest_flag_list_fits_the_class_servers_bound_on_an_answer():
    """An answer is sent to the class server as its stored JSON, which takes at most 262,144
    bytes for an item (s030): the most flags, each at its longest (a time of the most digits
    Python writes a float with), stay under it."""
    worst = {"at": 2.2250738585072014e-308, "target": "t" * MOST_CHARACTERS, "kind": "k" * MOST_CHARACTERS}
    assert flags_from_json([worst]) and not FLAG_TEXT.fullmatch('"') and not FLAG_TEXT.fullmatch("\\")
    text = json.dumps([worst] * MOST_FLAGS, ensure_ascii=False)
    assert len(text.encode("utf-8")) <= 262_144


# ------------------------------------------------------------------------------- form files
def test_the_bundled_supervisor_form_reads_and_is_what_its_generator_writes():
    """If this fails, an exam item or the dealing changed: run `python -m trainer.exams.examples`
    (and raise EDITION)."""
    bundled = read_form(resources_dir() / "exams" / SUPERVISOR_FILE)
    assert bundled.digest == supervisor_form().digest
    assert bundled.roles == ["supervisor"] and bundled.pass_mark == 80
    assert {s.game for s in bundled.scenarios} == {"props-and-hops", "three-dice-football",
                                                    "high-roll-dice", "pai-gow-dice"}
    assert all(bundled.round(p).faults for p in range(len(bundled.items)))


def supervise_entry(form_file: dict, position: int = 1) -> dict:
    return form_file["items"][position]["supervise"]


BAD_ENTRIES = [
    (lambda d: supervise_entry(d).update(faults=-1), "items[1].supervise.faults: must be a whole number"),
    (lambda d: supervise_entry(d).update(faults=51), "items[1].supervise.faults: must be a whole number"),
    (lambda d: supervise_entry(d).update(faults="2"), "items[1].supervise.faults: must be a whole number"),
    (lambda d: supervise_entry(d).update(seed=""), "items[1].supervise.seed: must be a text"),
    (lambda d: supervise_entry(d).update(seed="a:b"), "items[1].supervise.seed: must be a text"),
    (lambda d: supervise_entry(d).update(seed="s" * 65), "items[1].supervise.seed: must be a text"),
    (lambda d: supervise_entry(d).update(pace=0), "items[1].supervise.pace: must be seconds"),
    (lambda d: supervise_entry(d).update(pace=61), "items[1].supervise.pace: must be seconds"),
    (lambda d: supervise_entry(d).update(dealt="zz"), "items[1].supervise.dealt: must be the SHA-256"),
    (lambda d: supervise_entry(d).update(dealt="0" * 64), "its seed deals other faults"),
    (lambda d: supervise_entry(d).update(seed="another"), "its seed deals other faults"),
    (lambda d: supervise_entry(d).update(faults=3), "its seed deals other faults"),
    (lambda d: supervise_entry(d).update(extra=1), "items[1].supervise: must be an object with exactly"),
    (lambda d: d["items"][1].update(supervise=[1]), "items[1].supervise: must be an object with exactly"),
    (lambda d: supervise_entry(d).update(faults=50), "has room for only"),
    (lambda d: d["items"].append(copy.deepcopy(d["items"][1])), "items[5] (supervise-v1:exam-ph-03:2:"
                                                                "example): this round is already"),
]


@pytest.mark.parametrize("damage,says", BAD_ENTRIES, ids=[s for _, s in BAD_ENTRIES])
def test_a_bad_supervise_entry_is_named_on_one_line(tmp_path, items, damage, says):
    doc = mixed(items).to_json()
    damage(doc)
    path = tmp_path / "form.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormFileError) as said:
        read_form(path)
    message = str(said.value)
    assert message.startswith(f"{path}: ") and says in message and "\n" not in message


def test_a_bad_scripted_fault_in_a_supervise_item_is_named_at_its_line(tmp_path, items):
    text = items["exam-pgd-03"].text + '\n[[fault]]\nstep = "no-such-step"\nkind = "pgd-wrong-call"\n'
    doc = mixed(items).to_json()
    doc["items"][4]["toml"] = text
    path = tmp_path / "form.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormFileError) as said:
        read_form(path)
    line = len(items["exam-pgd-03"].text.splitlines()) + 3  # the [[fault]]'s step
    assert f"(exam-pgd-03):{line}: " in str(said.value) and 'no step "no-such-step"' in str(said.value)


def test_a_results_reader_knows_a_supervised_rounds_id():
    from trainer.exams.records import SUPERVISED_ID
    from trainer.supervise.rounds import ID_PREFIX, round_id

    assert f"{ID_PREFIX}:" == SUPERVISED_ID and round_id("x", 1, "s").startswith(SUPERVISED_ID)


def test_the_same_scenario_may_be_a_dealers_item_and_a_supervise_item(items):
    s = items["exam-pgd-03"]
    both = new_form("Both seats", [s, FormItem.supervised(s, 1, "x")], time_limit_seconds=600,
                    created_by="Ivy")
    assert both.roles == ["dealer", "supervisor"] and both.supervised == frozenset({1})
    with pytest.raises(FormError, match="already in the form"):
        new_form("Twice", [s, s], time_limit_seconds=600, created_by="Ivy")


def test_a_pool_with_supervise_items_tells_nothing_of_its_draw_before_the_code(tmp_path, ivy, items):
    """A pool of a dealer's item and two supervise items, one drawn: the token says the pool holds
    supervise items (the Exam screen refuses to start what it cannot show) by the whole pool's
    count, whichever item was drawn (20 draws of 1 in 3 all alike: about 1 in 10^9)."""
    pool = new_form("Pool", [items["exam-ph-01"], *supervisor_form().items[:2]], time_limit_seconds=900,
                    created_by="Ivy", attempts_allowed=3, uid="pool-s", draw=1)
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        named, drawn = set(), set()
        for n in range(20):
            token = issue_sitting(ledger, ivy, pool, f"Trainee {n}")
            named.add(token["form"]["supervise_items"])
            drawn.add(sitting_form(ledger, pool, token).items[0].key)
    assert named == {2} and len(drawn) > 1
