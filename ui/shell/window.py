"""The main window: navigation to Practice, Scenarios, Progress, Rules, Exam and Supervise; menus; the
trainee's name in the title; size, last screen and theme remembered between runs."""

from __future__ import annotations

import contextlib

from trainer import __version__
from ui.qt import (
    QAction,
    QActionGroup,
    QApplication,
    QHBoxLayout,
    QKeySequence,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QSettings,
    QSize,
    QStackedWidget,
    QWidget,
)
from ui.shell import theme

LOCKED = "(locked by your school)"  # after a menu item whose setting the machine file locks
#: what a quit would leave ungraded, by screen (MainWindow.quit_anyway)
UNDER_WAY = (("practice", "a practice round"), ("supervise", "a round you supervise"))
SCREENS = (("practice", "Practice"), ("scenarios", "Scenarios"), ("progress", "Progress"),
           ("rules", "Rules"), ("exam", "Exam"), ("supervise", "Supervise"))
KEYS_HELP = """<h3>Keyboard</h3>
<p><b>Ctrl+1 … Ctrl+6</b> switch screens · <b>Ctrl+N</b> deal a round · after a round, <b>Ctrl+R</b>
retry it and <b>Ctrl+Shift+N</b> the next · <b>Ctrl+,</b> settings · <b>F11</b> full screen ·
<b>Ctrl+Q</b> quit · <b>F1</b> this help</p>
<p>On the table: <b>← →</b> select a wager · <b>Tab</b> goes to the feedback panel (<b>↑ ↓</b>
scroll it) · <b>Ctrl+Z</b> undo your last action of the throw · each action's key is on its button (A accept,
R refuse, N no more bets, X no roll, D announce, C collect, P pay, …) · <b>H</b> hint ·
<b>Ctrl+→</b> next throw · <b>Ctrl+Enter</b> finish the round · <b>Ctrl++ Ctrl+−</b> zoom the
table (or Ctrl+wheel), <b>Ctrl+0</b> fit it · <b>Ctrl+Shift+L</b> large print · <b>F5</b> the table,
or the replay, on the second screen (a projector); F5 or <b>Esc</b> brings it back.</p>
<p>Supervising: <b>Ctrl+Shift+S</b> deal a round to supervise · <b>F</b> or <b>Space</b> flag
(or click the wager) · <b>↑ ↓</b> point, <b>Enter</b> or <b>→</b> to what is wrong, <b>Enter</b>
flags, <b>Esc</b> cancels · <b>P</b> pause · <b>N</b> or <b>→</b> the next action when stepping ·
<b>Ctrl+Enter</b> finish and see the debrief.</p>
<p>In dialogs: type the payout (or click chips in the bank) and press <b>Enter</b>; <b>1–9, 0</b>
pick a choice; <b>Esc</b> cancels. To put the pointer, a lammer, the Yard Marker and the pucks,
or High Roll's dice, click the layout, or choose the place with <b>← →</b> and press
<b>Enter</b>; <b>Esc</b> stops.</p>"""


