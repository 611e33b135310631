"""Light and dark themes: a palette (what every widget paints its ground and text with, the menu
bar and tab pages included), the widgets' font, and a style sheet (resources/theme/*.qss) for the
app's own parts; and large print, and the tables' zoom, for a projector or a reader who needs
bigger words."""

from __future__ import annotations

import re

from trainer import resources_dir
from ui.qt import QColor, QFont, QPalette

THEMES = ("light", "dark")
#: how much larger every word is in large print: the widgets' font and the style sheet's point
#: sizes, and the tables' printed words and chip labels
LARGE_PRINT = 1.3
#: each step of View › Zoom in (Ctrl++), or of the wheel with Ctrl held, and the closest zoom
ZOOM_STEP = 1.25
ZOOM_MAX = 4.0
#: the size of the app's words, in points: the application's font for its widgets, which every
#: widget takes that neither sets its own nor has a rule of the style sheet sizing it (larger in
#: large print); what is drawn outside a widget's own text (a chart's axes) keeps the app's font
POINTS = 11.0
#: the class whose instances, and its subclasses', take that font: every widget
WIDGETS = "QWidget"
#: the one kind of widget that keeps the app's font: a tool tip (the words' rule of the style
#: sheets never reached it either)
TIPS = "QTipLabel"
#: the colour of the app's words, by theme: every widget's text (a window's, a field's, a
#: button's) in every state a rule of the style sheet does not colour otherwise, a disabled
#: label's too; a field's placeholder is it at half strength
WORDS = {"light": "#1d1d1b", "dark": "#e8e4d8"}
#: the palette's roles the words are drawn in, whichever a widget draws its text with
WORD_ROLES = (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText)


def points(size: float) -> str:
    """A font size for a widget's own style sheet, larger in large print (as the theme's are)."""
    from ui.qt import QApplication

    app = QApplication.instance()
    large = app is not None and bool(app.property("large_print"))
    return f"{scaled(size, large=large):.1f}pt"


def scaled(size: float, *, large: bool) -> float:
    """A point size in large print or not, to a tenth of a point."""
    return round(size * LARGE_PRINT, 1) if large else size


def clamp_zoom(zoom: float) -> float:
    """A table's zoom: 1 shows the whole table, ZOOM_MAX the closest."""
    return min(ZOOM_MAX, max(1.0, zoom))


def style_sheet(name: str, *, large: bool = False) -> str:
    """The theme's style sheet, its point sizes scaled up in large print; `@THEME@` in it is the
    folder of its pictures (the spin boxes' arrows)."""
    folder = resources_dir() / "theme"
    text = (folder / f"{name}.qss").read_text(encoding="utf-8").replace("@THEME@", folder.as_posix())
    if not large:
        return text
    return re.sub(r"(\d+(?:\.\d+)?)pt", lambda m: f"{scaled(float(m.group(1)), large=True):.1f}pt", text)

#: the dark palette's colours, by role (its words' are WORDS')
DARK = {
    QPalette.ColorRole.Window: "#1e2220", QPalette.ColorRole.Base: "#262a27",
    QPalette.ColorRole.AlternateBase: "#2b302d", QPalette.ColorRole.Button: "#2b302d",
    QPalette.ColorRole.ToolTipBase: "#30362f", QPalette.ColorRole.ToolTipText: "#e8e4d8",
    QPalette.ColorRole.Highlight: "#11784d", QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#7fd3a6", QPalette.ColorRole.BrightText: "#ffffff",
}


#: the colours of the words the app writes into rich text (feedback, a round's summary), by
#: theme: each at least 4.5:1 on the theme's ground for text (tests/test_themes.py measures them)
INK = {
    "light": {"ok": "#146c2e", "wrong": "#a11d1d", "quiet": "#555555"},
    "dark": {"ok": "#7fd38f", "wrong": "#ff8a80", "quiet": "#b8b3a6"},
}


#: the light palette's colours that differ from the style's own: the selection is the felt's
#: green (white on the style's blue read at 3.7:1)
LIGHT = {QPalette.ColorRole.Highlight: "#0b5d3b", QPalette.ColorRole.HighlightedText: "#ffffff"}


def current() -> str:
    """The theme the application is in: light until one is applied."""
    from ui.qt import QApplication

    app = QApplication.instance()
    name = app.property("theme") if app is not None else None
    return name if name in THEMES else "light"


def rich_text_css() -> str:
    """The style sheet for a rich-text document the app writes: `.ok`, `.wrong` and `.quiet`
    words in the current theme's colours."""
    ink = INK[current()]
    return (f".ok {{ color: {ink['ok']}; font-weight: 700; }} "
            f".wrong {{ color: {ink['wrong']}; font-weight: 700; }} "
            f".quiet {{ color: {ink['quiet']}; }}")


def retheme(root) -> None:
    """Tell `root` and every widget under it that has a `retheme()` that the theme changed: what
    it drew in the old theme's colours (charts, rich text) it draws again."""
    from ui.qt import QWidget

    for widget in (root, *root.findChildren(QWidget)):
        again = getattr(widget, "retheme", None)
        if callable(again):
            again()


def apply(app, name: str, *, large: bool = False) -> str:
    """Apply a theme to the application, in large print or not; an unknown name falls back to
    light (and says so)."""
    if name not in THEMES:
        name = "light"
    app.setProperty("theme", name)  # first: what repaints on the change reads it
    app.setProperty("large_print", large)
    palette = app.style().standardPalette()
    for role, colour in (DARK if name == "dark" else LIGHT).items():
        palette.setColor(role, QColor(colour))
    words = QColor(WORDS[name])
    for role in WORD_ROLES:
        palette.setColor(role, words)  # in every group: enabled, disabled, inactive
    faint = QColor(words)
    faint.setAlpha(128)
    palette.setColor(QPalette.ColorRole.PlaceholderText, faint)
    app.setPalette(palette)  # the same colours again cost Qt about a millisecond
    sheet = style_sheet(name, large=large)
    if app.styleSheet() != sheet:  # the same text again would restyle every widget for nothing
        app.setStyleSheet(sheet)
    # after the sheet: the first sheet of all sets Qt's style anew, which forgets the widgets' font
    font = QFont(app.font())  # the app's own (ui.shell.fonts), which the charts' axes keep
    font.setPointSizeF(scaled(POINTS, large=large))
    if app.font(WIDGETS) != font:  # a new font lays every widget out again
        app.setFont(font, WIDGETS)
        app.setFont(app.font(), TIPS)
    return name
