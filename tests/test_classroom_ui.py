"""The app in a class, on a real PostgreSQL: File › Join class… (a bad address is a
message, a good one is joined and remembered), the status bar's class line while the server is
gone and after it is back, the instructor's Class tab following another workstation live, and a
trainee opened from it read from the server (and the live view's screenshot).

No test depends on how fast anything is: each waits for what it expects, with a generous limit."""

from __future__ import annotations

import itertools
import sys
import time

import pytest

from tests.support.class_server import T0, Class, attempt, frozen, progress_file, push_all
from tests.support.live_class import FAST, WITHIN, fast_pushes, instructor_window  # noqa: F401 (a fixture)
from tests.support.screens import on_class_tab
from tests.support.screens import window_for as progress_window
from trainer.classes import ClassConnection
from trainer.procedure.model import Skill
from trainer.progress import Store

pytestmark = pytest.mark.usefixtures("fast_pushes")


def window_for(qtbot, store, trainee):
    return progress_window(qtbot, store, trainee)[0]


def class_line(w) -> str:
    classroom = w.services.classroom
    return classroom.label.text() if classroom is not None and not classroom.label.isHidden() else ""


def test_join_class_refuses_a_bad_address_and_remembers_a_good_one(qtbot, tmp_path, klass):
    from ui.qt import QSettings, Qt

    path = progress_file(tmp_path / "ws.db", {"Ana": 3})
    store = Store.open(path)
    w = window_for(qtbot, store, store.find_trainee("Ana"))
    assert not w.leave_class_action.isEnabled()
    w.join_class()
    dialog = w.join_dialog
    qtbot.waitExposed(dialog)
    for bad, problem in (("http://10.0.0.5/dealer_class", "does not start with postgresql://"),
                         ("postgresql://10.0.0.5:5432/dealer_class", "names no user"),
                         ("postgresql://workstation:pw@10.0.0.5:99999/dealer_class", "not a postgresql://")):
        dialog.address.setText(bad)
        qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
        assert dialog.isVisible(), "a bad address closes nothing"
        assert problem in dialog.problem.text() and dialog.problem.text().startswith("Not joined: ")
        assert w.services.classroom.connection is None
    good = klass.address()
    dialog.address.setText(good.url)
    qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert QSettings().value("class/address") == good.kept  # the password kept apart (test_class_password)
    assert w.leave_class_action.isEnabled()
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    assert klass.count() == 3
    assert "password" not in w.services.classroom.label.toolTip()  # the address shown without it
    w.close()
    assert w.services.classroom.connection is None, "quitting stops the pusher"
    store.close()

    store = Store.open(path)  # the next start rejoins the class remembered
    w = window_for(qtbot, store, store.find_trainee("Ana"))
    w.rejoin_class()
    assert w.services.classroom.address.kept == good.kept and w.services.classroom.address.passfile
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    w.leave_class()  # File › Leave class forgets it
    assert class_line(w) == "" and not QSettings().contains("class/address")
    assert not w.leave_class_action.isEnabled()
    w.close()
    store.close()


def test_a_session_without_a_progress_file_cannot_join(qtbot, klass):
    from ui.qt import Qt

    store = Store.open(":memory:")
    w = window_for(qtbot, store, store.trainee(store.add_trainee("Ana")))
    w.join_class()
    w.join_dialog.address.setText(klass.address().url)
    qtbot.mouseClick(w.join_dialog.join_button, Qt.MouseButton.LeftButton)
    assert "needs a progress file" in w.join_dialog.problem.text()
    w.join_dialog.close()
    w.close()


def test_the_status_line_counts_what_waits_while_the_server_is_gone(qtbot, tmp_path, klass):
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    store = Store.open(path)
    ana = store.find_trainee("Ana")
    w = window_for(qtbot, store, ana)
    w.rejoin_class(klass.address())  # as --class gives it
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    klass.server.crash()
    try:
        for n in (10, 11, 12):  # recorded as the app records them: the file first, then a wake
            store.record_attempt(attempt(ana.id, n))
            w.services.recorded.emit(n)
        qtbot.waitUntil(lambda: class_line(w) == "Class: 3 results waiting to be sent "
                                                  "(the class server cannot be reached: nothing "
                                                  "answers at its address and port; trying again)",
                        timeout=WITHIN)
        assert "trying again" in w.services.classroom.label.toolTip()
    finally:
        klass.server.start()
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    assert klass.count() == 5
    w.close()
    store.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the server's processes in /proc")
