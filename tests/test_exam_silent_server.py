"""An exam sat online, with a class server that accepts the connection and never answers (the
second cold review's attack #40: `attacks/proxy.py` in "hole" mode). Before, the window froze on
the answer (the send ran on the GUI thread, its wait for the server unbounded) and the countdown
moved in jumps between tries; the engine's answer call waited a minute.

Now every call the exam makes to the class server is bounded (a Watch on connecting and on every
wait for an answer, and push.CONNECT's keepalives), and the window's tries run on a thread of
their own: while the proxy holds the answer, unanswered, the window says "Waiting for the class
server" and its countdown moves. The proxy is released by the test (SilentProxy.answer), never
by time; a watchdog releases it after WATCHDOG seconds only so that a window that waits on the
server fails instead of hanging."""

from __future__ import annotations

import threading

import pytest

from tests.support.class_server import server_rows
from tests.support.exams import code_of, form, issuer
from tests.support.proxy import SilentProxy
from tests.support.screens import quicken_runner, window
from trainer.classes import ClassServerError
from trainer.classes.workstation.address import class_address
from trainer.exams import installation_key, issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.progress import Store
from ui.classroom.membership import classroom_of
from ui.exams.runner import RETRY_MS
from ui.qt import Qt

WATCHDOG = 12.0  # seconds: only a guard against a window that waits on the silent server


@pytest.fixture(scope="module")
def ivy():
    return issuer(InstructorKey.generate("Ivy Park"))


@pytest.fixture
def proxy(klass):
    with SilentProxy(klass.server.port) as p:
        yield p


def through(proxy: SilentProxy, klass, login: str | None = None):
    """The class's address through the proxy, for `login` (None: the enrolled Table 1, Class.seat)."""
    plain = klass.address(login or klass.seat())
    return class_address(plain.url.replace(f":{klass.server.port}/", f":{proxy.port}/"))


@pytest.fixture
def watchdog(proxy):
    """Lets the silent proxy answer after WATCHDOG seconds; says whether it had to."""
    fired: list[bool] = []
    timer = threading.Timer(WATCHDOG, lambda: (fired.append(True), proxy.answer()))
    timer.daemon = True
    yield fired, timer
    timer.cancel()


def test_the_window_answers_while_the_class_server_holds_an_answer(qtbot, tmp_path, klass, joined, ivy,
                                                                   proxy, watchdog, monkeypatch):
    quicken_runner(monkeypatch)  # the held line shown, and the next part opened, without the app's pauses
    fired, timer = watchdog
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    store = Store.open(tmp_path / "ws.db")
    sam = store.add_trainee("Sam Lee")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), sam)
    try:
        classroom_of(w).join(through(proxy, klass))
        page = w.show_screen("exam")
        assert page.begin(exam, sitting=token, start_code=code_of(token))
        runner = page.runner
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 1, the network fine
        qtbot.waitUntil(lambda: runner.index == 1, timeout=3 * RETRY_MS)
        proxy.silent()  # the server is there (the connection stays open) and never answers
        timer.start()
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)  # part 2: held by the proxy
        assert not fired, "the window waited on the silent class server"
        qtbot.waitUntil(lambda: runner.held.isVisible(), timeout=5000)
        assert "Sending your answer" in runner.held.text()  # within the grace: the calm line
        shown = runner.countdown.text()
        qtbot.waitUntil(lambda: runner.countdown.text() != shown, timeout=5000)  # it moves
        shown = runner.countdown.text()
        qtbot.waitUntil(lambda: runner.countdown.text() != shown, timeout=5000)  # and again
        assert not fired and proxy.is_silent and proxy.held > 0  # all the while the server held it
        assert runner.index == 1 and not runner.screen.isVisible()  # part 3 has not opened
        timer.cancel()
        proxy.answer()  # the network is back: the answer goes on (or the next try takes it)
        qtbot.waitUntil(lambda: runner.index == 2, timeout=WATCHDOG * 1000)
        assert runner.screen.isVisible() and not runner.held.isVisible()
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start", "answer", "answer"]
    finally:
        proxy.answer()
        page = w.show_screen("exam")
        page.abandon()  # the attempt ends as left, without asking; its result once the server has the end
        qtbot.waitUntil(lambda: page.runner is None, timeout=WATCHDOG * 1000)
        w.close()
        store.close()


