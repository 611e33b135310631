"""A recorded round replayed (trainer.progress.replay_of, of an attempt read from a progress file
or the class server): the round's table, and the recorded steps in order, each with the findings
recorded on it; choosing a step (arrow keys, a click) shows the table as it stood after it. Beside
them: what the replay cannot show and why, the findings on no step (steps not done), and the
answer key's steps with their sections."""

from __future__ import annotations

import html

from trainer import readable
from ui.classroom.findings import findings_html
from ui.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    Qt,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)


def clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


class ReplayDialog(QDialog):
    def __init__(self, data, parent=None):
        """`data`: the round replayed (trainer.progress.Replay)."""
        super().__init__(parent)
        self.data = data
        self.setWindowTitle(f"Replay — {data.title}")
        self.resize(1180, 720)
        layout = QVBoxLayout(self)
        heading = QLabel(f"<b>{html.escape(data.title)}</b> — {len(data.steps)} recorded steps"
                         + ("" if data.exact or data.dealt is None else
                            " · the table follows the record only in part (see the notes)"))
        heading.setWordWrap(True)
        layout.addWidget(heading)
        splitter = QSplitter()
        layout.addWidget(splitter, 1)
        self.view = None
        from ui.speech.voice import Stickman

        self.stickman = Stickman(self)  # View › The stickman's voice: the calls of the step shown
        if data.dealt is not None:
            from ui.table import table_view

            self.view = table_view(data.game, data.options)
            self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.view.setMinimumWidth(420)
            splitter.addWidget(self.view)
        else:
            missing = QLabel("The table cannot be shown: this machine cannot deal the round again.")
            missing.setWordWrap(True)
            missing.setAlignment(Qt.AlignmentFlag.AlignCenter)
            splitter.addWidget(missing)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(QLabel("<b>Steps</b>, as recorded (↑ ↓ to step through)"))
        self.steps = QListWidget()
        self.steps.setAccessibleName("The recorded steps")
        self.steps.setWordWrap(True)
        column.addWidget(self.steps, 3)
        self.table_note = QLabel("")
        self.table_note.setWordWrap(True)
        column.addWidget(self.table_note)
        self.notes = QTextBrowser()
        self.notes.setAccessibleName("Notes, steps not done and the answer key")
        column.addWidget(self.notes, 2)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._fill()
        self.steps.currentRowChanged.connect(self.show_step)
        self.steps.setCurrentRow(0)
        self.steps.setFocus()

    def keyPressEvent(self, event) -> None:
        """The View menu's zoom keys, here too (the dialog keeps the main window's from it):
        Ctrl++ and Ctrl+− zoom the table, Ctrl+0 fits it."""
        from ui.qt import QKeySequence
        from ui.shell.theme import ZOOM_STEP

        ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if self.view is not None and ctrl:
            step = {Qt.Key.Key_Plus: ZOOM_STEP, Qt.Key.Key_Equal: ZOOM_STEP,
                    Qt.Key.Key_Minus: 1 / ZOOM_STEP, Qt.Key.Key_0: 0.0}.get(Qt.Key(event.key()))
            if step is None and event.matches(QKeySequence.StandardKey.ZoomIn):
                step = ZOOM_STEP
            if step is not None:
                self.view.set_zoom(self.view.zoom * step if step else 1.0)
                event.accept()
                return
        super().keyPressEvent(event)

    def _fill(self) -> None:
        data = self.data
        self.steps.addItem(QListWidgetItem("As dealt"))
        for s in data.steps:
            who = " (the trainer)" if s.by_trainer else ""
            mark = "✗" if s.findings else "✓"
            lines = [f"{s.number}. {clock(s.at)}  {mark} {s.text}{who}"]
            lines += [f"      ✗ {readable(f['message'])} — {readable(f.get('cite') or 'no section recorded')}"
                      for f in s.findings]
            item = QListWidgetItem("\n".join(lines))
            item.setToolTip(f"Throw {s.throw}" if s.throw else "Before the first throw")
            self.steps.addItem(item)
        parts = []
        if data.notes:
            parts.append("<h3>What the replay cannot show</h3><ul>"
                         + "".join(f"<li>{html.escape(n)}</li>" for n in data.notes) + "</ul>")
        if data.missing:
            parts.append("<h3>Findings on no step</h3>" + findings_html(data.missing))
        if data.expected:
            rows, throw = [], None
            for n, (t, label, cite) in enumerate(data.expected, start=1):
                if t != throw:
                    throw = t
                    rows.append(f"<p><b>{'Before the first throw' if t == 0 else f'Throw {t}'}</b></p>")
                rows.append(f"<p>{n}. {html.escape(label)} <i>({html.escape(readable(cite))})</i></p>")
            parts.append("<h3>The answer key: the trainee's steps</h3>" + "".join(rows))
        self.notes.setHtml("".join(parts))

    def show_step(self, row: int) -> None:
        """The table after the step in `row` (0: as dealt)."""
        if 0 < row <= len(self.data.steps):
            self.stickman.say(self.data.steps[row - 1].said)
        if self.view is None or row < 0:
            return
        table = self.data.dealt if row == 0 else self.data.steps[row - 1].table
        if table is None:
            self.table_note.setText("The table cannot be shown from this step (see the notes).")
            return
        self.table_note.setText("")
        self.view.set_state(table)

    def done(self, result: int) -> None:
        if self.view is not None:
            self.view.stop_animations()
        super().done(result)
