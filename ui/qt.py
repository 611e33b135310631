"""Every Qt name the app uses comes through this one module, so Qt is imported in one place."""

from PySide6.QtCore import QSettings, QSize, Qt, QTimer  # noqa: F401
from PySide6.QtGui import QFont, QGuiApplication, QPalette  # noqa: F401
from PySide6.QtWidgets import (  # noqa: F401
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)
