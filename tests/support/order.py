"""In a parallel run (`make test`), the slowest tests are handed out first: a test of half a minute
handed out last keeps one worker busy while the others have nothing left to do.

The slowest are those marked `slow` (tests/support/markers.py). A test of an xdist_group keeps its
place: a group runs in its order (tests/support/groups.py). A run in one process keeps the order
of the files."""

from __future__ import annotations

import pytest

from tests.support.groups import group


def slow_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The slow tests that belong to no group, then every other test, each in its order."""
    first = [item for item in items if item.get_closest_marker("slow") and group(item) is None]
    chosen = set(map(id, first))
    return first + [item for item in items if id(item) not in chosen]


@pytest.hookimpl(trylast=True)  # after the markers are given
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
        items[:] = slow_first(items)