def test_the_status_line_says_a_frozen_server_is_not_answering(qtbot, tmp_path, own_server, monkeypatch):
    """Before: "Class: connected — all results sent" for as long as the server stayed frozen."""
    monkeypatch.setattr("ui.classroom.membership.OPTIONS", {**FAST, "heartbeat": 0.1, "answer_within": 0.5,
                                                 "give_up": 1.5, "idle": 600.0})  # the connection held
    klass = Class(own_server)
    path = progress_file(tmp_path / "ws.db", {"Ana": 2})
    store = Store.open(path)
    w = window_for(qtbot, store, store.find_trainee("Ana"))
    w.rejoin_class(klass.address())
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    with frozen(own_server):
        qtbot.waitUntil(lambda: class_line(w) == "Class: the class server is not answering (trying "
                                                  "again); no results waiting", timeout=WITHIN)
        assert "no answer from the class server" in w.services.classroom.label.toolTip()
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    w.close()
    store.close()


def working_now(view) -> str:
    """The side panel's "Working now" list."""
    return view.overview_html.partition("<h3>Who needs help</h3>")[0]


def test_the_class_tab_follows_another_workstation_live(qtbot, tmp_path, klass):
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: page.live.refreshes >= 1, timeout=WITHIN)  # the server's view drawn
    assert view.live.text().startswith("Live: 0 workstations, last result ")
    assert [t.name for t in view.trainees] == ["Ana"]
    assert view.remote is not None, "the server's trainees are opened on the server, not in the file"
    other = progress_file(tmp_path / "other.db", {"Bo": 2})
    pusher = ClassConnection(str(other), klass.address(), **FAST)
    pusher.start()
    try:
        qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana", "Bo"], timeout=WITHIN)
        qtbot.waitUntil(lambda: view.live.text().startswith("Live: 1 workstation, last result "),
                        timeout=WITHIN)  # Bo's (the instructor's own pusher is not counted)
        with Store.open(other) as bo_file:  # Bo records one more: the tab shows it
            bo = bo_file.find_trainee("Bo")
            before = page.live.refreshes
            bo_file.record_attempt(attempt(bo.id, 40, started=time.time() - 30, ended=time.time(),
                                           item_id="props-and-hops/live"))
        pusher.wake()
        assert "<b>Bo</b>" not in working_now(view)  # his first two are long past
        qtbot.waitUntil(lambda: "<b>Bo</b>" in working_now(view), timeout=WITHIN)
        assert page.live.refreshes > before
    finally:
        pusher.close()
    w.close()
    assert page.live is None and not view.live.isVisible(), "leaving at quit ends the live view"
    store.close()


def test_a_burst_of_results_is_read_a_few_times_never_two_within_the_least_gap(qtbot, tmp_path, klass):
    """Sixty attempts arrive in one push: sixty announcements, fewer reads, none asked for within
    SOONEST_MS of the one before, and the view shows them all."""
    from ui.classroom.live import SOONEST_MS

    w, page, store = instructor_window(qtbot, tmp_path, klass)
    live = page.live
    qtbot.waitUntil(lambda: live.refreshes >= 1, timeout=WITHIN)
    burst = progress_file(tmp_path / "burst.db", {"Bo": 60})
    pusher = ClassConnection(str(burst), klass.address(), **FAST)
    pusher.start()
    try:
        qtbot.waitUntil(lambda: live.arrivals >= 60, timeout=WITHIN)
        qtbot.waitUntil(lambda: shown(page.klass) == whole_class(klass), timeout=WITHIN)
    finally:
        pusher.close()
    asked = list(live.asked)
    assert len(asked) < live.arrivals
    assert all(b - a >= SOONEST_MS / 1000 for a, b in itertools.pairwise(asked))
    w.close()
    store.close()


def shown(view) -> list[tuple]:
    """The Class tab's grid: each row's name and cells, as drawn."""
    from ui.qt import Qt

    model = view.table.model()
    return [(model.headerData(r, Qt.Orientation.Vertical),
             *(model.data(model.index(r, c)) for c in range(model.columnCount())))
            for r in range(model.rowCount())]


