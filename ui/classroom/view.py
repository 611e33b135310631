"""The instructor's Class tab: skills by trainee, who needs help, the hardest items and each
trainee's attempts, opened from it (double-click, Enter or "Open trainee"), from which a round is
replayed (ui.classroom.replay). In a class, ui.classroom.live draws the same view from the class server,
live, with its line above the table; a trainee opened there is read from the server (on a thread
of its own, `ClassView.remote`) into the same dialog, which lists and replays the attempts
however they were read, and names those it does not list (retracted, or not readable). There an
instructor hides an attempt from the exports and the view with **Retract…** and a reason
(`ClassView.retract`; trainer.classes.server.retractions): the class keeps both for good. With
**Merge…** an instructor records that the selected trainee and another are one person, who used
two workstations (`ClassView.merge`, `MergeDialog`; trainer.classes.server.people): one row, one
transcript, one xAPI actor from then on; undone only by another record (its **Part**, or
`dealer-trainer merge-trainees --part`). With **Give back…** an instructor gives back an attempt at
an exam started with no sitting that a classmate spent (`ClassView.give_back`, `GiveBackDialog`;
trainer.exams.classledger, "An attempt given back"), in the words of `dealer-trainer
give-back-attempt`. While a row is marked "⚑ disputed", **Settle claim…** settles whose the claimed
trainee id is (`ClassView.settle`, ui.classroom.claims), in the words of `dealer-trainer settle-claim`.

The trainees' names are the table's row header, so they stay in place while the skills scroll
sideways; every column is as wide as its heading (the skill's title on short lines, in full in
its tooltip) and its values."""

from __future__ import annotations

import html
import time

from trainer import policy
from ui.classroom.catching import CatchView
from ui.classroom.findings import findings_html
from ui.classroom.grid import KeyView, SkillsModel, opens_row
from ui.qt import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QLabel,
    QLineEdit,
    QPalette,
    QPen,
    QPushButton,
    QRect,
    QSize,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionHeader,
    QStyleOptionViewItem,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)

MIN_COLUMN = 56  # pixels: no column narrower, so that "100%" has room
LOGINS_TIP = ("A login of their own in the class for the trainees chosen, each with a new password "
              "shown once: they type it at a workstation to start an exam with no sitting")
LOGINS_OUT_OF_CLASS = ("This app is not in a class: join it with the instructor's address (File › "
                       "Join class…) to give trainees logins of their own.")
WORKSTATIONS_TIP = ("The workstations enrolled with logins of their own (one trainee's mischief with "
                    "one stops that workstation only): enrol one, its address shown once, or revoke one")
MERGE_TIP = ("Record that the selected trainee and another are one person, who used two "
             "workstations: one row in the class view, one trainee in the exports")
GIVE_BACK_TIP = ("Give back an attempt at an exam started with no sitting (a classmate at a shared "
                 "workstation spent it), with a reason the class keeps")
WORKSTATIONS_OUT_OF_CLASS = ("This app is not in a class: join it with the instructor's address (File › "
                             "Join class…) to enrol workstations.")


class UprightHeader(QHeaderView):
    """Column headings written upwards, on short lines: a column is as wide as its lines stacked
    side by side, so that every skill of the class fits across a laptop's screen, in large print
    too, with no scrolling sideways. The theme's section style (ground, padding, ink) draws it."""

    def __init__(self, parent=None):
        super().__init__(Qt.Orientation.Horizontal, parent)

    def _lines(self, section: int) -> list[str]:
        text = self.model().headerData(section, self.orientation(), Qt.ItemDataRole.DisplayRole)
        return str(text or "").split("\n")

    def sectionSizeFromContents(self, section: int) -> QSize:
        lines = self._lines(section)
        metrics = self.fontMetrics()
        # the style's margins, or the theme's padding (6 px a side), whichever is more
        margin = max(2 * self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self), 12)
        across = len(lines) * metrics.height() + margin
        up = max(metrics.horizontalAdvance(line) for line in lines) * 11 // 10 + margin  # bold
        return QSize(across, up)

    def paintSection(self, painter, rect, section: int) -> None:
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.section = section
        option.text = "\n".join(self._lines(section))
        option.textAlignment = Qt.AlignmentFlag.AlignCenter
        option.rect = QRect(0, 0, rect.height(), rect.width())  # the section, turned on its side
        painter.save()
        painter.translate(rect.left(), rect.bottom() + 1)
        painter.rotate(-90)
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)
        painter.restore()


