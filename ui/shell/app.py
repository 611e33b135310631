"""Starting the app: the QApplication, the progress store, who is training, the main window;
and `--screenshot FILE [--screen NAME] [--reproducible]`, which renders a screen off screen and
exits."""

from __future__ import annotations

import sys
from pathlib import Path

from trainer import GAME_IDS, __version__

SCREENS = ("practice", "scenarios", "progress", "class", "class-live", "rules", "exam", "exam-result",
           "drill", *(f"table-{game}" for game in GAME_IDS), "supervise", "supervise-flag",
           "supervise-debrief")
#: the round the supervise screenshots deal (a game, a difficulty and a seed: its first fault
#: flagged, one action after it shows)
SUPERVISE_SHOT = ("props-and-hops", 2, 3)
STYLE = "Fusion"  # Qt's own style, drawn alike on Windows, macOS and Linux
#: the window's size in a screenshot unless asked otherwise (the README's pictures); `make
#: screenshots` asks for a laptop's screen, 1366×768
SHOT_SIZE = (1440, 900)
#: the Linux menu entry the app belongs to (packaging/linux/dealer-trainer.desktop)
DESKTOP_ENTRY = "dealer-trainer"
LIVE_WAIT_S = 30.0  # the live class's first read, at most, before its picture is taken


def application(config=None):
    """The QApplication, in the theme and print `config` gives (ui.shell.config.Config; by
    default the machine file's and the user's settings), with the app's fonts and icon."""
    from ui.qt import QApplication, QGuiApplication, Qt
    from ui.shell import collecting, fonts, theme
    from ui.shell.config import load
    from ui.shell.icon import app_icon

    app = QApplication.instance()
    if app is None:
        from ui.speech.audio import ask_for_pieces

        ask_for_pieces()  # the environment's, before Qt starts a thread that reads it
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(sys.argv[:1])
    collecting.on_this_thread(app)  # Python's cycles collected on this thread only
    # Fusion on every OS: Windows' and macOS's own styles would not look like the screenshots
    app.setStyle(STYLE)
    fonts.load(app)  # DejaVu on every OS, as in the screenshots
    app.setWindowIcon(app_icon())
    app.setDesktopFileName(DESKTOP_ENTRY)  # Wayland's app id: its menu entry's icon and name
    app.setApplicationName("Dealer Trainer")
    app.setOrganizationName("Dealer Trainer")
    app.setApplicationVersion(__version__)
    config = config if config is not None else load()
    theme.apply(app, str(config.value("theme")), large=bool(config.value("large_print")))
    return app


def run(*, screenshot: str | None = None, screen: str | None = None, db: str | None = None,
        theme: str | None = None, size: tuple[int, int] = SHOT_SIZE, class_address=None,
        reproducible: bool = False, hear_from: list[str] | None = None) -> int:
    """`class_address`: the class given with --class (a ClassAddress), joined for this run;
    `hear_from`: WAV files spoken calls are heard from, in turn, instead of the microphone;
    `reproducible`, with `screenshot`: the picture taken at a stopped clock, its demonstration
    seeded (ui.shell.reproducible), the same bytes at every run."""
    from ui.shell.window_system import problem

    if (why := problem()) is not None:  # said here: Qt would abort with a riddle
        print(why, file=sys.stderr)
        return 1
    if screenshot:
        if reproducible:
            from ui.shell.reproducible import stop_the_clock

            stop_the_clock()
        from ui.shell import theme as themes

        app = application()
        themes.apply(app, theme or "light")  # a picture in the theme asked for, not the user's
        return save_screenshot(Path(screenshot), screen or "practice", db, size)
    from ui.shell.config import load
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    config = load(db=db, class_address=class_address.url if class_address is not None else None)
    for note in config.notes:
        print(note, file=sys.stderr)
    if class_address is not None and config.locked("class_address"):
        class_address = None  # the machine's class, which rejoin_class joins (said in the notes)
    app = application(config)
    if hear_from:
        from ui.speech.options import HEAR_FROM

        app.setProperty(HEAR_FROM, list(hear_from))
    db = str(config.progress_file(db))
    store = open_store(db)
    if store is False:
        return 0
    if store is not None:
        store.start_check()  # reads in a thread while the exam setup and the window get ready
    services = Services(store, key=exam_setup(store, db), seen=sittings_seen())
    if not services.choose_trainee():
        return 0
    window = MainWindow(services, config=config)
    services.window = window
    services.status.connect(lambda text: window.statusBar().showMessage(text, 15000))
    window.show()
    if store is not None:
        window.database_check.start()  # follows the check already running
    window.show_notes(config.notes)
    if store is not None and store.problem is not None:
        window.statusBar().showMessage(f"{store.problem} Results are kept until they can be saved.")
    window.rejoin_class(class_address)
    return app.exec()