def test_an_answer_sent_to_a_silent_server_gives_up_with_one_line(tmp_path, klass, joined, proxy, watchdog):
    """The engine's own sending (ClassConnection.send_steps, on the connection kept between
    answers) ends with "does not answer" after the class connection's bound, the proxy still
    silent; a call on a connection of its own gives up connecting after its bound. Before, it
    waited until the proxy let go. (The bounds shortened: 1 s for an answer, 2 s, libpq's least,
    for connecting; the app's are 15 s and 5 s.)"""
    from trainer.classes.workstation.connection import ClassConnection

    fired, timer = watchdog
    queue = tmp_path / "queue.sqlite"
    Store.open(queue).close()
    conn = ClassConnection(str(queue), through(proxy, klass), give_up=1.0, connect_within=2)
    try:
        assert conn.class_uid()  # a call through the proxy goes through while it passes
        conn.send_steps(str(queue))  # nothing waits: the kept connection is made
        proxy.silent()
        timer.start()
        with pytest.raises(ClassServerError, match="does not answer: nothing came back in 1 s"):
            conn.send_steps(str(queue))
        assert not fired and proxy.is_silent
        with pytest.raises(ClassServerError, match=r"(does not answer|cannot be reached)"):
            conn.class_uid()  # a call on a connection of its own: bounded too
        assert not fired and proxy.is_silent
    finally:
        proxy.answer()
        conn.close()


class Watching:
    """While the window waits on a start, what its GUI thread does: a timer's ticks (each an
    event processed), the busy dialog's paints, and, at each tick, `then(self)` (the test's next
    move, made from inside the wait as a trainee's would be)."""

    def __init__(self, then):
        from ui.qt import QEvent, QObject, QTimer

        self.ticks, self.paints, self.then, self.box = 0, 0, then, None
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._tick)
        watching = self

        class Paints(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint and obj is watching.box:
                    watching.paints += 1
                return False

        self.filter = Paints()

    def _tick(self) -> None:
        from ui.qt import QApplication, QProgressDialog

        self.ticks += 1
        if self.box is None:
            self.box = next((b for b in QApplication.topLevelWidgets() if isinstance(b, QProgressDialog)
                             and b.objectName() == "busy" and b.isVisible()), None)
            if self.box is not None:
                self.box.installEventFilter(self.filter)
                self.box.update()
        self.then(self)


def warnings_said(monkeypatch) -> list[str]:
    """The Exam screen's warnings, kept instead of shown (a modal box would hold the test)."""
    said: list[str] = []
    monkeypatch.setattr("ui.exams.sitting.QMessageBox.warning",
                        lambda _parent, _title, text: said.append(text))
    return said


def sam_at_the_exam_window(qtbot, tmp_path, ivy, joined, monkeypatch):
    """A sitting issued to Sam Lee in the class, and a workstation's window with Sam in its file:
    (the form, the sitting's token, the workstation's Store, the window). The window's exam
    runner goes without the app's pauses (quicken_runner)."""
    quicken_runner(monkeypatch)
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    store = Store.open(tmp_path / "ws.db")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), store.add_trainee("Sam Lee"))
    return exam, token, store, w


