"""The Class tab live from the class server, for an instructor whose app is in a class.

`LiveClass(view, connection)` reads the class's overview and activity from the server and follows
new attempts as the server announces them. Nothing waits for the network on the GUI thread:

- a *follower* thread runs `connection.follow(stop)` and emits `arrived` for each new attempt
  (a Qt signal, so the GUI thread handles it);
- an arrival asks for a read at once, or, when the last was asked for less than `gap()` ago,
  starts a single-shot timer for the rest: the first of a lull is read without waiting, and
  however fast results come the reads are bounded: never two within `SOONEST_MS` (ten a second at
  most), and the wait between two at least `SHARE` times what the last read took (the reads take
  a quarter of the time at most), up to `LATEST_MS` (every result read within half a second of
  its arrival plus one read);
- a *reader* thread does the reads it is asked for (`read_class`,
  trainer.classes.workstation.classview): the whole class when it starts, after a lost
  connection, after the instructor retracted, merged, parted or voided, and at least every
  `IN_FULL_S` seconds; else only what the attempts announced since changed (their people's rows,
  their items), so that a read costs what arrived, not the size of the class. It emits `read` or
  `failed`; the view is redrawn on the GUI thread, only the rows that changed (ui.classroom.grid);
- each second the line "Live: 6 workstations, last result 12 s ago" is brought up to date, and
  every `REREAD_S` seconds the class is read again even if nothing was announced (so a server gone
  shows as "Not live: <why>", and comes back by itself);
- a trainee opened from the view (`read_trainee`, the view's `remote` once the server's class is
  drawn: its trainee ids are the server's, not the file's) is read by a *trainee reader* thread
  (`connection.attempts_of`), one at a time, and shown in the dialog opened for them, with the
  attempts left out named (retracted, or not readable), or why it could not be read, in one
  line. A connection cannot wait on the GUI thread: a server out of reach takes seconds to say
  so. Its **Retract…** (`retract`, the view's) hides an attempt in the class, then the class is
  read again; so does the view's **Merge…** (`merge`), which records two trainees as one person;
- the results of this workstation the class refused (set aside in its file) are named above the
  side panel's lists, as in the status bar;
- so are the sittings started on the class server and not ended there (an instructor's or
  supervisor's read; trainer.exams.classledger, "A sitting that never ends"): "started 14:05,
  1 of 3 answers received, not ended", and how each was recorded abandoned. With an instructor's
  login each has a **Void…** link (`void`, the view's): a sitting a genuine outage spoiled is
  voided with a reason, its attempt given back (trainer.exams.classledger, "A sitting voided"),
  then the class is read again;
- the view's **Give back…** (`give_back`, `starts_spent`) lists the attempts at an exam started
  with no sitting and gives one back with a reason (a classmate at the shared login spent it:
  trainer.exams.classledger, "An attempt given back"), in the words of
  `dealer-trainer give-back-attempt`;
- its **Settle claim…** (`settle`, `claims`), shown while a row is marked disputed, settles whose
  a claimed trainee id is, with a reason, in the words of `dealer-trainer settle-claim`.

`stop()` ends the threads (joined) and the timers; the view shows the local file again.
"""

from __future__ import annotations

import html
import queue
import threading
import time
from collections import deque

from ui.qt import QObject, Qt, QTimer, Signal

SOONEST_MS = 100  # never two reads asked within 100 ms: ten a second at most
SHARE = 4  # the wait between two reads at least four times what the last one took
LATEST_MS = 500  # ... but never more than half a second
TICK_MS = 1000
REREAD_S = 10.0
IN_FULL_S = 60.0  # the whole class read at least once a minute
LIVE_HINT = ("Live from the class server. Double-click a trainee, or select one and press Enter, to "
             "read their attempts from the server and replay a round.")


def ago(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 2:
        return "just now"
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.0f} h ago"
    return time.strftime("on %Y-%m-%d", time.localtime(time.time() - seconds))


def why_not(problem: str) -> str:
    """A read refused or failed, in the instructor's words."""
    if "permission denied" in problem:
        return ("this login only sends results; join with the instructor's address to follow "
                "the class")
    return problem


def refused_html(refused: list[tuple[str, str]]) -> str:
    """This workstation's results the class refused (set aside in its file), named."""
    if not refused:
        return ""
    from trainer.classes import refused_line

    return (f"<p><b>This workstation:</b> {html.escape(refused_line(refused))}; the others are "
            "sent.</p>")


