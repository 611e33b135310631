"""The Progress screen: a trainee's accuracy and speed over time, attempts per day, and the
weakest skills with a button that drills each; and, for an instructor, the Class tab.

pyqtgraph loads with this screen, not at start-up."""

from __future__ import annotations

import html
import textwrap
import time

from trainer import GAME_NAMES, SKILL_TITLES, Skill, games
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
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
    pyqtgraph,
)

#: each game's line, in the order of the games' registry
GAME_COLOURS = dict(zip(games.GAME_IDS, ("#0b7a4b", "#b5651d", "#1f5fa8", "#6a3fa0", "#b3262e"),
                        strict=False))
PALETTE = ("#0b7a4b", "#1f5fa8", "#b5651d", "#b3262e", "#6a3fa0", "#2a8c8c", "#8a6d1a", "#555555",
           "#c2185b", "#00838f", "#5d4037")


def _pg(dark: bool):
    pg = pyqtgraph()
    pg.setConfigOptions(antialias=True, background="#262a27" if dark else "w",
                        foreground="#e8e4d8" if dark else "#222")
    return pg


class Chart(QWidget):
    """A titled pyqtgraph plot with a note for when there is nothing to show yet."""

    def __init__(self, pg, title: str, left: str, bottom: str, dates: bool = True, dark: bool = False):
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        axis = {"bottom": pg.DateAxisItem()} if dates else {}
        self.plot = pg.PlotWidget(axisItems=axis)
        self.plot.setTitle(title, size="12pt")
        self.plot.setLabel("left", left)
        self.plot.setLabel("bottom", bottom)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        # the legend's ground follows the theme, so that its words read on it
        self.legend = self.plot.addLegend(offset=(-8, -8), labelTextSize="9pt",
                                          brush=(38, 42, 39, 220) if dark else (255, 255, 255, 200),
                                          labelTextColor="#e8e4d8" if dark else "#222")
        self.empty = QLabel("")
        self.empty.setObjectName("subtitle")
        layout.addWidget(self.plot)
        layout.addWidget(self.empty)


class ProgressPage(QWidget):
    drill = Signal(object)  # Skill

    def __init__(self, services, dark: bool = False, parent=None):
        super().__init__(parent)
        self.services = services
        pg = _pg(dark)
        self.pg = pg
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
        layout.addLayout(top)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)
        mine = QWidget()
        grid = QGridLayout(mine)
        self.accuracy = Chart(pg, "Accuracy over time", "right (%)", "day", dark=dark)
        self.speed = Chart(pg, "Payout drills: time against the target", "time ÷ target (1 = on target)",
                           "day", dark=dark)
        self.days = Chart(pg, "Attempts per day", "attempts", "day", dark=dark)
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
        self.skills.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        side_layout.addWidget(self.skills, 1)
        grid.addWidget(side, 1, 1)
        self.tabs.addTab(mine, "My progress")
        self.klass = None
        trainee = services.trainee if services is not None else None
        if trainee is not None and getattr(trainee, "instructor", False):
            self.klass = ClassView()
            self.tabs.addTab(self.klass, "Class")
        self.refresh()

    # --- drawing -------------------------------------------------------------------------------

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
        if self.klass is not None:
            from trainer.progress import class_overview

            self.klass.show_overview(class_overview(store))

    def _empty(self, text: str) -> None:
        for chart in (self.accuracy, self.speed, self.days):
            chart.plot.clear()
            chart.empty.setText(text)

    def _accuracy(self, report) -> None:
        plot = self.accuracy.plot
        plot.clear()
        self.accuracy.legend.clear()
        by = self.view.currentData()
        points = report.by_game if by == "game" else report.by_skill
        series: dict[str, list] = {}
        for p in points:
            series.setdefault(p.key, []).append(p)
        for n, (key, pts) in enumerate(sorted(series.items())):
            colour = GAME_COLOURS.get(key) or PALETTE[n % len(PALETTE)]
            name = GAME_NAMES.get(key, key) if by == "game" else SKILL_TITLES.get(Skill(key), key)
            plot.plot([p.started for p in pts], [100 * p.right / p.exercises for p in pts],
                      pen=self.pg.mkPen(colour, width=2.5), symbol="o", symbolSize=6,
                      symbolBrush=colour, name=name)
        plot.setYRange(0, 100, padding=0.05)
        self.accuracy.empty.setText("" if points else "No graded attempts yet.")

    def _speed(self, report) -> None:
        plot = self.speed.plot
        plot.clear()
        pts = [p for p in report.payout_times if p.target]
        if pts:
            plot.plot([p.started for p in pts], [p.duration / p.target for p in pts], pen=None,
                      symbol="o", symbolSize=8, symbolBrush="#1f5fa8", name="payout drill")
            plot.addLine(y=1.0, pen=self.pg.mkPen("#b3262e", width=2, style=self._dash()))
        self.speed.empty.setText("" if pts else "No payout drills yet: Practice → Payout drill.")

    def _dash(self):
        from ui.qt import Qt

        return Qt.PenStyle.DashLine

    def _days(self, report) -> None:
        from datetime import datetime

        plot = self.days.plot
        plot.clear()
        if report.per_day:
            xs = [datetime.strptime(d.day, "%Y-%m-%d").timestamp() + 43200 for d in report.per_day]
            plot.addItem(self.pg.BarGraphItem(x=xs, height=[d.attempts for d in report.per_day],
                                              width=86400 * 0.7, brush="#0b7a4b"))
            plot.addItem(self.pg.BarGraphItem(x=xs, height=[d.passed for d in report.per_day],
                                              width=86400 * 0.35, brush="#c9a227"))
        self.days.empty.setText("Green: attempts; gold: passed." if report.per_day else
                                "No attempts yet.")

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