def exam_setup(store, db: str | None) -> bytes | None:
    """The installation secret (beside the progress file, never inside it); once the file's full
    check has passed (`Store.after_check`: the window does not wait for it), exams a crash left
    open are closed as left and the example exam forms are offered. None when the secret cannot
    be read or made: the app runs, without exams."""
    from trainer.exams import ExamError, installation_key

    folder = Path(db).parent if db else default_db().parent
    try:
        key = installation_key(folder / "installation.key")
    except (ExamError, OSError) as e:
        print(f"exams are off: {e}", file=sys.stderr)
        return None
    if store is not None and store.problem is None:
        store.after_check(lambda: exam_upkeep(store, key))
    return key


def exam_upkeep(store, key: bytes) -> None:
    """Exams a crash left open closed as left; the example forms offered. A file that cannot
    take them now is said in one line, and the app goes on."""
    from trainer.exams import ExamError, add_bundled_forms, close_interrupted
    from trainer.progress import StoreError

    try:
        close_interrupted(store, key)
        add_bundled_forms(store)
    except (ExamError, StoreError) as e:
        print(f"exams: {e}", file=sys.stderr)


def sittings_seen():
    """Where the app looks for a sitting started before, whatever file is open: the list beside
    the default progress file, and that file (trainer.exams.seen)."""
    from trainer.exams import SittingsSeen

    return SittingsSeen(default_db())


def default_db() -> Path:
    """The progress file the settings give: in the data folder (the machine file's, the user's,
    or the user's local application data; ui.shell.config)."""
    from ui.shell.config import load

    return load().progress_file()