def whole_class(klass) -> list[tuple]:
    """The grid a view of the class read in full, just now, shows."""
    from trainer.classes.workstation.classview import server_class_overview
    from ui.classroom.view import ClassView

    with klass.connect("instructor") as conn:
        overview = server_class_overview(conn)
    view = ClassView()
    view.show_overview(overview)
    grid = shown(view)
    view.deleteLater()
    return grid


def test_the_live_view_shows_each_result_once_in_order_after_merges_and_retractions(qtbot, tmp_path, klass):
    """Results arrive from a second workstation while the instructor (or another) merges Ana and
    Ana R. (one person) and retracts one of her results: after each, the live view's grid is the
    grid of the class read in full, and each attempt counts once, in the window of her last 20 by
    start."""
    from trainer.classes.server.people import merge

    w, page, store = instructor_window(qtbot, tmp_path, klass)  # Ana, attempts 0-3, on this file
    view, live = page.klass, page.live
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana"], timeout=WITHIN)
    table_2 = progress_file(tmp_path / "table-2.db", {"Ana R.": 30, "Bo": 2}, start=4)
    pusher = ClassConnection(str(table_2), klass.address(), **FAST)
    pusher.start()
    sent = [4 + 32]  # the attempts the class will hold

    def more(name: str, start: int, count: int = 1) -> None:
        with Store.open(table_2) as other:
            tid = other.find_trainee(name).id
            for n in range(start, start + count):
                other.record_attempt(attempt(tid, n))
        sent[0] += count
        pusher.wake()

    def settles(names: list[str]) -> None:
        """Every attempt sent is on the server, and the view shows the class read in full."""
        qtbot.waitUntil(lambda: klass.count() == sent[0], timeout=WITHIN)
        qtbot.waitUntil(lambda: [t.name for t in view.trainees] == names
                        and shown(view) == whole_class(klass), timeout=WITHIN)

    def payouts(name: str) -> str:
        return next(r for r in shown(view) if r[0] == name)[1 + list(view.model.skills).index(Skill.PAYOUTS)]

    try:
        settles(["Ana", "Ana R.", "Bo"])  # her two rows: this file's 0-3, the other's 4-33
        more("Ana R.", 34, 3)
        settles(["Ana", "Ana R.", "Bo"])
        with klass.connect("instructor") as conn, Store.open(table_2) as other:
            merge(conn, store.find_trainee("Ana").uid, other.find_trainee("Ana R.").uid)
        more("Bo", 6)  # the next result shows the merge
        settles(["Ana", "Bo"])
        assert payouts("Ana") == f"{window(range(37)):.0%}"
        more("Ana R.", 37, 2)
        settles(["Ana", "Bo"])
        assert payouts("Ana") == f"{window(range(39)):.0%}"
        with Store.open(table_2) as other:
            [latest] = other.attempts(other.find_trainee("Ana R.").id, newest_first=True, limit=1)
        live.retract(latest.uid, "recorded on the wrong profile")  # as the trainee dialog does
        settles(["Ana", "Bo"])
        assert payouts("Ana") == f"{window(range(38)):.0%}"
        more("Ana R.", 39)
        settles(["Ana", "Bo"])
        assert payouts("Ana") == f"{window([*range(38), 39]):.0%}"
    finally:
        pusher.close()
    assert live.full_reads < live.refreshes, "some results read without the whole class"
    w.close()
    store.close()


def window(ns) -> float:
    """The payouts accuracy of attempts numbered `ns`: over the last 20 by start, right unless
    n % 3 == 0 (tests.support.class_server.attempt misses a payout then)."""
    last = sorted(ns)[-20:]
    return sum(1 for n in last if n % 3) / len(last)


def test_a_workstation_login_is_not_live(qtbot, tmp_path, klass):
    w, page, store = instructor_window(qtbot, tmp_path, klass, login="workstation")
    qtbot.waitUntil(lambda: page.klass.live.text().startswith("Not live: "), timeout=WITHIN)
    assert "join with the instructor's address" in page.klass.live.text()
    assert [t.name for t in page.klass.trainees] == ["Ana"]  # the local file's view stays
    w.close()
    store.close()


