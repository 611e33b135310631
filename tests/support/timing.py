"""Where a test's time goes, for finding the tests that wait: `-p tests.support.timing` writes, for
each test, its wall time (setup, call and teardown), the CPU of this process, of the programs it
ran and waited for (a command, pg_ctl), and of the class servers it started (PostgreSQL's
processes are not this process's children: read from /proc), and what is left of the wall: the
time nothing counted here ran ("idle"). With `DEALER_TRAINER_TIMING=FILE` the rows go to FILE as
tab-separated text, else the tests that waited most are printed at the end.

A measuring aid, never a check: no test passes or fails on what it reads. Linux only (/proc)."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest

from trainer.classes.server.postgres import Postgres

TICK = os.sysconf("SC_CLK_TCK")
#: each class server started in this process: its postmaster's pid and the CPU last read of it
_servers: dict[int, list] = {}  # id(server) -> [server, pid, cpu]
_pg_total = 0.0
rows: list[tuple[str, float, float, float, float]] = []


def _ticks(pid: int, *, children: bool) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    used = int(fields[11]) + int(fields[12])  # utime, stime
    if children:  # and those of the children it waited for: the backends that ended
        used += int(fields[13]) + int(fields[14])
    return used / TICK


def _tree(pid: int) -> float:
    """The CPU of a postmaster, of its live processes and of those that ended. A process that
    ends while the others are read is counted in neither place (the postmaster, read first, had
    not yet reaped it; /proc, read after, no longer lists it): a connection kept for the whole
    run loses all it used when it closes. So the postmaster is read again after the others, and
    the whole read again while its count of the ended ones moved."""
    for _ in range(10):
        ended = _ticks(pid, children=True)
        total = ended
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    stat = (entry / "stat").read_text().rpartition(")")[2].split()
                    if int(stat[1]) == pid:
                        total += (int(stat[11]) + int(stat[12])) / TICK
        if _ticks(pid, children=True) == ended:
            break
    return total


def _postmaster(server: Postgres) -> int | None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        pid = int((server.pgdata / "postmaster.pid").read_text().split()[0])
        if Path(f"/proc/{pid}").exists():
            return pid
    return None


def sample() -> float:
    """The CPU every class server of this process has used, as far as it can be read."""
    global _pg_total
    for entry in _servers.values():
        server, pid, last = entry
        now = _postmaster(server)
        if now is None:
            continue
        with contextlib.suppress(OSError):
            used = _tree(now)
            _pg_total += used - last if now == pid else used
            entry[1], entry[2] = now, used
    return _pg_total


def _watched(method):
    def run(self, *args, **kwargs):
        _servers.setdefault(id(self), [self, None, 0.0])
        sample()  # before a stop: what the server used, while it can still be read
        try:
            return method(self, *args, **kwargs)
        finally:
            sample()
    return run


def pytest_configure(config):
    for name in ("start", "stop", "crash"):
        setattr(Postgres, name, _watched(getattr(Postgres, name)))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    before = os.times()
    pg, wall = sample(), time.monotonic()
    try:
        return (yield)
    finally:
        after = os.times()
        wall = time.monotonic() - wall
        cpu = after.user + after.system - before.user - before.system
        kids = (after.children_user + after.children_system
                - before.children_user - before.children_system)
        rows.append((item.nodeid, wall, cpu, kids, sample() - pg))


def pytest_sessionfinish(session):
    out = os.environ.get("DEALER_TRAINER_TIMING")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if out:
        with open(out + (f".{worker}" if worker else ""), "a") as f:
            for nodeid, wall, cpu, kids, pg in rows:
                f.write(f"{nodeid}\t{wall:.3f}\t{cpu:.3f}\t{kids:.3f}\t{pg:.3f}\n")


def pytest_terminal_summary(terminalreporter):
    if os.environ.get("DEALER_TRAINER_TIMING") or not rows:
        return
    tr = terminalreporter
    wall = sum(r[1] for r in rows)
    used = [sum(r[2:]) for r in rows]
    tr.section("where the time went (wall, this process, its programs, PostgreSQL, idle; s)")
    tr.line(f"all {len(rows)} tests: wall {wall:.1f}, python {sum(r[2] for r in rows):.1f}, "
            f"programs {sum(r[3] for r in rows):.1f}, postgres {sum(r[4] for r in rows):.1f}, "
            f"idle {wall - sum(used):.1f}")
    for (nodeid, w, cpu, kids, pg), u in sorted(zip(rows, used, strict=True),
                                                    key=lambda r: r[1] - r[0][1])[:25]:
        tr.line(f"{w:7.2f} {cpu:6.2f} {kids:6.2f} {pg:6.2f} idle {w - u:6.2f}  {nodeid}")