class KeepColours(QStyledItemDelegate):
    """A selected cell keeps its colour code (green, amber, red): the selection is a frame round
    it in the highlight colour, never a fill over it."""

    def paint(self, painter, option, index) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            option = QStyleOptionViewItem(option)
            # the style tints the current cell too: the frame says which row is chosen
            option.state &= ~(QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_HasFocus)
        super().paint(painter, option, index)
        if selected:
            painter.save()
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 3))
            painter.drawRect(option.rect.adjusted(1, 1, -2, -2))
            painter.restore()


class KeyTable(QTableWidget):
    """A read-only table of rows that opens its current row on Enter (and on a double-click)."""

    opened = Signal(int)  # row

    def __init__(self, rows: int = 0, columns: int = 0, parent=None):
        super().__init__(rows, columns, parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.cellDoubleClicked.connect(lambda row, _: self.opened.emit(row))
        self.verticalHeader().sectionDoubleClicked.connect(self.opened.emit)

    def keyPressEvent(self, event) -> None:
        if not opens_row(self, event):
            super().keyPressEvent(event)


def item_name(item_id: str) -> str:
    """"drill:pai-gow-dice:3" -> "Pai Gow Poker dice wagers practice, difficulty 3"."""
    from trainer.progress import item_title

    return item_title(item_id)


class ClassView(QWidget):
    """The instructor's view of the class; `open_trainee(row)` shows a trainee's attempts."""

    def __init__(self, store=None, parent=None):
        super().__init__(parent)
        self.store = store
        # while live (ui.classroom.live): remote(trainee, dialog) reads the trainee's attempts from the
        # class server and fills the dialog when they come; None: they are read from `store`
        self.remote = None
        # while live with an instructor's login: retract(uid, reason) hides an attempt in the class,
        # void(nonce, reason) voids a sitting listed in the side panel (its Void… link)
        self.retract = None
        self.void = None
        # while live: merge(uid, other_uid) records two trainees as one person, part(uid, other_uid)
        # undoes it, merged_now() lists the pairs merged (MergeDialog)
        self.merge = self.part = self.merged_now = None
        # while live: give_back(result_uid, reason) gives back an attempt started with no sitting
        # (its line said), starts_spent() lists those not given back (GiveBackDialog)
        self.give_back = self.starts_spent = None
        # while live with an instructor's login: settle(uid, login, reason) settles a claimed
        # trainee id the claimant's (login) or the row's (None), claims() lists the claims
        self.settle = self.claims = None
        self.settle_dialog = None
        self.merge_dialog = None
        self.void_dialog = None
        self.give_back_dialog = None
        self.trainees: list = []
        self.dialog = None
        layout = QHBoxLayout(self)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        self.live = QLabel()  # "Live: 6 workstations, last result 12 s ago" (ui.classroom.live)
        self.live.setObjectName("liveLine")
        self.live.setAccessibleName("Live class")
        self.live.hide()
        column.addWidget(self.live)
        self.table = KeyView()
        self.model = SkillsModel(self.table)
        self.table.setModel(self.model)
        self.table.setHorizontalHeader(UprightHeader(self.table))
        self.table.setItemDelegate(KeepColours(self.table))
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setMinimumSectionSize(MIN_COLUMN)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        # sized when the model is reset (show_overview), never re-measured for each changed cell
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setAccessibleName("Skills by trainee")
        self.table.opened.connect(self.open_trainee)
        # the skills grid, and beside it the catch rates of the supervised rounds (ui.classroom.catching)
        self.views = QTabWidget()
        self.views.addTab(self.table, "&Skills")
        self.catching = CatchView()
        self.catching.table.opened.connect(self._open_catching)
        self.views.addTab(self.catching, "S&upervising")
        column.addWidget(self.views, 1)
        row = QHBoxLayout()
        self.hint = QLabel("Double-click a trainee, or select one and press Enter, to see their "
                           "attempts and replay a round.")
        self.hint.setObjectName("subtitle")
        self.hint.setWordWrap(True)
        row.addWidget(self.hint, 1)
        # Trainee logins… (ui.classroom.logins): the progress page enables it while the app is in a class
        self.logins_button = QPushButton("Trainee &logins…")
        self.logins_button.setEnabled(False)
        self.logins_button.setToolTip(LOGINS_OUT_OF_CLASS)
        row.addWidget(self.logins_button)
        # Workstations… (ui.classroom.workstations): enabled, as Trainee logins…, while in a class
        self.workstations_button = QPushButton("&Workstations…")
        self.workstations_button.setEnabled(False)
        self.workstations_button.setToolTip(WORKSTATIONS_OUT_OF_CLASS)
        row.addWidget(self.workstations_button)
        self.merge_button = QPushButton("&Merge…")
        self.merge_button.setToolTip(MERGE_TIP)
        self.merge_button.clicked.connect(lambda: self.ask_merge(self.table.currentRow()))
        self.merge_button.hide()  # shown while live (show_overview)
        row.addWidget(self.merge_button)
        self.give_back_button = QPushButton("Give &back…")
        self.give_back_button.setToolTip(GIVE_BACK_TIP)
        self.give_back_button.clicked.connect(self.ask_give_back)
        self.give_back_button.hide()  # shown while live (show_overview)
        row.addWidget(self.give_back_button)
        self.settle_button = QPushButton("Settle &claim…")
        self.settle_button.setToolTip("Whose a trainee id is that a trainee's own login claims while "
                                      "the class holds it under another name (⚑ disputed)")
        self.settle_button.clicked.connect(self.ask_settle)
        self.settle_button.hide()  # shown while live, while a row is disputed (show_overview)
        row.addWidget(self.settle_button)
        self.open_button = QPushButton("&Open trainee…")
        self.open_button.setToolTip("The selected trainee's attempts, findings and round replays")
        self.open_button.clicked.connect(lambda: self.open_trainee(self.table.currentRow()))
        row.addWidget(self.open_button)
        column.addLayout(row)
        self.side = QTextBrowser()
        self.side.setMinimumWidth(170)
        self.side.setOpenLinks(False)  # its only links are the sittings' Void… (ask_void)
        self.side.anchorClicked.connect(lambda url: self.ask_void(url.toString()))
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter)

    def _open_catching(self, row: int) -> None:
        """A trainee's row of the Supervising view opens her attempts, as her row of the grid does."""
        shown = self.catching.model.rows[row].trainee_id
        self.open_trainee(next((n for n, t in enumerate(self.trainees) if t.id == shown), -1))

    def ask_void(self, link: str) -> None:
        """Void… of a sitting listed in the side panel (`VOID` and its nonce): its reason asked
        in a dialog of its own, while live with an instructor's login."""
        if not link.startswith(VOID) or self.void is None:
            return
        if self.void_dialog is not None:
            self.void_dialog.close()
        self.void_dialog = VoidDialog(link.removeprefix(VOID), self.void, self)
        self.void_dialog.open()

    def ask_merge(self, row: int) -> None:
        """Merge… of the selected trainee (the first, when none is): the other chosen in a dialog
        of its own, which lists the pairs merged now too, each to be parted, while live."""
        if self.merge is None or not self.trainees:
            return
        from trainer.classes import ClassServerError
        from ui.shell.server_call import server_call, status_bar_of

        if self.merge_dialog is not None:
            self.merge_dialog.close()
        try:
            with server_call(status_bar_of(self), "Reading the class's merges"):
                merged = self.merged_now() if self.merged_now is not None else []
        except ClassServerError as e:
            merged, problem = [], f"The pairs merged now could not be read: {e}."
        else:
            problem = None
        self.merge_dialog = MergeDialog(self.trainees, max(row, 0), self.merge, self, merged=merged,
                                        part=self.part)
        if problem:
            self.merge_dialog.say(problem)
        self.merge_dialog.open()

    def ask_give_back(self) -> None:
        """Give back…: the attempts started with no sitting, read from the class, in a dialog of
        its own (the selected trainee's first chosen), each given back with a reason, while live."""
        if self.give_back is None:
            return
        from trainer.classes import ClassServerError
        from trainer.exams import ExamError
        from ui.shell.server_call import server_call, status_bar_of

        if self.give_back_dialog is not None:
            self.give_back_dialog.close()
        try:
            with server_call(status_bar_of(self), "Reading the attempts started with no sitting"):
                starts = self.starts_spent() if self.starts_spent is not None else []
        except (ClassServerError, ExamError) as e:
            starts, problem = [], f"The attempts started with no sitting could not be read: {e}"
        else:
            problem = None
        row = self.table.currentRow()
        chosen = self.trainees[row].uid if 0 <= row < len(self.trainees) else None
        self.give_back_dialog = GiveBackDialog(starts, self.give_back, self, chosen=chosen)
        if problem:
            self.give_back_dialog.say(problem)
        self.give_back_dialog.open()

    def ask_settle(self) -> None:
        """Settle claim…: the claims read from the class, in a dialog of their own (the selected
        trainee's first chosen), one settled with a reason, while live (ui.classroom.claims)."""
        if self.settle is None or self.claims is None:
            return
        from trainer.classes import ClassServerError
        from ui.classroom.claims import SettleDialog
        from ui.shell.server_call import server_call, status_bar_of

        if self.settle_dialog is not None:
            self.settle_dialog.close()
        try:
            with server_call(status_bar_of(self), "Reading the claims of trainee ids"):
                claims, problem = self.claims(), None
        except ClassServerError as e:
            claims, problem = [], f"The claims could not be read: {e}"
        row = self.table.currentRow()
        chosen = self.trainees[row].uid if 0 <= row < len(self.trainees) else None
        self.settle_dialog = SettleDialog(claims, self.settle, self, chosen=chosen)
        if problem:
            self.settle_dialog.say(problem)
        self.settle_dialog.open()

    def set_live_line(self, text: str | None) -> None:
        """The live class's line above the table; None hides it (the local file's view)."""
        self.live.setText(text or "")
        self.live.setVisible(text is not None)

    def show_overview(self, overview, *, before: str = "", changed=None) -> None:
        """Draw a ClassOverview; `before`: HTML put at the top of the side panel; `changed`: the
        trainees (ids) whose rows may differ from the overview drawn before (None: any). Only the
        rows that changed are drawn again (ui.classroom.grid), and the columns sized only when the
        trainees or the skills are others."""
        self.trainees = list(overview.trainees)
        chosen = self.table.currentRow()
        if self.model.show(overview, changed):
            self.table.resizeColumnsToContents()
            chosen = -1
        if self.trainees and chosen < 0:  # Enter opens the first trainee; nothing highlighted until chosen
            self.table.selectionModel().setCurrentIndex(self.model.index(0, 0),
                                                        QItemSelectionModel.SelectionFlag.NoUpdate)
        self.open_button.setEnabled(bool(self.trainees) and self.can_open)
        self.merge_button.setVisible(self.merge is not None)
        self.merge_button.setEnabled(bool(self.trainees))
        self.give_back_button.setVisible(self.give_back is not None)
        from trainer.classes import DISPUTED

        disputed = any(DISPUTED in t.name for t in self.trainees)
        self.settle_button.setVisible(self.settle is not None and disputed)
        if not self.trainees:
            where = ("their workstations have sent their results to the class" if not self.live.isHidden()
                     else "they have a profile in this progress file (File → Switch trainee…)")
            self.side.setHtml(f"{before}<h3>No trainees yet</h3><p>Trainees appear here once "
                              f"{where}.</p>")
            self.overview_html = self.side.toHtml()
            return
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
        self.overview_html = (f"{before}<h3>Who needs help</h3><ol>{help_rows}</ol>{idle_note}"
                              f"<h3>Hardest items</h3><ol>{hard or '<li>not enough attempts yet</li>'}</ol>"
                              f"<p><i>As of {time.strftime('%Y-%m-%d %H:%M')}; cells show each skill's "
                              "last 20 attempts: green 90% and up, yellow 75%, red below.</i></p>")
        self.side.setHtml(self.overview_html)

    @property
    def can_open(self) -> bool:
        """A trainee's attempts can be read: from the class server while live, else the file."""
        return self.remote is not None or self.store is not None

    def open_trainee(self, row: int) -> None:
        """Show the trainee of `row`'s attempts (a dialog; Esc closes it)."""
        if not self.can_open or not 0 <= row < len(self.trainees):
            return
        if self.dialog is not None:
            self.dialog.close()
        trainee = self.trainees[row]
        self.dialog = TraineeDialog(trainee, self, retract=self.retract if self.remote is not None else None)
        if self.remote is not None:
            self.remote(trainee, self.dialog)  # the dialog says it is reading until they come
        else:
            from trainer.progress import TRAINEE_ATTEMPTS, StoreError

            try:
                with self.store.noting_unreadable() as left_out:
                    records = self.store.attempts(trainee.id, newest_first=True, limit=TRAINEE_ATTEMPTS)
            except StoreError as e:  # the file cannot be read now: why, in the dialog
                self.dialog.show_problem(str(e))
            else:
                self.dialog.show_attempts(records, [f"{e.what}: damaged in the progress file, left "
                                                    f"as it is ({e.detail})" for e in left_out])
        self.dialog.open()


