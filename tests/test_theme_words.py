"""The theme's words without a rule for every widget: their size is the application's font for
widgets and their colour the palette's (ui.shell.theme.apply), which restyle nothing a screen
builds. Each kind of widget the screens show, in each state, is drawn pixel for pixel as the
universal rule the style sheets began with drew it, `QWidget { font-size: 11pt; color: ...; }`
(14.3 pt in large print): the rule set again on top of the theme changes nothing."""

from __future__ import annotations

import pytest

#: the rule each theme's style sheet began with, as it was written there
RULE = {"light": "QWidget { font-size: 11pt; color: #1d1d1b; }",
        "dark": "QWidget { font-size: 11pt; color: #e8e4d8; }"}


def panel():
    """A panel of the widgets the screens are made of, in the states they show: words plain,
    bold by their own font, disabled, in a field, as a placeholder, on buttons, in a list and a
    table, in tabs, rich text, a combo box, a menu. (No group box: the app has none, and the rule
    moved its title by 2 px.)"""
    from ui.qt import (
        QCheckBox,
        QComboBox,
        QFont,
        QGridLayout,
        QLabel,
        QLineEdit,
        QListWidget,
        QMenu,
        QPlainTextEdit,
        QPushButton,
        QRadioButton,
        QSpinBox,
        QTableWidget,
        QTableWidgetItem,
        QTabWidget,
        QTextBrowser,
        QWidget,
    )

    root = QWidget()
    grid = QGridLayout(root)
    bold = QLabel("Bold by its own font")
    font = QFont(bold.font())
    font.setBold(True)
    bold.setFont(font)
    off = QLabel("A label turned off")
    off.setEnabled(False)
    empty = QLineEdit()
    empty.setPlaceholderText("A placeholder, at half strength")
    table = QTableWidget(2, 2)
    table.setHorizontalHeaderLabels(["Skill", "Recent"])
    for r in range(2):
        for c in range(2):
            table.setItem(r, c, QTableWidgetItem(f"cell {r} {c}"))
    listing = QListWidget()
    listing.addItems(["First item", "Second item"])
    listing.setCurrentRow(1)
    tabs = QTabWidget()
    tabs.addTab(QLabel("On the first tab"), "My progress")
    tabs.addTab(QLabel("On the second"), "My supervising")
    combo = QComboBox()
    combo.addItems(["Accuracy by game", "Time"])
    turned_off = QCheckBox("A box turned off")
    turned_off.setEnabled(False)
    button_off = QPushButton("A button turned off")
    button_off.setEnabled(False)
    rich = QTextBrowser()
    rich.setHtml("<p>Rich text, <b>bold</b> and <h3>a heading</h3></p>")
    edit = QPlainTextEdit("Plain text in an editor")
    spin = QSpinBox()
    spin.setValue(3)
    menu = QMenu("Menu")
    menu.addAction("An item")
    menu.addAction("An item turned off").setEnabled(False)
    widgets = [QLabel("Plain words"), bold, off, QLineEdit("Typed words"), empty,
               QPushButton("A button"), button_off, QCheckBox("A box"), turned_off,
               QRadioButton("A choice"), combo, spin, table, listing, tabs, rich, edit]
    for i, w in enumerate(widgets):
        grid.addWidget(w, i // 3, i % 3)
    root.resize(900, 700)
    return root, menu


def pictures(qtbot, root, menu) -> list:
    from ui.qt import QApplication

    QApplication.processEvents()
    menu.ensurePolished()
    menu.adjustSize()
    return [root.grab().toImage(), menu.grab().toImage()]


@pytest.mark.parametrize("large", [False, True], ids=["normal-print", "large-print"])
@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_widgets_read_as_the_universal_rule_drew_them(qtbot, name, large):
    from ui.qt import QApplication
    from ui.shell import theme

    app = QApplication.instance()
    theme.apply(app, name, large=large)
    root, menu = panel()
    qtbot.addWidget(root)
    qtbot.addWidget(menu)
    root.show()
    qtbot.waitExposed(root)
    now = pictures(qtbot, root, menu)
    rule = RULE[name].replace("11pt", f"{theme.scaled(11, large=large):.1f}pt")
    app.setStyleSheet(rule + "\n" + app.styleSheet())
    then = pictures(qtbot, root, menu)
    assert root.font().pointSizeF() == pytest.approx(14.3 if large else 11.0)
    for what, a, b in zip(("the panel", "the menu"), now, then, strict=True):
        assert a.size() == b.size(), f"{what}: laid out at another size"
        assert a == b, f"{what}: drawn otherwise than under the universal rule"
