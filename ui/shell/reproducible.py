"""A reproducible picture (`--screenshot FILE --reproducible`): every clock the app reads stopped
at one moment (`AT`), and the demonstration's keys, nonces and codes drawn from a seed, so that
two pictures of a screen, from the venv and from the desktop bundle, on any day, are the same
bytes. Used by the tests and `make test-bundle`; never in the app's normal use (`ui.main` takes
it with --screenshot only).

The clock is stopped in the `time` module itself (its wall, steady and calendar readings), before
the engine's modules that keep a clock from their import (the practice round's, the exam clock)
are loaded; Qt's own timers keep running, so a screen that waits for a first read still does. The
random draws the demonstration makes through `secrets`, `uuid.uuid4` and `random.SystemRandom`
(its installation key, nonces, start codes, ids) come from one seeded generator, and its
instructor's Ed25519 key, which OpenSSL draws, from the seed itself (`seed_for`, read by
`ui.shell.app`'s demonstration class). Dates are written in the local time zone, as in use: two
computers in different zones draw them apart."""

from __future__ import annotations

import hashlib
import random
import secrets
import sys
import time
import uuid

#: the moment every picture is taken at: 2026-03-02 15:00 UTC, a Monday afternoon of a class
AT = 1_772_463_600.0
SEED = 24
#: the engine's modules that read a clock into a default at their import: stopped before they load
KEEP_A_CLOCK = ("trainer.practice", "trainer.exams.clock")
_stopped: list[float] = []  # the moment, once stop_the_clock has stopped it


def seed_for(what: str) -> bytes | None:
    """32 bytes for `what` (a demonstration key) from SEED once the clock is stopped; None in
    normal use, where a key is drawn at random."""
    return hashlib.sha256(f"{SEED}:{what}".encode()).digest() if _stopped else None


def stop_the_clock(at: float = AT) -> None:
    """Every reading of the `time` module at `at` (the steady ones at a fixed value too), the
    calendar's in the local zone as before; and the randomness of `secrets`, `uuid4` and
    `random.SystemRandom` from SEED."""
    loaded = [m for m in KEEP_A_CLOCK if m in sys.modules]
    if loaded:
        raise RuntimeError(f"the clock is stopped too late: {', '.join(loaded)} already keep the real one")
    _stopped.append(at)
    localtime, gmtime, strftime = time.localtime, time.gmtime, time.strftime

    def now(*_clock) -> float:
        return at

    time.time = time.monotonic = time.perf_counter = time.clock_gettime = now  # type: ignore[assignment]
    time.time_ns = time.monotonic_ns = time.perf_counter_ns = lambda: int(at * 1e9)  # type: ignore[assignment]
    time.localtime = lambda secs=None: localtime(at if secs is None else secs)  # type: ignore[assignment]
    time.gmtime = lambda secs=None: gmtime(at if secs is None else secs)  # type: ignore[assignment]
    time.strftime = lambda fmt, t=None: strftime(fmt, localtime(at) if t is None else t)  # type: ignore[assignment]
    draw = random.Random(SEED)
    random.SystemRandom = lambda *_seed: draw  # type: ignore[assignment,misc]
    secrets.token_bytes = lambda n=32: draw.randbytes(n)  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: draw.randbytes(n).hex()  # type: ignore[assignment]
    secrets.choice = draw.choice  # type: ignore[assignment]
    uuid.uuid4 = lambda: uuid.UUID(bytes=draw.randbytes(16), version=4)  # type: ignore[assignment]