class TraineeDialog(QDialog):
    """One trainee's attempts, newest first, with the findings of the selected one and their
    regulation sections; "Replay round" (Enter, or a double-click) plays the round again.

    It opens empty ("reading…"); `show_attempts` fills it with the trainee's attempts (records,
    trainer.progress.Attempt, from the file or the class server alike) and names those left out,
    `show_problem` says in one line why they could not be read. With `retract` (the live class,
    an instructor's login), **Retract…** hides the selected attempt, with a reason."""

    retracted = Signal(str)  # an attempt's uid, retracted in the class from this dialog

    def __init__(self, trainee, parent=None, *, retract=None):
        super().__init__(parent)
        self.trainee = trainee
        self.retract = retract
        self.records: list = []
        self.attempts: list = []
        self.left_out: list[str] = []
        self.replay_dialog = None
        self.retract_dialog = None
        self.setWindowTitle(f"{trainee.name} — attempts")
        self.resize(960, 600)
        layout = QVBoxLayout(self)
        self.heading = QLabel(f"<b>{html.escape(trainee.name)}</b> — reading their attempts…")
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.hidden = QLabel()  # the attempts not listed, and why
        self.hidden.setTextFormat(Qt.TextFormat.PlainText)
        self.hidden.setObjectName("subtitle")
        self.hidden.setWordWrap(True)
        self.hidden.hide()
        layout.addWidget(self.hidden)
        self.table = KeyTable(0, 6)
        self.table.setHorizontalHeaderLabels(["When", "Game", "Round", "Score", "Result", "Findings"])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.currentCellChanged.connect(lambda row, *_: self.show_findings(row))
        self.table.opened.connect(self.replay)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        self.findings = QTextBrowser()
        self.findings.setAccessibleName("Findings of the selected attempt")
        splitter.addWidget(self.findings)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.replay_button = buttons.addButton("&Replay round", QDialogButtonBox.ButtonRole.ActionRole)
        self.replay_button.setToolTip("Play the selected round again: its table, the trainee's steps "
                                      "and findings in order (Enter)")
        self.replay_button.clicked.connect(lambda: self.replay(self.table.currentRow()))
        self.replay_button.setEnabled(False)
        self.retract_button = buttons.addButton("Re&tract…", QDialogButtonBox.ButtonRole.ActionRole)
        self.retract_button.setToolTip("Hide the selected attempt from the exports and the class view, "
                                       "with a reason the class keeps (an instructor's; never taken back)")
        self.retract_button.clicked.connect(lambda: self.ask_retract(self.table.currentRow()))
        self.retract_button.setEnabled(False)
        self.retract_button.setVisible(retract is not None)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.table.setFocus()

    def show_attempts(self, records: list, left_out: list[str] = ()) -> None:
        """The trainee's attempts (trainer.progress.Attempt), newest first; `left_out`, those not
        listed, each named with why ("attempt <uid>: retracted by …: reason")."""
        from trainer.progress import TRAINEE_ATTEMPTS, attempt_line

        self.left_out = list(left_out)
        self.show_left_out()
        self.records = list(records)
        self.attempts = [attempt_line(a) for a in self.records]
        name, n = html.escape(self.trainee.name), len(self.attempts)
        last = "the last " if n >= TRAINEE_ATTEMPTS else ""  # older ones are not read
        self.heading.setText(f"<b>{name}</b> — {last}{n} attempts, newest first" if n else
                             f"<b>{name}</b> — not started yet: no attempt recorded.")
        self.table.setRowCount(len(self.attempts))
        for r, a in enumerate(self.attempts):
            result = ("left unfinished" if a.abandoned else "passed" if a.passed else
                      "critical error" if a.critical else "not passed")
            if not a.abandoned and a.rule is not None and a.rule != policy.RULE:
                result += f" (rule {a.rule})"  # graded under an earlier rule, kept as recorded
            # a dealt round's title says what it was ("... payout drill, difficulty 4")
            what = a.title if a.title.startswith(a.game) else f"{a.mode}: {a.title}"
            for c, text in enumerate((time.strftime("%Y-%m-%d %H:%M", time.localtime(a.started)), a.game,
                                      what, str(a.total), result, str(len(a.findings)))):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.replay_button.setEnabled(bool(self.attempts))
        self.retract_button.setEnabled(bool(self.attempts))
        if self.attempts:
            self.table.setCurrentCell(0, 0)
            self.show_findings(0)  # drawn again: the row's attempt may be another than before
        else:
            self.findings.setPlainText("Nothing to show yet: this trainee has not started.")

    def show_left_out(self) -> None:
        n = len(self.left_out)
        self.hidden.setVisible(bool(n))
        if n:
            shown = "; ".join(self.left_out[:LEFT_OUT_SHOWN]) + ("; …" if n > LEFT_OUT_SHOWN else "")
            self.hidden.setText(f"{n} attempt{'s' if n != 1 else ''} not listed: {shown}")
            self.hidden.setToolTip("\n".join(self.left_out))

    def ask_retract(self, row: int) -> None:
        """Retract… for the attempt of `row`: its reason asked in a dialog of its own."""
        if self.retract is None or not 0 <= row < len(self.records):
            return
        if self.retract_dialog is not None:
            self.retract_dialog.close()
        self.retract_dialog = RetractDialog(self.records[row], self.attempts[row], self.retract, self)
        self.retract_dialog.accepted.connect(lambda r=self.records[row]: self.was_retracted(r))
        self.retract_dialog.open()

    def was_retracted(self, record) -> None:
        """The class took the retraction: the attempt leaves the list, named with the reason."""
        reason = self.retract_dialog.reason.text().strip() if self.retract_dialog is not None else ""
        rest = [r for r in self.records if r.uid != record.uid]
        self.show_attempts(rest, [*self.left_out, f"attempt {record.uid}: retracted now: {reason}"])
        self.retracted.emit(record.uid)

    def show_problem(self, problem: str) -> None:
        """The attempts could not be read: why, in one line."""
        self.heading.setText(f"<b>{html.escape(self.trainee.name)}</b> — their attempts could not be "
                             f"read: {html.escape(problem)}")
        self.findings.setPlainText("Close this and open the trainee again to try once more.")

    def show_findings(self, row: int) -> None:
        if not 0 <= row < len(self.attempts):
            return
        a = self.attempts[row]
        shown = findings_html(a.findings, empty="No findings: every step was right."
                              if not a.abandoned else "Left unfinished: not graded.")
        if not a.abandoned and a.rule is not None:
            graded = policy.rule(a.rule)
            kept = "" if graded.number == policy.RULE else " Its score and verdict are kept as recorded."
            shown += f"<p><i>Graded under {html.escape(graded.title)}.{kept}</i></p>"
        self.findings.setHtml(shown)

    def replay(self, row: int) -> None:
        if not 0 <= row < len(self.records):
            return
        from trainer.progress import replay_of
        from ui.classroom.replay import ReplayDialog

        if self.replay_dialog is not None:
            self.replay_dialog.close()
        self.replay_dialog = ReplayDialog(replay_of(self.records[row]), self)
        self.replay_dialog.open()