def unended_html(unended: list[dict], *, voidable: bool = False) -> str:
    """The sittings started on the class server and not ended there: before a trainee leaves,
    each answer acknowledged; one never ended, the instructor records abandoned (a fail), or
    voids (`voidable`: a Void… link on each, ui.classroom.view.VoidDialog)."""
    if not unended:
        return ""
    from trainer.exams import unended_line
    from ui.classroom.view import VOID

    link = (lambda r: f' <a href="{VOID}{html.escape(r["nonce"])}">Void…</a>') if voidable else (lambda r: "")
    rows = "".join(f"<li>{html.escape(unended_line(r))}{link(r)}</li>" for r in unended)
    voiding = (" <b>Void…</b> voids one a genuine outage spoiled: its attempt is given back, and it is "
               "never certified." if voidable else "")
    return (f"<h3>Sittings not ended</h3><ul>{rows}</ul><p>One that will not end: "
            "<code>dealer-trainer abandon-sitting ID --reason TEXT --class URL</code> records it "
            f"abandoned, a fail.{voiding}</p>")


def working_html(activity, now: float) -> str:
    from ui.classroom.view import item_name

    rows = "".join(f"<li><b>{html.escape(w.name)}</b> — {html.escape(item_name(w.item_id))}, "
                   f"{ago(now - w.ended)}</li>" for w in activity.working)
    return f"<h3>Working now</h3><ul>{rows or '<li>nobody in the last 15 minutes</li>'}</ul>"


