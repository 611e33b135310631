"""Who may be an instructor: whoever holds an instructor key and its passphrase (once anyone
could press "New instructor…" and sign off). Driven through the real profile
dialog."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.support.screens import answer
from trainer.exams.keys import InstructorKey, write_private_key
from trainer.progress import Store

PASS = "correct horse battery staple"


@pytest.fixture
def dialog(qtbot, tmp_path):
    from ui.shell.profiles import ProfileDialog

    store = Store.open(tmp_path / "school.db")
    store.add_trainee("Rosa Diaz")
    d = ProfileDialog(store)
    qtbot.addWidget(d)
    d.show()
    yield d
    d.close()
    store.close()


def choose(dialog, name: str) -> None:
    from ui.qt import Qt

    row = next(r for r in range(dialog.list.count()) if dialog.list.item(r).text().startswith(name))
    dialog.list.setCurrentRow(row)
    assert dialog.list.currentItem().data(Qt.ItemDataRole.UserRole)


def test_a_new_instructor_gets_a_sealed_key_and_a_weak_passphrase_is_refused(dialog):
    assert dialog.add_instructor(name="Lee Park", passphrase="lee12345") is None
    assert "too weak" in dialog.message.text()
    assert [t.name for t in dialog.store.trainees()] == ["Rosa Diaz"]

    lee = dialog.add_instructor(name="Lee Park", passphrase=PASS)
    trainee = dialog.store.trainee(lee)
    assert trainee.instructor and trainee.public_key and trainee.key_path
    assert stat.S_IMODE(os.stat(trainee.key_path).st_mode) == 0o600
    public = json.loads(Path(trainee.key_path + ".pub").read_text(encoding="utf-8"))
    assert public["public"] == trainee.public_key
    assert "Lee-Park.key" in dialog.message.text()


def test_opening_an_instructor_profile_needs_the_keys_passphrase(dialog):
    dialog.add_instructor(name="Lee Park", passphrase=PASS)
    choose(dialog, "Lee Park")
    seen: list = []
    answer({"text": "correct horse battery stable"}, {"button": "OK"}, seen=seen)
    dialog.accept()
    assert dialog.chosen is None and "passphrase is not right" in seen[0].lower()
    answer({"text": PASS})
    dialog.accept()
    assert dialog.chosen is not None and dialog.chosen.name == "Lee Park"


def test_a_profile_made_from_an_existing_key_opens_only_with_that_key(dialog, tmp_path):
    ivy = InstructorKey.generate("Ivy Park")
    write_private_key(tmp_path / "ivy.key", ivy, PASS)
    ivy_id = dialog.add_instructor(name="Ivy Park", key_file=str(tmp_path / "ivy.key"),
                                   passphrase=PASS)
    assert dialog.store.trainee(ivy_id).public_key == ivy.public.raw.hex()
    # the key moved, and someone offers another key with the same passphrase
    (tmp_path / "ivy.key").rename(tmp_path / "moved.key")
    mallory = InstructorKey.generate("Ivy Park")
    write_private_key(tmp_path / "mallory.key", mallory, PASS)
    ivy_profile = dialog.store.trainee(ivy_id)
    seen: list = []
    answer({"button": "OK"}, seen=seen)  # the key file as the file picker would give it
    assert not dialog.open_instructor(ivy_profile, PASS, str(tmp_path / "mallory.key"))
    assert "not Ivy Park's instructor key" in seen[0]
    assert dialog.open_instructor(ivy_profile, PASS, str(tmp_path / "moved.key"))