def open_trainee(qtbot, view, name: str):
    """Click the trainee's row and "Open trainee…", as the instructor does; the dialog, once it
    shows their attempts or why they could not be read."""
    from ui.qt import Qt

    row = [t.name for t in view.trainees].index(name)
    cell = view.table.visualRect(view.table.model().index(row, 0)).center()
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert view.table.currentRow() == row
    qtbot.mouseClick(view.open_button, Qt.MouseButton.LeftButton)
    dialog = view.dialog
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: "reading their attempts" not in dialog.heading.text(), timeout=WITHIN)
    return dialog


def test_a_trainee_opened_live_shows_their_attempts_from_the_server_and_nobody_elses(qtbot, tmp_path, klass):
    from tests.support.progress import played_round
    from ui.qt import Qt

    other = progress_file(tmp_path / "other.db", {"Bo": 3})
    with Store.open(other) as bo_file:  # and a round worked through the engine, one payout short
        played_round(bo_file, bo_file.find_trainee("Bo").id)
        bo_uids = [a.uid for a in bo_file.attempts(newest_first=True)]
    pusher = ClassConnection(str(other), klass.address(), **FAST)  # Bo's workstation, before the instructor's
    pusher.start()
    try:
        qtbot.waitUntil(lambda: klass.count() == 4, timeout=WITHIN)
    finally:
        pusher.close()
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana", "Bo"], timeout=WITHIN)
    ana = store.find_trainee("Ana")
    ana_uids = [a.uid for a in store.attempts(ana.id, newest_first=True)]
    assert view.trainees[1].id == ana.id, "Bo's id on the server is Ana's in the file: the ids cross"

    dialog = open_trainee(qtbot, view, "Bo")
    assert dialog.heading.text() == "<b>Bo</b> — 4 attempts, newest first"
    assert [a.uid for a in dialog.records] == bo_uids
    rounds = [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())]
    played = rounds.index("Scenario: First shake: the Field and a hardway")
    dialog.table.setCurrentCell(played, 0)
    assert "58 Pa. Code § " in dialog.findings.toPlainText(), "its findings with their sections"
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)  # Replay round: its log is on the server
    replay = dialog.replay_dialog
    assert replay.isVisible() and replay.view is not None and replay.data.exact
    steps = [replay.steps.item(k).text() for k in range(replay.steps.count())]
    [wrong] = [t for t in steps if "✗" in t.split("\n")[0]]
    assert "58 Pa. Code § " in wrong
    qtbot.keyClick(replay.steps, Qt.Key.Key_Escape)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    assert not dialog.isVisible()

    dialog = open_trainee(qtbot, view, "Ana")
    assert dialog.heading.text() == "<b>Ana</b> — 4 attempts, newest first"
    assert [a.uid for a in dialog.records] == ana_uids, "Ana's attempts, none of Bo's"
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    w.close()
    store.close()


def test_a_trainee_opened_while_the_server_is_gone_is_one_line_not_a_traceback(qtbot, tmp_path, klass):
    from ui.qt import Qt

    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    # the class read with Ana's attempts on it (a first read may come before the file's push)
    qtbot.waitUntil(lambda: page.live.refreshes >= 1 and view.remote is not None
                    and "Ana" in [t.name for t in view.trainees], timeout=WITHIN)
    klass.server.crash()
    try:
        dialog = open_trainee(qtbot, view, "Ana")
        heading = dialog.heading.text()
        assert heading.startswith("<b>Ana</b> — their attempts could not be read: the class at "), heading
        assert "\n" not in heading and "Traceback" not in heading and "Error" not in heading
        assert dialog.table.rowCount() == 0 and not dialog.replay_button.isEnabled()
        qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    finally:
        klass.server.start()
    dialog = open_trainee(qtbot, view, "Ana")  # the server back: opened again, read
    assert dialog.heading.text() == "<b>Ana</b> — 4 attempts, newest first"
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    w.close()
    store.close()


