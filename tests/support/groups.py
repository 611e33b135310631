"""`xdist_group` for a parallel run (`make test`: pytest-xdist, `--dist loadgroup`): tests marked
with one group's name run in one worker, in their order.

xdist tells its scheduler a test's group by adding `@NAME` to the test's id in the worker. With
pytest 9.2, whose ids are structured, what xdist 3.8 writes is never read, so every group is
silently scattered (https://github.com/pytest-dev/pytest-xdist/issues/1386). This plugin writes
the id the way pytest 9.2 reads it, after xdist has had its turn, and leaves alone an id that
already carries its group."""

from __future__ import annotations

import pytest


def group(item: pytest.Item) -> str | None:
    """The test's group: its xdist_group marks' names, joined as xdist joins them."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
             for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) if names else None


def grouped(nodeid: str) -> bool:
    """Whether a test id carries a group, as xdist's scheduler reads it."""
    return nodeid.rfind("@") > nodeid.rfind("]")


@pytest.hookimpl(trylast=True)  # after xdist's own try
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "loadgroup", False):  # set in xdist's workers of a loadgroup run
        return
    for item in items:
        name = group(item)
        if name is None or grouped(item.nodeid):
            continue
        nodeid = f"{item.nodeid}@{name}"
        if hasattr(item, "_id"):  # pytest 9.2: a NodeId, whose parse keeps the whole string
            item._id = type(item._id).parse(nodeid)
        else:
            item._nodeid = nodeid
