"""The Class tab's Merge…, on a real PostgreSQL (trainer.classes.server.people): the instructor
selects a trainee, chooses the other row that is the same person, and the live view shows one row;
the class keeps who merged them. A class tab that is not live offers no merge."""

from __future__ import annotations

import pytest

from tests.support.class_server import progress_file, push_all
from tests.support.command import run_here
from tests.support.live_class import WITHIN, fast_pushes, instructor_window  # noqa: F401 (a fixture)
from trainer.classes.server.people import merge

pytestmark = pytest.mark.usefixtures("fast_pushes")


def test_an_instructor_merges_two_rows_from_the_class_tab(qtbot, tmp_path, klass, monkeypatch):
    from ui.qt import Qt

    # no reading of the class on a clock: the view shows each change because a call asked for it
    # (before: a refused merge left the view stale until the next reread, 10 s on)
    monkeypatch.setattr("ui.classroom.live.REREAD_S", 3600.0)
    push_all(progress_file(tmp_path / "a.db", {"Dee": 2}), klass)
    push_all(progress_file(tmp_path / "b.db", {"Dee Park": 1}), klass)
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana", "Dee", "Dee Park"], timeout=WITHIN)
    assert view.merge_button.isVisible() and view.merge_button.isEnabled()
    dee, park = view.trainees[1], view.trainees[2]
    cell = view.table.visualRect(view.table.model().index(1, 0)).center()
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.mouseClick(view.merge_button, Qt.MouseButton.LeftButton)
    ask = view.merge_dialog
    qtbot.waitExposed(ask)
    assert ask.trainee.uid == dee.uid
    choices = [ask.other.itemText(i) for i in range(ask.other.count())]
    assert choices == [f"Ana (trainee id {view.trainees[0].uid[:8]}…)",
                       f"Dee Park (trainee id {park.uid[:8]}…)"]
    ask.other.setCurrentIndex(1)
    ask.grab().save(str(tmp_path / "merge.png"))
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible() and ask.problem.isHidden()
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana", "Dee"], timeout=WITHIN)
    with klass.admin() as admin:
        assert admin.execute("SELECT uid, other_uid, event, done_by FROM trainee_merges").fetchall() == [
            (*sorted((dee.uid, park.uid)), "merged", "instructor")]
    # the class refuses what was recorded meanwhile (another instructor merged Ana and Dee): one
    # line in the dialog, which stays open
    qtbot.mouseClick(view.merge_button, Qt.MouseButton.LeftButton)
    ask = view.merge_dialog
    qtbot.waitExposed(ask)
    ana = next(t for t in view.trainees if t.name == "Ana")
    ask.other.setCurrentIndex([t.uid for t in ask.others].index(ana.uid) if ask.trainee.uid != ana.uid else 0)
    with klass.connect("instructor") as instructor:
        merge(instructor, ana.uid, dee.uid)
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert ask.isVisible() and ask.problem.text().startswith("Not merged: ")
    assert "merged already" in ask.problem.text()
    ask.reject()
    # Part: the pair Dee and Dee Park parted again, by a record of its own; Ana and Dee stay one
    # one person now, shown under the row the class first knew: Dee's (pushed before Ana's)
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Dee"], timeout=WITHIN)
    qtbot.mouseClick(view.merge_button, Qt.MouseButton.LeftButton)
    ask = view.merge_dialog
    qtbot.waitExposed(ask)
    assert not ask.button.isEnabled(), "one trainee in the class: nobody to merge with"
    pairs = [ask.pairs.itemText(i) for i in range(ask.pairs.count())]
    assert {frozenset((m.name, m.other_name)) for m in ask.merged} == {
        frozenset(("Dee", "Dee Park")), frozenset(("Ana", "Dee"))}
    assert len(pairs) == 2 and all(" (merged by instructor, " in p for p in pairs)
    ask.pairs.setCurrentIndex(next(i for i, m in enumerate(ask.merged)
                                   if {m.uid, m.other_uid} == {dee.uid, park.uid}))
    ask.grab().save(str(tmp_path / "part.png"))
    qtbot.mouseClick(ask.part_button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible() and ask.problem.isHidden()
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Dee", "Dee Park"], timeout=WITHIN)
    with klass.admin() as admin:
        assert [e for (e,) in admin.execute("SELECT event FROM trainee_merges ORDER BY id")] == [
            "merged", "merged", "parted"]
    w.close()
    store.close()


def test_no_merge_out_of_a_live_class(qtbot, tmp_path):
    from tests.support.screens import on_class_tab, window_for
    from trainer.progress import Store

    store = Store.open(progress_file(tmp_path / "teacher.db", {"Ana": 1, "Bo": 1}))
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="a long class passphrase")
    w = window_for(qtbot, store, store.trainee(lee))[0]
    page = on_class_tab(w)
    assert [t.name for t in page.klass.trainees] == ["Ana", "Bo"]
    assert page.klass.merge_button.isHidden(), "a progress file's class view merges nobody"
    w.close()
    store.close()