def test_the_live_class_screenshot_draws_the_live_view(qtbot):
    """--screen class-live: the real LiveClass drawing the Class tab of the demonstration class,
    its live line and who is working now; a trainee opens from it."""
    import re

    from trainer.progress.demo import SESSION
    from ui.classroom.live import LiveClass
    from ui.shell.app import showcase

    before = time.time()
    window = showcase("class-live")
    built = time.time() - before  # a slow machine takes longer than the demo's "a moment ago"
    qtbot.addWidget(window)
    page = window.pages["progress"]
    assert isinstance(page.live, LiveClass) and page.tabs.currentWidget() is page.klass
    view = page.klass
    line = re.fullmatch(r"Live: 4 workstations, last result (\d+) s ago", view.live.text())
    assert line, view.live.text()
    # Cara's round ended SESSION's half minute before the demo was made, and the line was written
    # while the window was built
    ago = 60 * SESSION["Cara Diaz"]
    assert ago <= int(line[1]) <= ago + built + 2, (line[0], built)
    working = re.findall(r"<b>([^<]+)</b>", working_now(view))
    assert working == list(SESSION)
    dialog = open_trainee(qtbot, view, "Cara Diaz")
    assert dialog.records and dialog.records[0].ended > time.time() - 60  # her round of a moment ago
    assert dialog.retract_button.isHidden(), "a demonstration class retracts nothing"
    dialog.close()
    page.live.stop()
    window.close()


def test_the_status_line_names_a_refused_result_and_the_others_are_sent(qtbot, tmp_path, klass):
    """One attempt of the file has a flipped bit in its log: the class refuses it, the status bar
    names it (not "server unreachable") and the others are sent."""
    from tests.support.class_server import damaged_log

    path = progress_file(tmp_path / "ws.db", {"Ana": 5})
    with Store.open(path) as store:
        uid = [a.uid for a in store.attempts()][2]
    damaged_log(path, uid)
    store = Store.open(path, full_check=False)  # the app's open: the full check would refuse it
    w = window_for(qtbot, store, store.find_trainee("Ana"))
    w.rejoin_class(klass.address())
    want = (f"Class: connected — 1 result refused by the class server: attempt {uid}: its log is not "
            "JSON the class server can keep; the others are sent")
    qtbot.waitUntil(lambda: class_line(w) == want, timeout=WITHIN)
    assert klass.count() == 4 and uid not in klass.uids()
    assert "1 result refused by the class server" in w.services.classroom.label.toolTip()
    label = w.services.classroom.label
    # the status bar laid out again for the longer line: the line is shown whole
    qtbot.waitUntil(lambda: label.width() >= label.sizeHint().width(), timeout=5000)
    w.statusBar().grab().save(str(tmp_path / "status.png"))
    w.close()
    store.close()


def test_an_instructor_retracts_an_attempt_from_the_trainee_window(qtbot, tmp_path, klass):
    """Bo's workstation pushed a forged attempt under his name (a 12 he never scored): the
    instructor opens Bo live, selects it, Retract…, gives the reason; it leaves his list and the
    class's export, named with the reason, and the class keeps both."""
    from tests.support.class_server import push_all
    from ui.qt import Qt

    other = progress_file(tmp_path / "other.db", {"Bo": 3}, start=1)
    with Store.open(other) as bo_file:
        forged = bo_file.record_attempt(attempt(bo_file.find_trainee("Bo").id, 50, total=12, passed=False,
                                                ended=T0 + 60 * 50 + 30))
        forged_uid = bo_file.query("SELECT uid FROM attempts WHERE id = ?", (forged,))[0]["uid"]
    push_all(other, klass)
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: [t.name for t in view.trainees] == ["Ana", "Bo"], timeout=WITHIN)
    dialog = open_trainee(qtbot, view, "Bo")
    assert dialog.heading.text() == "<b>Bo</b> — 4 attempts, newest first" and dialog.hidden.isHidden()
    assert dialog.retract_button.isVisible() and dialog.retract_button.isEnabled()
    row = [r.uid for r in dialog.records].index(forged_uid)
    dialog.table.setCurrentCell(row, 0)
    qtbot.mouseClick(dialog.retract_button, Qt.MouseButton.LeftButton)
    ask = dialog.retract_dialog
    qtbot.waitExposed(ask)
    assert not ask.retract_button.isEnabled(), "no retraction without a reason"
    qtbot.keyClicks(ask.reason, "pushed from Cy's seat under Bo's name")
    ask.grab().save(str(tmp_path / "retract.png"))
    qtbot.mouseClick(ask.retract_button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible()
    assert forged_uid not in [r.uid for r in dialog.records]
    assert dialog.heading.text() == "<b>Bo</b> — 3 attempts, newest first"
    assert dialog.hidden.text() == (f"1 attempt not listed: attempt {forged_uid}: retracted now: pushed "
                                    "from Cy's seat under Bo's name")
    assert "Paid $4 on round 3" in dialog.findings.toPlainText(), "the selected row's findings"
    dialog.grab().save(str(tmp_path / "trainee.png"))
    with klass.admin() as admin:
        assert admin.execute("SELECT a.uid, r.reason, r.retracted_by FROM retractions r JOIN attempts a "
                             "ON a.id = r.attempt_id").fetchall() == [
            (forged_uid, "pushed from Cy's seat under Bo's name", "instructor")]
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    dialog = open_trainee(qtbot, view, "Bo")  # read again from the server: named with who and why
    assert dialog.heading.text() == "<b>Bo</b> — 3 attempts, newest first"
    assert dialog.hidden.text() == (f"1 attempt not listed: attempt {forged_uid}: retracted by instructor: "
                                    "pushed from Cy's seat under Bo's name")
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    w.close()
    store.close()


def test_the_class_tab_names_this_workstations_refused_result(qtbot, tmp_path, klass):
    """The instructor's own file has an attempt whose workstation name holds a NUL (edited by
    hand): the class refuses it, and the Class tab says so above its lists."""
    from tests.support.class_server import rewritten

    path = progress_file(tmp_path / "teacher.db", {"Ana": 4})
    with Store.open(path) as store:
        uid = [a.uid for a in store.attempts()][1]
    rewritten(path, uid, "source", "desk\x001")
    store = Store.open(path)
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="a long class passphrase")
    w = window_for(qtbot, store, store.trainee(lee))
    w.rejoin_class(klass.address("instructor"))
    page = on_class_tab(w)
    note = (f"This workstation: 1 result refused by the class server: attempt {uid}: a text of it "
            "holds a character no class server keeps (a NUL); the others are sent.")
    qtbot.waitUntil(lambda: note in page.klass.side.toPlainText(), timeout=WITHIN)
    page.grab().save(str(tmp_path / "class-tab.png"))
    w.close()
    store.close()


