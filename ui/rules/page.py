"""The rules reference: the regulation text, the engine's readings, the paytables, and the
exact house edge of every wager — for the property's chosen paytables."""

from __future__ import annotations

import html
from decimal import Decimal

from trainer import GAME_IDS, odds, paytable, paytable_entry_words, policy, readings, regulations
from trainer import get_game as get
from ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

RECONSTRUCTED = "Reconstructed — confirm against your Rules Submission"
#: each game's reading of the order it settles in, shown under Grading
ORDER_READINGS = ("ph-order", "tdf-end-order", "hrd-order", "pgd-procedure")


class RulesPage(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        title = QLabel("Rules")
        title.setObjectName("pageTitle")
        top.addWidget(title)
        top.addStretch(1)
        self.game = QComboBox()
        for g in GAME_IDS:
            self.game.addItem(get(g).name, g)
        self.game.setAccessibleName("game")
        self.sum_table = QComboBox()
        self.sum_table.addItems(["A", "B", "C", "D"])
        self.beat_table = QComboBox()
        self.beat_table.addItems(["A", "B", "C"])
        self.sum_label, self.beat_label = QLabel("Sum paytable"), QLabel("Beat It paytable")
        for w in (QLabel("Game"), self.game, self.sum_label, self.sum_table, self.beat_label,
                  self.beat_table):
            top.addWidget(w)
        layout.addLayout(top)
        self.banner = QLabel(RECONSTRUCTED)
        self.banner.setObjectName("banner")
        layout.addWidget(self.banner)
        self.tabs = QTabWidget()
        self.text, self.reading_view, self.pay_view, self.edge_view, self.grading_view = (
            QTextBrowser() for _ in range(5))
        self.tabs.addTab(self.edge_view, "House edge")
        self.tabs.addTab(self.pay_view, "Paytables")
        self.tabs.addTab(self.reading_view, "Readings")
        self.tabs.addTab(self.grading_view, "Grading")
        self.grading_view.setAccessibleName("grading policy")
        self.tabs.addTab(self.text, "Regulation text")
        layout.addWidget(self.tabs, 1)
        for combo in (self.game, self.sum_table, self.beat_table):
            combo.currentIndexChanged.connect(self.refresh)
        self.refresh()

    def chooses_paytables(self) -> bool:
        """Whether the game shown has paytables a property chooses (the Pai Gow dice wagers'
        Sum and Beat It tables): its options say so."""
        return "sum_paytable" in get(self.game.currentData()).parse_options({})

    def options(self) -> dict:
        if not self.chooses_paytables():
            return {}
        return {"sum_paytable": self.sum_table.currentText(),
                "beat_it_paytable": self.beat_table.currentText()}

    def show_game(self, game: str) -> None:
        self.game.setCurrentIndex(GAME_IDS.index(game))

    def refresh(self) -> None:
        game_id = self.game.currentData()
        game = get(game_id)
        pai_gow = self.chooses_paytables()
        for w in (self.sum_label, self.sum_table, self.beat_label, self.beat_table, self.banner):
            w.setVisible(pai_gow)
        report = odds.report(game_id, self.options())
        bets = game.catalogue(game.parse_options(self.options()))
        rows = []
        for b in report["bets"]:
            bet = bets[b["bet"]]
            name = bet.name + (f" with {bets[b['with']].name}" if "with" in b else "")
            edge = (Decimal(b["house_edge"]) * 100).quantize(Decimal("0.01"))
            rows.append(f"<tr><td>{html.escape(name)}</td><td align=right>{edge}%</td>"
                        f"<td>{html.escape(bet.wins_when)}</td><td>{html.escape(b['cite'])}</td></tr>")
        note = ("<p><i>Exact figures, by enumeration and exact dynamic programming "
                "(<tt>dealer-trainer odds</tt>).</i></p>")
        self.edge_view.setHtml(f"<h2>{html.escape(game.name)}</h2>{note}<table cellpadding=5>"
                               "<tr><th align=left>Wager</th><th>House edge</th>"
                               "<th align=left>Wins when</th><th align=left>Odds from</th></tr>"
                               + "".join(rows) + "</table>")
        entries = paytable(game_id)
        wanted = None
        if pai_gow:
            wanted = {f"sum-{self.sum_table.currentText()}", "match",
                      f"beat-it-{self.beat_table.currentText()}"}
        pay_rows = []
        for name, entry in entries.items():
            if wanted is not None and name not in wanted:
                continue
            lines = "".join(f"<tr><td>&nbsp;&nbsp;{html.escape(k if k != 'win' else 'wins')}</td>"
                            f"<td>{html.escape(v.text)}</td></tr>" for k, v in entry.lines.items())
            pay_rows.append(f"<tr><td><b>{html.escape(paytable_entry_words(game_id, name))}</b></td>"
                            f"<td>{html.escape(entry.cite)}"
                            f"</td></tr>{lines}")
        self.pay_view.setHtml("<h2>Paytables</h2><p>From resources/paytables: a property edits the "
                              "file to match its Rules Submission.</p><table cellpadding=3>"
                              + "".join(pay_rows) + "</table>")
        reading_rows = [f"<h3>{html.escape(r.title)}</h3><p>{html.escape(r.text)}</p>"
                        + (f"<p><i>Reads § {', § '.join(r.sections)}</i></p>" if r.sections else "")
                        for r in readings.for_game(game_id)]
        self.reading_view.setHtml("<h2>How the trainer reads the regulation</h2>"
                                  + "".join(reading_rows))
        chapter = regulations.chapter_text(game_id)
        if chapter.startswith("#"):  # a chapter kept as markdown is read rendered
            self.text.setMarkdown(chapter)
        else:
            self.text.setPlainText(chapter)
        self.grading_view.setHtml(grading_html(game_id))


def grading_html(game_id: str) -> str:
    """The grading policy as the trainee reads it: the pass rule, what each severity means, and
    the orders the grader asks for in this game (trainer.policy, reading "settlement-orders")."""
    current = policy.RULES[policy.RULE]
    severities = "".join(f"<h3>{html.escape(s.value.capitalize())}</h3><p>{html.escape(text)}</p>"
                         for s, text in policy.MEANING.items())
    orders = readings.BY_ID["settlement-orders"]
    own = [r for r in readings.for_game(game_id) if r.id in ORDER_READINGS]
    earlier = [r for n, r in sorted(policy.RULES.items()) if n != policy.RULE]
    return (f"<h2>{html.escape(current.title)}</h2><p>{html.escape(current.text)}</p>"
            + severities
            + f"<h3>Orders</h3><p>{html.escape(policy.ORDER_RULE)}</p>"
            + "".join(f"<p><b>{html.escape(r.title)}.</b> {html.escape(r.text)}"
                      + (f" <i>(§ {', § '.join(r.sections)})</i>" if r.sections else "") + "</p>"
                      for r in own)
            + f"<p><i>{html.escape(orders.title)}:</i> {html.escape(orders.text)}</p>"
            + "".join(f"<h3>Earlier: {html.escape(r.title)}</h3><p>{html.escape(r.text)}</p>"
                      for r in earlier))
