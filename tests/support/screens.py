"""The main window on a real store, and its modal dialogs answered as a user answers them; an
exam's runner with its pauses shortened (`quicken_runner`)."""

from __future__ import annotations

import contextlib

PASSPHRASE = "correct horse battery"
#: the exam runner's pauses in the window's tests (ui.exams.runner), a tenth of the app's or less:
#: the first try again after an answer the class server has not acknowledged (the app's 500 ms,
#: doubling up to 3 s), the held line after 25 ms (the app's second), the next part 10 ms after
#: one is done (the app's 600 ms). The tests wait for what the window shows and sends, never for
#: a pause's length, and what it shows and sends is the same at either pace.
QUICK_RUNNER_MS = {"FIRST_RETRY_MS": 50, "RETRY_MS": 300, "SHOW_HELD_MS": 25, "PART_DONE_MS": 10}


def quicken_runner(monkeypatch) -> None:
    """The exam runner's pauses shortened (QUICK_RUNNER_MS), for the windows made after."""
    for name, ms in QUICK_RUNNER_MS.items():
        monkeypatch.setattr(f"ui.exams.runner.{name}", ms)


def answer(*steps: dict, seen: list | None = None, asked: list | None = None):
    """Answer the modal dialogs that will open, in order. Each step is {"button": label} for a
    message box, {"text": ...} for an input dialog, or {"file": path} for a file dialog. A
    dialog nobody expected is cancelled after a few seconds, so a test fails instead of hanging.
    `seen` collects the message boxes' texts, `asked` the input dialogs' questions and echo modes."""
    from ui.qt import QApplication, QDialog, QFileDialog, QInputDialog, QMessageBox, QProgressDialog, QTimer

    todo = list(steps)
    tries = {"n": 0}

    def act():
        box = QApplication.activeModalWidget()
        if box is None or isinstance(box, QProgressDialog):  # work going on: no question yet
            if todo:
                QTimer.singleShot(30, act)
            return
        if not todo or tries["n"] > 150:
            if isinstance(box, QDialog):
                box.reject()
            return
        tries["n"] += 1
        step = todo[0]
        if "file" in step and isinstance(box, QFileDialog):
            box.selectFile(step["file"])
            box.accept()
        elif "text" in step and isinstance(box, QInputDialog):
            if asked is not None:
                asked.append((box.labelText(), box.textEchoMode()))
            box.setTextValue(step["text"])
            box.accept()
        elif "button" in step and isinstance(box, QMessageBox):
            if seen is not None:
                seen.append(box.text())
            next(b for b in box.buttons() if b.text().replace("&", "") == step["button"]).click()
        else:
            QTimer.singleShot(30, act)
            return
        todo.pop(0)
        tries["n"] = 0
        if todo:
            QTimer.singleShot(30, act)

    QTimer.singleShot(30, act)


def window(qtbot, store, key, trainee_id, seen=None):
    """The main window on `store`, for the trainee; `seen`: where the app looks for a sitting
    started before (trainer.exams.SittingsSeen; the app's default file's, in the app)."""
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    services = Services(store, store.trainee(trainee_id), key=key, seen=seen)
    w = MainWindow(services)
    services.window = w
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    return w


def build_form(qtbot, page):
    """The instructor's form builder, worked from the keyboard."""
    from ui.exams.forms import FormBuilder
    from ui.qt import Qt, QTimer

    made = {}

    def fill():
        builder = next(w for w in page.findChildren(FormBuilder) if w.isVisible())
        qtbot.keyClicks(builder.name, "Pai Gow and Props & Hops check ride")
        wanted = ("Sum and Match", "one-roll wagers")
        for row in range(builder.list.count()):
            if any(w in builder.list.item(row).text() for w in wanted):
                builder.list.setCurrentRow(row)
                qtbot.keyClick(builder.list, Qt.Key.Key_Space)
        builder.minutes.setValue(30)
        made["items"] = len(builder.chosen())
        builder.accept()

    QTimer.singleShot(50, fill)
    page.new_form()
    return made


@contextlib.contextmanager
def rosa_window(qtbot, tmp_path):
    """Rosa Diaz's window over a progress file in `tmp_path/data` (the data folder her spoken
    calls and voice are kept under), closed after."""
    from trainer.progress import Store

    store = Store.open(tmp_path / "data" / "progress.db", full_check=False)
    trainee = store.trainee(store.add_trainee("Rosa Diaz"))
    w, _services = window_for(qtbot, store, trainee)
    try:
        yield w
    finally:
        w.close()
        store.close()


def settings_shown(qtbot, window):
    """File › Settings… over `window`, shown."""
    from ui.shell.settings import SettingsDialog

    dialog = SettingsDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def window_for(qtbot, store, trainee):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    services = Services(store, trainee)
    w = MainWindow(services)
    services.window = w
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    return w, services


def on_class_tab(window):
    """An instructor's Progress screen shown on its Class tab (the page returned). The tab is
    chosen before the screen shows: the Class tab is the same either way, and My progress's
    charts, which no Class tab test looks at, are never made (ui.progress.charts.Chart)."""
    page = window.page("progress")
    page.tabs.setCurrentIndex(1)
    window.show_screen("progress")
    return page


def answer_with(button_text: str, seen_as=lambda box: box.text()):
    """Click a button of the message box that will be open in a moment; what it showed (its text,
    or what `seen_as` reads of it) is in the list returned."""
    from ui.qt import QApplication, QMessageBox, QTimer

    seen = []

    def click():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        seen.append(seen_as(box))
        next(b for b in box.buttons() if b.text() == button_text).click()

    QTimer.singleShot(20, click)
    return seen


def press(qtbot, widget, key, times: int = 1) -> None:
    """Press `key` on `widget`, `times` times, as a trainee does."""
    for _ in range(times):
        qtbot.keyClick(widget, key)


def choose(qtbot, lst, wanted: str) -> None:
    """Move a list's current row with ↓ (from the top) to the item whose data is `wanted`."""
    from ui.qt import Qt

    rows = [lst.item(r).data(Qt.ItemDataRole.UserRole) for r in range(lst.count())]
    assert wanted in rows, (wanted, rows)
    press(qtbot, lst, Qt.Key.Key_Home)
    press(qtbot, lst, Qt.Key.Key_Down, rows.index(wanted))
    assert lst.currentItem().data(Qt.ItemDataRole.UserRole) == wanted
