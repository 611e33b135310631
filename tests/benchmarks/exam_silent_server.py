"""Measure what the window does during an online exam while the class server accepts the
connection and never answers (the second cold review's attack #40): the longest stall of the GUI
thread (a 10 ms timer's longest gap), how long the click that hands in a part takes, how soon
"Waiting for the class server" shows, how many distinct countdown readings the window showed in
SILENT seconds, and how soon the next part opens once the server answers again.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest tests/benchmarks/exam_silent_server.py
-q -s -p no:randomly`. Wall-clock times on a shared machine: read them, they assert nothing."""

from __future__ import annotations

import time

from tests.support.exams import code_of, form
from tests.support.screens import window
from tests.test_exam_silent_server import SilentProxy, issuer, through
from trainer.exams import installation_key, issue_sitting
from trainer.exams.keys import InstructorKey
from trainer.progress import Store
from ui.classroom.membership import classroom_of
from ui.qt import Qt, QTimer

SILENT = 25.0  # seconds the server stays silent: past the class connection's bound (push.GIVE_UP)


def test_measure_the_window_with_a_silent_class_server(qtbot, tmp_path, klass, joined):
    ivy = issuer(InstructorKey.generate("Ivy Park"))
    exam = form()
    with Store.open(tmp_path / "instructor.sqlite") as ledger:
        token = issue_sitting(ledger, ivy, exam, "Sam Lee", classroom=joined("instructor"))
    store = Store.open(tmp_path / "ws.db")
    w = window(qtbot, store, installation_key(tmp_path / "installation.key"), store.add_trainee("Sam Lee"))
    proxy = SilentProxy(klass.server.port)
    gaps = {"last": time.monotonic(), "max": 0.0}

    def tick():
        now = time.monotonic()
        gaps["max"] = max(gaps["max"], now - gaps["last"])
        gaps["last"] = now

    meter = QTimer()
    meter.setInterval(10)
    meter.timeout.connect(tick)
    try:
        classroom_of(w).join(through(proxy, klass))
        page = w.show_screen("exam")
        assert page.begin(exam, sitting=token, start_code=code_of(token))
        runner = page.runner
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: runner.index == 1, timeout=10_000)
        proxy.silent()
        gaps["last"], gaps["max"] = time.monotonic(), 0.0
        meter.start()
        t0 = time.monotonic()
        qtbot.mouseClick(runner.screen.end, Qt.MouseButton.LeftButton)
        click = time.monotonic() - t0
        qtbot.waitUntil(lambda: runner.held.isVisible(), timeout=60_000)
        shown = time.monotonic() - t0
        readings = set()
        while time.monotonic() - t0 < SILENT:
            qtbot.wait(100)
            readings.add(runner.countdown.text())
        t1 = time.monotonic()
        proxy.answer()
        qtbot.waitUntil(lambda: runner.index == 2, timeout=60_000)
        back = time.monotonic() - t1
        meter.stop()
        print(f"\nclick {click:.2f} s; 'Waiting' shown after {shown:.2f} s; longest GUI stall "
              f"{gaps['max']:.2f} s; {len(readings)} countdown readings in {SILENT:g} s silent; "
              f"next part {back:.2f} s after the server answers; last problem: {page.session.problem}")
    finally:
        proxy.answer()
        page = w.show_screen("exam")
        page.abandon()
        qtbot.waitUntil(lambda: page.runner is None, timeout=60_000)
        w.close()
        store.close()
        proxy.close()
