"""The exam clock: seconds since 1970 by the wall clock as read once, when the app started,
advanced by a steady clock that counts the time the computer sleeps. Setting the computer's clock
during an exam neither buys time nor moves the times recorded, and neither does closing a laptop's
lid: the time asleep counts against the exam.

Which steady clock counts sleep depends on the OS, and `steady_clock` is the one place that says:

- Linux: `CLOCK_BOOTTIME` (its `CLOCK_MONOTONIC`, behind `time.monotonic`, stops while suspended);
- macOS: `CLOCK_MONOTONIC` read through `clock_gettime`, which goes on while the machine sleeps
  (`time.monotonic` there is `mach_absolute_time`, which does not, and neither does
  `CLOCK_UPTIME_RAW`);
- anywhere else, Windows included: `FALLBACK`, `time.monotonic` (on Windows it counts sleep).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

FALLBACK = "time.monotonic"  # the steady clock where no clock known to count sleep is named


def steady_clock() -> tuple[str, Callable[[], float]]:
    """The steady clock of this OS that counts sleep: its name and a function that reads it."""
    if hasattr(time, "CLOCK_BOOTTIME"):
        return "CLOCK_BOOTTIME", lambda: time.clock_gettime(time.CLOCK_BOOTTIME)
    if sys.platform == "darwin":
        return "CLOCK_MONOTONIC", lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
    return FALLBACK, lambda: time.monotonic()


class ExamClock:
    """Now, in seconds since 1970: the wall clock when made, plus the steady time since."""

    def __init__(self) -> None:
        self.name, self._steady = steady_clock()
        self._wall, self._start = time.time(), self._steady()  # read together, once

    def __call__(self) -> float:
        return self._wall + (self._steady() - self._start)


exam_clock = ExamClock()
