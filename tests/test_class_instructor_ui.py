"""The instructor's side of "whose attempts" in the app, on a real PostgreSQL
(trainer.exams.classledger): Exam › Forms › Give to class puts the form on the class server (and
says so, or that it was given already, refused or out of reach); a form just made is offered to
the class; the Class tab's Trainee logins… makes a login per trainee and shows each password
once, to copy or print, and its Workstations… enrols workstations with logins of their own (each
address shown once) and revokes them. Out of class all are disabled, saying why. Clicked as an instructor
clicks them."""

from __future__ import annotations

import psycopg
import pytest

from tests.support.class_server import free_port
from tests.support.exams import form
from tests.support.live_class import WITHIN, fast_pushes  # noqa: F401 (a fixture)
from tests.support.screens import PASSPHRASE, answer, build_form, window
from trainer.exams import add_bundled_forms, add_form, installation_key
from trainer.progress import Store

pytestmark = pytest.mark.usefixtures("fast_pushes")


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


def in_class(page) -> dict[str, str]:
    """The Forms list's "In the class" column, by form name."""
    from ui.exams.forms import IN_CLASS

    return {page.forms.item(r, 0).text(): page.forms.item(r, IN_CLASS).text()
            for r in range(page.forms.rowCount())}


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
    from ui.exams.forms import IN_CLASS

    assert page.give_button.isEnabled() and page.give_button.text() == "Give to &class"
    assert not page.forms.isColumnHidden(IN_CLASS)
    qtbot.waitUntil(lambda: set(in_class(page).values()) == {"not given"}, timeout=WITHIN)  # on a thread
    assert given(klass) == []
    [said] = click_give(qtbot, page)
    assert "'Floor supervisor exam' is given to the class" in said and "3 attempts each" in said
    assert given(klass) == [("floor-1", "Floor supervisor exam", 3, "instructor")]
    assert in_class(page)["Floor supervisor exam"] == "given, 3 attempts"
    page.refresh()  # read again from the server
    qtbot.waitUntil(lambda: not page.given_reader.running, timeout=WITHIN)
    assert in_class(page)["Floor supervisor exam"] == "given, 3 attempts"
    assert in_class(page)["Pai Gow dice wagers: dealer certification (example)"] == "not given"
    page.forms.selectRow(list(in_class(page)).index("Floor supervisor exam"))  # the list refilled
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
    from trainer.classes import class_address

    gone = class_address(f"postgresql://instructor:pw@127.0.0.1:{free_port()}/{klass.database}")
    w, page = forms_tab(qtbot, school, gone)
    [said] = click_give(qtbot, page)
    assert said.startswith("Not given: The class server cannot be reached now")
    assert "'Floor supervisor exam' was not given to the class" in said
    qtbot.waitUntil(lambda: in_class(page)["Floor supervisor exam"] == "?", timeout=WITHIN)
    assert "cannot be reached" in page.forms.item(page.forms.currentRow(), 6).toolTip()
    w.close()


def test_give_to_class_is_disabled_out_of_class_saying_why(qtbot, school, klass):
    w, page = forms_tab(qtbot, school)
    assert not page.give_button.isEnabled()
    tip = page.give_button.toolTip()
    assert "not in a class" in tip and "File › Join class" in tip
    assert page.forms.isColumnHidden(6), "no class, no column saying what the class was given"
    w.rejoin_class(klass.address("instructor"))  # joined now: enabled
    assert page.give_button.isEnabled() and "Give the selected form" in page.give_button.toolTip()
    assert not page.forms.isColumnHidden(6)
    qtbot.waitUntil(lambda: in_class(page)["Floor supervisor exam"] == "not given", timeout=WITHIN)
    w.leave_class()
    assert not page.give_button.isEnabled() and page.forms.isColumnHidden(6)
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