def test_a_trainee_sends_her_results_set_aside_with_her_own_login(qtbot, tmp_path, klass):
    """Ana has a class login; she practised at the shared workstation, whose login may not send
    her results: they were set aside. File › Send my results with my class login… asks her
    password: a wrong one is refused in words and sends nothing; hers, on a profile made before
    her login, keeps her claim for the instructor and says so in one line; settled hers, it sends
    exactly those."""
    from tests.support.screens import window_for
    from trainer.classes.server.logins import class_login
    from trainer.progress import Store
    from ui.classroom.own_login import CLAIMED_SAYS
    from ui.qt import Qt

    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana Ruiz", "ana-password")
    path = progress_file(tmp_path / "shared.db", {"Ana Ruiz": 2, "Bo": 1})
    store = Store.open(path)
    w = window_for(qtbot, store, store.find_trainee("Ana Ruiz"))[0]
    assert not w.send_own_action.isEnabled(), "out of a class, nothing to send it with"
    w.rejoin_class(klass.address())
    classroom = w.services.classroom
    qtbot.waitUntil(lambda: len(classroom.connection.refused_attempts()) == 2, timeout=WITHIN)
    assert klass.count() == 1  # Bo's
    qtbot.waitUntil(lambda: "File › Send my results with my class login…" in classroom.label.toolTip(),
                    timeout=WITHIN)
    assert w.send_own_action.isEnabled()
    w.send_own_action.trigger()
    ask = w.send_own_dialog
    qtbot.waitExposed(ask)
    assert "The class refused 2 results of <b>Ana Ruiz</b>" in ask.intro.text()
    assert not ask.send_button.isEnabled()
    qtbot.keyClicks(ask.password, "not her password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    assert ask.status.text().startswith("Not sent: the class refuses this password")
    assert ask.password.text() == "" and klass.count() == 1
    qtbot.keyClicks(ask.password, "ana-password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    # the profile was made before her login: her push of its id is no proof it is hers (s043), so
    # the class keeps her claim for the instructor, and one line says her results wait
    assert ask.status.text() == CLAIMED_SAYS["kept"] and ask.status.objectName() == "wrong"
    ask.grab().save(str(tmp_path / "send-own-kept.png"))
    assert klass.count() == 1 and len(classroom.connection.refused_attempts()) == 2
    ask.reject()
    done = run_here("settle-claim", store.find_trainee("Ana Ruiz").uid, "--to", "claimant", "--reason",
                    "Ana's profile at the shared workstation", "--class", klass.address("instructor").url)
    assert done.returncode == 0, done.stderr
    w.send_own_action.trigger()
    ask = w.send_own_dialog
    qtbot.waitExposed(ask)
    qtbot.keyClicks(ask.password, "ana-password")
    qtbot.mouseClick(ask.send_button, Qt.MouseButton.LeftButton)
    # settled hers: her results sent with her login register her profile's id as hers
    assert ask.status.text() == (f"{CLAIMED_SAYS['hers']} "
                                 "2 results sent to the class with the login of Ana Ruiz.")
    ask.grab().save(str(tmp_path / "send-own.png"))
    assert klass.count() == 3 and not ask.password.isEnabled()
    assert classroom.connection.refused_attempts() == []
    ask.reject()
    w.close()
    store.close()


def test_a_new_profile_takes_her_class_id_once_her_password_proves_her_login(qtbot, tmp_path, klass,
                                                                             monkeypatch):
    """At a second workstation Ana Ruiz, who has a class login, makes her profile: the dialog asks
    her class password; a wrong one makes nothing and says so; hers makes the profile under the
    trainee id the class knows her by. Bo Chen, with no login, is asked nothing and gets a
    profile of this workstation's own."""
    from trainer.classes.server.logins import class_login
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.progress import Store
    from ui.qt import QInputDialog, QPushButton, Qt
    from ui.shell.profiles import CLASS_IDENTITY_TAKEN, CLASS_PASSWORD_ASKED, ProfileDialog

    first = progress_file(tmp_path / "table-1.db", {"Ana Ruiz": 2, "Bo Chen": 1})
    assert push_all(first, klass) == 3
    with klass.connect("instructor") as instructor:
        class_login(instructor, "Ana Ruiz", "ana-password")
    with Store.open(first) as store:
        hers, bos = store.find_trainee("Ana Ruiz").uid, store.find_trainee("Bo Chen").uid
    store = Store.open(tmp_path / "table-2.db")
    dialog = ProfileDialog(store, classroom=ClassLedger(klass.address("workstation")))
    qtbot.addWidget(dialog)
    dialog.show()
    [new] = [b for b in dialog.findChildren(QPushButton) if b.text() == "New trainee…"]
    asked: list[str] = []
    typed = iter(["Ana Ruiz", "not-her-password", "Ana Ruiz", "ana-password", "Bo Chen"])

    def get_text(_parent, _title, label, *_args, **_kw):
        asked.append(label)
        return next(typed), True

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
    assert dialog.message.text().startswith("Not added: the class refuses this password for Ana Ruiz.")
    assert store.trainees() == []
    qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
    assert dialog.message.text() == CLASS_IDENTITY_TAKEN.format(name="Ana Ruiz")
    dialog.grab().save(str(tmp_path / "profile-class-id.png"))
    qtbot.mouseClick(new, Qt.MouseButton.LeftButton)
    assert asked == ["Name:", CLASS_PASSWORD_ASKED.format(name="Ana Ruiz"), "Name:",
                     CLASS_PASSWORD_ASKED.format(name="Ana Ruiz"), "Name:"]
    made = {t.name: t.uid for t in store.trainees()}
    assert made["Ana Ruiz"] == hers and made["Bo Chen"] != bos
    dialog.close()
    store.close()


def test_the_class_password_prompt_fits_a_laptops_screen(qtbot):
    """QInputDialog does not wrap its words: the question, in one line, was 1,496 px wide."""
    from ui.qt import QInputDialog, QLineEdit
    from ui.shell.profiles import CLASS_PASSWORD_ASKED

    asked = QInputDialog()
    asked.setLabelText(CLASS_PASSWORD_ASKED.format(name="Maria Fernanda Gonzalez Rodriguez"))
    asked.setTextEchoMode(QLineEdit.EchoMode.Password)
    qtbot.addWidget(asked)
    assert asked.sizeHint().width() < 1024