def item_name(item_id: str) -> str:
    """"drill:pai-gow-dice:3" -> "Pai Gow Poker dice wagers practice, difficulty 3"."""
    if item_id.startswith("drill:"):
        _, game, difficulty = item_id.split(":")
        return f"{GAME_NAMES.get(game, game)} practice, difficulty {difficulty}"
    return item_id


class ClassView(QWidget):
    """The instructor's view of the class: skills by trainee, who needs help, the hardest items,
    and each trainee's time to answer."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QHBoxLayout(self)
        self.table = QTableWidget(0, 0)
        self.table.verticalHeader().setVisible(True)
        layout.addWidget(self.table, 3)
        self.side = QTextBrowser()
        layout.addWidget(self.side, 2)

    def show_overview(self, overview) -> None:
        skills = overview.skills
        self.table.setColumnCount(len(skills) + 1)
        # each skill by its title, on two or three short lines, so that the columns stay narrow
        self.table.setHorizontalHeaderLabels([*(textwrap.fill(s.title, 16) for s in skills),
                                              "Answer (s)"])
        self.table.setRowCount(len(overview.trainees))
        self.table.setVerticalHeaderLabels([t.name for t in overview.trainees])
        from ui.qt import QColor

        for r, t in enumerate(overview.trainees):
            for c, s in enumerate(skills):
                cell = overview.cells.get((t.id, s))
                acc = cell.accuracy if cell is not None else None
                item = QTableWidgetItem(f"{acc:.0%}" if acc is not None else "—")
                if acc is not None:
                    item.setBackground(QColor("#c8e6c9") if acc >= 0.9 else
                                       QColor("#fff3cd") if acc >= 0.75 else QColor("#f8d7da"))
                    item.setForeground(QColor("#1d1d1b"))
                item.setToolTip(f"{t.name}: {SKILL_TITLES[s]}")
                self.table.setItem(r, c, item)
            seconds = overview.answer_seconds.get(t.id)
            self.table.setItem(r, len(skills), QTableWidgetItem(f"{seconds:.1f}" if seconds else "—"))
        self.table.resizeColumnsToContents()
        worked = [h for h in overview.needs_help if h.recent_accuracy is not None]
        help_rows = "".join(
            f"<li><b>{html.escape(h.trainee.name)}</b> — "
            f"{h.recent_accuracy:.0%} recent accuracy, {h.critical} critical of "
            f"{h.attempts} attempts</li>" for h in worked[:5]) or "<li>nobody yet</li>"
        # no attempt yet is not a need for help: those trainees are named apart
        idle = [h.trainee.name for h in overview.needs_help if h.recent_accuracy is None]
        idle_note = f"<p>Not started yet: {html.escape(', '.join(idle))}</p>" if idle else ""
        hard = "".join(f"<li>{html.escape(item_name(i.item_id))} — passed {i.passed} of "
                       f"{i.attempts} ({i.pass_rate:.0%})</li>" for i in overview.hardest[:8])
        self.overview_html = (f"<h3>Who needs help</h3><ol>{help_rows}</ol>{idle_note}"
                              f"<h3>Hardest items</h3><ol>{hard or '<li>not enough attempts yet</li>'}</ol>"
                              f"<p><i>As of {time.strftime('%Y-%m-%d %H:%M')}; cells show each skill's "
                              "last 20 attempts: green 90% and up, yellow 75%, red below.</i></p>")
        self.side.setHtml(self.overview_html)