# --------------------------------------------------------------------------- Trainee logins…
def class_tab(qtbot, tmp_path, klass, login: str | None = "instructor", address=None):
    """The instructor's Class tab, in the class with `login` (or at `address`; None: in none),
    Ana's results in the instructor's file (sent to `klass` before the tab first reads it)."""
    from tests.support.class_server import progress_file
    from tests.support.live_class import sent
    from tests.support.screens import on_class_tab, window_for

    store = Store.open(progress_file(tmp_path / "teacher.db", {"Ana Ruiz": 2}))
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="a long class passphrase")
    w = window_for(qtbot, store, store.trainee(lee))[0]
    if address is not None or login is not None:
        w.rejoin_class(address or klass.address(login))
    if address is None and login is not None:
        sent(w)
    return w, on_class_tab(w), store


def open_logins(qtbot, page):
    from ui.qt import Qt

    qtbot.mouseClick(page.klass.logins_button, Qt.MouseButton.LeftButton)
    dialog = page.logins_dialog
    qtbot.waitExposed(dialog)
    return dialog


def tick(dialog, name: str) -> None:
    from ui.qt import Qt

    dialog.names.findItems(name, Qt.MatchFlag.MatchExactly)[0].setCheckState(Qt.CheckState.Checked)


def shown(dialog) -> list[list[str]]:
    return [[dialog.table.item(r, c).text() for c in range(3)] for r in range(dialog.table.rowCount())]


def connects(klass, login: str, password: str) -> bool:
    try:
        with klass.connect(login, password) as conn:
            return conn.execute("SELECT session_user").fetchone()[0] == login
    except psycopg.OperationalError:
        return False


def test_trainee_logins_made_from_the_class_tab_connect_with_the_passwords_shown(qtbot, tmp_path, klass):
    from ui.qt import QApplication, Qt

    w, page, store = class_tab(qtbot, tmp_path, klass)
    qtbot.waitUntil(lambda: page.live is not None and page.live.refreshes >= 1, timeout=WITHIN)
    assert page.klass.logins_button.isEnabled() and page.klass.logins_button.text() == "Trainee &logins…"
    dialog = open_logins(qtbot, page)
    assert [dialog.names.item(i).text() for i in range(dialog.names.count())] == ["Ana Ruiz"]
    assert not dialog.shown.isVisible() and dialog.make_button.isDefault()
    tick(dialog, "Ana Ruiz")
    qtbot.keyClicks(dialog.name, "  Bo   Chen ")  # a trainee who has sent nothing yet, by name
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)  # Enter in the field adds the name
    assert dialog.isVisible() and dialog.chosen() == ["Ana Ruiz", "Bo Chen"]
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    rows = shown(dialog)
    assert [r[0] for r in rows] == ["Ana Ruiz", "Bo Chen"] and dialog.shown.isVisible()
    assert "Shown only now" in dialog.warning.text() and dialog.problem.isHidden()
    for name, password, login in rows:
        assert len(password) >= 20 and connects(klass, login, password), name
    with klass.admin() as conn:
        assert conn.execute("SELECT name FROM trainee_logins ORDER BY name").fetchall() == [("Ana Ruiz",),
                                                                                          ("Bo Chen",)]
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "".join(f"{n}\t{p}\t{lg}\n" for n, p, lg in rows)
    pdf = dialog.print_pdf(str(tmp_path / "logins.pdf"))
    assert pdf.read_bytes()[:5] == b"%PDF-"

    tick(dialog, "Ana Ruiz")  # made again: a new password, the old one refused
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    again = shown(dialog)
    assert [r[0] for r in again] == ["Bo Chen", "Ana Ruiz"] and again[1][2] == rows[0][2]
    assert again[1][1] != rows[0][1]
    assert connects(klass, rows[0][2], again[1][1]) and not connects(klass, rows[0][2], rows[0][1])
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    w.close()
    store.close()