class LiveClass(QObject):
    arrived = Signal(object)  # a new attempt's server id; None: the follower reconnected
    read = Signal(object, object)  # a ClassReading (classview.read_class), the sittings not ended
    failed = Signal(str)
    refreshed = Signal()  # the view was redrawn from the server
    trainee_read = Signal(object, object)  # a TraineeDialog, (the trainee's attempts, those left out)
    trainee_failed = Signal(object, str)  # a TraineeDialog, why its trainee could not be read

    def __init__(self, view, connection, parent=None):
        super().__init__(parent)
        self.view, self.connection = view, connection
        self.local_hint = view.hint.text()
        self.activity = None
        self.problem: str | None = None
        self.last_arrival: float | None = None
        self.last_read = 0.0
        self.refreshes = 0
        self.arrivals = 0
        self.took = 0.0  # seconds the last read took (the reader thread's)
        self.reading = None  # the last ClassReading (the reader thread's)
        self.last_full = 0.0  # when the class was last read in full (the reader thread's)
        self.full_reads = 0
        self._lock = threading.Lock()  # the reader's orders, below
        self._since: set[int] = set()  # the attempts announced since the last read
        self._in_full = True  # the next read reads the whole class
        self.asked: deque[float] = deque(maxlen=100)  # when the last reads were asked for
        self._stopping = threading.Event()
        self._wanted = threading.Event()
        self._trainees: queue.SimpleQueue = queue.SimpleQueue()  # (trainee, dialog); None: stop
        self.debounce = QTimer(self)
        self.debounce.setObjectName("live class debounce")
        self.debounce.setSingleShot(True)
        self.debounce.setTimerType(Qt.TimerType.PreciseTimer)  # never early: the limit holds
        self.debounce.timeout.connect(self.request)
        self.tick = QTimer(self)
        self.tick.setObjectName("live class clock")
        self.tick.setInterval(TICK_MS)
        self.tick.timeout.connect(self._tick)
        self.arrived.connect(self._arrived)
        self.read.connect(self._show)
        self.failed.connect(self._failed)
        self.trainee_read.connect(lambda dialog, read: dialog.show_attempts(*read))
        self.trainee_failed.connect(lambda dialog, problem: dialog.show_problem(why_not(problem)))
        self.threads = [threading.Thread(target=self._follow, name="class-follow", daemon=True),
                        threading.Thread(target=self._read, name="class-read", daemon=True),
                        threading.Thread(target=self._read_trainees, name="class-trainee", daemon=True)]
        view.set_live_line("Live: connecting to the class…")
        for thread in self.threads:
            thread.start()
        self.tick.start()
        self.request()

    # ------------------------------------------------------------------ the GUI thread
    def request(self, *, in_full: bool = False) -> None:
        """Read the class again (on the reader thread): what was announced since the last read,
        or, `in_full`, the whole class."""
        if in_full:
            with self._lock:
                self._in_full = True
        self.last_read = time.monotonic()
        self.asked.append(self.last_read)
        self._wanted.set()

    def gap(self) -> float:
        """The milliseconds between two reads: at least SOONEST_MS and SHARE times what the last
        read took, at most LATEST_MS."""
        return min(LATEST_MS, max(SOONEST_MS, SHARE * 1000 * self.took))

    def read_trainee(self, trainee, dialog) -> None:
        """Read the trainee's attempts from the server (on the trainee reader thread) into the
        dialog (ui.classroom.view.TraineeDialog)."""
        self._trainees.put((trainee, dialog))

    def retract(self, attempt_uid: str, reason: str) -> None:
        """Hide an attempt in the class, with the reason (a short call on the GUI thread, as
        ui.shell.server_call makes it); the class is read again. ClassServerError says why not."""
        self.connection.retract(attempt_uid, reason)
        self.request(in_full=True)

    def merge(self, uid: str, other_uid: str) -> None:
        """Record two trainees as one person (a short call on the GUI thread, as
        ui.shell.server_call makes it); the class is read again, refused too (what was recorded
        meanwhile is then shown at once). ClassServerError says why not."""
        try:
            self.connection.merge_trainees(uid, other_uid)
        finally:
            self.request(in_full=True)

    def part(self, uid: str, other_uid: str) -> None:
        """Undo a merge, by a record of its own (as `merge`); the class is read again."""
        try:
            self.connection.part_trainees(uid, other_uid)
        finally:
            self.request(in_full=True)

    def merged_now(self) -> list:
        """The pairs merged now, read from the class (a short call on the GUI thread)."""
        return self.connection.merged_now()

    def void(self, nonce: str, reason: str) -> None:
        """Void a sitting in the class, with the reason (a short call on the GUI thread, as
        ui.shell.server_call makes it); the class is read again. ClassServerError says why not."""
        self.connection.void_sitting(nonce, reason)
        self.request(in_full=True)

    def give_back(self, result_uid: str, reason: str) -> str:
        """Give back an attempt at an exam started with no sitting, with the reason (a short call
        on the GUI thread, as ui.shell.server_call makes it); the line that says so, as
        `dealer-trainer give-back-attempt` prints it. ClassLedgerError says why not, in its words."""
        from trainer.exams import give_back

        return give_back(self.connection, result_uid, reason)

    def settle(self, uid: str, login: str | None, reason: str) -> str:
        """Settle a claimed trainee id the claimant `login`'s, or (None) the row's, with the reason
        (a short call on the GUI thread); the line `dealer-trainer settle-claim` prints. The class
        is read again, refused too. ClassServerError says why not."""
        from trainer.classes import settled_line

        try:
            n = self.connection.settle_claim(uid, login, reason)
        finally:
            self.request(in_full=True)
        return settled_line(uid, login, self.connection.address.database, n)

    def claims(self) -> list:
        """Every claim of a trainee id the class keeps, open or settled (a short call on the GUI thread)."""
        return self.connection.claims()

    def starts_spent(self) -> list[dict]:
        """The attempts started with no sitting and not given back (a short call on the GUI thread)."""
        from trainer.exams import starts_spent

        return starts_spent(self.connection)

    def stop(self) -> None:
        self._stopping.set()
        self._wanted.set()
        self._trainees.put(None)
        self.debounce.stop()
        self.tick.stop()
        for thread in self.threads:
            thread.join()
        self.view.remote = None
        self.view.retract = None
        self.view.void = None
        self.view.give_back = self.view.starts_spent = None
        self.view.merge = self.view.part = self.view.merged_now = None
        self.view.settle = self.view.claims = None
        self.view.hint.setText(self.local_hint)
        self.view.set_live_line(None)

    def _arrived(self, attempt_id) -> None:
        if self._stopping.is_set():
            return
        with self._lock:
            if attempt_id is None:  # the follower reconnected: announcements may have been missed
                self._in_full = True
            else:
                self._since.add(attempt_id)
                self.last_arrival = time.time()
                self.arrivals += 1
        if self.debounce.isActive():
            return  # a read is due already: it will see this attempt too
        wait = self.gap() - (time.monotonic() - self.last_read) * 1000
        if wait <= 0:
            self.request()
        else:
            self.debounce.start(int(wait) + 1)

    def _show(self, reading, unended) -> None:
        if self._stopping.is_set():
            return
        self.problem, self.activity = None, reading.activity
        self.view.remote = self.read_trainee  # the server's trainee ids are opened on the server
        self.view.retract = self.retract if hasattr(self.connection, "retract") else None
        self.view.void = self.void if hasattr(self.connection, "void_sitting") else None
        gives_back = hasattr(self.connection, "give_back_start")
        self.view.give_back = self.give_back if gives_back else None
        self.view.starts_spent = self.starts_spent if gives_back else None
        merges = hasattr(self.connection, "merge_trainees")
        self.view.merge = self.merge if merges else None
        self.view.part = self.part if merges else None
        self.view.merged_now = self.merged_now if merges else None
        settles = hasattr(self.connection, "settle_claim")
        self.view.settle = self.settle if settles else None
        self.view.claims = self.claims if settles else None
        self.view.hint.setText(LIVE_HINT)
        refused = self.connection.refused_attempts() if hasattr(self.connection, "refused_attempts") else []
        unended_part = unended_html(unended, voidable=self.view.void is not None)
        self.view.show_overview(reading.overview, before=refused_html(refused) + unended_part
                                + working_html(reading.activity, time.time()), changed=reading.changed)
        self.view.catching.show_rates(reading.catching)
        self.refreshes += 1
        self._line()
        self.refreshed.emit()

    def _failed(self, problem: str) -> None:
        if not self._stopping.is_set():
            self.problem = problem
            self._line()

    def _tick(self) -> None:
        self._line()
        if time.monotonic() - self.last_read >= REREAD_S:
            self.request()

    def _line(self) -> None:
        if self.problem is not None:
            self.view.set_live_line(f"Not live: {why_not(self.problem)}")
            return
        a = self.activity
        if a is None:
            return
        stations = f"{a.workstations} workstation{'s' if a.workstations != 1 else ''}"
        last = max((t for t in (a.last_result, self.last_arrival) if t is not None), default=None)
        when = f"last result {ago(time.time() - last)}" if last is not None else "no results yet"
        self.view.set_live_line(f"Live: {stations}, {when}")

    # ------------------------------------------------------------------ the threads
    def _follow(self) -> None:
        try:
            for attempt_id in self.connection.follow(self._stopping):
                self.arrived.emit(attempt_id)
        except Exception as e:
            self.failed.emit(f"following the class stopped: {e}")

    def _read(self) -> None:
        from trainer.classes import ClassServerError

        while True:
            self._wanted.wait()
            if self._stopping.is_set():
                return
            self._wanted.clear()
            with self._lock:
                since, self._since = self._since, set()
                in_full = (self._in_full or self.reading is None
                           or time.monotonic() - self.last_full >= IN_FULL_S)
                self._in_full, before = False, None if in_full else self.reading
            start = time.perf_counter()
            try:
                reading = self.connection.read_class(before, None if in_full else since)
                unended = self._unended()
            except Exception as e:
                with self._lock:  # what was announced meanwhile is read with the whole class
                    self._in_full = True
                self.failed.emit(str(e) if isinstance(e, ClassServerError) else f"{type(e).__name__}: {e}")
                continue
            self.took, self.reading = time.perf_counter() - start, reading
            if reading.full:
                self.last_full, self.full_reads = time.monotonic(), self.full_reads + 1
            self.read.emit(reading, unended)

    def _unended(self) -> list[dict]:
        """The sittings not ended, when this login may read them (else none are shown)."""
        from trainer.classes import ClassServerError

        read = getattr(self.connection, "unended_sittings", None)
        try:
            return list(read()) if read is not None else []
        except ClassServerError:
            return []

    def _read_trainees(self) -> None:
        from trainer.classes import ClassServerError

        while (job := self._trainees.get()) is not None:
            trainee, dialog = job
            left_out: list[str] = []
            try:
                attempts = self.connection.attempts_of(trainee.id, left_out=left_out)
            except ClassServerError as e:
                self.trainee_failed.emit(dialog, str(e))
                continue
            except Exception as e:
                self.trainee_failed.emit(dialog, f"{type(e).__name__}: {e}")
                continue
            self.trainee_read.emit(dialog, (attempts, left_out))
