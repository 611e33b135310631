"""The app's words where Qt cannot open its window under X11 for want of a system library (a fresh
Debian desktop without libxcb-cursor0: Qt says only that reinstalling may help, and aborts)."""

from __future__ import annotations

import pytest

from ui.shell import window_system

X11 = {"DISPLAY": ":0"}


def lacking(*names):
    """A loader that fails, as the system's does, for `names`."""
    def load(name):
        base = name.rsplit("/", 1)[-1]
        for lib in names:
            if base == lib or (base == "libqxcb.so" and lib not in window_system.PACKAGES):
                raise OSError(f"{lib}: cannot open shared object file: No such file or directory")
        return object()
    return load


@pytest.mark.parametrize(("env", "x11"), [
    ({"DISPLAY": ":0"}, True), ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),
    ({"QT_QPA_PLATFORM": "xcb"}, True), ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, False),
    ({"QT_QPA_PLATFORM": "xcb:foo=1", "WAYLAND_DISPLAY": "w"}, True), ({}, False)])
def test_x11_is_qt_s_choice_where_there_is_a_display_and_no_wayland(env, x11):
    assert window_system.uses_x11(env) is x11


def test_each_missing_library_is_named_with_its_package():
    said = window_system.problem(X11, lacking("libxcb-cursor.so.0", "libxcb-icccm.so.4"))
    assert said == ("Dealer Trainer cannot open its window: Qt's X11 plugin needs "
                    "libxcb-cursor.so.0, libxcb-icccm.so.4, which this computer lacks.\n"
                    "On Debian or Ubuntu: sudo apt install libxcb-cursor0 libxcb-icccm4")


def test_a_library_the_list_does_not_know_is_named_from_the_plugin_s_failure():
    said = window_system.problem(X11, lacking("libxcb-util.so.1"))
    assert said == ("Dealer Trainer cannot open its window: Qt's X11 plugin needs "
                    "libxcb-util.so.1, which this computer lacks.")


def test_nothing_is_said_where_everything_loads_or_x11_is_not_used():
    assert window_system.problem(X11, lacking()) is None
    assert window_system.problem({"QT_QPA_PLATFORM": "offscreen"}, lacking("libxcb-cursor.so.0")) is None


def test_the_app_says_it_and_ends_before_qt_would_abort(monkeypatch, capsys):
    """`dealer-trainer` (and --screenshot) say why in one paragraph, exit 1, no window made."""
    from ui.main import main

    monkeypatch.setattr(window_system, "problem", lambda: "Dealer Trainer cannot open its window: …")
    made = []
    monkeypatch.setattr("ui.shell.app.application", lambda *a, **k: made.append(1))
    assert main([]) == 1
    assert main(["--screenshot", "x.png"]) == 1
    assert capsys.readouterr().err == "Dealer Trainer cannot open its window: …\n" * 2
    assert made == []


def test_a_library_there_but_failing_otherwise_is_qt_s_to_meet():
    """Only a library that cannot be found stops the start: a plugin that loads with a symbol
    missing (Qt binds symbols when used), a file Qt may yet read, are left to Qt."""
    def load(name):
        if name.endswith("libqxcb.so"):
            raise OSError(f"{name}: undefined symbol: xcb_something_new")
        if name == "libxcb-shape.so.0":
            raise OSError(f"{name}: invalid ELF header")
        return object()

    assert window_system.problem(X11, load) is None