def test_the_status_line_says_when_the_server_has_no_connection_free(qtbot, tmp_path, klass):
    """conns.py: a trainee holds every connection the workstation's login may open; the status
    bar said "connected" (the pusher kept the one it had) while the exam starts were refused."""
    import psycopg

    from trainer.classes import ClassUnreachableError
    from trainer.classes.server.logins import enrol_workstation, new_password

    with klass.connect("instructor") as instructor:
        login = enrol_workstation(instructor, "Table 1", password := new_password())
    path = progress_file(tmp_path / "ws.db", {"Ana": 1})
    store = Store.open(path)
    w = window_for(qtbot, store, store.find_trainee("Ana"))
    w.rejoin_class(klass.address(login, password))
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    held = []
    try:
        while True:
            try:
                held.append(klass.connect(login, password))
            except psycopg.OperationalError:
                break
        with pytest.raises(ClassUnreachableError, match="has no connection free for the login"):
            w.services.classroom.connection.attempts_used("Ana", "floor-1")
        qtbot.waitUntil(lambda: class_line(w).startswith(
            "Class: the class server has no connection free for this workstation (too many "
            f'connections for role "{login}")'), timeout=WITHIN)
    finally:
        for conn in held:
            conn.close()
    assert w.services.classroom.connection.attempts_used("Ana", "floor-1") == 0
    qtbot.waitUntil(lambda: class_line(w) == "Class: connected — all results sent", timeout=WITHIN)
    w.close()
    store.close()


