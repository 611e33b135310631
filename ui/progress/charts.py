"""The Progress screen's charts: a date axis that reads in days ("Nov 17"), and the three charts
(accuracy, payout time, attempts) drawn from a `trainer.progress.ProgressReport`.

The report bins by day or by week and smooths (the rule is in trainer.progress.stats); here each
chart draws the bins' raw points faintly and the smoothed line over them, on the report's range,
so that one day is one narrow bar and a month of practice reads as a trend, not a tangle.

pyqtgraph loads with this module (the Progress screen), not at start-up."""

from __future__ import annotations

import html
import math
from datetime import UTC, datetime

from trainer import GAME_NAMES, SKILL_TITLES, Skill, games
from ui.qt import QLabel, Qt, QVBoxLayout, QWidget, pyqtgraph

pg = pyqtgraph()

DAY = 86400.0
#: each game's line, in the order of the games' registry
GAME_COLOURS = dict(zip(games.GAME_IDS, ("#0b7a4b", "#9c5518", "#1f5fa8", "#6a3fa0", "#b3262e"),
                        strict=False))
#: lighter lines for the dark ground, in the same order
GAME_COLOURS_DARK = dict(zip(games.GAME_IDS, ("#3ec483", "#e59a52", "#6fa8ee", "#b48be6", "#ef6b73"),
                             strict=False))
PALETTE = ("#0b7a4b", "#1f5fa8", "#9c5518", "#b3262e", "#6a3fa0", "#2a8c8c")
PALETTE_DARK = ("#3ec483", "#6fa8ee", "#e59a52", "#ef6b73", "#b48be6", "#4fc9c9")
#: the accuracy chart by skill draws the most practised skills only, so that it stays readable
MOST_SKILLS = 6
RAW_ALPHA = 80  # the raw points: faint, under the line


#: a chart's ground and ink, light and dark
GROUND = {False: "#ffffff", True: "#262a27"}
INK = {False: "#222222", True: "#e8e4d8"}


def configure(dark: bool):
    """pyqtgraph's ground and ink for the theme; the module, for making charts."""
    pg.setConfigOptions(antialias=True, background=GROUND[dark], foreground=INK[dark])
    return pg