def answer_rows(dialog: QDialog, layout: QVBoxLayout, verb: str) -> tuple[QLabel, QLabel, QPushButton]:
    """The last rows of an instructor's dialog that asks the server: a line for its refusal
    (hidden until there is one), a status line, and Cancel beside the button named `verb`."""
    problem = QLabel()
    problem.setObjectName("wrong")
    problem.setWordWrap(True)
    problem.hide()
    layout.addWidget(problem)
    status = QLabel()
    layout.addWidget(status)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    button = buttons.addButton(verb, QDialogButtonBox.ButtonRole.AcceptRole)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    return problem, status, button


class ReasonDialog(QDialog):
    """One thing done in the class for good, with a reason: what it is (`what`, rich text), a
    reason (kept with it, 500 characters at most), then the button (`verb`), which calls `call`
    with the reason. The call is short, on the GUI thread (ui.shell.server_call); a refusal is one
    line here, "Not <done>: why". A line the call leaves in `said` is shown in the window's status
    bar once done."""

    def __init__(self, title: str, what: str, placeholder: str, verb: str, doing: str, done: str,
                 call, parent=None):
        super().__init__(parent)
        self.call, self.doing, self.not_done = call, doing, f"Not {done}"  # (QDialog has a done())
        self.said: str | None = None
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        label = QLabel(what)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.reason = QLineEdit()
        self.reason.setMaxLength(500)
        self.reason.setPlaceholderText(placeholder)
        self.reason.setAccessibleName("Reason")
        layout.addWidget(self.reason)
        self.problem, self.status, self.button = answer_rows(self, layout, verb)
        self.button.setEnabled(False)
        self.reason.textChanged.connect(self.refresh)
        self.resize(560, self.sizeHint().height())

    def ready(self) -> bool:
        """Whether the button may be pressed: a reason is typed."""
        return bool(self.reason.text().strip())

    def refresh(self) -> None:
        self.button.setEnabled(self.ready())

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def widen(self, width: int) -> None:
        """At least `width` wide, its words above wrapped at that width and shown whole."""
        self.setMinimumWidth(width)
        words = self.layout().itemAt(0).widget()
        margins = self.layout().contentsMargins()
        words.setMinimumHeight(words.heightForWidth(width - margins.left() - margins.right()))
        self.adjustSize()

    def accept(self) -> None:
        from trainer.classes import ClassServerError
        from trainer.exams import ExamError
        from ui.shell.server_call import server_call

        try:
            with server_call(self.status.setText, self.doing):
                self.call(self.reason.text())
        except (ClassServerError, ExamError) as e:  # the class's refusal, or the exam ledger's words
            return self.say(f"{self.not_done}: {e}")
        super().accept()
        if self.said is not None:
            from ui.shell.server_call import status_bar_of

            status_bar_of(self.parentWidget() or self)(self.said)