def test_an_instructor_voids_a_sitting_listed_in_the_class_tab(qtbot, tmp_path, klass):
    """Sam's sitting was started and the network went down: the Class tab lists it not ended,
    with Void…; the instructor clicks it, gives the reason, Void; the class keeps the reason and
    gives the attempt back, and the sitting leaves the list."""
    from tests.support.exams import form, issuer, sit
    from trainer.classes.workstation.connection import ClassLedger
    from trainer.exams import installation_key
    from trainer.exams.certify import issue_sitting
    from trainer.exams.keys import InstructorKey
    from ui.qt import Qt

    exam = form()
    with Store.open(tmp_path / "issued.db") as ledger:
        token = issue_sitting(ledger, issuer(InstructorKey.generate("Ivy Park")), exam, "Sam Lee",
                              classroom=ClassLedger(klass.address("instructor")))
    with Store.open(tmp_path / "sam.db") as ws:
        sit(ws, installation_key(tmp_path / "k"), ws.add_trainee("Sam Lee"), exam, sitting=token,
            classroom=ClassConnection(str(tmp_path / "sam.db"), klass.address(klass.seat())), stop_after=1)
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: "Sittings not ended" in view.side.toPlainText(), timeout=WITHIN)
    assert ClassLedger(klass.address("instructor")).attempts_used("Sam Lee", exam.uid) == 1
    view.grab().save(str(tmp_path / "class-tab.png"))
    cursor = view.side.document().find("Void…")
    cursor.setPosition(cursor.selectionStart() + 2)
    view.side.setTextCursor(cursor)
    view.side.ensureCursorVisible()
    link = view.side.cursorRect(cursor).center()
    qtbot.mouseClick(view.side.viewport(), Qt.MouseButton.LeftButton, pos=link)
    ask = view.void_dialog
    qtbot.waitExposed(ask)
    assert ask.nonce == token["nonce"] and not ask.button.isEnabled(), "no voiding without a reason"
    qtbot.keyClicks(ask.reason, "the classroom switch failed at 14:10")
    ask.grab().save(str(tmp_path / "void.png"))
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible()
    qtbot.waitUntil(lambda: "Sittings not ended" not in view.side.toPlainText(), timeout=WITHIN)
    with klass.admin() as admin:
        assert admin.execute("SELECT nonce, reason, login FROM exam_sitting_voids").fetchall() == [
            (token["nonce"], "the classroom switch failed at 14:10", "instructor")]
    assert ClassLedger(klass.address("instructor")).attempts_used("Sam Lee", exam.uid) == 0
    w.close()
    store.close()


def test_an_instructor_gives_back_an_attempt_from_the_class_tab(qtbot, tmp_path, klass, joined):
    """A classmate at Bo's workstation spent Bo Chen's three attempts at a form (Bo has no class
    login). On the live Class tab the instructor clicks Give back…, picks the second of the
    attempts listed, gives the reason and Give back: the class keeps it, and the
    status bar says it in the words give-back-attempt prints. The same attempt given back again
    is refused in the command's words."""
    import uuid

    from tests.support.command import run_here
    from tests.support.exams import form
    from trainer.exams.classledger import give_to_class
    from ui.qt import Qt

    exam = form()
    give_to_class(joined("instructor"), exam)
    spent = [uuid.uuid4().hex for _ in range(exam.attempts_allowed)]
    for uid in spent:
        joined.seat().start_attempt(uid, "Bo Chen", exam.uid)
    w, page, store = instructor_window(qtbot, tmp_path, klass)
    view = page.klass
    qtbot.waitUntil(lambda: page.live.refreshes >= 1, timeout=WITHIN)
    assert view.give_back_button.isVisible()
    qtbot.mouseClick(view.give_back_button, Qt.MouseButton.LeftButton)
    ask = view.give_back_dialog
    qtbot.waitExposed(ask)
    listed = [ask.attempt.itemData(k, Qt.ItemDataRole.ToolTipRole) for k in range(ask.attempt.count())]
    assert len(listed) == 3 and all(uid in line for uid, line in zip(spent, listed, strict=True))
    assert listed[1].startswith(f"{spent[1]}  Bo Chen, {exam.uid}, attempt 2, started ")
    assert ask.attempt.itemText(1).startswith(f"Bo Chen, {exam.uid}, attempt 2, started ")
    assert ask.attempt.itemText(1).endswith(f" (id {spent[1][:8]}…)")
    assert not ask.button.isEnabled(), "nothing given back without a reason"
    ask.attempt.setCurrentIndex(1)
    qtbot.keyClicks(ask.reason, "spent at Table 2 while Bo was out")
    ask.grab().save(str(tmp_path / "give-back.png"))
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert not ask.isVisible()
    said = (f"Attempt {spent[1]} given back in {klass.database}: it no longer counts against its "
            "form's attempts.")
    assert w.statusBar().currentMessage() == said
    with klass.admin() as admin:
        assert admin.execute("SELECT result_uid, reason, login FROM exam_start_voids").fetchall() == [
            (spent[1], "spent at Table 2 while Bo was out", "instructor")]

    qtbot.mouseClick(view.give_back_button, Qt.MouseButton.LeftButton)
    ask = view.give_back_dialog
    qtbot.waitExposed(ask)
    assert ask.attempt.count() == 2
    assert spent[1][:8] not in ask.attempt.itemText(0) + ask.attempt.itemText(1)
    url = klass.address("instructor").url
    done = run_here("give-back-attempt", spent[0], "--reason", "by the command", "--class", url)
    assert done.returncode == 0 and done.stdout.strip() == said.replace(spent[1], spent[0])
    qtbot.keyClicks(ask.reason, "again")
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)  # spent[0], listed before the command
    assert ask.isVisible() and ask.problem.isVisible()
    again = run_here("give-back-attempt", spent[0], "--reason", "again", "--class", url)
    assert again.returncode == 2
    assert ask.problem.text() == f"Not given back: {again.stderr.strip()}"
    assert "given back already, by instructor (by the command)" in ask.problem.text()
    ask.close()
    w.close()
    store.close()


