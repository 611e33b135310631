"""The main window: navigation, title, theme, remembered screen, and the --screenshot switch."""

from __future__ import annotations

import contextlib
import io

import pytest

from tests.support.command import run_command


class Trainee:
    id, name, instructor, has_passphrase = 1, "Rosa Diaz", False, False


@pytest.fixture
def window(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    services = Services(None, Trainee())
    w = MainWindow(services)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def test_the_title_says_who_is_training(window):
    assert window.windowTitle() == "Dealer Trainer — Rosa Diaz"


def test_ctrl_digits_switch_screens(window, qtbot):
    from ui.qt import Qt

    for key, name in ((Qt.Key.Key_2, "scenarios"), (Qt.Key.Key_4, "rules"), (Qt.Key.Key_1, "practice")):
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
        assert window.stack.currentWidget() is window.pages[name]


def test_the_last_screen_is_remembered(qtbot):
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    first = MainWindow(Services(None))
    qtbot.addWidget(first)
    first.show_screen("rules")
    first.close()
    second = MainWindow(Services(None))
    qtbot.addWidget(second)
    assert second.stack.currentWidget() is second.pages["rules"]
    second.close()


def test_the_dark_theme_applies_and_is_remembered(window):
    from ui.qt import QApplication, QSettings

    window.set_theme("dark")
    assert QApplication.instance().property("theme") == "dark"
    assert QSettings().value("view/theme") == "dark"
    window.set_theme("light")


def test_the_exam_screen_has_its_place(window):
    window.show_screen("exam")
    assert window.stack.currentWidget() is window.pages["exam"]


SHOT_SCREENS = ["practice", "scenarios", "rules", "exam", "exam-result", "progress", "class", "class-live",
                "drill", "table-props-and-hops", "table-three-dice-football", "table-high-roll-dice",
                "table-high-roll-dice-6", "table-pai-gow-dice", "supervise", "supervise-flag",
                "supervise-debrief"]


def shot_here(*args: str) -> tuple[int, str]:
    """The program's arguments run through its entry in this process (ui.main.main, which the
    program calls), as tests/support/command.py's run_here runs an engine command: exit status and
    stderr. A screenshot leaves no window of its own behind (ui.shell.app.discard)."""
    from ui.main import main
    from ui.qt import QApplication
    from ui.shell.window import MainWindow

    def windows() -> set[int]:
        return {id(w) for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}

    before, err = windows(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    assert windows() <= before, "the screenshot's window outlived the call"
    return code, err.getvalue()


def png_size(path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_the_screenshot_program_writes_a_png(tmp_path):
    """The program itself, once: the other screens are drawn through its entry in this process."""
    out = tmp_path / "table.png"
    done = run_command("--screenshot", str(out), "--screen", "table-props-and-hops",
                       env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert png_size(out) == (1440, 900)


@pytest.mark.parametrize("screen", SHOT_SCREENS)
def test_screenshot_switch_writes_a_png(qtbot, tmp_path, screen):
    out = tmp_path / f"{screen}.png"
    code, err = shot_here("--screenshot", str(out), "--screen", screen)
    assert code == 0, err
    assert png_size(out) == (1440, 900)


def test_screenshot_problems_are_one_clear_line(qtbot, tmp_path):
    code, err = shot_here("--screenshot", str(tmp_path / "nope" / "x.png"))
    assert code == 2
    assert "does not exist" in err and "Traceback" not in err and len(err.splitlines()) == 1
    code, err = shot_here("--screenshot", str(tmp_path / "x.png"), "--screen", "casino")
    assert code == 2 and "unknown screen" in err and len(err.splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_a_screenshot_in_the_dark_theme_is_dark_and_a_theme_alone_is_refused(qtbot, tmp_path):
    """`make screenshots` draws every screen in both themes; --theme is only for a screenshot."""
    from ui.qt import QApplication, QImage
    from ui.shell import theme as themes

    grounds = {}
    try:
        for theme in ("light", "dark"):
            out = tmp_path / f"rules-{theme}.png"
            code, err = shot_here("--screenshot", str(out), "--screen", "rules", "--theme", theme)
            assert code == 0, err
            grounds[theme] = QImage(str(out)).pixelColor(1400, 880).lightness()  # the window's ground
    finally:  # the picture's theme is the process's: put back the light one a light picture leaves
        themes.apply(QApplication.instance(), "light")
    assert grounds["dark"] < 60 < 200 < grounds["light"], grounds
    code, err = refused_here("--theme", "dark")
    assert code == 2 and "--theme goes with --screenshot" in err
    code, err = refused_here("--screenshot", str(tmp_path / "x.png"), "--theme", "purple")
    assert code == 2 and "invalid choice" in err and "Traceback" not in err


def test_a_reproducible_screenshot_is_the_same_bytes_twice(tmp_path):
    """The live class: its trainees seen "N s ago" from now, its last results dated today; with
    --reproducible the clock stands still, and two pictures, a few seconds apart, are one. Each
    program leaves nothing in the temporary folder (its throwaway settings, the demonstration's
    key)."""
    shots = []
    scratch = tmp_path / "temporary"
    scratch.mkdir()
    for n in (1, 2):
        out = tmp_path / f"class-live-{n}.png"
        done = run_command("--screenshot", str(out), "--screen", "class-live", "--size", "1024x680",
                           "--reproducible", env={"QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(scratch)})
        assert done.returncode == 0, done.stderr
        shots.append(out.read_bytes())
        assert not list(scratch.iterdir())
    assert shots[0] == shots[1]
    code, err = refused_here("--reproducible")
    assert code == 2 and "--reproducible goes with --screenshot" in err


def test_a_reproducible_picture_stops_every_clock_and_seeds_the_demonstration():
    """In a process of its own (the clock is stopped for the whole process): each clock the app
    reads gives the one moment, the random draws repeat, and a clock stopped after the practice
    round kept the real one is refused."""
    import subprocess
    import sys

    from tests.support.paths import ROOT

    code = """
import random, secrets, time, uuid
from ui.shell.reproducible import AT, seed_for, stop_the_clock
assert seed_for("x") is None
stop_the_clock()
from trainer.exams.clock import exam_clock
from trainer.practice import PracticeRound
import inspect
assert time.time() == time.monotonic() == exam_clock() == AT, (time.time(), exam_clock())
assert inspect.signature(PracticeRound).parameters["clock"].default() == AT
assert time.strftime("%Y-%m-%d %H:%M", time.gmtime()) == "2026-03-02 15:00"
print(secrets.token_hex(4), uuid.uuid4().hex, random.SystemRandom().random(), seed_for("x").hex())
"""
    said = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                           timeout=120) for _ in range(2)]
    assert said[0].returncode == 0, said[0].stderr
    assert said[0].stdout == said[1].stdout and said[0].stdout.strip()
    late = subprocess.run([sys.executable, "-c", "import trainer.practice\n"
                           "from ui.shell.reproducible import stop_the_clock\nstop_the_clock()"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert late.returncode == 1 and "the clock is stopped too late: trainer.practice" in late.stderr


def test_screenshot_with_db_renders_that_file_by_the_real_start_path(qtbot, tmp_path):
    """`--screenshot --db FILE` opens the file as the app starts (nothing asked), and a file it
    cannot use is one line and exit 2, with no image and the file left as it was."""
    from trainer.progress import Store
    from ui.shell.app import file_services, showcase

    db = tmp_path / "class.db"
    with Store.open(db) as store:
        store.add_trainee("Zed Real")
        store.add_trainee("Ivy Teach", instructor=True, passphrase="a long class passphrase")
    window = showcase("exam", file_services(str(db)))
    qtbot.addWidget(window)
    assert "Zed Real" in window.pages["exam"].title.text()
    assert "Ivy Teach" not in window.windowTitle(), "an instructor profile needs its passphrase"
    window.close()
    out = tmp_path / "exam.png"
    code, err = shot_here("--screenshot", str(out), "--screen", "exam", "--db", str(db))
    assert code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", err
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database" * 10)
    code, err = shot_here("--screenshot", str(tmp_path / "bad.png"), "--screen", "exam", "--db", str(bad))
    assert code == 2 and err.startswith("--db: ") and len(err.splitlines()) == 1
    assert not (tmp_path / "bad.png").exists() and bad.read_bytes() == b"not a database" * 10


def test_the_screenshot_window_shows_every_action_whole(qtbot):
    """The --screenshot path lays the window out before the picture is taken: no action button
    is squashed or clipped."""
    from ui.qt import QApplication
    from ui.shell.app import showcase

    window = showcase("table-props-and-hops", None)
    qtbot.addWidget(window)
    QApplication.processEvents()
    bar = window.show_screen("practice").screen.actions
    for button in bar.buttons.values():
        lines = button.text().replace("&&", "&").split("\n")
        assert button.height() >= len(lines) * button.fontMetrics().height(), lines[0]
        assert button.width() >= max(button.fontMetrics().horizontalAdvance(t) for t in lines)
    window.close()


def test_the_screenshot_places_the_keypad_as_the_live_app_does(qtbot):
    """--screenshot --screen drill drew the keypad over the middle of the table: the offscreen
    platform's screen is smaller than the picture, and the keypad was kept on it. It stands
    beside the table, over the feedback panel, as in the app on a screen of the picture's size."""
    from ui.qt import QApplication, QRect
    from ui.shell.app import showcase, with_dialogs

    window = showcase("drill", None, (1366, 768))
    qtbot.addWidget(window)
    QApplication.processEvents()
    screen = window.show_screen("practice").screen
    pad = screen.dialog
    assert pad is not None and pad.isVisible()
    drawn = QRect(window.mapFromGlobal(pad.pos()), pad.frameGeometry().size())
    table = QRect(screen.view.mapTo(window, screen.view.rect().topLeft()), screen.view.size())
    panel = QRect(screen.side.mapTo(window, screen.side.rect().topLeft()), screen.side.size())
    assert window.rect().contains(drawn), f"the keypad {drawn.getRect()} is cut from the picture"
    assert not drawn.intersects(table), f"the keypad {drawn.getRect()} covers the table {table.getRect()}"
    assert panel.left() <= drawn.left() and drawn.right() <= panel.right()
    assert not with_dialogs(window).isNull()
    pad.reject()
    window.close()


def test_the_app_starts_by_the_real_path_to_its_window(qtbot, tmp_path, monkeypatch):
    """`make run`'s path through ui.shell.app.run: the file opened, the exam setup, the trainee chosen
    (the one dialog stubbed: the file's trainee is picked), the window shown with its database
    check and its class line; the event loop is the only thing not entered."""
    from trainer.progress import Store
    from ui.qt import QApplication
    from ui.shell.app import run
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        store.add_trainee("Rosa Diaz")

    def choose(self, parent=None):
        self.trainee = self.store.trainees()[0]
        return True

    monkeypatch.setattr(Services, "choose_trainee", choose)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert run(db=str(db)) == 0
    [window] = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    try:
        assert window.windowTitle() == "Dealer Trainer — Rosa Diaz"
        qtbot.waitUntil(lambda: not window.database_check.timer.isActive(), timeout=10000)
        assert window.services.store.check_problems == ["ok"], "the full check ran, and passed"
    finally:
        window.close()
        window.services.store.close()


def test_closing_the_window_mid_check_stops_the_check(qtbot, tmp_path, monkeypatch):
    """A check of a large file is still running when the window closes: it stops, and so does
    the timer following it."""
    from trainer.progress import Store
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    store = Store.open(tmp_path / "p.db", full_check=False)
    window = MainWindow(Services(store, Trainee()))
    qtbot.addWidget(window)
    window.show()
    stopped = []
    monkeypatch.setattr(Store, "checking", property(lambda self: not stopped))
    monkeypatch.setattr(Store, "stop_check", lambda self: stopped.append(True))
    monkeypatch.setattr(Store, "start_check", lambda self: None)
    window.database_check.start()
    assert window.database_check.timer.isActive()
    window.close()
    assert stopped and not window.database_check.timer.isActive()
    monkeypatch.undo()
    store.close()


def test_a_screenshot_at_a_laptops_size_and_a_bad_size_in_one_line(qtbot, tmp_path):
    """`make screenshots` draws every screen at 1366x768 (--size); a size that is not one is
    refused in one line, and --size is only for a screenshot."""
    from ui.qt import QImage

    out = tmp_path / "practice.png"
    code, err = shot_here("--screenshot", str(out), "--screen", "practice", "--size", "1366x768")
    assert code == 0, err
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    for bad in ("1366", "1366x", "x768", "-5x768", "1366x768x2", "99999x768", "0x0", "١٣٦٦x768"):
        code, err = refused_here("--screenshot", str(tmp_path / "x.png"), f"--size={bad}")
        assert code == 2 and "is not a size such as 1366x768" in err, bad
        assert "Traceback" not in err and not (tmp_path / "x.png").exists(), bad
    code, err = refused_here("--size", "1366x768")
    assert code == 2 and "--size goes with --screenshot" in err


def refused_here(*args: str) -> tuple[int, str]:
    """The program's arguments refused through its entry in this process (ui.main.main, which
    the program calls; argparse refuses before any window or theme is made): exit status, stderr."""
    from ui.main import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), \
            pytest.raises(SystemExit) as refused:
        main(list(args))
    return refused.value.code, err.getvalue()


def test_each_demonstration_class_is_written_apart_from_the_others(qtbot):
    """The demonstration class is seeded once and copied: what one screenshot's class records,
    no other sees."""
    from ui.shell.app import demo_services

    first, second = demo_services(), demo_services(instructor=True)
    assert second.trainee.name == "Instructor Lee" and first.trainee.name == "Dev Patel"
    names = [t.name for t in first.store.trainees()]
    assert names == [t.name for t in second.store.trainees()] and len(names) > 2
    first.store.add_trainee("Zoe Quist")
    assert "Zoe Quist" not in [t.name for t in second.store.trainees()]
    assert "Zoe Quist" not in [t.name for t in demo_services().store.trainees()]


@pytest.mark.parametrize("own", [None, "200"])
def test_the_app_asks_the_sound_server_for_its_pieces_before_qt_starts(tmp_path, own):
    """Qt 6.11 lets PulseAudio hold only 64 ms of a microphone's sound for the app, and a server
    that gave it 100 ms at a time lost two thirds of each call (tests/test_microphone_ui.py): the
    app asks for pieces of its own size through libpulse's variable, set by the app's own start
    (here `dealer-trainer --screenshot`) before its QApplication is made, while the program has
    one thread (the environment is not safe to change while others read it). A value the user
    set is theirs."""
    import os
    import subprocess
    import sys

    from tests.support.paths import ROOT
    from ui.speech.audio import PULSE_PIECES

    name, value = PULSE_PIECES
    env = {k: v for k, v in os.environ.items() if k != name}
    env.update({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                "QT_QPA_PLATFORM": "offscreen", **({name: own} if own else {})})
    code = f"""
import os, sys
from ui.qt import QApplication
from ui.speech import audio
asked = audio.ask_for_pieces
def ask():
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
    print("asked", QApplication.instance() is None, threads, os.environ.get({name!r}))
    asked()
audio.ask_for_pieces = ask
from ui.main import main
code = main(["--screenshot", {str(tmp_path / "shot.png")!r}])
print("after", code, os.environ.get({name!r}))
"""
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)
    assert said.returncode == 0, said.stderr
    expected = own or (value if sys.platform.startswith("linux") else None)
    assert said.stdout.split() == ["asked", "True", "1", str(own), "after", "0", str(expected)]
