"""On an OS account the trainees share, the list of sittings started decides nothing in a class.
The attack (the third cold review): a trainee writes a classmate's nonce into the account's list of
sittings started (trainer.exams.seen), or holds the list's lock, so her start of her own class
sitting is refused "already started on this computer" (or "another copy of the app is starting
a sitting"). Now a sitting issued in a class is refused by the class server's record alone (one
use, first wins), and the list only adds words."""

from __future__ import annotations

import pytest
from filelock import FileLock

from tests.support.exams import code_of, form, issuer
from trainer.exams import installation_key, start_exam
from trainer.exams.certify import issue_sitting
from trainer.exams.errors import ClassLedgerError
from trainer.exams.keys import InstructorKey
from trainer.exams.seen import LIST, SittingsSeen
from trainer.exams.session import sitting_used
from trainer.progress import Store


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


def test_a_classmate_on_the_shared_account_cannot_refuse_her_class_sitting(tmp_path, klass, joined, ivy):
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Ana Ruiz", classroom=joined("instructor"))
    default = tmp_path / "data" / "progress.db"
    default.parent.mkdir()
    seen = SittingsSeen(default)
    (default.parent / LIST).write_text(f"{token['nonce']}\n")  # the classmate's line
    held = FileLock(default.parent / f".{LIST}.lock")  # and the list's lock, held
    held.acquire()
    try:
        with Store.open(default) as store:
            store.add_trainee("Ana Ruiz")
            assert sitting_used(store, token, seen) is None
            ana = store.find_trainee("Ana Ruiz").id
            session = start_exam(store, exam, ana, installation_key(tmp_path / "k"), sitting=token,
                                 classroom=joined.seat(), start_code=code_of(token), seen=seen)
            assert session.online
            session.abandon()
        # the class server's record still refuses a second start of it, on any file
        with Store.open(tmp_path / "elsewhere.db") as other:
            other.add_trainee("Ana Ruiz")
            with pytest.raises(ClassLedgerError, match="already used"):
                start_exam(other, exam, other.find_trainee("Ana Ruiz").id, installation_key(tmp_path / "k"),
                           sitting=token, classroom=joined.seat(), start_code=code_of(token),
                           seen=SittingsSeen(tmp_path / "elsewhere.db"))
    finally:
        held.release()