def test_two_trainees_of_one_name_are_two_rows_told_apart_live(qtbot, tmp_path, klass):
    """Two people called Ana, at two workstations on the shared login, and a third on the
    instructor's own file: the live Class tab shows each as a row of her own, named with enough of
    her trainee id to tell them apart, her own cells in it, and opens each on her own attempts.
    An Ana first sent by the instructor's login keeps her name from a workstation's login: the
    class refuses the newcomer (s023), and her workstation says why."""
    table_1 = progress_file(tmp_path / "table-1.db", {"Ana": 6})  # attempts 0-5
    table_2 = progress_file(tmp_path / "table-2.db", {"Ana": 3, "Bo": 1}, start=6)  # 6-8
    for path in (table_1, table_2):
        push_all(path, klass)
    w, page, store = instructor_window(qtbot, tmp_path, klass)  # its own Ana: attempts 0-3
    view = page.klass
    uid = {}
    for where, path in (("one", table_1), ("two", table_2)):
        with Store.open(path) as ws:
            uid[where] = ws.find_trainee("Ana").uid
    uid["teacher"] = store.find_trainee("Ana").uid
    assert len(set(uid.values())) == 3
    named = {f"Ana (trainee id {u[:8]}…)": where for where, u in uid.items()}
    qtbot.waitUntil(lambda: sorted(shown_names(view)) == sorted([*named, "Bo"]), timeout=WITHIN)
    assert shown(view) == whole_class(klass)
    attempts = {"one": 6, "two": 3, "teacher": 4}
    for name, where in named.items():
        dialog = open_trainee(qtbot, view, name)
        assert dialog.windowTitle() == f"{name} — attempts"
        assert dialog.table.rowCount() == attempts[where], where
        dialog.close()
    assert set_aside(table_1, klass) == set_aside(table_2, klass) == [], "each Ana is her own trainee"

    # the other order: the instructor's login sent an Ana first, a workstation's login then sends
    # another: the class keeps the name its first sender's, and her results are set aside
    push_all(progress_file(tmp_path / "table-3.db", {"Cy": 1}), klass, address=klass.address("instructor"))
    table_4 = progress_file(tmp_path / "table-4.db", {"Cy": 2})
    push_all(table_4, klass)
    refused = set_aside(table_4, klass)
    assert len(refused) == 2 and all("'Cy' is in the class already" in why for _, why in refused)
    qtbot.waitUntil(lambda: "Cy" in shown_names(view), timeout=WITHIN)
    assert shown_names(view).count("Cy") == 1 and not any(n.startswith("Cy (") for n in shown_names(view))
    w.close()
    store.close()


def set_aside(path, klass) -> list[tuple[str, str]]:
    """The attempts of the file the class refused: (uid, why)."""
    from trainer.classes.workstation.push import class_uid
    from trainer.classes.workstation.queue import Queue

    with klass.connect("instructor") as conn:
        uid = class_uid(conn)
    queue = Queue(path)
    try:
        return queue.refused(uid)
    finally:
        queue.close()


def shown_names(view) -> list[str]:
    """The names the Class tab's rows show, top to bottom."""
    from ui.qt import Qt

    model = view.table.model()
    return [model.headerData(r, Qt.Orientation.Vertical) for r in range(model.rowCount())]
