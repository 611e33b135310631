"""The Progress screen: a trainee's accuracy and speed over time, attempts per day or week, and
the weakest skills with a button that drills each; and, for an instructor, the Class tab
(ui.classroom.view; live from the class server while the app is in a class, ui.classroom.live; its
Trainee logins…, ui.classroom.logins, and its Workstations…, ui.classroom.workstations). The charts
are drawn by ui.progress.charts.

pyqtgraph loads with this screen, not at start-up."""

from __future__ import annotations

from trainer import SKILL_TITLES
from ui.classroom.view import (
    LOGINS_OUT_OF_CLASS,
    LOGINS_TIP,
    WORKSTATIONS_OUT_OF_CLASS,
    WORKSTATIONS_TIP,
    ClassView,
    item_name,
)
from ui.progress.charts import Chart, configure, draw_accuracy, draw_attempts, draw_nothing, draw_speed
from ui.qt import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    Signal,
)


class ProgressPage(QWidget):
    drill = Signal(object)  # Skill
    supervise_drill = Signal(str, str)  # My supervising's Drill this: (fault class, game)

    def __init__(self, services, dark: bool = False, parent=None):
        super().__init__(parent)
        self.services = services
        configure(dark)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        self.title = QLabel("Progress")
        self.title.setObjectName("pageTitle")
        top.addWidget(self.title, 1)
        self.view = QComboBox()
        self.view.addItem("Accuracy by game", "game")
        self.view.addItem("Accuracy by skill", "skill")
        self.view.currentIndexChanged.connect(self.refresh)
        top.addWidget(self.view)
        # by game, one game's line at a time: the games practised, to choose from
        self.game = QComboBox()
        self.game.setAccessibleName("Game charted")
        self.game.setToolTip("The game whose accuracy is charted")
        self.game.currentIndexChanged.connect(self.refresh)
        top.addWidget(self.game)
        layout.addLayout(top)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)
        mine = QWidget()
        grid = QGridLayout(mine)
        self.accuracy = Chart("Accuracy over time", "right (%)", dark=dark)
        self.speed = Chart("Payout drills: time against the target", "time ÷ target (1 = on target)",
                           dark=dark)
        self.days = Chart("Attempts per day", "attempts", dark=dark)
        grid.addWidget(self.accuracy, 0, 0)
        grid.addWidget(self.speed, 0, 1)
        grid.addWidget(self.days, 1, 0)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        heading = QLabel("<b>Weakest skills</b> — drill them until they stick")
        side_layout.addWidget(heading)
        self.weak = QVBoxLayout()
        side_layout.addLayout(self.weak)
        self.skills = QTableWidget(0, 4)
        self.skills.setHorizontalHeaderLabels(["Skill", "Attempts", "Recent", "Status"])
        self.skills.verticalHeader().setVisible(False)
        self.skills.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.skills.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        side_layout.addWidget(self.skills, 1)
        # the calls made aloud (View › Speak my calls): from the dice at rest to the end of the call
        self.call_speed = QLabel("")
        self.call_speed.setObjectName("callSpeed")
        self.call_speed.setWordWrap(True)
        side_layout.addWidget(self.call_speed)
        grid.addWidget(side, 1, 1)
        self.tabs.addTab(mine, "My progress")
        self.klass = None
        trainee = services.trainee if services is not None else None
        if trainee is not None and getattr(trainee, "instructor", False):
            self.klass = ClassView(services.store)
            self.klass.logins_button.clicked.connect(self.trainee_logins)
            self.klass.workstations_button.clicked.connect(self.class_workstations)
            self.tabs.addTab(self.klass, "Class")
            services.class_changed.connect(self.follow_class)
        # My supervising (ui.progress.supervising) is made, and its rates read, when its tab is
        # first chosen or read (`supervising`): most visits to Progress never open it
        self._supervising = None
        self.supervising_page = QWidget()
        QVBoxLayout(self.supervising_page).setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(self.supervising_page, "My supervising")
        self.tabs.currentChanged.connect(self._tab_chosen)
        self.live = None  # ui.classroom.live.LiveClass while the app is in a class
        self.logins_dialog = None  # Trainee logins… (ui.classroom.logins), once opened
        self.workstations_dialog = None  # Workstations… (ui.classroom.workstations), once opened
        self.refresh()
        self.follow_class()

    @property
    def supervising(self):
        """The My supervising tab (ui.progress.supervising.SupervisingTab), made now if it is
        not yet, with the trainee's rates."""
        if self._supervising is None:
            self._make_supervising()
        return self._supervising

    def _tab_chosen(self, index: int) -> None:
        if self._supervising is None and self.tabs.widget(index) is self.supervising_page:
            self._make_supervising()

    def _make_supervising(self) -> None:
        from ui.progress.supervising import SupervisingTab

        self._supervising = SupervisingTab()
        self._supervising.drill.connect(self.supervise_drill)
        self.supervising_page.layout().addWidget(self._supervising)
        self._rates()
        if self.supervising_page.isVisible():  # chosen now: shown and laid out before it paints
            self._supervising.show()
            self.supervising_page.layout().activate()

    # --- drawing -------------------------------------------------------------------------------

    def retheme(self) -> None:
        """The charts in the theme now applied, drawn again (View › Dark theme while running)."""
        from ui.shell import theme

        dark = theme.current() == "dark"
        configure(dark)
        for chart in (self.accuracy, self.speed, self.days):
            chart.set_dark(dark)
        self.refresh()

    def refresh(self) -> None:
        store = self.services.store if self.services is not None else None
        trainee = self.services.trainee if self.services is not None else None
        if store is None or trainee is None:
            self._empty("Progress is kept when you train under a profile with a progress file.")
            return
        from trainer.progress import progress_report

        self.title.setText(f"Progress — {trainee.name}")
        report = progress_report(store, trainee.id)
        self._accuracy(report)
        self._speed(report)
        self._days(report)
        self._skills(report)
        from trainer.progress import call_speeds

        self.call_speed.setText(call_speed_text(call_speeds(store, trainee.id)))
        if self._supervising is not None:
            self._rates()
        if self.klass is not None and self.live is None:
            from trainer.progress import class_overview

            self.klass.show_overview(class_overview(store))

    def follow_class(self) -> None:
        """The Class tab live from the class server while the app is in a class (and the login
        may read it); from the local file otherwise."""
        if self.klass is None:
            return
        classroom = getattr(self.services, "classroom", None)
        connection = classroom.connection if classroom is not None else None
        self.klass.logins_button.setEnabled(connection is not None)
        self.klass.logins_button.setToolTip(LOGINS_TIP if connection is not None else LOGINS_OUT_OF_CLASS)
        self.klass.workstations_button.setEnabled(connection is not None)
        self.klass.workstations_button.setToolTip(WORKSTATIONS_TIP if connection is not None
                                                  else WORKSTATIONS_OUT_OF_CLASS)
        if self.live is not None:
            if connection is self.live.connection:
                return
            self.live.stop()
            self.live.deleteLater()
            self.live = None
            self.refresh()  # the local file's view, until the class's is read
        if connection is not None:
            from ui.classroom.live import LiveClass

            self.live = LiveClass(self.klass, connection, self)

    def trainee_logins(self) -> None:
        """Trainee logins… (ui.classroom.logins): the class view's trainees listed, those selected
        ticked, or a name typed; the app must be in the class (with the instructor's login)."""
        classroom = getattr(self.services, "classroom", None)
        connection = classroom.connection if classroom is not None else None
        if connection is None or self.klass is None:
            return
        from ui.classroom.logins import LoginsDialog

        trainees = self.klass.trainees
        rows = {i.row() for i in self.klass.table.selectionModel().selectedRows()}
        self.logins_dialog = LoginsDialog(connection, [t.name for t in trainees],
                                          [trainees[r].name for r in rows if r < len(trainees)], self)
        self.logins_dialog.open()

    def class_workstations(self) -> None:
        """Workstations… (ui.classroom.workstations): those enrolled in the class, enrolling and
        revoking; the app must be in the class (with the instructor's login to change them)."""
        classroom = getattr(self.services, "classroom", None)
        connection = classroom.connection if classroom is not None else None
        if connection is None or self.klass is None:
            return
        from ui.classroom.workstations import WorkstationsDialog

        self.workstations_dialog = WorkstationsDialog(connection, self)
        self.workstations_dialog.open()

    def _rates(self) -> None:
        """My supervising's catch rates, read again (none where no progress is kept)."""
        store = self.services.store if self.services is not None else None
        trainee = self.services.trainee if self.services is not None else None
        if store is None or trainee is None:
            self._supervising.show_rates(None)
            return
        from trainer.progress import catch_rates

        self._supervising.show_rates(catch_rates(store, trainee.id))

    def _empty(self, text: str) -> None:
        if self._supervising is not None:
            self._supervising.show_rates(None)
        self.call_speed.setText("")
        for chart in (self.accuracy, self.speed, self.days):
            draw_nothing(chart, text)

    def _accuracy(self, report) -> None:
        from trainer import GAME_IDS, GAME_NAMES
        from ui.progress.charts import chosen_game

        by = self.view.currentData()
        game = chosen_game(report, self.game.currentData())
        practised = sorted((s.key for s in report.game_series),
                           key=lambda g: GAME_IDS.index(g) if g in GAME_IDS else len(GAME_IDS))
        self.game.blockSignals(True)  # filled again: not a choice of the trainee's
        self.game.clear()
        for key in practised:
            self.game.addItem(GAME_NAMES.get(key, key), key)
        self.game.setCurrentIndex(max(0, self.game.findData(game)))
        self.game.blockSignals(False)
        self.game.setVisible(by == "game" and bool(practised))
        draw_accuracy(self.accuracy, report, by, game)

    def _speed(self, report) -> None:
        draw_speed(self.speed, report)

    def _days(self, report) -> None:
        draw_attempts(self.days, report)

    def _skills(self, report) -> None:
        while self.weak.count():
            item = self.weak.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        for row in report.weakest:
            line = QWidget()
            h = QHBoxLayout(line)
            h.setContentsMargins(0, 0, 0, 0)
            acc = row.recent_accuracy
            text = (f"{SKILL_TITLES[row.skill]} — {acc:.0%} of the last {row.recent}"
                    if acc is not None else f"{SKILL_TITLES[row.skill]} — not practised yet")
            if row.leech:
                text += " · keeps coming back"
            label = QLabel(text)
            button = QPushButton("Drill this")
            button.setObjectName("primary")
            button.setToolTip(f"Deal a round aimed at {SKILL_TITLES[row.skill].lower()}")
            button.clicked.connect(lambda _=False, s=row.skill: self.drill.emit(s))
            h.addWidget(label, 1)
            h.addWidget(button)
            self.weak.addWidget(line)
        self.skills.setRowCount(len(report.skills))
        for r, row in enumerate(sorted(report.skills, key=lambda x: -x.priority)):
            acc = row.recent_accuracy
            status = "mastered" if row.mastered else ("keeps coming back" if row.leech else
                                                      "learning" if row.attempts else "not started")
            for c, text in enumerate((SKILL_TITLES[row.skill], str(row.attempts),
                                      f"{acc:.0%}" if acc is not None else "—", status)):
                self.skills.setItem(r, c, QTableWidgetItem(text))


def call_speed_text(speeds) -> str:
    """The trainee's call speed per game (trainer.progress.CallSpeed), in one paragraph."""
    from trainer import GAME_NAMES

    if not speeds:
        return ("<b>Call speed</b> — no calls made aloud yet (View › Speak my calls): the time "
                "from the dice at rest to the end of your call.")
    games = "; ".join(f"{GAME_NAMES.get(s.game, s.game)}: {s.median:.1f} s median of {s.calls} "
                      f"call{'s' if s.calls != 1 else ''}, the last {s.last:.1f} s" for s in speeds)
    return f"<b>Call speed</b> (dice at rest to the end of the call) — {games}"


__all__ = ["ClassView", "ProgressPage", "call_speed_text", "item_name"]
