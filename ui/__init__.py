"""Dealer Trainer's desktop app (PySide6). It draws and collects input; the rules live in `trainer`."""