class MainWindow(QMainWindow):
    def __init__(self, services=None, settings: QSettings | None = None, config=None):
        """`settings`: where the window remembers its size, screen and theme (the user's own by
        default; a screenshot passes a throwaway one, so it never changes them); `config`: the
        run's settings in layers (ui.shell.config.Config; the app's start passes the command
        line's too; by default the machine file's under `settings`)."""
        super().__init__()
        from ui.shell import collecting
        from ui.shell.config import load, user_settings

        # its threads (the class's readers, a call heard, the speech engine) never collect Qt's
        # objects, where its application was made without ui.shell.app.application()
        collecting.on_this_thread(QApplication.instance())

        self.services = services
        self.settings = settings if settings is not None else user_settings()
        self.config = config if config is not None else load(settings=self.settings)
        self.pages: dict[str, QWidget] = {}
        from ui.shell.checking import DatabaseCheck

        self.database_check = DatabaseCheck(self, services)
        self.asks_before_quit = True  # a picture's window (ui.shell.app.showcase) quits unasked
        self.importing = None  # File › Import results, while it runs (ui.shell.importing)
        self.setMinimumSize(QSize(1024, 680))
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setFixedWidth(190)
        for _, title in SCREENS:
            self.sidebar.addItem(title)
        self.stack = QStackedWidget()
        for _ in SCREENS:
            self.stack.addWidget(QWidget())
        row.addWidget(self.sidebar)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.sidebar.currentRowChanged.connect(self._show_row)
        self._menus()
        self.update_title()
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        size = self.settings.value("window/size")
        if size is not None:
            self.resize(size)
        last = self.settings.value("window/screen", "practice")
        self.show_screen(last if last in dict(SCREENS) else "practice")

    # --- screens -------------------------------------------------------------------------------

    def update_title(self) -> None:
        who = getattr(self.services, "trainee_name", None) if self.services else None
        self.setWindowTitle(f"Dealer Trainer — {who}" if who else "Dealer Trainer")

    def show_screen(self, name: str) -> QWidget:
        row = [n for n, _ in SCREENS].index(name)
        self.sidebar.setCurrentRow(row)
        return self.page(name)

    def _show_row(self, row: int) -> None:
        name = SCREENS[row][0]
        self.page(name)
        self.stack.setCurrentIndex(row)
        self.settings.setValue("window/screen", name)

    def page(self, name: str) -> QWidget:
        """A screen, built the first time it is shown (heavy screens load lazily)."""
        if name not in self.pages:
            widget = self._build(name)
            row = [n for n, _ in SCREENS].index(name)
            old = self.stack.widget(row)
            self.stack.removeWidget(old)
            old.deleteLater()
            self.stack.insertWidget(row, widget)
            self.pages[name] = widget
            self.stack.setCurrentIndex(self.sidebar.currentRow())
        return self.pages[name]

    def _build(self, name: str) -> QWidget:
        if name == "practice":
            from ui.practice.page import PracticePage

            page = PracticePage()
            if self.services is not None:
                page.finished.connect(self.services.record)
            return page
        if name == "scenarios":
            from trainer import load_library
            from ui.practice.scenarios import ScenariosPage

            best = self.services.best_scores() if self.services is not None else {}
            page = ScenariosPage(load_library(), best)
            page.start.connect(self._start_scenario)
            if self.services is not None:  # a round just recorded shows in Best at once
                self.services.recorded.connect(lambda _id: page.set_best(self.services.best_scores()))
            return page
        if name == "supervise":
            from ui.supervise.page import SupervisePage

            page = SupervisePage(self.settings)
            if self.services is not None:
                page.finished.connect(lambda rnd, score: self.services.record_supervised(
                    rnd, score, page.dealt_difficulty))
            return page
        if name == "rules":
            from ui.rules.page import RulesPage

            return RulesPage()
        if name == "progress":
            from ui.progress.page import ProgressPage

            dark = QApplication.instance().property("theme") == "dark"
            page = ProgressPage(self.services, dark)
            page.drill.connect(self._drill)
            page.supervise_drill.connect(self._supervise_drill)
            if self.services is not None:
                self.services.recorded.connect(lambda _id: page.refresh())
                self.services.supervised.connect(lambda _id: page.refresh())
            return page
        if (name == "exam" and self.services is not None and self.services.store is not None
                and self.services.key is not None):
            from ui.exams.page import ExamPage

            page = ExamPage(self.services)
            page.locked.connect(self.set_locked)
            return page
        from ui.shell.placeholder import Placeholder

        return Placeholder("Exam", "Certification exams need a progress file and the installation "
                                   "key kept beside it; this session has neither, so exams are off. "
                                   "Start the app with a writable progress file (--db FILE).")

    def set_locked(self, locked: bool) -> None:
        """During an exam the window shows the exam only: no other screen, no rules."""
        self.sidebar.setEnabled(not locked)
        # an exam's table may still be presented (F5, and Esc to end it)
        free = (self.presentation.action, self.presentation.end)
        for action in self.findChildren(QAction):
            if (action.shortcut().toString() not in ("", "F11", "Ctrl+Z") and not action.property("locked")
                    and action not in free):
                action.setEnabled(not locked)  # a setting the machine file locks stays off
        self.menuBar().setEnabled(not locked)

    def undo(self) -> None:
        """Edit › Undo: the practice screen shown takes back the trainee's last action."""
        from ui.practice.screen import PracticeScreen

        shown = [s for s in self.stack.currentWidget().findChildren(PracticeScreen) if s.isVisible()]
        if shown:
            shown[0].undo()
        else:
            self.statusBar().showMessage("Nothing to undo on this screen: undo takes back an "
                                         "action on the table.", 10000)

    def _drill(self, skill) -> None:
        from trainer import SKILL_GAMES

        page = self.show_screen("practice")
        page.deal(skill=skill, game=SKILL_GAMES.get(skill))

    def _supervise_drill(self, fault_class: str, game: str) -> None:
        """Progress › Supervising › Drill this: a round with faults of the weakest class."""
        self.show_screen("supervise").drill(fault_class, game)

    def _start_scenario(self, scenario) -> None:
        page = self.show_screen("practice")
        page.start_scenario(scenario)

    # --- menus ---------------------------------------------------------------------------------

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        if self.services is not None:
            switch = QAction("Switch trainee…", self)
            switch.setShortcut(QKeySequence("Ctrl+Shift+T"))
            switch.triggered.connect(self.services.switch_trainee)
            file.addAction(switch)
        if self.services is not None and self.services.store is not None:
            for text, kind in (("Export my attempts as CSV…", "csv"), ("Export results file…", "results")):
                action = QAction(text, self)
                action.triggered.connect(lambda _=False, k=kind: self.export(k))
                file.addAction(action)
            importing = QAction("Import results files…", self)
            importing.triggered.connect(self.import_results)
            file.addAction(importing)
            check = QAction("Check database", self)
            check.setShortcut(QKeySequence("Ctrl+Shift+K"))
            check.setStatusTip("Check every page and index of the progress file, and the exam "
                               "results' local chain")
            check.triggered.connect(lambda: self.database_check.start(report=True))
            file.addAction(check)
            file.addSeparator()
            join = QAction("Join class…", self)
            join.setStatusTip("Send this workstation's results to a class server (the postgresql:// "
                              "address it printed)")
            join.triggered.connect(self.join_class)
            file.addAction(join)
            self.leave_class_action = QAction("Leave class", self)
            self.leave_class_action.setEnabled(False)
            self.leave_class_action.triggered.connect(self.leave_class)
            file.addAction(self.leave_class_action)
            self.send_own_action = QAction("Send my results with my class login…", self)
            self.send_own_action.setStatusTip("Results the class refused from this workstation because "
                                              "you have a class login of your own: send them with it")
            self.send_own_action.setEnabled(False)
            self.send_own_action.triggered.connect(self.send_with_own_login)
            file.addAction(self.send_own_action)
            self.services.class_changed.connect(self._class_changed)
            self.lock_join(join)
            file.addSeparator()
        settings = QAction("Settings…", self)
        settings.setShortcut(QKeySequence("Ctrl+,"))
        settings.setMenuRole(QAction.MenuRole.PreferencesRole)
        settings.triggered.connect(self.open_settings)
        file.addAction(settings)
        file.addSeparator()
        deal = QAction("Deal a round", self)
        deal.setShortcut(QKeySequence("Ctrl+N"))
        deal.triggered.connect(lambda: self.show_screen("practice").deal())
        file.addAction(deal)
        supervise = QAction("Supervise a round", self)
        supervise.setShortcut(QKeySequence("Ctrl+Shift+S"))
        supervise.setStatusTip("Watch the trainer deal a round with mistakes in it, and catch them")
        supervise.triggered.connect(lambda: self.show_screen("supervise").deal())
        file.addAction(supervise)
        file.addSeparator()
        quit_ = QAction("Quit", self)
        quit_.setShortcut(QKeySequence("Ctrl+Q"))
        quit_.triggered.connect(self.close)
        file.addAction(quit_)
        edit = bar.addMenu("&Edit")
        undo = QAction("Undo", self)
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        undo.setStatusTip("Take back your last action of this throw: a chip, a payout, a marker")
        undo.triggered.connect(self.undo)
        edit.addAction(undo)
        self.addAction(undo)  # the key works while an exam has the menu bar off
        go = bar.addMenu("&Go")
        for n, (name, title) in enumerate(SCREENS, start=1):
            action = QAction(title, self)
            action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.triggered.connect(lambda _=False, s=name: self.show_screen(s))
            go.addAction(action)
            self.addAction(action)
        view = bar.addMenu("&View")
        group = QActionGroup(self)
        current = self.config.value("theme")
        self.theme_actions: dict[str, QAction] = {}
        for name in theme.THEMES:
            action = QAction(f"{name.title()} theme", self, checkable=True)
            action.setChecked(name == current)
            action.triggered.connect(lambda _=False, n=name: self.set_theme(n))
            group.addAction(action)
            view.addAction(action)
            self.theme_actions[name] = action
            self.lock(action, "theme")
        view.addSeparator()
        for title, keys, step in (("Zoom in on the table", ("Ctrl++", "Ctrl+="), theme.ZOOM_STEP),
                                  ("Zoom out", ("Ctrl+-",), 1 / theme.ZOOM_STEP),
                                  ("Fit the table", ("Ctrl+0",), None)):
            action = QAction(title, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.triggered.connect(lambda _=False, f=step: self.zoom_tables(f))
            view.addAction(action)
        large = QAction("Large print", self, checkable=True)
        large.setShortcut(QKeySequence("Ctrl+Shift+L"))
        large.setChecked(bool(self.config.value("large_print")))
        large.toggled.connect(self.set_large_print)
        view.addAction(large)
        self.large_print_action = large
        self.lock(large, "large_print")
        view.addSeparator()
        from ui.speech.options import SpeechOptions

        self.speech = SpeechOptions(self, view)  # Speak my calls, The stickman's voice
        view.addSeparator()
        from ui.shell.presenting import Presentation

        self.presentation = Presentation(self)
        present = self.presentation.action  # F5, live in the window and every dialog over it
        present.setStatusTip("The table, or the replay, full screen on the projector; the console "
                             "stays here. F5 or Esc ends it")
        view.addAction(present)
        full = QAction("Full screen", self)
        full.setShortcut(QKeySequence("F11"))
        full.triggered.connect(lambda: self.showNormal() if self.isFullScreen() else self.showFullScreen())
        view.addAction(full)
        help_ = bar.addMenu("&Help")
        keys = QAction("Keyboard shortcuts", self)
        keys.setShortcut(QKeySequence("F1"))
        keys.triggered.connect(lambda: QMessageBox.information(self, "Keyboard", KEYS_HELP))
        help_.addAction(keys)
        about = QAction("About Dealer Trainer", self)
        about.triggered.connect(self.about)
        help_.addAction(about)

    def lock(self, action: QAction, key: str) -> None:
        """An action that changes a setting the machine file locks: off, saying so in its own
        words and who set it."""
        if self.config.locked(key):
            action.setEnabled(False)
            action.setText(f"{action.text()} {LOCKED}")
            action.setStatusTip(f"Locked by {self.config.source(key)}")
            action.setProperty("locked", True)

    def lock_join(self, join: QAction) -> None:
        """File › Join class… under a class the machine file locks: off, as any locked setting,
        unless the school left the class's password out; then it asks for that password alone
        (ui.classroom.membership.school_class), the address staying the school's."""
        if not self.config.locked("class_address"):
            return
        from ui.classroom.membership import school_class

        if school_class(self.config) is None:
            return self.lock(join, "class_address")
        join.setText(f"Join class… (password only: {LOCKED[1:-1]})")
        join.setStatusTip(f"Type the password of the class {self.config.source('class_address')} "
                          "sets, which it locks")

    def show_notes(self, notes: list[str]) -> None:
        """What the settings' start has to say (a machine file not used, a command-line option a
        lock overrode): each whole line in the status bar until another message, and a short line
        that stays beside it (its tooltip and File › Settings… have the whole lines)."""
        if not notes:
            return
        from ui.qt import QLabel

        self.statusBar().showMessage(" ".join(notes))
        machine = self.config.machine
        short = ("The machine's settings file was not used: the app uses its defaults" if machine.problem
                 else "The environment's settings file was not used" if machine.passed_over
                 else "A setting of the command line was not used")
        self.settings_note = QLabel(f"{short} (File › Settings…)")
        self.settings_note.setObjectName("wrong")  # the theme's colour for what went wrong
        self.settings_note.setAccessibleName("Settings")
        self.settings_note.setToolTip("\n".join(notes))
        self.statusBar().addPermanentWidget(self.settings_note)

    def open_settings(self) -> None:
        from ui.shell.settings import SettingsDialog

        self.settings_dialog = SettingsDialog(self)
        self.settings_dialog.open()

    def export(self, kind: str) -> None:
        from trainer.progress import StoreError
        from ui.qt import QFileDialog

        suffix = "csv" if kind == "csv" else "json"
        name, _ = QFileDialog.getSaveFileName(self, "Export", f"dealer-trainer-{kind}.{suffix}",
                                              f"{suffix.upper()} files (*.{suffix})")
        if not name:
            return
        instructor = getattr(self.services.trainee, "instructor", False)
        try:
            text = self.services.export(kind, name, everyone=instructor)
        except (StoreError, OSError) as e:
            QMessageBox.warning(self, "Export", str(e))
            return
        self.statusBar().showMessage(text, 10000)

    def import_results(self) -> None:
        """Import results files off the window's thread, with a progress dialog (ui.shell.importing)."""
        from ui.qt import QFileDialog
        from ui.shell.importing import ResultsImport

        names, _ = QFileDialog.getOpenFileNames(self, "Import results", "", "Results files (*.json)")
        if not names or (self.importing is not None and self.importing.running):
            return
        if self.importing is not None:
            self.importing.deleteLater()  # the last import's
        self.importing = ResultsImport(self, self.services, names)
        self.importing.finished.connect(self._imported)
        self.importing.start()

    def _imported(self) -> None:
        progress = self.pages.get("progress")
        if progress is not None:
            progress.refresh()

    # --- the class (ui.classroom.membership, loaded once a class is joined) ----------------------------

    def rejoin_class(self, address=None) -> None:
        """At start: the class given with --class, or the one joined last time."""
        if self.services is not None and self.services.store is not None and (
                address is not None or self.config.value("class_address")):
            from ui.classroom.membership import rejoin

            rejoin(self, address)

    def join_class(self) -> None:
        from ui.classroom.membership import JoinDialog, classroom_of

        self.join_dialog = JoinDialog(classroom_of(self), self)
        self.join_dialog.open()

    def leave_class(self) -> None:
        from trainer.classes import ClassServerError

        if self.config.locked("class_address"):
            self.statusBar().showMessage(f"The class is locked by {self.config.source('class_address')}.",
                                         10000)
            return
        if self.services.classroom is not None:
            try:
                self.services.classroom.leave()
            except ClassServerError as e:  # the password file could not be removed
                self.statusBar().showMessage(f"Left the class, but {e}.", 30000)
                return
            self.statusBar().showMessage("Left the class: results are kept in the progress file only.", 10000)

    def send_with_own_login(self) -> None:
        """File › Send my results with my class login… (ui.classroom.own_login), for the trainee
        signed in here."""
        from ui.classroom.own_login import SendOwnDialog

        classroom, trainee = self.services.classroom, self.services.trainee
        if classroom is None or classroom.connection is None or trainee is None:
            return
        from trainer.progress import clean_name

        self.send_own_dialog = SendOwnDialog(classroom.connection, clean_name(trainee.name), self,
                                             uid=trainee.uid, made=trainee.created)
        self.send_own_dialog.open()

    def _class_changed(self) -> None:
        classroom = self.services.classroom
        self.leave_class_action.setEnabled(classroom is not None and classroom.connection is not None
                                           and not self.config.locked("class_address"))
        self.send_own_action.setEnabled(classroom is not None and classroom.connection is not None)

    def set_theme(self, name: str) -> None:
        if self.config.locked("theme"):
            return
        self.config.choose("theme", theme.apply(QApplication.instance(), name,
                                                large=self.large_print_action.isChecked()))
        self.theme_actions[theme.current()].setChecked(True)
        theme.retheme(self)

    def zoom_tables(self, factor: float | None) -> None:
        """Zoom every table on screen by `factor` (None fits the whole table); a table opened
        later keeps the zoom."""
        from ui.table.base import TableView

        app = QApplication.instance()
        zoom = theme.clamp_zoom(float(app.property("table_zoom") or 1.0) * factor) if factor else 1.0
        for view in self.findChildren(TableView):
            view.set_zoom(zoom)
        app.setProperty("table_zoom", zoom)
        self.statusBar().showMessage(f"Table zoom {zoom:.0%}" if zoom > 1 else "The whole table fits", 3000)

    def set_large_print(self, on: bool) -> None:
        """Larger words everywhere: the app's text, and the table's printed words and chip labels."""
        from ui.table.base import TableView

        app = QApplication.instance()
        if not self.config.choose("large_print", on):
            return
        if app.property("large_print") is on:  # the print it is in: restyling every widget changes nothing
            return
        app.setProperty("large_print", on)
        theme.apply(app, str(app.property("theme") or "light"), large=on)
        for view in self.findChildren(TableView):
            view.rebuild()

    def about(self) -> None:
        QMessageBox.about(self, "About Dealer Trainer",
                          f"<h3>Dealer Trainer {__version__}</h3><p>Training and certification for "
                          "dealers of Pennsylvania's dice table games: Props &amp; Hops, Three Dice "
                          "Football, High Roll Dice and the Pai Gow Poker dice wagers.</p><p>Every "
                          "rule is cited to 58 Pa. Code. The Pai Gow dice wagers are reconstructed: "
                          "confirm them against your Rules Submission.</p>")

    def quit_anyway(self) -> bool:
        """A practice round the trainee has acted in, or a round being supervised, is neither
        graded nor kept when the app quits, nor offered at the next start: asked first, Cancel
        the default (Escape too); True to quit."""
        under_way = [words for name, words in UNDER_WAY
                     if getattr(self.pages.get(name), "under_way", lambda: False)()]
        if not under_way or not self.asks_before_quit:
            return True
        what = " and ".join(under_way)
        it, is_ = ("it", "is") if len(under_way) == 1 else ("them", "are")
        box = QMessageBox(QMessageBox.Icon.Question, "Quit?", f"{what[0].upper()}{what[1:]} {is_} "
                          f"under way: quit and leave {it} ungraded?", parent=self)
        box.setInformativeText(f"Nothing of {it} is kept, and the next start does not offer {it} "
                               "again.")
        quit_ = box.addButton("Quit", QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        supervise = self.pages.get("supervise")
        with supervise.held() if supervise is not None else contextlib.nullcontext():
            box.exec()
        return box.clickedButton() is quit_

    def closeEvent(self, event) -> None:
        if not self.quit_anyway():  # first: it changes nothing, and a Cancel there keeps all
            event.ignore()
            return
        leave = getattr(self.pages.get("exam"), "leave", None)  # a placeholder has no exams
        if leave is not None and not leave():  # asked as Leave exam asks; its answers are kept
            event.ignore()
            return
        if self.services is not None and self.services.store is not None:
            self.services.flush()
            kept = len(self.services.store.in_memory_only)
            if kept and QMessageBox.question(
                    self, "Unsaved results",
                    f"{kept} results could not be saved to the progress file "
                    f"({self.services.store.problem}). Quit anyway and lose them?") \
                    != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
        self.presentation.stop()  # the table back in the window, the projector's window closed
        self.database_check.stop()  # a check still running ends with the window
        if self.importing is not None and self.importing.running:
            self.importing.wait()  # stopped: nothing more of it is added
        if self.services is not None and self.services.classroom is not None:
            self.services.classroom.close()  # the pusher's thread ends; what waits stays in the file
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/size", self.size())
        self.statusBar().clearMessage()  # stops the message's timer
        for name in ("practice", "supervise"):
            page = self.pages.get(name)
            if page is not None:
                page.stop()
        super().closeEvent(event)
