"""Light and dark themes: a palette (what every widget paints its ground and text with, the menu
bar and tab pages included) and a style sheet (resources/theme/*.qss) for the app's own parts."""

from __future__ import annotations

from trainer import resources_dir
from ui.qt import QColor, QPalette

THEMES = ("light", "dark")

#: the dark palette's colours, by role
DARK = {
    QPalette.ColorRole.Window: "#1e2220", QPalette.ColorRole.WindowText: "#e8e4d8",
    QPalette.ColorRole.Base: "#262a27", QPalette.ColorRole.AlternateBase: "#2b302d",
    QPalette.ColorRole.Text: "#e8e4d8", QPalette.ColorRole.Button: "#2b302d",
    QPalette.ColorRole.ButtonText: "#e8e4d8", QPalette.ColorRole.ToolTipBase: "#30362f",
    QPalette.ColorRole.ToolTipText: "#e8e4d8", QPalette.ColorRole.Highlight: "#11784d",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.PlaceholderText: "#8a8f8a",
    QPalette.ColorRole.Link: "#7fd3a6", QPalette.ColorRole.BrightText: "#ffffff",
}


def apply(app, name: str) -> str:
    """Apply a theme to the application; an unknown name falls back to light (and says so)."""
    if name not in THEMES:
        name = "light"
    palette = app.style().standardPalette()
    if name == "dark":
        for role, colour in DARK.items():
            palette.setColor(role, QColor(colour))
    app.setPalette(palette)
    app.setStyleSheet((resources_dir() / "theme" / f"{name}.qss").read_text(encoding="utf-8"))
    app.setProperty("theme", name)
    return name
