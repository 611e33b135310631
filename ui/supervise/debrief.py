"""The debrief after a supervised round: the score by signal detection (trainer.score_flags), and
each fault with what the dealer did, what the dealer should have done and the section it breaks,
then each false alarm. Choosing a line (↑ ↓, a click) shows the table at that moment again."""

from __future__ import annotations

from fractions import Fraction

from trainer import WEIGHTS, WINDOW, fmt_dollars, playback, readable
from ui.qt import QLabel, QListWidget, QListWidgetItem, Qt, QVBoxLayout, QWidget, Signal

DATA = Qt.ItemDataRole.UserRole


def clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


def percent(value: Fraction) -> str:
    return f"{round(value * 100)}%"


def summary(score) -> str:
    """The score in words: hits, misses, false alarms, d′, time to flag, the weighted score."""
    mean = score.mean_seconds
    lines = [
        f"<h3>Round supervised — score {percent(score.score)}</h3>",
        f"<p>Caught <b>{score.hits}</b> of {score.signals} fault{'' if score.signals == 1 else 's'}"
        f" · missed <b>{len(score.missed)}</b> · false alarms <b>{len(score.false_alarms)}</b>"
        f" (of {score.noise} correct actions)</p>",
        f"<p>d′ <b>{score.d_prime:.2f}</b> · time to flag "
        f"<b>{'—' if mean is None else f'{mean:.1f} s'}</b> · weighted "
        f"<b>{score.earned}</b> of {score.possible}"
        + (f" · missed money <b>{fmt_dollars(score.missed_cents)}</b>" if score.missed_cents else "")
        + "</p>",
        f"<p><i>A flag catches a fault when it points at it within {WINDOW:g} s. A fault weighs "
        + ", ".join(f"{w} when {sev.value}" for sev, w in WEIGHTS.items())
        + "; a false alarm costs 1.</i></p>",
    ]
    return "".join(lines)


class Debrief(QWidget):
    """The score, and one line for each fault and false alarm; `show_at` asks the screen to
    show the table at a moment of the round (a frame's index)."""

    show_at = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel("")
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.heading)
        note = QLabel("Each fault and false alarm: ↑ ↓ show the table at that moment")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.lines = QListWidget()
        self.lines.setAccessibleName("The faults and false alarms")
        self.lines.setWordWrap(True)
        layout.addWidget(self.lines, 1)
        self.lines.currentRowChanged.connect(self._chosen)

    def show_score(self, rnd, score, frame_at) -> None:
        """`frame_at(seconds)`: the frame shown at a moment of the round."""
        self.heading.setText(summary(score))
        self.lines.clear()
        caught = {id(c.fault): c for c in score.caught}
        for fault, findings in rnd.debrief():
            c = caught.get(id(fault))
            t = fault.type
            if c is None:
                mark = "✘ Missed"
            elif c.named:
                mark = f"✔ Caught in {c.seconds:.1f} s"
            else:
                mark = f"✔ Caught in {c.seconds:.1f} s, named as another fault"
            text = "\n".join([
                f"{mark} · {clock(fault.at)} · {t.words} ({t.severity.value})",
                f"    The dealer: {playback.done_words(fault)}",
                f"    Should have: {playback.should(fault)}",
                f"    {readable(playback.sections_of(fault, findings))}"
                + (f" · {fmt_dollars(fault.cents)} moved wrongly" if fault.cents else ""),
            ])
            item = QListWidgetItem(text)
            item.setData(DATA, fault.index)
            self.lines.addItem(item)
        for flag in score.false_alarms:
            frame = frame_at(flag.at)
            item = QListWidgetItem(f"✘ False alarm · {clock(flag.at)} · "
                                   f"{playback.words_of(flag.target)}: nothing wrong there"
                                   f"\n    The dealer: {frame.text}")
            item.setData(DATA, frame.index)
            self.lines.addItem(item)
        if not self.lines.count():
            self.lines.addItem("No fault in this round, and no false alarm: the dealer worked it "
                               "as the regulation says.")

    def _chosen(self, row: int) -> None:
        item = self.lines.item(row) if row >= 0 else None
        index = item.data(DATA) if item is not None else None
        if index is not None:
            self.show_at.emit(int(index))
