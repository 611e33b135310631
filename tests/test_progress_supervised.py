"""Supervised rounds in the progress file (trainer.progress.supervised, migration
m021_supervised_rounds): each round and its faults kept, append-only, and the catch rate per fault
class and per game counted from them by hand here, with the weakest class."""

from __future__ import annotations

import sqlite3
from fractions import Fraction

import pytest

from trainer.progress import Store, catch_rates, record_supervised
from trainer.supervise.playback import deal
from trainer.supervise.scoring import Flag, score


def caught_first(rnd):
    """Flags that catch the round's first fault (named right) and raise one false alarm."""
    first = rnd.faults[0]
    return score(rnd, [Flag(first.at + 1.0, first.target, first.type.id),
                       Flag(0.0, "nowhere", "nothing")])


def two_fault_round(game: str, start: int = 1):
    seed = next(s for s in range(start, start + 80) if len(deal(game, 2, s).faults) >= 2)
    return deal(game, 2, seed)


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


def test_a_round_and_its_faults_are_kept(store):
    ana = store.add_trainee("Ana")
    rnd = two_fault_round("pai-gow-dice")
    s = caught_first(rnd)
    row = record_supervised(store, ana, rnd, s, 2, finished=1000.0)
    kept = store.query("SELECT * FROM supervised_rounds WHERE id = ?", (row,))[0]
    assert (kept["round_uid"], kept["game"], kept["difficulty"], kept["false_alarms"],
            kept["pace"]) == (rnd.id, "pai-gow-dice", 2, 1, 2.0)
    assert Fraction(kept["score"]) == s.score
    faults = store.query("SELECT * FROM supervised_faults WHERE round_id = ? ORDER BY n", (row,))
    assert [(f["kind"], f["caught"]) for f in faults] == [
        (f.type.id, int(n == 0)) for n, f in enumerate(rnd.faults)]
    assert faults[0]["seconds"] == 1.0 and faults[1]["seconds"] is None
    with pytest.raises(sqlite3.DatabaseError, match="append-only"), store.write() as db:
        db.execute("DELETE FROM supervised_faults")
    with pytest.raises(sqlite3.DatabaseError, match="never changed"), store.write() as db:
        db.execute("UPDATE supervised_rounds SET score = '1'")


def test_catch_rates_per_class_and_game_and_the_weakest(store):
    ana, ben = store.add_trainee("Ana"), store.add_trainee("Ben")
    rounds = [two_fault_round(g, 1 + 7 * n) for n, g in enumerate(
        ("props-and-hops", "three-dice-football", "high-roll-dice", "pai-gow-dice", "props-and-hops",
         "high-roll-dice-6"))]
    for rnd in rounds:
        record_supervised(store, ana, rnd, caught_first(rnd), 2)
    record_supervised(store, ben, rounds[0], score(rounds[0], []), 2)
    # counted here: every fault of Ana's rounds, the first of each caught
    by_class: dict[str, list[int]] = {}
    by_game: dict[str, list[int]] = {}
    for rnd in rounds:
        for n, f in enumerate(rnd.faults):
            for key, table in ((f.type.fault_class.value, by_class), (rnd.scenario.game, by_game)):
                table.setdefault(key, [0, 0])
                table[key][0] += n == 0
                table[key][1] += 1
    rates = catch_rates(store, ana)
    assert rates.rounds == len(rounds)
    assert rates.by_class == {k: tuple(v) for k, v in by_class.items()}
    assert rates.by_game == {k: tuple(v) for k, v in by_game.items()}
    seen = {k: Fraction(*v) for k, v in by_class.items() if v[1] >= 3}
    assert rates.weakest in seen and seen[rates.weakest] == min(seen.values())
    in_games = {g: Fraction(*p) for (g, c), p in rates.by_game_class.items() if c == rates.weakest}
    assert in_games[rates.weakest_game] == min(in_games.values())
    assert catch_rates(store, ben).by_game == {
        "props-and-hops": (0, len(rounds[0].faults))}
    assert catch_rates(store, store.add_trainee("Cy")).weakest is None


def test_a_row_of_no_game_of_ours_written_into_the_file_is_left_out(store):
    """The progress file is the trainee's to edit: a supervised round of a game this trainer has
    not is not counted, and never becomes the game to drill."""
    ana = store.add_trainee("Ana")
    with store.write() as db:
        row = db.execute("INSERT INTO supervised_rounds (trainee_id, round_uid, game, difficulty, "
                         "finished, pace, score, d_prime, false_alarms, flags) VALUES "
                         "(?, 'x', 'casino', 1, 0, 2, '0', 0, 0, '[]')", (ana,)).lastrowid
        for n in range(5):
            db.execute("INSERT INTO supervised_faults VALUES (?, ?, 'ph-short-pay', 'money', 0, NULL)",
                       (row, n))
    rates = catch_rates(store, ana)
    assert rates.by_game == {} and rates.by_class == {} and rates.weakest is None
    assert rates.rounds == 0
    rnd = two_fault_round("pai-gow-dice")
    record_supervised(store, ana, rnd, score(rnd, []), 2)
    assert set(catch_rates(store, ana).by_game) == {"pai-gow-dice"}