def open_store(db: str | None):
    """The progress store, asking what to do when the file is damaged or newer; None to go on
    without saving, False to quit. A damaged or newer file is never touched."""
    from trainer.progress import Store, StoreError, StoreUnavailableError
    from ui.qt import QFileDialog, QMessageBox

    path = Path(db) if db else default_db()
    while True:
        try:
            # the cheap checks only: the full integrity check runs in the background (ui.shell.checking)
            store = Store.open(path, allow_unavailable=True, full_check=False)
            if store.readable:
                return store  # perhaps read-only for now: results wait in memory
            problem = str(store.problem)  # it cannot even be read: ask, as for a damaged file
            store.close()
        except StoreUnavailableError as e:
            problem = str(e)
        except StoreError as e:
            problem = str(e)
        box = QMessageBox(QMessageBox.Icon.Critical, "Progress file",
                          f"{problem}\n\nThe file is left exactly as it is.")
        other = box.addButton("Open another…", QMessageBox.ButtonRole.ActionRole)
        new = box.addButton("Create a new file…", QMessageBox.ButtonRole.ActionRole)
        without = box.addButton("Continue without saving", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
        box.exec()
        clicked = box.clickedButton()
        if clicked is other:
            name, _ = QFileDialog.getOpenFileName(None, "Open a progress file", str(path.parent),
                                                  "Progress files (*.db);;All files (*)")
        elif clicked is new:
            name, _ = QFileDialog.getSaveFileName(None, "Create a progress file", str(path.parent),
                                                  "Progress files (*.db)")
        elif clicked is without:
            return None
        else:
            return False
        if name:
            path = Path(name)


def save_screenshot(path: Path, screen: str, db: str | None = None,
                    size: tuple[int, int] = SHOT_SIZE) -> int:
    """Render one screen of the main window to a PNG; one line and exit 2 if it cannot. With
    `db`, the window is the one the real start path makes for that progress file (headless, and
    nothing is asked); without, a demonstration class in memory."""
    if screen not in SCREENS:
        print(f"--screen: unknown screen {screen!r}; choose one of {', '.join(SCREENS)}",
              file=sys.stderr)
        return 2
    if not path.parent.is_dir():
        print(f"--screenshot: the folder {path.parent} does not exist", file=sys.stderr)
        return 2
    services = None
    if db is not None:
        services = file_services(db)
        if services is None:
            return 2
    from ui.qt import QApplication

    window = showcase(screen, services, size)
    QApplication.processEvents()  # the layouts settle, as they would before the first frame
    image = with_dialogs(window)
    progress = window.pages.get("progress")
    if progress is not None and progress.live is not None:
        progress.live.stop()  # its threads end with the picture, as leaving a class ends them
    window.close()
    discard(window)
    if not image.save(str(path), "PNG"):
        print(f"--screenshot: could not write {path}", file=sys.stderr)
        return 2
    return 0


def discard(window) -> None:
    """A closed window deleted now, with its timers, and its progress store closed: the call that
    made a screenshot (a test's, in its own process) leaves nothing of it running."""
    from ui.qt import QApplication, QEvent

    store = window.services.store if window.services is not None else None
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    if store is not None:
        store.close()


def with_dialogs(window):
    """The window's picture with its open dialogs (the payout keypad) drawn where they stand:
    they are windows of their own, which a grab of the main window leaves out."""
    from ui.qt import QDialog, QPainter

    image = window.grab()
    painter = QPainter(image)
    for dialog in window.findChildren(QDialog):
        if dialog.isVisible():
            painter.drawPixmap(dialog.mapTo(window, dialog.rect().topLeft()) if dialog.parent() is not None
                               and not dialog.isWindow() else window.mapFromGlobal(dialog.pos()),
                               dialog.grab())
    painter.end()
    return image


def throwaway_settings():
    """Settings that start empty and are written nowhere the user keeps: a screenshot shows the
    defaults and leaves the user's remembered size, screen and theme alone."""
    import atexit

    from ui.qt import QSettings

    settings = QSettings(str(scratch_folder("dealer-trainer-shot-") / "settings.ini"),
                         QSettings.Format.IniFormat)
    atexit.register(settings.sync)  # before the folder goes, or Qt writes it again at its exit
    return settings


def scratch_folder(prefix: str) -> Path:
    """A new temporary folder (its owner's only) for this process, removed when it exits: a
    screenshot or a demonstration leaves nothing behind."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder)


def file_services(db: str):
    """The services the real start path makes for a progress file, asking nothing: the file
    opened with its full check, the exam setup, its first trainee who is not an instructor (an
    instructor's profile opens only with the instructor key's passphrase). None, with one line,
    when the file cannot be used."""
    from trainer.progress import Store, StoreError
    from ui.shell.services import Services

    try:
        store = Store.open(db, allow_unavailable=True)
    except StoreError as e:
        print(f"--db: {e}", file=sys.stderr)
        return None
    if not store.readable:
        print(f"--db: {store.problem}", file=sys.stderr)
        return None
    services = Services(store, key=exam_setup(store, db), seen=sittings_seen())
    people = store.trainees()
    services.trainee = next((t for t in people if not t.instructor), None)
    return services


def showcase(screen: str, services=None, size: tuple[int, int] = SHOT_SIZE):
    """The main window on a screen, at `size`: for the services given (a progress file), or as
    a demonstration (no progress file is touched)."""
    from ui.qt import QApplication
    from ui.shell.services import Services
    from ui.shell.window import MainWindow

    if services is None:
        services = Services(None)
        if screen in ("progress", "class", "class-live", "exam", "exam-result"):
            services = demo_services(instructor=screen in ("class", "class-live", "exam-result"),
                                     session=screen == "class-live")
    settings = throwaway_settings()
    # the window opens on the screen of the picture, as it opens on the last screen shown: the
    # Practice screen is made only for a picture of it
    settings.setValue("window/screen", first_screen(screen))
    window = MainWindow(services, settings=settings)
    window.asks_before_quit = False  # a picture: a round it shows under way is no one's work
    if screen in ("class", "class-live"):  # on the Class tab before it shows: My progress's
        window.pages["progress"].tabs.setCurrentIndex(1)  # charts are never made
    window.resize(*size)
    window.show()  # shown first: a dialog the screen opens stands where it would in use
    from ui.practice.dialogs import SCREEN_AREA

    # on a screen of the picture's size, as the window would be in use (the offscreen
    # platform's own screen is smaller): a dialog stands beside the table, not over it
    window.setProperty(SCREEN_AREA, window.frameGeometry())
    if screen.startswith("table-") or screen == "drill":
        game = screen.removeprefix("table-") if screen.startswith("table-") else GAME_IDS[0]
        page = window.show_screen("practice")
        if screen == "drill":  # the first winner brought to the keypad, its payout half built
            page.kind.setCurrentIndex(1)
            page.deal(seed=7, game=game)
            QApplication.processEvents()
            pad = page.screen.dialog
            if pad is not None and hasattr(pad, "add_chip"):
                for cents in (2_500, 2_500, 500):
                    pad.add_chip(cents)
        else:
            from trainer import load_library
            from ui.table import view_class

            scenario_id, steps = next((s, n) for g, s, n in view_class(game).showcase if g == game)
            scenario = load_library().by_id(scenario_id)
            if scenario is not None:
                page.start_scenario(scenario)
                work(page.screen, steps)
    elif screen.startswith("supervise"):
        supervise_showcase(window.show_screen("supervise"), screen)
    elif screen == "class-live":
        follow_demo_class(window.pages["progress"], services.store)
    elif screen == "exam-result":
        page = window.show_screen("exam")
        from trainer.exams import certificate_for, results

        done = [r for r in results(services.store) if r.over]
        done.sort(key=lambda r: certificate_for(services.store, r.uid) is None)  # certified first
        if done:
            page.show_result(done[0])
    return window


def first_screen(screen: str) -> str:
    """The window's screen (ui.shell.window.SCREENS) a picture of `screen` is taken on."""
    if screen.startswith("table-") or screen == "drill":
        return "practice"
    if screen.startswith("supervise"):
        return "supervise"
    return {"class": "progress", "class-live": "progress", "exam-result": "exam"}.get(screen, screen)


def supervise_showcase(page, screen: str) -> None:
    """A supervised round for a screenshot, stepped: mid-play just after its first fault shows
    ("supervise"), that fault being flagged ("supervise-flag"), or flagged and the debrief shown
    ("supervise-debrief")."""
    game, difficulty, seed = SUPERVISE_SHOT
    page.difficulty.setValue(difficulty)
    page.pace.setCurrentIndex(0)  # step by step
    page.deal(seed=seed, game=game)
    screen_ = page.screen
    first = screen_.round.faults[0] if screen_.round.faults else None
    upto = first.index if first is not None else len(screen_.frames) // 2
    for _ in range(upto):
        screen_.step()
    if screen == "supervise" or first is None:
        return
    screen_.begin_flag()
    screen_.flagging.point_at(first.target)
    choices = screen_.flagging.choices
    for row in range(choices.count()):
        if choices.item(row).data(0x0100) == first.type.id:  # Qt.ItemDataRole.UserRole
            choices.setCurrentRow(row)
    if screen == "supervise-debrief":
        screen_.flagging.flag()
        screen_.finish()


def follow_demo_class(page, store) -> None:
    """The progress page's Class tab live (ui.classroom.live.LiveClass, drawing ui.classroom.view.ClassView)
    from the demonstration class in `store`, as an instructor's app follows a class server; back
    once the first read is drawn.

    The live view reads a connection (trainer.classes.DemoClass here: the instructor's calls of
    trainer.classes.ClassConnection, answered from the file), not a class server started for
    the picture: a real PostgreSQL would need the packaged server's cluster made in a folder, its
    own system user where the screenshot runs as root, and the demonstration pushed to it, for
    the same view; the server's side of the live view is tested on a real PostgreSQL
    (tests/test_classroom_ui.py), the picture shows the view."""
    from trainer.classes import DemoClass
    from ui.classroom.live import LiveClass
    from ui.qt import QEventLoop, QTimer

    live = LiveClass(page.klass, DemoClass(store), page)
    page.live = live
    loop, limit = QEventLoop(), QTimer()
    limit.setSingleShot(True)
    for done in (live.refreshed, live.failed, limit.timeout):
        done.connect(loop.quit)
    limit.start(int(LIVE_WAIT_S * 1000))
    loop.exec()
    limit.stop()


def demo_services(*, instructor: bool = False, session: bool = False):
    """A demonstration class in memory (no file is touched): for screenshots of the progress
    and class screens; `session`: with some trainees at work now (trainer.progress.seed_session).
    The class is made once a day in a process (seeding it takes a second or two) and each caller
    is given a copy of its own; a session's rounds are added to the copy, ended minutes before
    the call."""
    import time

    from trainer.progress import seed_session
    from ui.shell.services import Services

    today = time.strftime("%Y-%m-%d")
    if _DEMO.get("day") != today:
        _DEMO.update(day=today, made=_demo_class())
    template, key, ids, lee = _DEMO["made"]
    store = template.copy_in_memory()
    if session:
        seed_session(store, ids)
    return Services(store, store.trainee(lee if instructor else ids["Dev Patel"]), key=key)


#: the demonstration class without a session, and the day it was made (demo_services)
_DEMO: dict = {}


def _demo_class():
    """The demonstration class: its store in memory, the installation key its exams are sealed
    with, its trainees' ids by name and its instructor's id."""
    from trainer.exams import InstructorKey, add_bundled_forms, installation_key, sit_demo_exams
    from trainer.progress import Store, seed_demo
    from ui.shell.reproducible import seed_for

    store = Store.open(":memory:")
    ids = seed_demo(store)
    key = installation_key(scratch_folder("dealer-trainer-demo-") / "installation.key")
    add_bundled_forms(store)
    seed = seed_for("Instructor Lee")  # a reproducible picture's (--reproducible); else random
    lee_key = (InstructorKey.generate("Instructor Lee") if seed is None
               else InstructorKey.from_seed("Instructor Lee", seed))
    lee = store.add_trainee("Instructor Lee", instructor=True, passphrase="demo passphrase",
                            public_key=lee_key.public.raw.hex())
    sit_demo_exams(store, key, ids, lee_key)
    return store, key, ids, lee


def work(screen, steps: int) -> None:
    """Do the first few expected actions of a round, so a screenshot shows a round in play."""
    for _ in range(steps):
        e = screen.round.next_expected() if screen.round is not None else None
        if e is None:
            break
        screen._do(e.do, seat=e.seat, bet=e.bet, amount=e.amount, value=e.value)