class DayAxis(pg.DateAxisItem):
    """A date axis that reads in days: a tick at local midnight every 1, 2, 7, 14 or 28 days (as
    many as fit; weekly ticks on Mondays), each "Nov 17", never a time of day or a fraction."""

    STEPS = (1, 2, 7, 14, 28, 56, 112)

    def __init__(self, utc_offset: float = 0.0, **kwargs):
        super().__init__(orientation="bottom", **kwargs)
        self.offset = utc_offset

    def label_width(self) -> int:
        metrics = getattr(self, "fontMetrics", None)
        return (metrics.horizontalAdvance("Nov 30") if metrics is not None else 48) + 16

    def tickValues(self, minVal, maxVal, size):
        if size <= 0 or maxVal <= minVal:
            return []
        density = (maxVal - minVal) / size  # seconds a pixel
        step = next((s for s in self.STEPS if s * DAY / density >= self.label_width()), self.STEPS[-1])
        first = math.ceil((minVal + self.offset) / DAY)
        last = math.floor((maxVal + self.offset) / DAY)
        if step >= 7:  # on Mondays (day 0, 1970-01-01, was a Thursday)
            weeks = step // 7
            days = [d for d in range(first, last + 1) if (d + 3) % 7 == 0 and (d + 3) // 7 % weeks == 0]
        else:
            days = [d for d in range(first, last + 1) if d % step == 0]
        return [(step * DAY, [d * DAY - self.offset for d in days])]

    def tickStrings(self, values, scale, spacing):
        out = []
        for v in values:
            d = datetime.fromtimestamp(round(v + self.offset), UTC)
            out.append(f"{d:%b} {d.day}")
        return out


class MenuOnAsk(pg.ViewBox):
    """pyqtgraph's view box, its right-click menu (View All, the axes, Mouse Mode) made at the
    first right-click instead of with the chart: about 5 of a chart's 21 ms of CPU, and three
    charts are made each time the Progress screen is."""

    def __init__(self):
        super().__init__(enableMenu=False)
        self.state["enableMenu"] = True  # on, as pyqtgraph's own, and made when first shown

    def getMenu(self, ev):
        if self.menu is None:  # made as pyqtgraph makes it with enableMenu=True
            self.menu = pg.graphicsItems.ViewBox.ViewBoxMenu.ViewBoxMenu(self)
            self.updateViewLists()
        return self.menu

    def getContextMenus(self, event):
        return self.getMenu(event).actions() if self.menuEnabled() else []


class Chart(QWidget):
    """A titled pyqtgraph plot over days, with a line of notes under it (what the marks mean, or
    why there is nothing to show yet).

    The plot is made when the chart is first shown, or first read (`plot`, `axis`): a Progress
    screen made and never shown on its first tab (a picture of the Class tab) makes none (about
    8 ms of CPU each, and as much to delete). The notes are written at once; what is drawn on
    the plot before it is made (`on_plot`) waits, in order, and is drawn when it is."""

    def __init__(self, title: str, left: str, dark: bool = False):
        super().__init__()
        self.dark = dark
        self.title = title
        self.left = left
        self._plot = None
        self._waiting: list = []  # what was drawn on the plot before it was made, in order
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # the key to the lines, under the chart: inside it, a legend covered some of them
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.entries: list[tuple[str, str]] = []  # (colour, name) of each line, in order
        self.empty = QLabel("")
        self.empty.setObjectName("subtitle")
        self.empty.setWordWrap(True)
        layout.addWidget(self.legend)
        layout.addWidget(self.empty)

    @property
    def plot(self):
        """The pyqtgraph plot, made now if it is not yet, with what was drawn on it before."""
        if self._plot is None:
            self._make()
        return self._plot

    @property
    def axis(self) -> DayAxis:
        """The plot's date axis (the plot made now if it is not yet)."""
        return self.plot.getAxis("bottom")

    def showEvent(self, event) -> None:
        if self._plot is None:
            self._make()
        super().showEvent(event)

    def _make(self) -> None:
        configure(self.dark)
        plot = pg.PlotWidget(axisItems={"bottom": DayAxis()}, viewBox=MenuOnAsk())
        plot.setTitle(self.title, size="12pt")
        plot.setLabel("left", self.left)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        self._plot = plot
        self.layout().insertWidget(0, plot)
        if self.isVisible():  # shown now, and laid out before the first frame is painted
            plot.show()
            self.layout().activate()
        waiting, self._waiting = self._waiting, []
        for how in waiting:
            how(plot)

    def on_plot(self, how) -> None:
        """`how(plot)`: now if the plot is made, else when it is."""
        if self._plot is None:
            self._waiting.append(how)
        else:
            how(self._plot)

    def cleared(self, how) -> None:
        """`how(plot)`, which clears the plot first: what waits from before it is dropped, so a
        chart redrawn again and again while never shown holds one drawing, not all of them."""
        if self._plot is None:
            self._waiting.clear()
        self.on_plot(how)

    def set_dark(self, dark: bool) -> None:
        """The chart's ground, axes and title in the other theme's colours (its lines are drawn
        again by whoever draws them); a chart not made yet is made in them."""
        self.dark = dark
        if self._plot is None:
            return
        self._plot.setBackground(GROUND[dark])
        for side in ("left", "bottom"):
            axis = self._plot.getAxis(side)
            axis.setPen(INK[dark])
            axis.setTextPen(INK[dark])
        self._plot.setTitle(self.title, size="12pt", color=INK[dark])

    def set_title(self, title: str) -> None:
        """The plot's title (a plot not made yet is made with it, in the theme's ink)."""
        self.title = title
        if self._plot is not None:
            self._plot.setTitle(title, size="12pt", color=INK[self.dark])

    def start(self, report) -> None:
        """Clear the chart and set its days: the report's range and offset, by day or by week."""
        self.entries = []
        self.legend.setText("")
        self.legend.setVisible(False)
        lo, hi = report.x_range

        def days(plot) -> None:
            plot.clear()
            plot.getAxis("bottom").offset = report.utc_offset
            plot.setLabel("bottom", "day" if report.bin_days == 1 else "week (Monday to Sunday)")
            if hi > lo:
                plot.setXRange(lo, hi, padding=0.02)

        self.cleared(days)

    def colour(self, n: int, key: str | None = None) -> str:
        named = (GAME_COLOURS_DARK if self.dark else GAME_COLOURS).get(key or "")
        return named or (PALETTE_DARK if self.dark else PALETTE)[n % len(PALETTE)]

    def raw_and_smooth(self, x: list[float], raw: list[float], smooth: list[float], colour: str,
                       name: str | None) -> None:
        """Faint raw points and the smoothed line over them."""

        def lines(plot) -> None:
            faint = pg.mkColor(colour)
            faint.setAlpha(RAW_ALPHA)
            scatter = pg.ScatterPlotItem(x=x, y=raw, size=7, pen=None, brush=faint)
            scatter.setZValue(0)
            plot.addItem(scatter)
            line = plot.plot(x, smooth, pen=pg.mkPen(colour, width=2.5), name=name,
                             symbol="o" if len(x) == 1 else None, symbolSize=6, symbolBrush=colour)
            line.setZValue(1)

        self.on_plot(lines)
        if name:
            self.entries.append((colour, name))
            self.legend.setText(" &nbsp; ".join(
                f'<span style="color:{c}; font-size:14pt">&#9644;</span>&nbsp;'
                f'{html.escape(n).replace(" ", "&nbsp;")}'
                for c, n in self.entries))
            self.legend.setVisible(True)


def draw_nothing(chart: Chart, text: str) -> None:
    """No lines: the chart cleared, and why there is nothing to show."""
    chart.cleared(lambda plot: plot.clear())
    chart.empty.setText(text)


def binning_note(report) -> str:
    if report.bin_days == 1:
        return ""
    return " By week: fewer than 3 practice days a week."


def chosen_game(report, game: str | None) -> str | None:
    """The game whose accuracy is drawn: `game` if it has a line, else the most practised."""
    keys = [s.key for s in report.game_series]
    if game in keys:
        return game
    return max(report.game_series, key=lambda s: sum(s.exercises)).key if keys else None


def draw_accuracy(chart: Chart, report, by: str, game: str | None = None) -> None:
    """By skill: the most practised skills' lines. By game: one game at a time (`chosen_game`),
    so that five games' lines never cross on one chart."""
    chart.start(report)
    series = report.game_series if by == "game" else report.skill_series
    shown = series
    if by == "game":
        game = chosen_game(report, game)
        shown = [s for s in series if s.key == game]
    chart.set_title(f"Accuracy over time — {GAME_NAMES.get(game, game)}" if by == "game" and game
                    else "Accuracy over time")
    if by == "skill" and len(series) > MOST_SKILLS:
        shown = sorted(series, key=lambda s: -sum(s.exercises))[:MOST_SKILLS]
        shown.sort(key=lambda s: s.key)
    for n, s in enumerate(shown):
        name = GAME_NAMES.get(s.key, s.key) if by == "game" else SKILL_TITLES.get(Skill(s.key), s.key)
        chart.raw_and_smooth(s.x, [100 * v for v in s.raw], [100 * v for v in s.smooth],
                             chart.colour(n, s.key if by == "game" else None), name)
    chart.on_plot(lambda plot: plot.setYRange(0, 100, padding=0.05))
    if not series:
        chart.empty.setText("No graded attempts yet.")
        return
    window = "7 days" if report.bin_days == 1 else "3 weeks"
    note = f"Dots: each {'day' if report.bin_days == 1 else 'week'}; lines: the last {window} pooled."
    if by == "skill" and len(shown) < len(series):
        note += f" The {len(shown)} most practised of {len(series)} skills."
    if by == "game" and len(series) > 1:
        note += f" One game at a time: choose among the {len(series)} you have practised above."
    if report.attempts == 1:
        note = "One attempt so far: the lines grow as you practise."
    chart.empty.setText(note + binning_note(report))


def draw_speed(chart: Chart, report) -> None:
    chart.start(report)
    pts = [p for p in report.payout_times if p.target]
    if not pts:
        chart.empty.setText("No payout drills yet: Practice → Payout drill.")
        return
    colour = chart.colour(1)
    chart.raw_and_smooth([p.started for p in pts], [p.ratio for p in pts], list(report.payout_smooth),
                         colour, "median of the last 5")
    red = "#ef6b73" if chart.dark else "#b3262e"
    lo, hi = report.x_range

    def target(plot) -> None:
        plot.addLine(y=1.0, pen=pg.mkPen(red, width=2, style=Qt.PenStyle.DashLine))
        plot.setXRange(min(lo, pts[0].started), hi, padding=0.02)

    chart.on_plot(target)
    chart.empty.setText("Dots: each drill; line: the median of the last 5; dashed: on target."
                        if len(pts) > 1 else "One payout drill so far: the line grows as you drill.")


def draw_attempts(chart: Chart, report) -> None:
    chart.start(report)
    bins = report.bins
    if not bins:
        chart.empty.setText("No attempts yet.")
        return
    width = report.bin_days * DAY
    green, gold = ("#3ec483", "#e0bc3c") if chart.dark else ("#0b7a4b", "#c9a227")
    xs = [b.x for b in bins]
    top = max(b.attempts for b in bins)
    major = max(1, math.ceil(top / 5))

    def bars(plot) -> None:
        plot.addItem(pg.BarGraphItem(x=xs, height=[b.attempts for b in bins], width=width * 0.7,
                                     brush=green, pen=None))
        plot.addItem(pg.BarGraphItem(x=xs, height=[b.passed for b in bins], width=width * 0.35,
                                     brush=gold, pen=None))
        plot.getAxis("left").setTickSpacing(major, major)  # whole attempts only
        plot.setYRange(0, top, padding=0.05)

    chart.on_plot(bars)
    chart.set_title(f"Attempts per {'day' if report.bin_days == 1 else 'week'}")
    chart.empty.setText(f"Green: attempts; gold: passed.{binning_note(report)}")
