"""Shared test setup, loaded once for the whole run from tests/support: the program as a user runs
it, a clean Qt per test, and one class server (a real PostgreSQL) for every test that needs it.
Helpers shared by several test modules live in tests/support too
(`from tests.support.<module> import`)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.register_assert_rewrite("tests.support")  # the helpers' asserts explain as a test's do

pytest_plugins = ["tests.support.command", "tests.support.qt", "tests.support.class_server_fixtures",
                  "tests.support.markers"]
