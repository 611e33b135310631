"""The instructor's side of "whose attempts" in the app, on a real PostgreSQL (issue 14;
trainer.exams.classledger): Exam › Forms › Give to class puts the form on the class server (and
says so, or that it was given already, refused or out of reach); a form just made is offered to
the class; the Class tab's Trainee logins… makes a login per trainee and shows each password
once, to copy or print. Out of class both are disabled, saying why. Clicked as an instructor
clicks them."""

from __future__ import annotations

import pytest

from tests import class_server_fixtures
from tests.class_server_support import free_port
from tests.test_exam_ui import PASSPHRASE, answer, build_form, window
from tests.test_exams_trust import form
from trainer.exams import add_bundled_forms, add_form, installation_key
from trainer.progress import Store

server, klass = class_server_fixtures.server, class_server_fixtures.klass  # the real PostgreSQL
WITHIN = 60_000  # ms: only a guard against a hang


@pytest.fixture(autouse=True)
def fast_pushes(monkeypatch):
    monkeypatch.setattr("ui.classroom.OPTIONS", {"poll": 0.05, "backoff": (0.05, 0.5)})


@pytest.fixture
def school(tmp_path):
    store = Store.open(tmp_path / "school.db")
    lee = store.add_trainee("Lee Park", instructor=True, passphrase=PASSPHRASE)
    store.add_trainee("Rosa Diaz")
    add_bundled_forms(store)
    add_form(store, form())  # "Floor supervisor exam", 3 attempts
    yield store, installation_key(tmp_path / "installation.key"), lee
    store.close()


def forms_tab(qtbot, school, address=None):
    """The instructor's Exam screen on its Forms tab, in the class at `address` (None: in none),
    the floor supervisor exam selected."""
    store, key, lee = school
    w = window(qtbot, store, key, lee)
    if address is not None:
        w.rejoin_class(address)
    page = w.show_screen("exam")
    page.tabs.setCurrentIndex([page.tabs.tabText(i) for i in range(page.tabs.count())].index("Forms"))
    names = [page.forms.item(r, 0).text() for r in range(page.forms.rowCount())]
    page.forms.selectRow(names.index("Floor supervisor exam"))
    return w, page


def given(klass) -> list[tuple]:
    with klass.admin() as conn:
        return conn.execute("SELECT form_uid, name, attempts_allowed, given_by FROM exam_forms_given "
                            "ORDER BY form_uid").fetchall()


def click_give(qtbot, page) -> list[str]:
    """Click Give to class; the message it answers with."""
    from ui.qt import Qt

    seen: list[str] = []
    answer({"button": "OK"}, seen=seen)
    qtbot.mouseClick(page.give_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(seen), timeout=WITHIN)
    return seen


# --------------------------------------------------------------------------- Give to class
def test_give_to_class_puts_the_form_on_the_server_once(qtbot, school, klass):
    w, page = forms_tab(qtbot, school, klass.address("instructor"))
    assert page.give_button.isEnabled() and page.give_button.text() == "Give to &class"
    assert given(klass) == []
    [said] = click_give(qtbot, page)
    assert "'Floor supervisor exam' is given to the class" in said and "3 attempts each" in said
    assert given(klass) == [("floor-1", "Floor supervisor exam", 3, "instructor")]
    [said] = click_give(qtbot, page)
    assert "was already given to the class" in said and "nothing changed" in said
    assert len(given(klass)) == 1
    assert w.statusBar().currentMessage() == "", "the line said while it waited is cleared"
    w.close()


def test_a_workstation_login_is_refused_with_the_reason(qtbot, school, klass):
    w, page = forms_tab(qtbot, school, klass.address("workstation"))
    [said] = click_give(qtbot, page)
    assert said.startswith("Not given: The class server refuses this")
    assert "Only the instructor's login gives forms to the class" in said
    assert given(klass) == []
    w.close()


def test_a_server_out_of_reach_is_said(qtbot, school, klass):
    from trainer.progress import class_address

    gone = class_address(f"postgresql://instructor:pw@127.0.0.1:{free_port()}/{klass.database}")
    w, page = forms_tab(qtbot, school, gone)
    [said] = click_give(qtbot, page)
    assert said.startswith("Not given: The class server cannot be reached now")
    assert "'Floor supervisor exam' was not given to the class" in said
    w.close()


def test_give_to_class_is_disabled_out_of_class_saying_why(qtbot, school, klass):
    w, page = forms_tab(qtbot, school)
    assert not page.give_button.isEnabled()
    tip = page.give_button.toolTip()
    assert "not in a class" in tip and "File › Join class" in tip
    w.rejoin_class(klass.address("instructor"))  # joined now: enabled
    assert page.give_button.isEnabled() and "Give the selected form" in page.give_button.toolTip()
    w.leave_class()
    assert not page.give_button.isEnabled()
    w.close()


def test_a_form_just_made_is_offered_to_the_class(qtbot, school, klass):
    w, page = forms_tab(qtbot, school, klass.address("instructor"))
    seen: list[str] = []
    answer({"button": "Give to class"}, {"button": "OK"}, seen=seen)
    build_form(qtbot, page)
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=WITHIN)
    assert "Give 'Pai Gow and Props & Hops check ride' to the class now?" in seen[0]
    assert "is given to the class" in seen[1]
    assert [g[1] for g in given(klass)] == ["Pai Gow and Props & Hops check ride"]
    w.close()


def test_not_now_gives_nothing(qtbot, school, klass):
    w, page = forms_tab(qtbot, school, klass.address("instructor"))
    answer({"button": "Not now"})
    build_form(qtbot, page)
    assert given(klass) == []
    w.close()
