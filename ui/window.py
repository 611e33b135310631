"""The main window. For now it says what the engine can already do; the practice table, scenarios,
progress and rules screens replace this page as they are built."""

from __future__ import annotations

from trainer import __version__
from trainer.readings import READINGS
from ui.qt import QLabel, QMainWindow, QSize, Qt, QVBoxLayout, QWidget

GAMES = (
    ("Props & Hops", "58 Pa. Code ch. 668a"),
    ("Three Dice Football", "58 Pa. Code ch. 577"),
    ("High Roll Dice, and its 6-dice variation", "58 Pa. Code ch. 675a"),
    ("Pai Gow Poker dice wagers (reconstructed)", "58 Pa. Code § 645c.2"),
)


class MainWindow(QMainWindow):
    def __init__(self):
        super().__init__()
        self.setWindowTitle("Dealer Trainer")
        self.setMinimumSize(QSize(720, 480))
        page = QWidget()
        page.setObjectName("placeholder")
        layout = QVBoxLayout(page)
        layout.setContentsMargins(48, 40, 48, 40)
        layout.setSpacing(14)

        title = QLabel("Dealer Trainer")
        title.setStyleSheet("font-size: 30pt; font-weight: 600; color: #0b5d3b;")
        subtitle = QLabel(f"Version {__version__} — the practice table is not built yet.")
        subtitle.setStyleSheet("font-size: 14pt; color: #333;")
        games = "".join(f"<li><b>{name}</b> — {cite}</li>" for name, cite in GAMES)
        body = QLabel(
            "<p>The rules engine is ready. It settles every wager of these games to the cent, "
            "with the regulation behind every line:</p>"
            f"<ul>{games}</ul>"
            f"<p>It follows {len(READINGS)} written readings where the regulations are silent.</p>"
            "<p>From a terminal:<br><tt>dealer-trainer settle &lt; round.json</tt> — the answer "
            "key of a round<br><tt>dealer-trainer odds --game props-and-hops</tt> — exact house "
            "edges</p>"
        )
        body.setWordWrap(True)
        body.setTextFormat(Qt.TextFormat.RichText)
        body.setStyleSheet("font-size: 12pt; color: #222;")
        for w in (title, subtitle, body):
            layout.addWidget(w)
        layout.addStretch(1)
        self.setCentralWidget(page)
        page.setStyleSheet("#placeholder { background: #f7f5ef; }")

    def sizeHint(self) -> QSize:
        return QSize(900, 560)
