"""Starting the app: the QApplication, the main window, and `--screenshot`."""

from __future__ import annotations

import sys
from pathlib import Path

from trainer import __version__


def run(*, screenshot: str | None = None, screen: str | None = None, db: str | None = None) -> int:
    from ui.qt import QApplication
    from ui.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Dealer Trainer")
    app.setOrganizationName("Dealer Trainer")
    app.setApplicationVersion(__version__)
    window = MainWindow()
    if screenshot:
        return save_screenshot(window, Path(screenshot))
    window.show()
    return app.exec()


def save_screenshot(window, path: Path) -> int:
    """Render the window off screen to a PNG; one line and exit 2 if it cannot be written."""
    window.resize(window.sizeHint().expandedTo(window.minimumSize()))
    window.show()
    image = window.grab()
    if not path.parent.is_dir():
        print(f"--screenshot: the folder {path.parent} does not exist", file=sys.stderr)
        return 2
    if not image.save(str(path), "PNG"):
        print(f"--screenshot: could not write {path}", file=sys.stderr)
        return 2
    window.close()
    return 0
