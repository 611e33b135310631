"""Light and dark themes (resources/theme/*.qss)."""

from __future__ import annotations

from trainer import resources_dir

THEMES = ("light", "dark")


def apply(app, name: str) -> str:
    """Apply a theme to the application; an unknown name falls back to light (and says so)."""
    if name not in THEMES:
        name = "light"
    app.setStyleSheet((resources_dir() / "theme" / f"{name}.qss").read_text(encoding="utf-8"))
    app.setProperty("theme", name)
    return name
