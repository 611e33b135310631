"""Dealer Trainer's engine: the rules of Pennsylvania's regulated dice games, with no Qt.

The user interface lives in `ui`; this package never imports it (an import-linter contract in
pyproject.toml holds that line).
"""

__version__ = "0.1.0"
