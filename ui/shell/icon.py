"""The app's icon (resources/icon/dealer-trainer.svg), set on every window: the title bar, the
task bar and the dock show it. The installers' icons (.ico, .icns, PNG) are drawn from the same
file by packaging/icons.py."""

from __future__ import annotations

from trainer import resources_dir
from ui.qt import QIcon

NAME = "dealer-trainer"


def app_icon() -> QIcon:
    return QIcon(str(resources_dir() / "icon" / f"{NAME}.svg"))