def test_the_window_paints_while_the_class_server_holds_the_start(qtbot, tmp_path, klass, joined, ivy, proxy,
                                                                  watchdog, monkeypatch):
    """The proctor types the start code; the class server accepts the connection and holds the
    start, unanswered. Before, the window froze in the start call (its GUI thread waited, up to 15
    s). Now the start waits on a thread of its own: the window processes events throughout, and a
    busy dialog with Cancel says the server counts the start; once the server answers, the exam
    opens."""
    from ui.exams.sitting import COUNTING

    warned = warnings_said(monkeypatch)
    fired, timer = watchdog
    exam, token, store, w = sam_at_the_exam_window(qtbot, tmp_path, ivy, joined, monkeypatch)
    seen: dict = {}

    def then(watch: Watching) -> None:
        if watch.box is None or "released" in seen:
            return
        seen.setdefault("text", watch.box.labelText())
        if watch.ticks >= 25 and watch.paints > 0 and proxy.held > 0:  # held all the while
            seen.update(released=(watch.ticks, watch.paints, fired[:]), held=proxy.held)
            proxy.answer()

    watch = Watching(then)
    try:
        classroom_of(w).join(through(proxy, klass))
        page = w.show_screen("exam")
        proxy.silent()
        timer.start()
        watch.timer.start()
        assert page.begin(exam, sitting=token, start_code=code_of(token)), warned
        watch.timer.stop()
        assert seen["text"] == COUNTING
        ticks, paints, watchdog_fired = seen["released"]
        assert ticks >= 25 and paints > 0 and not watchdog_fired
        assert page.runner is not None and page.runner.isVisible()
        assert [r[3] for r in server_rows(klass, "exam_sitting_steps")] == ["start"]
    finally:
        watch.timer.stop()
        proxy.answer()
        page = w.show_screen("exam")
        page.abandon()
        qtbot.waitUntil(lambda: page.runner is None, timeout=WATCHDOG * 1000)
        w.close()
        store.close()


def test_cancel_while_the_class_server_holds_the_start(qtbot, tmp_path, klass, joined, ivy, proxy, watchdog,
                                                       monkeypatch):
    """The proctor cancels the start the server holds: the window is the Exam screen again at
    once, unlocked, and says what became of the start; nothing is written in the file. The call
    already made cannot be stopped: once the server answers, the window says it recorded the
    start (and when), and the sitting opened again is that same start, its clock not restarted."""
    from ui.exams.sitting import CANCELLED
    from ui.qt import QPushButton

    warned = warnings_said(monkeypatch)
    fired, timer = watchdog
    exam, token, store, w = sam_at_the_exam_window(qtbot, tmp_path, ivy, joined, monkeypatch)
    clicked: list[bool] = []

    def then(watch: Watching) -> None:
        if watch.box is not None and not clicked and proxy.held > 0:
            clicked.append(True)
            qtbot.mouseClick(watch.box.findChild(QPushButton), Qt.MouseButton.LeftButton)

    watch = Watching(then)
    said: list[str] = []
    try:
        classroom_of(w).join(through(proxy, klass))
        page = w.show_screen("exam")
        page.services.status.connect(said.append)
        proxy.silent()
        timer.start()
        watch.timer.start()
        assert not page.begin(exam, sitting=token, start_code=code_of(token))
        watch.timer.stop()
        assert clicked and not fired and proxy.is_silent  # cancelled while the server held it
        assert page.runner is None and said == [CANCELLED] and warned == []
        assert store.query("SELECT uid FROM exam_results") == []
        proxy.answer()  # the server answers the call the cancel could not stop
        qtbot.waitUntil(lambda: len(said) == 2, timeout=WATCHDOG * 1000)
        assert "reached the class server all the same: it recorded the start at" in said[1], said
        (start,) = server_rows(klass, "exam_sitting_steps")
        assert page.begin(exam, sitting=token, start_code=code_of(token)), warned
        assert server_rows(klass, "exam_sitting_steps") == [start]  # the same start, not another
        assert store.query("SELECT class_start FROM exam_results")[0]["class_start"] == start[4]
    finally:
        watch.timer.stop()
        proxy.answer()
        page = w.show_screen("exam")
        if page.runner is not None:  # started all the same (the window waited in the start)
            page.abandon()
            qtbot.waitUntil(lambda: page.runner is None, timeout=WATCHDOG * 1000)
        w.close()
        store.close()