def test_a_workstation_login_makes_no_login_and_shows_nothing(qtbot, tmp_path, klass):
    from ui.qt import Qt

    w, page, store = class_tab(qtbot, tmp_path, klass, "workstation")
    dialog = open_logins(qtbot, page)
    tick(dialog, "Ana Ruiz")
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)
    assert dialog.table.rowCount() == 0 and not dialog.shown.isVisible()
    said = dialog.problem.text()
    assert said.startswith("No login made: the class at ") and "refuses this login (workstation)" in said
    assert "only the instructor's login makes trainee logins" in said and "\n" not in said
    assert klass.count("trainee_logins") == 0
    dialog.close()
    w.close()
    store.close()


def test_a_server_out_of_reach_makes_no_login(qtbot, tmp_path, klass):
    from trainer.classes import class_address
    from ui.qt import Qt

    gone = class_address(f"postgresql://instructor:pw@127.0.0.1:{free_port()}/{klass.database}")
    w, page, store = class_tab(qtbot, tmp_path, klass, address=gone)
    dialog = open_logins(qtbot, page)
    dialog.name.setText("Bo Chen")
    qtbot.mouseClick(dialog.make_button, Qt.MouseButton.LeftButton)  # the name typed is taken too
    assert dialog.table.rowCount() == 0
    assert dialog.problem.text().startswith("No login made: the class at ")
    assert "cannot be reached" in dialog.problem.text()
    assert dialog.status.text() == "", "the line said while it waited is cleared"
    dialog.close()
    w.close()
    store.close()


def test_trainee_logins_is_disabled_out_of_class_saying_why(qtbot, tmp_path, klass):
    w, page, store = class_tab(qtbot, tmp_path, klass, login=None)
    button, stations = page.klass.logins_button, page.klass.workstations_button
    assert not button.isEnabled() and "not in a class" in button.toolTip()
    assert not stations.isEnabled() and "not in a class" in stations.toolTip()
    w.rejoin_class(klass.address("instructor"))
    assert button.isEnabled() and "shown once" in button.toolTip()
    assert stations.isEnabled() and "shown once" in stations.toolTip()
    w.leave_class()
    assert not button.isEnabled() and not stations.isEnabled()
    w.close()
    store.close()


# --------------------------------------------------------------------------- Workstations…
def open_workstations(qtbot, page):
    from ui.qt import Qt

    qtbot.mouseClick(page.klass.workstations_button, Qt.MouseButton.LeftButton)
    dialog = page.workstations_dialog
    qtbot.waitExposed(dialog)
    return dialog


def listed(dialog) -> list[list[str]]:
    return [[dialog.table.item(r, c).text() for c in (0, 1)] for r in range(dialog.table.rowCount())]


def test_workstations_enrolled_from_the_class_tab_join_with_the_address_shown(qtbot, tmp_path, klass):
    from tests.support.screens import answer
    from trainer.classes import ClassServerError
    from trainer.classes.workstation.connection import ClassLedger
    from ui.qt import QApplication, Qt

    w, page, store = class_tab(qtbot, tmp_path, klass)
    assert page.klass.workstations_button.isEnabled()
    dialog = open_workstations(qtbot, page)
    assert listed(dialog) == [] and dialog.problem.isHidden() and not dialog.shown.isVisible()
    assert not dialog.revoke_button.isEnabled()
    for name in ("Table 1", "  Table   2 "):
        qtbot.keyClicks(dialog.name, name)
        qtbot.keyClick(dialog.name, Qt.Key.Key_Return)  # Enter in the field enrols it
    assert dialog.isVisible() and listed(dialog) == [["Table 1", "enrolled"], ["Table 2", "enrolled"]]
    assert "Shown only now" in dialog.warning.text() and dialog.shown.isVisible()
    assert "127.0.0.1" in dialog.loopback.text() and dialog.loopback.isVisible()
    made = dict(line.split(":  ") for line in dialog.addresses.toPlainText().splitlines())
    assert set(made) == {"Table 1", "Table 2"} and dict(dialog.made) == made
    one, two = ClassLedger(made["Table 1"]), ClassLedger(made["Table 2"])
    assert one.address.user != two.address.user and one.class_uid() == two.class_uid()
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == f"Table 1\t{made['Table 1']}\nTable 2\t{made['Table 2']}\n"

    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton,
                     pos=dialog.table.visualItemRect(dialog.table.item(0, 0)).center())
    assert dialog.revoke_button.isEnabled()
    seen: list[str] = []
    answer({"button": "Yes"}, seen=seen)
    qtbot.mouseClick(dialog.revoke_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: listed(dialog)[0] == ["Table 1", "revoked"], timeout=WITHIN)
    assert "Table 1 stops at once" in seen[0] and dialog.status.text() == "Table 1 was revoked."
    assert dialog.addresses.toPlainText() == f"Table 2:  {made['Table 2']}"  # Table 1's works no more
    with pytest.raises(ClassServerError):
        one.class_uid()
    assert two.class_uid()
    dialog.table.selectRow(0)
    assert not dialog.revoke_button.isEnabled(), "revoked already"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    w.close()
    store.close()


