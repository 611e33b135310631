"""The order a parallel run hands tests out in (tests/support/order.py): the slowest first, a
group's tests where they were."""

from __future__ import annotations

import pytest

from tests.support.order import slow_first


class Item:
    """What the ordering reads of a test: its markers."""

    def __init__(self, name: str, *marks: pytest.MarkDecorator):
        self.name, self.marks = name, [m.mark for m in marks]

    def get_closest_marker(self, name: str):
        return next((m for m in self.marks if m.name == name), None)

    def iter_markers(self, name: str):
        return (m for m in self.marks if m.name == name)


def test_the_slow_tests_go_first_and_a_groups_tests_stay_where_they_were():
    items = [Item("a"), Item("b", pytest.mark.slow), Item("c", pytest.mark.xdist_group("g")),
             Item("d", pytest.mark.slow, pytest.mark.xdist_group("g")), Item("e"),
             Item("f", pytest.mark.slow)]
    assert [i.name for i in slow_first(items)] == ["b", "f", "a", "c", "d", "e"]


def test_with_no_slow_test_the_order_is_kept():
    items = [Item(n) for n in "zyx"]
    assert [i.name for i in slow_first(items)] == ["z", "y", "x"]