class RetractDialog(ReasonDialog):
    """Retract one attempt: what it was, a reason, then Retract (ReasonDialog)."""

    def __init__(self, record, line, retract, parent=None):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(line.started))
        super().__init__(
            "Retract an attempt",
            f"Hide <b>{html.escape(line.title)}</b> of {when} ({line.total}, "
            f"{'passed' if line.passed else 'not passed'}) from the exports and the class view. The "
            "class keeps the attempt and your reason; a retraction is never taken back.",
            "Why it is hidden (kept with it)", "&Retract", "Retracting in the class", "retracted",
            lambda reason: retract(record.uid, reason), parent)
        self.record = record
        self.retract_button = self.button


def trainee_choice(trainee) -> str:
    """A trainee as the merge dialog lists them: the name, and enough of the id to tell two apart."""
    from trainer.classes import told_apart

    return told_apart(trainee.name, trainee.uid)


class MergeDialog(QDialog):
    """Two trainees of the class are one person: the one selected in the view, the other chosen
    here, then Merge, which calls `merge(uid, other_uid)`. Below, the pairs merged now (`merged`,
    trainer.classes.server.people.Merged), each parted again with Part (`part(uid, other_uid)`).
    Each call is short, on the GUI thread (ui.shell.server_call); a refusal is one line here."""

    def __init__(self, trainees: list, row: int, merge, parent=None, *, merged=(), part=None):
        super().__init__(parent)
        self.setWindowTitle("Merge two trainees")
        self.trainee, self.call, self.part = trainees[row], merge, part
        self.others = [t for t in trainees if t.id != self.trainee.id]
        self.merged = list(merged)
        layout = QVBoxLayout(self)
        label = QLabel(
            f"<b>{html.escape(self.trainee.name)}</b> (trainee id {html.escape(self.trainee.uid)}) and "
            "the trainee chosen below are one person, who practised at two workstations. From now on "
            "the class view, the transcript and the xAPI statements show them as one trainee, under "
            "the name and id they were first known by. The class records who merged them and when; "
            "a merge is undone only by another record (Part, below).")
        label.setWordWrap(True)
        layout.addWidget(label)
        self.other = QComboBox()
        self.other.setAccessibleName("The other trainee")
        self.other.addItems([trainee_choice(t) for t in self.others] or ["no other trainee in the class"])
        self.other.setEnabled(bool(self.others))
        layout.addWidget(self.other)
        self.pairs = QComboBox()
        self.pairs.setAccessibleName("Merged now")
        self.pairs.addItems([f"{m.name} and {m.other_name} (merged by {m.by}, "
                             f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(m.at))})"
                             for m in self.merged])
        pairs_row = QHBoxLayout()
        pairs_row.addWidget(QLabel("Merged now:"))
        pairs_row.addWidget(self.pairs, 1)
        self.part_button = QPushButton("&Part")
        self.part_button.setToolTip("Record that the two are two people again (the merge stays recorded)")
        self.part_button.clicked.connect(self.ask_part)
        pairs_row.addWidget(self.part_button)
        layout.addLayout(pairs_row)
        self.pairs.setEnabled(bool(self.merged))
        self.part_button.setEnabled(bool(self.merged) and part is not None)
        if not self.merged:
            self.pairs.addItem("no trainees are merged")
        self.problem, self.status, self.button = answer_rows(self, layout, "&Merge")
        self.button.setEnabled(bool(self.others))
        self.resize(600, self.sizeHint().height())

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def _done(self, doing: str, not_done: str, call) -> None:
        from trainer.classes import ClassServerError
        from ui.shell.server_call import server_call

        try:
            with server_call(self.status.setText, doing):
                call()
        except ClassServerError as e:
            return self.say(f"{not_done}: {e}")
        super().accept()

    def accept(self) -> None:
        if self.others:
            other = self.others[self.other.currentIndex()]
            self._done("Merging in the class", "Not merged", lambda: self.call(self.trainee.uid, other.uid))

    def ask_part(self) -> None:
        if self.merged and self.part is not None:
            m = self.merged[self.pairs.currentIndex()]
            self._done("Parting in the class", "Not parted", lambda: self.part(m.uid, m.other_uid))


