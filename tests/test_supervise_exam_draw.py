"""A supervise item's faults are dealt for each sitting, from what its start code gives
(trainer.exams.proof `deal_seed`): the answer key anyone prints of a form's item (`dealer-trainer
supervise SCENARIO --faults N --seed SEED`, the form's own seed) does not answer a sitting, two
sittings of one form get other faults, and the instructor deals the same again at certification.
A sitting issued before (its token does not say "deal") is sat and certified on the form's seed,
as it always was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.command import run_here
from tests.support.exams import issuer
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import CertifyError, certify, issue_sitting, read_sitting, sign_form, sitting_form
from trainer.exams.examples import SUPERVISOR, SUPERVISOR_SEED, exam_items, supervisor_form
from trainer.exams.forms import dealt_digest
from trainer.exams.keys import InstructorKey
from trainer.exams.records import portable_record
from trainer.exams.submission import open_sitting_file, write_sitting_file
from trainer.progress import Store
from trainer.supervise.scoring import Flag


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture(scope="module")
def form():
    return supervisor_form()  # the bundled floor supervisor's form: its seed is "example"


def printed_key(scenario_id: str, faults: int, seed: str) -> list[dict]:
    """The faults anyone prints of an exam item with `dealer-trainer supervise`, as the review's
    trainee did (each one's time, target and kind)."""
    done = run_here("supervise", str(exam_items()[scenario_id].path), "--faults", str(faults),
                    "--seed", seed, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["faults"]


def from_key(faults: list[dict]) -> list[Flag]:
    """A flag on every fault of a printed key, naming it, half a second after it shows."""
    return [Flag(f["at"] + 0.5, f["target"], f["kind"]) for f in faults]


def sit(tmp_path, ivy, form, name: str, answer, *, token: dict | None = None):
    """`name` sits a sealed sitting of `form` (issued now, or `token`), the proctor typing its
    start code, and answers each supervise item with `answer(position, session)`. (the token,
    the session, the portable record)."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = token or issue_sitting(ledger, ivy, form, name)
        signed = sign_form(sitting_form(ledger, form, token), ivy)
    path = tmp_path / f"{name}.sitting"
    code = write_sitting_file(path, token, signed, key=ivy)
    _, opened_token, opened = open_sitting_file(path, code)
    with Store.open(tmp_path / f"{name}.sqlite") as store:
        who = store.add_trainee(name)
        session = start_exam(store, opened, who, installation_key(tmp_path / "installation.key"),
                             sitting=opened_token, start_code=code)
        for p in range(len(form.items)):
            session.record_flags(p, answer(p, session))
        assert session.result is not None
        return token, session, portable_record(store, session.result.id)


def faults_of(rnd) -> list[tuple[str, str, float]]:
    return [(f.type.id, f.target, f.at) for f in rnd.faults]


def test_the_printed_answer_key_of_the_bundled_form_answers_no_sitting(tmp_path, ivy, form):
    """The review's attack: Tom prints every fault of the bundled floor supervisor's form with
    `dealer-trainer supervise … --seed example` before his sitting and flags each one. The
    sitting's faults are not those, and the certificate is not a pass."""
    _, picked = SUPERVISOR
    keys = [printed_key(scenario, faults, SUPERVISOR_SEED) for scenario, faults in picked]
    token, session, record = sit(tmp_path, ivy, form, "Tom Reyes", lambda p, _s: from_key(keys[p]))
    for p, key in enumerate(keys):
        sat = session.form.round(p)
        assert len(sat.faults) == len(key)  # the form's fault count, its scenario and pace
        assert sat.scenario.id == picked[p][0] and sat.pace == form.items[p].supervise.pace
    # the key is not the sitting's (one round may be dealt as the key by chance: a Pai Gow round
    # with one fault has a few dozen deals, so one sitting in twenty or so shares that one)
    assert [faults_of(session.form.round(p)) for p in range(len(keys))] != \
        [[(f["kind"], f["target"], f["at"]) for f in key] for key in keys]
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is False and certificate["status"] == "failed"
    for answer in certificate["answers"]:
        assert not answer["item_id"].endswith(f":{SUPERVISOR_SEED}")


def test_two_sittings_deal_other_faults_and_certify_deals_the_same_again(tmp_path, ivy, form):
    """A trainee who catches every fault of the sitting as it was dealt passes; the certificate
    names the faults the sitting showed (dealt again by the instructor from the start code)."""
    def caught(p, session):
        return [Flag(f.at + 0.5, f.target, f.type.id) for f in session.form.round(p).faults]

    token, ana, record = sit(tmp_path, ivy, form, "Ana Ruiz", caught)
    _, bo, _ = sit(tmp_path, ivy, form, "Bo Chen", caught)
    dealt = [faults_of(ana.form.round(p)) for p in range(len(form.items))]
    assert dealt != [faults_of(bo.form.round(p)) for p in range(len(form.items))]
    assert dealt != [faults_of(form.round(p)) for p in range(len(form.items))]
    assert ana.form.digest == form.digest  # the same form: its items, fault counts and pace
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is True and certificate["total"] == 100
    for p, answer in enumerate(certificate["answers"]):
        said = answer["supervise"]
        assert [(f["kind"], f["target"], f["at"]) for f in said["faults"]] == dealt[p]
        assert all(f["caught_at"] is not None for f in said["faults"])
        assert said["round"] == answer["item_id"] == ana.form.round(p).id
        assert said["dealt"] == dealt_digest(ana.form.round(p))
    assert [a["item_id"] for a in record["answers"]] == [a["item_id"] for a in certificate["answers"]]


def test_a_sitting_issued_before_is_sat_and_certified_on_the_forms_seed(tmp_path, ivy, form):
    """A token signed before sittings were dealt their own faults (no "deal") still deals the
    form's: its trainee, who watched those faults, is certified on them."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, form, "Di Park")
        assert token["deal"] == "sitting"
        body = {k: v for k, v in token.items() if k not in ("deal", "signature")}
        old = {**body, "signature": ivy.sign(body)}  # as the key signed it before: one nonce, one sitting

    def caught(p, session):
        return [Flag(f.at + 0.5, f.target, f.type.id) for f in session.form.round(p).faults]

    _, session, record = sit(tmp_path, ivy, form, "Di Park", caught, token=old)
    assert [faults_of(session.form.round(p)) for p in range(len(form.items))] == \
        [faults_of(form.round(p)) for p in range(len(form.items))]
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, old)
    assert certificate["passed"] is True
    assert [a["item_id"] for a in certificate["answers"]] == [it.key for it in form.items]
    assert [a["supervise"]["dealt"] for a in certificate["answers"]] == \
        [it.supervise.dealt for it in form.items]


def test_a_certificate_signed_before_sittings_dealt_their_own_faults_verifies_as_before():
    """A certificate the version before signed (tests/data: the bundled floor supervisor's form
    sat on its seed "example", one fault of the first round missed) verifies with its public key
    and reads as it was signed."""
    data = Path(__file__).parent / "data"
    done = run_here("verify-results", str(data / "supervisor-certificate-before-sitting-deals.json"),
                    "--public-key", str(data / "supervisor-certificate-before-sitting-deals.pub"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Sam Lee, Floor supervisor: catch the dealer (example): did not pass (87" in done.stdout
    assert "1 certificate verified: 0 passed, 1 did not pass" in done.stdout


def test_a_results_answer_names_the_round_it_was_dealt_and_nothing_else(form):
    """The result view deals a supervise item's round again from its answer's id (the sitting's
    seed is in it): the item's own round, a sitting's deal of it; never another item's, a seed
    longer than a form's, or what is not an id."""
    sat = form.dealt_for(bytes(range(32)))
    assert faults_of(form.round_named(0, sat.key(0))) == faults_of(sat.round(0)) != faults_of(form.round(0))
    assert form.round_named(0, form.key(0)) is form.round(0)
    for wrong in (form.key(1), sat.key(1), "supervise-v1:exam-ph-03:3:abc", "supervise-v1:exam-ph-03:2:",
                  "supervise-v1:exam-ph-03:2:" + "9" * 65, None, 7, ["x"]):
        assert form.round_named(0, wrong) is None, wrong


#: the last commit before sittings were dealt their own faults: its app sat supervise items on the
#: form's seed whatever the token said
BEFORE_DEALS = "f371d1b"


def older_certify(commit: str = BEFORE_DEALS):
    """trainer/exams/certify.py as it was at `commit`, read from git and loaded beside today's
    modules (its own imports are today's): the older workstation's token reader. Skipped where
    the history is not at hand (a shallow clone, an installed wheel)."""
    import subprocess
    import sys
    import types

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(["git", "-C", str(root), "show", f"{commit}:trainer/exams/certify.py"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"no git history with {commit} here: {done.stderr.strip()}")
    module = types.ModuleType(f"certify_at_{commit}")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    try:
        exec(compile(done.stdout, f"{commit}:trainer/exams/certify.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


def test_an_older_app_refuses_a_sitting_dealt_its_own_faults_rather_than_sit_it_on_the_forms_seed(
        tmp_path, ivy, form):
    """The attack on the trainee: an older workstation app (from before sittings were dealt their
    own faults) read a new token, ignored its "deal" and dealt the form's seed, while `certify`
    deals the sitting's: every catch of hers graded against other faults, a false fail. The token
    of a sitting dealt its own faults is now of version 2, which that app's own reader (read from
    git) refuses before anything starts. A form with no supervise item still issues version 1,
    which the older app sits as before."""
    from trainer.exams.examples import example_forms

    old = older_certify()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, form, "Ana Ruiz")
        plain = next(f for f in example_forms().values() if not f.supervised)
        other = issue_sitting(ledger, ivy, plain, "Ana Ruiz")
    assert token["deal"] == "sitting" and token["version"] == 2
    with pytest.raises(old.CertifyError, match=r"^sitting token version 2; this app reads 1$"):
        old.read_sitting(token, [ivy.public])
    assert "deal" not in other and other["version"] == 1
    assert old.read_sitting(other, [ivy.public]).nonce == other["nonce"]


def test_a_token_newer_than_the_app_is_refused_by_name(tmp_path, ivy, form):
    """A sitting token of a version this app does not know (a later one's) is refused at the
    start, in one line that says what to do, never sat on what this app guesses of it."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, form, "Ana Ruiz")
        signed = sign_form(sitting_form(ledger, form, token), ivy)
    body = {**{k: v for k, v in token.items() if k != "signature"}, "version": 3}
    newer = {**body, "signature": ivy.sign(body)}
    path = tmp_path / "ana.sitting"
    code = write_sitting_file(path, newer, signed, key=ivy)
    with pytest.raises(CertifyError) as refused:
        open_sitting_file(path, code)
    assert str(refused.value) == (f"{path}: this sitting needs a newer Dealer Trainer (its token is "
                                  "version 3; this one reads versions 1 and 2)")
    for version in (0, True, "2", 2.0, None):
        body = {**body, "version": version}
        with pytest.raises(CertifyError, match="sitting token version"):
            read_sitting({**body, "signature": ivy.sign(body)}, [ivy.public])


def test_a_version_1_token_dealt_per_sitting_is_still_sat_and_certified_on_its_own_deal(tmp_path, ivy, form):
    """A token issued by the app of before the version was raised (version 1, "deal": "sitting")
    keeps working: sat and certified on the sitting's own faults."""
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, form, "Di Park")
        body = {**{k: v for k, v in token.items() if k != "signature"}, "version": 1}
        before = {**body, "signature": ivy.sign(body)}

    def caught(p, session):
        return [Flag(f.at + 0.5, f.target, f.type.id) for f in session.form.round(p).faults]

    _, session, record = sit(tmp_path, ivy, form, "Di Park", caught, token=before)
    assert [faults_of(session.form.round(p)) for p in range(len(form.items))] != \
        [faults_of(form.round(p)) for p in range(len(form.items))]
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, before)
    assert certificate["passed"] is True and certificate["total"] == 100


def pai_gow(form) -> int:
    return next(p for p, it in enumerate(form.items) if it.scenario_id == "exam-pgd-03")


def test_the_bundled_forms_pai_gow_item_is_dealt_many_ways_each_fault_from_chapter_645c(form):
    """Edition 2 of the floor supervisor's form dealt its Pai Gow item one fault: 26 deals over
    300 sittings, the commonest about one sitting in nine, so a trainee who learnt the few
    commonest would often be sat one of them. Edition 3 deals it three: over 150 sittings (their
    proof keys made up, as the code gives them) it comes out more than 100 ways and none more than
    five times, and every fault dealt breaks a section of 58 Pa. Code § 645c.2."""
    import collections
    import hashlib

    from trainer.exams.forms import _dealt_for  # a sitting's deal of one item (ExamForm.dealt_for)

    p = pai_gow(form)
    item = form.items[p]
    assert item.supervise is not None and item.supervise.faults == 3
    scenario = exam_items()["exam-pgd-03"]
    assert scenario.text == item.text
    deals: collections.Counter = collections.Counter()
    for k in range(150):
        rnd = _dealt_for(p, scenario, item.supervise, hashlib.sha256(f"sitting {k}".encode()).digest())
        deals[tuple((f.type.id, f.step) for f in rnd.faults)] += 1
        assert len(rnd.faults) == 3
        assert all(s.startswith("58 Pa. Code § 645c.2") for f in rnd.faults for s in f.type.sections)
    assert len(deals) > 100, len(deals)
    assert deals.most_common(1)[0][1] <= 5, deals.most_common(3)


def test_a_sitting_issued_on_the_earlier_edition_is_sat_and_certified_on_it(tmp_path, ivy, form):
    """A sitting of edition 2 issued before the app was updated: the app's start-up stores
    edition 3 and archives 2, and the sitting is still sat and certified on edition 2 (its Pai
    Gow item's one fault, dealt for the sitting)."""
    from trainer.exams import add_bundled_forms, add_form, list_forms, read_form

    earlier = read_form(Path(__file__).parent / "data" / "floor-supervisor-edition-2.json")
    assert earlier.uid == "example-supervisor-2" and earlier.uid != form.uid
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        add_form(ledger, earlier)
        token = issue_sitting(ledger, ivy, earlier, "Ana Ruiz")
        add_bundled_forms(ledger)
        assert form.uid in {f.uid for f in list_forms(ledger)}
        assert earlier.uid not in {f.uid for f in list_forms(ledger)}  # archived, not offered

    def caught(p, session):
        return [Flag(f.at + 0.5, f.target, f.type.id) for f in session.form.round(p).faults]

    _, session, record = sit(tmp_path, ivy, earlier, "Ana Ruiz", caught, token=token)
    assert session.form.uid == earlier.uid
    assert len(session.form.round(pai_gow(earlier)).faults) == 1
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        certificate = certify(ledger, ivy, record, token)
    assert certificate["passed"] is True and certificate["total"] == 100
    assert certificate["form"]["uid"] == earlier.uid
    assert certificate["form"]["digest"] == earlier.digest
