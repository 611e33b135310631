"""Call speed: the seconds from the dice at rest to the end of each call made aloud, kept with the
attempt (migration m026_call_speeds), and shown on the Progress screen per game."""

from __future__ import annotations

import math
import sqlite3

import pytest

from tests.support.library import bundled
from trainer.progress import Store, call_speeds, record_call_speeds


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


def test_the_speeds_are_kept_and_read_per_game(store):
    ana = store.add_trainee("Ana")
    record_call_speeds(store, ana, "a" * 32, "props-and-hops", [(1, 1.2), (2, 0.8), (3, 2.0)], at=10)
    record_call_speeds(store, ana, "b" * 32, "three-dice-football", [(1, 3.0)], at=20)
    record_call_speeds(store, ana, "c" * 32, "props-and-hops", [(1, 1.5)], at=30)
    bo = store.add_trainee("Bo")
    record_call_speeds(store, bo, "d" * 32, "props-and-hops", [(1, 9.0)], at=40)
    got = {s.game: (s.median, s.calls, s.last) for s in call_speeds(store, ana)}
    # props: 0.8 1.2 1.5 2.0, the median between 1.2 and 1.5; the last recorded 1.5
    assert got == {"props-and-hops": (pytest.approx(1.35), 4, 1.5),
                   "three-dice-football": (3.0, 1, 3.0)}
    assert call_speeds(store, store.add_trainee("Cy")) == []


@pytest.mark.parametrize("bad", [-0.1, math.nan, math.inf, 3600.5, True, "1.0", None])
def test_a_speed_that_is_no_number_of_seconds_is_refused_whole(store, bad):
    ana = store.add_trainee("Ana")
    with pytest.raises(ValueError, match=r"call speed 1: .* is not a number of seconds from 0 to 3600"):
        record_call_speeds(store, ana, "a" * 32, "props-and-hops", [(1, 1.0), (2, bad)])
    assert call_speeds(store, ana) == []  # the good one before it is not kept alone


def test_the_file_refuses_a_changed_or_deleted_speed_and_one_out_of_bounds(store):
    ana = store.add_trainee("Ana")
    record_call_speeds(store, ana, "a" * 32, "props-and-hops", [(1, 1.0)])
    db = store.db
    with pytest.raises(sqlite3.IntegrityError, match="never changed"):
        db.execute("UPDATE call_speeds SET seconds = 0.5")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM call_speeds")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute("INSERT INTO call_speeds VALUES ('e', 0, ?, 'props-and-hops', 1, -1, 0)", (ana,))


def test_a_rounds_spoken_calls_are_kept_with_its_attempt_and_shown_on_progress(qtbot, store):
    from trainer import Automation, PracticeRound
    from ui.progress.page import ProgressPage
    from ui.shell.services import Services

    store.add_trainee("Ana")
    ana = store.find_trainee("Ana")
    services = Services(store, ana)
    page = ProgressPage(services)
    qtbot.addWidget(page)
    assert "no calls made aloud yet" in page.call_speed.text()
    round_ = PracticeRound(bundled().by_id("ph-no-roll-calls"), Automation.CALLS)
    round_.call_speeds = [(1, 0.9), (2, 1.6)]
    attempt = services.record(round_.finish(), round_)
    uid = store.db.execute("SELECT uid FROM attempts WHERE id = ?", (attempt,)).fetchone()[0]
    rows = store.db.execute("SELECT attempt_uid, n, throw, seconds, game FROM call_speeds").fetchall()
    assert rows == [(uid, 0, 1, 0.9, "props-and-hops"), (uid, 1, 2, 1.6, "props-and-hops")]
    page.refresh()
    assert "Props & Hops: 1.2 s median of 2 calls, the last 1.6 s" in page.call_speed.text()