def test_the_shared_login_is_closed_and_opened_from_the_workstations_dialog_when_confirmed(qtbot, tmp_path,
                                                                                         klass):
    """The dialog says the shared login's state, closes it only once a workstation is enrolled and
    the instructor confirms (No changes nothing), and opens it again: the shared password
    connects no more while it is closed."""
    from tests.support.screens import answer
    from ui.qt import Qt

    w, page, store = class_tab(qtbot, tmp_path, klass)
    dialog = open_workstations(qtbot, page)
    assert "Shared workstation login: open." in dialog.shared_state.text()
    assert not dialog.shared_button.isEnabled(), "nothing enrolled: closing would stop every workstation"
    qtbot.keyClicks(dialog.name, "Table 1")
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
    assert dialog.shared_button.isEnabled() and dialog.shared_button.text() == "Close the &shared login…"
    seen: list[str] = []
    answer({"button": "No"}, seen=seen)
    qtbot.mouseClick(dialog.shared_button, Qt.MouseButton.LeftButton)
    assert "it connects to this class no more" in seen[0] and "Enrolled (1): Table 1." in seen[0]
    assert klass.count("shared_login_events") == 0 and "open" in dialog.shared_state.text()
    answer({"button": "Yes"}, seen=seen)
    qtbot.mouseClick(dialog.shared_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "closed</b> since" in dialog.shared_state.text(), timeout=WITHIN)
    assert "Only the 1 enrolled workstation join" in dialog.shared_state.text()
    assert dialog.status.text() == "The shared workstation login is closed."
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        klass.connect("workstation")
    assert dialog.shared_button.text() == "Open the &shared login…"
    answer({"button": "Yes"}, seen=seen)
    qtbot.mouseClick(dialog.shared_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Shared workstation login: open." in dialog.shared_state.text(), timeout=WITHIN)
    assert "can again lock them all out" in seen[-1]
    klass.connect("workstation").close()
    dialog.close()
    w.close()
    store.close()


def test_a_workstation_login_lists_and_enrols_no_workstation(qtbot, tmp_path, klass):
    from ui.qt import Qt

    w, page, store = class_tab(qtbot, tmp_path, klass, "workstation")
    dialog = open_workstations(qtbot, page)
    said = dialog.problem.text()
    assert said.startswith("The workstations cannot be read: the class at ")
    assert "refuses this login (workstation)" in said
    assert "only the instructor's login enrols and revokes workstations" in said and "\n" not in said
    qtbot.keyClicks(dialog.name, "Table 1")
    qtbot.mouseClick(dialog.enrol_button, Qt.MouseButton.LeftButton)
    assert dialog.problem.text().startswith("Table 1 was not enrolled: the class at ")
    assert "refuses this login (workstation)" in dialog.problem.text() and not dialog.shown.isVisible()
    assert klass.count("workstation_logins") == 0
    dialog.close()
    w.close()
    store.close()