#: the side panel's link that voids the sitting named after it (ClassView.ask_void)
VOID = "void:"


class VoidDialog(ReasonDialog):
    """Void one sitting a genuine outage spoiled: what voiding does, a reason, then Void
    (ReasonDialog; trainer.exams.classledger, "A sitting voided")."""

    def __init__(self, nonce: str, void, parent=None):
        super().__init__(
            "Void a sitting",
            f"Void sitting <b>{html.escape(nonce)}</b>: its attempt is given back, so another sitting "
            "of the form may be issued, and no result of it is ever certified. For a genuine "
            "outage only: the class keeps your reason, and a voiding is never taken back. A sitting "
            "certified already is not voided.",
            "Why it is voided (kept with it)", "&Void", "Voiding in the class", "voided",
            lambda reason: void(nonce, reason), parent)
        self.nonce = nonce


def start_choice(start: dict) -> str:
    """An attempt started with no sitting as the give-back dialog lists it: whose, which form and
    attempt, when, and enough of its id to tell two apart (the whole id in its tooltip)."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(start["started"]))
    return (f"{start['trainee']}, {start['form']}, attempt {start['attempt']}, started {when} "
            f"(id {start['result'][:8]}…)")


class GiveBackDialog(ReasonDialog):
    """Give back one attempt at an exam started with no sitting: the attempts not given back
    (`starts`, trainer.exams.starts_spent), each named as `start_choice` says (its tooltip the
    line `dealer-trainer give-back-attempt` lists), the first of the trainee `chosen` selected;
    a reason; then Give back, which calls `give_back(result_uid, reason)` (ReasonDialog). The
    line it answers, that the attempt was given back, is shown in the window's status bar
    (`said`), as the command prints it."""

    def __init__(self, starts: list[dict], give_back, parent=None, *, chosen: str | None = None):
        from trainer.exams import start_line

        super().__init__(
            "Give back an attempt",
            "An attempt at an exam started with no sitting counts against its form's attempts. One "
            "a classmate spent (at a shared workstation, for a trainee with no class login of their "
            "own) is given back here: it no longer counts. The class keeps your reason, and giving "
            "back is never taken back.",
            "Why it is given back (kept with it)", "&Give back", "Giving back in the class",
            "given back", self._give_back, parent)
        self.starts, self.call_server = list(starts), give_back
        self.attempt = QComboBox()
        self.attempt.setAccessibleName("The attempt")
        self.attempt.addItems([start_choice(s) for s in self.starts]
                              or ["no attempt started with no sitting waits to be given back"])
        for k, s in enumerate(self.starts):  # the whole line, as give-back-attempt lists it
            self.attempt.setItemData(k, start_line(s), Qt.ItemDataRole.ToolTipRole)
        self.attempt.setEnabled(bool(self.starts))
        mine = [k for k, s in enumerate(self.starts) if s["trainee"] == chosen]
        if mine:
            self.attempt.setCurrentIndex(mine[0])
        self.layout().insertWidget(1, self.attempt)
        self.reason.setEnabled(bool(self.starts))
        self.widen(640)

    def _give_back(self, reason: str) -> None:
        start = self.starts[self.attempt.currentIndex()]
        self.said = self.call_server(start["result"], reason)

    def accept(self) -> None:
        if self.starts:
            super().accept()


LEFT_OUT_SHOWN = 3  # attempts not listed that the trainee's window names (its tooltip names all)
